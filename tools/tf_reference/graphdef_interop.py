"""TensorFlow loads what flowgrad wrote: GraphDefs (text and binary, frozen and with
variables), MetaGraphDefs (``.meta``) and SavedModels (TF2's ``tf.saved_model.save``, TF1's
``simple_save``).

Two halves, run by two interpreters (the CI's interop job runs both):

    python tools/tf_reference/graphdef_interop.py write DIR       # flowgrad's python
    /path/to/tf-venv/bin/python tools/tf_reference/graphdef_interop.py check DIR

Control flow (``tf.cond``, ``tf.while_loop``, nested, in a GraphDef and in a SavedModel
with variables) goes as TensorFlow 2's functional If/While ops.

TF1 training graphs: flowgrad's ``Saver.save`` writes the ``.meta`` of a dense network with
Adam and summaries, a CNN with batch normalization, dropout and Momentum, and an MLP with
RMSProp, and training graphs with loops: ``dynamic_rnn`` of an LSTMCell and of a GRUCell with
Adam, and a ``tf.while_loop`` writing a growing ``tf.TensorArray`` trained with
``tf.gradients`` (their gradients are While ops reading the forward loop's TensorList
accumulators); TensorFlow resumes each (``import_meta_graph``, ``restore``, the ``train_op``
collection) and must compute flowgrad's loss at every step.

``write`` builds small models with flowgrad, writes their files into DIR with the inputs
and flowgrad's outputs (``expected.npz``); ``check`` loads each file with TensorFlow 2.21,
runs it on the same inputs and fails unless TensorFlow's outputs match flowgrad's."""
import os
import shutil
import sys

import numpy as np

# flowgrad from this checkout (the script runs from tools/tf_reference/)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FETCHES = ["probs:0", "out:0", "Shape:0", "concat:0", "strided_slice:0", "GatherV2:0",
           "one_hot_out:0", "cumsum_out:0", "depthwise_out:0"]


def write(out_dir):
    import flowgrad.compat.v1 as tf
    from flowgrad.saved_model.graph_export import write_graph
    tf.disable_v2_behavior()
    shutil.rmtree(os.path.join(out_dir, "tf1_saved_model"), ignore_errors=True)
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(0)
    x_val = rng.standard_normal((4, 3)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    idx = tf.placeholder(tf.int32, [None], name="idx")
    w = tf.Variable(rng.standard_normal((3, 5)).astype(np.float32), name="w")
    h = tf.nn.relu(tf.matmul(x, w) + np.arange(5, dtype=np.float32), name="hidden")
    p = tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, w, transpose_b=True), [1.0, 2.0, 3.0]),
                      name="probs")
    c = tf.concat([tf.squeeze(tf.transpose(tf.reshape(h, [-1, 5, 1]), [0, 2, 1]), 1),
                   tf.tanh(h), tf.fill(tf.shape(h), 0.5)], axis=1)
    s = tf.reduce_sum(c * 2.0 - 1.0, axis=1, keepdims=True)
    tf.identity(s + tf.reduce_mean(tf.exp(-tf.abs(c)), axis=[0, 1])
                + tf.cast(tf.argmax(p, axis=1)[:, None], tf.float32), name="out")
    tf.identity(c[:, 2], name="strided_slice")
    tf.gather(tf.stack([p, p], axis=1), idx, axis=0)
    tf.identity(tf.one_hot(idx, 3, on_value=2.0, off_value=-1.0), name="one_hot_out")
    tf.identity(tf.cumsum(h, axis=1, exclusive=True, reverse=True), name="cumsum_out")
    tf.identity(tf.nn.depthwise_conv2d(tf.reshape(c, [-1, 3, 5, 1]), tf.ones([2, 2, 1, 2]),
                                       [1, 1, 1, 1], "SAME"), name="depthwise_out")
    feeds = {x: x_val, idx: [1, 0, 1]}
    with tf.Session() as sess:
        sess.run(w.initializer)
        values = sess.run(FETCHES, feeds)
        w_val = sess.run(w)
        tf.saved_model.simple_save(sess, os.path.join(out_dir, "tf1_saved_model"),
                                   {"x": x, "idx": idx},
                                   {"probs": p, "out": sess.graph.get_tensor_by_name("out:0")})
        gd = sess.graph.as_graph_def()
        frozen = tf.graph_util.convert_variables_to_constants(
            sess, gd, sorted({f.split(":")[0] for f in FETCHES}))
    tf.train.export_meta_graph(os.path.join(out_dir, "model.meta"))
    write_graph(gd, out_dir, "graph.pbtxt", as_text=True)
    write_graph(gd, out_dir, "graph.pb", as_text=False)
    write_graph(frozen, out_dir, "frozen.pb", as_text=False)
    saved_model_half(out_dir, x_val)
    control_flow_half(out_dir)
    training_half(out_dir)
    loop_training_half(out_dir)
    loop_gradient_half(out_dir)
    loop_saved_model_half(out_dir)
    tensor_list_half(out_dir)
    vocab_half(out_dir)
    np.savez(os.path.join(out_dir, "expected.npz"), x=x_val, idx=np.array([1, 0, 1]),
             w=w_val, **{"out%d" % i: v for i, v in enumerate(values)})


def saved_model_half(out_dir, x_val):
    """A tf.Module with variables and two signatures, saved by flowgrad (TF2 mode)."""
    import flowgrad as tf
    import flowgrad.compat.v1 as tf1
    tf1.enable_v2_behavior()

    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2),
                                 name="w")
            self.b = tf.Variable([0.1, -0.2], name="b")
            self.calls = tf.Variable(0, trainable=False, name="calls")

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def __call__(self, x):
            self.calls.assign_add(1)
            return tf.nn.softmax(tf.matmul(x, self.w) + self.b)

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def loss(self, x):
            p = self(x)
            return {"loss": tf.reduce_mean(-tf.math.log(p[:, 0])), "probs": p}

    m = Dense()
    probs = m(x_val).numpy()
    loss = m.loss(x_val)["loss"].numpy()
    tf.saved_model.save(m, os.path.join(out_dir, "saved_model"),
                        signatures={"serving_default": m.__call__, "loss": m.loss})
    np.savez(os.path.join(out_dir, "saved_model.npz"), x=x_val, probs=probs, loss=loss,
             calls=m.calls.numpy())


CF_FETCHES = ["cond_out:0", "loop_out:0", "count_out:0", "nested_out:0"]


def control_flow_half(out_dir):
    """tf.cond / tf.while_loop (nested) as a GraphDef and in a SavedModel with variables."""
    import flowgrad as tf
    import flowgrad.compat.v1 as tf1
    from flowgrad.saved_model.graph_export import write_graph
    x_val = np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -0.1]], np.float32)
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: -x, name="sign_cond")
        i, acc = tf.while_loop(lambda i, a: i < 5, lambda i, a: (i + 1, a * 0.5 + y),
                               [tf.constant(0), x], name="halving")
        _, nested = tf.while_loop(
            lambda k, a: k < 4,
            lambda k, a: (k + 1, tf.cond(tf.equal(k % 2, 0), lambda: a + 1.0,
                                         lambda: a * tf.tanh(a))),
            [tf.constant(0), acc], maximum_iterations=3, name="nested")
        for fetch, t in zip(CF_FETCHES, [y, acc, i, nested]):
            tf.identity(t, name=fetch[:-2])
        write_graph(g.as_graph_def(), out_dir, "control_flow.pb", as_text=False)
        with tf1.Session() as sess:
            values = sess.run(CF_FETCHES, {x: x_val})

    class Looper(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3))
            self.scale = tf.Variable(1.5)
            self.steps = tf.Variable(0, trainable=False)

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")],
                     autograph=False)
        def __call__(self, x):
            h = tf.cond(tf.reduce_mean(x) > 0.0, lambda: tf.matmul(x, self.w),
                        lambda: tf.matmul(x, self.w) * self.scale)

            def body(i, a):
                self.steps.assign_add(1)
                return i + 1, tf.tanh(tf.matmul(a, self.w)) + a
            return tf.while_loop(lambda i, a: i < 3, body, [tf.constant(0), h])[1]

    m = Looper()
    tf.saved_model.save(m, os.path.join(out_dir, "control_flow_saved_model"))
    np.savez(os.path.join(out_dir, "control_flow.npz"), x=x_val, pos=m(x_val).numpy(),
             neg=m(-x_val).numpy(), **{"out%d" % i: v for i, v in enumerate(values)})


def vocab_half(out_dir):
    """A tf.Module with a vocabulary lookup table (StaticHashTable over a text file held by
    a tf.saved_model.Asset) and a function reading the asset; the SavedModel is moved and
    the original file deleted, so TensorFlow must read the copy in ``assets/``."""
    import shutil
    import flowgrad as tf
    vocab = os.path.join(out_dir, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("the\ncat\nsat\non\nmat\n")

    class Vocab(tf.Module):
        def __init__(self):
            super().__init__()
            self.vocab = tf.saved_model.Asset(vocab)
            self.table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
                self.vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                tf.lookup.TextFileIndex.LINE_NUMBER), default_value=-1)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
        def __call__(self, words):
            return self.table.lookup(words)

        @tf.function(input_signature=[])
        def contents(self):
            return tf.io.read_file(self.vocab)

    m = Vocab()
    words = np.array([b"cat", b"dog", b"mat", b"the"], dtype=object)
    ids = m(tf.constant(words)).numpy()
    contents = m.contents().numpy()
    tf1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():                   # TF1: the builder's assets collection
        ph = tf1.placeholder(tf.string, [None], name="words")
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), default_value=-1)
        with tf1.Session() as sess:
            b = tf1.saved_model.Builder(os.path.join(out_dir, "tf1_vocab_saved_model"))
            b.add_meta_graph_and_variables(
                sess, ["serve"], {"serving_default": tf1.saved_model.predict_signature_def(
                    {"words": ph}, {"ids": table.lookup(ph)})},
                assets_collection=g.get_collection(tf1.GraphKeys.ASSET_FILEPATHS),
                main_op=tf1.tables_initializer())
            b.save()
    saved = os.path.join(out_dir, "vocab_saved_model_written")
    tf.saved_model.save(m, saved, signatures=m.__call__)
    os.remove(vocab)                       # the SavedModel must not need the file
    shutil.move(saved, os.path.join(out_dir, "vocab_saved_model"))
    np.savez(os.path.join(out_dir, "vocab.npz"), words=words, ids=ids, contents=contents)


LOOP_FETCHES = ["scan_out:0", "map_out:0", "pair_out:0"]


def tensor_list_half(out_dir):
    """tf.scan / tf.map_fn (TensorFlow writes them with TensorLists) as a GraphDef."""
    import flowgrad as tf
    import flowgrad.compat.v1 as tf1
    from flowgrad.saved_model.graph_export import write_graph
    xv = np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32)
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        scan = tf.scan(lambda a, row: a * tf.tanh(row) + 1.0, x, initializer=tf.ones_like(x[0]))
        mapped = tf.map_fn(lambda row: tf.reduce_sum(row * row), x)
        pair = tf.scan(lambda acc, row: (acc[0] + row, acc[1] * 0.5 + tf.reduce_sum(row)), x,
                       initializer=(tf.zeros_like(x[0]), tf.constant(0.0)))
        for name, t in zip(LOOP_FETCHES, [scan, mapped, pair[0] + pair[1][:, None]]):
            tf.identity(t, name=name[:-2])
        write_graph(g.as_graph_def(), out_dir, "tensor_lists.pb", as_text=False)
        with tf1.Session() as sess:
            values = sess.run(LOOP_FETCHES, {x: xv})
    np.savez(os.path.join(out_dir, "tensor_lists.npz"), x=xv,
             **{"out%d" % i: v for i, v in enumerate(values)})


def check_tensor_lists(out_dir):
    import tensorflow as tf
    ref = np.load(os.path.join(out_dir, "tensor_lists.npz"))
    gd = tf.compat.v1.GraphDef()
    with open(os.path.join(out_dir, "tensor_lists.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.compat.v1.Session() as sess:
            got = sess.run(LOOP_FETCHES, {"x:0": ref["x"]})
            empty = sess.run(LOOP_FETCHES, {"x:0": ref["x"][:0]})
    for i, (fetch, value) in enumerate(zip(LOOP_FETCHES, got)):
        np.testing.assert_allclose(value, ref["out%d" % i], rtol=1e-5, atol=1e-6, err_msg=fetch)
    assert empty[0].shape == (0, 3)
    print("TensorFlow %s runs flowgrad's tf.scan / tf.map_fn (TensorList ops)" % tf.__version__)


TRAINING = ("dense_adam", "cnn_momentum", "mlp_rmsprop")


def _training_model(tf, kind, x, y):
    flat = tf.reshape(x, [-1, 16])
    if kind == "dense_adam":
        logits = tf.layers.dense(tf.layers.dense(flat, 8, activation=tf.nn.relu), 3)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=y, logits=logits))
        tf.summary.scalar("xent", loss)
        tf.summary.histogram("logits", logits)
        tf.summary.merge_all()
        return loss, tf.train.AdamOptimizer(0.01)
    if kind == "cnn_momentum":
        h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
        h = tf.layers.batch_normalization(tf.layers.max_pooling2d(h, 2, 2), training=True)
        logits = tf.layers.dense(tf.layers.flatten(tf.layers.dropout(h, 0.25, training=True)), 3)
        return tf.losses.sparse_softmax_cross_entropy(y, logits), \
            tf.train.MomentumOptimizer(0.05, 0.9)
    h = tf.layers.dense(flat, 8, activation=tf.nn.tanh)
    logits = tf.layers.dense(h + tf.layers.dense(h, 8, activation=tf.nn.elu), 3)
    xent = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(y, 3), logits=logits)
    return tf.reduce_mean(xent), tf.train.RMSPropOptimizer(0.01, momentum=0.5)


LOOP_TRAINING = ("lstm_adam", "gru_adam", "growing_tensor_array")


def _loop_training_model(tf, kind, x, y):
    """(loss, train_op) of a training graph with a loop."""
    gs = tf.train.get_or_create_global_step()
    if kind != "growing_tensor_array":
        cell = tf.nn.rnn_cell.LSTMCell(4) if kind == "lstm_adam" else tf.nn.rnn_cell.GRUCell(4)
        outs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        pred = outs[:, -1] if kind == "lstm_adam" else state
        loss = tf.identity(tf.reduce_mean(tf.square(pred - y)), name="loss")
        return loss, tf.train.AdamOptimizer(0.01).minimize(loss, global_step=gs)
    w = tf.get_variable("w", [3, 4])
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(x[:, i], w) + h)
        return i + 1, h, ta.write(i, h)
    _, h, ta = tf.while_loop(lambda i, h, ta: i < 5, body, [tf.constant(0), tf.zeros_like(y),
                                                              ta])
    loss = tf.reduce_mean(tf.square(tf.reduce_mean(ta.stack(), 0) + h - y))
    loss = tf.identity(loss, name="loss")
    grads = tf.gradients(loss, [w])
    return loss, tf.train.GradientDescentOptimizer(0.1).apply_gradients(
        [(grads[0], w)], global_step=gs)


def loop_training_half(out_dir, steps=4):
    """TF1 training graphs with loops saved by flowgrad's Saver, then trained."""
    import flowgrad.compat.v1 as tf
    rng = np.random.default_rng(2)
    xv = rng.standard_normal((2, 5, 3)).astype(np.float32)
    yv = rng.standard_normal((2, 4)).astype(np.float32)
    for kind in LOOP_TRAINING:
        os.makedirs(os.path.join(out_dir, "training", kind), exist_ok=True)
        with tf.Graph().as_default():
            tf.set_random_seed(5)
            x = tf.placeholder(tf.float32, [None, 5, 3], name="x")
            y = tf.placeholder(tf.float32, [None, 4], name="y")
            loss, train_op = _loop_training_model(tf, kind, x, y)
            saver = tf.train.Saver()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                prefix = saver.save(sess, os.path.join(out_dir, "training", kind, "model"))
                if not os.path.exists(prefix + ".meta"):
                    raise SystemExit("flowgrad wrote no .meta for the %s graph" % kind)
                losses = [sess.run([loss, train_op], {x: xv, y: yv})[0] for _ in range(steps)]
        np.savez(os.path.join(out_dir, "training", kind + ".npz"), x=xv, y=yv,
                 losses=np.array(losses))


LOOP_GRADIENTS = ("max_iter", "nested", "map_fn", "scan", "seqlen", "bidirectional",
                  "second_order", "cond_in_loop", "tensor_array_unstack", "dropout_in_loop")


def _loop_gradient_case(tf, kind, x, w):
    """A scalar of ``x`` ([2, 5, 3]) and the variable ``w`` ([3, 4]) through loops."""
    if kind == "max_iter":
        _, h = tf.while_loop(lambda i, h: True,
                             lambda i, h: (i + 1, tf.tanh(tf.matmul(x[:, i], w) + h)),
                             [0, tf.zeros([2, 4])], maximum_iterations=4)
        return tf.reduce_sum(h)
    if kind == "nested":
        def outer(i, h):
            _, g = tf.while_loop(lambda j, g: j < i + 1, lambda j, g: (j + 1, tf.sin(g) * 1.1),
                                 [0, h])
            return i + 1, tf.tanh(tf.matmul(x[:, i], w) + g)
        return tf.reduce_sum(tf.while_loop(lambda i, h: i < 5, outer, [0, tf.zeros([2, 4])])[1])
    if kind == "map_fn":
        return tf.reduce_sum(tf.map_fn(lambda r: tf.matmul(r, w) ** 2, x))
    if kind == "scan":
        return tf.reduce_sum(tf.scan(lambda a, r: tf.tanh(tf.matmul(r, w) + a),
                                     tf.transpose(x, [1, 0, 2]), initializer=tf.zeros([2, 4])))
    if kind == "seqlen":
        outs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), x, sequence_length=[3, 5],
                                        dtype=tf.float32)
        return tf.reduce_sum(outs) + tf.reduce_sum(state)
    if kind == "bidirectional":
        (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(
            tf.nn.rnn_cell.LSTMCell(4), tf.nn.rnn_cell.LSTMCell(4), x, dtype=tf.float32)
        return tf.reduce_sum(fw * bw)
    if kind == "second_order":
        _, h = tf.while_loop(lambda i, h: i < 3,
                             lambda i, h: (i + 1, tf.sin(h) * w[0] + x[0, i, 0]),
                             [0, tf.ones([2, 4])])
        (g,) = tf.gradients(tf.reduce_sum(h), w)
        return tf.reduce_sum(g * g)
    if kind == "cond_in_loop":
        def body(i, h):
            return i + 1, tf.cond(i % 2 > 0, lambda: tf.tanh(tf.matmul(x[:, i], w) + h),
                                  lambda: h * 0.5 + tf.reduce_mean(x[:, i]))
        return tf.reduce_sum(tf.while_loop(lambda i, h: i < 5, body, [0, tf.ones([2, 4])])[1])
    if kind == "tensor_array_unstack":
        ta = tf.TensorArray(tf.float32, size=5).unstack(tf.transpose(x, [1, 0, 2]))
        acc = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

        def body(i, h, acc):
            h = tf.tanh(tf.matmul(ta.read(i), w) + h)
            return i + 1, h, acc.write(i, h * 2.0)
        _, h, acc = tf.while_loop(lambda i, h, a: i < 5, body, [0, tf.zeros([2, 4]), acc])
        return tf.reduce_sum(acc.stack() ** 2) + tf.reduce_sum(h)
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.nn.dropout(
        tf.tanh(tf.matmul(x[:, i], w) + h), rate=0.25, seed=1)), [0, tf.zeros([2, 4])])
    return tf.reduce_sum(h)


def loop_gradient_half(out_dir):
    """Frozen GraphDefs of loops and their gradients (w.r.t. the variables and the input)."""
    import flowgrad.compat.v1 as tf
    rng = np.random.default_rng(4)
    xv = rng.standard_normal((2, 5, 3)).astype(np.float32)
    os.makedirs(os.path.join(out_dir, "loop_gradients"), exist_ok=True)
    for kind in LOOP_GRADIENTS:
        with tf.Graph().as_default():
            tf.set_random_seed(2)
            x = tf.placeholder(tf.float32, [None, 5, 3], name="x")
            w = tf.Variable(rng.standard_normal((3, 4)).astype(np.float32) * 0.5, name="w")
            out = tf.identity(_loop_gradient_case(tf, kind, x, w), name="out")
            grads = tf.gradients(out, tf.trainable_variables() + [x])
            fetches = [out] + [tf.identity(g, name="grad_%d" % k)
                               for k, g in enumerate(grads) if g is not None]
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                values = sess.run(fetches, {x: xv})
                frozen = tf.graph_util.convert_variables_to_constants(
                    sess, tf.get_default_graph().as_graph_def(), [t.op.name for t in fetches])
        path = os.path.join(out_dir, "loop_gradients", kind)
        with open(path + ".pb", "wb") as f:
            f.write(frozen.SerializeToString())
        np.savez(path + ".npz", x=xv, names=np.array([t.name for t in fetches]),
                 **{"value_%d" % i: v for i, v in enumerate(values)})


def check_loop_gradients(out_dir):
    import tensorflow as tf
    for kind in LOOP_GRADIENTS:
        path = os.path.join(out_dir, "loop_gradients", kind)
        ref = np.load(path + ".npz")
        gd = tf.compat.v1.GraphDef()
        with open(path + ".pb", "rb") as f:
            gd.ParseFromString(f.read())
        names = list(ref["names"])
        with tf.Graph().as_default():
            tf.import_graph_def(gd, name="")
            feed = {"x:0": ref["x"]} if any(n.name == "x" for n in gd.node) else {}
            with tf.compat.v1.Session() as sess:
                got = sess.run(names, feed)
        for i, (name, value) in enumerate(zip(names, got)):
            np.testing.assert_allclose(value, ref["value_%d" % i], rtol=1e-4, atol=1e-5,
                                       err_msg="%s: %s" % (kind, name))
    print("TensorFlow %s runs flowgrad's loops and their gradients (%s): the same values"
          % (tf.__version__, ", ".join(LOOP_GRADIENTS)))


LOOP_SAVED_MODELS = ("module_loop", "keras_lstm")


def _loop_saved_model(tf, kind):
    """A tf.Module whose ``train_step`` tf.function differentiates a while loop and applies
    the gradient: a loop growing a TensorArray, or a Keras LSTM."""
    class Step(tf.Module):
        def __init__(self):
            super().__init__()
            if kind == "keras_lstm":
                tf.keras.utils.set_random_seed(3)
                self.model = tf.keras.Sequential([tf.keras.Input((5, 3)),
                                                  tf.keras.layers.LSTM(4),
                                                  tf.keras.layers.Dense(2)])
                self.params = self.model.trainable_variables
            else:
                self.w = tf.Variable(np.linspace(-0.5, 0.5, 6, dtype=np.float32).reshape(3, 2))
                self.u = tf.Variable(np.linspace(-0.3, 0.3, 4, dtype=np.float32).reshape(2, 2))
                self.params = [self.w, self.u]

        def loss(self, x, y):
            if kind == "keras_lstm":
                return tf.reduce_mean(tf.square(self.model(x) - y))
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

            def body(i, h, ta):
                h = tf.tanh(tf.matmul(x[:, i], self.w) + tf.matmul(h, self.u))
                return i + 1, h, ta.write(i, h)
            _, h, ta = tf.while_loop(lambda i, h, ta: i < tf.shape(x)[1], body,
                                     [tf.constant(0), tf.zeros_like(y), ta])
            return tf.reduce_mean(tf.square(tf.reduce_mean(ta.stack(), 0) + h - y))

        @tf.function(input_signature=[tf.TensorSpec([None, 5, 3], tf.float32, name="x"),
                                      tf.TensorSpec([None, 2], tf.float32, name="y")])
        def train_step(self, x, y):
            with tf.GradientTape() as tape:
                loss = self.loss(x, y)
            for v, g in zip(self.params, tape.gradient(loss, self.params)):
                v.assign_sub(0.05 * g)
            return loss
    return Step()


def loop_saved_model_half(out_dir, steps=3):
    """SavedModels of train steps through loops, written by flowgrad, then trained."""
    import warnings

    import flowgrad as tf
    import flowgrad.compat.v1 as tf1
    tf1.enable_v2_behavior()
    rng = np.random.default_rng(8)
    xv = rng.standard_normal((2, 5, 3)).astype(np.float32)
    yv = rng.standard_normal((2, 2)).astype(np.float32)
    for kind in LOOP_SAVED_MODELS:
        m = _loop_saved_model(tf, kind)
        with warnings.catch_warnings():
            warnings.simplefilter("error")      # TensorFlow's format, no fallback
            tf.saved_model.save(m, os.path.join(out_dir, "loops", kind))
        losses = [float(m.train_step(xv, yv)) for _ in range(steps)]
        np.savez(os.path.join(out_dir, "loops", kind + ".npz"), x=xv, y=yv,
                 losses=np.array(losses))


def check_loop_saved_models(out_dir):
    import tensorflow as tf
    for kind in LOOP_SAVED_MODELS:
        ref = np.load(os.path.join(out_dir, "loops", kind + ".npz"))
        m = tf.saved_model.load(os.path.join(out_dir, "loops", kind))
        got = [float(m.train_step(ref["x"], ref["y"])) for _ in range(len(ref["losses"]))]
        np.testing.assert_allclose(got, ref["losses"], rtol=1e-5, atol=1e-6, err_msg=kind)
    print("TensorFlow %s trains flowgrad's SavedModels whose train_step differentiates a while "
          "loop (%s): the same loss at every step" % (tf.__version__,
                                                      ", ".join(LOOP_SAVED_MODELS)))


def training_half(out_dir, steps=4):
    """TF1 training graphs saved by flowgrad's Saver (checkpoint + .meta), then trained."""
    import flowgrad.compat.v1 as tf
    rng = np.random.default_rng(1)
    xv = rng.standard_normal((8, 4, 4, 1)).astype(np.float32)
    yv = rng.integers(0, 3, 8).astype(np.int32)
    for kind in TRAINING:
        os.makedirs(os.path.join(out_dir, "training", kind), exist_ok=True)
        with tf.Graph().as_default():
            tf.set_random_seed(5)
            x = tf.placeholder(tf.float32, [None, 4, 4, 1], name="x")
            y = tf.placeholder(tf.int32, [None], name="y")
            gs = tf.train.get_or_create_global_step()
            loss, opt = _training_model(tf, kind, x, y)
            loss = tf.identity(loss, name="loss")
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                opt.minimize(loss, global_step=gs)
            saver = tf.train.Saver()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                prefix = saver.save(sess, os.path.join(out_dir, "training", kind, "model"))
                if not os.path.exists(prefix + ".meta"):
                    raise SystemExit("flowgrad wrote no .meta for the %s graph" % kind)
                train_op = tf.get_collection("train_op")[-1]
                losses = [sess.run([loss, train_op], {x: xv, y: yv})[0] for _ in range(steps)]
        np.savez(os.path.join(out_dir, "training", kind + ".npz"), x=xv, y=yv,
                 losses=np.array(losses))


def check_training(out_dir):
    import tensorflow as tf
    v1 = tf.compat.v1
    for kind in TRAINING + LOOP_TRAINING:
        ref = np.load(os.path.join(out_dir, "training", kind + ".npz"))
        prefix = os.path.join(out_dir, "training", kind, "model")
        with tf.Graph().as_default():
            saver = v1.train.import_meta_graph(prefix + ".meta")
            train_op = v1.get_collection("train_op")[-1]
            loss = v1.get_default_graph().get_tensor_by_name("loss:0")
            with v1.Session() as sess:
                saver.restore(sess, prefix)
                got = [sess.run([loss, train_op], {"x:0": ref["x"], "y:0": ref["y"]})[0]
                       for _ in range(len(ref["losses"]))]
                step = sess.run(v1.train.get_global_step())
        np.testing.assert_allclose(got, ref["losses"], rtol=1e-5, atol=1e-6, err_msg=kind)
        assert step == len(ref["losses"]), (kind, step)
    print("TensorFlow %s resumes flowgrad's TF1 training graphs (%s): the same loss at every "
          "step" % (tf.__version__, ", ".join(TRAINING + LOOP_TRAINING)))


def check_vocab(out_dir):
    import tensorflow as tf
    ref = np.load(os.path.join(out_dir, "vocab.npz"), allow_pickle=True)
    directory = os.path.join(out_dir, "vocab_saved_model")
    m = tf.saved_model.load(directory)
    got = m.signatures["serving_default"](words=tf.constant(list(ref["words"])))["output_0"]
    np.testing.assert_array_equal(got.numpy(), ref["ids"])
    np.testing.assert_array_equal(m(tf.constant(list(ref["words"]))).numpy(), ref["ids"])
    assert m.vocab.asset_path.numpy().decode() == os.path.join(directory, "assets", "vocab.txt")
    assert m.contents().numpy() == ref["contents"]
    tf1_dir = os.path.join(out_dir, "tf1_vocab_saved_model")
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], tf1_dir)
        sig = meta.signature_def["serving_default"]
        got = sess.run(sig.outputs["ids"].name, {sig.inputs["words"].name: ref["words"]})
        assert os.listdir(os.path.join(tf1_dir, "assets")) == ["vocab.txt"]
    np.testing.assert_array_equal(got, ref["ids"])
    print("TensorFlow %s runs flowgrad's vocabulary lookup SavedModels (TF2: its asset moved "
          "with it; TF1: the builder's assets collection)" % tf.__version__)


def check_control_flow(out_dir):
    import tensorflow as tf
    ref = np.load(os.path.join(out_dir, "control_flow.npz"))
    m = tf.saved_model.load(os.path.join(out_dir, "control_flow_saved_model"))
    np.testing.assert_allclose(m(tf.constant(ref["x"])).numpy(), ref["pos"], rtol=1e-5)
    out = m.signatures["serving_default"](x=tf.constant(-ref["x"]))["output_0"]
    np.testing.assert_allclose(out.numpy(), ref["neg"], rtol=1e-5)
    assert int(m.steps.numpy()) == 6
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(m(tf.constant(ref["x"])))
    assert tape.gradient(total, m.w).shape == (3, 3)
    gd = tf.compat.v1.GraphDef()
    with open(os.path.join(out_dir, "control_flow.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.compat.v1.Session() as sess:
            got = sess.run(CF_FETCHES, {"x:0": ref["x"]})
    for i, (fetch, value) in enumerate(zip(CF_FETCHES, got)):
        np.testing.assert_allclose(value, ref["out%d" % i], rtol=1e-5, err_msg=fetch)
    print("TensorFlow %s runs flowgrad's If/While (GraphDef and SavedModel, nested, with "
          "variables and gradients)" % tf.__version__)


def check(out_dir):
    import tensorflow as tf
    from google.protobuf import text_format
    check_saved_model(out_dir)           # TF2 (eager) first, then TF1's graph mode
    check_control_flow(out_dir)
    check_loop_saved_models(out_dir)
    check_vocab(out_dir)
    tf.compat.v1.disable_eager_execution()
    check_training(out_dir)
    check_loop_gradients(out_dir)
    check_tensor_lists(out_dir)
    ref = np.load(os.path.join(out_dir, "expected.npz"))
    for name in ("graph.pbtxt", "graph.pb", "frozen.pb"):
        gd = tf.compat.v1.GraphDef()
        with open(os.path.join(out_dir, name), "rb") as f:
            data = f.read()
        if name.endswith(".pbtxt"):
            text_format.Parse(data.decode(), gd)
        else:
            gd.ParseFromString(data)
        with tf.Graph().as_default():
            tf.import_graph_def(gd, name="")
            with tf.compat.v1.Session() as sess:
                if name != "frozen.pb":
                    sess.run("w/Assign")
                got = sess.run(FETCHES, {"x:0": ref["x"], "idx:0": ref["idx"]})
        for i, (fetch, value) in enumerate(zip(FETCHES, got)):
            np.testing.assert_allclose(value, ref["out%d" % i], rtol=1e-5, atol=1e-6,
                                       err_msg="%s: %s" % (name, fetch))
        print("TensorFlow %s loads flowgrad's %s: %d outputs match"
              % (tf.__version__, name, len(FETCHES)))
    with tf.Graph().as_default():
        saver = tf.compat.v1.train.import_meta_graph(os.path.join(out_dir, "model.meta"))
        (w,) = tf.compat.v1.global_variables()
        assert saver is not None and w.name == "w:0" and tf.compat.v1.trainable_variables() == [w]
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            w.load(ref["w"], sess)
            got = sess.run(FETCHES, {"x:0": ref["x"], "idx:0": ref["idx"]})
        for i, (fetch, value) in enumerate(zip(FETCHES, got)):
            np.testing.assert_allclose(value, ref["out%d" % i], rtol=1e-5, atol=1e-6,
                                       err_msg="model.meta: %s" % fetch)
        print("TensorFlow %s imports flowgrad's model.meta (variable collections included)"
              % tf.__version__)
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"],
                                                    os.path.join(out_dir, "tf1_saved_model"))
        sig = meta.signature_def["serving_default"]
        probs, out = sess.run([sig.outputs["probs"].name, sig.outputs["out"].name],
                              {sig.inputs["x"].name: ref["x"], sig.inputs["idx"].name: ref["idx"]})
        np.testing.assert_allclose(probs, ref["out0"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out, ref["out1"], rtol=1e-5, atol=1e-6)
        print("TensorFlow %s loads flowgrad's TF1 SavedModel (simple_save) and runs its "
              "signature" % tf.__version__)


def check_saved_model(out_dir):
    import tensorflow as tf
    ref = np.load(os.path.join(out_dir, "saved_model.npz"))
    m = tf.saved_model.load(os.path.join(out_dir, "saved_model"))
    x = tf.constant(ref["x"])
    assert sorted(m.signatures) == ["loss", "serving_default"]
    np.testing.assert_allclose(m.signatures["serving_default"](x=x)["output_0"].numpy(),
                               ref["probs"], rtol=1e-6)
    out = m.signatures["loss"](x=x)
    np.testing.assert_allclose(out["loss"].numpy(), ref["loss"], rtol=1e-6)
    np.testing.assert_allclose(m(x).numpy(), ref["probs"], rtol=1e-6)
    assert int(m.calls.numpy()) == int(ref["calls"]) + 3
    with tf.GradientTape() as tape:
        total = m.loss(x)["loss"]
    assert tape.gradient(total, m.w).shape == (3, 2)
    print("TensorFlow %s loads flowgrad's SavedModel: signatures, functions and variables "
          "match" % tf.__version__)


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
