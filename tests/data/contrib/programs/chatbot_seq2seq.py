"""A seq2seq chatbot as Chinese blog posts and the Udacity seq2seq lesson write it in TF 1.x:
embed_sequence, a MultiRNNCell of LSTMCells with dropout, Bahdanau attention, TrainingHelper
with impute_finished, a GreedyEmbeddingHelper decoder reusing the variables, named
'logits'/'predictions' tensors, a Saver checkpoint, and answering from the restored graph."""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.python.layers.core import Dense

pairs = [("hi", "hello"), ("how are you", "i am fine"), ("what is your name", "i am bot"),
         ("bye", "see you"), ("thanks", "you are welcome"), ("who are you", "i am bot")]
words = sorted({w for q, a in pairs for w in (q + " " + a).split()})
vocab = ["<PAD>", "<GO>", "<EOS>", "<UNK>"] + words
w2i = {w: i for i, w in enumerate(vocab)}
PAD, GO, EOS = w2i["<PAD>"], w2i["<GO>"], w2i["<EOS>"]


def encode(text, max_len):
    ids = [w2i.get(w, 3) for w in text.split()]
    return ids + [PAD] * (max_len - len(ids))


src = np.array([encode(q, 4) for q, _ in pairs], np.int32)
src_len = np.array([len(q.split()) for q, _ in pairs], np.int32)
tgt_len = np.array([len(a.split()) + 1 for _, a in pairs], np.int32)
tgt = np.array([encode(a + " <EOS>", tgt_len.max()) for _, a in pairs], np.int32)

tf.reset_default_graph()
tf.set_random_seed(1)
rnn_size, num_layers, emb_size = 32, 2, 16

inputs = tf.placeholder(tf.int32, [None, None], name="inputs")
targets = tf.placeholder(tf.int32, [None, None], name="targets")
source_sequence_length = tf.placeholder(tf.int32, (None,), name="source_sequence_length")
target_sequence_length = tf.placeholder(tf.int32, (None,), name="target_sequence_length")
keep_prob = tf.placeholder_with_default(1.0, [], name="keep_prob")
max_target_sequence_length = tf.reduce_max(target_sequence_length, name="max_target_len")
batch_size = tf.shape(inputs)[0]

enc_embed_input = tf.contrib.layers.embed_sequence(inputs, len(vocab), emb_size)


def get_lstm_cell(rnn_size):
    cell = tf.contrib.rnn.LSTMCell(rnn_size,
                                   initializer=tf.random_uniform_initializer(-0.1, 0.1, seed=2))
    return tf.contrib.rnn.DropoutWrapper(cell, output_keep_prob=keep_prob)


enc_cell = tf.contrib.rnn.MultiRNNCell([get_lstm_cell(rnn_size) for _ in range(num_layers)])
enc_output, enc_state = tf.nn.dynamic_rnn(enc_cell, enc_embed_input,
                                          sequence_length=source_sequence_length,
                                          dtype=tf.float32)

ending = tf.strided_slice(targets, [0, 0], [batch_size, -1], [1, 1])
dec_input = tf.concat([tf.fill([batch_size, 1], GO), ending], 1)
dec_embeddings = tf.Variable(tf.random_uniform([len(vocab), emb_size]))
dec_embed_input = tf.nn.embedding_lookup(dec_embeddings, dec_input)

dec_cell = tf.contrib.rnn.MultiRNNCell([get_lstm_cell(rnn_size) for _ in range(num_layers)])
attention_mechanism = tf.contrib.seq2seq.BahdanauAttention(
    rnn_size, enc_output, memory_sequence_length=source_sequence_length)
dec_cell = tf.contrib.seq2seq.AttentionWrapper(dec_cell, attention_mechanism,
                                               attention_layer_size=rnn_size)
initial_state = dec_cell.zero_state(batch_size, tf.float32).clone(cell_state=enc_state)
output_layer = Dense(len(vocab),
                     kernel_initializer=tf.truncated_normal_initializer(mean=0.0, stddev=0.1))

with tf.variable_scope("decode"):
    training_helper = tf.contrib.seq2seq.TrainingHelper(
        inputs=dec_embed_input, sequence_length=target_sequence_length, time_major=False)
    training_decoder = tf.contrib.seq2seq.BasicDecoder(dec_cell, training_helper, initial_state,
                                                       output_layer)
    training_decoder_output, _, _ = tf.contrib.seq2seq.dynamic_decode(
        training_decoder, impute_finished=True, maximum_iterations=max_target_sequence_length)

with tf.variable_scope("decode", reuse=True):
    start_tokens = tf.tile(tf.constant([GO], dtype=tf.int32), [batch_size], name="start_tokens")
    predicting_helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(dec_embeddings, start_tokens,
                                                                 EOS)
    predicting_decoder = tf.contrib.seq2seq.BasicDecoder(dec_cell, predicting_helper,
                                                         initial_state, output_layer)
    predicting_decoder_output, _, _ = tf.contrib.seq2seq.dynamic_decode(
        predicting_decoder, impute_finished=True, maximum_iterations=10)

training_logits = tf.identity(training_decoder_output.rnn_output, "logits")
predicting_logits = tf.identity(predicting_decoder_output.sample_id, name="predictions")
masks = tf.sequence_mask(target_sequence_length, max_target_sequence_length, dtype=tf.float32,
                         name="masks")

with tf.name_scope("optimization"):
    cost = tf.contrib.seq2seq.sequence_loss(training_logits, targets, masks)
    optimizer = tf.train.AdamOptimizer(0.01)
    gradients = optimizer.compute_gradients(cost)
    capped_gradients = [(tf.clip_by_value(grad, -5., 5.), var)
                        for grad, var in gradients if grad is not None]
    train_op = optimizer.apply_gradients(capped_gradients)

checkpoint = os.path.join(tempfile.mkdtemp(), "best_model.ckpt")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(120):
        _, loss = sess.run([train_op, cost], {inputs: src, targets: tgt, keep_prob: 0.9,
                                              source_sequence_length: src_len,
                                              target_sequence_length: tgt_len})
        if epoch % 40 == 0:
            print("Epoch %3d Loss: %.3f" % (epoch, loss))
    print("final loss %.4f" % loss)
    tf.train.Saver().save(sess, checkpoint)

loaded_graph = tf.Graph()
with tf.Session(graph=loaded_graph) as sess:
    loader = tf.train.import_meta_graph(checkpoint + ".meta")
    loader.restore(sess, checkpoint)
    input_data = loaded_graph.get_tensor_by_name("inputs:0")
    logits = loaded_graph.get_tensor_by_name("predictions:0")
    source_len = loaded_graph.get_tensor_by_name("source_sequence_length:0")
    right = 0
    for q, a in pairs:
        answer = sess.run(logits, {input_data: [encode(q, 4)], source_len: [len(q.split())]})[0]
        reply = " ".join(vocab[i] for i in answer if i not in (PAD, EOS))
        right += reply == a
        print("Q: %s\nA: %s" % (q, reply))
    print("answered %d/%d" % (right, len(pairs)))
