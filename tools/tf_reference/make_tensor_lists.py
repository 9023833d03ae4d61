"""Writes loops that TensorFlow 2.21 stores with TensorLists (tests/data/tf_tensor_lists/):
``tf.scan``, ``tf.map_fn``, a ``tf.TensorArray`` written in a ``tf.while_loop``, and Keras
RNN layers, traced by ``tf.function`` and saved by ``tf.saved_model.save``. Each comes with
its inputs and TensorFlow's outputs in ``<name>.npz``.

Run with the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/make_tensor_lists.py

Fixtures:
- ``loops_graph.pb``: the GraphDef of a ``tf.function`` trace holding a scan (cumulative
  product of rows), a map_fn (a per-row norm), a TensorArray filled in a while_loop and
  stacked, and a scan with two accumulators (While with TensorListReserve / SetItem /
  GetItem / FromTensor / Stack); outputs ``scan_out``, ``map_out``, ``ta_out``, ``pair_out``;
- ``loops_saved_model/``: a ``tf.Module`` with a variable whose function runs the same
  loops over it, saved by ``tf.saved_model.save`` (``serving_default``); with the gradient
  TensorFlow computes of its output's sum with respect to the variable;
- ``rnn_saved_model/``: a Keras 3 model (SimpleRNN then LSTM, return sequences, a Dense),
  saved by ``tf.saved_model.save``; ``rnn.npz`` has its input and prediction.
"""
import os
import shutil

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_tensor_lists")
rng = np.random.default_rng(5)


def loops(x, w):
    scan = tf.scan(lambda a, row: a * tf.tanh(row) + 1.0, x, initializer=tf.ones_like(x[0]))
    mapped = tf.map_fn(lambda row: tf.reduce_sum(row * row * w[0]), x)
    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])

    def body(i, ta):
        return i + 1, ta.write(i, tf.reduce_max(x[i]) * w[1] + tf.cast(i, tf.float32))
    _, ta = tf.while_loop(lambda i, ta: i < tf.shape(x)[0], body, [tf.constant(0), ta])
    pair = tf.scan(lambda acc, row: (acc[0] + row, acc[1] * 0.5 + tf.reduce_sum(row)), x,
                   initializer=(tf.zeros_like(x[0]), tf.constant(0.0)))
    return {"scan_out": tf.identity(scan, name="scan_out"),
            "map_out": tf.identity(mapped, name="map_out"),
            "ta_out": tf.identity(ta.stack(), name="ta_out"),
            "pair_out": tf.identity(pair[0] + pair[1][:, None], name="pair_out")}


class Loops(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([0.5, 2.0], name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        return loops(x, self.w)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    w = tf.constant([0.5, 2.0])
    fn = tf.function(lambda x: loops(x, w))
    cf = fn.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="x"))
    tf.io.write_graph(cf.graph.as_graph_def(), OUT, "loops_graph.pb", as_text=False)
    types = sorted({n.op for f in cf.graph.as_graph_def().library.function for n in f.node_def}
                   | {n.op for n in cf.graph.as_graph_def().node})
    print("loops_graph op types:", [t for t in types if "List" in t or "While" in t])
    out = {k: v.numpy() for k, v in fn(tf.constant(x)).items()}
    np.savez(os.path.join(OUT, "loops_graph.npz"), x=x, **out)

    m = Loops()
    with tf.GradientTape() as tape:
        res = m(tf.constant(x))
        total = tf.add_n([tf.reduce_sum(v) for v in res.values()])
    grad = tape.gradient(total, m.w)
    tf.saved_model.save(m, os.path.join(OUT, "loops_saved_model"))
    np.savez(os.path.join(OUT, "loops_saved_model.npz"), x=x, grad_w=grad.numpy(),
             **{k: v.numpy() for k, v in res.items()})

    import keras
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((5, 3)),
                              keras.layers.SimpleRNN(4, return_sequences=True),
                              keras.layers.LSTM(3, return_sequences=True),
                              keras.layers.GRU(2), keras.layers.Dense(2)])
    seq = rng.standard_normal((2, 5, 3)).astype(np.float32)
    pred = model(seq).numpy()
    tf.saved_model.save(model, os.path.join(OUT, "rnn_saved_model"))
    np.savez(os.path.join(OUT, "rnn.npz"), x=seq, y=pred)
    print("written to", OUT)


if __name__ == "__main__":
    main()
