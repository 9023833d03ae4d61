"""Gradients of the complex SVD, QR, Eig and eigh against TensorFlow 2.21's numbers:
tools/tf_reference/complex_linalg_gradients.py runs functions of the decompositions that do
not depend on the vectors' phases (reconstructions, ``|u|^2``, symmetric functions of the
eigenvalues) under a GradientTape and with ``tf.gradients`` and records what TensorFlow gave
in tests/data/complex_gradients/linalg_tf_2_21.json; the same program runs here with
flowgrad. tests/op_db.py's complex family checks the same gradients numerically at orders 1
and 2."""
import numpy as np
import pytest

import flowgrad as tf
from tf_reference_program import load

PROGRAM, RECORD = load("complex_linalg_gradients.py", "complex_gradients/linalg_tf_2_21.json")


def _array(part):
    a = np.array(part["re"])
    return a + 1j * np.array(part["im"]) if "im" in part else a


@pytest.fixture(autouse=True)
def eager_mode():
    tf.compat.v1.enable_v2_behavior()     # conftest restores graph mode afterwards


@pytest.fixture(scope="module")
def flowgrad_results():
    tf.compat.v1.enable_v2_behavior()
    return PROGRAM.program(tf)


def test_every_case_was_recorded():
    assert sorted(name for name, _, _ in PROGRAM.cases(tf)) == sorted(RECORD)


@pytest.mark.parametrize("name", sorted(RECORD))
def test_values_and_gradients_match_tensorflow(flowgrad_results, name):
    got, want = flowgrad_results[name], RECORD[name]
    assert "error" not in want and "error" not in got, (name, got.get("error"))
    np.testing.assert_allclose(_array(got["value"]), _array(want["value"]), rtol=1e-9,
                               atol=1e-11, err_msg=name + " value")
    assert np.iscomplexobj(_array(got["value"])) == np.iscomplexobj(_array(want["value"]))
    for mode in ("eager", "graph"):
        assert len(got[mode]) == len(want[mode])
        for i, (g, w) in enumerate(zip(got[mode], want[mode])):
            np.testing.assert_allclose(_array(g), _array(w), rtol=1e-8, atol=1e-10,
                                       err_msg="%s: %s gradient of input %d" % (name, mode, i))


def test_complex_svd_values_are_real_and_the_factors_rebuild_the_matrix():
    x = np.random.RandomState(0).normal(size=(3, 2)) + 1j * np.random.RandomState(1).normal(
        size=(3, 2))
    s, u, v = tf.linalg.svd(tf.constant(x))
    assert s.dtype == tf.float64 and u.dtype == tf.complex128
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().conj().T, x, atol=1e-12)
    assert tf.linalg.svd(tf.constant(x), compute_uv=False).dtype == tf.float64
    q, r = tf.linalg.qr(tf.constant(x))
    np.testing.assert_allclose(q.numpy() @ r.numpy(), x, atol=1e-12)


def test_gradient_limits_are_tensorflows():
    x = tf.constant(np.ones((2, 5)) + 0j)
    with pytest.raises(NotImplementedError, match="abs\\(m - n\\) > 1"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            s, u, v = tf.linalg.svd(x, full_matrices=True)
            y = tf.reduce_sum(tf.abs(v))
        tape.gradient(y, x)
