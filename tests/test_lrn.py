"""tf.nn.lrn / local_response_normalization: TensorFlow's values and gradients
(tests/data/lrn/tf_2_21.json, recorded by tools/tf_reference/lrn_reference.py), and its
errors. The gradient checks at orders 1 and 2 are op_db's ("nn.lrn*")."""
import json
import os

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf1

RECORD = json.load(open(os.path.join(os.path.dirname(__file__), "data", "lrn",
                                     "tf_2_21.json")))


@pytest.mark.parametrize("i", range(len(RECORD["cases"])))
def test_values_and_gradients_are_tensorflows(i):
    case = RECORD["cases"][i]
    w = np.array(RECORD["w"], np.float32)
    tf1.enable_v2_behavior()
    try:
        x = flowgrad.constant(np.array(RECORD["x"], np.float32))
        with flowgrad.GradientTape() as tape:
            tape.watch(x)
            y = flowgrad.nn.lrn(x, **case["kwargs"])
            loss = flowgrad.reduce_sum(y * w)
        g = tape.gradient(loss, x)
    finally:
        tf1.disable_v2_behavior()
    assert y.dtype == flowgrad.float32
    np.testing.assert_allclose(y.numpy(), case["y"], rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(g.numpy(), case["grad"], rtol=2e-5, atol=2e-6)


def test_graph_mode_op_and_errors():
    x = tf1.placeholder(tf1.float32, [None, 2, 2, 3])
    y = tf1.nn.local_response_normalization(x, depth_radius=1)
    assert y.op.type == "LRN" and y.shape.as_list() == [None, 2, 2, 3]
    with tf1.Session() as sess:
        v = np.ones((1, 2, 2, 3), np.float32)
        np.testing.assert_allclose(sess.run(y, {x: v})[0, 0, 0],
                                   [1 / np.sqrt(3), 1 / 2, 1 / np.sqrt(3)], rtol=1e-6)
    with pytest.raises(ValueError, match="rank 4"):
        tf1.nn.lrn(tf1.zeros([2, 3]))
    with pytest.raises(TypeError, match="not in the list of allowed values"):
        tf1.nn.lrn(tf1.zeros([1, 1, 1, 2], tf1.int32))
    assert flowgrad.nn.lrn is flowgrad.nn.local_response_normalization
