"""tf.dtypes.saturate_cast, tf.math.unsorted_segment_sqrt_n and tf.data's cardinality constants
against TensorFlow 2.21 (tools/tf_reference/math_gaps_reference.py recorded
tests/data/math_gaps/reference.json)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

REFERENCE = json.loads((Path(__file__).resolve().parent / "data" / "math_gaps"
                        / "reference.json").read_text())


@pytest.fixture()
def eager():
    """Eager execution for one test (the suite starts each test in graph mode)."""
    v1.enable_eager_execution()
    yield


@pytest.mark.usefixtures("eager")
@pytest.mark.parametrize("case", REFERENCE["saturate_cast"],
                         ids=lambda c: "%s-%s" % (c["src"], c["dst"]))
def test_saturate_cast_matches_tensorflow(case):
    got = tf.dtypes.saturate_cast(tf.constant(case["values"], dtype=case["src"]), case["dst"])
    assert got.dtype == tf.as_dtype(case["dst"])
    np.testing.assert_array_equal(got.numpy().astype(np.float64), case["out"])


@pytest.mark.usefixtures("eager")
def test_saturate_cast_complex_clamps_each_part():
    got = tf.saturate_cast(tf.constant([1e300 - 1e300j, 2 + 3j], tf.complex128), tf.complex64)
    big = float(np.finfo(np.float32).max)
    np.testing.assert_array_equal(got.numpy(), np.array([big - big * 1j, 2 + 3j], np.complex64))
    assert tf.saturate_cast(tf.constant([300 + 1j], tf.complex64), tf.uint8).numpy()[0] == 255


def test_saturate_cast_in_graph():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None])
        y = v1.saturate_cast(x, tf.int8)
        with v1.Session() as sess:
            np.testing.assert_array_equal(sess.run(y, {x: [-500.0, 3.7, 500.0]}), [-128, 3, 127])


@pytest.mark.usefixtures("eager")
@pytest.mark.parametrize("case", REFERENCE["unsorted_segment_sqrt_n"], ids=str)
def test_unsorted_segment_sqrt_n_matches_tensorflow(case):
    got = tf.math.unsorted_segment_sqrt_n(tf.constant(case["data"], tf.float64), case["ids"],
                                          case["n"])
    np.testing.assert_allclose(got.numpy(), case["out"], rtol=1e-15)


@pytest.mark.usefixtures("eager")
def test_cardinality_constants_are_tensorflows():
    assert tf.data.INFINITE_CARDINALITY == REFERENCE["cardinality"]["INFINITE"]
    assert v1.data.UNKNOWN_CARDINALITY == REFERENCE["cardinality"]["UNKNOWN"]
    ds = tf.data.Dataset.range(3)
    assert int(ds.repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert int(ds.filter(lambda v: v > 0).cardinality()) == tf.data.UNKNOWN_CARDINALITY
