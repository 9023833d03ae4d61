"""3-D convolution and pooling (Conv3D, MaxPool3D, AvgPool3D and their gradient ops) and
grouped convolutions against TensorFlow 2.21's results (tests/data/conv3d, recorded by
tools/tf_reference/conv3d_reference.py); their numerical gradient checks are op_db entries
(tests/op_db.py's conv and pooling families)."""
import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

REF = json.loads((Path(__file__).parent / "data" / "conv3d" / "tensorflow_2.21.json")
                 .read_text())
nn = tf.nn

CASES = {
    "conv3d_same": lambda x, w: nn.conv3d(x, w, [1] * 5, "SAME"),
    "conv3d_valid_strides": lambda x, w: nn.conv3d(x, w, [1, 2, 1, 2, 1], "VALID"),
    "conv3d_ncdhw": lambda x, w: nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME", data_format="NCDHW"),
    "conv3d_transpose": lambda dy, w: nn.conv3d_transpose(dy, w, [2, 4, 5, 3, 2],
                                                          [1, 2, 2, 1, 1], "SAME"),
    "conv3d_grouped": lambda x, w: nn.conv3d(x, w, [1] * 5, "VALID"),
    "conv2d_grouped": lambda x, w: nn.conv2d(x, w, [1, 2, 1, 1], "SAME"),
    "conv2d_grouped_dilated": lambda x, w: nn.conv2d(x, w, 1, "VALID", dilations=2),
}


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def _fn(name):
    if name in CASES:
        return CASES[name]
    fn = nn.max_pool3d if name.startswith("max") else nn.avg_pool3d
    k, s, p = REF[name]["args"]
    return lambda x: fn(x, k, s, p)


def _run(fn, inputs):
    xs = [tf.constant(np.asarray(v, np.float32)) for v in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return y, xs, tape


@pytest.mark.parametrize("name", sorted(REF))
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_output_and_gradients_match_tensorflow(name, mode):
    rec = REF[name]
    fn = _fn(name)
    if mode == "function":
        fn = tf.function(fn)
    y, xs, tape = _run(fn, rec["inputs"])
    want = np.asarray(rec["output"], np.float32)
    assert y.shape == want.shape
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-5)
    # the recording's gradients are of sum(y * dy), dy drawn with the case's seed
    seed = {"conv3d_same": 1, "conv3d_valid_strides": 2, "conv3d_ncdhw": 3,
            "conv3d_transpose": 4, "conv3d_grouped": 5, "conv2d_grouped": 6,
            "conv2d_grouped_dilated": 7}.get(name, 8)
    dy = tf.constant(np.random.default_rng(seed).normal(size=want.shape).astype(np.float32))
    grads = tape.gradient(y, xs, output_gradients=dy)
    for g, w in zip(grads, rec["grads"]):
        np.testing.assert_allclose(g.numpy(), np.asarray(w, np.float32), rtol=1e-4, atol=1e-4)


def test_static_shapes_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 8, 7, 6, 4])
        assert nn.conv3d(x, tf.zeros([3, 3, 3, 2, 6]), [1, 2, 2, 2, 1], "SAME").shape.as_list() \
            == [None, 4, 4, 3, 6]
        assert nn.max_pool3d(x, 2, 2, "VALID").shape.as_list() == [None, 4, 3, 3, 4]
        assert nn.avg_pool3d(x, 3, 1, "SAME", "NCDHW").shape.as_list() == [None, 8, 7, 6, 4]
        assert nn.convolution(x, tf.zeros([1, 1, 1, 4, 2])).shape.as_list() == [None, 8, 7, 6, 2]


def test_tf_nn_dispatch_by_rank():
    x = np.random.default_rng(1).normal(size=(1, 4, 4, 4, 2)).astype(np.float32)
    w = np.random.default_rng(2).normal(size=(2, 2, 2, 2, 3)).astype(np.float32)
    np.testing.assert_allclose(nn.convolution(x, w, padding="SAME").numpy(),
                               nn.conv3d(x, w, [1] * 5, "SAME").numpy())
    np.testing.assert_allclose(nn.max_pool(x, 2, 2, "VALID").numpy(),
                               nn.max_pool3d(x, 2, 2, "VALID").numpy())
    np.testing.assert_allclose(nn.pool(x, [2, 2, 2], "AVG", strides=[2, 2, 2]).numpy(),
                               nn.avg_pool3d(x, 2, 2, "VALID").numpy())
    y = nn.conv3d(x, w, [1] * 5, "SAME")
    np.testing.assert_allclose(
        nn.conv_transpose(y, w, [1, 4, 4, 4, 2], 1, "SAME").numpy(),
        nn.conv3d_transpose(y, w, [1, 4, 4, 4, 2], [1] * 5, "SAME").numpy())


def test_bad_arguments_name_the_op():
    x = tf.zeros([1, 4, 4, 4, 4])
    with pytest.raises(ValueError, match="Depth of input"):
        nn.conv3d(x, tf.zeros([2, 2, 2, 3, 2]), [1] * 5, "SAME")
    with pytest.raises(ValueError, match="Depth of output"):
        nn.conv2d(tf.zeros([1, 4, 4, 4]), tf.zeros([2, 2, 2, 3]), 1, "SAME")
    with pytest.raises(ValueError, match="MaxPool3D: input must be rank 5"):
        nn.max_pool3d(tf.zeros([1, 4, 4, 4]), 2, 2, "VALID")
    with pytest.raises(ValueError, match="strides in the batch and depth dimensions"):
        nn.conv3d(x, tf.zeros([2, 2, 2, 4, 2]), [2, 1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="padding must be 'SAME' or 'VALID'"):
        nn.avg_pool3d(x, 2, 2, "FULL")
    with pytest.raises(errors.InvalidArgumentError, match="out_backprop"):
        tf.raw_ops.Conv3DBackpropInputV2(input_sizes=[1, 4, 4, 4, 4],
                                         filter=tf.zeros([2, 2, 2, 4, 2]),
                                         out_backprop=tf.zeros([1, 2, 2, 2, 2]),
                                         strides=[1] * 5, padding="SAME", data_format="NDHWC",
                                         dilations=[1] * 5)
