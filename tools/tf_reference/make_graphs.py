"""Writes the GraphDef / MetaGraphDef / SavedModel fixtures of tests/data/tf_graphs/ with real
TensorFlow 2.21 (run with the TensorFlow venv: /work/venv-tf/bin/python
tools/tf_reference/make_graphs.py). Every fixture comes with the inputs fed and TensorFlow's
outputs in ``<name>.npz`` (``in_<name>`` and ``out_<name>`` arrays), so flowgrad's tests
compare against numbers TensorFlow computed, without TensorFlow.

Fixtures:
- ``mlp_graph.pb`` / ``mlp_graph.pbtxt``: a TF1 graph (constants only): matmul, bias, relu,
  softmax, reductions, reshape/transpose/concat/slices, written by ``tf.io.write_graph``;
- ``ops_graph.pb``: one graph with many op types (one_hot, cumsum, clip, gather, tile, pad,
  top_k, depthwise and strided convolutions, pooling, batch matmul, ...), each fetched;
- ``var_model.meta`` + ``var_model.index``/``.data-*`` + ``checkpoint``: a TF1 graph with
  VariableV2 and resource variables, saved by ``tf.compat.v1.train.Saver``;
- ``frozen.pb``: that graph frozen by ``convert_variables_to_constants``;
- ``tf1_saved_model/``: that graph saved by ``tf.compat.v1.saved_model.simple_save``;
- ``module_saved_model/``: a ``tf.Module`` whose ``@tf.function(input_signature=...)`` does
  matmul + bias + relu with variables, saved by ``tf.saved_model.save``;
- ``keras_saved_model/``: a small Keras model saved by ``tf.saved_model.save``;
- ``keras_cnn_export/``: a small Keras CNN (Conv2D, MaxPooling2D, Flatten, Dense, Softmax)
  exported by ``model.export``.
"""
import os
import shutil

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "tf_graphs")
rng = np.random.default_rng(0)


def fresh(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    return path


def mlp_graph():
    x_val = rng.standard_normal((4, 3)).astype(np.float32)
    w = rng.standard_normal((3, 5)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        h = tf.nn.relu(tf.matmul(x, tf.constant(w)) + tf.constant(b), name="hidden")
        h2 = tf.nn.bias_add(tf.matmul(h, tf.constant(w), transpose_b=True), tf.constant(x_val[0]))
        p = tf.nn.softmax(h2, name="probs")
        t = tf.transpose(tf.reshape(h, [-1, 5, 1]), [0, 2, 1])
        c = tf.concat([tf.squeeze(t, 1), tf.tanh(h), tf.sigmoid(h)], axis=1)
        s = tf.reduce_sum(c * 2.0 - 1.0, axis=1, keepdims=True)
        m = tf.reduce_mean(tf.exp(-tf.abs(c)) / 3.0, axis=[0, 1])
        out = tf.identity(s + m + tf.reduce_max(p, axis=-1, keepdims=True)
                          + tf.cast(tf.argmax(p, axis=1)[:, None], tf.float32), name="out")
        tf.io.write_graph(g.as_graph_def(), OUT, "mlp_graph.pb", as_text=False)
        tf.io.write_graph(g.as_graph_def(), OUT, "mlp_graph.pbtxt", as_text=True)
        with tf.compat.v1.Session() as sess:
            probs, o = sess.run([p, out], {x: x_val})
    sub = tf.compat.v1.graph_util.extract_sub_graph(g.as_graph_def(), ["probs", "Mean"])
    np.savez(os.path.join(OUT, "mlp_graph.npz"), in_x=x_val, out_probs=probs, out_out=o,
             sub_graph_nodes=np.array([n.name for n in sub.node]))


def ops_graph():
    """One TF1 graph using many op types, each output fetched (``ops_graph.pb``)."""
    rng = np.random.default_rng(5)
    x_val = rng.standard_normal((3, 4)).astype(np.float32)
    i_val = np.array([2, 0, 1], np.int32)
    img_val = rng.standard_normal((1, 5, 5, 2)).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 4], name="x")
        i = tf.compat.v1.placeholder(tf.int32, [None], name="i")
        img = tf.compat.v1.placeholder(tf.float32, [None, 5, 5, 2], name="img")
        outs = {
            "one_hot": tf.one_hot(i, 4, on_value=2.0, off_value=-1.0),
            "cumsum": tf.cumsum(x, axis=1, exclusive=True, reverse=True),
            "clip": tf.clip_by_value(x, -0.5, 0.5),
            "gather": tf.gather(x, i),
            "tile": tf.tile(x, [2, 1]),
            "pad": tf.pad(x, [[1, 0], [0, 2]]),
            "range": tf.range(1, 7, 2),
            "where": tf.where(x > 0, x, tf.zeros_like(x)),
            "split": tf.split(x, [1, 3], axis=1)[1],
            "unstack": tf.unstack(x, axis=1)[2],
            "top_k": tf.math.top_k(x, 2)[0],
            "top_k_indices": tf.math.top_k(x, 2)[1],
            "slice": tf.slice(x, [1, 1], [2, -1]),
            "fill": tf.fill(tf.shape(x), 3.0),
            "expand": tf.expand_dims(x, -1),
            "log_softmax": tf.nn.log_softmax(x),
            "leaky": tf.nn.leaky_relu(x, 0.1),
            "elu": tf.nn.elu(x),
            "maximum": tf.maximum(x, 0.1) * tf.minimum(x, 0.3) + tf.pow(tf.abs(x), 1.5),
            "sq_diff": tf.math.squared_difference(x, 0.5),
            "rsqrt": tf.math.rsqrt(tf.abs(x) + 1.0),
            "argmin": tf.argmin(x, axis=0),
            "reduce_prod": tf.reduce_prod(x, axis=0),
            "reduce_min": tf.reduce_min(x, axis=1),
            "depthwise": tf.nn.depthwise_conv2d(img, tf.ones([3, 3, 2, 1]) * 0.1,
                                                [1, 1, 1, 1], "SAME"),
            "avg_pool": tf.nn.avg_pool2d(img, 2, 2, "VALID"),
            "conv_strided": tf.nn.conv2d(img, tf.reshape(tf.range(36.0), [3, 3, 2, 2]) / 36,
                                         [1, 2, 2, 1], "VALID"),
            "batch_matmul": tf.matmul(tf.reshape(x, [3, 2, 2]), tf.reshape(x, [3, 2, 2]),
                                      adjoint_b=True),
            "cast_int": tf.cast(x * 3, tf.int32),
            "add_n": tf.add_n([x, x, x]),
            "floor_mod": tf.math.floormod(x, 0.3),
            "stop": tf.stop_gradient(x) * 2.0,
        }
        named = {k: tf.identity(v, name="out_" + k) for k, v in outs.items()}
        tf.io.write_graph(g.as_graph_def(), OUT, "ops_graph.pb", as_text=False)
        with tf.compat.v1.Session() as sess:
            vals = sess.run(named, {x: x_val, i: i_val, img: img_val})
    np.savez(os.path.join(OUT, "ops_graph.npz"), in_x=x_val, in_i=i_val, in_img=img_val,
             **{"out_" + k: v for k, v in vals.items()})


def var_model():
    x_val = rng.standard_normal((2, 3)).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.set_random_seed(1)
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.compat.v1.get_variable("w", [3, 4], use_resource=False)
        b = tf.compat.v1.get_variable("b", [4], use_resource=True,
                                      initializer=tf.compat.v1.random_normal_initializer())
        y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
        loss = tf.reduce_sum(tf.square(y), name="loss")
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            y_val, loss_val, w_val, b_val = sess.run([y, loss, w, b], {x: x_val})
            prefix = os.path.join(OUT, "var_model")
            saver.save(sess, prefix, write_meta_graph=True, write_state=False)
            frozen = tf.compat.v1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["y", "loss"])
            tf.io.write_graph(frozen, OUT, "frozen.pb", as_text=False)
            sm = fresh(os.path.join(OUT, "tf1_saved_model"))
            tf.compat.v1.saved_model.simple_save(sess, sm, inputs={"x": x}, outputs={"y": y})
    np.savez(os.path.join(OUT, "var_model.npz"), in_x=x_val, out_y=y_val, out_loss=loss_val,
             w=w_val, b=b_val)


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(rng.standard_normal((3, 2)).astype(np.float32), name="w")
        self.b = tf.Variable(rng.standard_normal(2).astype(np.float32), name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def loss(self, x):
        return {"loss": tf.reduce_sum(tf.square(self(x))), "scaled": 2.0 * self(x)}


def module_saved_model():
    m = Dense()
    x_val = rng.standard_normal((4, 3)).astype(np.float32)
    path = fresh(os.path.join(OUT, "module_saved_model"))
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__,
                                             "loss": m.loss})
    with tf.GradientTape() as tape:
        y = m(tf.constant(x_val))
        total = tf.reduce_sum(y * y)
    gw, gb = tape.gradient(total, [m.w, m.b])
    np.savez(os.path.join(OUT, "module_saved_model.npz"), in_x=x_val, out_y=y.numpy(),
             out_loss=m.loss(x_val)["loss"].numpy(), grad_w=gw.numpy(), grad_b=gb.numpy(),
             w=m.w.numpy(), b=m.b.numpy())


def keras_saved_model():
    tf.keras.utils.set_random_seed(2)
    inputs = tf.keras.Input((4,), name="features")
    h = tf.keras.layers.Dense(8, activation="tanh")(inputs)
    outputs = tf.keras.layers.Dense(3, activation="softmax")(h)
    model = tf.keras.Model(inputs, outputs)
    x_val = rng.standard_normal((5, 4)).astype(np.float32)
    path = fresh(os.path.join(OUT, "keras_saved_model"))
    tf.saved_model.save(model, path)
    x = tf.constant(x_val)
    with tf.GradientTape() as tape:
        y = model(x)
        loss = tf.reduce_sum(y * tf.range(3, dtype=tf.float32))
    grads = tape.gradient(loss, model.trainable_variables)
    np.savez(os.path.join(OUT, "keras_saved_model.npz"), in_features=x_val, out_y=y.numpy(),
             **{"var_" + v.path: v.numpy() for v in model.variables},
             **{"grad_" + v.path: g.numpy() for v, g in zip(model.trainable_variables, grads)})


def keras_cnn_export():
    """A small Keras CNN exported with ``model.export`` (its ``serve`` endpoint)."""
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.Input((6, 6, 2), name="image"),
        tf.keras.layers.Conv2D(3, 3, padding="same", activation="relu"),
        tf.keras.layers.MaxPooling2D(2),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(4),
        tf.keras.layers.Softmax(),
    ])
    x_val = rng.standard_normal((2, 6, 6, 2)).astype(np.float32)
    path = fresh(os.path.join(OUT, "keras_cnn_export"))
    model.export(path)
    x = tf.constant(x_val)
    with tf.GradientTape() as tape:
        y = model(x)
        loss = tf.reduce_sum(y * tf.range(4, dtype=tf.float32))
    grads = tape.gradient(loss, model.trainable_variables)
    np.savez(os.path.join(OUT, "keras_cnn_export.npz"), in_image=x_val, out_y=y.numpy(),
             **{"grad_" + v.path: g.numpy() for v, g in zip(model.trainable_variables, grads)})


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    mlp_graph()
    var_model()
    module_saved_model()
    keras_saved_model()
    keras_cnn_export()
    ops_graph()
