"""TensorFlow 1's FtrlOptimizer, ProximalGradientDescentOptimizer, ProximalAdagradOptimizer,
AdagradDAOptimizer (dense and sparse updates, slot names) and the cosine, linear cosine and
natural exponential decays.

tools/tf_reference/tf1_optimizers.py trains with each optimizer for four steps and evaluates
the schedules; real TensorFlow 2.21 printed tests/data/tf1_optimizers/tf_2_21.txt, and
flowgrad must print the same names and the same numbers (float64 runs agree to the last digit;
float32 ones to a few units in the last place, TensorFlow's Eigen kernels rounding otherwise)."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tokens(text):
    return re.findall(r"[^\s\[\]]+", text)


def test_a_tensorflow_program_prints_tensorflows_trajectories_and_schedules():
    want = open(os.path.join(ROOT, "tests", "data", "tf1_optimizers", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "tf1_optimizers.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    got, ref = _tokens(out.stdout), _tokens(want)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        try:
            r_value = float(r)
        except ValueError:
            assert g == r
            continue
        assert float(g) == pytest.approx(r_value, rel=5e-6, abs=1e-8), (g, r)


@pytest.fixture
def graph():
    tf.disable_v2_behavior()
    with tf.Graph().as_default() as g:
        yield g


def test_arguments_are_checked(graph):
    with pytest.raises(ValueError, match="learning_rate_power 0.500000 needs to be negative"):
        tf.train.FtrlOptimizer(0.1, learning_rate_power=0.5)
    with pytest.raises(ValueError, match="l1_regularization_strength -1.000000 needs to be"):
        tf.train.FtrlOptimizer(0.1, l1_regularization_strength=-1.0)
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        tf.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="must be positive"):
        tf.train.AdagradDAOptimizer(0.1, None, initial_gradient_squared_accumulator_value=0.0)


def test_proximal_hyperparameters_are_not_cast_as_in_tensorflow(graph):
    w = tf.Variable(np.ones(2))
    with pytest.raises(TypeError, match="Input 'alpha' of 'ApplyProximalGradientDescent' Op has "
                                        "type float32 that does not match type float64"):
        tf.train.ProximalGradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * w))


def test_proximal_gradient_descent_without_regularization_is_gradient_descent(graph):
    w = tf.Variable([1.0, -2.0])
    v = tf.Variable([1.0, -2.0])
    a = tf.train.ProximalGradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * w * w))
    b = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(v * v * v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run([a, b])
        np.testing.assert_array_equal(*sess.run([w, v]))


def test_noisy_linear_cosine_decay_without_noise_is_linear_cosine_decay(graph):
    step = tf.placeholder(tf.int64, [])
    noisy = tf.train.noisy_linear_cosine_decay(0.1, step, 20, initial_variance=0.0)
    plain = tf.train.linear_cosine_decay(0.1, step, 20)
    varied = tf.train.noisy_linear_cosine_decay(0.1, step, 20)
    with tf.Session() as sess:
        for s in (0, 5, 19, 30):
            assert sess.run(noisy, {step: s}) == sess.run(plain, {step: s})
        draws = [sess.run(varied, {step: 3}) for _ in range(200)]
    # noise of standard deviation 1 / 4**0.275 on the linear term, scaled by lr * cosine
    assert 0.01 < np.std(draws) < 0.1
    with pytest.raises(ValueError, match="global_step is required for cosine_decay"):
        tf.train.cosine_decay(0.1, None, 10)
