"""tf.compat.v1.train's MonitoredSession, MonitoredTrainingSession, Scaffold and the
SessionRunHooks: TensorFlow's call order, logs, checkpoints and summaries.

tools/tf_reference/monitored_session.py is a TF1 training program (hooks, chief-only hooks,
checkpoint listeners, restore on start, FinalOpsHook, NanTensorHook); real TensorFlow 2.21
printed tests/data/monitored_session/tf_2_21.txt, and it must print the same on flowgrad."""
import logging
import os
import subprocess
import sys
import threading

import pytest

import flowgrad.compat.v1 as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def graph_mode():
    tf.disable_v2_behavior()
    with tf.Graph().as_default() as g:
        yield g


class _Logs(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def logs():
    handler = _Logs()
    logger = logging.getLogger("tensorflow")
    old = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler.messages
    logger.removeHandler(handler)
    logger.setLevel(old)


def test_a_tensorflow_training_program_prints_what_tensorflow_printed():
    want = open(os.path.join(ROOT, "tests", "data", "monitored_session", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "monitored_session.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout == want


def _counter():
    gs = tf.train.get_or_create_global_step()
    return gs, tf.assign_add(gs, 1)


def test_timer_needs_exactly_one_period():
    with pytest.raises(ValueError, match="Either every_secs or every_steps"):
        tf.train.SecondOrStepTimer()
    with pytest.raises(ValueError, match="Can not provide both"):
        tf.train.SecondOrStepTimer(every_secs=1, every_steps=1)
    timer = tf.train.SecondOrStepTimer(every_steps=3)
    assert timer.should_trigger_for_step(0)
    assert timer.update_last_triggered_step(0) == (None, None)
    assert not timer.should_trigger_for_step(0) and not timer.should_trigger_for_step(2)
    assert timer.should_trigger_for_step(3)
    assert timer.update_last_triggered_step(3)[1] == 3 and timer.last_triggered_step() == 3


def test_hook_arguments_are_checked():
    with pytest.raises(ValueError, match="One of num_steps or last_step"):
        tf.train.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step"):
        tf.train.StopAtStepHook(num_steps=1, last_step=2)
    with pytest.raises(ValueError, match="exactly one of every_n_iter and every_n_secs"):
        tf.train.LoggingTensorHook({"a": tf.constant(1.0)})
    with pytest.raises(ValueError, match="invalid every_n_iter=0"):
        tf.train.LoggingTensorHook({"a": tf.constant(1.0)}, every_n_iter=0)
    with pytest.raises(ValueError, match="exactly one of every_n_steps and every_n_secs"):
        tf.train.StepCounterHook(every_n_steps=None)
    with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
        tf.train.SummarySaverHook(save_steps=1)
    with pytest.raises(ValueError, match="both saver and scaffold"):
        tf.train.CheckpointSaverHook("/nowhere", save_steps=1, saver=object(),
                                     scaffold=tf.train.Scaffold())


def test_hooks_needing_a_global_step_say_so():
    tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="Global step should be created to use StopAtStepHook"):
        tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])


def test_feeds_of_hooks_and_caller_must_not_overlap():
    x = tf.placeholder(tf.float32, [])
    y = x * 2.0
    hook = tf.train.FeedFnHook(lambda: {x: 3.0})
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
        assert sess.run(y) == 6.0
        with pytest.raises(RuntimeError, match="Same tensor is fed by a SessionRunHook and user"):
            sess.run(y, feed_dict={x: 1.0})
    with pytest.raises(RuntimeError, match="Same tensor is fed by two hooks"):
        with tf.train.MonitoredSession(hooks=[hook, tf.train.FeedFnHook(lambda: {x: 1.0})]) as s:
            s.run(y)


def test_stop_then_run_raises_and_out_of_range_ends_the_with_block():
    gs, step = _counter()
    with tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(last_step=2)]) as sess:
        while not sess.should_stop():
            sess.run(step)
        with pytest.raises(RuntimeError, match="Run called even after should_stop requested"):
            sess.run(step)
    with tf.train.MonitoredSession() as sess:
        raise tf.errors.OutOfRangeError(None, None, "End of sequence")
    assert sess.should_stop()
    with pytest.raises(RuntimeError, match="Session is already closed"):
        sess.run(step)


def test_run_step_fn_runs_with_and_without_hooks():
    gs, step = _counter()
    seen = []

    class Count(tf.train.SessionRunHook):
        def after_run(self, run_context, run_values):
            seen.append(run_values.results)

        def before_run(self, run_context):
            return tf.train.SessionRunArgs(gs)

    def step_fn(ctx):
        ctx.session.run(step)                  # no hooks
        value = ctx.run_with_hooks(step)
        ctx.request_stop()
        return value

    with tf.train.MonitoredSession(hooks=[Count()]) as sess:
        assert sess.run_step_fn(step_fn) == 2
        assert sess.should_stop()
    assert seen == [2]


def test_step_counter_and_summaries_are_written(tmp_path, logs):
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    gs, step = _counter()
    tf.summary.scalar("twice", tf.cast(gs, tf.float32) * 2.0)
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), save_summaries_steps=2,
                                           log_step_count_steps=2,
                                           hooks=[tf.train.StopAtStepHook(last_step=5)]) as s:
        while not s.should_stop():
            s.run(step)
    assert sum(m.startswith("global_step/sec: ") for m in logs) == 2
    events = []
    for name in sorted(os.listdir(tmp_path)):
        if name.startswith("events.out.tfevents"):
            events += list(EventFileLoader(str(tmp_path / name)).Load())
    scalars = [(e.step, v.tag) for e in events for v in e.summary.value if v.tag == "twice"]
    # written at global steps 1, 3, 5 (the step after each run, TensorFlow's choice)
    assert [s for s, _ in scalars] == [1, 3, 5]
    rates = [e.step for e in events for v in e.summary.value if v.tag == "global_step/sec"]
    assert rates == [3, 5]
    logs_ = [e.session_log.status for e in events if e.HasField("session_log")]
    assert logs_.count(1) == 1 and logs_.count(3) == 2      # START once, CHECKPOINT at 0 and 5
    assert os.path.exists(tmp_path / "graph.pbtxt")
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-5")


def test_logging_hook_at_end_and_formatter(logs):
    gs, step = _counter()
    hooks = [tf.train.LoggingTensorHook({"s": gs}, at_end=True),
             tf.train.LoggingTensorHook([gs], every_n_iter=1, formatter=lambda d: "F%d" % d[gs])]
    with tf.train.SingularMonitoredSession(hooks=hooks) as sess:
        sess.run(step)
        sess.run(step)
    assert [m for m in logs if m.startswith(("s =", "F"))] == ["F1", "F2", "s = 2"]


def test_global_step_waiter_and_listener_stop(tmp_path, logs):
    gs, step = _counter()

    class StopAfterFirstSave(tf.train.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            return global_step_value >= 1

    saver_hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=1,
                                              listeners=[StopAfterFirstSave()])
    hooks = [tf.train.GlobalStepWaiterHook(0), saver_hook]
    with tf.train.MonitoredSession(hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run(step)
    assert any("requested that training be stopped" in m for m in logs)
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-1")


def test_scaffold_init_fn_and_collections():
    v = tf.Variable(1.0)
    set_v = v.assign(5.0)      # the graph is finalized when init_fn runs
    called = []

    def init_fn(scaffold, session):
        called.append(scaffold)
        session.run(set_v)

    scaffold = tf.train.Scaffold(init_fn=init_fn)
    with tf.train.MonitoredSession(tf.train.ChiefSessionCreator(scaffold=scaffold)) as sess:
        assert sess.run(v) == 5.0
        assert tf.get_default_graph().finalized
    assert called == [scaffold]
    assert not tf.get_default_graph().finalized     # unfinalized again, as TensorFlow does
    assert tf.get_collection(tf.GraphKeys.SAVERS) == [scaffold.saver]
    tf.add_to_collection(tf.GraphKeys.SAVERS, tf.train.Saver())
    with pytest.raises(RuntimeError, match="More than one item in the collection savers"):
        tf.train.Scaffold().finalize()


def test_coordinator_reports_a_thread_error():
    coord = tf.train.Coordinator()

    def work():
        with coord.stop_on_exception():
            raise ValueError("boom")

    t = threading.Thread(target=work)
    t.start()
    with pytest.raises(ValueError, match="boom"):
        coord.join([t])
    assert coord.should_stop() and coord.joined
    coord.clear_stop()
    assert not coord.should_stop()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "done"))   # a clean stop
    coord.join([])


def test_a_restarted_session_goes_on_deleting_old_checkpoints(tmp_path):
    def train(steps):
        with tf.Graph().as_default():
            gs, step = _counter()
            hooks = [tf.train.StopAtStepHook(num_steps=steps)]
            with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path),
                                                   save_checkpoint_steps=1,
                                                   save_summaries_steps=None,
                                                   log_step_count_steps=None,
                                                   hooks=hooks) as sess:
                while not sess.should_stop():
                    sess.run(step)

    def kept():
        return sorted(int(f[len("model.ckpt-"):-len(".index")]) for f in os.listdir(tmp_path)
                      if f.startswith("model.ckpt-") and f.endswith(".index"))

    train(6)
    assert kept() == [2, 3, 4, 5, 6]
    train(3)            # restored at 6; the Saver adopts the kept checkpoints (max_to_keep=5)
    assert kept() == [5, 6, 7, 8, 9]
