"""TensorFlow's candidate samplers, ``compute_accidental_hits``, ``nce_loss`` and
``sampled_softmax_loss``: their draws (seeded), expected counts, losses, gradients w.r.t. the
weights, biases and inputs, and a few steps of a word2vec-style TF1 training loop.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/sampled_losses.py
> tests/data/sampled_losses/tf_2_21.txt``; tests/test_sampled_losses.py runs it with
``python -m flowgrad`` and compares (integers exactly, floats to a few float32 ulps).
"""
import numpy as np
import tensorflow.compat.v1 as tf

np.set_printoptions(precision=7, suppress=True, linewidth=200)
LABELS = np.array([[0, 3], [7, 1], [2, 2], [40, 5]], np.int64)


def show(label, *values):
    print(label, *[np.asarray(v).tolist() for v in values])


# -- TF2: eager samplers and losses
tf.random.set_random_seed(3)
for _run in range(2):
    show("eager log_uniform", *tf.random.log_uniform_candidate_sampler(
        LABELS, 2, 6, True, 50, seed=11))
    show("eager uniform", *tf.random.uniform_candidate_sampler(LABELS, 2, 6, False, 50, seed=12))
w = tf.Variable(np.linspace(-1, 1, 50 * 4, dtype=np.float32).reshape(50, 4))
b = tf.Variable(np.linspace(0, 0.5, 50, dtype=np.float32))
x = tf.constant(np.linspace(-2, 2, 16, dtype=np.float32).reshape(4, 4))
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(tf.nn.nce_loss(w, b, LABELS, x, 6, 50, num_true=2, sampled_values=(
        tf.random.uniform_candidate_sampler(LABELS, 2, 6, True, 50, seed=4))))
gw, gb, gx = tape.gradient(loss, [w, b, x])
show("eager nce_loss", loss)
show("eager nce grads", tf.convert_to_tensor(gw), tf.convert_to_tensor(gb), gx)

# -- TF1: graphs
tf.disable_v2_behavior()
with tf.Graph().as_default():
    tf.set_random_seed(7)
    true = tf.constant(LABELS)
    ops = {
        "log_uniform unique": tf.nn.log_uniform_candidate_sampler(true, 2, 8, True, 45),
        "log_uniform": tf.nn.log_uniform_candidate_sampler(true, 2, 8, False, 1000, seed=5),
        "uniform unique": tf.random.uniform_candidate_sampler(true, 2, 5, True, 45),
        "uniform": tf.nn.uniform_candidate_sampler(true, 2, 5, False, 100),
        "fixed_unigram": tf.nn.fixed_unigram_candidate_sampler(
            true, 2, 6, True, 41, unigrams=[float(i % 7 + 1) for i in range(41)]),
        "fixed_unigram distorted": tf.nn.fixed_unigram_candidate_sampler(
            true, 2, 6, False, 41, distortion=0.75, num_reserved_ids=3,
            unigrams=[float(i % 5 + 1) for i in range(38)]),
        "fixed_unigram shard": tf.nn.fixed_unigram_candidate_sampler(
            tf.constant([[0, 2], [4, 6]], tf.int64), 2, 4, True, 21, num_shards=2, shard=0,
            unigrams=[float(i + 1) for i in range(42)]),
        "all": tf.nn.all_candidate_sampler(true, 2, 50, True),
    }
    learned = tf.nn.learned_unigram_candidate_sampler(true, 2, 5, False, 60, seed=1)
    hits = tf.nn.compute_accidental_hits(true, tf.constant([5, 2, 9, 3, 2], tf.int64), 2)
    with tf.Session() as sess:
        for _run in range(2):
            for name, op in ops.items():
                show(name, *sess.run(op))
        for _run in range(2):
            show("learned_unigram true_expected_count", sess.run(learned[1]))
        show("compute_accidental_hits", *sess.run(hits))
        print("dtypes", [t.dtype.name for t in ops["uniform"]], [t.dtype.name for t in hits])
        try:
            sess.run(tf.nn.uniform_candidate_sampler(true, 2, 5, True, 4))
        except tf.errors.InvalidArgumentError as e:
            print("InvalidArgumentError", [line for line in str(e).splitlines()
                                           if "range" in line][0].strip())

with tf.Graph().as_default():
    tf.set_random_seed(1)
    w = tf.Variable(np.linspace(-1, 1, 30 * 5, dtype=np.float32).reshape(30, 5), name="w")
    b = tf.Variable(np.linspace(-0.3, 0.3, 30, dtype=np.float32), name="b")
    x = tf.constant(np.cos(np.arange(20.0)).reshape(4, 5).astype(np.float32))
    labels = tf.constant(LABELS % 30)
    nce = tf.nn.nce_loss(w, b, labels, x, 7, 30, num_true=2)
    nce_hits = tf.nn.nce_loss(w, b, labels, x, 7, 30, num_true=2, remove_accidental_hits=True)
    ssm = tf.nn.sampled_softmax_loss(w, b, labels, x, 7, 30, num_true=2)
    ssm_shards = tf.nn.sampled_softmax_loss([w[:15], w[15:]], b, labels[:, :1], x, 7, 30,
                                            partition_strategy="div", seed=3)
    grads = [tf.gradients(tf.reduce_sum(loss), [w, b, x]) for loss in (nce, ssm)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for name, loss in (("nce", nce), ("nce remove_accidental_hits", nce_hits),
                           ("sampled_softmax", ssm), ("sampled_softmax shards", ssm_shards)):
            show(name, *sess.run([loss, loss]))
        for name, g in zip(("nce", "sampled_softmax"), grads):
            gw, gb, gx = sess.run(g)
            show(name + " grads", np.asarray(gw.values).shape, gw.indices, gw.values,
                 gb.indices, gb.values, gx)

# a word2vec-style training loop (skip-gram on a toy corpus)
with tf.Graph().as_default():
    tf.set_random_seed(42)
    vocabulary_size, embedding_size, batch_size = 40, 8, 8
    train_inputs = tf.placeholder(tf.int32, shape=[batch_size])
    train_labels = tf.placeholder(tf.int32, shape=[batch_size, 1])
    embeddings = tf.Variable(tf.random_uniform([vocabulary_size, embedding_size], -1.0, 1.0))
    embed = tf.nn.embedding_lookup(embeddings, train_inputs)
    nce_weights = tf.Variable(tf.truncated_normal([vocabulary_size, embedding_size],
                                                  stddev=1.0 / np.sqrt(embedding_size)))
    nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
    loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases,
                                         labels=train_labels, inputs=embed, num_sampled=6,
                                         num_classes=vocabulary_size))
    ssm_loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(
        weights=nce_weights, biases=nce_biases, labels=train_labels, inputs=embed,
        num_sampled=6, num_classes=vocabulary_size))
    step = tf.train.GradientDescentOptimizer(1.0).minimize(loss + ssm_loss)
    norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keepdims=True))
    similarity = tf.matmul(embeddings / norm, embeddings / norm, transpose_b=True)
    corpus = (np.arange(200) * 7 % 37 + np.arange(200) % 3).astype(np.int32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(6):
            at = i * batch_size
            feed = {train_inputs: corpus[at:at + batch_size],
                    train_labels: corpus[at + 1:at + 1 + batch_size].reshape(-1, 1)}
            _, l1, l2 = sess.run([step, loss, ssm_loss], feed)
            print("step", i, np.float32(l1), np.float32(l2))
        print("nearest", np.argsort(-sess.run(similarity)[:4], axis=1)[:, 1:4].tolist())
