"""TensorFlow 1's queue runners: ``tf.train.QueueRunner``, ``add_queue_runner`` and
``start_queue_runners`` (``tf.compat.v1.train.queue_runner``).

A QueueRunner holds a queue's enqueue ops; ``create_threads`` starts one Python thread per
op that runs it in a loop in the given session. When an enqueue fails because its input is
exhausted (``OutOfRangeError``, e.g. ``limit_epochs``) or its queue was closed
(``CancelledError``), the thread ends, and the last one closes the queue, so the consumers'
dequeues raise ``OutOfRangeError`` once the queue is empty -- the end of the epochs, as in
TensorFlow. With a ``Coordinator`` another thread cancels the queue when a stop is requested,
and errors go to the coordinator."""
from __future__ import annotations

import threading
import weakref
from typing import Any

from flowgrad.framework import errors
from flowgrad.framework.context import executing_eagerly, get_default_session
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.debug import tf_logging


class QueueRunner:
    """Runs a queue's enqueue ops in threads.

    Args:
        queue: The queue (a ``tf.queue.QueueBase``).
        enqueue_ops: The enqueue ops, one thread each.
        close_op: The op closing the queue (default ``queue.close()``).
        cancel_op: The op closing it and cancelling pending enqueues (default
            ``queue.close(cancel_pending_enqueues=True)``).
        queue_closed_exception_types: The errors that mean the input is done
            (default ``(OutOfRangeError, CancelledError)``).
        queue_runner_def: Not supported (a ValueError).
        import_scope: Not supported.

    Raises:
        ValueError: if ``queue_runner_def`` is given or ``queue``/``enqueue_ops`` are missing.
    """

    def __init__(self, queue: Any = None, enqueue_ops: Any = None, close_op: Any = None,
                 cancel_op: Any = None, queue_closed_exception_types: Any = None,
                 queue_runner_def: Any = None, import_scope: Any = None) -> None:
        if executing_eagerly():
            raise RuntimeError("QueueRunners are not supported when eager execution is "
                               "enabled. Instead, please use tf.data to get data into your "
                               "model.")
        if queue_runner_def is not None:
            raise ValueError("QueueRunner: building from a queue_runner_def is not supported")
        if not queue or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(
            cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(
            queue_closed_exception_types or (errors.OutOfRangeError, errors.CancelledError))
        self._lock = threading.Lock()
        self._runs_per_session: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._exceptions_raised: list = []

    @property
    def queue(self) -> Any:
        return self._queue

    @property
    def enqueue_ops(self) -> list:
        return self._enqueue_ops

    @property
    def close_op(self) -> Any:
        return self._close_op

    @property
    def cancel_op(self) -> Any:
        return self._cancel_op

    @property
    def queue_closed_exception_types(self) -> tuple:
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self) -> list:
        """The errors the threads raised without a coordinator."""
        return self._exceptions_raised

    @property
    def name(self) -> str:
        """The queue's name."""
        return self._queue.name

    def _run(self, sess: Any, enqueue_op: Any, coord: Any = None) -> None:
        decremented = False
        try:
            while True:
                if coord is not None and coord.should_stop():
                    break
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception as e:   # noqa: BLE001 - TensorFlow ignores it
                                tf_logging.vlog(1, "Ignored exception: %s", str(e))
                    return
        except Exception as e:       # noqa: BLE001 - reported to the coordinator, as TF's
            if coord is not None:
                coord.request_stop(e)
            else:
                tf_logging.error("Exception in QueueRunner: %s", str(e))
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess: Any, cancel_op: Any, coord: Any) -> None:
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:       # noqa: BLE001 - TensorFlow ignores it
            tf_logging.vlog(1, "Ignored exception: %s", str(e))

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> list:
        """The threads that run the enqueue ops in ``sess`` (none if they already run).

        Args:
            sess: The session.
            coord: A ``tf.train.Coordinator`` the threads report to and stop with.
            daemon: Whether the threads are daemons.
            start: Whether to start them.

        Returns:
            The threads (one per enqueue op, plus one closing the queue on a stop).
        """
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord),
                                    name="QueueRunnerThread-%s-%s" % (self.name, op.name))
                   for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(
                target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                name="QueueRunnerThread-%s-close_on_stop" % self.name))
        for t in threads:
            if coord is not None:
                coord.register_thread(t)
            if daemon:
                t.daemon = True
            if start:
                t.start()
        return threads


def add_queue_runner(qr: QueueRunner, collection: str = GraphKeys.QUEUE_RUNNERS) -> None:
    """Adds ``qr`` to the graph's queue runners (``start_queue_runners`` starts them).

    Args:
        qr: A QueueRunner.
        collection: The graph collection.
    """
    get_default_graph().add_to_collection(collection, qr)


def start_queue_runners(sess: Any = None, coord: Any = None, daemon: bool = True,
                        start: bool = True, collection: str = GraphKeys.QUEUE_RUNNERS) -> list:
    """Starts the threads of the graph's queue runners.

    Args:
        sess: The session (default: the default session).
        coord: A ``tf.train.Coordinator``.
        daemon: Whether the threads are daemons.
        start: Whether to start them.
        collection: The graph collection of the queue runners.

    Returns:
        The threads.

    Raises:
        RuntimeError: when executing eagerly.
        ValueError: without a session.
    """
    if executing_eagerly():
        raise RuntimeError("Queues are not compatible with eager execution.")
    if sess is None:
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.start_queue_runners(sess=sess)")
    if type(sess).__name__ in ("MonitoredSession", "SingularMonitoredSession"):
        return []           # they start the queue runners themselves
    with sess.graph.as_default():
        threads = []
        for qr in sess.graph.get_collection(collection):
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads


__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]
