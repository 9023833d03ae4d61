"""Keras 2's ``tf.keras`` names that Keras 3 dropped (flowgrad/keras2_names.py): they exist
where Keras 2 had them, compute what Keras 2 (tf_keras 2.21, TensorFlow's legacy Keras)
computed, and are the only names ``tf.keras`` shows beyond TensorFlow 2.21's own (Keras 3).
Recorded by tools/tf_reference/keras2_names.py in tests/data/keras2_names/."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load, recorded_text  # noqa: E402

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                reason="tf.keras needs the keras extra")

PROGRAM, KERAS2 = load("keras2_names.py", "keras2_names/keras2.json")
KERAS3 = json.loads(recorded_text("keras2_names/keras3.json"))

#: The names ``tf.keras`` shows beyond TensorFlow 2.21's (Keras 3's), each a Keras 2 /
#: TensorFlow <= 2.15 name that TF 2.16+ (Keras 3) removed and programs still use.
KERAS2_REMOVED = {
    # Keras 2 exported the loss functions under their long names too; Keras 3's tf.keras
    # keeps only mse, mae, mape, msle, kld, logcosh
    "losses": {"kl_divergence", "log_cosh", "mean_absolute_error",
               "mean_absolute_percentage_error", "mean_squared_error",
               "mean_squared_logarithmic_error"},
    "metrics": {"kl_divergence", "log_cosh", "mean_absolute_error",
                "mean_absolute_percentage_error", "mean_squared_error",
                "mean_squared_logarithmic_error"},
    # Keras 2.3-2.15's tf.keras.layers.experimental(.preprocessing); feature columns as a
    # layer (TF 2.0-2.15's structured data tutorial)
    "layers": {"DenseFeatures", "experimental"},
    # Keras 2's generic_utils module, reachable as tf.keras.utils.generic_utils in TF 2.0-2.5
    "utils": {"generic_utils"},
}


def _namespace(path: str):
    module = flowgrad.keras
    for part in filter(None, path.split(".")):
        module = getattr(module, part)
    return module


def _public(module) -> set:
    return {n for n in dir(module) if not n.startswith("_")}


@pytest.mark.parametrize("ns", sorted(KERAS2_REMOVED))
def test_tf_keras_shows_keras_3s_names_and_only_the_listed_keras_2_names(ns):
    extra = _public(_namespace(ns)) - set(KERAS3["names"][ns])
    assert extra == KERAS2_REMOVED[ns], sorted(extra ^ KERAS2_REMOVED[ns])
    keras2 = set(KERAS2["names"][ns]) | {sub.split(".")[-1] for sub in KERAS2["names"]
                                         if sub.startswith(ns + ".")}
    assert KERAS2_REMOVED[ns] <= keras2, "not Keras 2 names"


def test_the_experimental_namespaces_hold_keras_2_names_only():
    for ns in ("layers.experimental", "layers.experimental.preprocessing",
               "utils.generic_utils"):
        shown = _public(_namespace(ns))
        assert shown <= set(KERAS2["names"][ns]), sorted(shown - set(KERAS2["names"][ns]))
    assert flowgrad.keras.layers.experimental.EinsumDense is flowgrad.keras.layers.EinsumDense


def test_keras_2_names_compute_what_keras_2_computed():
    flowgrad.compat.v1.enable_v2_behavior()     # the graph_mode fixture restores graph mode
    got = json.loads(json.dumps(PROGRAM.program(flowgrad)))     # as recorded: tuples as lists
    want = KERAS2["values"]
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, list) and value and isinstance(value[0], float):
            np.testing.assert_allclose(got[key], value, rtol=1e-5, err_msg=key)
        elif key in ("Normalization", "Rescaling"):
            np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=1e-6, err_msg=key)
        else:
            assert got[key] == value, key


def test_keras_2_module_paths_import():
    from tensorflow.keras.layers.experimental import preprocessing
    from tensorflow.keras.layers.experimental.preprocessing import TextVectorization
    from tensorflow.keras.utils import generic_utils

    assert TextVectorization is flowgrad.keras.layers.TextVectorization
    assert preprocessing.Normalization is flowgrad.keras.layers.Normalization
    assert generic_utils.has_arg(lambda x, **kwargs: x, "y", accept_all=True)


def test_dense_features_trains_in_a_sequential_model_as_the_structured_data_tutorial():
    flowgrad.compat.v1.enable_v2_behavior()
    fc, keras = flowgrad.feature_column, flowgrad.keras
    thal = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"])
    layer = keras.layers.DenseFeatures([fc.numeric_column("age"), fc.embedding_column(thal, 2)])
    features = {"age": np.array([0.3, 0.4, 0.5, 0.6], np.float32),
                "thal": np.array(["fixed", "normal", "normal", "reversible"])}
    data = flowgrad.data.Dataset.from_tensor_slices((features, np.array([0, 1, 1, 0]))).batch(2)
    model = keras.Sequential([layer, keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile("adam", loss=keras.losses.BinaryCrossentropy(from_logits=True))
    assert layer(features).shape == (4, 3)      # builds the embedding table
    table = layer.trainable_weights[0].numpy().copy()
    model.fit(data, epochs=2, verbose=0)
    assert table.shape == (3, 2) and not np.allclose(table, layer.trainable_weights[0].numpy())
    assert model.predict(data, verbose=0).shape == (4, 1)
    with pytest.raises(ValueError, match="DenseColumn"):
        keras.layers.DenseFeatures([thal])
    with pytest.raises(ValueError, match="dictionary"):
        layer(np.zeros((2, 1), np.float32))
