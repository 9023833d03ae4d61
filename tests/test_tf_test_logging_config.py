"""tf.test.TestCase / tf.test.main, tf.compat.v1.logging / tf.get_logger, tf.timestamp, and
TF1's session option messages (ConfigProto, GPUOptions, RunOptions)."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1
from flowgrad.runtime import session_config


class _Case(tf.test.TestCase):
    __test__ = False

    def runTest(self) -> None:  # noqa: N802 - unittest's name
        pass


def _case() -> tf.test.TestCase:
    case = _Case()
    case.setUp()
    return case


@pytest.fixture
def eager():
    v1.enable_eager_execution()   # the conftest fixture restores graph mode afterwards


def test_test_case_assertions_pass_and_fail_as_tensorflows(eager):
    case = _case()
    case.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-7])
    case.assertAllClose({"a": [1.0], "b": (2.0, 3.0)}, {"a": [1.0], "b": (2.0, 3.0)})
    with pytest.raises(AssertionError):
        case.assertAllClose([1.0, 2.0], [1.0, 2.1])
    with pytest.raises(AssertionError):
        case.assertAllClose([1.0, 2.0], [1.0, 2.0, 3.0])          # shapes differ
    case.assertNotAllClose([1.0], [2.0])
    case.assertAllEqual(tf.constant([[1, 2]]), np.array([[1, 2]]))
    with pytest.raises(AssertionError):
        case.assertAllEqual([1, 2], [1, 3])
    case.assertAllInRange([0.0, 0.5, 1.0], 0.0, 1.0)
    with pytest.raises(AssertionError):
        case.assertAllInRange([0.0, 1.0], 0.0, 1.0, open_upper_bound=True)
    case.assertAllGreater([2, 3], 1)
    case.assertAllInSet([1, 2, 1], {1, 2})
    case.assertDTypeEqual(tf.constant([1.0]), tf.float32)
    case.assertLen([1, 2], 2)
    case.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.0005]))
    with case.assertRaisesOpError("Input to reshape is a tensor with 3 values"):
        tf.reshape(tf.constant([1, 2, 3]), [2])
    with pytest.raises(AssertionError, match="does not match"):
        with case.assertRaisesOpError("some other message"):
            tf.reshape(tf.constant([1, 2, 3]), [2])


def test_test_case_compares_ragged_tensors_row_by_row(eager):
    case = _case()
    r = tf.ragged.constant([[1, 2], [3]])
    case.assertAllEqual(r, [[1, 2], [3]])
    case.assertAllEqual([[1, 2], [3]], r)
    case.assertAllClose(tf.ragged.constant([[1.0], [2.0, 3.0]]), [[1.0], [2.0, 3.0 + 1e-7]])
    with pytest.raises(AssertionError):
        case.assertAllEqual(r, [[1, 2], [4]])
    with pytest.raises(AssertionError):
        case.assertAllEqual(r, [[1, 2, 3]])                       # other row lengths
    with pytest.raises(AssertionError):
        case.assertAllClose(tf.ragged.constant([[1.0], [2.0]]), [[1.0], [2.5]])


def test_test_case_evaluates_ragged_tensors_in_graph_mode():
    case = _case()
    with v1.Graph().as_default():
        r = tf.ragged.constant([[1, 2], [3]])
        with case.cached_session():
            case.assertAllEqual(r, [[1, 2], [3]])
        case.tearDown()


def test_test_case_evaluates_in_graph_mode_with_its_own_session():
    case = _case()
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder_with_default(np.float32([1.0, 2.0]), [2])
        v = v1.Variable([3.0, 4.0])
        with case.cached_session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess is v1.get_default_session()
            np.testing.assert_allclose(case.evaluate(x * 2.0), [2.0, 4.0])
            case.assertAllClose(case.evaluate({"v": v}), {"v": [3.0, 4.0]})
        with case.cached_session() as again:
            assert again is sess                                     # one per test method
        case.tearDown()


def test_tf_test_main_runs_the_programs_tests(tmp_path):
    prog = tmp_path / "t.py"
    prog.write_text(textwrap.dedent("""
        import flowgrad as tf

        class T(tf.test.TestCase):
            def test_ok(self):
                self.assertAllClose(tf.constant(2.0) * 2.0, 4.0)

            def test_bad(self):
                self.assertAllEqual(tf.constant([1]), [2])

        if __name__ == "__main__":
            tf.test.main()
    """))
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env)
    assert out.returncode == 1, out.stderr
    # as TensorFlow: the inherited test_session is collected, and skipped as "Not a test."
    assert "Ran 3 tests" in out.stderr and "failures=1, skipped=1" in out.stderr


def test_logging_goes_to_the_tensorflow_logger(caplog):
    assert tf.get_logger() is logging.getLogger("tensorflow") is v1.get_logger()
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        v1.logging.info("step %d", 3)
        v1.logging.warning("careful")
        v1.logging.debug("hidden")
        for _ in range(5):
            v1.logging.log_every_n(v1.logging.INFO, "every two", 2)
        for _ in range(5):
            v1.logging.log_first_n(v1.logging.INFO, "first three", 3)
    texts = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert texts.count("step 3") == 1 and "careful" in texts and "hidden" not in texts
    assert texts.count("every two") == 3 and texts.count("first three") == 3
    old = v1.logging.get_verbosity()
    v1.logging.set_verbosity(v1.logging.ERROR)
    try:
        assert v1.logging.get_verbosity() == logging.ERROR
    finally:
        v1.logging.set_verbosity(old)


def test_timestamp_reads_the_clock_on_every_run_and_has_no_gradient():
    g = v1.Graph()
    with g.as_default():
        ts = v1.timestamp()
        x = v1.constant(1.0, v1.float64)
        assert v1.gradients(ts * x, x)[0] is not None
        assert v1.gradients(ts, [x])[0] is None
        with v1.Session() as sess:
            a = sess.run(ts)
            time.sleep(0.002)
            b = sess.run(ts)
    assert b > a


def test_timestamp_eagerly_is_the_time_now(eager):
    before = time.time()
    t = tf.timestamp()
    assert t.dtype == tf.float64 and before <= float(t) <= time.time()


def test_config_proto_is_tensorflows_message_and_sessions_accept_it():
    config = v1.ConfigProto(allow_soft_placement=True, log_device_placement=False,
                            inter_op_parallelism_threads=1)
    config.gpu_options.allow_growth = True
    assert config.inter_op_parallelism_threads == 1 and config.gpu_options.allow_growth
    opts = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE)
    assert opts.trace_level == 3
    gpu = v1.GPUOptions(per_process_gpu_memory_fraction=0.5)
    assert v1.ConfigProto(gpu_options=gpu).gpu_options.per_process_gpu_memory_fraction == 0.5
    with pytest.raises((ValueError, TypeError, AttributeError)):
        v1.ConfigProto(no_such_option=1)
    g = v1.Graph()
    with g.as_default():
        y = v1.constant(2.0) * 3.0
        with v1.Session(config=config) as sess:
            assert sess.run(y) == 6.0
    with pytest.raises(AttributeError):
        v1.NoSuchMessage  # noqa: B018


def test_config_stand_in_without_protobuf_keeps_fields():
    session_config.message_class.cache_clear()
    real = sys.modules.get("tensorboard.compat.proto")
    sys.modules["tensorboard.compat.proto"] = None      # import fails as if not installed
    try:
        cls = session_config.message_class("ConfigProto")
        config = cls(intra_op_parallelism_threads=2)
        config.gpu_options.allow_growth = True
        assert config.intra_op_parallelism_threads == 2
        assert config.inter_op_parallelism_threads == 0      # proto3's zero until set
        assert session_config.message_class("RunOptions").FULL_TRACE == 3
    finally:
        if real is None:
            del sys.modules["tensorboard.compat.proto"]
        else:
            sys.modules["tensorboard.compat.proto"] = real
        session_config.message_class.cache_clear()
