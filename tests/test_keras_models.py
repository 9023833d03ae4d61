"""Keras models: Sequential, functional and subclassed models; compile/fit/evaluate/predict
against a hand-written GradientTape loop; callbacks; weights files; summary.

``keras`` is the TF2 face's ``tf.keras``: the real Keras 3. The tests that pin what
flowgrad's own Keras does where Keras 3 differs (Keras 2 style weight names and files, its
error texts, progress bar, TF1 graph models) use the TF1 face's ``tf.compat.v1.keras``, which
is still flowgrad's own (flowgrad.legacy_keras)."""
import os

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad import keras
from flowgrad.framework.context import state

L = keras.layers


@pytest.fixture(autouse=True)
def eager_mode():
    tf.enable_v2_behavior()
    keras.backend.clear_session()
    tf.keras.backend.clear_session()       # the TF1 face's Keras: its layer names restart
    yield
    state.tapes.clear()


def _data(n=48, d=5, k=3, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, d).astype(np.float32)
    y = (x[:, :k].argmax(1)).astype(np.int64)
    return x, y


def _mlp(seed=0, keras=keras):
    tf2.random.set_seed(seed)
    return keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu"),
                             keras.layers.BatchNormalization(), keras.layers.Dense(3)])


@pytest.mark.parametrize("run_eagerly", [True, False])
def test_fit_matches_gradient_tape_loop(run_eagerly):
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    x, y = _data()
    model = _mlp(keras=keras)
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  run_eagerly=run_eagerly)
    model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)

    ref = _mlp(keras=keras)
    opt = keras.optimizers.Adam(0.01)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(2):
        for i in range(0, 48, 16):
            with tf2.GradientTape() as tape:
                loss = loss_fn(y[i:i + 16], ref(x[i:i + 16], training=True))
            grads = tape.gradient(loss, ref.trainable_variables)
            opt.apply_gradients(zip(grads, ref.trainable_variables))
    assert [(w.name, w.shape) for w in model.weights] == [(w.name, w.shape)
                                                          for w in ref.weights]
    for a, b in zip(model.get_weights(), ref.get_weights()):
        if run_eagerly:
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_fit_history_validation_evaluate_predict():
    x, y = _data(64)
    model = _mlp()
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    hist = model.fit(x, y, batch_size=16, epochs=3, validation_data=(x[:16], y[:16]),
                     verbose=0)
    assert hist is model.history and hist.epoch == [0, 1, 2]
    assert set(hist.history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert all(len(v) == 3 for v in hist.history.values())
    loss, acc = model.evaluate(x, y, batch_size=64, verbose=0)
    probs = model.predict(x, batch_size=10, verbose=0)
    assert probs.shape == (64, 3)
    # Keras: log of the clipped probabilities, then a softmax cross-entropy (renormalizes)
    clipped = np.clip(probs, 1e-7, 1 - 1e-7)
    ref_loss = -np.log(clipped[np.arange(64), y] / clipped.sum(1)).mean()
    np.testing.assert_allclose(loss, ref_loss, rtol=1e-5)
    np.testing.assert_allclose(acc, (probs.argmax(1) == y).mean(), rtol=1e-6)
    assert model.evaluate(x, y, verbose=0, return_dict=True).keys() == {"loss", "accuracy"}
    logs = model.train_on_batch(x[:8], y[:8], return_dict=True)
    assert set(logs) == {"loss", "accuracy"}
    split = model.fit(x, y, validation_split=0.25, epochs=1, verbose=0)
    assert "val_loss" in split.history


def test_fit_accepts_a_tf_data_dataset():
    x, y = _data(32)
    model = _mlp()
    model.compile(keras.optimizers.SGD(0.1), keras.losses.SparseCategoricalCrossentropy(True))
    ds = tf2.data.Dataset.from_tensor_slices((x, y)).batch(8)
    before = model.get_weights()[0].copy()
    hist = model.fit(ds, epochs=2, verbose=0)
    assert len(hist.history["loss"]) == 2
    assert not np.array_equal(before, model.get_weights()[0])
    assert np.isfinite(model.evaluate(ds, verbose=0))


def test_progress_bar_output(capsys):
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    x, y = _data(40)
    model = _mlp(keras=keras)
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x, y, batch_size=10, epochs=2, verbose=1, validation_data=(x, y))
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert lines[1].startswith("4/4 ━━━━━━━━━━━━━━━━━━━━ ")
    assert "ms/step - accuracy: " in lines[1] or "us/step - accuracy: " in lines[1]
    order = [lines[1].index(k) for k in ("- accuracy:", "- loss:", "- val_accuracy:",
                                         "- val_loss:")]
    assert order == sorted(order)
    model.fit(x, y, batch_size=10, epochs=1, verbose=2)
    line = capsys.readouterr().out.strip()
    assert line.startswith("4/4 - ") and "/step - accuracy: " in line
    model.fit(x, y, batch_size=10, epochs=1, verbose=0)
    assert capsys.readouterr().out == ""


def test_functional_model_and_errors():
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    L = keras.layers
    inp = keras.Input((4,), name="features")
    a = L.Dense(3, activation="relu")(inp)
    b = L.Dense(3)(inp)
    out = L.Dense(1)(L.Concatenate()([a, L.Add()([a, b])]))
    model = keras.Model(inp, out)
    assert type(model).__name__ == "Functional" and isinstance(model, keras.Model)
    assert [type(x).__name__ for x in model.layers] == ["InputLayer", "Dense", "Dense", "Add",
                                                         "Concatenate", "Dense"]
    assert model.output_shape == (None, 1)
    x = np.random.RandomState(0).randn(5, 4).astype(np.float32)
    ka, kb = model.layers[1], model.layers[2]
    ha = np.maximum(x @ ka.kernel.numpy() + ka.bias.numpy(), 0)
    hb = x @ kb.kernel.numpy() + kb.bias.numpy()
    top = model.layers[-1]
    ref = np.concatenate([ha, ha + hb], 1) @ top.kernel.numpy() + top.bias.numpy()
    np.testing.assert_allclose(model(x).numpy(), ref, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="expected shape=\\(None, 4\\), found shape=\\(5, 3\\)"):
        model(np.ones((5, 3), np.float32))
    other = keras.Input((4,))
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(other, out)


def test_subclassed_model_trains_and_tracks():
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    L = keras.layers
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = L.Dense(6, activation="tanh")
            self.classifier = L.Dense(3)

        def call(self, x, training=None):
            return self.classifier(self.hidden(x))
    x, y = _data()
    net = Net()
    net.compile(keras.optimizers.Adam(0.05), keras.losses.SparseCategoricalCrossentropy(True),
                metrics=["accuracy"])
    hist = net.fit(x, y, epochs=15, batch_size=16, verbose=0)
    assert hist.history["loss"][-1] < 0.5 * hist.history["loss"][0]
    assert [w.path for w in net.weights] == ["net/dense/kernel", "net/dense/bias",
                                             "net/dense_1/kernel", "net/dense_1/bias"]
    assert set(net.submodules) == {net.hidden, net.classifier}
    assert len(net.trainable_variables) == 4 and isinstance(net, tf2.Module)
    built = Net()
    built.build((None, 5))
    assert built.built and built.hidden.kernel.shape.as_list() == [5, 6]


def test_get_set_weights_and_weight_files(tmp_path):
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    L = keras.layers
    x, y = _data()
    model = _mlp(seed=1, keras=keras)
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(True))
    model.fit(x, y, epochs=1, verbose=0)
    path = str(tmp_path / "model.weights.h5")
    model.save_weights(path)
    assert os.listdir(tmp_path) == ["model.weights.h5"]      # no temporary file left behind
    other = _mlp(seed=2, keras=keras)
    assert not np.array_equal(other.get_weights()[0], model.get_weights()[0])
    other.load_weights(path)
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(model.predict(x, verbose=0), other.predict(x, verbose=0))
    with pytest.raises(ValueError, match="weight list of length 1, but the layer was "
                                         "expecting 8 weights"):
        other.set_weights([np.zeros(1)])
    bad = [np.zeros(1)] + other.get_weights()[1:]
    with pytest.raises(ValueError, match=r"weight shape \(5, 8\) is not compatible with "
                                         r"provided weight shape \(1,\)"):
        other.set_weights(bad)
    wide = keras.Sequential([keras.Input((5,)), L.Dense(9), L.BatchNormalization(), L.Dense(3)])
    with pytest.raises(ValueError, match=r"sequential_2/dense_4/kernel.*shape \(5, 9\).*"
                                         r"file holds shape \(5, 8\)"):
        wide.load_weights(path)


def test_callbacks_early_stopping_tensorboard_lambda(tmp_path):
    pytest.importorskip("tensorboard")
    x, y = _data()
    model = keras.Sequential([keras.Input((5,)), L.Dense(3)])
    model.compile(keras.optimizers.SGD(0.0), keras.losses.SparseCategoricalCrossentropy(True))
    seen = []
    log_dir = str(tmp_path / "logs")
    hist = model.fit(x, y, epochs=10, verbose=0, validation_data=(x, y), callbacks=[
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=2),
        keras.callbacks.TensorBoard(log_dir=log_dir),
        keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e))])
    assert hist.epoch == [0, 1, 2] and seen == [0, 1, 2]      # no improvement with lr 0
    assert sorted(os.listdir(log_dir)) == ["train", "validation"]
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(os.path.join(log_dir, "validation"))
    acc.Reload()
    tags = acc.Tags()
    names = set(tags.get("scalars", [])) | set(tags.get("tensors", []))
    assert "epoch_loss" in names


def test_compile_errors_and_summary(capsys):
    model = _mlp()
    with pytest.raises(ValueError, match="must call `compile\\(\\)`"):     # as Keras
        model.fit(np.ones((2, 5), np.float32), np.zeros(2))
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        model.compile("nope", "mse")
    model.compile("sgd", None)
    with pytest.raises(ValueError, match="No loss to compute"):
        model.fit(np.ones((2, 5), np.float32), np.zeros(2), verbose=0)
    model.summary()
    out = capsys.readouterr().out
    assert 'Model: "sequential"' in out and "dense (Dense)" in out
    assert "(None, 8)" in out and "Total params: 107" in out
    assert "Non-trainable params: 16" in out
    with pytest.raises(ValueError, match="unique names"):
        keras.Sequential([L.Dense(2, name="a"), L.Dense(2, name="a")])


def test_python_operators_on_keras_tensors_become_layers():
    inp = keras.Input((3,))
    h = L.Dense(3)(inp)
    model = keras.Model(inp, ((h + inp) * 2.0 - 1.0)[:, :2])
    x = np.random.RandomState(0).randn(4, 3).astype(np.float32)
    d = model.layers[1]
    ref = ((x @ d.kernel.numpy() + d.bias.numpy() + x) * 2 - 1)[:, :2]
    np.testing.assert_allclose(model(x).numpy(), ref, rtol=1e-5, atol=1e-6)
    assert model.output_shape == (None, 2) and len(model.weights) == 2


def test_tf1_graph_sequential_trains_with_session():
    tf.disable_v2_behavior()
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int64, [None])
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.Dense(3)])
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=model(x)))
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    assert [v.name for v in tf.trainable_variables()] == [
        "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
    xs = np.random.RandomState(0).randn(64, 4).astype(np.float32)
    ys = xs[:, :3].argmax(1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss, {x: xs, y: ys})
        for _ in range(60):
            sess.run(train, {x: xs, y: ys})
        assert sess.run(loss, {x: xs, y: ys}) < 0.2 * first


def test_fit_with_dropout_is_reproducible_with_a_global_seed():
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    L = keras.layers
    x, y = _data()

    def run():
        tf2.random.set_seed(7)
        model = keras.Sequential([keras.Input((5,)), L.Dense(16, activation="relu"),
                                  L.Dropout(0.5), L.Dense(3)])
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(x, y, batch_size=16, epochs=2, verbose=0)
        return model.get_weights()
    for a, b in zip(run(), run()):
        np.testing.assert_array_equal(a, b)


def test_class_weight_equals_sample_weight_and_model_checkpoint(tmp_path):
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    x, y = _data()
    cw = {0: 1.0, 1: 2.0, 2: 0.5}
    results = []
    for kwargs in ({"class_weight": cw},
                   {"sample_weight": np.array([cw[int(c)] for c in y], np.float32)}):
        model = _mlp(seed=3, keras=keras)
        model.compile(keras.optimizers.SGD(0.1),
                      keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0, **kwargs)
        results.append(model.get_weights())
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="labels \\[2\\] have no weight"):
        model.fit(x, y, class_weight={0: 1.0, 1: 1.0}, verbose=0)
    path = str(tmp_path / "best-{epoch:02d}.weights.h5")
    model.fit(x, y, epochs=3, verbose=0, validation_data=(x, y), callbacks=[
        keras.callbacks.ModelCheckpoint(path, save_best_only=True, save_weights_only=True)])
    saved = sorted(os.listdir(tmp_path))
    assert saved and saved[0] == "best-01.weights.h5"
    with pytest.raises(NotImplementedError, match="save_weights_only=True"):
        keras.callbacks.ModelCheckpoint(path)


def test_regularization_losses_join_the_compiled_loss():
    x, y = _data(16)
    tf2.random.set_seed(0)
    model = keras.Sequential([keras.Input((5,)),
                              L.Dense(3, kernel_regularizer=keras.regularizers.L2(0.1),
                                      activity_regularizer="l1")])
    model.compile(keras.optimizers.SGD(0.0),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    logs = model.train_on_batch(x, y, return_dict=True)
    logits = model.predict(x, verbose=0)
    k = model.layers[0].kernel.numpy()
    base = float(keras.losses.SparseCategoricalCrossentropy(from_logits=True)(y, logits))
    expected = base + 0.1 * (k ** 2).sum() + 0.01 * np.abs(logits).sum() / 16
    np.testing.assert_allclose(logs["loss"], expected, rtol=1e-5)
    assert len(model.losses) == 2


def test_loading_a_foreign_weights_file_is_a_clear_error(tmp_path):
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    path = tmp_path / "model.weights.h5"
    path.write_bytes(b"\x89HDF\r\n\x1a\n" + b"\0" * 32)
    model = _mlp(keras=keras)
    with pytest.raises(OSError, match="not a flowgrad Keras weights file"):    # as Keras
        model.load_weights(str(path))
    with pytest.raises(NotImplementedError, match="save_weights"):
        keras.models.load_model(str(path))


def test_fit_on_generators_and_repeated_datasets():
    keras = tf.keras      # the TF1 face's Keras (see the module docstring)
    L = keras.layers
    x, y = _data(40)
    model = keras.Sequential([keras.Input((5,)), L.Dense(3)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))

    def batches():
        for i in range(0, 40, 10):
            yield x[i:i + 10], y[i:i + 10]
    with pytest.warns(UserWarning, match="Your input ran out of data"):
        hist = model.fit(batches(), epochs=3, verbose=0)
    assert hist.epoch == [0]                 # a generator is used up by the first epoch
    seen = []
    ds = tf2.data.Dataset.from_tensor_slices((x, y)).batch(10).repeat()
    model.fit(ds, epochs=3, steps_per_epoch=3, verbose=0, callbacks=[
        keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(b))])
    assert seen == [0, 1, 2] * 3
