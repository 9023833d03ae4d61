"""tf.linalg.lu_solve, lu_reconstruct, lu_matrix_inverse, tensor_diag, tensor_diag_part and
normalize against TensorFlow 2.21 (tools/tf_reference/linalg_gaps_reference.py recorded
tests/data/linalg_gaps/reference.json). Their numerical gradient checks are entries of
tests/op_db.py (family linalg_gaps)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import errors

REF = json.loads((Path(__file__).resolve().parent / "data" / "linalg_gaps"
                  / "reference.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """These tests run eagerly (the suite starts each test in graph mode)."""
    tf.enable_eager_execution()
    yield


def test_lu_composites_match_tensorflow():
    lu, perm = tf.linalg.lu(np.array(REF["a"]))
    np.testing.assert_allclose(lu.numpy(), REF["lu"], rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(perm.numpy(), REF["perm"])
    rhs = np.array(REF["rhs"])
    for got, key in ((tf.linalg.lu_solve(lu, perm, rhs), "lu_solve"),
                     (tf.linalg.lu_solve(lu[0], perm[0], rhs), "lu_solve_one_rhs"),
                     (tf.linalg.lu_reconstruct(lu, perm), "lu_reconstruct"),
                     (tf.linalg.lu_matrix_inverse(lu, perm), "lu_matrix_inverse")):
        np.testing.assert_allclose(got.numpy(), REF[key], rtol=1e-10, atol=1e-13, err_msg=key)


def test_lu_composites_in_a_graph_with_unknown_batch():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float64, [None, 3, 3])
        lu, perm = tf.linalg.lu(a)
        x = tf.linalg.lu_reconstruct(lu, perm)
        inv = tf.linalg.lu_matrix_inverse(lu, perm)
        m = np.random.RandomState(1).randn(2, 3, 3)
        with tf.Session() as sess:
            got_x, got_inv = sess.run([x, inv], {a: m})
    np.testing.assert_allclose(got_x, m, atol=1e-13)
    np.testing.assert_allclose(got_inv, np.linalg.inv(m), rtol=1e-10, atol=1e-12)


def test_lu_composites_errors_are_tensorflows():
    lu, perm = tf.linalg.lu(np.array(REF["a"]))
    rhs = np.array(REF["rhs"])
    calls = [lambda: tf.linalg.lu_solve(lu, perm, rhs[0, :, 0]),
             lambda: tf.linalg.lu_solve(lu, perm, rhs[:, :3]),
             lambda: tf.linalg.lu_reconstruct(lu[0, 0], perm[0])]
    for call, (cls, message) in zip(calls, REF["lu_solve_errors"]):
        with pytest.raises(getattr(errors, cls, ValueError)) as info:
            call()
        assert str(info.value) == message


def test_tensor_diag_matches_tensorflow():
    d = np.array(REF["diag_in"])
    got = tf.linalg.tensor_diag(d)
    assert got.shape == (2, 3, 2, 3)
    np.testing.assert_array_equal(got.numpy(), REF["tensor_diag"])
    np.testing.assert_array_equal(tf.linalg.tensor_diag_part(got + 1.0).numpy(),
                                  REF["tensor_diag_part"])
    assert tf.diag is tf.linalg.tensor_diag and tf.diag_part is tf.linalg.tensor_diag_part
    assert float(tf.linalg.tensor_diag_part(tf.constant(2.5))) == 2.5


def test_tensor_diag_errors_are_tensorflows():
    calls = [lambda: tf.linalg.tensor_diag(tf.constant(3.0)),
             lambda: tf.linalg.tensor_diag_part(tf.ones([2, 3])),
             lambda: tf.linalg.tensor_diag_part(tf.ones([2, 3, 2]))]
    for call, (cls, message) in zip(calls, REF["diag_errors"]):
        with pytest.raises(getattr(errors, cls)) as info:
            call()
        assert message in str(info.value)


def test_tensor_diag_shape_errors_in_a_graph():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="do not match"):
            tf.linalg.tensor_diag_part(tf.placeholder(tf.float32, [2, 3]))
        x = tf.placeholder(tf.float32, [None, 3])
        assert tf.linalg.tensor_diag(x).shape.as_list() == [None, 3, None, 3]


@pytest.mark.parametrize("case", REF["normalize"], ids=lambda c: "%s-%s" % (c["ord"], c["axis"]))
def test_normalize_matches_tensorflow(case):
    ord_ = np.inf if case["ord"] == "inf" else case["ord"]
    normalized, norm = tf.linalg.normalize(np.array(REF["norm_in"]), ord=ord_, axis=case["axis"])
    np.testing.assert_allclose(normalized.numpy(), case["normalized"], rtol=1e-12)
    np.testing.assert_allclose(norm.numpy(), case["norm"], rtol=1e-12)


def test_tridiagonal_matmul_matches_tensorflow_in_each_format():
    ref = REF["tridiagonal"]
    diags, rhs, dense = (np.array(ref[k]) for k in ("diagonals", "rhs", "dense"))
    sequence = (diags[:, 0], diags[:, 1], diags[:, 2])
    for diagonals, fmt in ((diags, "compact"), (sequence, "sequence"), (dense, "matrix")):
        got = tf.linalg.tridiagonal_matmul(diagonals, rhs, diagonals_format=fmt)
        np.testing.assert_allclose(got.numpy(), ref["compact"], rtol=1e-12, atol=1e-14,
                                   err_msg=fmt)
    eye = np.broadcast_to(np.eye(5), (2, 5, 5))
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul(diags, eye).numpy(), dense,
                               atol=1e-15)


def test_tridiagonal_matmul_errors_are_tensorflows():
    ref = REF["tridiagonal"]
    rhs = np.array(ref["rhs"])
    calls = [lambda: tf.linalg.tridiagonal_matmul(np.array(ref["diagonals"]), rhs, "banded"),
             lambda: tf.linalg.tridiagonal_matmul(np.ones((2, 3)), rhs[0], "matrix")]
    for call, (cls, message) in zip(calls, ref["errors"]):
        with pytest.raises(ValueError) as info:
            call()
        assert cls == "ValueError" and str(info.value) == message


def test_tridiagonal_solve_matches_tensorflow():
    ref = REF["tridiagonal_solve"]
    d, b = np.array(ref["diagonals"]), np.array(ref["rhs"])
    solve = tf.linalg.tridiagonal_solve
    for got, key in ((solve(d, b), "pivoting"), (solve(d, b, partial_pivoting=False),
                                                 "no_pivoting"),
                     (solve(d, b[..., 0]), "vector"),
                     (solve(d, np.swapaxes(b, -1, -2), transpose_rhs=True), "transposed")):
        np.testing.assert_allclose(got.numpy(), ref[key], rtol=1e-10, atol=1e-12, err_msg=key)
    singular = np.array([[1.0, 0, 0], [1.0, 1, 1], [0, 1.0, 0]])
    assert np.isnan(solve(singular, np.ones((3, 1))).numpy()).all()
    assert np.isnan(ref["singular"]).all()
    np.testing.assert_allclose(
        solve(singular, np.array([[1.0], [2], [3]]), perturb_singular=True).numpy(),
        ref["perturbed"], rtol=1e-12)
    with pytest.raises(ValueError, match="partial_pivoting must be True"):
        solve(d, b, partial_pivoting=False, perturb_singular=True)


def test_tridiagonal_solve_gradients_match_tensorflow():
    ref = REF["tridiagonal_solve"]
    dv, bv = tf.Variable(np.array(ref["diagonals"])), tf.Variable(np.array(ref["rhs"]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(dv, bv) ** 2)
    g_d, g_b = tape.gradient(y, [dv, bv])
    np.testing.assert_allclose(g_d.numpy(), ref["grad_diagonals"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(g_b.numpy(), ref["grad_rhs"], rtol=1e-9, atol=1e-12)
