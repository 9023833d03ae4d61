"""A TF1-era test file as TensorFlow's own tests and old projects write them: internal
imports (tensorflow.python.framework.test_util, ...platform.test, ...ops.gradient_checker),
run_deprecated_v1, run_in_graph_and_eager_modes, run_v1_only / run_v2_only (bare, with a
reason, on a class), seeded draws in graph mode. Recorded on TensorFlow 2.21 by
tools/tf_reference/record_tf_test_case.py; tests/test_tf_test_case_suite.py runs it on flowgrad."""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import test_util
from tensorflow.python.ops import math_ops, array_ops, gradient_checker
from tensorflow.python.platform import test


class GraphTest(test.TestCase):
    @test_util.run_deprecated_v1
    def test_eval(self):
        with self.test_session():
            x = tf.constant([1.0, 2.0])
            y = math_ops.square(x)
            self.assertAllClose(y.eval(), [1.0, 4.0])
            err = gradient_checker.compute_gradient_error(x, [2], y, [2])
            print("grad err small", err < 1e-3)

    @test_util.run_in_graph_and_eager_modes
    def test_both(self):
        x = tf.constant([[1, 2], [3, 4]])
        print("both", tf.executing_eagerly(), self.evaluate(array_ops.transpose(x)).tolist())

    @test_util.run_v1_only("v1")
    def test_v1(self):
        with self.cached_session() as sess:
            p = tf.compat.v1.placeholder(tf.float32, shape=[None])
            print("v1 feed", sess.run(p + 1, {p: [1.0]}).tolist())

    def test_random_graph(self):
        with tf.Graph().as_default() as g:
            tf.compat.v1.set_random_seed(1)
            r = tf.random.uniform([2])
            with self.session(graph=g) as s:
                print("graph rand", np.round(s.run(r), 5).tolist())

    def test_default_graph_seed(self):
        with tf.Graph().as_default():
            r = tf.random.uniform([2], seed=2)
            with self.session() as s:
                print("default graph op seed", np.round(s.run(r), 5).tolist())


@test_util.run_v2_only
class OnlyV2(test.TestCase):
    def setUp(self):
        super().setUp()
        print("v2 setUp ran")

    def test_y(self):
        from tensorflow.python import tf2
        print("tf2 enabled", tf2.enabled())

    @test_util.run_v1_only
    def test_z(self):
        print("never")


@test_util.run_v1_only("whole class")
class OnlyV1(test.TestCase):
    def test_w(self):
        print("never either")


@test_util.run_all_in_graph_and_eager_modes
class AllModes(test.TestCase):
    def test_x(self):
        print("allmodes", tf.executing_eagerly(), self.evaluate(tf.reduce_sum([1, 2])))


if __name__ == "__main__":
    test.main()
