"""Every one-argument function of tf.math and tf.nn gives TensorFlow's values, dtype and
first derivative at the edges of its domain (infinities, signed zeros, NaN, poles, large
arguments), replayed from TensorFlow 2.21's recording (tools/tf_reference/edge_values.py)."""
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

RECORD = json.load(open(os.path.join(os.path.dirname(__file__), "data", "edge_values",
                                     "tf_2_21.json")))

# Where flowgrad knowingly differs from TensorFlow's kernels (docs/differences.md).
KNOWN = {
    "top_k": "NaN: TensorFlow's ordering with NaN present is not a total order",
    "erf:float64": "TensorFlow's float64 erf is NaN at +-inf; flowgrad gives +-1",
    "bessel_i1": "the gradient at 0: TensorFlow imputes 1.0, flowgrad gives I1'(0) = 0.5",
    "is_finite": "no gradient: TensorFlow raises LookupError, flowgrad gives None",
    "is_inf": "no gradient: as is_finite",
    "is_nan": "no gradient: as is_finite",
}
# TensorFlow functions flowgrad does not have yet (the test checks they are still missing).
MISSING = {"isotonic_regression"}


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


def _known(case):
    return case in KNOWN or case.split(":")[0] in KNOWN


def _array(v, dtype):
    if dtype.startswith("complex"):
        return np.asarray(v[0]) + 1j * np.asarray(v[1])
    return np.asarray(v)


def _assert_close(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, "%s: shape %s, TensorFlow %s" % (what, got.shape, want.shape)
    if want.dtype == bool or got.dtype == bool:
        assert np.array_equal(got, want), "%s: %s, TensorFlow %s" % (what, got, want)
        return
    np.testing.assert_allclose(got.astype(complex), want.astype(complex), rtol=2e-5, atol=1e-6,
                               equal_nan=True, err_msg=what)


def _function(name):
    return getattr(tf.math, name, None) or getattr(tf.nn, name, None)


CASES = sorted(c for c in RECORD["cases"] if not _known(c) and c.split(":")[0] not in MISSING)


@pytest.mark.parametrize("case", CASES)
def test_values_and_gradients_at_the_edges_match_tensorflow(case, eager):
    name, dtype = case.split(":")
    want = RECORD["cases"][case]
    f = _function(name)
    assert f is not None, "tf.math/tf.nn.%s is missing" % name
    x = tf.constant(np.array(RECORD["points"], dtype))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    if isinstance(y, (tuple, list)):
        y = y[0]
    assert y.dtype.name == want["dtype"], case
    _assert_close(y.numpy(), _array(want["value"], want["dtype"]), case + " value")
    g = tape.gradient(y, x)
    if "grad_error" in want or want.get("grad") is None:
        assert g is None, "%s: TensorFlow has no gradient here, flowgrad gives %s" % (case, g)
    else:
        assert g is not None, "%s: flowgrad gives no gradient" % case
        _assert_close(g.numpy(), want["grad"], case + " gradient")


def test_the_known_differences_are_still_there():
    for name in MISSING:
        assert _function(name) is None, "%s exists now: remove it from MISSING" % name
    names = {c.split(":")[0] for c in RECORD["cases"]}
    for key in KNOWN:
        assert key in RECORD["cases"] or key in names, key


# Two-argument functions: every pair of the recorded points, both gradients.
BINARY_KNOWN: dict = {
    "igamma": "the gradient in x at the edges (x = 0, +-inf, a <= 0): not yet TensorFlow's",
    "igammac": "as igamma",
    "betainc_xy": "the values where b or x is infinite or NaN: not yet TensorFlow's",
    "zeta": "the gradient in q at the edges: not yet TensorFlow's (the values are)",
}
BINARY_MISSING: set = set()
BINARY_CASES = sorted(c for c in RECORD["binary"] if c.split(":")[0] not in BINARY_MISSING
                      and c not in BINARY_KNOWN and c.split(":")[0] not in BINARY_KNOWN)


def _binary_function(name):
    if name == "betainc_xy":
        return lambda x, y: tf.math.betainc(tf.cast(2.5, x.dtype) + 0 * x, x, y)
    return getattr(tf.math, name)


@pytest.mark.parametrize("case", BINARY_CASES)
def test_binary_values_and_gradients_at_the_edges_match_tensorflow(case, eager):
    name, dtype = case.split(":")
    want = RECORD["binary"][case]
    p = np.array(RECORD["pair_points"], dtype)
    x, y = tf.constant(np.repeat(p, len(p))), tf.constant(np.tile(p, len(p)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = _binary_function(name)(x, y)
    assert z.dtype.name == want["dtype"], case
    _assert_close(z.numpy(), _array(want["value"], want["dtype"]), case + " value")
    for key, v in (("grad_x", x), ("grad_y", y)):
        g = tape.gradient(z, v)
        if want.get(key) is None:
            assert g is None, "%s: TensorFlow has no %s, flowgrad gives %s" % (case, key, g)
        else:
            assert g is not None, "%s: flowgrad gives no %s" % (case, key)
            _assert_close(g.numpy(), want[key], "%s %s" % (case, key))


def test_the_missing_binary_functions_are_still_missing():
    for name in BINARY_MISSING - {"betainc_xy"}:
        assert getattr(tf.math, name, None) is None, "%s exists now: test it" % name
