"""tf.compat.v1.train's replica_device_setter, get_checkpoint_mtimes, remove_checkpoint,
summary_iterator, LooperThread and warm_start.

tools/tf_reference/train_utilities.py uses the first four and tools/tf_reference/warm_start.py
the last; real TensorFlow 2.21 printed tests/data/train_utilities/tf_2_21.txt and
warm_start_tf_2_21.txt, and they must print the same on flowgrad."""
import os
import subprocess
import sys
import threading

import pytest

import flowgrad.compat.v1 as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_tensorflow_program_prints_the_same():
    want = open(os.path.join(ROOT, "tests", "data", "train_utilities", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "train_utilities.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout == want


def test_replica_device_setter_takes_a_strategy():
    tf.disable_v2_behavior()
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        setter = tf.train.replica_device_setter(ps_tasks=4, ps_strategy=lambda op: 3)
        assert setter(v.op) == "/job:ps/task:3"
        with pytest.raises(TypeError, match="ps_strategy must be callable"):
            tf.train.replica_device_setter(ps_tasks=1, ps_strategy=3)
        with tf.device(setter):          # accepted; flowgrad runs on the local CPU
            tf.constant(1.0)


def test_looper_thread_calls_its_target_until_the_coordinator_stops():
    coord = tf.train.Coordinator()
    calls = []
    done = threading.Event()

    def target(x):
        calls.append(x)
        if len(calls) == 3:
            coord.request_stop()
            done.set()

    looper = tf.train.LooperThread.loop(coord, 0.001, target, args=("a",))
    assert done.wait(30)
    coord.join([looper], stop_grace_period_secs=10)
    assert calls == ["a", "a", "a"] and not looper.is_alive()
    with pytest.raises(ValueError, match="must be a Coordinator"):
        tf.train.LooperThread(object(), None)
    with pytest.raises(ValueError, match="require that you also pass 'target'"):
        tf.train.LooperThread(tf.train.Coordinator(), None, args=(1,))


def test_looper_thread_reports_an_error_to_the_coordinator():
    coord = tf.train.Coordinator()

    def fail():
        raise RuntimeError("looper failed")

    looper = tf.train.LooperThread.loop(coord, None, fail)
    with pytest.raises(RuntimeError, match="looper failed"):
        coord.join([looper], stop_grace_period_secs=10)


def test_warm_start_initializes_what_tensorflow_initializes():
    want = open(os.path.join(ROOT, "tests", "data", "train_utilities",
                             "warm_start_tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "warm_start.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout == want


def test_warm_start_refuses_vocabularies_and_bad_selections(tmp_path):
    tf.disable_v2_behavior()
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        with pytest.raises(tf.errors.UnimplementedError, match="var_name_to_vocab_info"):
            tf.train.warm_start(str(tmp_path), var_name_to_vocab_info={"v": object()})
        with pytest.raises(ValueError, match="must be a `list` or `str`"):
            tf.train.warm_start(str(tmp_path), vars_to_warm_start=3)
