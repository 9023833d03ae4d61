"""Writes training programs whose gradients go through loops with real TensorFlow 2.21
(tests/data/tf_loop_training/), for flowgrad to resume (issue 22: a while loop's gradient
and a growing TensorArray, both ways).

Run with the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/make_loop_training.py

TF1 training graphs (``.meta`` + checkpoint, written by ``tf.compat.v1.train.Saver`` right
after initialization), each with control flow v2 (``<name>_cfv2``: While ops whose gradient
pops the forward loop's TensorList accumulators, as ``enable_control_flow_v2`` makes them)
and v1 (``<name>_cfv1``: Enter/Exit/Merge/Switch/NextIteration frames with stacks, as
``disable_v2_behavior`` makes them):

- ``lstm_adam``: ``tf.compat.v1.nn.dynamic_rnn`` of an LSTM cell (TF1's LSTMCell written out:
  Keras 3's TensorFlow has no ``rnn_cell`` classes), a dense head, mean squared error, Adam;
- ``loop_tensor_array``: a ``tf.while_loop`` writing a growing ``tf.TensorArray``
  (``dynamic_size=True``), its ``stack()`` in the loss, ``tf.gradients`` and
  ``apply_gradients`` of gradient descent.

``<name>.npz``: the batch (``x``, ``y``) and TensorFlow's loss at each of ``STEPS`` runs of
``[loss, train_op]`` after the restore.

Control flow v1 only (``<kind>_cfv1``, 4 steps each; ``python make_loop_training.py cfv1``
records just these and ``frozen_rnn_cfv1``): ``cond`` (nested ``tf.cond`` whose predicate is
the global step's parity, so every step takes the other branch), ``nested_loops`` (a
``while_loop`` in a ``while_loop``, Adam), ``cond_in_loop`` (a ``tf.cond`` in a loop body: the
gradient's stack pushes sit in the branches), ``rnn_sequence_length`` (``dynamic_rnn`` with a
``sequence_length`` placeholder with default), ``bidirectional``
(``bidirectional_dynamic_rnn`` with ``sequence_length``), ``map_fn_scan``,
``batch_norm_cond`` (TF1's ``batch_normalization`` written out, with a ``training``
placeholder: a ``tf.cond``, its moving averages in ``UPDATE_OPS``; the ``.npz`` also holds
``evals``, the loss with ``training`` False after each step) and
``case_max_iterations`` (``tf.case`` after a ``while_loop`` with ``maximum_iterations``).

``frozen_rnn_cfv1.pb``: a frozen control-flow-v1 inference graph (``dynamic_rnn`` with
``sequence_length``, ``tf.cond``, ``map_fn``, a growing TensorArray) and its outputs for two
batches (``frozen_rnn_cfv1.npz``).

``bidirectional_gradients.pb`` (control flow v2, frozen): a ``bidirectional_dynamic_rnn`` of
two LSTM cells with ``sequence_length`` (its masks are TF1 ``Select`` ops of a vector
condition), a ``while_loop`` writing a growing TensorArray, a ``map_fn``, and
``tf.gradients`` of the result w.r.t. every variable and the input
(``bidirectional_gradients.npz``: ``x``, the fetched ``names`` and their ``value_<i>``).

TF2 SavedModels (``tf.saved_model.save``):

- ``module_loop``: a ``tf.Module`` whose ``train_step`` tf.function runs a ``tf.while_loop``
  growing a TensorArray under a GradientTape and applies the gradient
  (``module_loop.npz``: the batch and the losses of ``STEPS`` calls);
- ``keras_lstm``: a Keras 3 LSTM regressor's ``train_step`` (GradientTape, SGD) as a
  tf.function of a ``tf.Module`` (``keras_lstm.npz`` likewise).
"""
import os
import shutil
import sys

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_loop_training")
STEPS = 3
v1 = tf.compat.v1


class LSTMCell:
    """TF1's ``BasicLSTMCell`` (forget bias 1): one kernel over ``[x, h]``, gates i, j, f, o."""

    def __init__(self, units):
        self.units = units
        self.state_size = v1.nn.rnn_cell.LSTMStateTuple(units, units) \
            if hasattr(v1.nn, "rnn_cell") and hasattr(v1.nn.rnn_cell, "LSTMStateTuple") \
            else (units, units)
        self.output_size = units

    def zero_state(self, batch, dtype):
        z = tf.zeros([batch, self.units], dtype)
        return (z, z)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return self.zero_state(batch_size, dtype)

    def __call__(self, x, state, scope=None):
        c, h = state
        with v1.variable_scope("lstm_cell", reuse=v1.AUTO_REUSE):
            w = v1.get_variable("kernel", [int(x.shape[-1]) + self.units, 4 * self.units],
                                initializer=v1.glorot_uniform_initializer(seed=3))
            b = v1.get_variable("bias", [4 * self.units], initializer=v1.zeros_initializer())
        i, j, f, o = tf.split(tf.matmul(tf.concat([x, h], 1), w) + b, 4, axis=1)
        c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(j)
        h = tf.sigmoid(o) * tf.tanh(c)
        return h, (c, h)


def _tf1_model(kind, x, y):
    gs = v1.train.get_or_create_global_step()
    if kind == "lstm_adam":
        outs, _ = v1.nn.dynamic_rnn(LSTMCell(4), x, dtype=tf.float32)
        w = v1.get_variable("head", [4, 2], initializer=v1.glorot_uniform_initializer(seed=4))
        loss = tf.identity(tf.reduce_mean(tf.square(tf.matmul(outs[:, -1], w) - y)),
                           name="loss")
        return loss, v1.train.AdamOptimizer(0.01).minimize(loss, global_step=gs)
    w = v1.get_variable("w", [3, 2], initializer=v1.glorot_uniform_initializer(seed=5))
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(x[:, i], w) + h)
        return i + 1, h, ta.write(i, h)
    _, h, ta = v1.while_loop(lambda i, h, ta: i < tf.shape(x)[1], body,
                             [tf.constant(0), tf.zeros_like(y), ta])
    loss = tf.identity(tf.reduce_mean(tf.square(tf.reduce_mean(ta.stack(), 0) + h - y)),
                       name="loss")
    (g,) = tf.gradients(loss, [w])
    return loss, v1.train.GradientDescentOptimizer(0.1).apply_gradients([(g, w)],
                                                                         global_step=gs)


def _tf1_cfv1_model(kind, x, y):
    """The models of the control-flow-v1 graphs that only TF1's frames hold (``<kind>_cfv1``):
    conditionals, nested loops, ``sequence_length``, bidirectional RNNs, map_fn/scan."""
    gs = v1.train.get_or_create_global_step()
    glorot = v1.glorot_uniform_initializer
    if kind == "cond":
        w = v1.get_variable("w", [3, 2], initializer=glorot(seed=5))
        h = tf.tanh(tf.matmul(x[:, 0], w))
        even = tf.equal(tf.math.floormod(gs, 2), 0)

        def inner():
            return v1.cond(tf.reduce_sum(h) > 0.0, lambda: h * 2.0, lambda: h - 1.0)
        out = v1.cond(even, lambda: inner() + tf.matmul(x[:, 1], w),
                      lambda: tf.square(h) - 1.0)
        loss = tf.identity(tf.reduce_mean(tf.square(out - y)), name="loss")
        return loss, v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    if kind == "nested_loops":
        w = v1.get_variable("w", [3, 2], initializer=glorot(seed=5))
        u = v1.get_variable("u", [2, 2], initializer=glorot(seed=6))

        def outer(i, h, acc):
            def inner(j, h):
                return j + 1, tf.tanh(tf.matmul(h, u) + tf.matmul(x[:, i], w))
            _, h = v1.while_loop(lambda j, h: j < 2, inner, [0, h])
            return i + 1, h, acc + h
        _, _, acc = v1.while_loop(lambda i, h, acc: i < tf.shape(x)[1], outer,
                                  [0, tf.zeros_like(y), tf.zeros_like(y)])
        loss = tf.identity(tf.reduce_mean(tf.square(acc * 0.2 - y)), name="loss")
        return loss, v1.train.AdamOptimizer(0.05).minimize(loss, global_step=gs)
    if kind == "cond_in_loop":
        w = v1.get_variable("w", [3, 2], initializer=glorot(seed=5))

        def body(i, h):
            h2 = tf.tanh(tf.matmul(x[:, i], w) + h)
            h = v1.cond(tf.equal(tf.math.floormod(i, 2), 0), lambda: h2,
                        lambda: h2 * 0.5 + tf.square(h))
            return i + 1, h
        _, h = v1.while_loop(lambda i, h: i < tf.shape(x)[1], body, [0, tf.zeros_like(y)])
        loss = tf.identity(tf.reduce_mean(tf.square(h - y)), name="loss")
        return loss, v1.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=gs)
    if kind == "rnn_sequence_length":
        seq = v1.placeholder_with_default(tf.constant([3, 5]), [None], name="seq")
        outs, state = v1.nn.dynamic_rnn(LSTMCell(4), x, sequence_length=seq, dtype=tf.float32)
        w = v1.get_variable("head", [8, 2], initializer=glorot(seed=4))
        feat = tf.concat([state[1], tf.reduce_mean(outs, 1)], 1)
        loss = tf.identity(tf.reduce_mean(tf.square(tf.matmul(feat, w) - y)), name="loss")
        return loss, v1.train.AdamOptimizer(0.01).minimize(loss, global_step=gs)
    if kind == "bidirectional":
        with v1.variable_scope("fw"):
            fw_cell = LSTMCell(3)
        with v1.variable_scope("bw"):
            bw_cell = LSTMCell(3)
        (fw, bw), _ = v1.nn.bidirectional_dynamic_rnn(fw_cell, bw_cell, x,
                                                      sequence_length=[4, 5], dtype=tf.float32)
        w = v1.get_variable("head", [6, 2], initializer=glorot(seed=4))
        feat = tf.concat([fw[:, -1], bw[:, 0]], 1)
        loss = tf.identity(tf.reduce_mean(tf.square(tf.matmul(feat, w) - y)), name="loss")
        return loss, v1.train.AdamOptimizer(0.01).minimize(loss, global_step=gs)
    if kind == "map_fn_scan":
        w = v1.get_variable("w", [3, 2], initializer=glorot(seed=5))
        z = tf.map_fn(lambda xt: tf.tanh(tf.matmul(xt, w)), tf.transpose(x, [1, 0, 2]))
        s = tf.scan(lambda a, zt: a * 0.5 + zt, z, initializer=tf.zeros_like(y))
        loss = tf.identity(tf.reduce_mean(tf.square(s[-1] - y)), name="loss")
        return loss, v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    if kind == "batch_norm_cond":
        training = v1.placeholder_with_default(True, [], name="training")
        flat = tf.reshape(x, [-1, 15])
        w1 = v1.get_variable("dense", [15, 6], initializer=glorot(seed=5))
        w2 = v1.get_variable("out", [6, 2], initializer=glorot(seed=6))
        z = tf.matmul(flat, w1)
        # TF1's batch_normalization(training=<tensor>) written out (Keras 3's TensorFlow has
        # no tf.compat.v1.layers): a tf.cond on training, moving averages in UPDATE_OPS
        gamma = v1.get_variable("bn/gamma", [6], initializer=v1.ones_initializer())
        beta = v1.get_variable("bn/beta", [6], initializer=v1.zeros_initializer())
        mm = v1.get_variable("bn/moving_mean", [6], initializer=v1.zeros_initializer(),
                             trainable=False)
        mv = v1.get_variable("bn/moving_variance", [6], initializer=v1.ones_initializer(),
                             trainable=False)
        mean, var = v1.cond(training, lambda: tf.nn.moments(z, [0]),
                            lambda: (tf.identity(mm), tf.identity(mv)))
        z = tf.nn.batch_normalization(z, mean, var, beta, gamma, 1e-3)
        momentum = v1.cond(training, lambda: tf.constant(0.9), lambda: tf.constant(1.0))
        for v, stat in ((mm, mean), (mv, var)):
            v1.add_to_collection(v1.GraphKeys.UPDATE_OPS,
                                 v1.assign_sub(v, (v - stat) * (1.0 - momentum)))
        out = tf.matmul(tf.nn.relu(z), w2)
        loss = tf.identity(tf.reduce_mean(tf.square(out - y)), name="loss")
        with tf.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
            return loss, v1.train.AdamOptimizer(0.05).minimize(loss, global_step=gs)
    if kind == "case_max_iterations":
        w = v1.get_variable("w", [3, 2], initializer=glorot(seed=5))

        def body(i, h):
            return [i + 1, tf.tanh(tf.matmul(x[:, i], w) + h)]
        _, h = v1.while_loop(lambda i, h: i < 100, body, [0, tf.zeros_like(y)],
                             maximum_iterations=3)
        total = tf.reduce_sum(h)
        out = v1.case([(total > 0.5, lambda: h * 2.0), (total < -0.5, lambda: h - 1.0)],
                      default=lambda: h * h, exclusive=False)
        loss = tf.identity(tf.reduce_mean(tf.square(out - y)), name="loss")
        return loss, v1.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=gs)
    raise ValueError(kind)


def tf1_graph(name, kind, cf_v2):
    """One TF1 training graph (run in a fresh process: control flow v1/v2 is global)."""
    v1.disable_v2_behavior()
    if cf_v2:
        v1.enable_control_flow_v2()
    rng = np.random.default_rng(7)
    xv = rng.standard_normal((2, 5, 3)).astype(np.float32)
    yv = rng.standard_normal((2, 2)).astype(np.float32)
    v1.set_random_seed(1)
    x = v1.placeholder(tf.float32, [None, 5, 3], name="x")
    y = v1.placeholder(tf.float32, [None, 2], name="y")
    loss, train_op = (_tf1_model if kind in ("lstm_adam", "loop_tensor_array") else
                      _tf1_cfv1_model)(kind, x, y)
    saver = v1.train.Saver()
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        saver.save(sess, os.path.join(d, "model"))
        losses, evals = [], []
        for _ in range(STEPS if kind in ("lstm_adam", "loop_tensor_array") else 4):
            losses.append(sess.run([loss, train_op], {x: xv, y: yv})[0])
            if kind == "batch_norm_cond":      # the other branch: the moving averages
                evals.append(sess.run(loss, {x: xv, y: yv, "training:0": False}))
    extra = {"evals": np.array(evals)} if evals else {}
    np.savez(os.path.join(OUT, name + ".npz"), x=xv, y=yv, losses=np.array(losses), **extra)
    print(name, losses)


def frozen_rnn_cfv1():
    """``frozen_rnn_cfv1.pb``: the frozen inference graph of a TF1 model with control flow v1
    (what ``freeze_graph`` / ``convert_variables_to_constants`` users have): ``dynamic_rnn``
    of an LSTM with ``sequence_length``, a ``tf.cond`` on the input, a ``map_fn`` and a
    ``tf.while_loop`` growing a TensorArray (``frozen_rnn_cfv1.npz``: ``x``, ``seq``, the
    fetched ``names`` and their ``value_<i>``, for two batches, and ``grad_x``: the gradient
    of ``sum(probs * [1, 2, 3, 4]) + sum(steps) + sum(energy)`` w.r.t. ``x``)."""
    v1.disable_v2_behavior()
    rng = np.random.default_rng(3)
    x = v1.placeholder(tf.float32, [None, 5, 3], name="x")
    seq = v1.placeholder(tf.int32, [None], name="seq")
    outs, state = v1.nn.dynamic_rnn(LSTMCell(4), x, sequence_length=seq, dtype=tf.float32)
    pooled = v1.cond(tf.reduce_mean(x) > 0.0, lambda: tf.reduce_max(outs, 1),
                     lambda: tf.reduce_mean(outs, 1))
    mapped = tf.map_fn(lambda r: tf.reduce_sum(r * r), state[1])
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    _, ta = v1.while_loop(lambda i, ta: i < tf.shape(x)[1],
                          lambda i, ta: (i + 1, ta.write(i, tf.reduce_sum(outs[:, i], 1))),
                          [0, ta])
    probs = tf.nn.softmax(pooled, name="probs")
    steps = tf.identity(tf.transpose(ta.stack()), name="steps")
    energy = tf.identity(mapped, name="energy")
    fetches = [probs, steps, energy]
    feeds = [(rng.standard_normal((2, 5, 3)).astype(np.float32) + 0.5, np.array([3, 5])),
             (rng.standard_normal((3, 5, 3)).astype(np.float32) - 0.5, np.array([5, 1, 2]))]
    # the gradient a user takes of the frozen model (its loops' TensorArrays differentiated)
    (grad,) = tf.gradients(tf.reduce_sum(probs * [1.0, 2.0, 3.0, 4.0]) +
                           tf.reduce_sum(steps) + tf.reduce_sum(energy), [x])
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        values = [sess.run(fetches + [grad], {x: xv, seq: sv}) for xv, sv in feeds]
        frozen = v1.graph_util.convert_variables_to_constants(
            sess, v1.get_default_graph().as_graph_def(), [t.op.name for t in fetches])
    with open(os.path.join(OUT, "frozen_rnn_cfv1.pb"), "wb") as f:
        f.write(frozen.SerializeToString())
    arrays = {"names": np.array([t.name for t in fetches])}
    for b, ((xv, sv), vals) in enumerate(zip(feeds, values)):
        arrays["x_%d" % b], arrays["seq_%d" % b] = xv, sv
        arrays.update({"value_%d_%d" % (b, i): v for i, v in enumerate(vals[:-1])})
        arrays["grad_x_%d" % b] = vals[-1]
    np.savez(os.path.join(OUT, "frozen_rnn_cfv1.npz"), **arrays)
    print("frozen_rnn_cfv1", sorted({n.op for n in frozen.node} & {"Enter", "Switch"}))


#: The TF1 graphs only control flow v1 is recorded for (its frames).
CFV1_KINDS = ("cond", "nested_loops", "cond_in_loop", "rnn_sequence_length", "bidirectional",
              "map_fn_scan", "batch_norm_cond", "case_max_iterations")


def bidirectional_gradients():
    """The frozen GraphDef of bidirectional_gradients.pb (run in a fresh process)."""
    v1.disable_v2_behavior()
    v1.enable_control_flow_v2()
    rng = np.random.default_rng(0)
    xv = rng.standard_normal((2, 5, 3)).astype(np.float32)
    x = v1.placeholder(tf.float32, [None, 5, 3], name="x")
    with v1.variable_scope("fw"):
        fw_cell = LSTMCell(4)
    with v1.variable_scope("bw"):
        bw_cell = LSTMCell(4)
    (fw, bw), _ = v1.nn.bidirectional_dynamic_rnn(fw_cell, bw_cell, x, sequence_length=[3, 5],
                                                  dtype=tf.float32)
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, clear_after_read=False)

    def body(i, ta):
        return i + 1, ta.write(i, tf.reduce_sum(fw[:, i] * bw[:, i]) * tf.cast(i, tf.float32))
    _, ta = v1.while_loop(lambda i, ta: i < 5, body, [0, ta])
    out = tf.identity(tf.reduce_sum(ta.stack() ** 2) + tf.reduce_sum(
        tf.map_fn(tf.reduce_max, x[:, :, 0])), name="out")
    grads = tf.gradients(out, v1.trainable_variables() + [x])
    fetches = [out] + [tf.identity(g, name="grad_%d" % k) for k, g in enumerate(grads)]
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        values = sess.run(fetches, {x: xv})
        frozen = v1.graph_util.convert_variables_to_constants(
            sess, v1.get_default_graph().as_graph_def(), [t.op.name for t in fetches])
    with open(os.path.join(OUT, "bidirectional_gradients.pb"), "wb") as f:
        f.write(frozen.SerializeToString())
    np.savez(os.path.join(OUT, "bidirectional_gradients.npz"), x=xv,
             names=np.array([t.name for t in fetches]),
             **{"value_%d" % i: v for i, v in enumerate(values)})
    print("bidirectional_gradients", values[0])


class ModuleLoop(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.linspace(-0.5, 0.5, 6, dtype=np.float32).reshape(3, 2), name="w")
        self.u = tf.Variable(np.linspace(-0.3, 0.3, 4, dtype=np.float32).reshape(2, 2), name="u")

    def loss(self, x, y):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

        def body(i, h, ta):
            h = tf.tanh(tf.matmul(x[:, i], self.w) + tf.matmul(h, self.u))
            return i + 1, h, ta.write(i, h)
        _, h, ta = tf.while_loop(lambda i, h, ta: i < tf.shape(x)[1], body,
                                 [tf.constant(0), tf.zeros_like(y), ta])
        return tf.reduce_mean(tf.square(tf.reduce_mean(ta.stack(), 0) + h - y))

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32, name="x"),
                                  tf.TensorSpec([None, 2], tf.float32, name="y")])
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss(x, y)
        gw, gu = tape.gradient(loss, [self.w, self.u])
        self.w.assign_sub(0.1 * gw)
        self.u.assign_sub(0.1 * gu)
        return loss


class KerasLSTM(tf.Module):
    def __init__(self):
        super().__init__()
        import keras
        keras.utils.set_random_seed(3)
        self.model = keras.Sequential([keras.Input((5, 3)), keras.layers.LSTM(4),
                                       keras.layers.Dense(2)])

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 3], tf.float32, name="x"),
                                  tf.TensorSpec([None, 2], tf.float32, name="y")])
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        for v, g in zip(self.model.trainable_variables, grads):
            v.assign_sub(0.05 * g)
        return loss

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 3], tf.float32, name="x")])
    def predict(self, x):
        return self.model(x)


def tf2_saved_model(name, cls):
    rng = np.random.default_rng(8)
    xv = rng.standard_normal((2, 5, 3)).astype(np.float32)
    yv = rng.standard_normal((2, 2)).astype(np.float32)
    m = cls()
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    tf.saved_model.save(m, d)
    losses = [float(m.train_step(xv, yv)) for _ in range(STEPS)]
    np.savez(os.path.join(OUT, name + ".npz"), x=xv, y=yv, losses=np.array(losses))
    print(name, losses)


def main():
    if sys.argv[1:] == ["bidirectional_gradients"]:
        bidirectional_gradients()
        return
    if sys.argv[1:] == ["frozen_rnn_cfv1"]:
        frozen_rnn_cfv1()
        return
    if sys.argv[1:] == ["cfv1"]:         # only the control-flow-v1 graphs below
        import subprocess
        for kind in CFV1_KINDS:
            subprocess.run([sys.executable, __file__, "%s_cfv1" % kind, kind, "v1"],
                           check=True)
        subprocess.run([sys.executable, __file__, "frozen_rnn_cfv1"], check=True)
        return
    if len(sys.argv) > 1:           # one TF1 graph: name kind v1|v2
        name, kind, cf = sys.argv[1:4]
        tf1_graph(name, kind, cf == "v2")
        return
    import subprocess
    os.makedirs(OUT, exist_ok=True)
    for kind in ("lstm_adam", "loop_tensor_array"):
        for cf in ("v2", "v1"):
            subprocess.run([sys.executable, __file__, "%s_cf%s" % (kind, cf), kind, cf],
                           check=True)
    for kind in CFV1_KINDS:
        subprocess.run([sys.executable, __file__, "%s_cfv1" % kind, kind, "v1"], check=True)
    subprocess.run([sys.executable, __file__, "bidirectional_gradients"], check=True)
    subprocess.run([sys.executable, __file__, "frozen_rnn_cfv1"], check=True)
    tf2_saved_model("module_loop", ModuleLoop)
    tf2_saved_model("keras_lstm", KerasLSTM)


if __name__ == "__main__":
    main()
