"""Winograd F(2x2, 3x3) for float32 3x3 stride-1 convolutions (Conv2D and
Conv2DBackpropInput): the values differ from the exact ones by rounding only, at most as far
as the direct (im2col) kernels' are allowed to (16 float32 ulps of the sum of |products|),
in every padding, odd output sizes, NCHW, and any batch chunking; and it runs exactly where
``conv_winograd.applies`` says."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.ops import conv_ops, conv_winograd
from test_conv_ops import naive_conv2d, naive_conv2d_backprop_input

R = np.random.RandomState(3)
EXPLICIT = [[0, 0], [2, 1], [0, 2], [0, 0]]


def _run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


@pytest.fixture
def spy(monkeypatch):
    """Counts the Winograd convolutions; channels from 4 up take that path."""
    calls = []
    real = conv_winograd.conv3x3

    def counted(*args, **kwargs):
        calls.append(args[0].shape)
        return real(*args, **kwargs)
    monkeypatch.setattr(conv_winograd, "conv3x3", counted)
    monkeypatch.setattr(conv_winograd, "MIN_CHANNELS", 4)
    return calls


@pytest.mark.parametrize("xs,padding", [((2, 6, 6, 5), "SAME"), ((3, 7, 5, 4), "SAME"),
                                        ((2, 6, 6, 5), "VALID"), ((3, 7, 5, 4), "VALID"),
                                        ((2, 5, 6, 4), EXPLICIT), ((1, 3, 3, 4), "VALID"),
                                        ((0, 4, 4, 4), "SAME")])
@pytest.mark.parametrize("tile_rows", [1, 128])
def test_winograd_is_within_ulps_of_float64(spy, monkeypatch, xs, padding, tile_rows):
    # tile_rows 1: one example a chunk
    monkeypatch.setattr(conv_winograd, "TILE_ROWS", tile_rows)
    fs = (3, 3, xs[3], 6)
    x, w = R.normal(size=xs), R.normal(size=fs)
    dy = R.normal(size=naive_conv2d(x, w, padding=padding).shape)
    x32, w32, dy32 = (v.astype(np.float32) for v in (x, w, dy))
    x, w, dy = (v.astype(np.float64) for v in (x32, w32, dy32))    # the float32 values, exact
    got = _run([tf.nn.conv2d(x32, w32, 1, padding),
                tf.nn.conv2d_backprop_input(xs, w32, dy32, [1, 1, 1, 1], padding)])
    assert len(spy) == 2
    exact = [naive_conv2d(x, w, padding=padding),
             naive_conv2d_backprop_input(xs, w, dy, (1, 1), padding)]
    bound = [naive_conv2d(abs(x), abs(w), padding=padding),
             naive_conv2d_backprop_input(xs, abs(w), abs(dy), (1, 1), padding)]
    for g, e, b in zip(got, exact, bound):
        assert g.dtype == np.float32 and g.shape == e.shape
        assert np.all(np.abs(g - e) <= 16 * np.finfo(np.float32).eps * b)


def test_winograd_agrees_with_the_direct_kernel_in_nchw(spy):
    x = R.normal(size=(2, 4, 6, 6)).astype(np.float32)         # NCHW
    w = R.normal(size=(3, 3, 4, 5)).astype(np.float32)
    dy = R.normal(size=(2, 5, 6, 6)).astype(np.float32)
    kw = dict(strides=[1, 1, 1, 1], padding="SAME", data_format="NCHW")
    got = _run([tf.nn.conv2d(x, w, **kw), tf.nn.conv2d_backprop_input(x.shape, w, dy, **kw)])
    assert len(spy) == 2
    xn, dyn = x.transpose(0, 2, 3, 1), dy.transpose(0, 2, 3, 1)
    want = [naive_conv2d(xn, w, padding="SAME").transpose(0, 3, 1, 2),
            naive_conv2d_backprop_input(xn.shape, w, dyn, (1, 1), "SAME").transpose(0, 3, 1, 2)]
    for g, e in zip(got, want):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype,fs,strides,dilations,padding", [
    (np.float64, (3, 3, 4, 4), 1, 1, "SAME"),       # float64: the direct kernel
    (np.float32, (5, 5, 4, 4), 1, 1, "SAME"),
    (np.float32, (3, 3, 4, 4), 2, 1, "SAME"),
    (np.float32, (3, 3, 4, 4), 1, 2, "SAME"),
    (np.float32, (3, 3, 2, 4), 1, 1, "SAME"),       # too few channels
    (np.float32, (3, 3, 2, 4), 1, 1, [[0, 0], [3, 0], [0, 0], [0, 0]]),
])
def test_winograd_is_used_only_where_it_applies(spy, dtype, fs, strides, dilations, padding):
    xs = (1, 6, 6, fs[2])
    x, w = R.normal(size=xs).astype(dtype), R.normal(size=fs).astype(dtype)
    y = tf.nn.conv2d(x, w, strides, padding, dilations=dilations)
    dx = tf.nn.conv2d_backprop_input(xs, w, tf.ones_like(y), [1, strides, strides, 1],
                                     padding, dilations=[1, dilations, dilations, 1])
    _run([y, dx])
    assert spy == []


def test_input_gradient_skips_winograd_where_the_padding_exceeds_the_filter(spy):
    # explicit padding of 3 rows: the forward is Winograd, the input gradient is not
    x = R.normal(size=(1, 5, 5, 4)).astype(np.float32)
    w = R.normal(size=(3, 3, 4, 4)).astype(np.float32)
    pads = [[0, 0], [3, 0], [0, 0], [0, 0]]
    y = tf.nn.conv2d(x, w, 1, pads)
    dy = np.ones((1, 6, 3, 4), np.float32)
    got = _run([y, tf.nn.conv2d_backprop_input(x.shape, w, dy, [1, 1, 1, 1], pads)])
    assert len(spy) == 1
    np.testing.assert_allclose(got[1], naive_conv2d_backprop_input(
        x.shape, w.astype(np.float64), dy.astype(np.float64), (1, 1), pads), rtol=1e-5,
        atol=1e-5)


def test_winograd_applies_from_64_channels():
    assert conv_winograd.applies((3, 3, 64, 256), np.float32, (1, 1), (1, 1))
    assert not conv_winograd.applies((3, 3, 32, 256), np.float32, (1, 1), (1, 1))
    assert not conv_winograd.applies((3, 3, 128, 128), np.float16, (1, 1), (1, 1))
    assert conv_ops.conv_winograd is conv_winograd


def test_infinities_take_the_direct_kernel(spy):
    # Winograd's transforms subtract neighbours: inf - inf would be NaN where the direct
    # convolution gives inf, so non-finite inputs or filters go to the direct kernel
    x = np.ones((1, 4, 4, 4), np.float32)
    x[0, 1, 1, 0] = np.inf
    w = np.abs(R.normal(size=(3, 3, 4, 4))).astype(np.float32)
    y = _run(tf.nn.conv2d(x, w, 1, "SAME"))
    assert spy == []
    assert np.isposinf(y[0, :3, :3]).all() and np.isfinite(y[0, 3]).all()
    w[1, 1, 0, 0] = -np.inf
    _run(tf.nn.conv2d(np.ones((1, 4, 4, 4), np.float32), w, 1, "SAME"))
    assert spy == []
    _run(tf.nn.conv2d(np.ones((1, 4, 4, 4), np.float32), np.ones((3, 3, 4, 4), np.float32), 1,
                      "SAME"))
    assert len(spy) == 1
