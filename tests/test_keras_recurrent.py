"""Keras recurrent layers: SimpleRNN, LSTM, GRU, Bidirectional (Keras 3 weights and math).

``layers`` is the TF2 face's ``tf.keras.layers``: the real Keras 3. The tests that pin what
flowgrad's own Keras does where Keras 3 differs (its argument checks and messages, Keras 2's
``time_major``, float64 Bidirectional, stacked cells' weight names) use the TF1 face's
``tf.compat.v1.keras``, which is still flowgrad's own (flowgrad.legacy_keras)."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state
from tests.gradcheck import check_gradients

layers = tf.keras.layers


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour); conftest starts every test in graph mode."""
    tf1.enable_v2_behavior()
    tf.keras.backend.clear_session()
    tf1.keras.backend.clear_session()      # the TF1 face's Keras: its layer names restart
    yield
    state.tapes.clear()


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _np_lstm(x, kernel, rec, bias, h, c):
    outs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ rec + bias
        i, f, g, o = np.split(z, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1), h, c


def _np_gru(x, kernel, rec, bias, h, reset_after):
    n = h.shape[1]
    outs = []
    for t in range(x.shape[1]):
        if reset_after:
            xz, xr, xh = np.split(x[:, t] @ kernel + bias[0], 3, axis=1)
            rz, rr, rh = np.split(h @ rec + bias[1], 3, axis=1)
            z, r = _sigmoid(xz + rz), _sigmoid(xr + rr)
            hh = np.tanh(xh + r * rh)
        else:
            xz, xr, xh = np.split(x[:, t] @ kernel + bias, 3, axis=1)
            z = _sigmoid(xz + h @ rec[:, :n])
            r = _sigmoid(xr + h @ rec[:, n:2 * n])
            hh = np.tanh(xh + (r * h) @ rec[:, 2 * n:])
        h = z * h + (1 - z) * hh
        outs.append(h)
    return np.stack(outs, 1), h


def _random_weights(layer, rng):
    layer.set_weights([rng.randn(*w.shape.as_list()) * 0.5 for w in layer.weights])
    return layer.get_weights()


X = np.random.RandomState(0).randn(3, 5, 4)


def test_weight_paths_shapes_and_initializers():
    lstm, gru, simple = layers.LSTM(6), layers.GRU(6), layers.SimpleRNN(6)
    for layer in (lstm, gru, simple):
        layer(X.astype(np.float32))
    assert [(w.path, tuple(w.shape.as_list())) for w in lstm.weights] == [
        ("lstm/lstm_cell/kernel", (4, 24)), ("lstm/lstm_cell/recurrent_kernel", (6, 24)),
        ("lstm/lstm_cell/bias", (24,))]
    assert [(w.path, tuple(w.shape.as_list())) for w in gru.weights] == [
        ("gru/gru_cell/kernel", (4, 18)), ("gru/gru_cell/recurrent_kernel", (6, 18)),
        ("gru/gru_cell/bias", (2, 18))]
    assert [w.path for w in simple.weights] == [
        "simple_rnn/simple_rnn_cell/kernel", "simple_rnn/simple_rnn_cell/recurrent_kernel",
        "simple_rnn/simple_rnn_cell/bias"]
    bias = lstm.cell.bias.numpy()                 # unit_forget_bias: ones for the f gate
    assert (bias[:6] == 0).all() and (bias[6:12] == 1).all() and (bias[12:] == 0).all()
    for layer in (lstm, gru, simple):            # orthogonal recurrent kernels
        r = layer.cell.recurrent_kernel.numpy()
        np.testing.assert_allclose(r @ r.T, np.eye(6), atol=1e-5)
    assert lstm.count_params() == 4 * 24 + 6 * 24 + 24


def test_lstm_matches_numpy_with_gate_order_ifco():
    rng = np.random.RandomState(1)
    layer = layers.LSTM(3, return_sequences=True, return_state=True, dtype="float64")
    layer(X)
    kernel, rec, bias = _random_weights(layer, rng)
    h0, c0 = rng.randn(3, 3), rng.randn(3, 3)
    seq, h, c = layer(X, initial_state=[tf.constant(h0), tf.constant(c0)])
    want_seq, want_h, want_c = _np_lstm(X, kernel, rec, bias, h0, c0)
    np.testing.assert_allclose(seq.numpy(), want_seq, rtol=1e-10)
    np.testing.assert_allclose(h.numpy(), want_h, rtol=1e-10)
    np.testing.assert_allclose(c.numpy(), want_c, rtol=1e-10)


@pytest.mark.parametrize("reset_after", [True, False])
def test_gru_matches_numpy(reset_after):
    rng = np.random.RandomState(2)
    layer = layers.GRU(3, return_sequences=True, reset_after=reset_after, dtype="float64")
    layer(X)
    kernel, rec, bias = _random_weights(layer, rng)
    want, _ = _np_gru(X, kernel, rec, bias, np.zeros((3, 3)), reset_after)
    np.testing.assert_allclose(layer(X).numpy(), want, rtol=1e-10)


def test_simple_rnn_matches_numpy_and_go_backwards():
    rng = np.random.RandomState(3)
    fwd = layers.SimpleRNN(3, return_sequences=True, dtype="float64")
    bwd = layers.SimpleRNN(3, return_sequences=True, go_backwards=True, dtype="float64")
    fwd(X)
    bwd(X)
    kernel, rec, bias = _random_weights(fwd, rng)
    bwd.set_weights([kernel, rec, bias])
    h = np.zeros((3, 3))
    want = []
    for t in range(5):
        h = np.tanh(X[:, t] @ kernel + h @ rec + bias)
        want.append(h)
    np.testing.assert_allclose(fwd(X).numpy(), np.stack(want, 1), rtol=1e-10)
    np.testing.assert_allclose(bwd(X).numpy(), fwd(X[:, ::-1]).numpy(), rtol=1e-12)
    assert layers.SimpleRNN(3)(X.astype(np.float32)).shape.as_list() == [3, 3]


@pytest.mark.parametrize("make", [lambda: layers.LSTM(4, return_sequences=True),
                                  lambda: layers.GRU(4, return_state=True),
                                  lambda: layers.Bidirectional(layers.SimpleRNN(4))])
def test_tf_function_matches_eager_with_gradients(make):
    layer = make()
    x = tf.constant(X.astype(np.float32))

    def loss_and_grads(inp):
        with tf.GradientTape() as tape:
            out = layer(inp)
            loss = tf.add_n([tf.reduce_sum(o * o) for o in tf.nest.flatten(out)])
        return loss, tape.gradient(loss, layer.trainable_variables)

    eager_loss, eager_grads = loss_and_grads(x)
    graph_fn = tf.function(loss_and_grads)
    graph_loss, graph_grads = graph_fn(x)
    assert "While" in {op.type for op in graph_fn.get_concrete_function(x).graph
                       .get_operations()}
    np.testing.assert_allclose(graph_loss.numpy(), eager_loss.numpy(), rtol=1e-5)
    for g, e in zip(graph_grads, eager_grads):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("make", [lambda: layers.LSTM(2, return_state=True, dtype="float64"),
                                  lambda: layers.GRU(2, return_sequences=True,
                                                     dtype="float64")])
def test_gradients_with_respect_to_inputs_order_two(make):
    layer = make()
    x = np.random.RandomState(4).randn(2, 3, 2)
    layer(x)
    check_gradients(lambda inp: layer(inp), [x], order=2, mode="eager")


def test_bidirectional_layers_names_and_merge_modes():
    layers = tf1.keras.layers     # the TF1 face's Keras (see the module docstring)
    rng = np.random.RandomState(5)
    bi = layers.Bidirectional(layers.LSTM(3, return_sequences=True, dtype="float64"))
    out = bi(X)
    assert out.shape.as_list() == [3, 5, 6]
    assert [w.path for w in bi.weights][::3] == ["bidirectional/forward_lstm/lstm_cell/kernel",
                                                 "bidirectional/backward_lstm/lstm_cell/kernel"]
    weights = _random_weights(bi, rng)
    ref = layers.LSTM(3, return_sequences=True, dtype="float64")
    ref(X)
    ref.set_weights(weights[3:])
    np.testing.assert_allclose(bi(X).numpy()[..., 3:], ref(X[:, ::-1]).numpy()[:, ::-1],
                               rtol=1e-10)
    ref.set_weights(weights[:3])
    np.testing.assert_allclose(bi(X).numpy()[..., :3], ref(X).numpy(), rtol=1e-10)
    summed = layers.Bidirectional(layers.GRU(3, return_state=True), merge_mode="sum")
    result = summed(X.astype(np.float32))
    assert len(result) == 3 and result[0].shape.as_list() == [3, 3]
    pair = layers.Bidirectional(layers.SimpleRNN(2), merge_mode=None)(X.astype(np.float32))
    assert isinstance(pair, list) and len(pair) == 2


def test_functional_model_with_recurrent_layers():
    inputs = tf.keras.Input((5, 4))
    seq = layers.Bidirectional(layers.GRU(3, return_sequences=True))(inputs)
    out, h, c = layers.LSTM(2, return_state=True)(seq)
    model = tf.keras.Model(inputs, [out, c])
    assert seq.shape == (None, 5, 6) and out.shape == (None, 2)
    values = model(X.astype(np.float32))
    assert values[0].shape.as_list() == [3, 2] and values[1].shape.as_list() == [3, 2]


def test_dropout_only_in_training():
    layer = layers.LSTM(8, dropout=0.5, recurrent_dropout=0.5, seed=1)
    x = X.astype(np.float32)
    a, b = layer(x, training=False), layer(x, training=False)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    c = layer(x, training=True)
    assert np.abs(c.numpy() - a.numpy()).max() > 1e-3


def test_bad_arguments():
    layers = tf1.keras.layers     # the TF1 face's Keras (see the module docstring)
    with pytest.raises(ValueError, match="invalid value for argument `units`"):
        layers.LSTM(0)
    with pytest.raises(ValueError, match="expected min_ndim=3, found ndim=2"):
        layers.GRU(2)(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match="recurrent layer instance"):
        layers.Bidirectional(layers.Dense(3))
    with pytest.raises(ValueError, match="Invalid merge mode"):
        layers.Bidirectional(layers.LSTM(3), merge_mode="max")
    with pytest.raises(ValueError, match="expects 2 initial state"):
        layers.LSTM(2)(X.astype(np.float32), initial_state=[tf.zeros([3, 2])])
    with pytest.raises(ValueError, match="`dropout`"):
        layers.LSTM(2, dropout=1.5)


def test_lstm_model_learns_with_fit():
    """A Keras LSTM classifier learns whether a bit sequence holds more ones than zeros."""
    rng = np.random.RandomState(0)
    bits = rng.randint(0, 2, size=(512, 9, 1)).astype(np.float32)
    labels = (bits.sum((1, 2)) > 4).astype(np.int32)
    tf.random.set_seed(0)
    model = tf.keras.Sequential([layers.LSTM(16), layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02), metrics=["accuracy"],
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(bits, labels, batch_size=64, epochs=14, verbose=0)   # 8 gave 0.947-0.96
    assert model.evaluate(bits, labels, verbose=0)[1] > 0.95


def test_orthogonal_initializer():
    init = tf.keras.initializers.get("orthogonal")
    wide = tf.keras.initializers.Orthogonal(gain=2.0, seed=3)((3, 7)).numpy()
    np.testing.assert_allclose(wide @ wide.T, 4 * np.eye(3), atol=1e-5)
    tall = init((2, 3, 4)).numpy().reshape(6, 4)
    np.testing.assert_allclose(tall.T @ tall, np.eye(4), atol=1e-5)
    with pytest.raises(ValueError, match="at least two-dimensional"):
        init((5,))


def test_rnn_over_stacked_cells_matches_stacked_layers():
    layers = tf1.keras.layers     # the TF1 face's Keras (see the module docstring)
    rng = np.random.RandomState(6)
    stacked = layers.RNN([layers.LSTMCell(4, dtype="float64"), layers.GRUCell(3, dtype="float64")],
                         return_sequences=True, return_state=True, dtype="float64")
    out, h1, c1, h2 = stacked(X)
    assert [s.shape.as_list() for s in (out, h1, c1, h2)] == [[3, 5, 3], [3, 4], [3, 4], [3, 3]]
    weights = _random_weights(stacked, rng)
    first = layers.LSTM(4, return_sequences=True, dtype="float64")
    second = layers.GRU(3, return_sequences=True, dtype="float64")
    second(first(X))
    first.set_weights(weights[:3])
    second.set_weights(weights[3:])
    want = second(first(X)).numpy()
    graph_out = tf.function(lambda x: stacked(x)[0])(tf.constant(X)).numpy()
    np.testing.assert_allclose(stacked(X)[0].numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(graph_out, want, rtol=1e-10)


def test_time_major_and_tf2_keyword_arguments():
    layers = tf1.keras.layers     # the TF1 face's Keras (see the module docstring)
    layer = layers.LSTM(3, return_sequences=True, time_major=True, implementation=2,
                        dtype="float64")
    out = layer(X.transpose(1, 0, 2))
    ref = layers.LSTM(3, return_sequences=True, dtype="float64")
    ref(X)
    ref.set_weights(layer.get_weights())
    np.testing.assert_allclose(out.numpy(), ref(X).numpy().transpose(1, 0, 2), rtol=1e-12)


@pytest.mark.parametrize("compiled", [False, True])
def test_mask_skips_steps_keeping_states_and_outputs(compiled):
    mask = np.array([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 1, 1, 0]], bool)
    layer = layers.LSTM(3, return_sequences=True, return_state=True, dtype="float64")
    layer(X)
    run = tf.function(lambda x, m: layer(x, mask=m)) if compiled else \
        (lambda x, m: layer(x, mask=m))
    seq, h, c = [t.numpy() for t in run(tf.constant(X), tf.constant(mask))]
    short = layer(X[1:2, :2])                       # example 1: only its first two steps
    np.testing.assert_allclose(seq[1, :2], short[0].numpy()[0], rtol=1e-10)
    np.testing.assert_allclose(seq[1, 2:], np.repeat(seq[1, 1:2], 3, 0), rtol=1e-12)
    np.testing.assert_allclose(h[1], short[1].numpy()[0], rtol=1e-10)
    np.testing.assert_allclose(c[1], short[2].numpy()[0], rtol=1e-10)
    skip = layer(X[2:3, [0, 2, 3]])                 # example 2: steps 0, 2, 3
    np.testing.assert_allclose(h[2], skip[1].numpy()[0], rtol=1e-10)
    full = layer(X[:1])
    np.testing.assert_allclose(seq[0], full[0].numpy()[0], rtol=1e-12)
    zeroed = layers.GRU(2, return_sequences=True, zero_output_for_mask=True)
    out = zeroed(X.astype(np.float32), mask=mask).numpy()
    assert (out[1, 2:] == 0).all() and (out[0] != 0).all()
    bi = layers.Bidirectional(layers.SimpleRNN(2), dtype="float64")
    assert bi(X, mask=mask).shape.as_list() == [3, 4]
