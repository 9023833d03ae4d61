"""``tf.test.TestCase`` and ``tf.test.main``: TensorFlow's unit-test base class.

TensorFlow's ``TestCase`` extends absl's ``TestCase`` (itself a :class:`unittest.TestCase`)
with array assertions (``assertAllClose`` with rtol = atol = 1e-6, ``assertAllEqual``, ...),
``evaluate`` (a tensor's value in eager and in graph mode) and ``session``/``cached_session``
(a Session on the test's graph). Each test starts with a fresh default graph, as TensorFlow's
``setUp`` gives it. This class does the same on flowgrad, plus the absl assertions TensorFlow
tests use most (``assertLen``, ``assertEmpty``, ``assertStartsWith``, ...).
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import unittest
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import errors
from flowgrad.framework.context import (executing_eagerly, get_default_session,
                                        reset_default_graph)
from flowgrad.framework.dtypes import as_dtype
from flowgrad.framework.graph import Graph, get_default_graph
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops.ragged_tensor import RaggedTensor, RaggedTensorValue
from flowgrad.runtime.session import Session
from flowgrad.framework.type_hints import TensorLike

# The tolerances TensorFlow's assertAllCloseAccordingToType uses for the small floats.
_HALF_TOL = 1e-3
_BFLOAT16_TOL = 1e-2


def _value(x: Any) -> Any:
    """``x`` as NumPy: eager tensors and variables by value, other objects as they are."""
    if hasattr(x, "numpy") and callable(x.numpy):
        return x.numpy()
    return x


class TestCase(unittest.TestCase):
    """A :class:`unittest.TestCase` with TensorFlow's tensor assertions and helpers.

    Args:
        methodName: The test method this instance runs (as for ``unittest.TestCase``).
    """

    def setUp(self) -> None:
        """Starts each test with a fresh default graph (graph mode), as TensorFlow does."""
        super().setUp()
        if not executing_eagerly():
            reset_default_graph()
        self._cached_session: Session | None = None

    def tearDown(self) -> None:
        """Closes the session ``cached_session`` opened."""
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None
        super().tearDown()

    # -- running tensors -------------------------------------------------------------------
    def evaluate(self, tensors: TensorLike) -> Any:
        """The values of ``tensors`` (a nested structure) as NumPy.

        Eagerly the tensors already hold their values; in graph mode they are run in the
        default session, or else in the test's cached session on the default graph (as
        TensorFlow's: a variable initialized by one call keeps its value for the next).

        Args:
          tensors: a tensor, variable, or nested structure of them.

        Returns:
          The same structure holding NumPy values.
        """
        if executing_eagerly():
            return nest.map_structure(_value, tensors)
        sess = get_default_session()
        if sess is None:
            g = get_default_graph()
            if self._cached_session is None or self._cached_session.graph is not g:
                if self._cached_session is not None:
                    self._cached_session.close()
                self._cached_session = Session(graph=g)
            sess = self._cached_session
        return sess.run(tensors)

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
          The session.

        Raises:
          ValueError: when called eagerly (TensorFlow: sessions are for graph mode).
        """
        if executing_eagerly():
            raise ValueError("session() is not supported in eager mode: use evaluate().")
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
          The test's session.

        Raises:
          ValueError: when called eagerly.
        """
        if executing_eagerly():
            raise ValueError("cached_session() is not supported in eager mode: use "
                             "evaluate().")
        if force_gpu:
            self.skipTest("flowgrad has no GPU")
        if self._cached_session is None:
            g = graph if graph is not None else get_default_graph()
            self._cached_session = Session(graph=g, config=config)
        sess = self._cached_session
        with sess.graph.as_default(), sess.as_default():
            yield sess


    def get_temp_dir(self) -> str:
        """A temporary directory for this test (removed when the process ends)."""
        if not hasattr(self, "_tempdir"):
            self._tempdir = tempfile.TemporaryDirectory(prefix="flowgrad_test_")
        return self._tempdir.name

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

    # -- array assertions ------------------------------------------------------------------
    def _arrays(self, a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
        a, b = self.evaluate_if_tensor(a), self.evaluate_if_tensor(b)
        return np.asarray(a), np.asarray(b)

    def _ragged_rows(self, a: Any, b: Any) -> tuple | None:
        """Both values as nested Python lists when either is ragged (TensorFlow compares
        ragged tensors row by row), else None."""
        if not any(isinstance(x, (RaggedTensor, RaggedTensorValue)) for x in (a, b)):
            return None

        def rows(x: Any) -> Any:
            if isinstance(x, RaggedTensor):
                x = x if executing_eagerly() else self.evaluate(x)
            if isinstance(x, (RaggedTensor, RaggedTensorValue)):
                return x.to_list()
            x = self.evaluate_if_tensor(x)
            return x.tolist() if isinstance(x, np.ndarray) else x
        return rows(a), rows(b)

    def _assert_rows(self, a: Any, b: Any, leaf: Callable, msg: str | None) -> None:
        if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
            self.assertIsInstance(a, (list, tuple), msg)
            self.assertIsInstance(b, (list, tuple), msg)
            self.assertEqual(len(a), len(b), "Row lengths differ: %s vs %s. %s"
                             % (a, b, msg or ""))
            for x, y in zip(a, b):
                self._assert_rows(x, y, leaf, msg)
        else:
            leaf(a, b)

    def evaluate_if_tensor(self, x: Any) -> Any:
        """``x``'s value when it is a tensor or variable, else ``x``."""
        if isinstance(x, TensorBase) or hasattr(x, "numpy"):
            return self.evaluate(x)
        return x

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: str | None = None) -> None:
        """Asserts ``|a - b| <= atol + rtol * |b|`` elementwise, over nested structures too.

        Args:
          a: a tensor, array, number or nested structure (lists, tuples, dicts).
          b: the same structure.
          rtol: relative tolerance.
          atol: absolute tolerance.
          msg: text added to the failure message.
        """
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertEqual(set(a), set(b), msg)
            for k in a:
                self.assertAllClose(a[k], b[k], rtol, atol, msg)
            return
        rows = self._ragged_rows(a, b)
        if rows is not None:
            self._assert_rows(*rows, lambda x, y: np.testing.assert_allclose(
                x, y, rtol=rtol, atol=atol, err_msg=msg or "", equal_nan=True), msg)
            return
        if (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
                and any(isinstance(x, (dict, list, tuple, TensorBase)) for x in a)):
            for x, y in zip(a, b):
                self.assertAllClose(x, y, rtol, atol, msg)
            return
        x, y = self._arrays(a, b)
        self.assertEqual(x.shape, y.shape, "Shape mismatch: expected %s, got %s. %s"
                         % (y.shape, x.shape, msg or ""))
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=msg or "",
                                   equal_nan=True)

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6,  # noqa: N802
                                      atol: float = 1e-6, float_rtol: float = 1e-6,
                                      float_atol: float = 1e-6, half_rtol: float = _HALF_TOL,
                                      half_atol: float = _HALF_TOL,
                                      bfloat16_rtol: float = _BFLOAT16_TOL,
                                      bfloat16_atol: float = _BFLOAT16_TOL,
                                      msg: str | None = None) -> None:
        """``assertAllClose`` with looser tolerances for float32, float16 and bfloat16."""
        x, y = self._arrays(a, b)
        kinds = {x.dtype.name, y.dtype.name}
        if kinds & {"float32", "complex64"}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if "float16" in kinds:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in kinds:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(x.astype(np.float64) if x.dtype.name == "bfloat16" else x,
                            y.astype(np.float64) if y.dtype.name == "bfloat16" else y,
                            rtol, atol, msg)

    def assertNotAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                          msg: str | None = None) -> None:
        """Asserts that ``assertAllClose(a, b)`` would fail."""
        try:
            self.assertAllClose(a, b, rtol, atol)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are close at all elements.")

    def assertAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts equal shapes and equal elements (ragged tensors: equal rows)."""
        rows = self._ragged_rows(a, b)
        if rows is not None:
            self._assert_rows(*rows, lambda x, y: self.assertEqual(x, y, msg), msg)
            return
        x, y = self._arrays(a, b)
        if x.shape != y.shape and y.size == 1:
            y = np.broadcast_to(y, x.shape)
        self.assertEqual(x.shape, y.shape, "Shape mismatch: expected %s, got %s. %s"
                         % (y.shape, x.shape, msg or ""))
        np.testing.assert_array_equal(x, y, err_msg=msg or "")

    def assertNotAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802
        """Asserts that some element differs."""
        x, y = self._arrays(a, b)
        if x.shape == y.shape and np.array_equal(x, y):
            raise AssertionError(msg or "Expected some element to differ, all are equal.")

    def _compare_all(self, a: Any, op: Callable, text: str, bound: Any) -> None:
        x = np.asarray(self.evaluate_if_tensor(a))
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
        x = np.asarray(self.evaluate_if_tensor(target))
        low = x > lower_bound if open_lower_bound else x >= lower_bound
        high = x < upper_bound if open_upper_bound else x <= upper_bound
        if not np.all(low & high):
            raise AssertionError("%s is not in the range %s%s, %s%s" % (
                x, "(" if open_lower_bound else "[", lower_bound, upper_bound,
                ")" if open_upper_bound else "]"))

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        """Asserts every element belongs to ``expected_set``."""
        x = np.asarray(self.evaluate_if_tensor(target)).ravel()
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
        x = np.asarray(self.evaluate_if_tensor(target))
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
        """A context in which an incompatible-shapes error must be raised."""
        return self.assertRaisesWithPredicateMatch(
            (exception_type, ValueError),
            r"Incompatible shapes|Dimensions must be equal|incompatible|broadcast")

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


def main(argv: list[str] | None = None) -> None:
    """Runs the tests of ``__main__`` (TensorFlow's ``tf.test.main``) and exits.

    Args:
      argv: the command line; ``sys.argv`` when None.
    """
    unittest.main(module="__main__", argv=argv if argv is not None else sys.argv)


__all__ = ["TestCase", "main"]
