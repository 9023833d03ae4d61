"""tf.feature_column and tf.compat.v1.feature_column.input_layer (feature_column_lib.py):
every column kind's dense output, column names, embedding variable names and
make_parse_example_spec pinned against TensorFlow 2.21
(tools/tf_reference/feature_column_reference.py runs unchanged on flowgrad); gradients
through input_layer (numeric inputs, weights, embedding rows) pinned the same way (the
columns are compositions of ops that are gradient-checked themselves; the columns' float32
outputs are too coarse for central differences)."""
import importlib.util
import json
import os

import numpy as np
import pytest

import flowgrad as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "feature_column_reference", os.path.join(ROOT, "tools", "tf_reference",
                                             "feature_column_reference.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)
with open(os.path.join(ROOT, "tests", "data", "api_names", "feature_column.json")) as f:
    RECORDED = json.load(f)


@pytest.fixture(scope="module")
def got(tmp_path_factory):
    return ref.record(tf, str(tmp_path_factory.mktemp("fc")))


@pytest.mark.parametrize("name", sorted(k for k in RECORDED if isinstance(RECORDED[k], dict)
                                        and "column" in RECORDED[k]))
def test_input_layer_matches_tensorflow(got, name):
    assert got[name]["column"] == RECORDED[name]["column"]
    assert got[name]["variables"] == RECORDED[name]["variables"]
    np.testing.assert_allclose(got[name]["value"], RECORDED[name]["value"], rtol=1e-6,
                               atol=1e-7)


def test_columns_are_ordered_by_name_and_parse_spec_matches(got):
    np.testing.assert_allclose(got["ordered_by_name"], RECORDED["ordered_by_name"])
    assert got["parse_spec"] == RECORDED["parse_spec"]


def test_input_layer_runs_eagerly():
    tf.compat.v1.enable_v2_behavior()
    fc = tf.feature_column
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"])
    out = tf.compat.v1.feature_column.input_layer(ref.features(tf), [fc.indicator_column(color),
                                                                     fc.numeric_column("age")])
    np.testing.assert_allclose(out.numpy(), np.concatenate(   # "age" < "color_indicator"
        [RECORDED["numeric"]["value"], RECORDED["vocab_list"]["value"]], 1))


def test_bad_columns_raise_as_tensorflow():
    fc = tf.feature_column
    with pytest.raises(ValueError, match="boundaries must be a sorted list"):
        fc.bucketized_column(fc.numeric_column("a"), [3, 1])
    with pytest.raises(ValueError, match="Duplicate keys"):
        fc.categorical_column_with_vocabulary_list("a", ["x", "x"])
    with pytest.raises(ValueError, match="hash_bucket_size must be larger than 1"):
        fc.categorical_column_with_hash_bucket("a", 1)
    with pytest.raises(ValueError, match="must be a DenseColumn"):
        tf.compat.v1.feature_column.input_layer(
            {"a": [["x"]]}, [fc.categorical_column_with_hash_bucket("a", 4)])
    assert not hasattr(tf.feature_column, "input_layer")     # TF1 only, as in TensorFlow


def test_gradients_through_input_layer_match_tensorflow(got):
    for key in ("value", "grad_pair", "grad_weight", "grad_embedding"):
        np.testing.assert_allclose(got["gradients"][key], RECORDED["gradients"][key],
                                   rtol=1e-5, atol=1e-6, err_msg=key)
