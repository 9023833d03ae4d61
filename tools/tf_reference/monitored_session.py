"""A TF1 training program with MonitoredTrainingSession, hooks and checkpoints.

Run with real TensorFlow 2.21 (``/work/venv-tf/bin/python tools/tf_reference/monitored_session.py
> tests/data/monitored_session/tf_2_21.txt``); tests/test_monitored_session.py runs it with
``python -m flowgrad`` and compares. TensorFlow's INFO log records are printed to stdout (the
temporary directory shown as <dir>, the seconds LoggingTensorHook measures as X).
"""
import logging
import os
import re
import sys
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
workdir = tempfile.mkdtemp()


class Echo(logging.Handler):
    def emit(self, record):
        if record.levelno == logging.INFO:
            msg = record.getMessage().replace(workdir, "<dir>")
            print("LOG", re.sub(r"\(\d+\.\d+ sec\)", "(X sec)", msg))


logging.getLogger("tensorflow").addHandler(Echo())
logging.getLogger("tensorflow").setLevel(logging.INFO)
logging.getLogger("tensorflow").propagate = False
for h in list(logging.getLogger("tensorflow").handlers):
    if not isinstance(h, Echo):
        logging.getLogger("tensorflow").removeHandler(h)


class Recorder(tf.train.SessionRunHook):
    """Prints what a hook sees."""

    def begin(self):
        print("begin")

    def after_create_session(self, session, coord):
        print("after_create_session step", session.run(tf.train.get_global_step()))

    def before_run(self, run_context):
        return tf.train.SessionRunArgs({"loss": loss, "w": w})

    def after_run(self, run_context, run_values):
        r = run_values.results
        print("after_run loss %.4f w %.6f" % (r["loss"], r["w"]))
        if r["loss"] < 0.05:
            run_context.request_stop()

    def end(self, session):
        print("end step", session.run(tf.train.get_global_step()))


class Listener(tf.train.CheckpointSaverListener):
    def before_save(self, session, global_step_value):
        print("listener before_save", global_step_value)

    def after_save(self, session, global_step_value):
        print("listener after_save", global_step_value)


def build():
    global loss, w
    gs = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [4])
    w = tf.Variable(0.5, name="w")
    b = tf.Variable(0.0, name="b")
    y = np.array([1.0, 3.0, 5.0, 7.0], np.float32)
    loss = tf.reduce_mean(tf.square(w * x + b - y))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=gs)
    return gs, x, train


xs = np.array([0.0, 1.0, 2.0, 3.0], np.float32)
ckpt = os.path.join(workdir, "run")


def first_run():
    with tf.Graph().as_default():
        gs, x, train = build()
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=ckpt, save_checkpoint_steps=3, save_summaries_steps=None,
                log_step_count_steps=None,
                hooks=[tf.train.StopAtStepHook(last_step=7),
                       tf.train.NanTensorHook(loss),
                       tf.train.FeedFnHook(lambda: {x: xs}),
                       tf.train.LoggingTensorHook({"w": w, "step": gs}, every_n_iter=2),
                       Recorder()],
                chief_only_hooks=[tf.train.CheckpointSaverHook(
                    os.path.join(workdir, "other"), save_steps=4,
                    listeners=[Listener()])]) as sess:
            while not sess.should_stop():
                _, step = sess.run([train, gs])
                print("ran step", step)
        print("latest", os.path.basename(tf.train.latest_checkpoint(ckpt)))
        other = tf.train.latest_checkpoint(os.path.join(workdir, "other"))
        print("other", os.path.basename(other))
        print("files", sorted(f for f in os.listdir(ckpt)
                              if f.startswith("model.ckpt") and f.endswith(".index")))


# A second run restores from the checkpoint and stops three steps later.
def second_run():
    with tf.Graph().as_default():
        gs, x, train = build()
        final = tf.train.FinalOpsHook(w * 2.0)
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=ckpt, save_checkpoint_secs=None, save_checkpoint_steps=None,
                save_summaries_steps=None, log_step_count_steps=None,
                hooks=[tf.train.StopAtStepHook(num_steps=3), final,
                       tf.train.LoggingTensorHook(["w:0"], every_n_iter=2)]) as sess:
            print("restored step", sess.run(gs, feed_dict={x: xs}))
            while not sess.should_stop():
                sess.run(train, feed_dict={x: xs})
        print("final %.6f" % final.final_ops_values)


# NanTensorHook stops the loop with NanLossDuringTrainingError.
def nan_run():
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        v = tf.Variable(1.0)
        bad = tf.log(v - 2.0)
        step = tf.assign_add(gs, 1)
        try:
            with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(bad)]) as sess:
                sess.run(step)
        except tf.train.NanLossDuringTrainingError as e:
            print("error", type(e).__name__, str(e))
        hooks = [tf.train.NanTensorHook(bad, fail_on_nan_loss=False)]
        with tf.train.SingularMonitoredSession(hooks=hooks) as sess:
            sess.run(step)
            print("should_stop", sess.should_stop(), "raw", sess.raw_session().run(gs))


first_run()
second_run()
nan_run()
sys.stdout.flush()
