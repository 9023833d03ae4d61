"""Records what TensorFlow 2.21 (``tf.compat.v1`` with v2 behaviour off) prints for TF1
programs written as 2016-2019 GitHub repositories and blog posts write them (round 3 of the
TF1 probes: Supervisor, SessionManager, the initialization checks, ...), each cut to what
flowgrad printed differently (or where it stopped); tests/test_tf1_programs_round3.py runs
each with ``tf`` = ``flowgrad.compat.v1`` and compares. Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/tf1_programs_round3.py
It writes tests/data/tf1_programs_round3/tf_2_21.json: ``{name: {"source", "stdout"}}``.
"""
import contextlib
import io
import json
import os
import sys
import tempfile

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
}


def main() -> None:
    """Runs every program with ``tf`` = TensorFlow's compat.v1 and writes the recording."""
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.logging.set_verbosity(tf.logging.ERROR)
    from tensorflow.python.summary.summary_iterator import summary_iterator
    tf.train.summary_iterator = summary_iterator     # tf.compat.v1.train's in TF 1.x
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
