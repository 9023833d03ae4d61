"""A BiLSTM-CRF tagger as Chinese NER blog posts write it for TF 1.x: embeddings, a
bidirectional LSTM, a projection to tag scores, tf.contrib.crf.crf_log_likelihood for the loss,
crf_decode in the graph and viterbi_decode in NumPy for prediction."""
import numpy as np
import tensorflow as tf

np.random.seed(0)
tf.set_random_seed(0)
vocab, num_tags, hidden, max_len, batch = 30, 5, 16, 7, 16

# Toy data: the tag of a word is its id modulo 5, so the task is learnable.
words = np.random.randint(1, vocab, size=(64, max_len)).astype(np.int32)
lengths = np.random.randint(1, max_len + 1, size=64).astype(np.int32)
tags = (words % num_tags).astype(np.int32)
for i, n in enumerate(lengths):
    words[i, n:] = 0
    tags[i, n:] = 0

word_ids = tf.placeholder(tf.int32, [None, None], name="word_ids")
labels = tf.placeholder(tf.int32, [None, None], name="labels")
sequence_lengths = tf.placeholder(tf.int32, [None], name="sequence_lengths")

with tf.variable_scope("words"):
    embeddings = tf.get_variable("embeddings", [vocab, hidden])
    word_embeddings = tf.nn.embedding_lookup(embeddings, word_ids)
with tf.variable_scope("bi-lstm"):
    cell_fw = tf.contrib.rnn.LSTMCell(hidden)
    cell_bw = tf.contrib.rnn.LSTMCell(hidden)
    (out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(
        cell_fw, cell_bw, word_embeddings, sequence_length=sequence_lengths, dtype=tf.float32)
    output = tf.concat([out_fw, out_bw], axis=-1)
with tf.variable_scope("proj"):
    W = tf.get_variable("W", [2 * hidden, num_tags])
    b = tf.get_variable("b", [num_tags], initializer=tf.zeros_initializer())
    nsteps = tf.shape(output)[1]
    pred = tf.matmul(tf.reshape(output, [-1, 2 * hidden]), W) + b
    logits = tf.reshape(pred, [-1, nsteps, num_tags])

log_likelihood, transition_params = tf.contrib.crf.crf_log_likelihood(
    logits, labels, sequence_lengths)
loss = tf.reduce_mean(-log_likelihood)
train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
decode_tags, best_score = tf.contrib.crf.crf_decode(logits, transition_params, sequence_lengths)

print("transitions", transition_params.name, transition_params.get_shape().as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = []
    for _epoch in range(15):
        for start in range(0, 64, batch):
            feed = {word_ids: words[start:start + batch], labels: tags[start:start + batch],
                    sequence_lengths: lengths[start:start + batch]}
            _, value = sess.run([train_op, loss], feed)
        losses.append(value)
    print("loss %.4f -> %.4f" % (losses[0], losses[-1]))
    feed = {word_ids: words, sequence_lengths: lengths}
    logits_v, trans_v, graph_tags = sess.run([logits, transition_params, decode_tags], feed)
    correct = total = agree = 0
    for row, n in enumerate(lengths):
        viterbi_seq, _ = tf.contrib.crf.viterbi_decode(logits_v[row, :n], trans_v)
        agree += int(list(viterbi_seq) == list(graph_tags[row, :n]))
        correct += int(np.sum(np.array(viterbi_seq) == tags[row, :n]))
        total += int(n)
    print("accuracy %.3f" % (correct / total))
    print("viterbi agrees with crf_decode on %d of %d" % (agree, len(lengths)))
