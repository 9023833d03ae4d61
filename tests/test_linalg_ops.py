"""gather_nd / scatter_nd / tensor_scatter_nd_*, einsum and tf.linalg: values against NumPy,
static shapes, errors, and numerical gradients at orders 1 and 2 (graph and eager).

The numerical gradient checks of the linalg cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

la = tf.linalg
RNG = np.random.RandomState(5)
P = RNG.randn(3, 4)
P3 = RNG.randn(3, 4, 2)
IDX = np.array([[0, 1], [2, 3], [0, 1]])       # a duplicate row: its gradients add up
IDX1 = np.array([[2], [0]])
A = RNG.randn(3, 3) + 3 * np.eye(3)
B = RNG.randn(2, 3, 3) + 3 * np.eye(3)
R = RNG.randn(3, 2)


def _run(t, feed=None):
    return tf.Session().run(t, feed)


# --------------------------------------------------------------------------------------
# gather_nd, scatter_nd, tensor_scatter_nd_update/add


def test_gather_scatter_values_and_shapes():
    g = tf.gather_nd(P3, IDX)
    assert g.shape.as_list() == [3, 2]
    np.testing.assert_array_equal(_run(g), P3[IDX[:, 0], IDX[:, 1]])
    g1 = tf.gather_nd(P3, IDX1)
    assert g1.shape.as_list() == [2, 4, 2]
    np.testing.assert_array_equal(_run(g1), P3[[2, 0]])
    s = tf.scatter_nd(IDX, tf.constant([1.0, 2.0, 3.0]), [3, 4])
    want = np.zeros((3, 4))
    np.add.at(want, (IDX[:, 0], IDX[:, 1]), [1.0, 2.0, 3.0])
    assert s.shape.as_list() == [3, 4]
    np.testing.assert_array_equal(_run(s), want)
    u = tf.tensor_scatter_nd_update(P, IDX1, np.ones((2, 4)))
    np.testing.assert_array_equal(_run(u), np.where(np.arange(3)[:, None] != 1, 1.0, P))
    a = tf.tensor_scatter_nd_add(P, IDX, [1.0, 1.0, 1.0])
    want = P.copy()
    np.add.at(want, (IDX[:, 0], IDX[:, 1]), 1.0)
    np.testing.assert_allclose(_run(a), want)
    q = tf.placeholder(tf.float64, [None, 4])
    assert tf.gather_nd(q, [[1]]).shape.as_list() == [1, 4]


def test_gather_scatter_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[3, 0\] does "
                                                             r"not index into param shape "
                                                             r"\[3,4\], node name: GatherNd"):
        _run(tf.gather_nd(P, [[0, 0], [3, 0]]))
    with pytest.raises(ValueError, match="indices.shape\\[-1\\] must be <= the rank"):
        tf.gather_nd(P, [[0, 0, 0]])
    with pytest.raises(TypeError, match="Tindices"):
        tf.gather_nd(P, tf.constant([[0.0]]))
    with pytest.raises(ValueError, match="updates must have shape"):
        tf.scatter_nd([[0], [1]], tf.ones([3]), [4])


def test_dqn_action_selection():
    q = tf.placeholder(tf.float32, [None, 2])
    a = tf.placeholder(tf.int32, [None])
    q_a = tf.gather_nd(q, tf.stack([tf.range(tf.shape(a)[0]), a], axis=1))
    qv, av = RNG.randn(5, 2).astype(np.float32), np.array([0, 1, 1, 0, 1])
    np.testing.assert_array_equal(_run(q_a, {q: qv, a: av}), qv[np.arange(5), av])


# --------------------------------------------------------------------------------------
# einsum

EINSUM_VALUE_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
    ("i,i", [(3,), (3,)]), ("i,j->ij", [(2,), (3,)]), ("...ij,...jk->...ik", [(2, 1, 2, 3),
                                                                             (4, 3, 2)]),
    ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 2)]), ("aB", [(2, 3)]), ("Ba,aC", [(2, 3), (3, 4)]),
    ("bij,jk", [(2, 2, 3), (3, 4)]),
]


@pytest.mark.parametrize("eq,shapes", EINSUM_VALUE_CASES, ids=[c[0] for c in EINSUM_VALUE_CASES])
def test_einsum_values_and_static_shapes(eq, shapes):
    xs = [RNG.randn(*s) for s in shapes]
    y = tf.einsum(eq, *xs)
    want = np.einsum(eq, *xs)
    assert tuple(y.shape.as_list()) == want.shape
    np.testing.assert_allclose(_run(y), want, rtol=1e-12)


def test_einsum_errors():
    with pytest.raises(ValueError, match="has 2 operands but 1 were given"):
        tf.einsum("ij,jk->ik", P)
    with pytest.raises(ValueError, match="size 4 in one operand and 3"):
        tf.einsum("ij,jk->ik", P, P)
    with pytest.raises(ValueError, match="appears in no operand"):
        tf.einsum("ij->iz", P)


# --------------------------------------------------------------------------------------
# tf.linalg values, shapes and errors


def test_linalg_values():
    spd = A @ A.T
    got = _run([la.inv(A), la.det(B), la.slogdet(-B), la.cholesky(spd), la.solve(A, R),
                la.triangular_solve(A, R, lower=False), la.trace(B), la.diag([1.0, 2.0]),
                la.diag_part(P), la.set_diag(P, [7.0, 8.0, 9.0]), la.band_part(P, 0, 1),
                la.eye(2, 3, batch_shape=[2]), la.logdet(spd), la.matrix_transpose(P3)])
    want_s, want_l = np.linalg.slogdet(-B)
    sd = P.copy()
    sd[[0, 1, 2], [0, 1, 2]] = [7.0, 8.0, 9.0]
    want = [np.linalg.inv(A), np.linalg.det(B), (want_s, want_l), np.linalg.cholesky(spd),
            np.linalg.solve(A, R), np.linalg.solve(np.triu(A), R), np.trace(B, axis1=1, axis2=2),
            np.diag([1.0, 2.0]), np.diagonal(P), sd, np.triu(np.tril(P, 1)),
            np.broadcast_to(np.eye(2, 3), (2, 2, 3)), np.log(np.linalg.det(spd)),
            P3.transpose(0, 2, 1)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    assert la.det(B).shape.as_list() == [2] and la.diag_part(P).shape.as_list() == [3]
    assert la.eye(3).dtype == tf.float32
    assert tf.matrix_inverse is la.inv and tf.matrix_determinant is la.det
    assert flowgrad.linalg.cholesky is la.cholesky and flowgrad.einsum is tf.einsum
    assert flowgrad.gather_nd is tf.gather_nd and flowgrad.eye is la.eye


def test_linalg_errors():
    with pytest.raises(ValueError, match="square matrices"):
        la.inv(P)
    with pytest.raises(ValueError, match="rank >= 2"):
        la.det([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not "
                                                             "invertible"):
        _run(la.inv(np.zeros((2, 2))))
    # As TensorFlow 2.21: no error; a matrix that is not positive definite gets NaN on and
    # below the diagonal, the other matrices of the batch their factor.
    got = _run(la.cholesky(np.stack([-np.eye(2), 4.0 * np.eye(2)])))
    np.testing.assert_array_equal(got, [[[np.nan, 0.0], [np.nan, np.nan]],
                                        [[2.0, 0.0], [0.0, 2.0]]])
    assert np.isnan(_run(la.logdet(-np.eye(2))))
    with pytest.raises(TypeError, match="MatrixInverse"):
        la.inv(tf.constant([[1, 0], [0, 1]]))
    with pytest.raises(ValueError, match="same batch shape and number of rows"):
        la.solve(A, np.ones((2, 1)))


# --------------------------------------------------------------------------------------
# tensordot, matvec, cholesky_solve, lstsq, eigh

SYM = RNG.randn(4, 4)
WIDE = RNG.randn(2, 4)


def test_composites_and_eigh_values():
    spd = A @ A.T + np.eye(3)
    e, v = la.eigh(SYM + SYM.T)
    got = _run([tf.tensordot(P3, P, axes=[[0, 1], [0, 1]]), tf.tensordot(P3, WIDE, 1),
                la.matvec(A, R[:, 0]), la.cholesky_solve(la.cholesky(spd), R),
                la.lstsq(P.T, np.ones((4, 2))),
                la.lstsq(WIDE, np.ones((2, 1)), l2_regularizer=0.1), e, v,
                la.eigvalsh(SYM + SYM.T)])
    ew, vw = np.linalg.eigh(SYM + SYM.T)
    want = [np.tensordot(P3, P, axes=[[0, 1], [0, 1]]), np.tensordot(P3, WIDE, 1), A @ R[:, 0],
            np.linalg.solve(spd, R), np.linalg.lstsq(P.T, np.ones((4, 2)), rcond=None)[0],
            WIDE.T @ np.linalg.solve(WIDE @ WIDE.T + 0.1 * np.eye(2), np.ones((2, 1))), ew,
            vw, ew]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
    assert e.shape.as_list() == [4] and v.shape.as_list() == [4, 4]
    assert tf.tensordot(P3, P, axes=[[0, 1], [0, 1]]).shape.as_list() == [2]
    deficient = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])      # rank 1
    a = tf.constant(deficient)
    x = la.lstsq(a, np.ones((3, 1)), fast=False)
    np.testing.assert_allclose(_run(x), np.linalg.lstsq(deficient, np.ones((3, 1)),
                                                        rcond=None)[0], rtol=1e-9)
    assert x.shape.as_list() == [2, 1]
    with pytest.raises(ValueError, match="Gradient not defined for fast=False"):
        tf.gradients(tf.reduce_sum(x), a)


# --------------------------------------------------------------------------------------
# qr, svd

TALL = RNG.randn(4, 3)


def test_qr_svd_values():
    q, r = la.qr(TALL)
    s, u, v = la.svd(TALL)
    sw, uw, vw = la.svd(TALL.T)
    qv, rv, sv, uv, vv, swv, s_only = _run([q, r, s, u, v, sw, la.svd(B, compute_uv=False)])
    np.testing.assert_allclose(qv @ rv, TALL, atol=1e-12)
    np.testing.assert_allclose(qv.T @ qv, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(rv, np.triu(rv), atol=1e-14)
    np.testing.assert_allclose(sv, np.linalg.svd(TALL, compute_uv=False), rtol=1e-12)
    np.testing.assert_allclose(uv @ np.diag(sv) @ vv.T, TALL, atol=1e-12)
    np.testing.assert_allclose(swv, sv, rtol=1e-12)
    np.testing.assert_allclose(s_only, np.linalg.svd(B, compute_uv=False), rtol=1e-12)
    assert [t.shape.as_list() for t in (q, r, s, u, v)] == [[4, 3], [3, 3], [3], [4, 3], [3, 3]]
    assert la.qr(TALL, full_matrices=True)[0].shape.as_list() == [4, 4]
    t = tf.constant(TALL)
    with pytest.raises(NotImplementedError, match="full_matrices=True"):
        tf.gradients(tf.reduce_sum(la.qr(t, full_matrices=True)[1]), t)


# --------------------------------------------------------------------------------------
# gather(batch_dims=...), meshgrid

BP = RNG.randn(2, 3, 4)
BI = np.array([[0, 2, 2], [1, 0, 3]])


def _np_batch_gather(p, i, axis):
    return np.stack([np.take(p[b], i[b], axis=axis - 1) for b in range(p.shape[0])])


def test_gather_batch_dims_and_meshgrid_values():
    for axis in (1, 2):
        idx = np.minimum(BI, BP.shape[axis] - 1)
        got = tf.gather(BP, idx, axis=axis, batch_dims=1)
        want = _np_batch_gather(BP, idx, axis)
        assert got.shape.as_list() == list(want.shape)
        np.testing.assert_array_equal(_run(got), want)
    got2 = tf.gather(BP, np.array([[[1], [0], [2]], [[0], [0], [1]]]), batch_dims=2, axis=2)
    np.testing.assert_array_equal(_run(got2)[1, 2], BP[1, 2, [1]])
    for indexing in ("xy", "ij"):
        got = _run(tf.meshgrid([1.0, 2.0, 3.0], [4.0, 5.0], [6.0], indexing=indexing))
        for g, w in zip(got, np.meshgrid([1.0, 2.0, 3.0], [4.0, 5.0], [6.0], indexing=indexing)):
            np.testing.assert_array_equal(g, w)
    assert flowgrad.meshgrid is tf.meshgrid
    with pytest.raises(ValueError, match="indexing"):
        tf.meshgrid([1.0], indexing="yx")


# --------------------------------------------------------------------------------------
# expm, the matrix 2-norm


def test_expm_and_spectral_norm_values():
    t = 0.7
    rot = _run(la.expm(np.array([[0.0, -t], [t, 0.0]])))
    np.testing.assert_allclose(rot, [[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]],
                               rtol=1e-14)
    np.testing.assert_allclose(_run(la.expm(np.array([[0.0, 1.0], [0.0, 0.0]]))),
                               [[1.0, 1.0], [0.0, 1.0]])
    s = (SYM + SYM.T) * 4.0                             # large norm: scaling and squaring
    e, v = np.linalg.eigh(s)
    want = v @ np.diag(np.exp(e)) @ v.T
    np.testing.assert_allclose(_run(la.expm(s)), want, rtol=1e-11 * np.abs(want).max())
    assert la.expm(B).shape.as_list() == [2, 3, 3]
    for axis, keep in (([1, 2], False), ([2, 0], False), ([0, 2], True)):
        got = _run(tf.norm(P3, ord=2, axis=axis, keepdims=keep))
        want = np.linalg.norm(P3, 2, axis=tuple(axis), keepdims=keep)
        np.testing.assert_allclose(got, want, rtol=1e-12)


