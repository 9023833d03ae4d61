"""tf.roll, reverse_sequence, repeat, ensure_shape, tensor_scatter_nd_max/min (gradients at
orders 1 and 2, graph and eager), and the errors and static shapes of unique, bitcast,
searchsorted, bincount, histogram_fixed_width, broadcast shapes, sequence_mask and tf.bitwise.
Their values against TensorFlow 2.21 are in tests/test_kerasops_reference.py.

The numerical gradient checks of the kerasops_array cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors


def test_tensor_scatter_extreme_ties_share_the_gradient():
    tf.enable_v2_behavior()
    t = flowgrad.constant([2.0, 1.0], flowgrad.float64)
    u = flowgrad.constant([2.0], flowgrad.float64)
    with flowgrad.GradientTape(persistent=True) as tape:
        tape.watch([t, u])
        y = flowgrad.tensor_scatter_nd_max(t, [[0]], u)
    np.testing.assert_allclose(tape.gradient(y, t).numpy(), [0.5, 1.0])
    np.testing.assert_allclose(tape.gradient(y, u).numpy(), [0.5])


def test_errors_name_the_op():
    tf.enable_v2_behavior()
    with pytest.raises(errors.InvalidArgumentError, match="Unique"):
        flowgrad.unique([[1, 2]])
    with pytest.raises(errors.InvalidArgumentError, match="Bitcast"):
        flowgrad.bitcast(flowgrad.constant([1, 2, 3], flowgrad.uint8), flowgrad.int32)
    with pytest.raises(errors.InvalidArgumentError, match="ReverseSequence"):
        flowgrad.reverse_sequence([[1, 2]], [3], seq_axis=1)
    with pytest.raises(errors.InvalidArgumentError, match="Roll"):
        flowgrad.roll([1, 2], [1, 1], [0])
    with pytest.raises(errors.InvalidArgumentError, match="Incompatible shapes"):
        flowgrad.broadcast_dynamic_shape([2], [3])
    with pytest.raises(ValueError, match="Incompatible shapes"):
        flowgrad.broadcast_static_shape(flowgrad.TensorShape([2]), flowgrad.TensorShape([3]))
    with pytest.raises(errors.InvalidArgumentError, match="not compatible"):
        flowgrad.ensure_shape(flowgrad.constant([1.0, 2.0]), [3])
    with pytest.raises(errors.InvalidArgumentError, match="non-negative"):
        flowgrad.math.bincount([1, -1])
    with pytest.raises(errors.InvalidArgumentError, match="HistogramFixedWidth"):
        flowgrad.histogram_fixed_width([1.0], [2.0, 1.0], 3)
    with pytest.raises(ValueError, match="side"):
        flowgrad.searchsorted([1.0], [1.0], side="middle")
    with pytest.raises(TypeError, match="BitwiseAnd"):
        flowgrad.bitwise.bitwise_and(1.0, 2.0)


def test_static_shapes_in_a_graph():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        assert tf.ensure_shape(x, [2, None]).shape.as_list() == [2, 3]
        with pytest.raises(ValueError, match="ensure_shape"):
            tf.ensure_shape(x, [None, 4])
        assert tf.bitcast(x, tf.uint8).shape.as_list() == [None, 3, 4]
        y, idx = tf.unique(tf.placeholder(tf.int32, [5]))
        assert y.shape.as_list() == [None] and idx.shape.as_list() == [5]
        assert tf.roll(x, 1, 0).shape.as_list() == [None, 3]
        assert tf.get_static_value(x) is None
        assert tf.get_static_value(tf.shape(tf.zeros([2, 3]))).tolist() == [2, 3]
        assert flowgrad.broadcast_static_shape(tf.TensorShape([None, 1]),
                                               tf.TensorShape([4])).as_list() == [None, 4]


def test_repeat_with_counts_known_only_when_run():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2])
        n = tf.placeholder(tf.int32, [None])
        y = tf.repeat(x, n, axis=0)
        with tf.Session() as sess:
            got = sess.run(y, {x: [[1, 2], [3, 4]], n: [0, 3]})
    np.testing.assert_array_equal(got, [[3, 4]] * 3)


def test_unique_along_an_axis_keeps_first_occurrence_order():
    tf.enable_v2_behavior()
    from flowgrad.framework.op_call import apply_op
    x = flowgrad.constant([[1, 0, 1], [2, 3, 2]])
    y, idx, count = apply_op("UniqueWithCountsV2", (x, flowgrad.constant([1], flowgrad.int64)),
                             {"out_idx": flowgrad.int32})
    assert y.numpy().tolist() == [[1, 0], [2, 3]]
    assert idx.numpy().tolist() == [0, 1, 0] and count.numpy().tolist() == [2, 1]


def test_faces():
    for name in ("repeat roll unique unique_with_counts bitcast reverse_sequence sequence_mask "
                 "ensure_shape broadcast_dynamic_shape broadcast_static_shape get_static_value "
                 "searchsorted histogram_fixed_width histogram_fixed_width_bins "
                 "tensor_scatter_nd_max tensor_scatter_nd_min").split():
        assert callable(getattr(flowgrad, name)) and callable(getattr(tf, name)), name
    assert flowgrad.math.bincount is tf.math.bincount is tf.bincount
    assert tf.bitwise.left_shift is flowgrad.bitwise.left_shift
    assert not hasattr(flowgrad, "bincount")
    # TF1's reverse_sequence also takes the old argument names
    tf.enable_v2_behavior()
    np.testing.assert_array_equal(tf.reverse_sequence([[1, 2, 3]], [2], seq_dim=1).numpy(),
                                  [[2, 1, 3]])
