"""TensorFlow 1's stacks and TensorArrays (StackV2/PushV2/PopV2, TensorArrayV3 and its
Write/Read/Gather/Scatter/Concat/Split/Size/GradV3 ops: what control flow v1's loops and
their gradients hold) in GraphDefs TensorFlow 2.21 wrote, run on flowgrad: TensorFlow's
values, and its error class and message for a pop from an empty stack, a second write or
read of an element, a write past the end of a fixed-size array, a read of an element not
written (zeros when its shape is known), an element of the wrong shape
(tests/data/tf_loop_training/stateful_array_ops.json, made by
tools/tf_reference/stateful_array_ops.py). The ops TensorFlow does not differentiate are
not differentiable; a gradient through the reads and writes TensorFlow differentiates is a
LookupError naming the op (their graphs hold TensorFlow 1's gradients already; arrays without
them import as flowgrad's own, differentiable TensorArray)."""
import base64
import json
import os
import re

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors, registry

with open(os.path.join(os.path.dirname(__file__), "data", "tf_loop_training",
                       "stateful_array_ops.json")) as _f:
    CASES = json.load(_f)


def _masked(message):
    """A message with the array's or stack's name out (TensorFlow numbers them per process)."""
    message = re.sub(r"TensorArray \S+: ", "TensorArray <name>: ", message)
    return re.sub(r"Stack\[[^\]]*\]", "Stack[<name>]", message)


@pytest.mark.parametrize("case", sorted(CASES))
def test_tensorflows_stack_and_tensor_array_graphs(case):
    rec = CASES[case]
    gd = tf1.GraphDef()
    gd.ParseFromString(base64.b64decode(rec["graph"]))
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        out = tf1.get_default_graph().get_tensor_by_name(rec["fetch"])
        with tf1.Session() as sess:
            if "error" in rec:
                cls, message = rec["error"]
                with pytest.raises(getattr(errors, cls)) as info:
                    sess.run(out)
                assert _masked(message) in _masked(info.value.message)
            else:
                want = np.asarray(rec["value"], np.float32).reshape(rec["shape"])
                got = sess.run(out)
                assert got.shape == want.shape
                np.testing.assert_array_equal(got, want)


def test_each_run_makes_new_arrays_and_stacks():
    """The handle ops run once per Session.run: an array written and read (cleared) in one
    run is new in the next, as TensorFlow's per-step resources."""
    rec = CASES["read_unwritten_known_shape"]
    gd = tf1.GraphDef()
    gd.ParseFromString(base64.b64decode(rec["graph"]))
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        out = tf1.get_default_graph().get_tensor_by_name(rec["fetch"])
        with tf1.Session() as sess:
            for _ in range(2):
                np.testing.assert_array_equal(sess.run(out), np.zeros(3, np.float32))


@pytest.mark.parametrize("op_type", ["StackV2", "StackPushV2", "StackPopV2", "TensorArrayV3",
                                     "TensorArraySizeV3", "TensorArrayGradV3"])
def test_ops_tensorflow_does_not_differentiate_are_not_differentiable(op_type):
    d = registry.get_op_def(op_type)
    assert d.stateful and not d.foldable
    assert registry._gradients[op_type] is None


def test_a_gradient_through_a_stateful_tensor_array_is_a_lookup_error():
    """TensorFlow differentiates TensorArray reads and writes; flowgrad's stateful ones
    (kept where a graph holds TensorFlow's own gradient arrays) do not: tf.gradients through
    them names the op, never a silent None."""
    path = os.path.join(os.path.dirname(__file__), "data", "tf_loop_training",
                        "loop_tensor_array_cfv1", "model.meta")
    with tf.Graph().as_default():
        tf1.train.import_meta_graph(path)
        loss = tf1.get_default_graph().get_tensor_by_name("loss:0")
        (w,) = [v for v in tf1.global_variables() if v.op.name == "w"]
        with pytest.raises(LookupError, match="TensorArrayGatherV3"):
            tf1.gradients(loss, [w])


def test_tensorflow_1_0s_stack_ops_are_the_v2_ones():
    """Graphs of TensorFlow before 1.4 hold Stack/StackPush/StackPop/StackClose (no
    max_size input): imported as the V2 ops, last pushed first popped."""
    from flowgrad.saved_model import graph_import
    imp = graph_import.IMPORTERS
    with tf.Graph().as_default() as g:
        h = imp["Stack"]([], {"elem_type": tf.float32, "stack_name": "s"}, "Stack")
        p1 = imp["StackPush"]([h, tf.constant([1.0, 2.0])], {"swap_memory": False}, "p1")
        with g.control_dependencies([p1.op]):
            p2 = imp["StackPush"]([h, tf.constant([3.0, 4.0])], {"swap_memory": False}, "p2")
        with g.control_dependencies([p2.op]):
            a = imp["StackPop"]([h], {"elem_type": tf.float32}, "a")
        with g.control_dependencies([a.op]):
            b = imp["StackPop"]([h], {"elem_type": tf.float32}, "b")
        with g.control_dependencies([b.op]):
            close = imp["StackClose"]([h], {}, "close")
        with tf1.Session() as sess:
            got = sess.run([a, b, close])
    np.testing.assert_array_equal(got[0], [3.0, 4.0])
    np.testing.assert_array_equal(got[1], [1.0, 2.0])
