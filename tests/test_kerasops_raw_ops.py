"""tf.raw_ops: flowgrad's ops under TensorFlow's op type names, called with keyword arguments
as Keras's TensorFlow backend calls them; every name shown is one of TensorFlow 2.21's raw ops
(tests/data/kerasops/tf_raw_op_names.txt, written by tools/tf_reference/kerasops_reference.py)."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state

TF_RAW_OPS = set((Path(__file__).parent / "data" / "kerasops" / "tf_raw_op_names.txt")
                 .read_text().split())


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_only_tensorflows_raw_op_names_are_shown():
    # a fresh process: other test modules register ops of their own in this one
    code = "import flowgrad; print(' '.join(dir(flowgrad.raw_ops)))"
    shown = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=True, cwd=Path(__file__).parent.parent).stdout.split())
    assert shown - TF_RAW_OPS == set(), "not TensorFlow raw ops (add to FLOWGRAD_ONLY)"
    assert {"Bucketize", "UniqueV2", "UniqueWithCountsV2", "MatMul", "AddV2"} <= shown
    assert tf1.raw_ops is tf.raw_ops
    with pytest.raises(AttributeError):
        tf.raw_ops.ReduceToShapeOf      # noqa: B018 - flowgrad's internal helper
    with pytest.raises(AttributeError):
        tf.raw_ops.NoSuchOp      # noqa: B018


def test_the_raw_ops_keras_calls():
    x = tf.constant([-1.0, 0.0, 0.5, 2.0, 10.0])
    np.testing.assert_array_equal(
        tf.raw_ops.Bucketize(input=x, boundaries=[0.0, 1.0, 2.0]).numpy(), [0, 1, 1, 3, 3])
    y, idx = tf.raw_ops.UniqueV2(x=tf.constant([[1, 2], [3, 4], [1, 2]]), axis=[0])
    assert y.numpy().tolist() == [[1, 2], [3, 4]] and idx.numpy().tolist() == [0, 1, 0]
    y, idx, count = tf.raw_ops.UniqueWithCountsV2(x=tf.constant([5, 5, 2]),
                                                  axis=tf.constant([], tf.int64),
                                                  out_idx=tf.int64)
    assert count.numpy().tolist() == [2, 1] and idx.dtype == tf.int64


def test_inputs_attributes_and_errors():
    out = tf.raw_ops.MatMul(a=[[1.0, 2.0]], b=[[3.0], [4.0]], transpose_a=False, T=tf.float32,
                            name="mm")
    assert out.numpy().tolist() == [[11.0]]
    with pytest.raises(TypeError, match="unexpected argument 'bogus'"):
        tf.raw_ops.AddV2(x=1.0, y=2.0, bogus=3)
    with pytest.raises(TypeError, match="missing input 'x'"):
        tf.raw_ops.AddV2(y=2.0)
    with tf1.Graph().as_default():
        t = tf.raw_ops.Sin(x=tf1.placeholder(tf.float32, [3]), name="s")
        assert t.op.type == "Sin" and t.op.name == "s"
    tape_x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(tape_x)
        y = tf.raw_ops.Sin(x=tape_x)
    np.testing.assert_allclose(tape.gradient(y, tape_x).numpy(), np.cos(0.5), rtol=1e-6)
