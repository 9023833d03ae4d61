"""Records what TensorFlow 2.21 (``tf.compat.v1`` with v2 behaviour off) prints for TF1
programs written as 2016-2019 GitHub repositories and blog posts write them (round 3 of the
TF1 probes: Supervisor, SessionManager, the initialization checks, ...), each cut to what
flowgrad printed differently (or where it stopped); tests/test_tf1_programs_round3.py runs
each with ``tf`` = ``flowgrad.compat.v1`` and compares.

TensorFlow 2.21 loads ``tf.compat.v1.nn.rnn_cell`` from the legacy Keras 2 (tf_keras). Run from
the repository root:
    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/tf1_programs_round3.py
It writes tests/data/tf1_programs_round3/tf_2_21.json: ``{name: {"source", "stdout"}}``.
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import types

PROGRAMS = {
    # tf.train.Supervisor's training loop: managed_session, should_stop/request_stop,
    # summary_computed, the Saver it is given and a second run resuming from logdir's
    # checkpoint; the files it writes to logdir.
    "supervisor_resumes_from_logdir": '''
import os
import time
def build():
    tf.set_random_seed(7)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(tf.truncated_normal([3, 1], stddev=0.1), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    global_step = tf.Variable(0, name="global_step", trainable=False)
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=global_step)
    tf.summary.scalar("loss", loss)
    return x, y, w, loss, global_step, train_op
rng = np.random.RandomState(0)
X = rng.randn(32, 3).astype(np.float32)
Y = X.dot(np.array([[1.0], [-2.0], [0.5]], np.float32)) + 0.3
for run in range(2):
    with tf.Graph().as_default():
        x, y, w, loss, global_step, train_op = build()
        summary_op = tf.summary.merge_all()
        saver = tf.train.Saver(max_to_keep=3)
        sv = tf.train.Supervisor(logdir="train_logs", init_op=tf.global_variables_initializer(),
                                 summary_op=None, saver=saver, global_step=global_step,
                                 save_model_secs=0, save_summaries_secs=0)
        print("is_chief", sv.is_chief, sv.global_step is global_step, sv.saver is saver)
        print(tf.get_default_graph().finalized, sv.ready_op.op.type)
        with sv.managed_session() as sess:
            step = sess.run(global_step)
            print("run", run, "start step", step)
            while not sv.should_stop():
                _, l, step = sess.run([train_op, loss, global_step], {x: X, y: Y})
                if step % 10 == 0:
                    print("step %d loss %.6f" % (step, l))
                    sv.summary_computed(sess, sess.run(summary_op, {x: X, y: Y}))
                if step >= 20 * (run + 1):
                    sv.request_stop()
            sv.saver.save(sess, sv.save_path, global_step=global_step)
            print("w", np.round(sess.run(w).ravel(), 5))
        print("should_stop after", sv.should_stop())
    time.sleep(1.0)     # TensorFlow names event files by the second
print(sorted(f for f in os.listdir("train_logs") if not f.startswith("events")))
print(tf.train.latest_checkpoint("train_logs"))
events = [f for f in os.listdir("train_logs") if f.startswith("events")]
kinds, logs, summaries = set(), [], []
for name in events:
    for e in tf.train.summary_iterator(os.path.join("train_logs", name)):
        kinds.add(e.WhichOneof("what"))
        if e.HasField("session_log"):
            logs.append((e.session_log.status, e.step))
        if e.HasField("summary"):
            summaries.append((e.step, [v.tag for v in e.summary.value]))
print(len(events), sorted(kinds), sorted(logs), sorted(summaries))
''',
    # Supervisor's defaults (ready_op, init_op, local_init_op, saver, summary_op and the
    # global step from the graph), an exception of the block re-raised by managed_session,
    # a non-chief's check of variable devices.
    "supervisor_defaults_and_errors": '''
tf.set_random_seed(1)
v = tf.get_variable("v", [2], initializer=tf.ones_initializer())
gs = tf.train.get_or_create_global_step()
one = v * 2.0
tf.summary.scalar("s", tf.reduce_sum(v))
sv = tf.train.Supervisor(logdir=None)
print(sv.ready_op.op.type, sv.ready_op.dtype, sv.init_op.type, sv.local_init_op
      if hasattr(sv, "local_init_op") else None)
print(sv.summary_op is not None, sv.saver is not None, sv.global_step.op.name, sv.save_path)
print(sorted(k for k in ("ready_op", "init_op", "local_init_op", "summary_op", "savers")
             if tf.get_collection(k)))
try:
    with sv.managed_session() as sess:
        print(sess.run(one))
        raise ValueError("boom")
except ValueError as e:
    print("reraised", e)
with sv.managed_session() as sess:
    print(sess.run(one), sv.should_stop())
print(sv.should_stop())
with tf.Graph().as_default():
    tf.Variable(1.0, name="w")
    try:
        tf.train.Supervisor(is_chief=False, logdir=None)
    except ValueError as e:
        print("ValueError", str(e).split(":")[0])
''',
    # The "initialize only the uninitialized variables" recipes: report_uninitialized_variables,
    # is_variable_initialized, assert_variables_initialized; SessionManager's prepare_session,
    # recover_session (from a checkpoint directory, and without one) and its errors.
    "session_manager_and_initialization_checks": '''
import os
tf.set_random_seed(3)
a = tf.Variable(tf.random_normal([2, 2]), name="a")
b = tf.Variable(tf.ones([3]), name="b")
c = tf.get_variable("c", [2], initializer=tf.constant_initializer(5.0))
with tf.variable_scope("scope"):
    d = tf.get_variable("d", [1], initializer=tf.zeros_initializer())
sess = tf.Session()
print(sess.run(tf.report_uninitialized_variables()))
print(sess.run(tf.is_variable_initialized(a)))
sess.run(a.initializer)
print(sess.run([tf.is_variable_initialized(v) for v in tf.global_variables()]))
names = sess.run(tf.report_uninitialized_variables())
print(names, names.dtype, names.shape)
global_vars = tf.global_variables()
flags = sess.run([tf.is_variable_initialized(var) for var in global_vars])
todo = [v for (v, f) in zip(global_vars, flags) if not f]
print([str(i.name) for i in todo])
sess.run(tf.variables_initializer(todo))
print(sess.run(tf.report_uninitialized_variables()).shape)
print(sess.run(tf.report_uninitialized_variables([a, b])).tolist())
print(sess.run(tf.assert_variables_initialized()))
print(tf.is_variable_initialized(a).op.type, tf.is_variable_initialized(a).dtype)
saver = tf.train.Saver()
os.makedirs("sm_ckpt")
print(os.path.basename(saver.save(sess, "sm_ckpt/model.ckpt", global_step=1)))
sess.close()
with tf.Session() as s2:
    try:
        s2.run(tf.assert_variables_initialized([a]))
    except tf.errors.FailedPreconditionError as e:
        print("FailedPreconditionError", "a" in e.message)
sm = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables())
sess2 = sm.prepare_session("", init_op=tf.global_variables_initializer(), saver=saver,
                           checkpoint_dir="sm_ckpt")
print(np.round(sess2.run(a), 5).tolist(), sess2.run(c).tolist())
sess3, restored = sm.recover_session("", saver=saver, checkpoint_dir="sm_ckpt")
print(restored, np.round(sess3.run(b), 5).tolist())
sess4, restored = sm.recover_session("", saver=saver, checkpoint_dir="nonexistent_dir")
print(restored)
print(sess4.run(tf.report_uninitialized_variables()))
sess5 = tf.train.SessionManager().prepare_session("", init_op=tf.global_variables_initializer())
print(sess5.run(d).tolist())
try:
    tf.train.SessionManager().prepare_session("")
except RuntimeError as e:
    print("RuntimeError", e)
try:
    tf.train.SessionManager(ready_for_local_init_op=tf.report_uninitialized_variables())
except ValueError as e:
    print("ValueError", str(e).split(",")[0])
sm6 = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables(),
                              recovery_wait_secs=0.01)
try:
    sm6.wait_for_session("", max_wait_secs=0.02)
except tf.errors.DeadlineExceededError as e:
    print("DeadlineExceededError", e.message)
try:
    sm6.prepare_session("", init_op=a.initializer)
except RuntimeError as e:
    print("RuntimeError", str(e).split("error:")[1])
''',
    # Between-graph replication's placement: tf.device scopes nest (fields merge, innermost
    # first), replica_device_setter places variables on the ps tasks round robin and the
    # other ops on the worker; tf.train.ClusterSpec in the TF1 face, as_cluster_def.
    "device_scopes_and_replica_device_setter": """
cluster = tf.train.ClusterSpec({"ps": ["localhost:2222"],
                                "worker": ["localhost:2223", "localhost:2224"]})
print(cluster.jobs, cluster.num_tasks("worker"), cluster.task_address("worker", 1))
print(cluster.as_dict())
cd = cluster.as_cluster_def()
print(type(cd).__name__, [(j.name, sorted(j.tasks.items())) for j in cd.job])
print(tf.train.ClusterSpec({"worker": {1: "a:1", 3: "b:2"}}).task_indices("worker"))
with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:0",
                                              cluster=cluster)):
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.get_variable("w", [2, 1])
    b = tf.get_variable("b", [1])
    y = tf.matmul(x, w) + b
    gs = tf.train.get_or_create_global_step()
print(w.device, b.device, y.device, gs.device, x.device)
out = []
with tf.device('/job:ps'):
    with tf.device('/task:1'):
        out.append(tf.constant(1.0).device)
    with tf.device('/cpu:0'):
        out.append(tf.constant(1.0).device)
    with tf.device(None):
        out.append(tf.constant(1.0).device)
    with tf.device('/job:worker/task:2'):
        out.append(tf.constant(1.0).device)
with tf.device('/gpu:0'):
    with tf.device('/cpu:0'):
        out.append(tf.constant(1.0).device)
    with tf.device('/job:w'):
        out.append(tf.constant(1.0).device)
setter = tf.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:1")
with tf.device(setter):
    v = tf.Variable(1.0)
    out.append(v.device)
    out.append((v + 1).device)
    with tf.device('/cpu:0'):
        out.append(tf.Variable(2.0).device)
        out.append(tf.constant(3.).device)
    with tf.device(lambda op: "/job:x/task:5"):
        out.append(tf.constant(3.).device)
with tf.device('/device:CPU:0'):
    with tf.device(setter):
        out.append(tf.Variable(2.0).device)
        out.append(tf.constant(3.).device)
with tf.device('/job:a/replica:2/task:3/device:GPU:1'):
    out.append(tf.constant(1.).device)
with tf.device('/job:a/task:3/gpu:*'):
    out.append(tf.constant(1.).device)
for o in out:
    print(repr(o))
with tf.device(tf.train.replica_device_setter(ps_tasks=3)):
    vs = [tf.Variable(float(i)) for i in range(4)]
print([v.device for v in vs])
""",
    # tf.nn.raw_rnn as the seq2seq tutorials write its loop_fn (inputs read from a
    # TensorArray, sequences of different lengths), with a stacked LSTM of concatenated
    # states (MultiRNNCell(state_is_tuple=False)), a residual GRU and DropoutWrapper.
    "raw_rnn_and_cell_wrappers": """
tf.set_random_seed(11)
B, T, D, H = 3, 5, 4, 4
x = tf.placeholder(tf.float32, [B, T, D])
init = tf.glorot_uniform_initializer(seed=2)
with tf.variable_scope("stack", initializer=init):
    cells = [tf.nn.rnn_cell.BasicLSTMCell(H, state_is_tuple=False) for _ in range(2)]
    multi = tf.nn.rnn_cell.MultiRNNCell(cells, state_is_tuple=False)
    print(multi.state_size, multi.output_size)
    out, state = tf.nn.dynamic_rnn(multi, x, dtype=tf.float32)
print(out.shape, state.shape)
with tf.variable_scope("res", initializer=init):
    cell = tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.GRUCell(D))
    cell = tf.nn.rnn_cell.DropoutWrapper(cell, input_keep_prob=1.0, output_keep_prob=1.0,
                                         state_keep_prob=1.0)
    out2, st2 = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.variable_scope("raw", initializer=init):
    inputs_ta = tf.TensorArray(dtype=tf.float32, size=T).unstack(tf.transpose(x, [1, 0, 2]))
    seq_len = tf.constant([5, 3, 4])
    rcell = tf.nn.rnn_cell.LSTMCell(H)
    def loop_fn(time, cell_output, cell_state, loop_state):
        emit_output = cell_output
        if cell_output is None:
            next_cell_state = rcell.zero_state(B, tf.float32)
        else:
            next_cell_state = cell_state
        elements_finished = (time >= seq_len)
        finished = tf.reduce_all(elements_finished)
        next_input = tf.cond(finished, lambda: tf.zeros([B, D], dtype=tf.float32),
                             lambda: inputs_ta.read(time))
        return (elements_finished, next_input, next_cell_state, emit_output, None)
    outputs_ta, final_state, final_loop_state = tf.nn.raw_rnn(rcell, loop_fn)
    raw_out = tf.transpose(outputs_ta.stack(), [1, 0, 2])
print(final_loop_state, type(outputs_ta).__name__, raw_out.shape)
loss = tf.reduce_sum(out) + tf.reduce_sum(out2) + tf.reduce_sum(raw_out)
grads = tf.gradients(loss, tf.trainable_variables())
print([v.name for v in tf.trainable_variables()])
X = np.random.RandomState(0).randn(B, T, D).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, s, o2, ro, fs, g = sess.run([out, state, out2, raw_out, final_state, grads], {x: X})
    print(np.round(o[:, -1], 5))
    print(np.round(s, 5))
    print(np.round(o2[0], 5))
    print(np.round(ro[1], 5))
    print(np.round(fs.h, 5))
    print([round(float(np.abs(gg).sum()), 4) for gg in g])
""",
    # sherjilozair/char-rnn-tensorflow's model (TF 1.x's most copied char-RNN):
    # tf.contrib.legacy_seq2seq.rnn_decoder over tf.split inputs, with its loop_function for
    # sampling, and sequence_loss_by_example. TF 2.21 has no contrib: the recorder runs it with
    # TF 1.15's two functions restated on TF 2.21's ops (_legacy_seq2seq_reference below).
    "char_rnn_legacy_seq2seq": """
tf.set_random_seed(4)
B, T, V, H = 3, 5, 11, 8
input_data = tf.placeholder(tf.int32, [B, T])
targets = tf.placeholder(tf.int32, [B, T])
cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(H) for _ in range(2)])
initial_state = cell.zero_state(B, tf.float32)
with tf.variable_scope("rnnlm"):
    softmax_w = tf.get_variable("softmax_w", [H, V])
    softmax_b = tf.get_variable("softmax_b", [V])
    embedding = tf.get_variable("embedding", [V, H])
    inputs = tf.nn.embedding_lookup(embedding, input_data)
    inputs = tf.split(inputs, T, 1)
    inputs = [tf.squeeze(input_, [1]) for input_ in inputs]
def loop(prev, _):
    prev = tf.matmul(prev, softmax_w) + softmax_b
    prev_symbol = tf.stop_gradient(tf.argmax(prev, 1))
    return tf.nn.embedding_lookup(embedding, prev_symbol)
outputs, last_state = tf.contrib.legacy_seq2seq.rnn_decoder(inputs, initial_state, cell,
                                                            scope="rnnlm")
with tf.variable_scope("sample"):
    s_outputs, _ = tf.contrib.legacy_seq2seq.rnn_decoder(inputs, initial_state, cell,
                                                         loop_function=loop, scope="rnnlm")
output = tf.reshape(tf.concat(outputs, 1), [-1, H])
logits = tf.matmul(output, softmax_w) + softmax_b
probs = tf.nn.softmax(logits)
loss = tf.contrib.legacy_seq2seq.sequence_loss_by_example(
    [logits], [tf.reshape(targets, [-1])], [tf.ones([B * T])])
cost = tf.reduce_sum(loss) / B / T
weighted = tf.contrib.legacy_seq2seq.sequence_loss_by_example(
    [tf.matmul(o, softmax_w) + softmax_b for o in outputs], tf.unstack(targets, axis=1),
    [tf.ones([B])] * (T - 1) + [tf.zeros([B])])
tvars = tf.trainable_variables()
print([v.name for v in tvars])
grads, _ = tf.clip_by_global_norm(tf.gradients(cost, tvars), 5.0)
train_op = tf.train.AdamOptimizer(0.01).apply_gradients(zip(grads, tvars))
rng = np.random.RandomState(0)
X = rng.randint(0, V, (B, T))
Y = np.roll(X, -1, axis=1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    state = sess.run(initial_state)
    for i in range(4):
        feed = {input_data: X, targets: Y}
        for j, (c, h) in enumerate(initial_state):
            feed[c] = state[j].c
            feed[h] = state[j].h
        c_, state, _ = sess.run([cost, last_state, train_op], feed)
        print(i, "%.5f" % c_)
    print(np.round(sess.run(weighted, {input_data: X, targets: Y}), 5))
    print(np.round(sess.run(s_outputs[-1], {input_data: X}), 5))
""",
    # The profiling recipe of TF 1.x performance posts: a run traced with
    # RunOptions(trace_level=FULL_TRACE) fills run_metadata.step_stats, and
    # tensorflow.python.client.timeline.Timeline writes it as a Chrome trace.
    "timeline_of_a_traced_run": """
import json
from tensorflow.python.client import timeline
x = tf.placeholder(tf.float32, [4, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
y = tf.nn.relu(tf.matmul(x, w, name="mm"), name="act")
s = tf.split(y, 2, axis=1, name="sp")
z = tf.add(s[0], s[1], name="z")
total = tf.reduce_sum(tf.matmul(tf.random_normal([50, 50], seed=1),
                                tf.random_normal([50, 50], seed=2), name="big"), name="total")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    md = tf.RunMetadata()
    out = sess.run(z, {x: np.ones((4, 3), np.float32)}, options=options, run_metadata=md)
    print(out.tolist())
    print(type(md.step_stats).__name__, [d.device for d in md.step_stats.dev_stats])
    labels = {n.node_name: n.timeline_label for d in md.step_stats.dev_stats
              for n in d.node_stats}
    print(labels["act"], "|", labels["z"])
    stats = {n.node_name: n for d in md.step_stats.dev_stats for n in d.node_stats}
    print(stats["z"].all_start_micros >= stats["act"].all_start_micros,
          [o.tensor_description.allocation_description.requested_bytes
           for o in stats["act"].output])
    tl = timeline.Timeline(md.step_stats)
    trace = json.loads(tl.generate_chrome_trace_format(show_memory=True))
    print(sorted(set(e["ph"] for e in trace["traceEvents"])))
    print(sorted(e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M"))
    ops = {e["args"]["name"]: e for e in trace["traceEvents"] if e["ph"] == "X"}
    print(ops["z"]["name"], ops["z"]["args"], ops["z"]["cat"])
    analysis = tl.analyze_step_stats()
    print(type(analysis).__name__, sorted(analysis.allocator_maximums))
    md2 = tf.RunMetadata()
    print(round(float(sess.run(total, options=options, run_metadata=md2)), 3))
    trace = json.loads(timeline.Timeline(md2.step_stats).generate_chrome_trace_format())
    print(sorted(set(e["ph"] for e in trace["traceEvents"])),
          "big" in [e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "X"])
    md3 = tf.RunMetadata()
    sess.run(z, {x: np.ones((4, 3), np.float32)}, run_metadata=md3)
    print(len(md3.step_stats.dev_stats))
""",
    # TF-slim's training loop (tf.contrib.slim.learning): create_train_op with gradient
    # clipping and multipliers, UPDATE_OPS of a batch norm, and learning.train in a Supervisor
    # session to number_of_steps, then resumed from logdir's checkpoint. TF 2.21 has no
    # contrib: the recorder runs tf_slim 1.1.0's own learning.py (_slim_learning_reference).
    "slim_learning_train": """
import os
tf.set_random_seed(3)
rng = np.random.RandomState(0)
X = rng.rand(16, 4).astype(np.float32)
Y = (X.sum(1) > 2).astype(np.int64)
def build():
    x = tf.constant(X)
    h = tf.layers.dense(x, 8, activation=tf.nn.relu,
                        kernel_initializer=tf.glorot_uniform_initializer(seed=1), name="h")
    h = tf.layers.batch_normalization(h, training=True, name="bn")
    logits = tf.layers.dense(h, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=2),
                             name="out")
    loss = tf.losses.sparse_softmax_cross_entropy(labels=tf.constant(Y), logits=logits)
    return loss
for run, steps in ((0, 5), (1, 8)):
    with tf.Graph().as_default():
        loss = build()
        total_loss = tf.losses.get_total_loss()
        optimizer = tf.train.MomentumOptimizer(0.1, 0.9)
        train_op = tf.contrib.slim.learning.create_train_op(
            total_loss, optimizer, clip_gradient_norm=1.0,
            gradient_multipliers={"out/kernel": 2.0})
        print(train_op.op.type, len(tf.get_collection(tf.GraphKeys.TRAIN_OP)))
        final = tf.contrib.slim.learning.train(train_op, "slim_logs", number_of_steps=steps,
                                               save_summaries_secs=0, save_interval_secs=0,
                                               log_every_n_steps=0)
        print(run, "%.5f" % final)
print(tf.train.latest_checkpoint("slim_logs"))
with tf.Graph().as_default():
    loss = build()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        saver.restore(sess, tf.train.latest_checkpoint("slim_logs"))
        print("%.5f" % sess.run(loss))
        print(np.round(sess.run("bn/moving_mean:0"), 5))
""",
    # tf.Assert's message prints its data as TensorFlow's Tensor::SummarizeValue: floats as
    # %g (shortest that reads back), bools as 1/0, strings raw, rows in brackets, cut with
    # "..." after `summarize` values (flowgrad printed NumPy's -1.0 and flat lists).
    "assert_messages": """
vals = [np.float32([-1.0, 0.5, 1 / 3.0]), np.arange(5, dtype=np.int32),
        np.float32([[1, -2, 3], [4, 5, 6]]), np.float64([0.1, 2.0, 1e-8, 1e20]),
        np.array([True, False]), np.float32(2.5), np.array([b"ab", b"c"]),
        np.arange(12, dtype=np.int64).reshape(2, 3, 2), np.float32([np.nan, np.inf, -np.inf]),
        np.float16([1.5, 0.1])]
x = tf.placeholder(tf.float32, [None, 3], name="x")
checks = [tf.assert_positive(x, message="x must be positive"), tf.assert_less(x, 5.0)]
with tf.Session() as s:
    for v in vals:
        for summarize in (None, 2, 20):
            try:
                s.run(tf.Assert(False, [tf.constant(v)], summarize=summarize))
            except tf.errors.InvalidArgumentError as e:
                msg = e.message
                print(msg[msg.find("assertion failed:"):].split("\\n")[0])
    for check, value in zip(checks, ([[1., -2., 3.]], [[1., 2., 9.]])):
        try:
            s.run(check, {x: value})
        except tf.errors.InvalidArgumentError as e:
            msg = e.message
            print(msg[msg.find("assertion failed:"):].split("\\n")[0])
""",
}


def _slim_learning_reference():
    """tf_slim 1.1.0's learning.py (TF 1.15's tf.contrib.slim.learning), loaded from its files
    without tf_slim's __init__ (whose layers need Keras 2's legacy layers):
    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfslim_site tf-slim==1.1.0
    """
    import importlib.util
    import types

    def load(name, path):
        spec = importlib.util.spec_from_file_location(name, "/tmp/tfslim_site/tf_slim/" + path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    import tensorflow as tf2
    from tensorflow.python.framework import ops
    for name in ("Tensor", "IndexedSlices"):    # TF 2.21 moved them out of ops
        if not hasattr(ops, name):
            setattr(ops, name, getattr(tf2, name))
    for name in ("tf_slim", "tf_slim.training"):
        sys.modules[name] = types.ModuleType(name)
        sys.modules[name].__path__ = []
    sys.modules["tf_slim.training"].training = load("tf_slim.training.training",
                                                    "training/training.py")
    return load("tf_slim.learning", "learning.py")


def _legacy_seq2seq_reference(tf):
    """TF 1.15's ``tf.contrib.legacy_seq2seq.rnn_decoder`` and ``sequence_loss_by_example``
    (contrib/legacy_seq2seq/python/ops/seq2seq.py) restated on TF 2.21's compat.v1 ops."""
    import types

    def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
        with tf.variable_scope(scope or "rnn_decoder"):
            state, outputs, prev = initial_state, [], None
            for i, inp in enumerate(decoder_inputs):
                if loop_function is not None and prev is not None:
                    with tf.variable_scope("loop_function", reuse=True):
                        inp = loop_function(prev, i)
                if i > 0:
                    tf.get_variable_scope().reuse_variables()
                output, state = cell(inp, state)
                outputs.append(output)
                if loop_function is not None:
                    prev = output
        return outputs, state

    def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
                                 softmax_loss_function=None, name=None):
        with tf.name_scope(name, "sequence_loss_by_example", logits + targets + weights):
            parts = []
            for logit, target, weight in zip(logits, targets, weights):
                crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=tf.reshape(target, [-1]), logits=logit)
                parts.append(crossent * weight)
            log_perps = tf.add_n(parts)
            if average_across_timesteps:
                log_perps /= tf.add_n(weights) + 1e-12
        return log_perps

    return types.SimpleNamespace(legacy_seq2seq=types.SimpleNamespace(
        rnn_decoder=rnn_decoder, sequence_loss_by_example=sequence_loss_by_example))


def main() -> None:
    """Runs every program with ``tf`` = TensorFlow's compat.v1 and writes the recording."""
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.logging.set_verbosity(tf.logging.ERROR)
    from tensorflow.python.summary.summary_iterator import summary_iterator
    tf.train.summary_iterator = summary_iterator     # tf.compat.v1.train's in TF 1.x
    tf.contrib = _legacy_seq2seq_reference(tf)      # TF 1.15's, see above
    tf.contrib.slim = types.SimpleNamespace(learning=_slim_learning_reference())
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
                        "tf1_programs_round3", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump({"reference": "tensorflow " + tf.__version__, "programs": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
