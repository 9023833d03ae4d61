"""tf.nn pooling: max_pool, avg_pool (1-D and 2-D), max_pool_with_argmax and the gradient ops.

Forward values are compared with naive NumPy loops written here; gradients are checked
numerically at orders 1 and 2 (3 for max-pool, TensorFlow's MaxPoolGrad gap), graph and
eager.

The numerical gradient checks of the pooling cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

R = np.random.RandomState(5)


def distinct(shape, seed=0):
    """Values 0.1 apart in random order: no ties, and no argmax flips under gradcheck's EPS."""
    n = int(np.prod(shape))
    return np.random.RandomState(seed).permutation(n).reshape(shape) * 0.1 - n * 0.05


def naive_pool(x, k, s, padding, reduce):
    """NHWC pooling by loops over outputs; SAME windows only see in-bounds elements."""
    n, h, w, c = x.shape
    if padding == "VALID":
        oh, ow, pt, pl = (h - k[0]) // s[0] + 1, (w - k[1]) // s[1] + 1, 0, 0
    else:
        oh, ow = -(-h // s[0]), -(-w // s[1])
        pt = max((oh - 1) * s[0] + k[0] - h, 0) // 2
        pl = max((ow - 1) * s[1] + k[1] - w, 0) // 2
    out = np.zeros((n, oh, ow, c))
    arg = np.zeros((n, oh, ow, c), np.int64)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    vals, idx = [], []
                    for p in range(k[0]):
                        for q in range(k[1]):
                            y, z = i * s[0] + p - pt, j * s[1] + q - pl
                            if 0 <= y < h and 0 <= z < w:
                                vals.append(x[b, y, z, ch])
                                idx.append((y * w + z) * c + ch)
                    out[b, i, j, ch] = reduce(vals)
                    arg[b, i, j, ch] = idx[int(np.argmax(vals))]
    return out, arg


def nchw(x):
    return np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2)))


def nhwc(x):
    return np.transpose(x, (0, 2, 3, 1))


def run(t):
    return tf.Session().run(t)


CONFIGS = [
    # (x shape NHWC, ksize, strides, padding)
    ((2, 6, 8, 3), (2, 2), (2, 2), "VALID"),       # tiles exactly
    ((2, 6, 8, 3), (2, 2), (2, 2), "SAME"),
    ((1, 7, 5, 2), (2, 2), (2, 2), "SAME"),        # odd sizes
    ((1, 7, 5, 2), (2, 2), (2, 2), "VALID"),
    ((2, 7, 6, 2), (3, 3), (2, 2), "SAME"),        # overlapping windows
    ((1, 5, 7, 2), (3, 2), (1, 3), "VALID"),
    ((1, 5, 7, 2), (3, 2), (1, 3), "SAME"),
    ((1, 4, 4, 1), (4, 4), (1, 1), "SAME"),
]


@pytest.mark.parametrize("xs,k,s,padding", CONFIGS)
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_pooling_matches_naive_loops(xs, k, s, padding, data_format):
    x = R.normal(size=xs)
    want_max, _ = naive_pool(x, k, s, padding, max)
    want_avg, _ = naive_pool(x, k, s, padding, np.mean)
    if data_format == "NHWC":
        mp = tf.nn.max_pool(x, [1, *k, 1], [1, *s, 1], padding)
        ap = tf.nn.avg_pool(value=x, ksize=[1, *k, 1], strides=[1, *s, 1], padding=padding)
        got_max, got_avg = run(mp), run(ap)
    else:
        mp = tf.nn.max_pool2d(nchw(x), k, s, padding, data_format="NCHW")
        ap = tf.nn.avg_pool2d(nchw(x), k, s, padding, data_format="NCHW")
        got_max, got_avg = nhwc(run(mp)), nhwc(run(ap))
    assert mp.shape.as_list() == list(run(mp).shape)
    np.testing.assert_allclose(got_max, want_max, rtol=1e-12)
    np.testing.assert_allclose(got_avg, want_avg, rtol=1e-12)


def test_avg_pool_same_divides_by_in_bounds_count():
    x = np.ones((1, 3, 3, 1))
    got = run(tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME"))
    np.testing.assert_array_equal(got.ravel(), [1.0, 1.0, 1.0, 1.0])
    x = np.arange(9.0).reshape(1, 3, 3, 1)
    got = run(tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME"))
    np.testing.assert_array_equal(got.ravel(), [2.0, 3.5, 6.5, 8.0])


def test_max_pool_grad_sends_a_tie_to_the_first_maximum():
    x = np.array([[1.0, 3.0], [3.0, 3.0]]).reshape(1, 2, 2, 1)
    xt = tf.constant(x)
    (g,) = tf.gradients(tf.nn.max_pool2d(xt, 2, 2, "VALID"), [xt])
    np.testing.assert_array_equal(run(g).ravel(), [0.0, 1.0, 0.0, 0.0])
    # overlapping windows add up at a shared maximum
    x = np.array([[0.0, 5.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]).reshape(1, 3, 3, 1)
    xt = tf.constant(x)
    (g,) = tf.gradients(tf.nn.max_pool2d(xt, 2, 1, "VALID"), [xt])
    np.testing.assert_array_equal(run(g).reshape(3, 3), [[0, 2, 0], [1, 1, 0], [0, 0, 0]])


@pytest.mark.parametrize("k,s", [(2, 2), (3, 2)])
def test_max_pool_grad_of_an_infinite_gradient_is_zero_off_the_maximum(k, s):
    x = distinct((1, 4, 4, 1))
    xt = tf.constant(x)
    y = tf.nn.max_pool2d(xt, k, s, "SAME")
    (g,) = tf.gradients(y, [xt], grad_ys=np.full((1, 2, 2, 1), np.inf))
    dx, ones = run([g, tf.gradients(y, [xt])[0]])
    assert not np.isnan(dx).any()
    np.testing.assert_array_equal(np.isinf(dx), ones > 0)


def test_pool1d_both_faces():
    x = R.normal(size=(2, 7, 3))
    want, _ = naive_pool(x[:, None], (1, 3), (1, 2), "SAME", max)
    np.testing.assert_allclose(run(flowgrad.nn.max_pool(x, 3, 2, "SAME")), want[:, 0])
    want, _ = naive_pool(x[:, None], (1, 2), (1, 2), "VALID", np.mean)
    got = run(tf.nn.avg_pool1d(np.transpose(x, (0, 2, 1)), 2, 2, "VALID", data_format="NCW"))
    np.testing.assert_allclose(np.transpose(got, (0, 2, 1)), want[:, 0])


@pytest.mark.parametrize("include_batch", [False, True])
@pytest.mark.parametrize("xs,k,s,padding", [CONFIGS[2], CONFIGS[4], CONFIGS[5]])
def test_max_pool_with_argmax_matches_naive(xs, k, s, padding, include_batch):
    x = distinct(xs)
    want, arg = naive_pool(x, k, s, padding, max)
    if include_batch:
        arg = arg + (np.arange(xs[0]) * int(np.prod(xs[1:])))[:, None, None, None]
    out, got = tf.nn.max_pool_with_argmax(x, [1, *k, 1], [1, *s, 1], padding,
                                          include_batch_in_index=include_batch)
    assert got.dtype == tf.int64
    np.testing.assert_array_equal(run(out), want)
    np.testing.assert_array_equal(run(got), arg)
    _, g32 = tf.nn.max_pool_with_argmax(x, k, s, padding, Targmax=tf.int32)
    assert run(g32).dtype == np.int32


def test_max_pool_of_integers_avg_pool_only_floats():
    x = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)
    y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert y.dtype == tf.int32
    np.testing.assert_array_equal(run(y).ravel(), [5, 7, 13, 15])
    np.testing.assert_array_equal(run(tf.nn.max_pool2d(x, 3, 2, "SAME")).ravel(),
                                  [10, 11, 14, 15])
    with pytest.raises(TypeError, match="AvgPool"):
        tf.nn.avg_pool2d(x, 2, 2, "VALID")


# --------------------------------------------------------------------------------------
# Gradients (orders 1-3 of the pooling ops: tests/op_db.py)

nn = tf.nn
XA = distinct((2, 5, 4, 2))


def test_second_order_op_types():
    x = tf.constant(XA)
    y = tf.reduce_sum(tf.square(nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")))
    (g,) = tf.gradients(y, [x])
    assert g.op.type == "MaxPoolGrad"
    (h,) = tf.gradients(tf.reduce_sum(g * g), [x])
    assert h is not None
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert "MaxPoolGradGrad" in types
    a = tf.reduce_sum(tf.square(nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")))
    (ga,) = tf.gradients(a, [x])
    assert ga.op.type == "AvgPoolGrad"


# --------------------------------------------------------------------------------------
# Shapes and errors


def test_static_shapes_with_unknown_dimensions():
    x = tf.placeholder(tf.float32, [None, 28, 28, 32])
    assert nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME").shape.as_list() == [None, 14, 14,
                                                                                   32]
    y = nn.avg_pool2d(tf.placeholder(tf.float32), 3, 2, "VALID")
    assert y.shape.rank == 4
    out = tf.Session().run(y, {y.op.inputs[0]: np.ones((1, 5, 7, 2), np.float32)})
    np.testing.assert_array_equal(out, np.ones((1, 2, 3, 2)))


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_errors(mode):
    if mode == "eager":
        tf.enable_v2_behavior()
    try:
        with pytest.raises(ValueError, match="MaxPool.*rank 4.*rank 3"):
            nn.max_pool2d(np.zeros((4, 4, 1)), 2, 2, "SAME")
        with pytest.raises(ValueError, match="AvgPool.*rank 4.*rank 2"):
            nn.avg_pool(np.zeros((4, 4)), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        with pytest.raises(ValueError, match="padding"):
            nn.max_pool2d(np.zeros((1, 4, 4, 1)), 2, 2, "same")
        with pytest.raises(ValueError, match="ksize in the batch and depth"):
            nn.max_pool(np.zeros((1, 4, 4, 1)), [1, 2, 2, 2], [1, 2, 2, 1], "SAME")
        with pytest.raises(ValueError, match="negative"):
            nn.max_pool2d(np.zeros((1, 1, 4, 1)), 3, 1, "VALID")
        with pytest.raises(ValueError, match="NHWC"):
            nn.max_pool_with_argmax(np.zeros((1, 4, 4, 1)), 2, 2, "SAME", data_format="NCHW")
    finally:
        tf.disable_v2_behavior()
