"""Writes the control-flow fixtures of tests/data/tf_control_flow/ with real TensorFlow 2.21
(run with the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/make_control_flow.py).
Each fixture comes with its inputs and TensorFlow's outputs in ``<name>.npz``.

Fixtures:
- ``cf_graph.pb``: the GraphDef of a ``tf.function`` trace (control flow v2: StatelessIf,
  StatelessWhile and a While whose body holds an If, with their FunctionDefLibrary);
- ``cf_saved_model/``: a ``tf.Module`` whose functions run ``tf.cond`` and ``tf.while_loop``
  over its variables (reads, and an ``assign_add`` inside the loop body), saved by
  ``tf.saved_model.save``; with the gradients TensorFlow computes through them;
- ``v1_cond_graph.pb``: a TF1 graph built with control flow v1 (Switch/Merge and
  Enter/Exit/NextIteration), which flowgrad converts into If/While ops on import
  (``v1_cond_graph.npz``: TensorFlow's outputs for an input taking either branch).
"""
import os
import shutil

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "tf_control_flow")
rng = np.random.default_rng(22)


def fresh(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    return path


def control_flow(x):
    y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: -x, name="sign_cond")
    i, acc = tf.while_loop(lambda i, a: i < 5, lambda i, a: (i + 1, a * 0.5 + y),
                           [tf.constant(0), x], name="halving")

    def body(k, a):
        a = tf.cond(k % 2 == 0, lambda: a + 1.0, lambda: a * tf.tanh(a))
        return k + 1, a
    _, nested = tf.while_loop(lambda k, a: k < 4, body, [tf.constant(0), acc], name="nested")
    return {"cond": tf.identity(y, name="cond_out"), "loop": tf.identity(acc, name="loop_out"),
            "count": tf.identity(i, name="count_out"),
            "nested": tf.identity(nested, name="nested_out")}


def cf_graph():
    x_pos = rng.standard_normal((2, 3)).astype(np.float32) + 1.0
    x_neg = x_pos - 3.0
    fn = tf.function(control_flow)
    cf = fn.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="x"))
    tf.io.write_graph(cf.graph.as_graph_def(), OUT, "cf_graph.pb", as_text=False)
    out = {}
    for tag, x in (("pos", x_pos), ("neg", x_neg)):
        res = fn(tf.constant(x))
        out["in_" + tag] = x
        out.update({"out_%s_%s" % (tag, k): v.numpy() for k, v in res.items()})
    np.savez(os.path.join(OUT, "cf_graph.npz"), **out)


class Looper(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(rng.standard_normal((3, 3)).astype(np.float32) * 0.5, name="w")
        self.scale = tf.Variable(1.5, name="scale")
        self.steps = tf.Variable(0, name="steps", trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        h = tf.cond(tf.reduce_mean(x) > 0.0, lambda: tf.matmul(x, self.w),
                    lambda: tf.matmul(x, self.w) * self.scale)

        def body(i, a):
            self.steps.assign_add(1)
            return i + 1, tf.tanh(tf.matmul(a, self.w)) + a

        _, h = tf.while_loop(lambda i, a: i < 3, body, [tf.constant(0), h])
        return h

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def loss(self, x):
        return {"loss": tf.reduce_sum(tf.square(self(x)))}


def cf_saved_model():
    m = Looper()
    x_pos = rng.standard_normal((4, 3)).astype(np.float32) + 0.5
    x_neg = x_pos - 2.0
    path = fresh(os.path.join(OUT, "cf_saved_model"))
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__, "loss": m.loss})
    out = {"w": m.w.numpy(), "scale": m.scale.numpy()}
    for tag, x in (("pos", x_pos), ("neg", x_neg)):
        with tf.GradientTape() as tape:
            y = m(tf.constant(x))
            total = tf.reduce_sum(tf.square(y))
        gw, gs = tape.gradient(total, [m.w, m.scale])
        out.update({"in_" + tag: x, "out_" + tag: y.numpy(), "loss_" + tag: total.numpy(),
                    "grad_w_" + tag: gw.numpy(),
                    "grad_scale_" + tag: 0.0 if gs is None else gs.numpy()})
    np.savez(os.path.join(OUT, "cf_saved_model.npz"), **out)


def v1_cond_graph():
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.disable_control_flow_v2()
        x = tf.compat.v1.placeholder(tf.float32, [3], name="x")
        y = tf.compat.v1.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
        _, z = tf.compat.v1.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + y),
                                       [tf.constant(0), y])
        out = tf.identity(z, name="out")
        tf.compat.v1.enable_control_flow_v2()
        inputs = {"pos": np.array([1.0, -0.5, 2.0], np.float32),
                  "neg": np.array([-1.0, 0.5, -2.0], np.float32)}
        with tf.compat.v1.Session() as sess:
            outs = {k: sess.run(out, {x: v}) for k, v in inputs.items()}
    tf.io.write_graph(g.as_graph_def(), OUT, "v1_cond_graph.pb", as_text=False)
    np.savez(os.path.join(OUT, "v1_cond_graph.npz"), **{"in_" + k: v for k, v in inputs.items()},
             **{"out_" + k: v for k, v in outs.items()})


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    cf_graph()
    cf_saved_model()
    v1_cond_graph()
