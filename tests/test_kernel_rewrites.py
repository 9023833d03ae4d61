"""Kernels rewritten for speed (issue 24) compute exactly what they computed before."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.ops.concat_ops import _split_kernel, _splitv_kernel
from flowgrad.ops.elementwise_ops import _sigmoid_kernel


def _sigmoid_before(x):
    e = np.exp(-np.abs(x))
    d = 1 + e
    return np.where(x >= 0, 1 / d, e / d)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_sigmoid_is_bitwise_the_overflow_free_formula(dtype):
    rng = np.random.RandomState(0)
    x = np.concatenate([rng.randn(200) * 30, [0.0, -0.0, 1e-30, -1e-30, 1e4, -1e4, np.inf,
                                              -np.inf]]).astype(dtype).reshape(13, 16)
    got = _sigmoid_kernel(x)
    assert got.dtype == dtype and got.shape == x.shape
    np.testing.assert_array_equal(got, _sigmoid_before(x))
    np.testing.assert_array_equal(_sigmoid_kernel(x[:, ::3]), _sigmoid_before(x[:, ::3]))
    assert _sigmoid_kernel(x[0, 0]) == _sigmoid_before(x[0, 0])
    assert np.isnan(_sigmoid_kernel(np.array([np.nan], dtype))).all()
    with tf.Graph().as_default(), tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.sigmoid(x)), _sigmoid_before(x))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_split_pieces_are_numpys_views(axis):
    x = np.arange(4 * 6 * 2, dtype=np.float32).reshape(4, 6, 2)
    for n in (1, 2):
        if x.shape[axis] % n:
            continue
        got = _split_kernel(x, num_split=n, axis=axis)
        got = [got] if n == 1 else list(got)
        want = np.split(x, n, axis=axis)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and np.shares_memory(g, x)
            np.testing.assert_array_equal(g, w)
    empty = _split_kernel(np.zeros((0, 4)), num_split=2, axis=0)
    assert [e.shape for e in empty] == [(0, 4), (0, 4)]


def test_splitv_pieces_are_numpys_with_empty_and_inferred_sizes():
    x = np.arange(24).reshape(4, 6)
    got = _splitv_kernel(x, size_splits=(1, 0, 3, -1), axis=1, num_split=4)
    want = np.split(x, [1, 1, 4], axis=1)
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    got = _splitv_kernel(x, np.array([3, 1]), np.int32(0), size_splits=None, axis=None,
                         num_split=2)
    np.testing.assert_array_equal(got[0], x[:3])
    np.testing.assert_array_equal(got[1], x[3:])


def _scatter_before(flow, indices, value):
    indices = np.asarray(indices).reshape(-1)
    n, top = flow.shape[0], int(indices.max()) + 1
    out = np.zeros((max(n, top),) + value.shape[1:], flow.dtype)
    out[:n] = flow
    out[indices] = value
    return out


def test_tensor_array_writes_leave_the_old_flow_and_match_the_former_kernel():
    from flowgrad.ops.tensor_array_ops import _scatter_kernel
    rng = np.random.RandomState(1)
    flow = rng.rand(5, 3, 2).astype(np.float32)
    kept = flow.copy()
    for indices, rows, dynamic in (([2], 1, False), ([4, 0, 4], 3, False), ([7], 1, True),
                                   ([6, 1], 2, True)):
        value = rng.rand(rows, 3, 2).astype(np.float32)
        got = _scatter_kernel(flow, np.array(indices, np.int32), value, dynamic_size=dynamic)
        want = _scatter_before(flow, indices, value)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        assert not np.shares_memory(got, flow)
        np.testing.assert_array_equal(flow, kept)       # value semantics: the input unchanged
    with pytest.raises(ValueError):                     # one index, two rows: as before
        _scatter_kernel(flow, np.array([1], np.int32), rng.rand(2, 3, 2).astype(np.float32),
                        dynamic_size=False)


def _adam_before(var, m, v, b1p, b2p, lr, beta1, beta2, eps, grad, nesterov):
    """ApplyAdam's kernel before issue 24 (TensorFlow's CPU kernel's arithmetic, one
    whole-array pass per operation, one scratch array)."""
    alpha = lr * np.sqrt(1 - b2p) / (1 - b1p)
    tmp = np.subtract(grad, m, out=np.empty_like(m))
    tmp *= 1 - beta1
    m += tmp
    np.multiply(grad, grad, out=tmp)
    tmp -= v
    tmp *= 1 - beta2
    v += tmp
    if nesterov:
        step = grad * (1 - beta1)
        step += beta1 * m
        step *= alpha
    else:
        step = np.multiply(m, alpha)
    np.sqrt(v, out=tmp)
    tmp += eps
    step /= tmp
    var -= step
    return var, m, v


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("scalar", [float, np.float32, np.float64])
def test_adam_in_chunks_is_bitwise_the_whole_array_update(dtype, nesterov, scalar):
    # large updates run chunk by chunk (each element read from memory once): the same
    # operations per element, so the same bits; a size that is no multiple of the chunk
    from flowgrad.ops.training_ops import _ADAM_CHUNK, _apply_adam
    rng = np.random.RandomState(1)
    shape = (3 * _ADAM_CHUNK // 64 + 7, 64)
    arrays = [rng.randn(*shape).astype(dtype) for _ in range(4)]
    arrays[2] = np.abs(arrays[2])
    scalars = [scalar(s) for s in (0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999, 1e-8)]
    want = _adam_before(*[a.copy() for a in arrays[:3]], *scalars, arrays[3], nesterov)
    var, m, v, grad = [a.copy() for a in arrays]
    got = _apply_adam(var, m, v, *scalars, grad, use_nesterov=nesterov)
    assert got[0] is var and got[1] is m and got[2] is v
    for g, w in zip(got, want):
        assert g.dtype == dtype
        np.testing.assert_array_equal(g, w)
    # a non-contiguous variable takes the whole-array path, with the same result
    big = [np.stack([a, a], -1) for a in arrays]
    parts = [b[..., 0] for b in big]
    _apply_adam(*parts[:3], *scalars, parts[3], use_nesterov=nesterov)
    for p, w in zip(parts[:3], want):
        np.testing.assert_array_equal(p, w)
