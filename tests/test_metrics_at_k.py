"""tf.compat.v1.metrics' ranking metrics (flowgrad/metrics/metrics_at_k.py) against
TensorFlow 2.21: values, update ops, value names and local variable names recorded by
tools/tf_reference/metrics_at_k.py into tests/data/metrics_v1/at_k_tf_2_21.json."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("metrics_at_k.py", "metrics_v1/at_k_tf_2_21.json")


@pytest.fixture(scope="module")
def results():
    tf.disable_v2_behavior()
    return MODULE.program(tf)


@pytest.mark.parametrize("key", sorted(k for k in RECORD if not k.startswith(("local", "value_"))))
def test_metric_matches_tensorflow(results, key):
    want, got = RECORD[key], results[key]
    assert got["dtype"] == want["dtype"]
    for a, b in zip(got["updates"], want["updates"]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("suffix", ["plain", "weighted"])
def test_variable_and_value_names_match_tensorflow(results, suffix):
    assert results["local_variables_" + suffix] == RECORD["local_variables_" + suffix]
    assert results["value_names_" + suffix] == RECORD["value_names_" + suffix]


def test_the_ranking_metrics_refuse_bad_input_as_tensorflow():
    tf.enable_eager_execution()
    with pytest.raises(RuntimeError, match="tf.metrics.sparse_precision_at_k is not supported"):
        tf.metrics.precision_at_k([1], [[0.1, 0.9]], 1)
    tf.disable_v2_behavior()
    scores = tf.constant([[0.1, 0.9, 0.3]])
    with pytest.raises(ValueError, match="Invalid k=0"):
        tf.metrics.average_precision_at_k(tf.constant([1], tf.int64), scores, 0)
    with pytest.raises(ValueError, match="`specificity` must be in the range"):
        tf.metrics.sensitivity_at_specificity([1, 0], [0.2, 0.7], 1.5)
    with pytest.raises(ValueError, match="`sensitivity` must be in the range"):
        tf.metrics.specificity_at_sensitivity([1, 0], [0.2, 0.7], -0.1)
    with pytest.raises(ValueError, match="Unexpected labels shape"):
        tf.metrics.recall_at_k(tf.zeros([1, 2, 2, 2], tf.int64), scores, 1)


def test_collections_and_the_counters_reset_with_the_local_variables():
    tf.disable_v2_behavior()
    labels = tf.constant([[2], [0]], tf.int64)
    scores = tf.constant([[0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
    value, update = tf.metrics.recall_at_k(labels, scores, 1, metrics_collections=["m"],
                                           updates_collections=["u"])
    assert tf.get_collection("m") == [value] and tf.get_collection("u") == [update]
    assert value.dtype == tf.float64
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(update) == 1.0
        sess.run(tf.local_variables_initializer())
        assert np.isnan(sess.run(value))
