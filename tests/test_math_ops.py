"""Math ops: gradients to third order, forward values and dtypes against NumPy, TensorFlow's
integer, tie and clipping rules, static shapes, operators and error messages.

The numerical gradient checks of the math cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from gradcheck import check_gradients

R = np.random.RandomState(0)
A23 = R.uniform(0.5, 2.0, (2, 3))
B3 = R.uniform(0.5, 2.0, (3,))
A234 = R.uniform(0.5, 1.5, (2, 3, 4))
B45 = R.uniform(0.5, 1.5, (4, 5))

# (name, fn, inputs): every differentiable op, with broadcasting where the op broadcasts.
# The fns only call ops, so the table also runs under GradientTape in eager mode.
def test_floor_division_passes_no_gradient_to_either_input():
    check_gradients(lambda x, y: x * tf.floordiv(x, y), [3 * A23, B3], order=2,
                    expect_none=(1,))


def test_reduce_prod_gradient_is_exact_with_zeros():
    x = tf.constant([[2.0, 0.0, 3.0], [0.0, 4.0, 0.0], [1.0, 2.0, 3.0]])
    g = tf.gradients(tf.reduce_prod(x, axis=1), x)[0]
    want = [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [6.0, 3.0, 2.0]]
    np.testing.assert_array_equal(tf.Session().run(g), want)


def test_reduce_prod_gradient_needs_static_axes():
    x = tf.constant([1.0, 2.0])
    axis = tf.placeholder(tf.int32, [])
    with pytest.raises(NotImplementedError, match="needs its axes when the graph is built"):
        tf.gradients(tf.reduce_prod(x, axis), x)


# --------------------------------------------------------------------------------------
# Forward values and dtypes against NumPy

F23 = np.array([[1.5, -2.5, 0.5], [-0.4, 3.0, 2.2]], np.float32)
P23 = np.abs(F23) + np.float32(0.5)
G3 = np.array([0.7, -1.3, 2.0], np.float32)
I23 = np.array([[7, -7, 3], [-4, 5, 0]], np.int32)
J3 = np.array([2, -3, 4], np.int32)
HALVES = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6], np.float32)
BOOL23 = np.array([[True, False, True], [False, False, True]])
BOOL3 = np.array([True, True, False])
SPECIAL = np.array([1.0, np.inf, -np.inf, np.nan], np.float32)


def _np_sigmoid(x):
    return (1 / (1 + np.exp(-x.astype(np.float64)))).astype(x.dtype)


def _np_logsumexp(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return (np.log(np.sum(np.exp(x - m), axis=axis)) + np.squeeze(m, axis)).astype(x.dtype)


def _np_exclusive_reverse_cumsum(x, axis):
    total = np.flip(np.cumsum(np.flip(x, axis), axis), axis)
    return (total - x).astype(x.dtype)


def _np_trunc_div(a, b):
    return (np.trunc(a / b)).astype(a.dtype)


# (name, fn, NumPy reference, inputs): the reference also gives the expected dtype.
FORWARD = [
    ("truediv_float", tf.truediv, np.true_divide, [F23, G3]),
    ("truediv_int32_to_float64", tf.truediv, lambda a, b: a.astype(np.float64) / b, [I23, J3]),
    ("truediv_int16_to_float32", tf.truediv,
     lambda a, b: (a.astype(np.float32) / b.astype(np.float32)),
     [I23.astype(np.int16), J3.astype(np.int16)]),
    ("divide_int", tf.divide, lambda a, b: a.astype(np.float64) / b, [I23, J3]),
    ("div_int_floors", tf.div, np.floor_divide, [I23, J3]),
    ("div_float", tf.div, np.true_divide, [F23, G3]),
    ("floordiv_int", tf.floordiv, np.floor_divide, [I23, J3]),
    ("floordiv_float", tf.floordiv, np.floor_divide, [F23, G3]),
    ("floormod_int", tf.floormod, np.mod, [I23, J3]),
    ("floormod_float", tf.floormod, np.mod, [F23, G3]),
    ("div_no_nan", tf.div_no_nan, lambda a, b: np.where(b == 0, 0, a / np.where(b == 0, 1, b)),
     [F23, np.array([0.5, 0.0, 2.0], np.float32)]),
    ("maximum", tf.maximum, np.maximum, [F23, G3]),
    ("minimum_int", tf.minimum, np.minimum, [I23, J3]),
    ("squared_difference", tf.squared_difference, lambda a, b: np.square(a - b), [F23, G3]),
    ("scalar_mul", lambda x: tf.scalar_mul(3, x), lambda x: 3 * x, [I23]),
    ("abs_float", tf.abs, np.abs, [F23]),
    ("abs_int", tf.abs, np.abs, [I23]),
    ("sign_int", tf.sign, np.sign, [I23]),
    ("sqrt", tf.sqrt, np.sqrt, [P23]),
    ("rsqrt", tf.rsqrt, lambda x: 1 / np.sqrt(x), [P23]),
    ("log1p", tf.log1p, np.log1p, [P23]),
    ("expm1", tf.expm1, np.expm1, [F23]),
    ("sin", tf.sin, np.sin, [F23]),
    ("cos", tf.cos, np.cos, [F23]),
    ("tan", tf.tan, np.tan, [F23]),
    ("tanh", tf.tanh, np.tanh, [F23]),
    ("sigmoid", tf.sigmoid, _np_sigmoid, [F23]),
    ("sigmoid_extremes", tf.sigmoid, _np_sigmoid, [np.array([-100.0, 0.0, 100.0], np.float32)]),
    ("sigmoid_float16", tf.sigmoid, _np_sigmoid, [F23.astype(np.float16)]),
    ("floor", tf.floor, np.floor, [F23]),
    ("ceil", tf.ceil, np.ceil, [F23]),
    ("round_half_to_even", tf.round, np.round, [HALVES]),
    ("round_int_unchanged", tf.round, lambda x: x, [I23]),
    ("rint", tf.rint, np.rint, [HALVES]),
    ("is_finite", tf.is_finite, np.isfinite, [SPECIAL]),
    ("is_nan", tf.is_nan, np.isnan, [SPECIAL]),
    ("is_inf", tf.is_inf, np.isinf, [SPECIAL]),
    ("less", tf.less, np.less, [F23, G3]),
    ("less_equal", tf.less_equal, np.less_equal, [I23, J3]),
    ("greater_equal", tf.greater_equal, np.greater_equal, [I23, np.int32(3)]),
    ("logical_and", tf.logical_and, np.logical_and, [BOOL23, BOOL3]),
    ("logical_or", tf.logical_or, np.logical_or, [BOOL23, BOOL3]),
    ("logical_xor", tf.logical_xor, np.logical_xor, [BOOL23, BOOL3]),
    ("logical_not", tf.logical_not, np.logical_not, [BOOL23]),
    ("reduce_max", lambda x: tf.reduce_max(x, 1), lambda x: np.max(x, 1), [F23]),
    ("reduce_max_int", tf.reduce_max, np.max, [I23]),
    ("reduce_max_empty", tf.reduce_max, lambda x: np.float32(-np.inf),
     [np.zeros((0,), np.float32)]),
    ("reduce_min_keep", lambda x: tf.reduce_min(x, 0, keepdims=True),
     lambda x: np.min(x, 0, keepdims=True), [F23]),
    ("reduce_prod", lambda x: tf.reduce_prod(x, 0), lambda x: np.prod(x, 0), [F23]),
    ("reduce_prod_int", tf.reduce_prod, lambda x: np.prod(x, dtype=np.int32), [J3]),
    ("reduce_sum_int", lambda x: tf.reduce_sum(x, 1), lambda x: np.sum(x, 1, dtype=np.int32),
     [I23]),
    ("reduce_mean_int_truncates", lambda x: tf.reduce_mean(x, 0),
     lambda x: _np_trunc_div(np.sum(x, 0, dtype=np.int32), np.int32(2)), [I23]),
    ("reduce_all", lambda x: tf.reduce_all(x, 0), lambda x: np.all(x, 0), [BOOL23]),
    ("reduce_any", lambda x: tf.reduce_any(x, 1, keepdims=True),
     lambda x: np.any(x, 1, keepdims=True), [BOOL23]),
    ("reduce_logsumexp", lambda x: tf.reduce_logsumexp(x, 1),
     lambda x: _np_logsumexp(x, 1), [F23]),
    ("reduce_logsumexp_large", lambda x: tf.reduce_logsumexp(x, 0),
     lambda x: _np_logsumexp(x, 0), [np.array([1000.0, 1000.0, -np.inf], np.float32)]),
    ("reduce_euclidean_norm", lambda x: tf.math.reduce_euclidean_norm(x, 1),
     lambda x: np.sqrt(np.sum(x * x, 1)), [F23]),
    ("reduce_euclidean_norm_int", tf.math.reduce_euclidean_norm, lambda x: np.int32(4),
     [np.array([[1, 2, 3], [1, 1, 1]], np.int32)]),
    ("reduce_variance", lambda x: tf.math.reduce_variance(x, 0), lambda x: np.var(x, 0), [F23]),
    ("reduce_std", tf.math.reduce_std, np.std, [F23]),
    ("count_nonzero", lambda x: tf.count_nonzero(x, 1), lambda x: np.count_nonzero(x, 1)
     .astype(np.int64), [I23]),
    ("count_nonzero_int32", lambda x: tf.count_nonzero(x, dtype=tf.int32),
     lambda x: np.int32(np.count_nonzero(x)), [BOOL23]),
    ("argmax", lambda x: tf.argmax(x, 1), lambda x: np.argmax(x, 1).astype(np.int64), [F23]),
    ("argmin_int32", lambda x: tf.argmin(x, 0, output_type=tf.int32),
     lambda x: np.argmin(x, 0).astype(np.int32), [F23]),
    ("cumsum", lambda x: tf.cumsum(x, 1), lambda x: np.cumsum(x, 1, dtype=x.dtype), [I23]),
    ("cumsum_exclusive_reverse", lambda x: tf.cumsum(x, 0, exclusive=True, reverse=True),
     lambda x: _np_exclusive_reverse_cumsum(x, 0), [F23]),
    ("cumprod_exclusive", lambda x: tf.cumprod(x, -1, exclusive=True),
     lambda x: np.concatenate([np.ones((2, 1), x.dtype), np.cumprod(x, -1)[:, :-1]], -1),
     [F23]),
    ("clip_by_value", lambda x: tf.clip_by_value(x, -1, 2), lambda x: np.clip(x, -1, 2), [F23]),
    ("clip_by_value_int", lambda x: tf.clip_by_value(x, 0, 4), lambda x: np.clip(x, 0, 4), [I23]),
    ("norm", tf.norm, np.linalg.norm, [F23]),
    ("norm_axis_keep", lambda x: tf.norm(x, axis=0, keepdims=True),
     lambda x: np.linalg.norm(x, axis=0, keepdims=True), [F23]),
    ("norm_ord1_vector", lambda x: tf.norm(x, ord=1, axis=1),
     lambda x: np.linalg.norm(x, 1, axis=1), [F23]),
    ("norm_p3", lambda x: tf.norm(x, ord=3), lambda x: np.sum(np.abs(x) ** 3) ** (1 / 3), [F23]),
    ("norm_matrix_1", lambda x: tf.norm(x, ord=1, axis=(0, 1)), lambda x: np.linalg.norm(x, 1),
     [F23]),
    ("norm_matrix_inf", lambda x: tf.norm(x, ord=np.inf, axis=[-2, -1]),
     lambda x: np.linalg.norm(x, np.inf), [F23]),
    ("matmul_batched", tf.matmul, np.matmul, [A234.astype(np.float32), B45.astype(np.float32)]),
    ("matmul_int", tf.matmul, np.matmul, [I23, I23.T.copy()]),
    ("to_float", tf.to_float, lambda x: x.astype(np.float32), [I23]),
    ("to_double", tf.to_double, lambda x: x.astype(np.float64), [F23]),
    ("to_int32", tf.to_int32, lambda x: x.astype(np.int32), [F23]),
    ("to_int64", tf.to_int64, lambda x: x.astype(np.int64), [I23]),
]


def _check_forward(out, want):
    want = np.asarray(want)
    assert np.asarray(out).dtype == want.dtype
    assert np.shape(out) == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(out, want, rtol=1e-3 if want.dtype == np.float16 else 1e-5)
    else:
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("name,fn,ref,inputs", FORWARD, ids=[c[0] for c in FORWARD])
def test_forward_values_and_dtypes_in_a_session(name, fn, ref, inputs):
    want = ref(*inputs)
    out = tf.Session().run(fn(*[tf.constant(v) for v in inputs]))
    if np.ndim(want) == 0:
        assert isinstance(out, np.generic)       # Session.run gives NumPy scalars
    with np.errstate(all="ignore"):
        _check_forward(out, want)


@pytest.mark.parametrize("name,fn,ref,inputs", FORWARD, ids=[c[0] for c in FORWARD])
def test_forward_values_and_dtypes_eagerly(name, fn, ref, inputs):
    tf.enable_v2_behavior()
    with np.errstate(all="ignore"):
        _check_forward(fn(*[tf.constant(v) for v in inputs]).numpy(), ref(*inputs))


def test_session_run_gives_numpy_scalars_of_the_op_dtype():
    sess = tf.Session()
    vals = sess.run([tf.reduce_sum(tf.constant([1, 2])), tf.reduce_max(tf.constant([1.0, 2.0])),
                     tf.sqrt(tf.constant(4.0, tf.float64)), tf.argmax(tf.constant([1.0, 3.0])),
                     tf.count_nonzero(tf.constant([1.0, 0.0])), tf.constant(7) / 2,
                     tf.reduce_all(tf.constant([True, False]))])
    assert [type(v) for v in vals] == [np.int32, np.float32, np.float64, np.int64, np.int64,
                                       np.float64, np.bool_]
    assert vals[5] == 3.5


# --------------------------------------------------------------------------------------
# TensorFlow's rules: integers, ties, clipping, non-differentiable ops


def test_integer_ops_give_no_gradient():
    i = tf.constant([3, -1, 2])
    x = tf.constant([1.0, 2.0])
    ys = [tf.reduce_max(i * i), tf.abs(i), tf.cumsum(i), i // 2, i % 2,
          tf.cast(tf.argmax(x), tf.float32)]
    for y in ys:
        assert tf.gradients(y, [i, x]) == [None, None]


def test_piecewise_constant_ops_give_none_and_sign_gives_zeros():
    x = tf.constant([0.4, -1.6])
    for f in (tf.floor, tf.ceil, tf.round, tf.rint):
        assert tf.gradients(f(x), x) == [None]
    (g,) = tf.gradients(tf.sign(x), x)
    np.testing.assert_array_equal(tf.Session().run(g), [0.0, 0.0])


def test_reduce_max_and_min_split_the_gradient_evenly_among_ties():
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    sess = tf.Session()
    g_rows = sess.run(tf.gradients(tf.reduce_max(x, axis=1), x)[0])
    np.testing.assert_allclose(g_rows, [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    g_all = sess.run(tf.gradients(tf.reduce_max(x), x)[0])
    np.testing.assert_allclose(g_all, [[0, 0.5, 0.5], [0, 0, 0]])
    g_min = sess.run(tf.gradients(tf.reduce_min(x, axis=0, keepdims=True), x)[0])
    np.testing.assert_allclose(g_min, [[1, 0, 0], [0, 1, 1]])


def test_reduce_max_gradient_with_a_dynamic_batch_and_axis_tensor():
    x = tf.placeholder(tf.float32, [None, 3])
    axis = tf.placeholder(tf.int32, [])
    g1 = tf.gradients(tf.reduce_max(x, axis=1), x)[0]
    g2 = tf.gradients(tf.reduce_max(x, axis=axis), x)[0]
    v = np.array([[1.0, 5.0, 5.0], [0.0, -1.0, 2.0]], np.float32)
    want = [[0, 0.5, 0.5], [0, 0, 1]]
    sess = tf.Session()
    np.testing.assert_allclose(sess.run(g1, {x: v}), want)
    np.testing.assert_allclose(sess.run(g2, {x: v, axis: 1}), want)


def test_maximum_and_minimum_give_ties_to_x():
    x = tf.constant([1.0, 2.0, 3.0])
    y = tf.constant([1.0, 1.0, 5.0])
    sess = tf.Session()
    np.testing.assert_array_equal(sess.run(tf.gradients(tf.maximum(x, y), [x, y])),
                                  [[1, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(sess.run(tf.gradients(tf.minimum(x, y), [x, y])),
                                  [[1, 0, 1], [0, 1, 0]])
    # broadcasting a scalar: its gradient sums over the elements where it wins
    s = tf.constant(2.0)
    gx, gs = sess.run(tf.gradients(tf.maximum(x, s), [x, s]))
    np.testing.assert_array_equal(gx, [0, 1, 1])
    assert gs == 1.0


def test_clip_by_value_gradient_passes_inside_the_closed_interval():
    t = tf.constant([-2.0, -1.0, 0.0, 1.0, 2.0])
    lo, hi = tf.constant(-1.0), tf.constant(1.0)
    y = tf.clip_by_value(t, lo, hi)
    sess = tf.Session()
    np.testing.assert_array_equal(sess.run(y), [-1, -1, 0, 1, 1])
    gt, glo, ghi = sess.run(tf.gradients(y * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]),
                                         [t, lo, hi]))
    np.testing.assert_array_equal(gt, [0, 2, 3, 4, 0])
    assert (glo, ghi) == (1.0, 5.0)
    assert y.op.type == "Maximum" and y.op.name == "clip_by_value"


def test_clip_by_value_keeps_indexed_slices_sparse():
    s = tf.IndexedSlices(tf.constant([[3.0, -3.0]]), tf.constant([1]), tf.constant([4, 2]))
    c = tf.clip_by_value(s, -1.0, 1.0)
    assert isinstance(c, tf.IndexedSlices) and c.indices is s.indices
    np.testing.assert_array_equal(tf.Session().run(c.values), [[1, -1]])


@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_norm_gradient_at_zero_is_nan_as_in_tensorflow_and_zero_with_safe_norm():
    x = tf.constant([[0.0, 0.0], [3.0, 4.0]])
    sess = tf.Session()
    for y in (tf.norm(x, axis=1), tf.math.reduce_euclidean_norm(x, 1), tf.norm(x * 0.0)):
        np.testing.assert_allclose(sess.run(tf.gradients(y, x)[0]),
                                   [[np.nan] * 2, [0.6, 0.8]] if y.shape.rank else
                                   [[np.nan] * 2] * 2)
    for y in (tf.safe_norm(x, axis=1), tf.safe_norm(x * 0.0)):
        np.testing.assert_allclose(sess.run(tf.gradients(y, x)[0]),
                                   [[0, 0], [0.6, 0.8]] if y.shape.rank else [[0, 0], [0, 0]])
    assert sess.run(tf.norm(x[0])) == 0.0


def test_rounding_is_half_to_even():
    r = tf.Session().run(tf.round(tf.constant([0.5, 1.5, 2.5, -2.5])))
    np.testing.assert_array_equal(r, [0.0, 2.0, 2.0, -2.0])


def test_integer_division_by_zero_is_an_error_at_run_time():
    z = tf.placeholder(tf.int32, [2])
    y = tf.floordiv(tf.constant([1, 2]), z)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.Session().run(y, {z: [1, 0]})


def test_float_division_by_zero_gives_inf_and_div_no_nan_zero():
    x = tf.constant([1.0, 0.0])
    z = tf.constant([0.0, 0.0])
    sess = tf.Session()
    with np.errstate(divide="ignore", invalid="ignore"):
        q = sess.run(x / z)
    assert np.isinf(q[0]) and np.isnan(q[1])
    np.testing.assert_array_equal(sess.run(tf.div_no_nan(x, z)), [0.0, 0.0])


# --------------------------------------------------------------------------------------
# Operators, op types and names


def test_division_operators_make_tensorflow_op_types_and_names():
    x, y = tf.constant([3.0, 4.0]), tf.constant([2.0, 2.0])
    i, j = tf.constant([3, 4]), tf.constant([2, 2])
    q = x / y
    assert (q.op.type, q.op.name, q.dtype) == ("RealDiv", "truediv", tf.float32)
    qi = i / j
    assert (qi.op.type, qi.dtype) == ("RealDiv", tf.float64)
    assert [t.op.type for t in qi.op.inputs] == ["Cast", "Cast"]
    assert tf.divide(x, y, name="ratio").op.name == "ratio"
    assert (i // j).op.type == "FloorDiv" and (i // j).op.name.startswith("floordiv")
    assert (i % j).op.type == "FloorMod" and (i % j).op.name.startswith("mod")
    assert tf.div(i, j).op.type == "FloorDiv" and tf.div(x, y).op.type == "RealDiv"
    assert (2.0 / x).dtype == tf.float32 and (x ** 2).op.type == "Pow"
    assert abs(x).op.type == "Abs"
    sess = tf.Session()
    np.testing.assert_array_equal(sess.run([i // j, i % j, -i % j]), [[1, 2], [1, 0], [1, 0]])


def test_comparison_and_logical_operators():
    x, y = tf.constant([1.0, 2.0, 3.0]), tf.constant([2.0, 2.0, 2.0])
    a, b = tf.constant([True, True, False]), tf.constant([True, False, False])
    ops = [x < y, x <= y, x > y, x >= y, a & b, a | b, a ^ b, ~a]
    assert [t.op.type for t in ops] == ["Less", "LessEqual", "Greater", "GreaterEqual",
                                        "LogicalAnd", "LogicalOr", "LogicalAnd", "LogicalNot"]
    got = tf.Session().run(ops)
    want = [[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1], [1, 0, 0], [1, 1, 0], [0, 1, 0],
            [0, 0, 1]]
    for g, w in zip(got, want):
        assert g.dtype == np.bool_
        np.testing.assert_array_equal(g, np.array(w, bool))


def test_matmul_op_types_and_static_shapes():
    a = tf.placeholder(tf.float32, [None, 3, 4])
    b = tf.placeholder(tf.float32, [4, 5])
    c = tf.matmul(a, b)
    assert c.op.type == "BatchMatMulV2" and c.op.name == "MatMul"
    assert c.shape.as_list() == [None, 3, 5]
    assert tf.matmul(tf.ones([2, 3]), tf.ones([3, 4])).op.type == "MatMul"
    d = tf.matmul(tf.ones([2, 1, 3, 4]), tf.ones([5, 2, 4]), transpose_b=True)
    assert d.shape.as_list() == [2, 5, 3, 2] and d.op.get_attr("adj_y") is True
    assert tf.matmul(tf.placeholder(tf.float32), b).shape.rank is None
    ga, gb = tf.gradients(c, [a, b])
    assert ga.shape.as_list() == [None, 3, 4] and gb.shape.as_list() == [4, 5]
    av = np.ones((2, 3, 4), np.float32)
    bv = np.arange(20, dtype=np.float32).reshape(4, 5)
    gav, gbv = tf.Session().run([ga, gb], {a: av, b: bv})
    np.testing.assert_allclose(gav, np.broadcast_to(bv.sum(1), (2, 3, 4)))
    np.testing.assert_allclose(gbv, np.full((4, 5), 6.0))


def test_reduction_and_scan_static_shapes():
    x = tf.placeholder(tf.float32, [None, 3, 4])
    assert tf.reduce_max(x, axis=1).shape.as_list() == [None, 4]
    assert tf.reduce_prod(x, axis=[0, 2], keepdims=True).shape.as_list() == [1, 3, 1]
    assert tf.reduce_any(tf.cast(x, tf.bool)).shape.as_list() == []
    assert tf.argmax(x, 2).shape.as_list() == [None, 3]
    assert tf.argmax(x, dimension=-3).shape.as_list() == [3, 4]
    assert tf.argmax(x, tf.placeholder(tf.int32, [])).shape.as_list() == [None, None]
    assert tf.cumsum(x, -1).shape.as_list() == [None, 3, 4]
    assert tf.count_nonzero(x, 1).shape.as_list() == [None, 4]
    assert tf.norm(x, axis=(1, 2)).shape.as_list() == [None]
    assert tf.reduce_logsumexp(x, 1, keepdims=True).shape.as_list() == [None, 1, 4]


def test_argmax_dtype_and_dimension_argument():
    x = tf.constant([[1.0, 5.0, 2.0], [7.0, 0.0, 9.0]])
    a = tf.argmax(x, dimension=1)
    assert a.dtype == tf.int64 and a.op.type == "ArgMax"
    b = tf.argmin(x, 0, output_type=tf.int32)
    assert b.dtype == tf.int32
    av, bv, cv = tf.Session().run([a, b, tf.argmax(x)])
    assert av.tolist() == [1, 2] and bv.tolist() == [0, 1, 0] and cv.tolist() == [1, 0, 1]


def test_tf_math_namespaces_of_both_faces():
    assert tf.math.log is tf.log and tf.math.divide is tf.divide
    assert tf.math.argmax is tf.argmax          # TF1 signature
    assert flowgrad.math.argmax is flowgrad.argmax is not tf.argmax
    for name in ("reduce_max", "reduce_logsumexp", "softplus", "sigmoid", "floormod",
                 "squared_difference", "cumsum", "is_nan", "reduce_std", "truediv"):
        assert getattr(tf.math, name) is getattr(flowgrad.math, name)
    x = tf.constant([[1.0, 3.0], [4.0, 2.0]])
    assert tf.math.argmax(x, 1, None, None, tf.int32).dtype == tf.int32
    assert flowgrad.math.argmax(x, 1, tf.int32).dtype == tf.int32


def test_tf2_face_math_functions_run_eagerly():
    tf.enable_v2_behavior()
    x = flowgrad.constant([[1.0, 3.0], [4.0, 2.0]])
    assert flowgrad.math.argmax(x, 1, flowgrad.int32).numpy().tolist() == [1, 0]
    assert flowgrad.math.reduce_max(x).numpy() == 4.0
    assert (flowgrad.constant(7) / 2).numpy() == 3.5


# --------------------------------------------------------------------------------------
# Errors


def test_bad_axes_are_clear_errors():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 "
                                         "dimensions"):
        tf.reduce_max(x, axis=2)
    with pytest.raises(ValueError, match="Invalid reduction dimension -3"):
        tf.reduce_prod(x, axis=[0, -3])
    with pytest.raises(ValueError, match=r"Expected dimension in the range \[-2, 2\), but got 2"):
        tf.argmax(x, 2)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dimension'"):
        tf.argmax(x, 0, dimension=1)
    with pytest.raises(ValueError, match=r"Expected scan axis in the range \[-2, 2\), but got "
                                         "-3"):
        tf.cumsum(x, -3)
    with pytest.raises(ValueError, match="Can not specify both 'axis' and 'reduction_indices'"):
        tf.reduce_min(x, 0, reduction_indices=1)
    with pytest.raises(ValueError, match="'axis' must be None, an integer, or a tuple of 2 "
                                         "unique integers, got \\(1, 1\\)"):
        tf.norm(x, axis=(1, 1))
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm, got -1"):
        tf.norm(x, ord=-1)


def test_dtype_errors_name_the_op():
    i = tf.constant([1, 2])
    x = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int32 not "
                                        "in list of allowed values: bfloat16, half, float32, "
                                        "float64, complex64, complex128 \\(op Sqrt\\)"):
        tf.sqrt(i)
    with pytest.raises(TypeError, match="Input 'x' of 'LogicalAnd' Op has type float32 that "
                                        "does not match expected type of bool."):
        tf.logical_and(x, x)
    with pytest.raises(TypeError, match="Input 'input' of 'All' Op has type float32"):
        tf.reduce_all(x)
    with pytest.raises(TypeError, match="Invalid dtype tf.bool in __truediv__"):
        tf.truediv(tf.constant([True]), tf.constant([False]))
    with pytest.raises(TypeError, match="`x` and `y` must have the same dtype, got tf.int32 != "
                                        "tf.float32"):
        tf.truediv(i, x)
    with pytest.raises(TypeError, match="Input 'y' of 'Maximum' Op has type float64 that does "
                                        "not match type float32"):
        tf.maximum(x, tf.constant([1.0, 2.0], tf.float64))
    with pytest.raises(TypeError, match="parameter 'output_type' has DataType float32"):
        tf.argmax(x, output_type=tf.float32)


def test_shape_errors_name_the_op():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4 for MatMul"):
        tf.matmul(tf.ones([2, 3]), tf.ones([4, 2]))
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1 for 'MatMul'"):
        tf.matmul(tf.ones([3]), tf.ones([3, 2]))
    with pytest.raises(ValueError, match="The input scalar must be a 0-D value. Received shape "
                                         r"\(2,\)"):
        tf.scalar_mul([1.0, 2.0], tf.ones([2]))
    with pytest.raises(ValueError, match=r"clip_by_value: the bounds would broadcast t of shape "
                                         r"\(3,\) to \(2, 3\)"):
        tf.clip_by_value(tf.ones([3]), tf.zeros([2, 1]), 1.0)
