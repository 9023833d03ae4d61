"""Records Keras 2's ``tf.keras`` names that Keras 3 dropped, and what they compute, for
tests/test_keras2_names.py: the long loss function names of ``tf.keras.losses`` /
``tf.keras.metrics``, ``tf.keras.layers.experimental.preprocessing``,
``tf.keras.layers.DenseFeatures`` and ``generic_utils.has_arg``.

``program(tf)`` runs with TensorFlow's legacy Keras (``tf_keras`` 2.21 with
``TF_USE_LEGACY_KERAS=1``: Keras 2, as TensorFlow 2.0-2.15 had it) and with flowgrad;
``names()`` lists the public names of the namespaces, once under Keras 2 and once under Keras 3
(TensorFlow 2.21's own ``tf.keras``). Run from the repository root:

    pip install --target /tmp/tfk_site tf_keras==2.21.0   # with /work/venv-tf's pip
    PYTHONPATH=/tmp/tfk_site TF_USE_LEGACY_KERAS=1 /work/venv-tf/bin/python \
        tools/tf_reference/keras2_names.py keras2 > tests/data/keras2_names/keras2.json
    /work/venv-tf/bin/python tools/tf_reference/keras2_names.py keras3 \
        > tests/data/keras2_names/keras3.json
"""
import importlib
import json
import sys

import numpy as np

NAMESPACES = ("losses", "metrics", "layers", "utils")
LOSSES = ("kl_divergence", "log_cosh", "mean_absolute_error", "mean_absolute_percentage_error",
          "mean_squared_error", "mean_squared_logarithmic_error", "mse", "mae", "mape", "msle",
          "kld", "logcosh", "kullback_leibler_divergence")


def names(tf):
    """{namespace: its public names} of tf.keras (and the Keras 2 subnamespaces it has)."""
    out = {}
    for ns in NAMESPACES + ("layers.experimental", "layers.experimental.preprocessing"):
        module = tf.keras
        for part in ns.split("."):
            module = getattr(module, part, None)
        if module is not None:
            out[ns] = sorted(n for n in dir(module) if not n.startswith("_"))
    if "layers.experimental" in out:        # Keras 2
        out["utils.generic_utils"] = sorted(n for n in dir(_generic_utils(tf))
                                            if not n.startswith("_"))
    return out


def _generic_utils(tf):
    found = getattr(tf.keras.utils, "generic_utils", None)
    # tf_keras 2.21 keeps Keras 2's module, unexported since TF 2.6
    return found or importlib.import_module("tf_keras.src.utils.generic_utils")


def _dense_features(tf):
    """tf.keras.layers.DenseFeatures of numeric, bucketized, indicator, embedding and crossed
    columns: its output, weights and an embedding table's gradient."""
    fc = tf.feature_column
    age = fc.numeric_column("age")
    thal = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"])
    table = np.arange(6.0).reshape(3, 2)
    columns = [age, fc.bucketized_column(age, [35.0, 55.0]), fc.indicator_column(thal),
               fc.embedding_column(thal, 2, combiner="sum",
                                   initializer=tf.constant_initializer(table)),
               fc.indicator_column(fc.crossed_column([thal, "sex"], hash_bucket_size=5))]
    features = {"age": np.array([[30.0], [40.0], [50.0], [60.0]], np.float32),
                "thal": np.array([["fixed"], ["normal"], ["normal"], ["x"]]),
                "sex": np.array([["m"], ["f"], ["m"], ["f"]])}
    layer = tf.keras.layers.DenseFeatures(columns)
    with tf.GradientTape() as tape:
        dense = layer(features)
        total = tf.reduce_sum(dense * np.arange(1.0, 15.0, dtype=np.float32))
    grad = tf.convert_to_tensor(tape.gradient(total, layer.trainable_weights[0]))
    try:
        tf.keras.layers.DenseFeatures([thal])
        error = None
    except ValueError:
        error = "ValueError"
    return {"DenseFeatures": np.asarray(dense).tolist(),
            "DenseFeatures.weights": [list(w.shape) for w in layer.weights],
            "DenseFeatures.gradient": np.asarray(grad).tolist(),
            "DenseFeatures.categorical": error}


def program(tf):
    """What the Keras 2 names compute (plain values)."""
    y_true = tf.constant([[0.0, 1.0, 0.5], [0.2, 0.0, 1.0]])
    y_pred = tf.constant([[0.1, 0.8, 0.4], [0.3, 0.1, 0.7]])
    out = {}
    for ns in ("losses", "metrics"):
        for name in LOSSES:
            fn = getattr(getattr(tf.keras, ns), name)
            out["%s.%s" % (ns, name)] = np.asarray(fn(y_true, y_pred)).round(6).tolist()
    k = tf.keras
    out["same"] = {
        "losses.mean_squared_error is losses.mse": k.losses.mean_squared_error is k.losses.mse,
        "metrics.mean_squared_error is losses.mean_squared_error":
            k.metrics.mean_squared_error is k.losses.mean_squared_error,
        "metrics.mean_absolute_error is metrics.mae":
            k.metrics.mean_absolute_error is k.metrics.mae,
        "log_cosh is logcosh": k.losses.log_cosh is k.losses.logcosh,
        "kl_divergence is kld": k.losses.kl_divergence is k.losses.kld}
    pre = k.layers.experimental.preprocessing
    out["preprocessing is layers"] = sorted(
        n for n in dir(pre) if not n.startswith("_") and getattr(pre, n) is getattr(k.layers, n,
                                                                                    None))
    vec = pre.TextVectorization(max_tokens=10, output_sequence_length=4)
    vec.adapt(tf.constant(["the cat sat", "the dog ran far away", "a cat"]))
    out["TextVectorization.vocabulary"] = vec.get_vocabulary()
    out["TextVectorization"] = np.asarray(vec(tf.constant(["the cat ran", "a bird"]))).tolist()
    norm = pre.Normalization(axis=-1)
    norm.adapt(np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 20.0]], np.float32))
    out["Normalization"] = np.asarray(norm(np.array([[2.0, 20.0]], np.float32))).round(5).tolist()
    out["Rescaling"] = np.asarray(pre.Rescaling(1.0 / 255)(np.full((1, 2), 51.0, np.float32))
                                  ).round(6).tolist()
    out.update(_dense_features(tf))
    gu = _generic_utils(tf)

    def f(a, b=1, *args, c=2, **kwargs):
        return a

    def g(a, b=1):
        return a

    out["has_arg"] = [gu.has_arg(f, "b"), gu.has_arg(f, "c"), gu.has_arg(f, "d"),
                      gu.has_arg(f, "d", accept_all=True), gu.has_arg(g, "d", accept_all=True),
                      gu.has_arg(g, "a")]
    out["to_list"] = [gu.to_list(1), gu.to_list([1, 2]), gu.to_list((1, 2))]
    out["to_snake_case"] = gu.to_snake_case("DenseFeaturesV2")
    return out


if __name__ == "__main__":
    import tensorflow as tf

    if sys.argv[1:] == ["keras2"]:
        record = {"keras": "tf_keras " + importlib.import_module("tf_keras").__version__,
                  "names": names(tf), "values": program(tf)}
    else:
        record = {"keras": "keras " + importlib.import_module("keras").__version__,
                  "names": names(tf)}
    print(json.dumps(record, indent=1, sort_keys=True))
