"""Records what TensorFlow 2.21 (``tf.compat.v1`` with v2 behaviour off) prints for small TF1
programs, each the pattern where a TF1 program written as Chinese blog posts and GitHub
repositories of 2017-2019 write them printed other numbers on flowgrad (or stopped);
tests/test_tf1_blog_programs.py runs each with ``tf`` = ``flowgrad.compat.v1`` and compares.

TensorFlow 2.21 loads ``tf.compat.v1.layers`` from the legacy Keras 2 (tf_keras). Run from the
repository root:
    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/tf1_blog_programs.py
It writes tests/data/tf1_blog_programs/tf_2_21.json: ``{name: {"source": ..., "stdout": ...}}``.
"""
import contextlib
import io
import json
import os
import sys
import tempfile

PROGRAMS = {
    # A reference variable's reads share its buffer: an op ordered after an update (by a
    # control dependency or data) sees the new value; a fetched read gives the value at the
    # end of the run (ExponentialMovingAverage after an assign, a counter read after
    # assign_add, the hand-written batch-norm "update then identity").
    "reads_after_updates": '''
counter = tf.Variable(0, name="counter")
inc = tf.assign_add(counter, 1)
with tf.control_dependencies([inc]):
    after_inc = tf.identity(counter) + 10
w = tf.Variable([1.0, 2.0])
asg = tf.assign(w, [5.0, 6.0])
with tf.control_dependencies([asg]):
    scaled = w * 1.0
    ident = tf.identity(w)
loss = tf.reduce_sum(w * w)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
early = w + 0.0
read = w.read_value()
m = tf.Variable(0.0)
x = tf.placeholder(tf.float32, [None])
upd = tf.assign(m, tf.reduce_mean(x))
ema = tf.train.ExponentialMovingAverage(decay=0.9)
with tf.control_dependencies([upd]):
    ema_op = ema.apply([m])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(after_inc), sess.run(after_inc), sess.run(counter))
    print(sess.run([scaled, ident]))
    sess.run(tf.global_variables_initializer())
    for _ in range(2):
        print(sess.run([train, w, loss, read, early]))
    for _ in range(3):
        sess.run(ema_op, {x: [1.0, 3.0]})
    print("%.5f" % sess.run(ema.average(m)))
''',
    # convert_variables_to_constants(sess, sess.graph_def, ...): the freeze scripts' form.
    "freeze_session_graph_def": '''
tf.set_random_seed(21)
x = tf.placeholder(tf.float32, [None, 4], name="input")
w = tf.get_variable("w", [4, 2], initializer=tf.glorot_normal_initializer())
prob = tf.nn.softmax(tf.matmul(x, w), name="output")
X = np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(type(sess.graph_def).__name__)
    frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["output"])
    print(sorted(n.op for n in frozen.node))
with tf.Graph().as_default() as g:
    tf.import_graph_def(frozen, name="")
    with tf.Session(graph=g) as sess:
        print(np.round(sess.run("output:0", {"input:0": X}), 5))
''',
    # Saver.save's .meta of a TextCNN training graph (embedding_lookup + Adam gives a sparse
    # update through UnsortedSegmentSum, the concat of the pools a SplitV gradient), resumed
    # with import_meta_graph: the two ops were written with flowgrad's attributes (no .meta).
    "meta_of_text_cnn_training": '''
tf.set_random_seed(1234)
ids = tf.placeholder(tf.int32, [None, 6], name="input_x")
y = tf.placeholder(tf.float32, [None, 2], name="input_y")
emb = tf.Variable(tf.random_uniform([10, 4], -1.0, 1.0), name="W")
x = tf.expand_dims(tf.nn.embedding_lookup(emb, ids), -1)
pools = []
for size in (2, 3):
    with tf.name_scope("conv-maxpool-%d" % size):
        w = tf.Variable(tf.truncated_normal([size, 4, 1, 3], stddev=0.1), name="W")
        h = tf.nn.relu(tf.nn.conv2d(x, w, [1, 1, 1, 1], "VALID"))
        pools.append(tf.nn.max_pool(h, [1, 7 - size, 1, 1], [1, 1, 1, 1], "VALID"))
flat = tf.reshape(tf.concat(pools, 3), [-1, 6])
out_w = tf.get_variable("out_w", [6, 2], initializer=tf.glorot_uniform_initializer())
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=tf.matmul(flat, out_w),
                                                              labels=y), name="loss")
train_op = tf.train.AdamOptimizer(0.01).minimize(loss, name="train")
tf.add_to_collection("train_op", train_op)
rng = np.random.RandomState(0)
X, Y = rng.randint(0, 10, (8, 6)), np.eye(2)[rng.randint(0, 2, 8)]
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        print("%.5f" % sess.run([train_op, loss], {ids: X, y: Y})[1])
    saver.save(sess, "./model")
import os
print(sorted(os.listdir(".")))
with tf.Graph().as_default():
    restorer = tf.train.import_meta_graph("model.meta")
    with tf.Session() as sess:
        restorer.restore(sess, "./model")
        g = tf.get_default_graph()
        feed = {g.get_tensor_by_name("input_x:0"): X, g.get_tensor_by_name("input_y:0"): Y}
        step = tf.get_collection("train_op")[0]
        for _ in range(2):
            print("%.5f" % sess.run([step, "loss:0"], feed)[1])
''',
    # tf.layers.batch_normalization's UPDATE_OPS are Operations (the collection held
    # tensors): programs print their names, run them (None each) and group them.
    "batch_norm_update_ops": '''
tf.set_random_seed(2019)
x = tf.placeholder(tf.float32, [None, 4, 4, 2])
h = tf.layers.batch_normalization(tf.layers.conv2d(x, 3, 3, padding="same"), training=True,
                                  name="bn_conv")
h = tf.layers.batch_normalization(tf.layers.dense(tf.layers.flatten(h), 5), training=True)
loss = tf.reduce_mean(tf.square(h))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
print([(type(u).__name__, u.name) for u in update_ops])
with tf.control_dependencies(update_ops):
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
X = np.linspace(-1, 1, 64).reshape(2, 4, 4, 2).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(update_ops, {x: X}))
    sess.run([train, tf.group(*update_ops)], {x: X})
    print(np.round(sess.run(tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES,
                                              "bn_conv/moving_mean")[0]), 5))
''',
    # CRNN/OCR programs' label error rate: tf.edit_distance (was missing) of a CTC decode
    # against sparse_placeholder labels, TensorFlow's documented example, SparseTensorValues.
    "edit_distance": '''
hyp = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], (2, 1, 1))
truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"],
                        (2, 2, 2))
d = tf.edit_distance(hyp, truth)
print(d.shape, d.dtype)
labels = tf.sparse_placeholder(tf.int32)
logits = tf.constant(np.log(np.random.RandomState(0).dirichlet(np.ones(4), (6, 2))),
                     tf.float32)
decoded, _ = tf.nn.ctc_greedy_decoder(logits, [6, 4])
ler = tf.reduce_mean(tf.edit_distance(tf.cast(decoded[0], tf.int32), labels))
raw = tf.edit_distance(tf.cast(decoded[0], tf.int32), labels, normalize=False)
with tf.Session() as sess:
    print(sess.run(d))
    print(sess.run(tf.edit_distance(hyp, truth, normalize=False)))
    feed = {labels: ([[0, 0], [0, 1], [1, 0]], [1, 2, 0], [2, 3])}
    print(sess.run(decoded[0], feed).values, sess.run([ler, raw], feed))
    print(sess.run(tf.edit_distance(tf.SparseTensorValue([[0, 0], [0, 1], [0, 2], [2, 0]],
                                                         [1, 2, 3, 4], [3, 3]),
                                    tf.SparseTensorValue([[0, 0], [0, 1], [1, 0]], [1, 3, 5],
                                                         [3, 2]))))
    one = tf.SparseTensor([[0, 0]], [1], [1, 2])
    print(sess.run(tf.edit_distance(tf.SparseTensor([[0, 5]], [1], [1, 2]), one)))
    try:
        sess.run(tf.edit_distance(tf.SparseTensor([[3, 0]], [1], [1, 2]), one))
    except tf.errors.InternalError as e:
        print("InternalError", "Got an inner product 3 which would require" in e.message)
try:
    tf.edit_distance(tf.SparseTensor([[0, 0, 0]], [1], [1, 1, 1]), one)
except ValueError as e:
    print("ValueError", str(e)[:60])
try:
    tf.edit_distance(tf.constant([[1]]), truth)
except TypeError as e:
    print("TypeError", e)
''',
    # tf.control_dependencies on a fed placeholder (the input check before a step): the
    # placeholder became a control input of the plan, which then stopped as if unfed.
    "control_dependency_on_a_placeholder": '''
x = tf.placeholder(tf.float32, [None], name="x")
v = tf.Variable(1.0)
with tf.control_dependencies([x]):
    a = tf.identity(v) * 2
with tf.control_dependencies([x, tf.reduce_sum(x)]):
    b = tf.assign_add(v, 1.0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(a, {x: [1.0, 2.0]}), sess.run(b, {x: [3.0]}), sess.run(a, {x: []}))
    try:
        sess.run(a)
    except tf.errors.InvalidArgumentError:
        print("InvalidArgumentError")
''',
    # TF1's while_loop returns the container the body returned (a tuple from
    # ``return i + 1, acc``), not the loop_vars' list: programs unpack or print it.
    "while_loop_returns_the_bodys_container": '''
x = tf.placeholder(tf.float32, [None])
w = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + tf.reduce_sum(x)), [0, 0.0])
u = tf.while_loop(lambda i, s: i < 2, lambda i, s: [i + 1, s * 2.0], (0, 1.0))
one = tf.while_loop(lambda i: i < 5, lambda i: (i + 2,), [0])
print(type(w).__name__, type(u).__name__, isinstance(one, tf.Tensor))
with tf.Session() as sess:
    print(sess.run(w, {x: [1.0, 2.0]}), sess.run(u), sess.run(one))
''',
    # Wide & deep programs' wide part: tf.feature_column.linear_model (was missing from the
    # TF1 face), its variables, the combiners and a few Ftrl steps.
    "linear_model_wide_part": '''
features = {"age": tf.constant([[25.], [40.], [33.]]),
            "city": tf.constant([["bj", "bj"], ["sh", ""], ["gz", "sh"]]),
            "tags": tf.constant([["a"], ["b"], ["a"]])}
age = tf.feature_column.numeric_column("age", normalizer_fn=lambda x: (x - 30.) / 10.)
age_b = tf.feature_column.bucketized_column(age, boundaries=[-1.0, 0.0, 1.0])
city = tf.feature_column.categorical_column_with_vocabulary_list("city", ["bj", "sh", "gz"])
cols = {}
logits = tf.feature_column.linear_model(features, [age_b, city, age], cols_to_vars=cols)
mean = tf.feature_column.linear_model(features, [city], units=2, sparse_combiner="mean")
sqrtn = tf.feature_column.linear_model(features, [city], sparse_combiner="sqrtn")
print(logits.shape, mean.shape, sorted(v.name for v in tf.global_variables()))
print(sorted(str(k) if k == "bias" else k.name for k in cols))
loss = tf.losses.sigmoid_cross_entropy(tf.constant([[1.], [0.], [1.]]), logits)
train = tf.train.FtrlOptimizer(0.1).minimize(loss)
assign = [tf.assign(v, tf.fill(tf.shape(v), 0.5)) for v in tf.global_variables()
          if "linear_model_" in v.name]
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    sess.run(assign)
    print(sess.run([mean, sqrtn]))
    for _ in range(3):
        print("%.5f" % sess.run([train, loss])[1])
    print(np.round(sess.run(logits), 5))
''',
}


def main() -> None:
    """Runs every program with ``tf`` = TensorFlow's compat.v1 and writes the recording."""
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    out = {}
    here = os.getcwd()
    for name, source in PROGRAMS.items():
        buf = io.StringIO()
        with tempfile.TemporaryDirectory() as d, tf.Graph().as_default():
            os.chdir(d)
            try:
                with contextlib.redirect_stdout(buf):
                    exec(compile(source, name, "exec"), {"tf": tf, "np": np})
            finally:
                os.chdir(here)
        out[name] = {"source": source, "stdout": buf.getvalue()}
        print(name, "\n" + buf.getvalue(), file=sys.stderr)
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "tf1_blog_programs", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump({"reference": "tensorflow " + tf.__version__, "programs": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
