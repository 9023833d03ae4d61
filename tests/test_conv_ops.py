"""tf.nn convolutions: conv2d, conv1d, depthwise_conv2d, conv2d_transpose and the backprop ops.

Forward values are compared with naive NumPy loops written here (small sizes); every op
and every gradient op gets numerical gradient checks at orders 1 and 2, graph and eager.

The numerical gradient checks of the conv cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.ops import conv_ops
from gradcheck import check_gradients

R = np.random.RandomState(11)


def _same_pads(size, k, s, d):
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def _pads(x_hw, k_hw, strides, dilations, padding):
    """((top, bottom), (left, right)) as written in TensorFlow's documentation."""
    if padding == "VALID":
        return (0, 0), (0, 0)
    if padding == "SAME":
        return tuple(_same_pads(n, k, s, d) for n, k, s, d in zip(x_hw, k_hw, strides, dilations))
    return tuple(tuple(p) for p in padding[1:3])


def naive_conv2d(x, w, strides=(1, 1), padding="VALID", dilations=(1, 1), depthwise=False):
    """NHWC cross-correlation by explicit loops over every output and filter element."""
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    (pt, pb), (pl, pr) = _pads((h, wd), (kh, kw), strides, dilations, padding)
    xp = np.zeros((n, h + pt + pb, wd + pl + pr, c))
    xp[:, pt:pt + h, pl:pl + wd] = x
    oh = (h + pt + pb - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (wd + pl + pr - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    out = np.zeros((n, oh, ow, c * o if depthwise else o))
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for p in range(kh):
                    for q in range(kw):
                        v = xp[b, i * strides[0] + p * dilations[0],
                               j * strides[1] + q * dilations[1]]
                        if depthwise:
                            out[b, i, j] += (v[:, None] * w[p, q]).reshape(-1)
                        else:
                            out[b, i, j] += v @ w[p, q]
    return out


def naive_conv2d_backprop_input(in_shape, w, dy, strides=(1, 1), padding="VALID",
                                dilations=(1, 1)):
    """The adjoint of naive_conv2d in its input: scatter each output back onto its window."""
    n, h, wd, c = in_shape
    kh, kw, _, o = w.shape
    (pt, pb), (pl, pr) = _pads((h, wd), (kh, kw), strides, dilations, padding)
    dxp = np.zeros((n, h + pt + pb, wd + pl + pr, c))
    for b in range(n):
        for i in range(dy.shape[1]):
            for j in range(dy.shape[2]):
                for p in range(kh):
                    for q in range(kw):
                        dxp[b, i * strides[0] + p * dilations[0],
                            j * strides[1] + q * dilations[1]] += w[p, q] @ dy[b, i, j]
    return dxp[:, pt:pt + h, pl:pl + wd]


def nchw(x):
    return np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2)))


def nhwc(x):
    return np.transpose(x, (0, 2, 3, 1))


def run(t):
    return tf.Session().run(t)


# --------------------------------------------------------------------------------------
# Forward values against the naive loops

FORWARD = [
    # (x shape NHWC, filter shape, strides, padding, dilations)
    ((2, 5, 7, 3), (3, 3, 3, 4), (1, 1), "SAME", (1, 1)),
    ((2, 5, 7, 3), (3, 3, 3, 4), (1, 1), "VALID", (1, 1)),
    ((1, 7, 6, 2), (3, 2, 2, 3), (2, 3), "SAME", (1, 1)),
    ((1, 7, 6, 2), (3, 2, 2, 3), (2, 3), "VALID", (1, 1)),
    ((2, 8, 9, 2), (5, 5, 2, 3), (2, 2), "SAME", (1, 1)),
    ((1, 9, 8, 2), (3, 2, 2, 2), (1, 1), "SAME", (2, 3)),
    ((1, 9, 8, 2), (3, 2, 2, 2), (2, 1), "VALID", (2, 2)),
    ((2, 4, 5, 3), (2, 3, 3, 2), (1, 2), [[0, 0], [1, 2], [0, 3], [0, 0]], (1, 1)),
    ((1, 6, 6, 1), (1, 1, 1, 4), (2, 2), "VALID", (1, 1)),
    ((1, 3, 3, 2), (5, 5, 2, 2), (1, 1), "SAME", (1, 1)),
]
WIDE = [((2, 5, 4, 16), (3, 2, 16, 3), (2, 1), "SAME", (1, 1)),     # the per-tap kernels
        ((1, 6, 7, 17), (2, 3, 17, 2), (1, 2), "VALID", (2, 1))]


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", FORWARD)
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_conv2d_matches_naive_loops(xs, fs, strides, padding, dilations, data_format):
    x, w = R.normal(size=xs), R.normal(size=fs)
    want = naive_conv2d(x, w, strides, padding, dilations)
    if data_format == "NCHW":
        pad = padding if isinstance(padding, str) else [padding[0], padding[3], *padding[1:3]]
        y = tf.nn.conv2d(nchw(x), w, strides, pad, data_format="NCHW", dilations=dilations)
        got = nhwc(run(y))
    else:
        y = tf.nn.conv2d(x, filter=w, strides=[1, *strides, 1], padding=padding,
                         dilations=[1, *dilations, 1])
        got = run(y)
    assert y.shape.as_list() == list((nchw(want) if data_format == "NCHW" else want).shape)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", FORWARD + WIDE)
def test_conv2d_transpose_matches_naive_adjoint(xs, fs, strides, padding, dilations):
    w = R.normal(size=fs)
    dy = R.normal(size=naive_conv2d(np.zeros(xs), w, strides, padding, dilations).shape)
    want = naive_conv2d_backprop_input(xs, w, dy, strides, padding, dilations)
    got = run(tf.nn.conv2d_transpose(dy, w, xs, [1, *strides, 1], padding,
                                     dilations=[1, *dilations, 1]))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    got = run(tf.nn.conv2d_backprop_input(xs, filters=w, out_backprop=dy,
                                          strides=[1, *strides, 1], padding=padding,
                                          dilations=[1, *dilations, 1]))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def naive_conv2d_backprop_filter(x, w_shape, dy, strides=(1, 1), padding="VALID",
                                 dilations=(1, 1)):
    """d <dy, conv(x, w)> / dw: each filter tap gathers input-window x output-gradient products."""
    n, h, wd, c = x.shape
    kh, kw = w_shape[:2]
    (pt, pb), (pl, pr) = _pads((h, wd), (kh, kw), strides, dilations, padding)
    xp = np.zeros((n, h + pt + pb, wd + pl + pr, c))
    xp[:, pt:pt + h, pl:pl + wd] = x
    dw = np.zeros(w_shape)
    for b in range(n):
        for i in range(dy.shape[1]):
            for j in range(dy.shape[2]):
                for p in range(kh):
                    for q in range(kw):
                        v = xp[b, i * strides[0] + p * dilations[0],
                               j * strides[1] + q * dilations[1]]
                        dw[p, q] += np.outer(v, dy[b, i, j])
    return dw


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", FORWARD + WIDE)
def test_conv2d_backprop_filter_matches_naive_loops(xs, fs, strides, padding, dilations):
    x = R.normal(size=xs)
    dy = R.normal(size=naive_conv2d(x, np.zeros(fs), strides, padding, dilations).shape)
    want = naive_conv2d_backprop_filter(x, fs, dy, strides, padding, dilations)
    got = run(tf.nn.conv2d_backprop_filter(x, fs, dy, [1, *strides, 1], padding,
                                           dilations=[1, *dilations, 1]))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", [FORWARD[2], FORWARD[8]] + WIDE)
def test_large_batches_are_computed_in_chunks(monkeypatch, xs, fs, strides, padding, dilations):
    monkeypatch.setattr(conv_ops, "_CHUNK_ELEMENTS", 50)     # one or two examples a chunk
    monkeypatch.setattr(conv_ops, "_CACHE_ELEMENTS", 50)
    xs = (5,) + xs[1:]
    x, w = R.normal(size=xs), R.normal(size=fs)
    want = naive_conv2d(x, w, strides, padding, dilations)
    dy = R.normal(size=want.shape)
    kw = dict(strides=[1, *strides, 1], padding=padding, dilations=[1, *dilations, 1])
    got = run([tf.nn.conv2d(x, w, **kw), tf.nn.conv2d_backprop_input(xs, w, dy, **kw),
               tf.nn.conv2d_backprop_filter(x, fs, dy, **kw)])
    np.testing.assert_allclose(got[0], want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got[1], naive_conv2d_backprop_input(xs, w, dy, strides, padding,
                                                                   dilations), atol=1e-10)
    np.testing.assert_allclose(got[2], naive_conv2d_backprop_filter(x, fs, dy, strides, padding,
                                                                    dilations), atol=1e-10)


@pytest.mark.parametrize("xs,fs,padding", [((5, 9, 9, 32), (5, 5, 32, 6), "SAME"),
                                           ((4, 10, 10, 1), (5, 5, 1, 8), "SAME"),
                                           ((3, 8, 7, 5), (3, 3, 5, 4), "VALID")])
@pytest.mark.parametrize("cache_elements", [1, 1 << 19])
def test_float32_kernels_are_within_ulps_of_float64(monkeypatch, xs, fs, padding,
                                                    cache_elements):
    # the float32 kernels, in cache-sized batch chunks or one example a chunk, differ from
    # the exact value by rounding only: at most 16 float32 ulps of the sum of |products|
    # (a wrong tap or chunk would be off by whole products)
    monkeypatch.setattr(conv_ops, "_CACHE_ELEMENTS", cache_elements)
    x, w = R.normal(size=xs), R.normal(size=fs)
    dy = R.normal(size=naive_conv2d(x, w, padding=padding).shape)
    x32, w32, dy32 = (v.astype(np.float32) for v in (x, w, dy))
    x, w, dy = (v.astype(np.float64) for v in (x32, w32, dy32))    # the float32 values, exact
    kw = dict(strides=[1, 1, 1, 1], padding=padding)
    got = run([tf.nn.conv2d(x32, w32, **kw), tf.nn.conv2d_backprop_input(xs, w32, dy32, **kw),
               tf.nn.conv2d_backprop_filter(x32, fs, dy32, **kw)])
    exact = [naive_conv2d(x, w, padding=padding),
             naive_conv2d_backprop_input(xs, w, dy, (1, 1), padding),
             naive_conv2d_backprop_filter(x, fs, dy, (1, 1), padding)]
    bound = [naive_conv2d(abs(x), abs(w), padding=padding),
             naive_conv2d_backprop_input(xs, abs(w), abs(dy), (1, 1), padding),
             naive_conv2d_backprop_filter(abs(x), fs, abs(dy), (1, 1), padding)]
    for g, e, b in zip(got, exact, bound):
        assert g.dtype == np.float32
        assert np.all(np.abs(g - e) <= 16 * np.finfo(np.float32).eps * b)


def test_empty_batch():
    x = np.zeros((0, 5, 5, 3))
    w = tf.constant(R.normal(size=(3, 3, 3, 2)))
    y = tf.nn.conv2d(x, w, 1, "SAME")
    (g,) = tf.gradients(tf.reduce_sum(y), [w])
    out, gw = run([y, g])
    assert out.shape == (0, 5, 5, 2)
    np.testing.assert_array_equal(gw, np.zeros((3, 3, 3, 2)))


def test_same_padding_puts_the_odd_pixel_after():
    # input 4, kernel 3, stride 2: total padding 1, all of it after (pad_before = total // 2)
    x = np.arange(4.0).reshape(1, 1, 4, 1)
    y = run(tf.nn.conv2d(x, np.ones((1, 3, 1, 1)), [1, 1, 2, 1], "SAME"))
    np.testing.assert_array_equal(y.ravel(), [3.0, 5.0])


def test_conv1d_matches_naive_loops_both_faces():
    x, w = R.normal(size=(2, 9, 3)), R.normal(size=(3, 3, 4))
    want = naive_conv2d(x[:, None], w[None], (1, 2), "SAME", (1, 1))[:, 0]
    got = run(tf.nn.conv1d(x, w, stride=2, padding="SAME"))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    got = run(tf.nn.conv1d(value=np.transpose(x, (0, 2, 1)), filters=w, stride=2,
                           padding="SAME", data_format="NCW"))
    np.testing.assert_allclose(np.transpose(got, (0, 2, 1)), want, rtol=1e-10, atol=1e-10)
    dil = naive_conv2d(x[:, None], w[None], (1, 1), "VALID", (1, 2))[:, 0]
    got = run(flowgrad.nn.conv1d(x, w, 1, "VALID", dilations=2))
    np.testing.assert_allclose(got, dil, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("strides,padding,dilations", [((1, 1), "SAME", (1, 1)),
                                                       ((2, 1), "VALID", (1, 1)),
                                                       ((1, 1), "SAME", (2, 2))])
def test_depthwise_conv2d_matches_naive_loops(strides, padding, dilations):
    x, w = R.normal(size=(2, 6, 5, 3)), R.normal(size=(3, 2, 3, 2))
    want = naive_conv2d(x, w, strides, padding, dilations, depthwise=True)
    y = tf.nn.depthwise_conv2d(x, w, [1, *strides, 1], padding, rate=dilations)
    assert y.shape.as_list() == list(want.shape)
    np.testing.assert_allclose(run(y), want, rtol=1e-10, atol=1e-10)
    got = nhwc(run(tf.nn.depthwise_conv2d(nchw(x), w, [1, 1, *strides], padding,
                                          data_format="NCHW", dilations=dilations)))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def _adjoint(linear_fn, in_shape, dy):
    """The adjoint of a linear NumPy map applied to ``dy``, built from unit inputs."""
    out = np.zeros(in_shape)
    for k in range(out.size):
        e = np.zeros(in_shape)
        e.flat[k] = 1.0
        out.flat[k] = np.sum(dy * linear_fn(e))
    return out


@pytest.mark.parametrize("strides,padding,dilations", [((2, 1), "SAME", (1, 1)),
                                                       ((1, 2), "VALID", (1, 2))])
def test_depthwise_backprop_ops_match_naive_adjoints(strides, padding, dilations):
    x, w = R.normal(size=(2, 5, 4, 2)), R.normal(size=(3, 2, 2, 2))
    dy = R.normal(size=naive_conv2d(x, w, strides, padding, dilations, True).shape)
    kw = dict(strides=[1, *strides, 1], padding=padding, dilations=[1, *dilations, 1])
    want_x = _adjoint(lambda e: naive_conv2d(e, w, strides, padding, dilations, True), x.shape,
                      dy)
    got_x = run(tf.nn.depthwise_conv2d_backprop_input(x.shape, w, dy, **kw))
    np.testing.assert_allclose(got_x, want_x, rtol=1e-10, atol=1e-10)
    want_w = _adjoint(lambda e: naive_conv2d(x, e, strides, padding, dilations, True), w.shape,
                      dy)
    got_w = run(tf.nn.depthwise_conv2d_backprop_filter(x, w.shape, dy, **kw))
    np.testing.assert_allclose(got_w, want_w, rtol=1e-10, atol=1e-10)


def test_conv2d_transpose_with_a_dynamic_batch():
    dy = tf.placeholder(tf.float64, [None, 3, 4, 2])
    w = R.normal(size=(3, 3, 5, 2))
    y = tf.nn.conv2d_transpose(dy, w, [tf.shape(dy)[0], 6, 8, 5], [1, 2, 2, 1], "SAME")
    assert y.shape.as_list() == [None, 6, 8, 5]
    v = R.normal(size=(2, 3, 4, 2))
    want = naive_conv2d_backprop_input((2, 6, 8, 5), w, v, (2, 2), "SAME")
    np.testing.assert_allclose(tf.Session().run(y, {dy: v}), want, rtol=1e-10, atol=1e-10)


def test_conv1d_transpose_matches_naive_adjoint():
    w = R.normal(size=(3, 4, 2))
    dy = R.normal(size=(2, 4, 2))
    want = naive_conv2d_backprop_input((2, 1, 7, 4), w[None], dy[:, None], (1, 2), "SAME")[:, 0]
    got = run(tf.nn.conv1d_transpose(dy, w, [2, 7, 4], 2, "SAME"))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    dyt = tf.placeholder(tf.float64, [None, 4, 2])
    y = flowgrad.nn.conv1d_transpose(tf.transpose(dyt, [0, 2, 1]), w,
                                     tf.stack([tf.shape(dyt)[0], 4, 7]), [2], "SAME",
                                     data_format="NCW")
    got = tf.Session().run(y, {dyt: dy})
    np.testing.assert_allclose(np.transpose(got, (0, 2, 1)), want, rtol=1e-10, atol=1e-10)
    check_gradients(lambda d, f: tf.square(nn.conv1d_transpose(d, f, [2, 7, 4], 2, "SAME")),
                    [dy, w])


def test_separable_atrous_and_generic_convolution():
    x, wd = R.normal(size=(2, 6, 5, 3)), R.normal(size=(3, 3, 3, 2))
    wp = R.normal(size=(1, 1, 6, 4))
    want = naive_conv2d(naive_conv2d(x, wd, (2, 2), "SAME", depthwise=True), wp)
    np.testing.assert_allclose(run(tf.nn.separable_conv2d(x, wd, wp, [1, 2, 2, 1], "SAME")),
                               want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(run(flowgrad.nn.separable_conv2d(x, wd, wp, 2, "SAME")),
                               want, rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError, match="pointwise_filter"):
        tf.nn.separable_conv2d(x, wd, np.zeros((2, 2, 6, 4)), 1, "SAME")
    w = R.normal(size=(2, 2, 3, 2))
    dil = naive_conv2d(x, w, (1, 1), "SAME", (2, 2))
    np.testing.assert_allclose(run(tf.nn.atrous_conv2d(x, w, 2, "SAME")), dil, rtol=1e-10)
    np.testing.assert_allclose(run(tf.nn.convolution(x, w, "SAME", dilation_rate=[2, 2])), dil,
                               rtol=1e-10)
    np.testing.assert_allclose(run(flowgrad.nn.convolution(x, w, [2, 1], "VALID")),
                               naive_conv2d(x, w, (2, 1)), rtol=1e-10)
    x1, w1 = R.normal(size=(1, 7, 2)), R.normal(size=(3, 2, 2))
    np.testing.assert_allclose(run(flowgrad.nn.convolution(x1, w1, 2, "SAME")),
                               naive_conv2d(x1[:, None], w1[None], (1, 2), "SAME")[:, 0],
                               rtol=1e-10)


def test_float32_conv_keeps_its_dtype():
    x = R.normal(size=(1, 4, 4, 2)).astype(np.float32)
    w = R.normal(size=(3, 3, 2, 2)).astype(np.float32)
    y = tf.nn.conv2d(x, w, 1, "SAME")
    assert y.dtype == tf.float32 and run(y).dtype == np.float32
    np.testing.assert_allclose(run(y), naive_conv2d(x, w, padding="SAME"), rtol=1e-5, atol=1e-5)


# --------------------------------------------------------------------------------------
# Gradients (orders 1 and 2 of every case: tests/op_db.py)

XS = R.normal(size=(1, 5, 5, 2))
WS = R.normal(size=(2, 3, 2, 2))
nn = tf.nn


def test_gradient_third_order():
    check_gradients(lambda x, w: tf.square(nn.conv2d(x, w, 2, "SAME")) * nn.conv2d(x, w, 2, "SAME"),
                    [XS[:, :3, :4], WS], order=3, rtol=1e-4, atol=1e-5)


def test_gradient_graph_has_tensorflows_op_types():
    x = tf.placeholder(tf.float32, [None, 8, 8, 1])
    w = tf.Variable(tf.zeros([5, 5, 1, 4]))
    y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
    gx, gw = tf.gradients(y, [x, w])
    assert (gx.op.type, gw.op.type) == ("Conv2DBackpropInput", "Conv2DBackpropFilter")
    assert gx.shape.as_list() == [None, 8, 8, 1] and gw.shape.as_list() == [5, 5, 1, 4]
    (ggx,) = tf.gradients(gx, [w])
    assert ggx.op.type == "Conv2DBackpropFilter"


# --------------------------------------------------------------------------------------
# Shapes, signatures and errors


def test_static_shapes_with_unknown_dimensions():
    x = tf.placeholder(tf.float32, [None, 28, 28, 1])
    y = tf.nn.conv2d(x, tf.zeros([5, 5, 1, 32]), [1, 2, 2, 1], "SAME")
    assert y.shape.as_list() == [None, 14, 14, 32]
    z = tf.nn.conv2d(tf.placeholder(tf.float32, [None, None, None, 3]), tf.zeros([3, 3, 3, 8]),
                     1, "VALID")
    assert z.shape.as_list() == [None, None, None, 8]
    u = tf.nn.conv2d(tf.placeholder(tf.float32), tf.zeros([3, 3, 3, 8]), 1, "VALID")
    assert u.shape.rank == 4
    out = tf.Session().run(u, {u.op.inputs[0]: np.ones((1, 4, 5, 3), np.float32)})
    np.testing.assert_allclose(out, np.zeros((1, 2, 3, 8)))


def test_tf2_face_signature_eager():
    tf.enable_v2_behavior()
    try:
        x, w = R.normal(size=(1, 5, 5, 2)), R.normal(size=(3, 3, 2, 2))
        y = flowgrad.nn.conv2d(x, filters=w, strides=1, padding="VALID")
        np.testing.assert_allclose(y.numpy(), naive_conv2d(x, w), rtol=1e-10)
        with pytest.raises(TypeError):
            flowgrad.nn.conv2d(x, filter=w, strides=1, padding="VALID")
    finally:
        tf.disable_v2_behavior()


def test_tf1_signature_positional_use_cudnn():
    x, w = R.normal(size=(1, 5, 5, 2)), R.normal(size=(3, 3, 2, 2))
    y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "VALID", True, "NHWC", [1, 1, 1, 1], "c")
    assert y.op.name == "c" and y.op.get_attr("use_cudnn_on_gpu") is True
    np.testing.assert_allclose(run(tf.nn.conv2d(x, filters=w, strides=[1, 1, 1, 1],
                                                padding="VALID")), naive_conv2d(x, w))


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_input_not_rank4_is_a_value_error_naming_op_and_shape(mode):
    if mode == "eager":
        tf.enable_v2_behavior()
    try:
        with pytest.raises(ValueError, match=r"Conv2D.*rank 4.*rank 3.*\(28, 28, 1\)|"
                                             r"Conv2D.*rank 4.*rank 3.*28, 28, 1"):
            tf.nn.conv2d(np.zeros((28, 28, 1)), np.zeros((5, 5, 1, 32)), 1, "SAME")
        with pytest.raises(ValueError, match="Conv2D.*filter.*rank 4"):
            tf.nn.conv2d(np.zeros((1, 28, 28, 1)), np.zeros((5, 5, 1)), 1, "SAME")
        # eagerly TensorFlow's kernel message (an InvalidArgumentError, also a ValueError)
        depth = "input depth must be evenly divisible by filter depth: 3 vs" \
            if mode == "eager" else "Depth of input \\(3\\)"
        with pytest.raises(ValueError, match=depth + ".*4" if mode == "eager" else
                           depth + ".*filter \\(4\\)"):
            tf.nn.conv2d(np.zeros((1, 8, 8, 3)), np.zeros((3, 3, 4, 2)), 1, "SAME")
        with pytest.raises(ValueError, match=depth):
            tf.nn.conv2d(np.zeros((1, 3, 8, 8)), np.zeros((3, 3, 8, 2)), 1, "SAME",
                         data_format="NCHW")
    finally:
        tf.disable_v2_behavior()


def test_argument_errors():
    x, w = np.zeros((1, 8, 8, 3)), np.zeros((3, 3, 3, 2))
    with pytest.raises(ValueError, match="padding"):
        tf.nn.conv2d(x, w, 1, "same")
    with pytest.raises(ValueError, match="strides should be of length 1, 2 or 4"):
        tf.nn.conv2d(x, w, [1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="strides in the batch and depth"):
        tf.nn.conv2d(x, w, [2, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="data_format"):
        tf.nn.conv2d(x, w, 1, "SAME", data_format="NWHC")
    with pytest.raises(ValueError, match="batch and depth dimensions must be 0"):
        tf.nn.conv2d(x, w, 1, [[1, 0], [0, 0], [0, 0], [0, 0]])
    with pytest.raises(ValueError, match="negative"):
        tf.nn.conv2d(np.zeros((1, 1, 2, 3)), w, 1, "VALID")
    with pytest.raises(ValueError, match="out_backprop"):
        tf.nn.conv2d_backprop_input([1, 8, 8, 3], w, np.zeros((1, 5, 5, 2)), 1, "SAME")


def test_kernel_errors_at_run_time():
    x = tf.placeholder(tf.float64, [None, None, None, None])
    y = tf.nn.conv2d(x, np.zeros((3, 3, 3, 2)), 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="depth"):
        tf.Session().run(y, {x: np.zeros((1, 5, 5, 4))})
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative"):
        tf.Session().run(y, {x: np.zeros((1, 1, 5, 3))})


def _small_cnn_loss(tfm, x, w1, w2, w3):
    h = tfm.nn.relu(tfm.nn.conv2d(x, w1, 1, "SAME"))
    h = tfm.nn.max_pool2d(h, 2, 2, "SAME")
    h = tfm.nn.relu(tfm.nn.conv2d(h, w2, [1, 2, 2, 1], "VALID"))
    h = tfm.nn.avg_pool2d(h, 2, 1, "SAME")
    return tfm.reduce_sum(tfm.square(tfm.matmul(tfm.reshape(h, [2, -1]), w3)))


def test_small_cnn_gradients_agree_in_graph_eager_and_tf_function():
    rng = np.random.RandomState(3)
    vals = [rng.normal(size=(2, 9, 9, 2)), rng.normal(size=(3, 3, 2, 4)),
            rng.normal(size=(3, 3, 4, 3)), rng.normal(size=(12, 2))]
    ts = [tf.constant(v) for v in vals]
    graph = tf.Session().run(tf.gradients(_small_cnn_loss(tf, *ts), ts))
    tf.enable_v2_behavior()
    try:
        xs = [flowgrad.Variable(v) for v in vals]

        def grads():
            with flowgrad.GradientTape() as tape:
                loss = _small_cnn_loss(flowgrad, *xs)
            return tape.gradient(loss, xs)
        eager = [g.numpy() for g in grads()]
        traced = [g.numpy() for g in flowgrad.function(grads)()]
    finally:
        tf.disable_v2_behavior()
    for a, b, c in zip(graph, eager, traced):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a, c, rtol=1e-12, atol=1e-12)


def test_bias_add_nchw_needs_rank_3_as_in_tensorflow():
    with pytest.raises(ValueError, match="at least rank 3 but is rank 2.*NCHW"):
        tf.nn.bias_add(np.zeros((2, 3)), np.zeros(3), data_format="NCHW")
    x, b = R.normal(size=(2, 3, 4, 5)), R.normal(size=(3,))
    np.testing.assert_allclose(run(tf.nn.bias_add(x, b, data_format="NCHW")),
                               x + b[:, None, None])
    np.testing.assert_allclose(run(tf.nn.bias_add(x[:, :, :, 0], b, data_format="NCW")),
                               x[:, :, :, 0] + b[:, None])
