"""TF1 recurrent networks: cells, dynamic_rnn/static_rnn/bidirectional_dynamic_rnn."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from tests.gradcheck import check_gradients

rnn_cell = tf.nn.rnn_cell


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _feeding_getter(values):
    """A custom getter that returns the given tensors instead of creating variables (so that
    gradient checks can treat a cell's weights as inputs)."""
    def getter(getter, name, *args, **kwargs):
        return values[name.split("/")[-1]]
    return getter


def _np_lstm(x, c, h, kernel, bias, forget_bias=1.0):
    i, j, f, o = np.split(np.concatenate([x, h], 1) @ kernel + bias, 4, axis=1)
    c = c * _sigmoid(f + forget_bias) + _sigmoid(i) * np.tanh(j)
    return np.tanh(c) * _sigmoid(o), c


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


# -- variable names -----------------------------------------------------------------------

@pytest.mark.parametrize("make, names", [
    (lambda: rnn_cell.BasicRNNCell(4), ["rnn/basic_rnn_cell/kernel:0",
                                        "rnn/basic_rnn_cell/bias:0"]),
    (lambda: rnn_cell.BasicLSTMCell(4), ["rnn/basic_lstm_cell/kernel:0",
                                         "rnn/basic_lstm_cell/bias:0"]),
    (lambda: rnn_cell.GRUCell(4), ["rnn/gru_cell/gates/kernel:0", "rnn/gru_cell/gates/bias:0",
                                   "rnn/gru_cell/candidate/kernel:0",
                                   "rnn/gru_cell/candidate/bias:0"]),
    (lambda: rnn_cell.LSTMCell(4, use_peepholes=True, num_proj=2),
     ["rnn/lstm_cell/kernel:0", "rnn/lstm_cell/bias:0", "rnn/lstm_cell/w_f_diag:0",
      "rnn/lstm_cell/w_i_diag:0", "rnn/lstm_cell/w_o_diag:0",
      "rnn/lstm_cell/projection/kernel:0"]),
    (lambda: rnn_cell.MultiRNNCell([rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4)),
                                    rnn_cell.GRUCell(3)]),
     ["rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0",
      "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias:0",
      "rnn/multi_rnn_cell/cell_1/gru_cell/gates/kernel:0",
      "rnn/multi_rnn_cell/cell_1/gru_cell/gates/bias:0",
      "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel:0",
      "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias:0"]),
])
def test_dynamic_rnn_variable_names_and_shapes(make, names):
    x = tf.placeholder(tf.float32, [None, 7, 3])
    cell = make()
    outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    assert [v.name for v in tf.global_variables()] == names
    assert [v.name for v in cell.trainable_variables] == names
    assert outputs.shape.as_list() == [None, 7, cell.output_size]
    values = _run([outputs, state], {x: np.ones((2, 7, 3), np.float32)})
    assert values[0].shape == (2, 7, cell.output_size)


def test_variable_shapes_and_initializers_follow_tensorflow():
    x = tf.placeholder(tf.float32, [2, 5, 3])
    tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32, scope="lstm")
    tf.nn.dynamic_rnn(rnn_cell.GRUCell(4), x, dtype=tf.float32, scope="gru")
    shapes = {v.name: v.shape.as_list() for v in tf.global_variables()}
    assert shapes == {"lstm/basic_lstm_cell/kernel:0": [7, 16],
                      "lstm/basic_lstm_cell/bias:0": [16],
                      "gru/gru_cell/gates/kernel:0": [7, 8], "gru/gru_cell/gates/bias:0": [8],
                      "gru/gru_cell/candidate/kernel:0": [7, 4],
                      "gru/gru_cell/candidate/bias:0": [4]}
    values = dict(zip(shapes, _run(tf.global_variables())))
    assert (values["lstm/basic_lstm_cell/bias:0"] == 0).all()
    assert (values["gru/gru_cell/gates/bias:0"] == 1).all()
    assert (values["gru/gru_cell/candidate/bias:0"] == 0).all()
    limit = np.sqrt(6 / (7 + 16))           # glorot uniform
    kernel = values["lstm/basic_lstm_cell/kernel:0"]
    assert np.abs(kernel).max() <= limit and kernel.std() > limit / 4


def test_bidirectional_and_static_rnn_names():
    x = tf.placeholder(tf.float32, [2, 4, 3])
    tf.nn.bidirectional_dynamic_rnn(rnn_cell.BasicLSTMCell(2), rnn_cell.BasicLSTMCell(2), x,
                                    dtype=tf.float32)
    tf.nn.static_rnn(rnn_cell.GRUCell(2), tf.unstack(x, axis=1), dtype=tf.float32)
    assert [v.name for v in tf.global_variables()] == [
        "bidirectional_rnn/fw/basic_lstm_cell/kernel:0",
        "bidirectional_rnn/fw/basic_lstm_cell/bias:0",
        "bidirectional_rnn/bw/basic_lstm_cell/kernel:0",
        "bidirectional_rnn/bw/basic_lstm_cell/bias:0",
        "rnn/gru_cell/gates/kernel:0", "rnn/gru_cell/gates/bias:0",
        "rnn/gru_cell/candidate/kernel:0", "rnn/gru_cell/candidate/bias:0"]


# -- the cells' arithmetic ------------------------------------------------------------------

def test_basic_lstm_cell_matches_numpy_with_gate_order_ijfo():
    rng = np.random.RandomState(0)
    x, c, h = rng.randn(3, 2), rng.randn(3, 4), rng.randn(3, 4)
    kernel, bias = rng.randn(6, 16), rng.randn(16)
    cell = rnn_cell.BasicLSTMCell(4, forget_bias=0.5)
    with tf.variable_scope("s", custom_getter=_feeding_getter(
            {"kernel": tf.constant(kernel), "bias": tf.constant(bias)})):
        out, state = cell(tf.constant(x), rnn_cell.LSTMStateTuple(tf.constant(c), tf.constant(h)))
    got = _run([out, state])
    want_h, want_c = _np_lstm(x, c, h, kernel, bias, forget_bias=0.5)
    np.testing.assert_allclose(got[0], want_h, rtol=1e-10)
    np.testing.assert_allclose(got[1].c, want_c, rtol=1e-10)
    assert isinstance(got[1], rnn_cell.LSTMStateTuple)


def test_lstm_cell_peepholes_projection_and_clipping():
    rng = np.random.RandomState(1)
    x, c, m = rng.randn(2, 3), rng.randn(2, 5) * 3, rng.randn(2, 2)
    w = {"kernel": rng.randn(5, 20), "bias": rng.randn(20), "w_f_diag": rng.randn(5),
         "w_i_diag": rng.randn(5), "w_o_diag": rng.randn(5), "kernel_proj": rng.randn(5, 2)}

    def getter(getter, name, *args, **kwargs):
        key = "kernel_proj" if name.endswith("projection/kernel") else name.split("/")[-1]
        return tf.constant(w[key])
    cell = rnn_cell.LSTMCell(5, use_peepholes=True, num_proj=2, cell_clip=0.7, proj_clip=0.3)
    with tf.variable_scope("s", custom_getter=getter):
        out, state = cell(tf.constant(x), (tf.constant(c), tf.constant(m)))
    got = _run([out, state])
    i, j, f, o = np.split(np.concatenate([x, m], 1) @ w["kernel"] + w["bias"], 4, axis=1)
    new_c = (_sigmoid(f + 1.0 + w["w_f_diag"] * c) * c +
             _sigmoid(i + w["w_i_diag"] * c) * np.tanh(j))
    new_c = np.clip(new_c, -0.7, 0.7)
    new_m = np.clip((_sigmoid(o + w["w_o_diag"] * new_c) * np.tanh(new_c)) @ w["kernel_proj"],
                    -0.3, 0.3)
    np.testing.assert_allclose(got[1].c, new_c, rtol=1e-10)
    np.testing.assert_allclose(got[0], new_m, rtol=1e-10)
    assert cell.state_size == (5, 2) and cell.output_size == 2


def test_gru_and_basic_rnn_cells_match_numpy():
    rng = np.random.RandomState(2)
    x, h = rng.randn(3, 2), rng.randn(3, 4)
    w = {"gates": (rng.randn(6, 8), rng.randn(8)), "candidate": (rng.randn(6, 4), rng.randn(4)),
         "basic_rnn_cell": (rng.randn(6, 4), rng.randn(4))}

    def getter(getter, name, *args, **kwargs):
        part, kind = name.split("/")[-2:]
        return tf.constant(w[part][0 if kind == "kernel" else 1])
    with tf.variable_scope("s", custom_getter=getter):
        gru, _ = rnn_cell.GRUCell(4)(tf.constant(x), tf.constant(h))
        basic, _ = rnn_cell.BasicRNNCell(4)(tf.constant(x), tf.constant(h))
    got_gru, got_basic = _run([gru, basic])
    r, u = np.split(_sigmoid(np.concatenate([x, h], 1) @ w["gates"][0] + w["gates"][1]), 2, 1)
    cand = np.tanh(np.concatenate([x, r * h], 1) @ w["candidate"][0] + w["candidate"][1])
    np.testing.assert_allclose(got_gru, u * h + (1 - u) * cand, rtol=1e-10)
    np.testing.assert_allclose(
        got_basic, np.tanh(np.concatenate([x, h], 1) @ w["basic_rnn_cell"][0] +
                           w["basic_rnn_cell"][1]), rtol=1e-10)


def test_state_is_tuple_false_concatenates_c_and_h():
    x = tf.placeholder(tf.float32, [2, 3, 1])
    _, state = tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(4, state_is_tuple=False), x,
                                 dtype=tf.float32)
    assert state.shape.as_list() == [2, 8]


# -- gradients ----------------------------------------------------------------------------

def _lstm_unrolled(x, h0, c0, kernel, bias):
    cell = rnn_cell.BasicLSTMCell(2)
    with tf.variable_scope("lstm", custom_getter=_feeding_getter({"kernel": kernel,
                                                                  "bias": bias})):
        state = rnn_cell.LSTMStateTuple(c0, h0)
        outs = []
        for t in range(2):
            out, state = cell(x[:, t], state)
            outs.append(out)
    return [tf.stack(outs, 1), state.c]


_LSTM_INPUTS = [np.random.RandomState(3).randn(*s) * 0.5
                for s in [(2, 2, 3), (2, 2), (2, 2), (5, 8), (8,)]]


def test_lstm_cell_gradients_order_two_graph():
    check_gradients(_lstm_unrolled, _LSTM_INPUTS, order=2)


def test_lstm_cell_gradients_order_two_eager():
    tf.enable_v2_behavior()
    check_gradients(_lstm_unrolled, _LSTM_INPUTS, order=2, mode="eager")


def test_dynamic_rnn_gradients_through_the_while_loop():
    def fn(x, kernel, bias):
        cell = rnn_cell.BasicLSTMCell(2)
        with tf.variable_scope("d", custom_getter=_feeding_getter({"kernel": kernel,
                                                                   "bias": bias})):
            out, state = tf.nn.dynamic_rnn(cell, x, sequence_length=[3, 1], dtype=tf.float64)
        return [out, state.c]
    rng = np.random.RandomState(4)
    check_gradients(fn, [rng.randn(2, 3, 2) * 0.5, rng.randn(4, 8) * 0.5, rng.randn(8) * 0.5],
                    order=2)


def test_dynamic_rnn_eager_matches_graph():
    rng = np.random.RandomState(8)
    xv, kernel, bias = rng.randn(2, 4, 3), rng.randn(5, 8), rng.randn(8)

    def build(x, k, b):
        with tf.variable_scope("e", custom_getter=_feeding_getter({"kernel": k, "bias": b})):
            return tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(2), x, sequence_length=[4, 2],
                                     dtype=tf.float64)
    x = tf.constant(xv)
    out, state = build(x, tf.constant(kernel), tf.constant(bias))
    graph_out, graph_c, graph_grad = _run([out, state.c, tf.gradients(out, x)[0]])
    tf.enable_v2_behavior()
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out, state = build(x, tf.constant(kernel), tf.constant(bias))
    np.testing.assert_allclose(out.numpy(), graph_out, rtol=1e-12)
    np.testing.assert_allclose(state.c.numpy(), graph_c, rtol=1e-12)
    np.testing.assert_allclose(tape.gradient(out, x).numpy(), graph_grad, rtol=1e-10)


def test_gradients_reach_every_variable():
    x = tf.placeholder(tf.float32, [3, 4, 2])
    cell = rnn_cell.MultiRNNCell([rnn_cell.LSTMCell(3, use_peepholes=True),
                                  rnn_cell.GRUCell(2)])
    out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    grads = tf.gradients(tf.reduce_sum(out), tf.trainable_variables())
    values = _run(grads, {x: np.random.RandomState(0).randn(3, 4, 2)})
    assert len(values) == 9 and all(np.abs(g).sum() > 0 for g in values)


# -- sequence_length, static_rnn, bidirectional ------------------------------------------------

def test_sequence_length_zeroes_outputs_and_copies_state_through():
    rng = np.random.RandomState(5)
    xv = rng.randn(3, 5, 2).astype(np.float32)
    x = tf.placeholder(tf.float32, [3, None, 2])
    cell = rnn_cell.BasicLSTMCell(4)
    out, state = tf.nn.dynamic_rnn(cell, x, sequence_length=[5, 2, 0], dtype=tf.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        o, s = sess.run([out, state], {x: xv})
        o2, s2 = sess.run([out, state], {x: xv[:, :2]})
    assert (o[1, 2:] == 0).all() and (o[2] == 0).all() and (o[0] != 0).all()
    np.testing.assert_allclose(s.h[1], o[1, 1], rtol=1e-6)
    np.testing.assert_allclose(s.h[1], s2.h[1], rtol=1e-6)
    np.testing.assert_allclose(o[1, :2], o2[1], rtol=1e-6)
    assert (s.c[2] == 0).all() and (s.h[2] == 0).all()       # zero steps: the initial state
    np.testing.assert_allclose(s.h[0], o[0, -1], rtol=1e-6)


def test_static_rnn_and_dynamic_rnn_agree():
    rng = np.random.RandomState(6)
    xv = rng.randn(2, 4, 3).astype(np.float32)
    x = tf.constant(xv)
    cell = rnn_cell.GRUCell(5)
    with tf.variable_scope("shared") as scope:
        d_out, d_state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, time_major=False)
        scope.reuse_variables()
        s_out, s_state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32,
                                          sequence_length=[4, 3])
        t_out, _ = tf.nn.dynamic_rnn(cell, tf.transpose(x, [1, 0, 2]), dtype=tf.float32,
                                     time_major=True)
    assert len(tf.global_variables()) == 4
    d, ss, so, t = _run([d_out, s_state, s_out, t_out])
    np.testing.assert_allclose(np.stack(so[:3], 1), d[:, :3], rtol=1e-5)
    np.testing.assert_allclose(so[3][1], 0)
    np.testing.assert_allclose(ss[1], d[1, 2], rtol=1e-5)
    np.testing.assert_allclose(t.transpose(1, 0, 2), d, rtol=1e-6)


def test_bidirectional_backward_direction_reverses_each_sequence():
    rng = np.random.RandomState(7)
    xv = rng.randn(2, 4, 3).astype(np.float32)
    lengths = [4, 2]
    x = tf.constant(xv)
    bw = rnn_cell.BasicRNNCell(3)
    (out_fw, out_bw), (_, st_bw) = tf.nn.bidirectional_dynamic_rnn(
        rnn_cell.BasicRNNCell(3), bw, x, sequence_length=lengths, dtype=tf.float32)
    reversed_x = np.stack([np.concatenate([xv[b, :n][::-1], xv[b, n:]]) for b, n in
                           zip(range(2), lengths)])
    with tf.variable_scope("bidirectional_rnn/bw", reuse=True):
        ref, _ = tf.nn.dynamic_rnn(bw, tf.constant(reversed_x), sequence_length=lengths,
                                   dtype=tf.float32)
    o_bw, s_bw, r = _run([out_bw, st_bw, ref])
    for b, n in enumerate(lengths):
        np.testing.assert_allclose(o_bw[b, :n], r[b, :n][::-1], rtol=1e-6)
        assert (o_bw[b, n:] == 0).all()
    np.testing.assert_allclose(s_bw, r[np.arange(2), np.array(lengths) - 1], rtol=1e-6)


def test_dropout_wrapper():
    x = tf.placeholder(tf.float32, [200, 1, 10])
    keep_all = rnn_cell.DropoutWrapper(rnn_cell.BasicRNNCell(50), output_keep_prob=1.0)
    half = rnn_cell.DropoutWrapper(rnn_cell.BasicRNNCell(50), output_keep_prob=0.5, seed=1)
    out1, _ = tf.nn.dynamic_rnn(keep_all, x, dtype=tf.float32, scope="a")
    out2, _ = tf.nn.dynamic_rnn(half, x, dtype=tf.float32, scope="b")
    assert [v.name for v in tf.global_variables()][0] == "a/basic_rnn_cell/kernel:0"
    o1, o2 = _run([out1, out2], {x: np.ones((200, 1, 10), np.float32)})
    assert (o1 != 0).all()
    assert 0.4 < (o2 == 0).mean() < 0.6
    with pytest.raises(ValueError, match="output_keep_prob must be between 0 and 1"):
        rnn_cell.DropoutWrapper(rnn_cell.BasicRNNCell(2), output_keep_prob=1.5)


# -- errors ---------------------------------------------------------------------------------

def test_bad_input_errors():
    cell = rnn_cell.BasicLSTMCell(2)
    x = tf.placeholder(tf.float32, [2, 3, 4])
    with pytest.raises(ValueError, match="you must give a dtype"):
        tf.nn.dynamic_rnn(cell, x)
    with pytest.raises(ValueError, match="rank at least 2"):
        tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [3]), dtype=tf.float32)
    with pytest.raises(ValueError, match="sequence_length must be a vector"):
        tf.nn.dynamic_rnn(cell, x, sequence_length=[[1]], dtype=tf.float32)
    with pytest.raises(TypeError, match="is not an RNNCell"):
        tf.nn.dynamic_rnn(object(), x, dtype=tf.float32)
    with pytest.raises(ValueError, match="Input size .* must be accessible"):
        tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [2, 3, None]), dtype=tf.float32)
    with pytest.raises(ValueError, match="at least one cell"):
        rnn_cell.MultiRNNCell([])


# -- learning -------------------------------------------------------------------------------

def test_lstm_learns_to_count_ones():
    """An LSTM classifier learns whether a bit sequence holds more ones than zeros."""
    rng = np.random.RandomState(0)
    bits = rng.randint(0, 2, size=(512, 9, 1)).astype(np.float32)
    labels = (bits.sum((1, 2)) > 4).astype(np.int32)
    tf.set_random_seed(0)
    x = tf.placeholder(tf.float32, [None, 9, 1])
    y = tf.placeholder(tf.int32, [None])
    _, state = tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(16), x, dtype=tf.float32)
    logits = tf.layers.dense(state.h, 2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=logits))
    train = tf.train.AdamOptimizer(0.02).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y),
                                      tf.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(150):
            idx = rng.randint(0, 512, 64)
            sess.run(train, {x: bits[idx], y: labels[idx]})
        assert sess.run(accuracy, {x: bits, y: labels}) > 0.95


def test_rnn_mnist_example_learns(capsys):
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parent.parent / "examples" / "rnn_mnist.py"
    spec = importlib.util.spec_from_file_location("rnn_mnist", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    status = module.main(["--steps", "60", "--units", "32", "--log-every", "30",
                          "--test-examples", "500", "--lr", "0.01", "--target", "0.6"])
    out = capsys.readouterr().out
    assert "step    30  loss" in out and "test accuracy" in out
    assert status == 0, out


def test_residual_and_device_wrappers():
    x = tf.placeholder(tf.float32, [2, 3, 4])
    cell = rnn_cell.ResidualWrapper(rnn_cell.DeviceWrapper(rnn_cell.GRUCell(4), "/cpu:0"))
    out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    plain, _ = tf.nn.dynamic_rnn(cell.wrapped_cell.wrapped_cell, x, dtype=tf.float32,
                                 scope="rnn")
    assert [v.name for v in tf.global_variables()][0] == "rnn/gru_cell/gates/kernel:0"
    assert len(tf.global_variables()) == 4
    xv = np.random.RandomState(9).randn(2, 3, 4)
    o, p = _run([out, plain], {x: xv})
    np.testing.assert_allclose(o, p + xv, rtol=1e-5, atol=1e-6)   # float32 sums
    with pytest.raises(ValueError):
        tf.nn.dynamic_rnn(rnn_cell.ResidualWrapper(rnn_cell.GRUCell(3)), x, dtype=tf.float32,
                          scope="bad")


def test_variational_dropout_uses_one_mask_for_every_step():
    x = tf.placeholder(tf.float32, [1, 6, 3])
    cell = rnn_cell.DropoutWrapper(rnn_cell.BasicRNNCell(400), output_keep_prob=0.5,
                                   variational_recurrent=True, dtype=tf.float32, seed=3)
    out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    o = _run(out, {x: np.ones((1, 6, 3), np.float32)})[0]
    dropped = o == 0
    assert 0.4 < dropped[0].mean() < 0.6
    assert (dropped == dropped[0]).all()          # the same units at every time step
    with pytest.raises(ValueError, match="dtype must be provided"):
        rnn_cell.DropoutWrapper(rnn_cell.GRUCell(2), variational_recurrent=True)
    with pytest.raises(ValueError, match="input_size must be provided"):
        rnn_cell.DropoutWrapper(rnn_cell.GRUCell(2), input_keep_prob=0.5,
                                variational_recurrent=True, dtype=tf.float32)
