"""More of tf.compat.v1.metrics (flowgrad/metrics/metrics_more.py) against TensorFlow 2.21:
values, update ops and local variable names recorded by tools/tf_reference/metrics_v1_more.py
into tests/data/metrics_v1/more_tf_2_21.json."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("metrics_v1_more.py", "metrics_v1/more_tf_2_21.json")


@pytest.fixture(scope="module")
def results():
    tf.disable_v2_behavior()
    return MODULE.program(tf)


@pytest.mark.parametrize("key", sorted(k for k in RECORD if not k.startswith("local")))
def test_metric_matches_tensorflow(results, key):
    want, got = RECORD[key], results[key]
    assert got["dtype"] == want["dtype"]
    for a, b in zip(got["updates"], want["updates"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-5, atol=1e-6)


def test_local_variable_names_match_tensorflow(results):
    for key in ("local_variables_plain", "local_variables_weighted"):
        assert results[key] == RECORD[key]


def test_metrics_are_graph_only_and_check_collections():
    tf.enable_eager_execution()
    with pytest.raises(RuntimeError, match="tf.metrics.mean_iou is not supported when eager"):
        tf.metrics.mean_iou([0, 1], [0, 1], 2)
    tf.disable_v2_behavior()
    with pytest.raises(ValueError, match="metrics_collections should be a list"):
        tf.metrics.mean_tensor(tf.ones([2]), metrics_collections="c")
    value, update = tf.metrics.mean_iou(tf.constant([0, 1, 1]), tf.constant([0, 1, 0]), 2,
                                        metrics_collections=["m"], updates_collections=["u"])
    assert tf.get_collection("m") == [value] and tf.get_collection("u") == [update]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        assert sess.run(value) == pytest.approx((0.5 + 0.5) / 2)
