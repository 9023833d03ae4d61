"""python -m flowgrad --tf1 / install_as_tensorflow(version=1): `tensorflow` as TF 1.x's API."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as v1

ROOT = Path(__file__).resolve().parent.parent


def _run(tmp_path, source: str, *flags: str) -> subprocess.CompletedProcess:
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent(source))
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "flowgrad", *flags, str(prog)],
                          capture_output=True, text=True, env=env, cwd=tmp_path)


TF1_PROGRAM = """
    import tensorflow as tf
    from tensorflow import nn
    import tensorflow.compat.v1 as v1
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable([[1.0], [2.0]])
    y = nn.relu(tf.matmul(x, w))
    g, = tf.gradients(tf.reduce_sum(y), w)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run([y, g], {x: [[1.0, 1.0], [-3.0, 1.0]]}))
    print(tf.executing_eagerly(), v1 is tf, tf.arg_max([[1, 5, 2]], 1).name)
"""


def test_tf1_program_runs_with_the_flag_and_stops_as_on_tf2_without_it(tmp_path):
    done = _run(tmp_path, TF1_PROGRAM, "--tf1")
    assert done.returncode == 0, done.stderr
    assert "[[3.]" in done.stdout and "[[1.]" in done.stdout
    assert "False True ArgMax:0" in done.stdout
    plain = _run(tmp_path, TF1_PROGRAM)
    assert plain.returncode == 1
    assert "has no attribute 'placeholder'" in plain.stderr     # as TensorFlow 2.21 says


def test_tf1_mode_serves_submodules_and_internal_paths(tmp_path):
    done = _run(tmp_path, """
        import tensorflow as tf
        import tensorflow.train as train
        from tensorflow.examples.tutorials.mnist import input_data
        print(train.GradientDescentOptimizer.__name__, callable(input_data.read_data_sets))
        import tensorflow.contrib.slim as slim     # TF 1.15's tf.contrib (flowgrad/compat/contrib)
        print(slim.conv2d is tf.contrib.layers.conv2d)
        import tensorflow.contrib.tpu
    """, "--tf1")
    assert "GradientDescentOptimizer True\nTrue" in done.stdout, done.stderr
    assert done.returncode == 1 and "No module named 'tensorflow.contrib.tpu'" in done.stderr


def test_install_versions_cannot_be_mixed(tmp_path):
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import flowgrad
        flowgrad.install_as_tensorflow(version=1)
        import tensorflow as tf
        assert tf.placeholder is not None and not tf.executing_eagerly()
        flowgrad.install_as_tensorflow(version=1)        # again: nothing happens
        try:
            flowgrad.install_as_tensorflow(version=2)
        except ValueError as e:
            print("refused:", e)
    """)], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "refused: flowgrad is already installed as TensorFlow 1" in done.stdout, done.stderr


def test_bad_version_is_a_value_error():
    import flowgrad

    with pytest.raises(ValueError, match="1 or 2"):
        flowgrad.install_as_tensorflow(version=3)


def test_arg_max_and_arg_min_are_tf1s_raw_ops():
    with v1.Graph().as_default():
        a = v1.arg_max([[1, 5, 2], [7, 0, 3]], 1)
        b = v1.arg_min([[1, 5, 2], [7, 0, 3]], 0, output_type=v1.int32)
        with v1.Session() as sess:
            av, bv = sess.run([a, b])
    np.testing.assert_array_equal(av, [1, 0])
    np.testing.assert_array_equal(bv, [0, 1, 0])
    assert av.dtype == np.int64 and bv.dtype == np.int32
