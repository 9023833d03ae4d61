"""A tf.test suite as users write one (seeded draws, sessions in both modes, absl's
parameterized, assertProtoEquals, checkedThread, the build queries, GraphDef comparison and one
failing test). tools/tf_reference/record_tf_test_case.py runs it on TensorFlow 2.21 and records
what it printed and each test's outcome; tests/test_tf_test_case_suite.py runs it on flowgrad."""
import random
import threading

import numpy as np
import tensorflow as tf
from absl.testing import parameterized


class Seeds(tf.test.TestCase):
    def test_seeded_values(self):
        print("python", round(random.random(), 8))
        print("numpy", np.round(np.random.rand(3), 8).tolist())
        print("tf", np.round(tf.random.uniform([3]).numpy(), 6).tolist())
        print("tf normal", np.round(tf.random.normal([2], seed=3).numpy(), 6).tolist())

    def test_seeded_again(self):
        print("python again", round(random.random(), 8))


class Sessions(tf.test.TestCase):
    def test_cached_session_eagerly(self):
        with self.cached_session() as sess:
            print("cached run", sess.run({"a": tf.constant([1, 2])})["a"].tolist())
            try:
                sess.run(tf.constant(1), feed_dict={"x": 1})
            except RuntimeError as e:
                print("feed", type(e).__name__, str(e)[:40])

    def test_session_eagerly(self):
        with self.session() as sess:
            try:
                sess.run(tf.constant(1))
            except AttributeError as e:
                print("session", type(e).__name__, str(e)[:60])

    def test_graph_mode(self):
        with tf.Graph().as_default():
            x = tf.compat.v1.placeholder(tf.float32, [2])
            with self.session() as sess:
                print("graph", sess.run(x * 2, feed_dict={x: [1.0, 2.0]}).tolist())
            with self.cached_session() as sess:
                v = tf.compat.v1.Variable(3.0)
                self.evaluate(v.initializer)
                print("evaluate", self.evaluate(v + 1))


class Assertions(tf.test.TestCase, parameterized.TestCase):
    @parameterized.parameters((1, 2), (2, 4))
    def test_parameterized(self, a, b):
        self.assertAllEqual(tf.constant(a) * 2, b)

    @parameterized.named_parameters(("float", tf.float32), ("double", tf.float64))
    def test_named(self, dtype):
        self.assertDTypeEqual(tf.ones([2], dtype), dtype.as_numpy_dtype)

    def test_proto(self):
        self.assertProtoEquals("dim { size: 2 } dim { size: -1 }",
                               tf.TensorShape([2, None]).as_proto())
        try:
            self.assertProtoEquals("dim { size: 3 }", tf.TensorShape([2]).as_proto())
        except (AssertionError, AttributeError):  # TF 2.21 + protobuf 6: AttributeError
            print("proto differs")
        print("shape from proto", tf.TensorShape(tf.TensorShape([None, 4]).as_proto()))

    def test_absl_assertions(self):
        self.assertContainsInOrder(["a", "c"], "abc")
        self.assertSequenceStartsWith([1], [1, 2])
        self.assertLen([1, 2], 2)
        self.assertCountEqual([1, 2], [2, 1])

    def test_checked_thread(self):
        def boom():
            raise ValueError("in thread")
        t = self.checkedThread(boom)
        t.start()
        try:
            t.join()
        except AssertionError as e:
            print("thread", type(e).__name__, "in thread" in str(e))
        ok = self.checkedThread(lambda: None)
        ok.start()
        ok.join()
        print("alive", ok.is_alive(), threading.active_count() >= 1)

    def test_temp_dirs(self):
        d = self.get_temp_dir()
        print("same dir", d == self.get_temp_dir(), tf.io.gfile.isdir(d))
        f = self.create_tempfile("x/a.txt", content="hi")
        print("tempfile", open(f.full_path).read())

    @tf.test.disable_with_predicate(pred=lambda: True, skip_message="never here")
    def test_disabled(self):
        print("not printed")

    def test_build_queries(self):
        print("gpu", tf.test.is_gpu_available(), tf.test.is_built_with_gpu_support(),
              tf.test.is_built_with_rocm(), tf.test.gpu_device_name() == "")
        print("config", tf.test.benchmark_config().graph_options.rewrite_options
              .dependency_optimization)
        tf.test.experimental.sync_devices()

    def test_graph_defs(self):
        def graph(value):
            g = tf.Graph()
            with g.as_default():
                tf.identity(tf.constant(value, name="a"), name="b")
            return g.as_graph_def()
        tf.test.assert_equal_graph_def(graph(1.0), graph(1.0))
        try:
            tf.test.assert_equal_graph_def(graph(1.0), graph(2.0))
        except AssertionError:
            print("graph defs differ: AssertionError")
        try:
            tf.test.assert_equal_graph_def(graph(1.0), "x")
        except TypeError:
            print("not a GraphDef: TypeError")

    def test_fails(self):
        self.assertAllClose([1.0, 2.0], [1.0, 2.5])


@tf.test.with_eager_op_as_function
class Decorated(tf.test.TestCase):
    def test_one(self):
        self.assertEqual(self.evaluate(tf.constant(3)), 3)


if __name__ == "__main__":
    tf.test.main()
