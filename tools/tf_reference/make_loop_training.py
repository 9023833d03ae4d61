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
    loss, train_op = _tf1_model(kind, x, y)
    saver = v1.train.Saver()
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        saver.save(sess, os.path.join(d, "model"))
        losses = [sess.run([loss, train_op], {x: xv, y: yv})[0] for _ in range(STEPS)]
    np.savez(os.path.join(OUT, name + ".npz"), x=xv, y=yv, losses=np.array(losses))
    print(name, losses)


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
    subprocess.run([sys.executable, __file__, "bidirectional_gradients"], check=True)
    tf2_saved_model("module_loop", ModuleLoop)
    tf2_saved_model("keras_lstm", KerasLSTM)


if __name__ == "__main__":
    main()
