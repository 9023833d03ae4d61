"""top_k / sort / argsort and the segment reductions: values against NumPy, errors, and
numerical gradients at orders 1 and 2 (graph and eager).

The numerical gradient checks of the sort_segment cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

RNG = np.random.RandomState(8)
X = RNG.permutation(24).reshape(2, 3, 4).astype(np.float64) / 7.0    # distinct values
TIES = np.array([[3.0, 1.0, 3.0, 2.0], [0.0, 5.0, -1.0, 5.0]])
DATA = RNG.randn(5, 2)
IDS = np.array([0, 0, 1, 3, 3])
UIDS = np.array([2, 0, 2, -1, 0])


def _run(t):
    return tf.Session().run(t)


def test_top_k_sort_argsort_values():
    v, i = tf.nn.top_k(TIES, 2)
    assert v.shape.as_list() == [2, 2] and i.dtype == tf.int32
    np.testing.assert_array_equal(_run(v), [[3, 3], [5, 5]])
    np.testing.assert_array_equal(_run(i), [[0, 2], [1, 3]])     # ties: lower index first
    assert tf.math.top_k is tf.nn.top_k and flowgrad.nn.top_k is tf.nn.top_k
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(_run(tf.sort(X, axis=axis)), np.sort(X, axis=axis))
        np.testing.assert_array_equal(_run(tf.argsort(X, axis=axis)),
                                      np.argsort(X, axis=axis, kind="stable"))
        np.testing.assert_array_equal(_run(tf.sort(X, axis=axis, direction="DESCENDING")),
                                      -np.sort(-X, axis=axis))
    np.testing.assert_array_equal(_run(tf.argsort(TIES)), [[1, 3, 0, 2], [2, 0, 1, 3]])
    np.testing.assert_array_equal(_run(tf.sort(np.array([3, 1, 2], np.int32))), [1, 2, 3])
    assert flowgrad.sort is tf.sort and flowgrad.argsort is tf.argsort


def test_top_k_errors():
    with pytest.raises(ValueError, match="at least k=5 columns"):
        tf.nn.top_k(TIES, 5)
    with pytest.raises(ValueError, match="non-negative"):
        tf.nn.top_k(TIES, -1)
    x = tf.placeholder(tf.float32, [None, None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least k=3 columns"):
        tf.Session().run(tf.nn.top_k(x, 3)[0], {x: np.ones((2, 2))})
    with pytest.raises(ValueError, match="direction"):
        tf.sort(TIES, direction="UP")


def _np_segment(reduce, data, ids, n, empty):
    out = np.full((n,) + data.shape[1:], empty, dtype=float)
    for s in range(n):
        rows = data[ids == s]
        if len(rows):
            out[s] = reduce(rows, axis=0)
    return out


def test_segment_values():
    got = _run([tf.segment_sum(DATA, IDS), tf.segment_mean(DATA, IDS), tf.segment_max(DATA, IDS),
                tf.segment_min(DATA, IDS), tf.unsorted_segment_max(DATA, UIDS, 4),
                tf.unsorted_segment_min(DATA, UIDS, 3), tf.unsorted_segment_mean(DATA, UIDS, 3),
                tf.math.unsorted_segment_sum(DATA, UIDS, 3)])
    want = [_np_segment(np.sum, DATA, IDS, 4, 0), _np_segment(np.mean, DATA, IDS, 4, 0),
            _np_segment(np.max, DATA, IDS, 4, 0), _np_segment(np.min, DATA, IDS, 4, 0),
            # an empty segment: the lowest (highest) finite value, as TensorFlow 2.21
            _np_segment(np.max, DATA, UIDS, 4, np.finfo(DATA.dtype).min),
            _np_segment(np.min, DATA, UIDS, 3, np.finfo(DATA.dtype).max),
            _np_segment(np.mean, DATA, UIDS, 3, 0), _np_segment(np.sum, DATA, UIDS, 3, 0)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    assert tf.unsorted_segment_max(DATA, UIDS, 4).shape.as_list() == [4, 2]
    assert tf.segment_sum(DATA, IDS).shape.as_list() == [4, 2]
    assert tf.segment_sum(DATA, tf.placeholder(tf.int32, [5])).shape.as_list() == [None, 2]
    assert _run(tf.unsorted_segment_max(np.array([1, 2], np.int32), [0, 0], 2))[1] == \
        np.iinfo(np.int32).min
    assert tf.math.segment_mean is tf.segment_mean and flowgrad.math.segment_max is \
        tf.segment_max


def test_segment_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="sorted"):
        _run(tf.segment_sum(DATA, [1, 0, 0, 0, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        _run(tf.unsorted_segment_max(DATA, UIDS, 2))
    with pytest.raises(TypeError, match="segment_ids"):
        tf.segment_sum(DATA, [0.0, 1.0, 1.0, 1.0, 1.0])


def test_max_gradient_splits_ties():
    x = tf.constant([[1.0, 5.0], [5.0, 2.0], [5.0, 2.0]])
    (g,) = tf.gradients(tf.reduce_sum(tf.unsorted_segment_max(x, [0, 0, 0], 1)), x)
    np.testing.assert_allclose(_run(g), [[0, 1], [0.5, 0], [0.5, 0]])


@pytest.mark.parametrize("index_type", [tf.int16, tf.int32, tf.int64])
def test_top_k_index_type(index_type):
    # TF 2.21's top_k(input, k, sorted, index_type): the indices' dtype (topk_op_test.py)
    v, i = tf.nn.top_k(TIES, 2, index_type=index_type)
    assert i.dtype == index_type and _run(i).dtype == index_type.as_numpy_dtype
    np.testing.assert_array_equal(_run(i), [[0, 2], [1, 3]])
    from flowgrad.tf_internal.python.eager.context import eager_mode
    with eager_mode():
        _, ie = flowgrad.math.top_k(TIES, 2, index_type=index_type)
    assert ie.dtype == index_type and ie.numpy().dtype == index_type.as_numpy_dtype


def test_top_k_index_type_must_be_a_signed_int_of_16_to_64_bits():
    # graph: TypeError; eager: InvalidArgumentError (TF 2.21)
    with pytest.raises(TypeError, match="index_type"):
        tf.nn.top_k(TIES, 1, index_type=tf.uint8)
    from flowgrad.tf_internal.python.eager.context import eager_mode
    with eager_mode(), pytest.raises(tf.errors.InvalidArgumentError, match="index_type"):
        flowgrad.math.top_k(TIES, 1, index_type=tf.int8)
