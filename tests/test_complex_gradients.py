"""Gradients of complex ops against TensorFlow 2.21's numbers.

tools/tf_reference/complex_gradients.py runs each case (a function of complex128 tensors)
under a GradientTape with a complex upstream gradient and in a graph with ``tf.gradients``;
tests/data/complex_gradients/tf_2_21.json holds what TensorFlow gave. The same program runs
here with flowgrad as ``tf``. TensorFlow's convention: the gradient of a real loss with
respect to ``z`` is ``dL/dRe(z) + i dL/dIm(z)``, so a holomorphic op passes back
``grad * conj(f'(z))`` (tests/op_db.py's complex family checks that numerically)."""
import numpy as np
import pytest

import flowgrad as tf
from tf_reference_program import load

PROGRAM, RECORD = load("complex_gradients.py", "complex_gradients/tf_2_21.json")


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
    names = [name for name, _, _ in PROGRAM.cases(tf)]
    assert sorted(names) == sorted(RECORD)


@pytest.mark.parametrize("name", sorted(RECORD))
def test_values_and_gradients_match_tensorflow(flowgrad_results, name):
    got, want = flowgrad_results[name], RECORD[name]
    if "error" in want:         # pinv of a complex matrix, no gradient for logm / lu
        assert got.get("error") == want["error"], name
        return
    assert "error" not in got, "%s: flowgrad raised %s" % (name, got.get("error"))
    np.testing.assert_allclose(_array(got["value"]), _array(want["value"]), rtol=1e-10,
                               atol=1e-12, err_msg=name + " value")
    assert np.iscomplexobj(_array(got["value"])) == np.iscomplexobj(_array(want["value"]))
    for mode in ("eager", "graph"):
        assert len(got[mode]) == len(want[mode])
        for i, (g, w) in enumerate(zip(got[mode], want[mode])):
            np.testing.assert_allclose(_array(g), _array(w), rtol=1e-9, atol=1e-11,
                                       err_msg="%s: %s gradient of input %d" % (name, mode, i))


def test_abs_of_a_complex_tensor_is_complex_abs():
    g = tf.Graph()
    with g.as_default():
        z = tf.compat.v1.placeholder(tf.complex64, [2])
        y = tf.abs(z)
    assert y.op.type == "ComplexAbs" and y.dtype == tf.float32
    assert tf.abs(tf.constant([3 + 4j])).numpy().tolist() == [5.0]


def test_gradient_of_abs_at_zero_is_zero():
    z = tf.constant([0j, 3 + 4j])
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.reduce_sum(tf.abs(z))
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), [0, 0.6 + 0.8j])


@pytest.mark.parametrize("fn, derivative", [
    (tf.exp, np.exp), (tf.sin, np.cos), (tf.math.square, lambda z: 2 * z),
    (tf.math.tanh, lambda z: 1 - np.tanh(z) ** 2), (tf.math.sqrt, lambda z: 0.5 / np.sqrt(z)),
])
def test_forward_mode_of_a_holomorphic_op_is_the_derivative_times_the_tangent(fn, derivative):
    z = np.array([0.3 + 0.7j, -1.1 + 0.2j])
    t = np.array([1.0 - 0.5j, 0.25 + 2.0j])
    x = tf.constant(z)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = fn(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), derivative(z) * t, rtol=1e-12)


def test_adjoint_conjugates():
    m = np.array([[1 + 2j, 3 - 1j], [0.5j, 2.0]])
    np.testing.assert_array_equal(tf.linalg.adjoint(tf.constant(m)).numpy(), m.conj().T)
    np.testing.assert_array_equal(
        tf.linalg.matrix_transpose(tf.constant(m), conjugate=True).numpy(), m.conj().T)
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(tf.constant(m)).numpy(), m.T)
    np.testing.assert_allclose(tf.matmul(m, m, adjoint_a=True).numpy(), m.conj().T @ m)
    b = np.stack([m, 2 * m])
    np.testing.assert_allclose(tf.matmul(b, b, adjoint_b=True).numpy(),
                               b @ b.conj().transpose(0, 2, 1))
    np.testing.assert_allclose(tf.matmul(b, b, transpose_a=True).numpy(),
                               b.transpose(0, 2, 1) @ b)
