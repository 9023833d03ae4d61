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
