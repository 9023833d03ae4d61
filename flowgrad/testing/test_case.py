"""``tf.test.TestCase`` and ``tf.test.main``: TensorFlow's unit-test base class.

TensorFlow's ``TestCase`` extends absl's ``TestCase`` (itself a :class:`unittest.TestCase`)
with array assertions (``assertAllClose`` with rtol = atol = 1e-6, ``assertAllEqual``, ...),
``evaluate`` (a tensor's value in eager and in graph mode), ``session``/``cached_session``
(a Session on the test's graph; eagerly, TensorFlow's stand-ins) and ``assertProtoEquals``.
Each test starts as TensorFlow's ``setUp`` starts it: a fresh default graph, and Python's,
NumPy's and the global TensorFlow seed set to 87654321, so a test draws the same numbers on
every run. This class does the same on flowgrad. With absl-py installed (the ``flags`` extra;
Keras 3 needs it too) the base class and ``main`` are absl's, as in TensorFlow (absl's
assertions, ``create_tempfile``, ``parameterized``, its test runner and flags); without it,
:class:`unittest.TestCase` with the absl assertions TensorFlow tests use most.
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import unittest
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import errors
from flowgrad.framework.context import (executing_eagerly, get_default_session,
                                        reset_default_graph)
from flowgrad.framework.dtypes import as_dtype
from flowgrad.framework.graph import Graph, get_default_graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.ops.ragged_tensor import RaggedTensor, RaggedTensorValue
from flowgrad.ops.sparse_tensor import SparseTensor, SparseTensorValue
from flowgrad.ops.tensor_like import is_tensor as is_tf_type
from flowgrad.runtime.session import IndexedSlicesValue
from flowgrad.runtime.session import Session
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.random_ops import set_random_seed

try:
    from absl.testing import absltest as _absltest
except ImportError:             # absl-py is optional: unittest's base and the assertions below
    _absltest = None

# The tolerances TensorFlow's assertAllCloseAccordingToType uses for the small floats.
_HALF_TOL = 1e-3
_BFLOAT16_TOL = 1e-2
#: The extension float types assertAllClose compares as float32, as TensorFlow's.
_CUSTOM_FLOATS = {"bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                  "float8_e4m3b11fnuz", "float8_e5m2fnuz"}


class _AbslAssertions(unittest.TestCase):
    """absl's ``TestCase`` additions that TensorFlow tests use most, for when absl-py is not
    installed (with it, :class:`TestCase` extends absl's own class)."""

    def create_tempdir(self) -> Any:
        """A new temporary directory (``.full_path`` holds its path, as absl's)."""
        path = tempfile.mkdtemp(dir=self.get_temp_dir())
        return type("TempDir", (), {"full_path": path, "__fspath__": lambda s: path})()

    def create_tempfile(self, file_path: str | None = None, content: str | bytes | None = None
                        ) -> Any:
        """A new file in the test's temporary directory, optionally holding ``content``."""
        if file_path is None:
            fd, path = tempfile.mkstemp(dir=self.get_temp_dir())
            os.close(fd)
        else:
            path = os.path.join(self.get_temp_dir(), file_path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(path, mode) as f:
            if content is not None:
                f.write(content)
        return type("TempFile", (), {"full_path": path, "__fspath__": lambda s: path})()

    # -- absl's assertions that TensorFlow tests use ---------------------------------------
    def assertLen(self, container: Any, expected_len: int, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``len(container) == expected_len``."""
        self.assertEqual(len(container), expected_len, msg)

    def assertEmpty(self, container: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``container`` has no element."""
        self.assertEqual(len(container), 0, msg)

    def assertNotEmpty(self, container: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``container`` has an element."""
        self.assertNotEqual(len(container), 0, msg)

    def assertStartsWith(self, actual: str, expected_start: str, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``actual.startswith(expected_start)``."""
        self.assertTrue(actual.startswith(expected_start), msg or "%r does not start with %r"
                        % (actual, expected_start))

    def assertEndsWith(self, actual: str, expected_end: str, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``actual.endswith(expected_end)``."""
        self.assertTrue(actual.endswith(expected_end), msg or "%r does not end with %r"
                        % (actual, expected_end))

    def assertBetween(self, value: Any, minv: Any, maxv: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``minv <= value <= maxv``."""
        self.assertTrue(minv <= value <= maxv, msg or "%r is not between %r and %r"
                        % (value, minv, maxv))

    def assertItemsEqual(self, expected_seq: Any, actual_seq: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts the two sequences hold the same items, in any order."""
        self.assertCountEqual(expected_seq, actual_seq, msg)

    def assertSameElements(self, expected_seq: Any, actual_seq: Any,  # noqa: N802
                           msg: str | None = None) -> None:
        """Asserts the two sequences hold the same set of elements."""
        self.assertEqual(set(expected_seq), set(actual_seq), msg)

    def assertContainsSubset(self, expected_subset: Any, actual_set: Any,  # noqa: N802
                             msg: str | None = None) -> None:
        """Asserts every element of ``expected_subset`` is in ``actual_set``."""
        missing = set(expected_subset) - set(actual_set)
        self.assertFalse(missing, msg or "Missing elements %s" % sorted(missing, key=repr))

    def assertSameStructure(self, a: Any, b: Any, aname: str = "a", bname: str = "b",  # noqa: N802
                            msg: str | None = None) -> None:
        """Asserts ``a`` and ``b`` are nested structures of the same shape."""
        try:
            nest.assert_same_structure(a, b)
        except (ValueError, TypeError) as e:
            raise AssertionError(msg or "%s and %s differ in structure: %s"
                                 % (aname, bname, e)) from e


_Base = _absltest.TestCase if _absltest is not None else _AbslAssertions

#: TensorFlow's default graph seed, which its ``setUp`` gives Python, NumPy and TensorFlow.
DEFAULT_GRAPH_SEED = 87654321


@functools.cache
def _process_temp_dir() -> str:
    """The process's directory for the tests' temporary directories (removed at exit)."""
    path = tempfile.mkdtemp(prefix="flowgrad_test_")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def get_temp_dir() -> str:
    """A temporary directory for the process's tests (``tf.compat.v1.test.get_temp_dir``),
    removed when the process ends.

    Returns:
        Its path.
    """
    return _process_temp_dir()


class _FakeEagerSession:
    """``cached_session()``'s stand-in in eager mode: ``run`` gives eager values, as
    TensorFlow's ``FakeEagerSession`` (for tests that fetch through a session)."""

    def __init__(self, test_case: TestCase) -> None:
        self._test_case = test_case

    def run(self, fetches: Any, *args: Any, **kwargs: Any) -> Any:
        """The values of ``fetches``; feeds and options are an error eagerly, as TF's."""
        if kwargs.pop("feed_dict", None) or args or kwargs:
            raise RuntimeError("feed_dict is not supported when eager execution is enabled "
                               "(in this case, sess.run(t) is shorthand for t.numpy()")
        return self._test_case.evaluate(fetches)

    def __enter__(self) -> _FakeEagerSession:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _EagerSessionWarner:
    """``session()``'s stand-in in eager mode: every attribute raises, as TensorFlow's."""

    def __getattr__(self, attr: str) -> Any:
        raise AttributeError(
            "Trying to access properties or call methods on the result of self.session(), "
            "self.cached_session(), etc while eager execution is enabled. If you're porting "
            "this test case to TF 2.0, either adapt the test to work with eager execution or "
            "insert a call to tf.disable_eager_execution() in the main() function of this "
            "test file.")


class _CheckedThread:
    """A thread whose ``join`` fails the test when its target raised."""

    def __init__(self, test_case: TestCase, target: Callable, args: tuple | None,
                 kwargs: dict | None) -> None:
        self._test_case = test_case
        self._target, self._args, self._kwargs = target, args or (), kwargs or {}
        self._exception: BaseException | None = None
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            self._target(*self._args, **self._kwargs)
        except BaseException as e:     # noqa: BLE001 - reported by join()
            self._exception = e

    def start(self) -> None:
        """Starts the thread."""
        self._thread.start()

    def join(self) -> None:
        """Waits for the thread; fails the test with the target's error, if any."""
        self._thread.join()
        if self._exception is not None:
            self._test_case.fail("Error in checkedThread: %r" % (self._exception,))

    def is_alive(self) -> bool:
        """Whether the thread is still running."""
        return self._thread.is_alive()


class TestCase(_Base):
    """A :class:`unittest.TestCase` with TensorFlow's tensor assertions and helpers.

    Args:
        methodName: The test method this instance runs (as for ``unittest.TestCase``).
    """

    #: Whether ``setUp`` sets the global TensorFlow seed (TensorFlow's class attribute).
    _set_default_seed = True

    def setUp(self) -> None:
        """Starts each test as TensorFlow does: a fresh default graph (graph mode), Python's,
        NumPy's and TensorFlow's global seed set to 87654321; a method named
        ``test_session`` (the session helper's name) is skipped as "Not a test."."""
        super().setUp()
        self._cached_session: Session | None = None
        self._tempdir: str | None = None
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        if not executing_eagerly():
            reset_default_graph()
        if self._set_default_seed:
            set_random_seed(DEFAULT_GRAPH_SEED)
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")

    def tearDown(self) -> None:
        """Closes the session ``cached_session`` opened."""
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None
        super().tearDown()

    # -- running tensors -------------------------------------------------------------------
    def evaluate(self, tensors: TensorLike) -> Any:
        """The values of ``tensors`` (a nested structure) as NumPy, as TensorFlow's.

        Eagerly: tensors and variables give ndarrays, sparse tensors ``SparseTensorValue``,
        ragged tensors ``RaggedTensorValue``, IndexedSlices ``IndexedSlicesValue``, a callable
        the values of what it returns, None stays None. In graph mode they are run in the
        default session, or else in the test's cached session on the default graph (a
        variable initialized by one call keeps its value for the next).

        Args:
          tensors: a tensor, variable, or nested structure of them.

        Returns:
          The same structure holding NumPy values.

        Raises:
          ValueError: eagerly, an element that is neither a tensor nor a callable giving
            tensors ("Unsupported type"), as TensorFlow's.
        """
        if executing_eagerly():
            return None if tensors is None else nest.map_structure(self._eval_tensor, tensors)
        sess = get_default_session()
        if sess is None:
            g = get_default_graph()
            if self._cached_session is None or self._cached_session.graph is not g:
                if self._cached_session is not None:
                    self._cached_session.close()
                self._cached_session = Session(graph=g)
            sess = self._cached_session
        return sess.run(tensors)

    def _eval_tensor(self, tensor: Any) -> Any:
        """One eager element's value (TensorFlow's ``_eval_tensor``)."""
        if tensor is None:
            return None
        if callable(tensor) and not hasattr(tensor, "numpy"):
            return self.evaluate(tensor())
        if isinstance(tensor, SparseTensor):
            return SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(),
                                     tensor.dense_shape.numpy())
        if isinstance(tensor, RaggedTensor):
            return RaggedTensorValue(self._eval_tensor(tensor.values),
                                     self._eval_tensor(tensor.row_splits))
        if isinstance(tensor, IndexedSlices):
            return IndexedSlicesValue(
                tensor.values.numpy(), tensor.indices.numpy(),
                None if tensor.dense_shape is None else tensor.dense_shape.numpy())
        if hasattr(tensor, "numpy") and callable(tensor.numpy):
            return tensor.numpy()
        raise ValueError("Unsupported type %r." % type(tensor).__name__)

    @contextlib.contextmanager
    def session(self, graph: Graph | None = None, config: Any = None, use_gpu: bool = True,
                force_gpu: bool = False) -> Iterator[Session]:
        """A new Session on ``graph`` (the default graph), installed as the default session.

        Args:
          graph: the graph to run; the default graph when None.
          config: a ConfigProto for the session.
          use_gpu: accepted for TensorFlow's signature (flowgrad runs on the CPU).
          force_gpu: when True, the test is skipped: flowgrad has no GPU.

        Yields:
          The session; eagerly, as TensorFlow's, an object whose every attribute raises
          (tests ported to eager use ``evaluate``).
        """
        if executing_eagerly():
            yield _EagerSessionWarner()
            return
        if force_gpu:
            self.skipTest("flowgrad has no GPU")
        g = graph if graph is not None else get_default_graph()
        with g.as_default(), Session(graph=g, config=config) as sess, sess.as_default():
            yield sess

    @contextlib.contextmanager
    def cached_session(self, graph: Graph | None = None, config: Any = None,
                       use_gpu: bool = True, force_gpu: bool = False) -> Iterator[Session]:
        """Like :meth:`session`, but one session serves the whole test method.

        Args:
          graph: the graph to run; the default graph when None.
          config: a ConfigProto for the session.
          use_gpu: accepted for TensorFlow's signature.
          force_gpu: when True, the test is skipped: flowgrad has no GPU.

        Yields:
          The test's session; eagerly, as TensorFlow's, a stand-in whose ``run(fetches)``
          gives the values of eager tensors (``feed_dict`` is an error there).
        """
        if executing_eagerly():
            yield _FakeEagerSession(self)
            return
        if force_gpu:
            self.skipTest("flowgrad has no GPU")
        if self._cached_session is None:
            g = graph if graph is not None else get_default_graph()
            self._cached_session = Session(graph=g, config=config)
        sess = self._cached_session
        with sess.graph.as_default(), sess.as_default():
            yield sess

    @contextlib.contextmanager
    def test_session(self, graph: Graph | None = None, config: Any = None,
                     use_gpu: bool = True, force_gpu: bool = False) -> Iterator[Session | None]:
        """TensorFlow's deprecated session helper: the cached session (a new one when
        ``graph`` is given). Collected as a test method, it is skipped by ``setUp``.

        Args:
          graph: the graph to run; the cached session's graph when None.
          config: a ConfigProto for the session.
          use_gpu: accepted for TensorFlow's signature.
          force_gpu: when True, the test is skipped: flowgrad has no GPU.

        Yields:
          The session; None eagerly, as TensorFlow's.
        """
        if executing_eagerly():
            yield None
        elif graph is None:
            with self.cached_session(None, config, use_gpu, force_gpu) as sess:
                yield sess
        else:
            with self.session(graph, config, use_gpu, force_gpu) as sess:
                yield sess

    def checkedThread(self, target: Callable, args: tuple | None = None,  # noqa: N802
                      kwargs: dict | None = None) -> _CheckedThread:
        """A thread running ``target(*args, **kwargs)`` whose ``join()`` fails the test when
        ``target`` raised (TensorFlow's helper for tests with threads).

        Args:
          target: the callable the thread runs.
          args: its positional arguments.
          kwargs: its keyword arguments.

        Returns:
          The thread, not yet started (``start()``, ``join()``, ``is_alive()``).
        """
        return _CheckedThread(self, target, args, kwargs)

    def assertProtoEquals(self, expected_message_maybe_ascii: Any,  # noqa: N802
                          validate_message: Any, msg: str | None = None) -> None:
        """Asserts a protocol message equals the expected one, given as a message or in the
        text format (parsed into ``validate_message``'s type), as TensorFlow's.

        Args:
          expected_message_maybe_ascii: the expected message, or its text form.
          validate_message: the message to check (a protobuf message).
          msg: text added to the failure message.

        Raises:
          AssertionError: the messages differ (the message shows both in the text format).
          TypeError: the expected value is neither a message nor text.
        """
        from google.protobuf import text_format
        if isinstance(expected_message_maybe_ascii, (str, bytes)):
            expected = type(validate_message)()
            text = expected_message_maybe_ascii
            text_format.Merge(text.decode() if isinstance(text, bytes) else text, expected)
        elif isinstance(expected_message_maybe_ascii, type(validate_message)):
            expected = expected_message_maybe_ascii
        else:
            raise TypeError("Can't compare protobuf message %s with %s" % (
                type(validate_message).__name__, type(expected_message_maybe_ascii).__name__))
        if expected != validate_message:
            self.assertMultiLineEqual(text_format.MessageToString(expected),
                                      text_format.MessageToString(validate_message), msg)

    def get_temp_dir(self) -> str:
        """A temporary directory for this test: the same on each call within the test,
        another for each test, under one directory removed when the process ends."""
        if self._tempdir is None:
            self._tempdir = tempfile.mkdtemp(dir=_process_temp_dir())
        return self._tempdir

    # -- array assertions ------------------------------------------------------------------
    def _get_ndarray(self, a: Any) -> np.ndarray:
        """``a`` as an ndarray: a tensor by its value, a ragged nested list as an object
        array (TensorFlow's ``_GetNdArray``)."""
        if is_tf_type(a):
            a = a.numpy() if executing_eagerly() and hasattr(a, "numpy") else self.evaluate(a)
        if isinstance(a, np.ndarray):
            return a
        try:
            return np.array(a)
        except ValueError as e:
            if "inhomogeneous shape" in str(e):
                return np.array(a, dtype=object)
            raise

    def evaluate_if_both_tensors(self, a: Any, b: Any) -> tuple:
        """``(a, b)``, evaluated together when both are graph tensors (one run, as
        TensorFlow's: two random ops then draw in the same step).

        Args:
          a: a value or tensor.
          b: a value or tensor.

        Returns:
          The pair.
        """
        if (is_tf_type(a) and is_tf_type(b) and not executing_eagerly()):
            return self.evaluate((a, b))
        return a, b

    def _py_list(self, a: Any) -> Any:
        """A ragged tensor (or array, or list) as nested Python lists."""
        if isinstance(a, RaggedTensor):
            a = self.evaluate(a) if not executing_eagerly() else a
        if isinstance(a, (RaggedTensor, RaggedTensorValue)):
            return a.to_list()
        if is_tf_type(a):
            a = self._get_ndarray(a)
        return a.tolist() if isinstance(a, np.ndarray) else a

    def _assert_array_like_all_close(self, a: Any, b: Any, rtol: float, atol: float,
                                     msg: str | None) -> None:
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._get_ndarray(a), self._get_ndarray(b)
        self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s." % (
            a.shape, b.shape))
        dtype = a.dtype
        a = a.astype(np.float32) if a.dtype.name in _CUSTOM_FLOATS else a
        b = b.astype(np.float32) if b.dtype.name in _CUSTOM_FLOATS else b
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            msgs = [msg or ""]
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b),
                                 np.isnan(a) != np.isnan(b))
            x, y = (a[np.where(cond)], b[np.where(cond)]) if a.ndim else (a, b)
            if a.ndim:
                msgs.append(f"not close where = {np.where(cond)}")
            msgs += [f"not close lhs = {x}", f"not close rhs = {y}",
                     f"not close dif = {np.abs(x - y)}",
                     f"not close tol = {atol + rtol * np.abs(y)}",
                     f"dtype = {dtype}, shape = {a.shape}"]
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(msgs),
                                       equal_nan=True)

    def _assert_list_close(self, a: Any, b: Any, rtol: float, atol: float, msg: str | None,
                           path: str) -> None:
        self.assertEqual(type(a), type(b))
        if isinstance(a, (list, tuple)):
            self.assertEqual(len(a), len(b), "Length differs for %s" % path)
            for i, (x, y) in enumerate(zip(a, b)):
                self._assert_list_close(x, y, rtol, atol, msg, "%s[%s]" % (path, i))
        else:
            self._assert_all_close(a, b, rtol, atol, [path], msg)

    def _assert_all_close(self, a: Any, b: Any, rtol: float, atol: float, path: list,
                          msg: str | None) -> None:
        """TensorFlow's ``_assertAllCloseRecursive``: namedtuples as dicts, dicts by key,
        sequences as one array when they form one, else item by item."""
        if any(isinstance(x, (RaggedTensor, RaggedTensorValue)) for x in (a, b)):
            self._assert_list_close(self._py_list(a), self._py_list(b), rtol, atol, msg,
                                    "value")
            return
        where = "".join("[%s]" % p for p in path)
        msg = msg or ""
        a = a._asdict() if hasattr(a, "_asdict") else a
        b = b._asdict() if hasattr(b, "_asdict") else b
        if isinstance(a, Mapping) != isinstance(b, Mapping):
            raise ValueError("Can't compare dict to non-dict, a%s vs b%s. %s"
                             % (where, where, msg))
        if isinstance(a, Mapping):
            self.assertCountEqual(a.keys(), b.keys(), "mismatched keys: a%s has keys %s, but "
                                  "b%s has keys %s. %s" % (where, a.keys(), where, b.keys(),
                                                           msg))
            for k in a:
                self._assert_all_close(a[k], b[k], rtol, atol, path + [k], msg)
            return
        text = "Mismatched value: a%s is different from b%s. %s" % (where, where, msg)
        if isinstance(a, (list, tuple)):
            try:
                x, y = self.evaluate_if_both_tensors(a, b)
                self._assert_array_like_all_close(self._get_ndarray(x), self._get_ndarray(y),
                                                  rtol, atol, text)
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError("Mismatched length: a%s has %d items, but b%s has %d "
                                     "items. %s" % (where, len(a), where, len(b), msg)
                                     ) from None
                for i, (x, y) in enumerate(zip(a, b)):
                    self._assert_all_close(x, y, rtol, atol, path + [str(i)], msg)
            return
        try:
            self._assert_array_like_all_close(a, b, rtol, atol, text)
        except TypeError as e:
            e.args = (e.args[0] + " : Error: a%s has %s, but b%s has %s. %s" % (
                where, type(a), where, type(b), msg),) + e.args[1:]
            raise

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: str | None = None) -> None:
        """Asserts ``|a - b| <= atol + rtol * |b|`` elementwise, over nested structures
        (dicts, namedtuples, lists, tuples; ragged tensors row by row), as TensorFlow's.

        Args:
          a: the expected value: a tensor, array, number or nested structure.
          b: the actual value, of the same structure.
          rtol: relative tolerance.
          atol: absolute tolerance.
          msg: text added to the failure message.

        Raises:
          AssertionError: a value or a shape differs.
          ValueError: only one side is a dict, or sequences differ in length.
        """
        self._assert_all_close(a, b, rtol, atol, [], msg)

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6,  # noqa: N802
                                      atol: float = 1e-6, float_rtol: float = 1e-6,
                                      float_atol: float = 1e-6, half_rtol: float = _HALF_TOL,
                                      half_atol: float = _HALF_TOL,
                                      bfloat16_rtol: float = _BFLOAT16_TOL,
                                      bfloat16_atol: float = _BFLOAT16_TOL,
                                      msg: str | None = None) -> None:
        """``assertAllClose`` with looser tolerances for float32, float16 and bfloat16."""
        a, b = self.evaluate_if_both_tensors(a, b)
        x, y = self._get_ndarray(a), self._get_ndarray(b)
        kinds = {x.dtype.name, y.dtype.name}
        if kinds & {"float32", "complex64"}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if "float16" in kinds:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in kinds:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(x, y, rtol, atol, msg)

    def assertNotAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                          msg: str | None = None) -> None:
        """Asserts that ``assertAllClose(a, b)`` would fail."""
        try:
            self.assertAllClose(a, b, rtol, atol, msg)
        except AssertionError:
            return
        raise AssertionError("The two values are close at all elements. %s" % (msg or ""))

    def assertAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts equal shapes and equal elements, as TensorFlow's: NaN equals NaN in
        floating arrays, ``str`` equals its UTF-8 ``bytes``, ragged tensors compare as
        nested lists.

        Args:
          a: the expected value.
          b: the actual value.
          msg: text added to the failure message.

        Raises:
          AssertionError: the shapes or an element differ.
        """
        if any(isinstance(x, (RaggedTensor, RaggedTensorValue)) for x in (a, b)):
            self.assertEqual(self._py_list(a), self._py_list(b), msg)
            return
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._get_ndarray(a), self._get_ndarray(b)
        self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s. %s"
                         % (a.shape, b.shape, msg or ""))
        same = a == b
        if a.dtype.kind in "fc" or a.dtype.name == "bfloat16":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            if a.dtype.kind != b.dtype.kind and {a.dtype.kind, b.dtype.kind} <= {"U", "S", "O"}:
                a, b = (np.array([x.encode("utf-8") if isinstance(x, str) else x
                                  for x in arr.flat]).reshape(arr.shape) for arr in (a, b))
            np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts that ``assertAllEqual(a, b)`` would fail."""
        try:
            self.assertAllEqual(a, b, msg)
        except AssertionError:
            return
        raise AssertionError("The two values are equal at all elements. %s" % (msg or ""))

    def _compare_all(self, a: Any, op: Callable, text: str, bound: Any) -> None:
        x = self._get_ndarray(a)
        if not np.all(op(x, bound)):
            raise AssertionError("Not all elements %s %s: %s" % (text, bound, x))

    def assertAllGreater(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Asserts every element > ``comparison_target``."""
        self._compare_all(a, np.greater, ">", comparison_target)

    def assertAllGreaterEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Asserts every element >= ``comparison_target``."""
        self._compare_all(a, np.greater_equal, ">=", comparison_target)

    def assertAllLess(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Asserts every element < ``comparison_target``."""
        self._compare_all(a, np.less, "<", comparison_target)

    def assertAllLessEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Asserts every element <= ``comparison_target``."""
        self._compare_all(a, np.less_equal, "<=", comparison_target)

    def assertAllInRange(self, target: Any, lower_bound: Any, upper_bound: Any,  # noqa: N802
                         open_lower_bound: bool = False, open_upper_bound: bool = False
                         ) -> None:
        """Asserts every element lies between the bounds (closed unless told open)."""
        x = self._get_ndarray(target)
        low = x > lower_bound if open_lower_bound else x >= lower_bound
        high = x < upper_bound if open_upper_bound else x <= upper_bound
        if not np.all(low & high):
            raise AssertionError("%s is not in the range %s%s, %s%s" % (
                x, "(" if open_lower_bound else "[", lower_bound, upper_bound,
                ")" if open_upper_bound else "]"))

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        """Asserts every element belongs to ``expected_set``."""
        x = self._get_ndarray(target).ravel()
        extra = set(x.tolist()) - set(expected_set)
        if extra:
            raise AssertionError("%s are not in %s" % (sorted(extra), set(expected_set)))

    def assertArrayNear(self, farray1: Any, farray2: Any, err: float,  # noqa: N802
                        msg: str | None = None) -> None:
        """Asserts two lists of floats are within ``err`` elementwise."""
        self.assertEqual(len(farray1), len(farray2), msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg)

    def assertNDArrayNear(self, ndarray1: Any, ndarray2: Any, err: float,  # noqa: N802
                          msg: str | None = None) -> None:
        """Asserts two arrays are within ``err`` elementwise."""
        self.assertTrue(np.all(np.abs(np.asarray(ndarray1) - np.asarray(ndarray2)) <= err),
                        msg)

    def assertNear(self, f1: float, f2: float, err: float, msg: str | None = None) -> None:  # noqa: N802
        """Asserts ``|f1 - f2| <= err``."""
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err,
                        "%f != %f +/- %f%s" % (f1, f2, err, " (%s)" % msg if msg else ""))

    def assertShapeEqual(self, input_a: Any, input_b: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts an array's shape equals a tensor's static shape."""
        shape = getattr(input_b, "shape", None)
        dims = shape.as_list() if hasattr(shape, "as_list") else list(shape)
        self.assertEqual(list(np.shape(input_a)), dims, msg)

    def assertDTypeEqual(self, target: Any, expected_dtype: Any) -> None:  # noqa: N802
        """Asserts every element of ``target`` has ``expected_dtype``."""
        x = self._get_ndarray(target)
        self.assertEqual(x.dtype, as_dtype(expected_dtype).as_numpy_dtype)

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type: Any,  # noqa: N802
                                       expected_err_re_or_predicate: Any) -> Iterator[None]:
        """A context in which an ``exception_type`` error matching the predicate (a callable
        or a regular expression searched in the message) must be raised."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            pattern = expected_err_re_or_predicate
            predicate = lambda e: re.search(pattern, str(e)) is not None  # noqa: E731
        try:
            yield
        except exception_type as e:
            if not predicate(e):
                raise AssertionError("Exception of type %s: %s does not match" % (
                    type(e).__name__, e)) from e
            return
        raise AssertionError("%s not raised" % getattr(exception_type, "__name__",
                                                       exception_type))

    def assertRaisesOpError(self, expected_err_re_or_predicate: Any) -> Any:  # noqa: N802
        """A context in which an ``OpError`` matching the predicate must be raised."""
        return self.assertRaisesWithPredicateMatch(errors.OpError,
                                                   expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(  # noqa: N802
            self, exception_type: Any = errors.InvalidArgumentError) -> Any:
        """A context in which an ``exception_type`` error (a class or a tuple of them) about
        incompatible shapes must be raised, as TensorFlow's."""
        return self.assertRaisesWithPredicateMatch(
            exception_type, r"Incompatible shapes|Dimensions must be equal|"
            r"required broadcastable shapes")

def main(argv: list[str] | None = None) -> None:
    """Runs the tests of ``__main__`` (TensorFlow's ``tf.test.main``) and exits: with absl's
    runner and flags when absl-py is installed, as TensorFlow's, else with unittest's.

    Args:
      argv: the command line; ``sys.argv`` when None.
    """
    if _absltest is not None:
        _absltest.main(argv=argv)
    else:
        unittest.main(module="__main__", argv=argv if argv is not None else sys.argv)


__all__ = ["TestCase", "main", "get_temp_dir"]
