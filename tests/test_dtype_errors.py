"""The dtypes each math op accepts, and the error class where it refuses one, are
TensorFlow's: replayed from TensorFlow 2.21's recording (tools/tf_reference/dtype_errors.py).

In eager mode TensorFlow raises InvalidArgumentError for a dtype an op does not accept;
building a graph raises TypeError. flowgrad's eager error is both (an InvalidArgumentError
that is also a TypeError), so either ``except`` clause a program has catches it."""
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors


@pytest.fixture
def eager():
    """Eager mode for the test (conftest starts every test in graph mode)."""
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()

RECORD = json.load(open(os.path.join(os.path.dirname(__file__), "data", "dtype_errors",
                                     "tf_2_21.json")))

# Where flowgrad knowingly differs, with the reason (docs/differences.md lists them too).
KNOWN = {
    # TensorFlow registers these ops for the dtype but has no CPU kernel (NotFoundError);
    # flowgrad computes the result NumPy gives.
    "matmul:uint8": "no CPU kernel in TensorFlow",
    "reciprocal:int32": "no CPU kernel in TensorFlow",
    "reciprocal:int64": "no CPU kernel in TensorFlow",
    "reciprocal:uint8": "no CPU kernel in TensorFlow",
}


def lookup(name):
    for ns in (tf.math, tf.nn, tf.linalg, tf.bitwise, tf):
        f = getattr(ns, name, None)
        if f is not None:
            return f
    raise AttributeError(name)


def value(dtype):
    return np.array(RECORD["values"][dtype], dtype="S" if dtype == "string" else dtype)


def outcome(name, dtype):
    f = lookup(name)
    try:
        x = tf.constant(value(dtype))
        r = f(x, x) if name in RECORD["binary"] else f(x)
        return "ok:" + r.dtype.name
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return e


def _class_names(e):
    return {c.__name__ for c in type(e).__mro__}


@pytest.mark.parametrize("case", sorted(set(RECORD["cases"]) - set(KNOWN)))
def test_eager_dtype_acceptance_and_error_class_match_tensorflow(case, eager):
    want = RECORD["cases"][case]
    got = outcome(*case.split(":"))
    if want.startswith("ok:"):
        assert got == want, "%s: TensorFlow gives %s, flowgrad %r" % (case, want, got)
    else:
        assert not isinstance(got, str), "%s: TensorFlow raises %s, flowgrad gives %s" % (
            case, want, got)
        # TensorFlow's NotFoundError (an op without a kernel for the dtype) is an
        # InvalidArgumentError in flowgrad, which checks the dtype before running.
        want = "InvalidArgumentError" if want == "NotFoundError" else want
        assert want in _class_names(got), "%s: TensorFlow raises %s, flowgrad %s: %s" % (
            case, want, type(got).__name__, got)


def test_known_differences_are_still_differences(eager):
    for case in KNOWN:
        got = outcome(*case.split(":"))
        want = RECORD["cases"][case]
        assert (got if isinstance(got, str) else type(got).__name__) != want, case


def test_graph_mode_dtype_errors_are_type_errors_naming_the_op():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.int32, [2])
        with pytest.raises(TypeError, match="int32.*Sin") as info:
            tf.math.sin(x)
        assert not isinstance(info.value, errors.InvalidArgumentError)
        with pytest.raises(TypeError, match="Cholesky") as info:
            tf.linalg.cholesky(tf1.placeholder(tf.int32, [2, 2]))
        assert not isinstance(info.value, errors.InvalidArgumentError)


def test_eager_dtype_errors_are_also_type_errors(eager):
    with pytest.raises(TypeError, match="Cholesky") as info:
        tf.linalg.cholesky(tf.constant([[1, 0], [0, 1]]))
    assert isinstance(info.value, errors.InvalidArgumentError)


def test_top_k_returns_tensorflows_named_tuple(eager):
    r = tf.math.top_k(tf.constant([1.0, 3.0, 2.0]), 2)
    assert type(r).__name__ == "TopKV2"
    assert r.values.numpy().tolist() == [3.0, 2.0] and r.indices.numpy().tolist() == [1, 2]
    values, indices = r
    assert values is r.values and indices is r.indices


def test_sigmoid_of_a_complex_tensor_keeps_its_dtype(eager):
    z = np.array([0.5 + 1.0j, -2.0 + 0.25j], np.complex64)
    got = tf.math.sigmoid(tf.constant(z)).numpy()
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-z)), rtol=1e-6)
