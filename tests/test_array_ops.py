"""Array ops: gradients (orders 1-3), forward values vs NumPy, static shapes, dtypes,
``Tensor.__getitem__``, IndexedSlices gradients, and error messages.

The numerical gradient checks of the array cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.ops.array_ops import _where_indices, embedding_lookup
from flowgrad.runtime.session import IndexedSlicesValue

R = np.random.RandomState(7)


def U(*shape):
    """Inputs away from zero, for numerical gradient checks."""
    return R.uniform(0.5, 1.5, shape)


def dyn(value, dtype=np.int32):
    """An int tensor whose value is not known when the graph is built (the tensor path);
    a constant in eager mode, where every value is known."""
    v = np.asarray(value, dtype)
    if tf.executing_eagerly():
        return tf.constant(v)
    return tf.placeholder_with_default(v, [None] * v.ndim)


def test_one_hot_and_range_have_no_gradient():
    x = tf.placeholder(tf.float32, [3])
    on = tf.reduce_sum(x)
    y = tf.one_hot([0, 2, 1], 3, on_value=on, off_value=0.0)
    assert tf.gradients(tf.reduce_sum(y), [x]) == [None]
    r = tf.range(0.0, on, 1.0)
    assert tf.gradients(tf.reduce_sum(r), [x]) == [None]


# --------------------------------------------------------------------------------------
# Forward values and dtypes against NumPy

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
N34 = np.arange(12, dtype=np.int32).reshape(3, 4)


def _np_pad(x, p, mode="constant", **kw):
    return np.pad(x, p, mode=mode, **kw)


def _one_hot_np(idx, depth, on=1.0, off=0.0, dtype=np.float32):
    return np.where(np.asarray(idx)[..., None] == np.arange(depth), on, off).astype(dtype)


def _segment_sum_np(data, ids, n):
    out = np.zeros((n,) + data.shape[np.ndim(ids):], data.dtype)
    for i, s in np.ndenumerate(np.asarray(ids)):
        if s >= 0:
            out[s] += data[i]
    return out


FORWARD = [
    ("expand_dims", lambda: tf.expand_dims(X, 3), X[..., None]),
    ("expand_dims_dim", lambda: tf.expand_dims(N34, dim=0), N34[None]),
    ("squeeze", lambda: tf.squeeze(X[:1, None, :, :1]), X[0, :, 0]),
    ("squeeze_dims", lambda: tf.squeeze(np.ones((1, 2, 1)), squeeze_dims=[0]), np.ones((2, 1))),
    ("transpose", lambda: tf.transpose(X, [2, 0, 1]), X.transpose(2, 0, 1)),
    ("transpose_default", lambda: tf.transpose(N34), N34.T),
    ("invert_permutation", lambda: tf.invert_permutation([2, 0, 1]),
     np.array([1, 2, 0], np.int32)),
    ("concat", lambda: tf.concat([X, X[:, :1]], 1), np.concatenate([X, X[:, :1]], 1)),
    ("concat_ints", lambda: tf.concat([N34, N34], -1), np.concatenate([N34, N34], -1)),
    ("concat_python_lists", lambda: tf.concat([[1, 2], [3]], 0), np.array([1, 2, 3], np.int32)),
    ("split", lambda: tf.split(X, 2), np.split(X, 2)),
    ("split_sizes", lambda: tf.split(X, [1, -1], axis=2), np.split(X, [1], 2)),
    ("slice", lambda: tf.slice(X, [1, 1, 0], [-1, 2, 3]), X[1:, 1:3, :3]),
    ("strided_slice", lambda: tf.strided_slice(X, [1, -1], [0, 0], [-1, -2], end_mask=3),
     X[1::-1, -1::-2]),
    ("gather", lambda: tf.gather(N34, [2, 0, 2]), N34[[2, 0, 2]]),
    ("gather_int64_indices", lambda: tf.gather(X, np.array([[1], [0]], np.int64), axis=2),
     np.take(X, [[1], [0]], axis=2)),
    ("one_hot", lambda: tf.one_hot([0, 2, -1, 7], 3), _one_hot_np([0, 2, -1, 7], 3)),
    ("one_hot_axis0", lambda: tf.one_hot([[1, 0]], 2, axis=0),
     np.moveaxis(_one_hot_np([[1, 0]], 2), -1, 0)),
    ("one_hot_values", lambda: tf.one_hot([1, 0], 3, on_value=5, off_value=-1),
     _one_hot_np([1, 0], 3, 5, -1, np.int32)),
    ("one_hot_dtype", lambda: tf.one_hot([1], 2, dtype=tf.float64),
     _one_hot_np([1], 2, dtype=np.float64)),
    ("one_hot_fed_depth", lambda: tf.one_hot([1, 3], dyn(4)), _one_hot_np([1, 3], 4)),
    ("tile", lambda: tf.tile(N34, [2, 1]), np.tile(N34, (2, 1))),
    ("pad", lambda: tf.pad(N34, [[1, 0], [0, 2]]), _np_pad(N34, [[1, 0], [0, 2]])),
    ("pad_constant", lambda: tf.pad(X, [[0, 0], [1, 1], [0, 1]], constant_values=-3.0),
     _np_pad(X, [[0, 0], [1, 1], [0, 1]], constant_values=-3.0)),
    ("pad_reflect", lambda: tf.pad(N34, [[2, 1], [3, 3]], "REFLECT"),
     _np_pad(N34, [[2, 1], [3, 3]], "reflect")),
    ("pad_symmetric", lambda: tf.pad(N34, [[3, 3], [1, 4]], "SYMMETRIC"),
     _np_pad(N34, [[3, 3], [1, 4]], "symmetric")),
    ("range", lambda: tf.range(5), np.arange(5, dtype=np.int32)),
    ("range_start_limit_delta", lambda: tf.range(10, 1, -3), np.array([10, 7, 4], np.int32)),
    ("range_float", lambda: tf.range(1, 2, 0.25), np.arange(1, 2, 0.25, dtype=np.float32)),
    ("range_dtype", lambda: tf.range(3, dtype=tf.float64), np.arange(3.0)),
    ("range_int64_tensor", lambda: tf.range(tf.constant(4, tf.int64)),
     np.arange(4, dtype=np.int64)),
    ("range_fed", lambda: tf.range(dyn(2), dyn(11), dyn(4)), np.array([2, 6, 10], np.int32)),
    ("reverse", lambda: tf.reverse(X, [1, -1]), X[:, ::-1, ::-1]),
    ("reverse_v2", lambda: tf.reverse_v2(N34, [0]), N34[::-1]),
    ("unsorted_segment_sum",
     lambda: tf.unsorted_segment_sum(N34, [1, -1, 1], 4), _segment_sum_np(N34, [1, -1, 1], 4)),
    ("unsorted_segment_sum_2d",
     lambda: tf.unsorted_segment_sum(X, [[0, 2, 0], [2, 2, 1]], 3),
     _segment_sum_np(X, [[0, 2, 0], [2, 2, 1]], 3)),
    ("boolean_mask", lambda: tf.boolean_mask(X, X[:, :, 0] > 5), X[X[:, :, 0] > 5]),
    ("boolean_mask_axis", lambda: tf.boolean_mask(X, [True, False, True], axis=1),
     X[:, [True, False, True]]),
    ("where_indices", lambda: _where_indices(N34 % 5 == 0), np.argwhere(N34 % 5 == 0)),
    ("where_numeric", lambda: _where_indices([0.0, 2.0, 0.0, 1.0]),
     np.array([[1], [3]], np.int64)),
    ("identity_n", lambda: tf.identity_n([N34, X]), [N34, X]),
    ("embedding_lookup", lambda: embedding_lookup(X[0], [[2], [0]]), X[0][[[2], [0]]]),
]


@pytest.mark.parametrize("name,build,expected", FORWARD, ids=[c[0] for c in FORWARD])
def test_forward_matches_numpy(name, build, expected):
    out = build()
    got = tf.Session().run(out)
    if isinstance(expected, list):
        assert len(got) == len(expected)
        pairs = list(zip(got, expected))
    else:
        pairs = [(got, expected)]
    for g, e in pairs:
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
        np.testing.assert_array_equal(g, e)
    for t, (g, _) in zip(out if isinstance(out, list) else [out], pairs):
        assert t.dtype.as_numpy_dtype == g.dtype
        assert t.shape.is_compatible_with(g.shape)


def test_tensorflow2_face_uses_tensorflow2_argument_orders():
    import flowgrad
    from flowgrad.ops.array_ops import embedding_lookup_v2
    tf.enable_eager_execution()
    x = flowgrad.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(flowgrad.gather(x, [1], None, 1).numpy(), [[2.0], [4.0]])
    np.testing.assert_array_equal(flowgrad.pad(x, [[0, 0], [1, 0]], "CONSTANT", 9.0).numpy(),
                                  [[9, 1, 2], [9, 3, 4]])
    np.testing.assert_array_equal(flowgrad.transpose(x, None, False).numpy(), [[1, 3], [2, 4]])
    np.testing.assert_array_equal(flowgrad.boolean_mask(x, [True, False], 1).numpy(),
                                  [[1.0], [3.0]])
    np.testing.assert_array_equal(embedding_lookup_v2(x, [1, 1]).numpy(), [[3, 4], [3, 4]])
    assert tf.gather is not flowgrad.gather and tf.pad is not flowgrad.pad


def test_fetched_views_do_not_alias_the_feed():
    a = np.arange(6.0).reshape(2, 3)
    p = tf.placeholder(tf.float64, [2, 3])
    outs = [tf.transpose(p), p[0], tf.reverse(p, [1]), tf.expand_dims(p, 0),
            tf.slice(p, [0, 0], [1, 2]), tf.split(p, 3, 1)[0], tf.identity_n([p])[0]]
    for r in tf.Session().run(outs, {p: a}):
        r[...] = -1
    np.testing.assert_array_equal(a, np.arange(6.0).reshape(2, 3))


# --------------------------------------------------------------------------------------
# __getitem__

KEYS = [0, -1, 1, (1, 2), (-1, -3, -4), (slice(None), 1), (Ellipsis, 1), (Ellipsis,),
        (None,), (None, 1, slice(None, None, -1)), slice(1, None), slice(None, None, -1),
        (slice(None, None, 2), slice(1, None), slice(None, None, -2)),
        (1, None, Ellipsis, None, 0), (slice(-2, None), Ellipsis, slice(1, -1)),
        (slice(5, -7, -1), slice(-100, 100)), (slice(3, 1),), (Ellipsis, None),
        (0, slice(None), slice(2, None, -1)), (slice(None), None, 2, None),
        (np.int64(1), np.int32(-2)), (slice(np.int64(1), None),)]


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_getitem_matches_numpy(key):
    x = np.arange(60.0).reshape(3, 4, 5)
    known = tf.constant(x)[key]
    unknown_dims = tf.placeholder(tf.float64, [None, None, None])
    partly = tf.placeholder(tf.float64, [None, 4, 5])
    assert known.shape.as_list() == list(x[key].shape)
    y1, y2 = unknown_dims[key], partly[key]
    assert y1.shape.rank == x[key].ndim
    assert y2.shape.is_compatible_with(x[key].shape)
    sess = tf.Session()
    for t, feed in ((known, None), (y1, {unknown_dims: x}), (y2, {partly: x})):
        np.testing.assert_array_equal(sess.run(t, feed), x[key])


def test_getitem_static_shape_keeps_known_dims():
    p = tf.placeholder(tf.float32, [None, 4, 5])
    assert p[:, 1].shape.as_list() == [None, 5]
    assert p[0, ::2, None].shape.as_list() == [2, 1, 5]
    assert p[..., 1:-1].shape.as_list() == [None, 4, 3]
    assert p[::-1].shape.as_list() == [None, 4, 5]
    assert p[1:3].shape.as_list() == [None, 4, 5]
    assert tf.placeholder(tf.float32)[0].shape.rank is None


def test_getitem_with_scalar_tensor_indices():
    x = np.arange(20).reshape(4, 5)
    i = tf.placeholder(tf.int32, [])
    j = tf.placeholder(tf.int64, [])
    t = tf.constant(x)
    sess = tf.Session()
    assert t[i].shape.as_list() == [5]
    assert t[i, 1:].shape.as_list() == [4]
    assert t[:, i].shape.as_list() == [4]
    for a, b in ((0, 2), (3, -1), (-2, 3)):
        np.testing.assert_array_equal(sess.run(t[i], {i: a}), x[a])
        np.testing.assert_array_equal(sess.run(t[i:j], {i: a, j: b}), x[a:b])
        np.testing.assert_array_equal(sess.run(t[j, i], {i: a, j: b}), x[b, a])


def test_getitem_list_key_is_a_tuple_of_indices_as_in_tensorflow():
    x = np.arange(12).reshape(3, 4)
    assert tf.Session().run(tf.constant(x)[[1, 2]]) == x[1, 2]


def test_getitem_on_rank0_and_newaxis_name():
    t = tf.constant(3.0)
    assert tf.newaxis is None
    y = t[tf.newaxis]
    assert y.shape.as_list() == [1]
    assert y.op.type == "StridedSlice" and y.op.name.startswith("strided_slice")
    np.testing.assert_array_equal(tf.Session().run(t[...]), np.float32(3.0))


@pytest.mark.parametrize("key", [1.5, [0.5], (slice(0.5, None),), "a",
                                 np.array([1, 2]), (Ellipsis, slice(None, None, 1.0))])
def test_getitem_bad_index_types(key):
    with pytest.raises(TypeError, match=r"Only integers, slices \(`:`\), ellipsis \(`\.\.\.`\), "
                                        r"tf\.newaxis \(`None`\) and scalar tf\.int32/tf\.int64 "
                                        r"tensors are valid indices, got"):
        tf.constant(np.zeros((3, 4)))[key]


def test_getitem_bad_index_tensors():
    t = tf.constant(np.zeros((3, 4)))
    with pytest.raises(TypeError, match="valid indices, got"):
        t[tf.constant([1, 2])]
    with pytest.raises(TypeError, match="valid indices, got"):
        t[tf.constant(1.0)]


def test_getitem_out_of_range():
    t = tf.constant(np.zeros((3, 4)))
    with pytest.raises(ValueError, match=r"slice index 3 of dimension 0 out of bounds"):
        t[3]
    with pytest.raises(ValueError, match=r"slice index -5 of dimension 1 out of bounds"):
        t[:, -5]
    with pytest.raises(ValueError, match="Index out of range using input dim 2; input has only 2 "
                                         "dims"):
        t[0, 1, 2]
    with pytest.raises(ValueError, match="Multiple ellipses in slice spec not allowed"):
        t[..., 0, ...]
    with pytest.raises(ValueError, match=r"strides\[0\] must be non-zero"):
        t[::0]
    p = tf.placeholder(tf.float64, [None, 4])
    i = tf.placeholder(tf.int32, [])
    sess = tf.Session()
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        sess.run(p[5], {p: np.zeros((3, 4))})
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        sess.run(t[i], {i: 3})


# --------------------------------------------------------------------------------------
# Static shapes with unknown dimensions


def _shape(t):
    return None if t.shape.rank is None else t.shape.as_list()


def test_static_shapes_with_unknown_dims():
    p = tf.placeholder(tf.float32, [None, 3, 4])
    q = tf.placeholder(tf.float32, [2, None, 4])
    u = tf.placeholder(tf.float32)
    n = tf.placeholder(tf.int32, [])
    assert _shape(tf.expand_dims(p, 1)) == [None, 1, 3, 4]
    assert _shape(tf.expand_dims(p, n)) == [None, None, None, None]
    assert _shape(tf.squeeze(tf.placeholder(tf.float32, [None, 1, 3]), [1])) == [None, 3]
    assert _shape(tf.squeeze(tf.placeholder(tf.float32, [None, 1, 3]))) is None
    assert _shape(tf.transpose(p, [2, 0, 1])) == [4, None, 3]
    assert _shape(tf.transpose(p)) == [4, 3, None]
    assert _shape(tf.transpose(u)) is None
    assert _shape(tf.transpose(u, [1, 0])) == [None, None]
    assert _shape(tf.concat([p, q], 0)) == [None, 3, 4]
    assert _shape(tf.concat([q, q], 1)) == [2, None, 4]
    assert _shape(tf.concat([p, p], -1)) == [None, 3, 8]
    assert _shape(tf.concat([p, u], 2)) == [None, 3, None]
    assert _shape(tf.concat([p, p], n)) == [None, None, None]
    assert [_shape(t) for t in tf.split(p, 2, 2)] == [[None, 3, 2]] * 2
    assert [_shape(t) for t in tf.split(p, [1, -1], 0)] == [[1, 3, 4], [None, 3, 4]]
    assert [_shape(t) for t in tf.split(p, [1, -1], 1)] == [[None, 1, 4], [None, 2, 4]]
    assert _shape(tf.slice(p, [0, 1, 0], [-1, 2, 3])) == [None, 2, 3]
    assert _shape(tf.slice(p, [0, 1, 0], [2, -1, n])) == [2, 2, None]
    assert _shape(tf.gather(p, [0, 1])) == [2, 3, 4]
    assert _shape(tf.gather(p, tf.placeholder(tf.int32, [None, 2]), axis=1)) == [None, None, 2,
                                                                                   4]
    assert _shape(tf.gather(u, [0])) is None
    assert _shape(tf.one_hot(tf.placeholder(tf.int32, [None]), 5)) == [None, 5]
    assert _shape(tf.one_hot(tf.placeholder(tf.int32, [None]), n, axis=0)) == [None, None]
    assert _shape(tf.tile(p, [2, 1, 3])) == [None, 3, 12]
    assert _shape(tf.tile(p, tf.placeholder(tf.int32, [3]))) == [None, None, None]
    assert _shape(tf.pad(p, [[1, 1], [0, 2], [3, 0]])) == [None, 5, 7]
    assert _shape(tf.range(n)) == [None]
    assert _shape(tf.range(2, 11, 3)) == [3]
    assert _shape(tf.reverse(p, [0])) == [None, 3, 4]
    assert _shape(tf.unsorted_segment_sum(p, [0, 1, 1], 4)) == [4, 3, 4]
    assert _shape(tf.unsorted_segment_sum(p, tf.placeholder(tf.int32, [None]), n)) == [None, 3,
                                                                                        4]
    assert _shape(_where_indices(p > 0)) == [None, 3]
    assert _shape(tf.boolean_mask(p, tf.placeholder(tf.bool, [None, 3]))) == [None, 4]
    assert _shape(tf.strided_slice(p, [0], [1], [1], shrink_axis_mask=1)) == [3, 4]


def test_dtypes_of_results():
    sess = tf.Session()
    assert tf.range(3).dtype == tf.int32
    assert tf.range(3.0).dtype == tf.float32
    assert tf.range(0, 3, 0.5).dtype == tf.float32
    assert tf.range(tf.constant(2, tf.int64), 5).dtype == tf.int64
    assert tf.range(np.float64(3)).dtype == tf.float64
    assert tf.one_hot([1], 2).dtype == tf.float32
    assert tf.one_hot([1], 2, on_value=tf.constant(1, tf.int64), off_value=tf.constant(
        0, tf.int64)).dtype == tf.int64
    assert _where_indices([True, False]).dtype == tf.int64
    assert tf.gather(tf.constant([1, 2], tf.int64), [0]).dtype == tf.int64
    assert tf.unsorted_segment_sum(tf.constant([1, 2], tf.int32), [0, 0], 1).dtype == tf.int32
    assert sess.run(tf.unsorted_segment_sum(tf.constant([1, 2], tf.int32), [0, 0], 1)).dtype \
        == np.int32
    assert sess.run(tf.range(0, 1, 0.5)).dtype == np.float32
    assert tf.invert_permutation(tf.constant([1, 0], tf.int64)).dtype == tf.int64


# --------------------------------------------------------------------------------------
# Dynamic shapes: the shape-tensor gradient paths give what the static ones give

DYNAMIC = [
    ("concat", lambda x: tf.concat([x, x * x], 1), [3, 4], True),
    ("concat_axis0", lambda x: tf.concat([x, x * x, x], 0), [3, 4], True),
    ("slice", lambda x: tf.slice(x, [1, 1], [-1, 2]), [3, 4], True),
    ("getitem", lambda x: x[1:, ::-2], [3, 4], True),
    ("getitem_newaxis", lambda x: x[None, -1, :, None], [3, 4], True),
    ("tile", lambda x: tf.tile(x, [2, 3]), [3, 4], True),
    ("gather", lambda x: tf.gather(x, [2, 0, 2]), [3, 4], True),
    ("gather_axis1", lambda x: tf.gather(x, [[3, 0], [1, 1]], axis=1), [3, 4], False),
    ("pad", lambda x: tf.pad(x, [[1, 0], [0, 2]]), [3, 4], True),
    ("pad_symmetric", lambda x: tf.pad(x, [[1, 0], [0, 2]], "SYMMETRIC"), [3, 4], True),
    ("expand_squeeze", lambda x: tf.squeeze(tf.expand_dims(x, 0), [0]), [3, 4], False),
    ("transpose", lambda x: tf.transpose(x), [3, 4], True),
    ("reverse", lambda x: tf.reverse(x, [1]), [3, 4], False),
    ("segment_sum", lambda x: tf.unsorted_segment_sum(x, [1, 0, 1], 2), [3, 4], True),
    ("split", lambda x: tf.split(x, [1, 3], 1)[1], [3, 4], False),
]


@pytest.mark.parametrize("name,fn,shape,unknown_rank_ok", DYNAMIC, ids=[c[0] for c in DYNAMIC])
def test_dynamic_shape_gradients_match_static(name, fn, shape, unknown_rank_ok):
    x = U(*shape)
    results = []
    for pshape in [shape, [None] * len(shape)] + ([None] if unknown_rank_ok else []):
        with tf.Graph().as_default():
            p = tf.placeholder(tf.float64, pshape)
            y = fn(p)
            (g,) = tf.gradients(tf.reduce_sum(tf.square(y) * tf.exp(y)), [p])
            g = tf.convert_to_tensor(g)
            (gg,) = tf.gradients(tf.reduce_sum(tf.square(g)), [p])
            gg = tf.convert_to_tensor(gg)
            results.append(tf.Session().run([y, g, gg], {p: x}))
    for r in results[1:]:
        for a, b in zip(results[0], r):
            np.testing.assert_allclose(a, b, rtol=1e-12)


# --------------------------------------------------------------------------------------
# IndexedSlices gradients


def test_gather_gradient_is_indexed_slices_with_duplicates_added():
    p0 = np.arange(12.0).reshape(4, 3)
    w0 = np.arange(9.0).reshape(3, 3)
    p = tf.placeholder(tf.float64, [4, 3])
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(p, [0, 2, 0]) * w0), [p])
    assert isinstance(g, tf.IndexedSlices)
    assert g.dtype == tf.float64 and g.shape.as_list() == [4, 3]
    sess = tf.Session()
    v = sess.run(g, {p: p0})
    assert isinstance(v, IndexedSlicesValue)
    np.testing.assert_array_equal(v.values, w0)
    np.testing.assert_array_equal(v.indices, [0, 2, 0])
    assert v.dense_shape.dtype == np.int32
    np.testing.assert_array_equal(v.dense_shape, [4, 3])
    dense = tf.convert_to_tensor(g)
    assert dense.shape.as_list() == [4, 3]
    expected = np.zeros((4, 3))
    expected[0] = w0[0] + w0[2]
    expected[2] = w0[1]
    np.testing.assert_array_equal(sess.run(dense, {p: p0}), expected)


def test_two_gathers_of_one_params_aggregate_sparsely():
    p = tf.placeholder(tf.float64, [5, 2])
    y = tf.reduce_sum(tf.gather(p, [1, 3]) * 2.0) + tf.reduce_sum(tf.gather(p, [[3], [0]]))
    (g,) = tf.gradients(y, [p])
    assert isinstance(g, tf.IndexedSlices)
    sess = tf.Session()
    v = sess.run(g, {p: np.ones((5, 2))})
    np.testing.assert_array_equal(np.sort(v.indices), [0, 1, 3, 3])
    expected = np.array([[1, 1], [2, 2], [0, 0], [3, 3], [0, 0]], np.float64)
    np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(g), {p: np.ones((5, 2))}),
                                  expected)


def test_gathers_with_int32_and_int64_indices_aggregate():
    p = tf.placeholder(tf.float64, [4])
    idx64 = tf.squeeze(_where_indices([False, True, True, False]), [1])
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(p, idx64)) + tf.reduce_sum(tf.gather(p, [2])),
                        [p])
    assert g.indices.dtype == tf.int64
    np.testing.assert_array_equal(tf.Session().run(tf.convert_to_tensor(g), {p: np.ones(4)}),
                                  [0, 1, 2, 0])


def test_gather_with_a_dense_path_densifies():
    p0 = U(4, 3)
    p = tf.placeholder(tf.float64, [4, 3])
    y = tf.gather(p, [3, 3, 1])
    loss = tf.reduce_sum(y * y) + tf.reduce_sum(y) + tf.reduce_sum(p * p)
    (g,) = tf.gradients(loss, [p])
    assert isinstance(g, tf.Tensor)
    expected = 2 * p0
    for i in (3, 3, 1):
        expected[i] += 2 * p0[i] + 1
    np.testing.assert_allclose(tf.Session().run(g, {p: p0}), expected)


def test_gather_output_used_by_further_ops_then_densified():
    p0 = U(3, 2)
    p = tf.placeholder(tf.float64, [3, 2])
    y = tf.gather(p, [0, 0, 2])
    z = tf.concat([y, tf.transpose(tf.gather(tf.transpose(p), [1, 1]))], 0)
    loss = tf.reduce_sum(tf.square(z))
    (g,) = tf.gradients(loss, [p])
    expected = np.zeros((3, 2))
    expected[0] += 4 * p0[0]
    expected[2] += 2 * p0[2]
    expected[:, 1] += 4 * p0[:, 1]
    np.testing.assert_allclose(tf.Session().run(tf.convert_to_tensor(g), {p: p0}), expected)


def test_second_order_through_gather():
    p0 = U(4)
    v0 = U(4)
    p = tf.placeholder(tf.float64, [4])
    idx = [0, 2, 0, 3]
    f = tf.reduce_sum(tf.gather(p, idx) ** 3)
    (g,) = tf.gradients(f, [p])
    (h,) = tf.gradients(tf.reduce_sum(tf.convert_to_tensor(g) * v0), [p])
    counts = np.bincount(idx, minlength=4)
    sess = tf.Session()
    np.testing.assert_allclose(sess.run(tf.convert_to_tensor(g), {p: p0}), 3 * counts * p0 ** 2)
    np.testing.assert_allclose(sess.run(tf.convert_to_tensor(h), {p: p0}), 6 * counts * p0 * v0)
    (hess,) = tf.hessians(f, [p])
    np.testing.assert_allclose(sess.run(hess, {p: p0}), np.diag(6 * counts * p0))


def test_embedding_lookup_gradient_of_a_variable_is_indexed_slices():
    emb = tf.Variable(np.arange(8.0, dtype=np.float32).reshape(4, 2))
    y = embedding_lookup(emb, tf.constant([[1, 3], [1, 1]]))
    assert y.shape.as_list() == [2, 2, 2]
    (g,) = tf.gradients(tf.reduce_sum(y), [emb])
    assert isinstance(g, tf.IndexedSlices)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        v = sess.run(g)
        assert v.values.shape == (4, 2) and v.values.dtype == np.float32
        np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(g)),
                                      [[0, 0], [3, 3], [0, 0], [1, 1]])


def test_gather_gradient_along_another_axis_is_dense():
    p = tf.placeholder(tf.float64, [2, 3])
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(p, [2, 2], axis=1)), [p])
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(tf.Session().run(g, {p: np.ones((2, 3))}),
                                  [[0, 0, 2], [0, 0, 2]])


def test_integer_indices_get_no_gradient():
    p = tf.placeholder(tf.float64, [3])
    i = tf.placeholder(tf.int32, [2])
    assert tf.gradients(tf.reduce_sum(tf.gather(p, i)), [i]) == [None]


def test_indexed_slices_conversion_rules():
    values = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    s = tf.IndexedSlices(values, tf.constant([1, 1]), [3, 2])
    assert s.shape.as_list() == [3, 2]
    np.testing.assert_array_equal(tf.Session().run(tf.convert_to_tensor(s)),
                                  [[0, 0], [4, 6], [0, 0]])
    np.testing.assert_array_equal(tf.Session().run((-s).values), [[-1, -2], [-3, -4]])
    with pytest.raises(ValueError, match="requested dtype float64 for IndexedSlices with dtype "
                                         "float32"):
        tf.convert_to_tensor(s, tf.float64)
    with pytest.raises(ValueError, match="without dense_shape"):
        tf.convert_to_tensor(tf.IndexedSlices(values, tf.constant([0, 1])))
    fed_shape = tf.placeholder(tf.int32, [2])
    dense = tf.convert_to_tensor(tf.IndexedSlices(values, tf.constant([2, 0]), fed_shape))
    assert dense.shape.as_list() == [None, 2]
    np.testing.assert_array_equal(tf.Session().run(dense, {fed_shape: [3, 2]}),
                                  [[3, 4], [0, 0], [1, 2]])


def test_session_fetches_indexed_slices_in_structures():
    p = tf.placeholder(tf.float64, [3])
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(p, [2])), [p])
    out = tf.Session().run({"g": g, "both": [g, p]}, {p: np.zeros(3)})
    assert isinstance(out["g"], IndexedSlicesValue)
    np.testing.assert_array_equal(out["both"][0].indices, [2])


# --------------------------------------------------------------------------------------
# Errors


def test_transpose_errors():
    x = tf.constant(np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match=r"Dimension must be 3 but is 2 for transpose with input "
                                         r"shapes: \[2,3,4\], \[2\]"):
        tf.transpose(x, [1, 0])
    with pytest.raises(ValueError, match=r"perm \[0, 0, 1\] is not a permutation"):
        tf.transpose(x, [0, 0, 1])
    perm = tf.placeholder(tf.int32, [3])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.Session().run(tf.transpose(x, perm), {perm: [0, 1, 1]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="not a valid permutation"):
        tf.Session().run(tf.invert_permutation(perm), {perm: [0, 1, 1]})


def test_concat_errors():
    a = tf.constant(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 3 "
                                         r"and 4\. Shapes are \[2,3\] and \[2,4\]\."):
        tf.concat([a, np.zeros((2, 4))], 0)
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.concat([a, np.zeros(3)], 0)
    with pytest.raises(ValueError, match=r"Expected concatenating dimensions in the range "
                                         r"\[-2, 2\), but got 2"):
        tf.concat([a, a], 2)
    with pytest.raises(TypeError, match=r"Tensors in list passed to 'values' of 'ConcatV2' Op "
                                        r"have types \[float64, int32\] that don't all match"):
        tf.concat([a, tf.constant([[1, 2, 3]])], 0)
    with pytest.raises(ValueError, match="Can't concatenate scalars"):
        tf.concat([tf.constant(1.0), tf.constant(2.0)], 0)
    p = tf.placeholder(tf.float64, [None, None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="ConcatV2"):
        tf.Session().run(tf.concat([a, p], 0), {p: np.zeros((1, 4))})


def test_split_errors():
    x = tf.constant(np.zeros((3, 5)))
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 2 but is 5"):
        tf.split(x, 2, axis=1)
    with pytest.raises(ValueError, match=r"Determined shape must either match input shape along "
                                         r"split_dim exactly.*Got: 4"):
        tf.split(x, [1, 3], axis=1)
    with pytest.raises(ValueError, match="at most one -1"):
        tf.split(x, [-1, -1], axis=1)
    with pytest.raises(ValueError, match="Rank-0 tensors are not supported"):
        tf.split(x, tf.constant(2))
    with pytest.raises(ValueError, match="Cannot infer argument `num`"):
        tf.split(x, tf.placeholder(tf.int32, [None]), axis=1)
    p = tf.placeholder(tf.float64, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="evenly divide"):
        tf.Session().run(tf.split(p, 2), {p: np.zeros(5)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Got: 3"):
        tf.Session().run(tf.split(p, [1, 2]), {p: np.zeros(5)})


def test_gather_errors():
    params = tf.constant(np.zeros((3, 2)))
    i = tf.placeholder(tf.int32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 5 is not in "
                                                             r"\[0, 3\)"):
        tf.Session().run(tf.gather(params, i), {i: [0, 5]})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in"):
        tf.Session().run(tf.gather(params, i), {i: [-1]})
    j = tf.placeholder(tf.int64, [None, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,0\] = 2 is not in "
                                                             r"\[0, 2\)"):
        tf.Session().run(tf.gather(params, j, axis=1), {j: [[0, 1], [2, 0]]})
    with pytest.raises(TypeError, match="Value passed to parameter 'indices' has DataType float32 "
                                        "not in list of allowed values: int32, int64"):
        tf.gather(params, [0.0, 1.0])
    with pytest.raises(ValueError, match=r"Expected axis in the range \[-2, 2\), but got 2"):
        tf.gather(params, [0], axis=2)
    with pytest.raises(ValueError, match="batch_dims"):     # batch sizes 3 and 1 differ
        tf.gather(params, [[0]], batch_dims=1)
    with pytest.raises(ValueError, match="Unrecognized partition strategy: sideways"):
        embedding_lookup([params, params], [0], partition_strategy="sideways")


def test_slice_errors():
    x = tf.constant(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"Expected size\[0\] in \[0, 2\], but got 3"):
        tf.slice(x, [0, 0], [3, 1])
    with pytest.raises(ValueError, match=r"Expected begin\[1\] in \[0, 3\], but got 4"):
        tf.slice(x, [0, 4], [1, 1])
    with pytest.raises(ValueError, match="Expected begin and size arguments to be 1-D tensors of "
                                         r"size 2, but got shapes \[1\] and \[1\] instead"):
        tf.slice(x, [0], [1])
    b = tf.placeholder(tf.int32, [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected size\[1\] in \[0, 1\], "
                                                             r"but got 2"):
        tf.Session().run(tf.slice(x, b, [1, 2]), {b: [0, 2]})


def test_shape_op_errors():
    x = tf.constant(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"Can not squeeze dim\[1\], expected a dimension of 1, "
                                         r"got 3"):
        tf.squeeze(x, [1])
    p = tf.placeholder(tf.float64, [None, None])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Can not squeeze dim\[0\]"):
        tf.Session().run(tf.squeeze(p, [0]), {p: np.zeros((2, 1))})
    with pytest.raises(ValueError, match="Tried to expand dim index 3 for tensor with 2 "
                                         "dimensions"):
        tf.expand_dims(x, 3)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dim'"):
        tf.expand_dims(x, 0, dim=0)
    with pytest.raises(ValueError, match="Expected multiples argument to be a vector of length 2 "
                                         "but got length 1"):
        tf.tile(x, [2])
    with pytest.raises(ValueError, match="paddings must be less than the dimension size: 2, 0 "
                                         "not less than 2"):
        tf.pad(x, [[2, 0], [0, 0]], "REFLECT")
    with pytest.raises(ValueError, match="Paddings must be non-negative: -1 0"):
        tf.pad(x, [[-1, 0], [0, 0]])
    with pytest.raises(ValueError, match="unknown padding mode"):
        tf.pad(x, [[0, 0], [0, 0]], "WRAP")
    with pytest.raises(ValueError, match=r"'axis'\[1\] = -2 is duplicated"):
        tf.reverse(x, [0, -2])
    with pytest.raises(TypeError, match="perm must be integers"):
        tf.transpose(x, [0.0, 1.0])


def test_value_errors_at_run_time():
    sess = tf.Session()
    ids = tf.placeholder(tf.int32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"segment_ids\[1\] = 3 is out of "
                                                             r"range \[0, 3\)"):
        sess.run(tf.unsorted_segment_sum(tf.constant([1.0, 2.0]), ids, 3), {ids: [0, 3]})
    d = tf.placeholder(tf.int32, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
        sess.run(tf.range(0, 5, d), {d: 0})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit when "
                                                             "delta > 0: 5/1"):
        sess.run(tf.range(5, 1, d), {d: 1})
    with pytest.raises(ValueError, match="Requires delta != 0"):
        tf.range(0, 5, 0)
    m = tf.placeholder(tf.int32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected multiples argument"):
        sess.run(tf.tile(tf.constant([1.0]), m), {m: [1, 2]})


def test_one_hot_dtype_errors():
    with pytest.raises(TypeError, match="dtype float32 of on_value does not match dtype parameter "
                                        "int32"):
        tf.one_hot([0], 2, on_value=1.0, dtype=tf.int32)
    with pytest.raises(TypeError, match="dtype float32 of on_value does not match dtype int32 of "
                                        "off_value"):
        tf.one_hot([0], 2, on_value=1.0, off_value=0)
    with pytest.raises(TypeError, match="has DataType float32 not in list of allowed values"):
        tf.one_hot([0.0], 2)


def test_boolean_mask_errors():
    x = tf.constant(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        tf.boolean_mask(x, True)
    with pytest.raises(ValueError, match="incompatible"):
        tf.boolean_mask(x, [True, False, True])
    with pytest.raises(TypeError, match="mask must be a bool tensor"):
        tf.boolean_mask(x, [1, 0])


def test_where_with_only_a_condition_gives_coordinates_and_nn_exports_embedding_lookup():
    c = tf.constant([[True, False], [False, True]])
    with tf.Session() as sess:
        out = sess.run(tf.where(c))
    np.testing.assert_array_equal(out, [[0, 0], [1, 1]])
    assert out.dtype == np.int64
    params = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.nn.embedding_lookup(params, [1, 1])),
                                      [[3.0, 4.0], [3.0, 4.0]])
