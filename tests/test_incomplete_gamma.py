"""tf.math.igamma, igammac, betainc and zeta against TensorFlow 2.21: values and gradients
(tools/tf_reference/special_functions_reference.py recorded
tests/data/special_functions/reference.json). The numerical gradient checks are entries of
tests/op_db.py (family incomplete_gamma).

flowgrad evaluates every dtype in double precision and rounds, so float32 results are within
5e-4 of TensorFlow's (which iterates in float32); float64 ones agree to 1e-12."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import errors

REF = json.loads((Path(__file__).resolve().parent / "data" / "special_functions"
                  / "reference.json").read_text())
CASES = [("gamma", "igamma", ("a", "x")), ("gamma", "igammac", ("a", "x")),
         ("beta", "betainc", ("a", "b", "x")), ("zeta", "zeta", ("x", "q"))]
TOL = {"float64": (1e-12, 1e-10), "float32": (5e-4, 5e-4)}


@pytest.fixture(autouse=True)
def eager():
    """These tests run eagerly (the suite starts each test in graph mode)."""
    tf.enable_eager_execution()
    yield


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("group,name,args", CASES, ids=[c[1] for c in CASES])
def test_values_match_tensorflow(group, name, args, dtype):
    inputs = [tf.constant(REF[group][k], dtype) for k in args]
    got = getattr(tf.math, name)(*inputs)
    assert got.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(got.numpy(), REF[group][name + "_" + dtype],
                               rtol=TOL[dtype][0], atol=0, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("group,name,args", CASES, ids=[c[1] for c in CASES])
def test_gradients_match_tensorflow(group, name, args, dtype):
    variables = [tf.Variable(tf.constant(REF[group][k], dtype)) for k in args]
    with tf.GradientTape() as tape:
        y = getattr(tf.math, name)(*variables)
    grads = tape.gradient(y, variables)
    for got, want in zip(grads, REF[group][name + "_grad_" + dtype]):
        assert (got is None) == (want is None)      # betainc in x only, zeta in q only
        if want is not None:
            np.testing.assert_allclose(got.numpy(), want, rtol=TOL[dtype][1], atol=0,
                                       equal_nan=True)


def test_faces_and_broadcasting():
    assert tf.igamma is tf.math.igamma and tf.zeta is tf.math.zeta
    got = tf.math.igamma(np.array([[1.0], [2.0]]), np.array([0.5, 1.0, 3.0]))
    assert got.shape == (2, 3)
    np.testing.assert_allclose(got.numpy()[0], 1.0 - np.exp(-np.array([0.5, 1.0, 3.0])),
                               rtol=1e-14)
    np.testing.assert_allclose((tf.math.igamma(3.0, 2.0) + tf.math.igammac(3.0, 2.0)).numpy(),
                               1.0, rtol=1e-15)


def test_igamma_grad_a_has_no_gradient_as_in_tensorflow():
    a = tf.Variable(2.0, dtype=tf.float64)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.math.igamma(a, tf.constant(1.5, tf.float64))
        da = inner.gradient(y, a)
    with pytest.raises(LookupError, match="IgammaGradA"):
        outer.gradient(da, a)


def test_bad_inputs():
    with pytest.raises(TypeError, match="Igamma"):
        tf.math.igamma(np.array([1, 2], np.int32), np.array([1, 2], np.int32))
    with pytest.raises(TypeError, match="Betainc"):
        tf.math.betainc(np.float16(1), np.float16(1), np.float16(0.5))
    with pytest.raises((ValueError, errors.InvalidArgumentError), match="inconsistent"):
        tf.math.betainc(np.ones(2), np.ones(3), 0.5)
    with pytest.raises((ValueError, errors.InvalidArgumentError)):
        tf.math.zeta(np.ones(2), np.ones(3))
