"""A toy NMT model as TF 1.x tutorials write it (tensorflow/nmt style): a bidirectional LSTM
encoder, a Luong-attention LSTM decoder trained with TrainingHelper, then greedy and beam
search decoding with tile_batch. The task: reverse a sequence of digits."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
rng = np.random.RandomState(0)
VOCAB, EMB, UNITS, BEAM = 12, 16, 32, 3
SOS, EOS = 1, 2


def batch(n=32, max_len=6):
    lens = rng.randint(3, max_len + 1, size=n)
    src = np.zeros((n, max_len), np.int32)
    tgt_in = np.zeros((n, max_len + 1), np.int32)
    tgt_out = np.zeros((n, max_len + 1), np.int32)
    for i, length in enumerate(lens):
        seq = rng.randint(3, VOCAB, size=length)
        src[i, :length] = seq
        tgt_in[i, 0] = SOS
        tgt_in[i, 1:length + 1] = seq[::-1]
        tgt_out[i, :length] = seq[::-1]
        tgt_out[i, length] = EOS
    return src, lens, tgt_in, tgt_out, lens + 1


src_ids = tf.placeholder(tf.int32, [None, None], name="src")
src_len = tf.placeholder(tf.int32, [None], name="src_len")
tgt_in = tf.placeholder(tf.int32, [None, None], name="tgt_in")
tgt_out = tf.placeholder(tf.int32, [None, None], name="tgt_out")
tgt_len = tf.placeholder(tf.int32, [None], name="tgt_len")
batch_size = tf.size(src_len)

with tf.variable_scope("embedding"):
    embedding = tf.get_variable("embedding_share", [VOCAB, EMB])
with tf.variable_scope("encoder"):
    enc_emb = tf.nn.embedding_lookup(embedding, src_ids)
    fw = tf.nn.rnn_cell.BasicLSTMCell(UNITS // 2)
    bw = tf.nn.rnn_cell.BasicLSTMCell(UNITS // 2)
    (out_fw, out_bw), (st_fw, st_bw) = tf.nn.bidirectional_dynamic_rnn(
        fw, bw, enc_emb, sequence_length=src_len, dtype=tf.float32)
    encoder_outputs = tf.concat([out_fw, out_bw], -1)
    encoder_state = tf.nn.rnn_cell.LSTMStateTuple(tf.concat([st_fw.c, st_bw.c], -1),
                                                  tf.concat([st_fw.h, st_bw.h], -1))

projection = tf.layers.Dense(VOCAB, use_bias=False, name="output_projection")


def build_cell(memory, memory_len, state, batch):
    mechanism = tf.contrib.seq2seq.LuongAttention(UNITS, memory, memory_sequence_length=memory_len,
                                                  scale=True)
    cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicLSTMCell(UNITS), mechanism,
                                               attention_layer_size=UNITS,
                                               alignment_history=False, name="attention")
    return cell, cell.zero_state(batch, tf.float32).clone(cell_state=state)


with tf.variable_scope("decoder") as decoder_scope:
    cell, init = build_cell(encoder_outputs, src_len, encoder_state, batch_size)
    helper = tf.contrib.seq2seq.TrainingHelper(tf.nn.embedding_lookup(embedding, tgt_in),
                                               tgt_len)
    decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, init, output_layer=projection)
    outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder, scope=decoder_scope)
    logits = outputs.rnn_output

max_time = tf.shape(logits)[1]
weights = tf.sequence_mask(tgt_len, max_time, dtype=tf.float32)
loss = tf.contrib.seq2seq.sequence_loss(logits, tgt_out[:, :max_time], weights)
params = tf.trainable_variables()
grads, _ = tf.clip_by_global_norm(tf.gradients(loss, params), 5.0)
train_op = tf.train.AdamOptimizer(0.01).apply_gradients(zip(grads, params))

with tf.variable_scope("decoder", reuse=True) as decoder_scope:
    cell, init = build_cell(encoder_outputs, src_len, encoder_state, batch_size)
    greedy = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([batch_size], SOS), EOS)
    greedy_decoder = tf.contrib.seq2seq.BasicDecoder(cell, greedy, init, output_layer=projection)
    greedy_out, _, _ = tf.contrib.seq2seq.dynamic_decode(
        greedy_decoder, maximum_iterations=tf.reduce_max(src_len) * 2, scope=decoder_scope)

with tf.variable_scope("decoder", reuse=True) as decoder_scope:
    memory = tf.contrib.seq2seq.tile_batch(encoder_outputs, multiplier=BEAM)
    memory_len = tf.contrib.seq2seq.tile_batch(src_len, multiplier=BEAM)
    state = tf.contrib.seq2seq.tile_batch(encoder_state, multiplier=BEAM)
    cell, init = build_cell(memory, memory_len, state, batch_size * BEAM)
    beam_decoder = tf.contrib.seq2seq.BeamSearchDecoder(
        cell=cell, embedding=embedding, start_tokens=tf.fill([batch_size], SOS), end_token=EOS,
        initial_state=init, beam_width=BEAM, output_layer=projection, length_penalty_weight=0.0)
    beam_out, _, _ = tf.contrib.seq2seq.dynamic_decode(
        beam_decoder, maximum_iterations=tf.reduce_max(src_len) * 2, scope=decoder_scope)

print("variables:", len(tf.global_variables()))
for v in tf.trainable_variables():
    print(v.name, v.shape)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    first = None
    for step in range(150):
        s, sl, ti, to, tl = batch()
        _, value = sess.run([train_op, loss], {src_ids: s, src_len: sl, tgt_in: ti, tgt_out: to,
                                               tgt_len: tl})
        first = value if first is None else first
        if step % 50 == 0:
            print("step %d loss %.4f" % (step, value))
    print("loss %.4f -> %.4f" % (first, value))
    s, sl, _, to, _ = batch(8)
    g, b = sess.run([greedy_out.sample_id, beam_out.predicted_ids], {src_ids: s, src_len: sl})
    print("beam ids shape", b.shape)
    ok_g = ok_b = 0
    for i in range(8):
        want = list(to[i, :sl[i] + 1])
        ok_g += list(g[i, :sl[i] + 1]) == want
        ok_b += list(b[i, :sl[i] + 1, 0]) == want
        print(s[i, :sl[i]], "->", g[i, :sl[i] + 1], b[i, :sl[i] + 1, 0])
    print("greedy exact %d/8, beam exact %d/8" % (ok_g, ok_b))
