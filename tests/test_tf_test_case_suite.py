"""A tf.test suite written as users write one runs on flowgrad (``python -m flowgrad``) with
TensorFlow 2.21's outcome: the same printed values (setUp's seeds give Python, NumPy and
TensorFlow the same draws), the same passes, failures and skips (``test_session`` is
collected and skipped as "Not a test."; ``test_util.run_v1_only``/``run_v2_only`` skip by
``tf2.enabled()``), the same exit status. Recorded by tools/tf_reference/record_tf_test_case.py;
the suites are tools/tf_reference/tf_test_case_suite.py and tf_test_util_suite.py.
"""
from __future__ import annotations

import importlib.util
import os
import sys

import pytest

import flowgrad as tf
from tests.tf_reference_program import ROOT, flowgrad_stdout, recorded_text

pytest.importorskip("absl")


class _Case(tf.test.TestCase):
    __test__ = False

    def test_nothing(self) -> None:
        pass


@pytest.mark.parametrize("suite", ["tf_test_case_suite", "tf_test_util_suite"])
def test_suite_runs_as_on_tensorflow(suite):
    spec = importlib.util.spec_from_file_location(
        "record_tf_test_case", ROOT / "tools" / "tf_reference" / "record_tf_test_case.py")
    recorder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recorder)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    got = recorder.run(suite, "%s -m flowgrad" % sys.executable, env)
    assert got == (recorder.RECORDS / (suite + ".txt")).read_text()


def test_eager_stand_ins_for_sessions():
    tf.compat.v1.enable_eager_execution()
    try:
        case = _Case("test_nothing")
        case.setUp()
        with case.cached_session() as sess:
            assert sess.run([tf.constant(2)]) == [2]
            with pytest.raises(RuntimeError, match="feed_dict is not supported"):
                sess.run(tf.constant(1), feed_dict={"a": 1})
        with case.session() as sess, pytest.raises(AttributeError, match="eager execution"):
            sess.run(tf.constant(1))
        with case.test_session() as sess:
            assert sess is None
        case.tearDown()
    finally:
        tf.compat.v1.disable_eager_execution()


def test_graph_def_comparison_names_the_node():
    def graph(value: float):
        g = tf.Graph()
        with g.as_default():
            tf.identity(tf.constant(value, name="a"), name="b")
        return g.as_graph_def()
    tf.test.assert_equal_graph_def(graph(1.0), graph(1.0))
    with pytest.raises(AssertionError, match="Node 'a' differs"):
        tf.test.assert_equal_graph_def(graph(1.0), graph(2.0))
    with pytest.raises(TypeError, match="Expected tf.GraphDef"):
        tf.test.assert_equal_graph_def(graph(1.0), "graph")


def test_setup_seeds_numpy_python_and_the_graph():
    import random

    import numpy as np

    class Case(tf.test.TestCase):
        def test_draw(self):
            self.drawn = (random.random(), np.random.rand(), tf.compat.v1.get_default_graph()
                          .seed)

    first, second = Case("test_draw"), Case("test_draw")
    for case in (first, second):
        case.setUp()
        case.test_draw()
        case.tearDown()
    assert first.drawn == second.drawn
    assert first.drawn[2] == 87654321


def test_assertions_pass_and_fail_as_tensorflows():
    assert flowgrad_stdout("tf_test_case_assertions.py") == recorded_text(
        "tf_test_case/assertions.txt")
