"""Keras 3 files between real TensorFlow and flowgrad: ``.keras`` archives and
``.weights.h5`` files.

    /work/venv-tf/bin/python tools/tf_reference/keras_files.py record tests/data/keras
        # real TF 2.21 + Keras 3.15.1 save a functional model (tf_model.keras,
        # tf_model.weights.h5) and its predictions on fixed inputs (tf_predictions.npz);
        # tests/test_real_keras.py loads them on flowgrad
    python tools/tf_reference/keras_files.py write DIR      # flowgrad saves the same files
    /work/venv-tf/bin/python tools/tf_reference/keras_files.py check DIR
        # real TensorFlow loads flowgrad's files and fails unless it predicts what
        # flowgrad predicted

The model: Input(12) -> Dense(16, relu) -> Dropout -> Dense(3, softmax), trained 2 epochs
with Adam on fixed data (so the optimizer's variables are in the .keras file too)."""
import os
import subprocess
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["KERAS_BACKEND"] = "tensorflow"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

rng = np.random.default_rng(7)
X = rng.normal(size=(64, 12)).astype("float32")
Y = rng.integers(0, 3, 64)


def build_and_train():
    import keras
    keras.utils.set_random_seed(7)
    inp = keras.Input((12,), name="features")
    h = keras.layers.Dense(16, activation="relu", name="hidden")(inp)
    h = keras.layers.Dropout(0.1)(h)
    out = keras.layers.Dense(3, activation="softmax", name="probs")(h)
    model = keras.Model(inp, out, name="tf_reference_model")
    model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.fit(X, Y, batch_size=16, epochs=2, verbose=0)
    return model


def save(directory, prefix):
    model = build_and_train()
    os.makedirs(directory, exist_ok=True)
    model.save(os.path.join(directory, prefix + "_model.keras"))
    model.save_weights(os.path.join(directory, prefix + "_model.weights.h5"))
    np.savez(os.path.join(directory, prefix + "_predictions.npz"), x=X[:8],
             probs=model.predict(X[:8], verbose=0))
    if prefix == "flowgrad":            # model.export: a SavedModel TensorFlow serves
        model.export(os.path.join(directory, "flowgrad_export"), verbose=False)
        rnn = build_rnn()
        rnn.export(os.path.join(directory, "flowgrad_rnn_export"), verbose=False)
        np.savez(os.path.join(directory, "flowgrad_rnn.npz"), x=SEQ, y=rnn.predict(SEQ,
                                                                                  verbose=0))
        lookup_exports(directory)
        wider_exports(directory)


SEQ = rng.normal(size=(4, 6, 3)).astype("float32")
WORDS = np.array([["cat", "dog", "mat"], ["the", "on", "x"]])
SENTENCES = np.array(["the cat sat on a mat", "The MAT, the cat!"])


def lookup_exports(directory):
    """StringLookup and TextVectorization over a vocabulary file, exported with
    ``model.export`` (the file goes to ``assets/``; it is deleted afterwards)."""
    import keras
    import tensorflow as tf
    vocab = os.path.join(directory, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("the\ncat\nsat\non\nmat\n")
    inp = keras.Input((None,), dtype="string")
    lookup = keras.Model(inp, keras.layers.StringLookup(vocabulary=vocab)(inp))
    lookup.export(os.path.join(directory, "flowgrad_lookup_export"), verbose=False)
    text_in = keras.Input((), dtype="string")
    text = keras.Model(text_in, keras.layers.TextVectorization(
        vocabulary=vocab, output_mode="int", output_sequence_length=6)(text_in))
    text.export(os.path.join(directory, "flowgrad_text_export"), verbose=False)
    np.savez(os.path.join(directory, "flowgrad_lookups.npz"),
             ids=lookup(tf.constant(WORDS)).numpy(), text=text(tf.constant(SENTENCES)).numpy())
    os.remove(vocab)


def wider_exports(directory):
    """The image and sequence models of tools/tf_reference/make_wider_fixtures.py (conv,
    depthwise/separable conv, batch norm, dropout, layer norm; embedding, attention, LSTM,
    bidirectional GRU), exported with ``model.export``."""
    import make_wider_fixtures as w
    rng = np.random.default_rng(2)
    image = rng.normal(size=(2, 8, 8, 3)).astype("float32")
    tokens = rng.integers(0, 20, (2, 7)).astype("int32")
    out = {"image": image, "tokens": tokens}
    for name, model, x in (("image", w.image_model(), image),
                           ("sequence", w.sequence_model(), tokens)):
        model.export(os.path.join(directory, "flowgrad_%s_export" % name), verbose=False)
        out[name + "_out"] = model(x, training=False).numpy()
    np.savez(os.path.join(directory, "flowgrad_wider.npz"), **out)


def check_wider_exports(directory):
    """TensorFlow serves flowgrad's image and sequence model exports."""
    import tensorflow as tf
    ref = np.load(os.path.join(directory, "flowgrad_wider.npz"))
    for name, x in (("image", ref["image"]), ("sequence", ref["tokens"])):
        m = tf.saved_model.load(os.path.join(directory, "flowgrad_%s_export" % name))
        np.testing.assert_allclose(m.serve(tf.constant(x)).numpy(), ref[name + "_out"],
                                   rtol=1e-5, atol=1e-6, err_msg=name)
    print("TensorFlow %s serves flowgrad's exports of conv/depthwise/separable/batch-norm/"
          "layer-norm and embedding/attention/LSTM/GRU models" % tf.__version__)


def check_lookup_exports(directory):
    """TensorFlow serves flowgrad's StringLookup / TextVectorization exports."""
    import tensorflow as tf
    ref = np.load(os.path.join(directory, "flowgrad_lookups.npz"))
    for name, x, want in (("flowgrad_lookup_export", WORDS, ref["ids"]),
                          ("flowgrad_text_export", SENTENCES, ref["text"])):
        m = tf.saved_model.load(os.path.join(directory, name))
        np.testing.assert_array_equal(m.serve(tf.constant(x)).numpy(), want, err_msg=name)
    print("TensorFlow %s serves flowgrad's StringLookup/TextVectorization exports (vocabulary "
          "files as assets)" % tf.__version__)


def build_rnn():
    """A small recurrent model (LSTM and GRU layers: while loops over TensorArrays)."""
    import keras
    keras.utils.set_random_seed(3)
    inp = keras.Input((6, 3), name="sequence")
    h = keras.layers.LSTM(5, return_sequences=True)(inp)
    return keras.Model(inp, keras.layers.Dense(2)(keras.layers.GRU(4)(h)))


def check_export(directory):
    """TensorFlow serves the SavedModels of flowgrad's ``model.export``."""
    import tensorflow as tf
    expected = np.load(os.path.join(directory, "flowgrad_predictions.npz"))
    for name, x, want in (("flowgrad_export", expected["x"], expected["probs"]),
                          ("flowgrad_rnn_export", *np.load(os.path.join(
                              directory, "flowgrad_rnn.npz")).values())):
        m = tf.saved_model.load(os.path.join(directory, name))
        sig = m.signatures["serving_default"]
        (arg,) = sig.structured_input_signature[1]
        (out,) = sig(**{arg: tf.constant(x)}).values()
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6, err_msg=name)
        np.testing.assert_allclose(m.serve(tf.constant(x)).numpy(), want, rtol=1e-5,
                                   atol=1e-6, err_msg=name)
    print("TensorFlow %s serves flowgrad's model.export SavedModels (dense, LSTM/GRU)"
          % tf.__version__)


def check(directory, prefix):
    import keras
    expected = np.load(os.path.join(directory, prefix + "_predictions.npz"))
    loaded = keras.models.load_model(os.path.join(directory, prefix + "_model.keras"))
    got = loaded.predict(expected["x"], verbose=0)
    np.testing.assert_allclose(got, expected["probs"], rtol=1e-5, atol=1e-6,
                               err_msg=prefix + "_model.keras")
    assert loaded.optimizer is not None and loaded.optimizer.iterations.numpy() == 8
    fresh = keras.models.clone_model(loaded)
    fresh.load_weights(os.path.join(directory, prefix + "_model.weights.h5"))
    np.testing.assert_allclose(fresh.predict(expected["x"], verbose=0), expected["probs"],
                               rtol=1e-5, atol=1e-6, err_msg=prefix + "_model.weights.h5")
    print("%s files load and predict the same (%d predictions)" % (prefix, len(got)))


if __name__ == "__main__":
    command, directory = sys.argv[1], sys.argv[2]
    if command == "record":
        save(directory, "tf")
    elif command == "write":
        # flowgrad as `tensorflow` in a child: this interpreter stays free of any TensorFlow
        code = ("import sys; sys.path.insert(0, %r); import keras_files; "
                "keras_files.save(%r, 'flowgrad')" % (os.path.dirname(os.path.abspath(__file__)),
                                                       directory))
        env = dict(os.environ, PYTHONPATH=ROOT)
        subprocess.run([sys.executable, "-m", "flowgrad", "-c", code], check=True, env=env)
    elif command == "check":
        check(directory, "flowgrad")
        check_export(directory)
        check_lookup_exports(directory)
        check_wider_exports(directory)
    else:
        sys.exit("usage: keras_files.py record|write|check DIR")
