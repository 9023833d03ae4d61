"""TensorFlow 1's queues, readers, queue runners and queue-based input pipelines.

tools/tf_reference/queue_pipelines.py runs the pipelines TF1 tutorials and books write
(TFRecords with ``string_input_producer`` + ``TFRecordReader`` + ``tf.train.batch``, a
CIFAR-10-style binary reader with ``shuffle_batch``, CSV lines, ``slice_input_producer``,
``dynamic_pad``, ``maybe_batch``, ``batch_join``) to the ``OutOfRangeError`` that ends their
epochs; real TensorFlow 2.21 printed tests/data/queue_pipelines/tf_2_21.txt and flowgrad must
print the same lines."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_tf1_input_pipelines_print_what_tensorflow_printed():
    want = open(os.path.join(ROOT, "tests", "data", "queue_pipelines", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "queue_pipelines.py")],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == want.splitlines()


def test_a_blocked_dequeue_waits_for_another_threads_enqueue():
    with tf.Graph().as_default():
        q = tf.FIFOQueue(2, tf.float32, shapes=[[]])
        enq = q.enqueue_many([[1.0, 2.0, 3.0]])           # more than the capacity: blocks
        batch = q.dequeue_many(3)
        with tf.Session() as sess:
            t = threading.Thread(target=sess.run, args=(enq,))
            t.start()
            np.testing.assert_array_equal(sess.run(batch), [1.0, 2.0, 3.0])
            t.join(10)
            assert not t.is_alive()


def test_a_shuffle_queue_keeps_min_after_dequeue_until_closed():
    with tf.Graph().as_default():
        q = tf.RandomShuffleQueue(10, 3, tf.int32, shapes=[[]], seed=1)
        with tf.Session() as sess:
            sess.run(q.enqueue_many([list(range(5))]))
            first = sess.run(q.dequeue_many(2)).tolist()
            assert sess.run(q.size()) == 3                       # min_after_dequeue stay
            sess.run(q.close())
            rest = sess.run(q.dequeue_up_to(10)).tolist()         # closed: all of them
            assert sorted(first + rest) == [0, 1, 2, 3, 4]
            with pytest.raises(errors.OutOfRangeError, match="RandomShuffleQueue"):
                sess.run(q.dequeue())


def test_queue_arguments_are_checked():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shapes must be provided"):
            tf.PaddingFIFOQueue(5, [tf.int32], shapes=None)
        q = tf.FIFOQueue(5, [tf.int32, tf.float32], shapes=[[2], []])
        with pytest.raises(ValueError, match="Expected 2 components"):
            q.enqueue([[1, 2]])
        with pytest.raises(ValueError, match="incompatible"):
            q.enqueue([[1, 2, 3], 1.0])
        with pytest.raises(ValueError, match="must have names"):
            q.enqueue({"a": [1, 2], "b": 1.0})
        with pytest.raises(ValueError, match="num_epochs must be > 0"):
            tf.train.limit_epochs(tf.constant(1), 0)
        with pytest.raises(ValueError, match="non-null input tensor"):
            tf.train.string_input_producer([])


def test_a_monitored_session_runs_the_queue_runners_to_the_end_of_the_input():
    with tf.Graph().as_default():
        x = tf.train.limit_epochs(tf.constant([1.0, 2.0, 3.0, 4.0]), num_epochs=2)
        batch = tf.train.batch([x], batch_size=2, enqueue_many=True)
        total = 0.0
        with tf.train.MonitoredSession() as sess:
            while not sess.should_stop():
                total += float(sess.run(batch).sum())
        assert total == 20.0


def test_queue_runner_errors_go_to_the_coordinator(tmp_path):
    with tf.Graph().as_default():
        fq = tf.train.string_input_producer([str(tmp_path / "missing.txt")], shuffle=False)
        _, line = tf.TextLineReader().read(fq)
        batch = tf.train.batch([line], batch_size=1)
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            with pytest.raises(errors.OutOfRangeError):  # the stop closes the batch's queue
                sess.run(batch)
            coord.request_stop()
            with pytest.raises(errors.NotFoundError, match="missing.txt"):
                coord.join(threads)


def test_eager_queues_work_and_queue_runners_refuse():
    state.eager = True
    q = tf2.queue.FIFOQueue(3, tf2.int32)
    q.enqueue_many([[4, 5]])
    assert int(q.size()) == 2
    assert int(q.dequeue()) == 4
    with pytest.raises(RuntimeError, match="eager"):
        tf.train.start_queue_runners()
