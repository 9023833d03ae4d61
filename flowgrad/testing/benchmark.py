"""``tf.test.Benchmark``: timing ops in a Session and reporting the numbers, as TensorFlow's
benchmarks do (a ``Benchmark [name] iters: ..., wall_time: ...`` log line at INFO level).

``run_op_benchmark`` times ``sess.run`` as TensorFlow does (burn-in runs, then the median of
``min_iters`` timed runs). flowgrad's sessions record no step statistics, so the memory and
trace extras (``store_memory_usage``, ``store_trace``) are not added, and the
``TEST_REPORT_FILE_PREFIX`` proto files of TensorFlow's benchmark runner are not written."""
from __future__ import annotations

import inspect
import math
import time
from typing import Any

from flowgrad import nest
from flowgrad.debug import tf_logging as logging
from flowgrad.framework.context import executing_eagerly, get_default_session
from flowgrad.framework.type_hints import TensorLike


class Benchmark:
    """The base class of benchmarks: subclasses define ``benchmark*`` methods that call
    :meth:`report_benchmark` or :meth:`run_op_benchmark`."""

    def _get_name(self, overwrite_name: str | None = None) -> str:
        """``ClassName.method``: the outermost Benchmark method on the stack, or the name
        given."""
        name = next(frame.function for frame in inspect.stack()[::-1]
                    if isinstance(frame.frame.f_locals.get("self"), Benchmark))
        return "%s.%s" % (type(self).__name__, overwrite_name or name)

    def report_benchmark(self, iters: int | None = None, cpu_time: float | None = None,
                         wall_time: float | None = None, throughput: float | None = None,
                         extras: dict | None = None, name: str | None = None,
                         metrics: list | None = None) -> None:
        """Logs one benchmark's numbers (TensorFlow's log line).

        Args:
          iters: how many iterations ran.
          cpu_time: the median or mean CPU time in seconds.
          wall_time: the median or mean wall time in seconds.
          throughput: MB/s.
          extras: more numbers or strings by name.
          name: overrides the name taken from the calling method.
          metrics: dicts with ``name``, ``value`` (and optional ``min_value``, ``max_value``).

        Raises:
          TypeError: ``extras`` is not a dict.
        """
        if extras is not None and not isinstance(extras, dict):
            raise TypeError("extras must be a dict")
        logging.info("Benchmark [%s] iters: %d, wall_time: %g, cpu_time: %g,"
                     "throughput: %g, extras: %s, metrics: %s", self._get_name(name),
                     iters if iters is not None else -1,
                     wall_time if wall_time is not None else -1,
                     cpu_time if cpu_time is not None else -1,
                     throughput if throughput is not None else -1,
                     str(extras) if extras else "None", str(metrics) if metrics else "None")

    def run_op_benchmark(self, sess: Any, op_or_tensor: Any, feed_dict: dict | None = None,
                         burn_iters: int = 2, min_iters: int = 10, store_trace: bool = False,
                         store_memory_usage: bool = True, name: str | None = None,
                         extras: dict | None = None, mbs: int = 0) -> dict:
        """Times ``sess.run(op_or_tensor)`` and reports the median.

        Args:
          sess: the Session.
          op_or_tensor: what to run.
          feed_dict: the feeds of each run.
          burn_iters: untimed runs first.
          min_iters: timed runs.
          store_trace: accepted (no trace is recorded).
          store_memory_usage: accepted (no memory statistics are recorded).
          name: overrides the name taken from the calling method.
          extras: more numbers or strings by name.
          mbs: megabytes the op moves, for the throughput.

        Returns:
          The reported values (``iters``, ``wall_time``, ``extras``, ``name``,
          ``throughput``), the extras with ``wall_time_mean`` and ``wall_time_stdev`` added.
        """
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.time() - start)
        s, n = sorted(deltas), len(deltas)
        median = (s[n // 2] + s[(n - 1) // 2]) / 2.0 if deltas else -1
        values = {"iters": min_iters, "wall_time": median,
                  "extras": extras if extras is not None else {}, "name": name,
                  "throughput": mbs / median if median > 0 else 0.0}
        self.report_benchmark(**values)
        mean = sum(deltas) / n if deltas else -1
        stdev = math.sqrt(sum((d - mean) ** 2 for d in deltas) / (n - 1)) if n > 1 else -1
        values["extras"].update(wall_time_mean=mean, wall_time_stdev=stdev)
        return values

    def evaluate(self, tensors: TensorLike) -> Any:
        """The NumPy values of ``tensors`` (a nest): eagerly, or in the default Session.

        Args:
          tensors: a tensor or a nested structure of tensors.

        Returns:
          Their values.
        """
        if executing_eagerly():
            return nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t,
                                      tensors)
        sess = get_default_session()
        if sess is None:
            raise ValueError("Benchmark.evaluate in graph mode needs a default Session "
                             "(with tf.compat.v1.Session().as_default(): ...)")
        return sess.run(tensors)

    @classmethod
    def is_abstract(cls) -> bool:
        """Whether this is the Benchmark base class itself (as TensorFlow decides it)."""
        return len(cls.mro()) <= 2


__all__ = ["Benchmark"]
