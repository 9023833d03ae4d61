"""``tf.dynamic_partition`` and ``tf.dynamic_stitch`` against TensorFlow 2.21's outputs
(tools/tf_reference/partition_stitch.py printed tests/data/partition_stitch/tf_2_21.txt);
their gradients and JVPs are checked by tests/op_db.py's ``partition`` family."""
import os
import subprocess
import sys

import pytest

import flowgrad.compat.v1 as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_tensorflow_program_prints_what_tensorflow_printed():
    want = open(os.path.join(ROOT, "tests", "data", "partition_stitch", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "partition_stitch.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == want.splitlines()


def test_bad_arguments_are_tensorflows_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="must match length"):
            tf.dynamic_stitch([[0], [1]], [[1.0]])
        with pytest.raises(TypeError, match="int32"):
            tf.dynamic_partition([1.0, 2.0], tf.constant([0, 1], tf.int64), 2)
        with pytest.raises(ValueError, match="must match"):
            tf.dynamic_partition(tf.zeros([3, 2]), tf.zeros([4], tf.int32), 2)
        p = tf.placeholder(tf.int32, [2])
        out = tf.dynamic_partition([1.0, 2.0], p, 2)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 5 is "
                               r"not in \[0, 2\)"):
                sess.run(out, {p: [0, 5]})
