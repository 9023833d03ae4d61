"""``tf.compat.v1.train.Coordinator``: threads that stop together, as TensorFlow's
``python/training/coordinator.py``."""
from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import Any, Iterator

from flowgrad.debug import tf_logging
from flowgrad.framework import errors


class Coordinator:
    """Coordinates the termination of a set of threads.

    A thread calls ``request_stop`` (with an exception when it failed); the others see
    ``should_stop`` and end; ``join`` waits for them and re-raises the first exception
    reported.

    Args:
        clean_stop_exception_types: Exception classes that stop the threads without being
            reported (``tf.errors.OutOfRangeError`` by default).
    """

    def __init__(self, clean_stop_exception_types: Any = None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads: set = set()

    def request_stop(self, ex: Any = None) -> None:
        """Asks the threads to stop; with ``ex`` (an exception or exc_info), ``join`` raises it.

        Args:
            ex: An exception, or a ``sys.exc_info()`` tuple, to report; None for a clean stop.

        Raises:
            ValueError: If ``ex`` is neither an exception nor an exc_info tuple.
        """
        with self._lock:
            if ex and not self._exc_info_to_raise:
                if isinstance(ex, tuple):
                    exc_info = ex
                elif isinstance(ex, BaseException):
                    exc_info = (type(ex), ex, ex.__traceback__)
                else:
                    raise ValueError("ex must be an Exception or an exc_info tuple: %r" % (ex,))
                if not issubclass(exc_info[0], self._clean_stop_exception_types):
                    if self._joined:
                        tf_logging.error("Exception in thread after join: %s", exc_info[1])
                    else:
                        self._exc_info_to_raise = exc_info
            if not self._stop_event.is_set():
                if ex and self._exc_info_to_raise is None:
                    tf_logging.info("Stopping: %s", ex if not isinstance(ex, tuple) else ex[1])
                self._stop_event.set()

    def clear_stop(self) -> None:
        """Clears the stop flag and the reported exception, so the threads can start again."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        """Whether a stop was requested.

        Returns:
            True once ``request_stop`` was called.
        """
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        """A context manager that requests a stop with any exception raised in it.

        Yields:
            Nothing.
        """
        try:
            yield
        except BaseException:     # noqa: BLE001 - reported through the coordinator, as TF
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        """Waits until a stop is requested.

        Args:
            timeout: The most seconds to wait; None waits forever.

        Returns:
            True if a stop was requested, False if the timeout passed first.
        """
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        """Adds ``thread`` to those ``join`` waits for.

        Args:
            thread: A ``threading.Thread``.
        """
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads: Any = None, stop_grace_period_secs: float = 120,
             ignore_live_threads: bool = False) -> None:
        """Waits for the threads to end after a stop is requested, then re-raises their error.

        Args:
            threads: The threads to wait for, with the registered ones.
            stop_grace_period_secs: How long to wait for them after ``request_stop``.
            ignore_live_threads: Whether threads still running after the grace period are
                only logged (else RuntimeError).

        Raises:
            RuntimeError: If threads are still running after the grace period.
            Exception: The exception a thread reported with ``request_stop``.
        """
        with self._lock:
            threads = set(threads or []) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.time() + stop_grace_period_secs
        while any(t.is_alive() for t in threads) and time.time() < deadline:
            time.sleep(0.001 if stop_grace_period_secs < 1 else 0.05)
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            stragglers = [t.name for t in threads if t.is_alive()]
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])
            if stragglers:
                if ignore_live_threads:
                    tf_logging.info("Coordinator stopped with threads still running: %s",
                                    " ".join(stragglers))
                else:
                    raise RuntimeError("Coordinator stopped with threads still running: %s"
                                       % " ".join(stragglers))

    @property
    def joined(self) -> bool:
        """Whether ``join`` has returned."""
        return self._joined

    def raise_requested_exception(self) -> None:
        """Re-raises the exception a thread reported, if any.

        Raises:
            Exception: The exception given to ``request_stop``.
        """
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])
