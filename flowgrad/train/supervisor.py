"""``tf.compat.v1.train.Supervisor``: TF1's training helper before MonitoredTrainingSession.
It initializes or restores the session (``tf.train.SessionManager``), writes the graph to
``logdir``, runs the summary, step-counter and checkpoint threads, and stops them with its
Coordinator, as TensorFlow's ``python/training/supervisor.py``. flowgrad runs in one process:
``master`` and ``config`` go to the Session as TensorFlow's signature has them."""
from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any, Callable

from flowgrad.debug import tf_logging
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.train.coordinator import Coordinator
from flowgrad.train.looper_thread import LooperThread
from flowgrad.train.session_manager import SessionManager
from flowgrad.train.training_util import global_step as _global_step_value


def _session_log(status: str, **kwargs: Any) -> Any:
    from flowgrad.summary import protos
    log = protos.pb().event_pb2.SessionLog
    return log(status=getattr(log, status), **kwargs)


class Supervisor:
    """Creates a session ready to train (restored from ``logdir``'s latest checkpoint, else
    initialized), runs the standard services (summaries, steps/sec and checkpoints every so
    many seconds) in threads and stops them with its Coordinator.

    Args:
        graph: The graph; the default graph when None.
        ready_op: The op telling whether the model is ready; by default the
            ``READY_OP`` collection's, else ``tf.report_uninitialized_variables()``.
            None: no check.
        ready_for_local_init_op: The op telling whether ``local_init_op`` may run.
        is_chief: Whether this task initializes the model and writes checkpoints and
            summaries.
        init_op: The op initializing the model; by default the ``INIT_OP`` collection's,
            else ``tf.global_variables_initializer()``.
        init_feed_dict: The feeds of ``init_op``.
        local_init_op: The op run on every new session; by default the ``LOCAL_INIT_OP``
            collection's, else the local variables' and tables' initializers.
        logdir: The directory of checkpoints and event files (None: neither).
        summary_op: The op the summary thread runs; by default the ``SUMMARY_OP``
            collection's, else ``tf.summary.merge_all()``.
        saver: The Saver; by default the ``SAVERS`` collection's, else a new one.
        global_step: The global step; by default the ``GLOBAL_STEP`` collection's, else the
            graph's integer ``global_step:0``.
        save_summaries_secs: Seconds between summaries (0 or None: no summary threads).
        save_model_secs: Seconds between checkpoints (0 or None: no checkpoint thread).
        recovery_wait_secs: Seconds between checks of a non-chief waiting for the model.
        stop_grace_secs: Seconds ``stop`` waits for the threads.
        checkpoint_basename: The checkpoints' file name in ``logdir``.
        session_manager: The SessionManager; a new one when None.
        summary_writer: The FileWriter; by default a new one on ``logdir``.
        init_fn: A function of the session run after ``init_op``.
        local_init_run_options: ``RunOptions`` of the ``local_init_op`` run.

    Raises:
        RuntimeError: When executing eagerly.
    """

    USE_DEFAULT = 0

    def __init__(self, graph: Any = None, ready_op: Any = USE_DEFAULT,
                 ready_for_local_init_op: Any = USE_DEFAULT, is_chief: bool = True,
                 init_op: Any = USE_DEFAULT, init_feed_dict: dict | None = None,
                 local_init_op: Any = USE_DEFAULT, logdir: str | None = None,
                 summary_op: Any = USE_DEFAULT, saver: Any = USE_DEFAULT,
                 global_step: Any = USE_DEFAULT, save_summaries_secs: float = 120,
                 save_model_secs: float = 600, recovery_wait_secs: float = 30,
                 stop_grace_secs: float = 120, checkpoint_basename: str = "model.ckpt",
                 session_manager: SessionManager | None = None,
                 summary_writer: Any = USE_DEFAULT, init_fn: Callable | None = None,
                 local_init_run_options: Any = None):
        if executing_eagerly():
            raise RuntimeError("Supervisors are incompatible with eager execution.")
        if graph is None:
            graph = get_default_graph()
        self._graph = graph
        with graph.as_default():
            self._init_ready_op(ready_op, ready_for_local_init_op)
            self._init_init_op(init_op, init_feed_dict)
            self._init_local_init_op(local_init_op)
            self._init_saver(saver)
            self._init_summary_op(summary_op)
            self._init_global_step(global_step)
        self._meta_graph_def = self._export_meta_graph()
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs = recovery_wait_secs
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._local_init_run_options = local_init_run_options
        self._logdir = None
        self._save_summaries_secs = None
        self._save_model_secs = None
        self._save_path = None
        self._summary_writer = None
        if self._is_chief:
            self._logdir = logdir
            self._save_summaries_secs = save_summaries_secs
            self._save_model_secs = save_model_secs
            if self._logdir:
                self._save_path = os.path.join(self._logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if self._logdir:
                    from flowgrad.summary.writer import FileWriter
                    self._summary_writer = FileWriter(self._logdir)
            else:
                self._summary_writer = summary_writer
            self._graph_added_to_summary = False
        if session_manager is None:
            session_manager = SessionManager(
                local_init_op=self._local_init_op, ready_op=self._ready_op,
                ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
                recovery_wait_secs=self._recovery_wait_secs,
                local_init_run_options=self._local_init_run_options)
        self._session_manager = session_manager
        self._verify_setup()
        graph.finalize()

    # -- the defaults ------------------------------------------------------------------
    def _first_of_collection(self, key: str) -> Any:
        items = self._graph.get_collection(key)
        if len(items) > 1:
            tf_logging.info("Found %d %s operations. Returning the first one.", len(items), key)
        return items[0] if items else None

    def _init_ready_op(self, ready_op: Any, ready_for_local_init_op: Any) -> None:
        if ready_op is Supervisor.USE_DEFAULT:
            ready_op = self._first_of_collection(GraphKeys.READY_OP)
            if ready_op is None:
                from flowgrad.ops.variable_checks import report_uninitialized_variables
                ready_op = report_uninitialized_variables()
                self._graph.add_to_collection(GraphKeys.READY_OP, ready_op)
        self._ready_op = ready_op
        if ready_for_local_init_op is Supervisor.USE_DEFAULT:
            ready_for_local_init_op = self._first_of_collection(
                GraphKeys.READY_FOR_LOCAL_INIT_OP)
        self._ready_for_local_init_op = ready_for_local_init_op

    def _init_init_op(self, init_op: Any, init_feed_dict: dict | None) -> None:
        if init_op is Supervisor.USE_DEFAULT:
            init_op = self._first_of_collection(GraphKeys.INIT_OP)
            if init_op is None:
                from flowgrad.ops.state_ops import global_variables_initializer
                init_op = global_variables_initializer()
                self._graph.add_to_collection(GraphKeys.INIT_OP, init_op)
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict

    def _init_local_init_op(self, local_init_op: Any) -> None:
        if local_init_op is Supervisor.USE_DEFAULT:
            local_init_op = self._first_of_collection(GraphKeys.LOCAL_INIT_OP)
            if local_init_op is None:
                from flowgrad.ops import control_flow_ops, lookup_ops, state_ops
                local_init_op = control_flow_ops.group(state_ops.local_variables_initializer(),
                                                       lookup_ops.tables_initializer())
                self._graph.add_to_collection(GraphKeys.LOCAL_INIT_OP, local_init_op)
        self._local_init_op = local_init_op

    def _init_saver(self, saver: Any) -> None:
        if saver is Supervisor.USE_DEFAULT:
            saver = self._first_of_collection(GraphKeys.SAVERS)
            if saver is None and self._graph.get_collection(GraphKeys.GLOBAL_VARIABLES):
                from flowgrad.train.saver import Saver
                saver = Saver()
                self._graph.add_to_collection(GraphKeys.SAVERS, saver)
        self._saver = saver

    def _init_summary_op(self, summary_op: Any) -> None:
        if summary_op is Supervisor.USE_DEFAULT:
            summary_op = self._first_of_collection(GraphKeys.SUMMARY_OP)
            if summary_op is None:
                from flowgrad.summary.summary_ops import merge_all
                summary_op = merge_all()
                if summary_op is not None:
                    self._graph.add_to_collection(GraphKeys.SUMMARY_OP, summary_op)
        self._summary_op = summary_op

    def _init_global_step(self, global_step: Any) -> None:
        if global_step is Supervisor.USE_DEFAULT:
            global_step = self._first_of_collection(GraphKeys.GLOBAL_STEP)
            if global_step is None:
                global_step = self._default_global_step_tensor()
                if global_step is not None:
                    self._graph.add_to_collection(GraphKeys.GLOBAL_STEP, global_step)
        self._global_step = global_step

    def _default_global_step_tensor(self) -> Any:
        try:
            gs = self._graph.get_tensor_by_name("global_step:0")
        except (KeyError, ValueError):
            return None
        if gs.dtype.base_dtype in (dtypes.int32, dtypes.int64):
            return gs
        tf_logging.warning("Found 'global_step' is not an int type: %s", gs.dtype)
        return None

    def _export_meta_graph(self) -> Any:
        from flowgrad.saved_model.graph_export import UnexportableOpError
        from flowgrad.saved_model.meta_graph import export_meta_graph
        try:
            return export_meta_graph(graph=self._graph)
        except UnexportableOpError:
            return None     # ops flowgrad runs as TensorFlow's GraphDef cannot hold (queues)

    def _verify_setup(self) -> None:
        if self._is_chief:
            return
        for op in self._graph.get_operations():
            if op.type in ("Variable", "VariableV2") and not op.device:
                raise ValueError("When using replicas, all Variables must have their device "
                                 "set: %s" % op)

    # -- properties --------------------------------------------------------------------
    @property
    def is_chief(self) -> bool:
        """Whether this task is the chief."""
        return self._is_chief

    @property
    def session_manager(self) -> SessionManager:
        """The SessionManager."""
        return self._session_manager

    @property
    def coord(self) -> Coordinator:
        """The Coordinator of the services' threads."""
        return self._coord

    @property
    def init_op(self) -> Any:
        """The op initializing the model."""
        return self._init_op

    @property
    def init_feed_dict(self) -> dict | None:
        """The feeds of ``init_op``."""
        return self._init_feed_dict

    @property
    def ready_op(self) -> Any:
        """The op telling whether the model is ready."""
        return self._ready_op

    @property
    def ready_for_local_init_op(self) -> Any:
        """The op telling whether ``local_init_op`` may run."""
        return self._ready_for_local_init_op

    @property
    def summary_writer(self) -> Any:
        """The FileWriter (None when not the chief or without ``logdir``)."""
        return self._summary_writer

    @property
    def summary_op(self) -> Any:
        """The op the summary thread runs."""
        return self._summary_op

    @property
    def save_summaries_secs(self) -> float | None:
        """Seconds between summaries."""
        return self._save_summaries_secs

    @property
    def global_step(self) -> Any:
        """The global step."""
        return self._global_step

    @property
    def saver(self) -> Any:
        """The Saver."""
        return self._saver

    @property
    def save_model_secs(self) -> float | None:
        """Seconds between checkpoints."""
        return self._save_model_secs

    @property
    def save_path(self) -> str | None:
        """The checkpoints' path prefix, ``logdir/checkpoint_basename``."""
        return self._save_path

    # -- sessions and services ---------------------------------------------------------
    def _write_graph(self) -> None:
        if self._logdir:
            from flowgrad.saved_model.graph_export import UnexportableOpError, write_graph
            try:
                write_graph(self._graph, self._logdir, "graph.pbtxt")
            except UnexportableOpError:
                # a graph with ops TensorFlow's GraphDef cannot hold as flowgrad runs them
                # (queues): the GraphDef TensorBoard's graph tab shows, every node
                from flowgrad.summary.graph_def import to_graph_def
                write_graph(to_graph_def(self._graph), self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            if self._meta_graph_def is not None:
                self._summary_writer.add_meta_graph(self._meta_graph_def)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess: Any) -> list:
        """Starts the summary, step-counter and checkpoint threads (those configured).

        Args:
            sess: The session they run.

        Returns:
            The started threads.

        Raises:
            RuntimeError: If this task is not the chief.
        """
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because "
                               "only chief supervisors can write events.")
        if not self._logdir:
            tf_logging.warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            step = _global_step_value(sess, self._global_step)
            self._summary_writer.add_session_log(_session_log("START"), step)
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(SVSummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(SVStepCounterThread(self, sess))
        if self.saver and self._save_model_secs:
            threads.append(SVTimerCheckpointThread(self, sess))
        for t in threads:
            t.start()
        return threads

    def prepare_or_wait_for_session(self, master: str = "", config: Any = None,
                                    wait_for_checkpoint: bool = False,
                                    max_wait_secs: float = 7200,
                                    start_standard_services: bool = True) -> Any:
        """A session ready to train: the chief restores or initializes it and starts the
        services; another task waits until the model is ready.

        Args:
            master: The target of the Session.
            config: The Session's ``ConfigProto``.
            wait_for_checkpoint: Whether the chief waits for a checkpoint.
            max_wait_secs: How long to wait.
            start_standard_services: Whether to start the services and queue runners.

        Returns:
            The Session.
        """
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
                config=config, init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                tf_logging.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config,
                                                          max_wait_secs=max_wait_secs)
        if start_standard_services:
            tf_logging.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess: Any, queue_runners: list | None = None) -> list:
        """Starts the queue runners (the graph's ``QUEUE_RUNNERS`` by default) with the
        Supervisor's Coordinator.

        Args:
            sess: The session they run.
            queue_runners: The QueueRunners to start.

        Returns:
            Their threads.
        """
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs: float, target: Callable, args: Any = None,
             kwargs: Any = None) -> LooperThread:
        """Starts a thread calling ``target(*args, **kwargs)`` every ``timer_interval_secs``
        until the Supervisor stops.

        Args:
            timer_interval_secs: Seconds between calls.
            target: The function.
            args: Its positional arguments.
            kwargs: Its keyword arguments.

        Returns:
            The started LooperThread.
        """
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads: list | None = None, close_summary_writer: bool = True,
             ignore_live_threads: bool = False) -> None:
        """Stops the services and waits for their threads; closes the summary writer.

        Args:
            threads: More threads to wait for.
            close_summary_writer: Whether to write the STOP event and close the writer.
            ignore_live_threads: Whether threads still running after the grace period are
                left (else it raises).
        """
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(_session_log("STOP"))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex: Any = None) -> None:
        """Asks the threads (and the training loop, through ``should_stop``) to stop.

        Args:
            ex: An exception (or ``sys.exc_info()``) to re-raise on ``stop``.
        """
        self._coord.request_stop(ex=ex)

    def should_stop(self) -> bool:
        """Whether a stop was requested."""
        return self._coord.should_stop()

    def stop_on_exception(self) -> Any:
        """A context manager requesting a stop on an exception (the Coordinator's)."""
        return self._coord.stop_on_exception()

    def wait_for_stop(self) -> None:
        """Blocks until a stop is requested."""
        self._coord.wait_for_stop()

    def summary_computed(self, sess: Any, summary: Any, global_step: Any = None) -> None:
        """Writes a summary computed by the training loop, at the current global step.

        Args:
            sess: The session (to read the global step).
            summary: A serialized ``Summary`` (or the proto).
            global_step: The step; the global step's value when None.

        Raises:
            RuntimeError: If there is no summary writer.
        """
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self.global_step is not None:
            global_step = _global_step_value(sess, self.global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master: str = "", config: Any = None,
                        start_standard_services: bool = True,
                        close_summary_writer: bool = True) -> Iterator[Any]:
        """A context manager giving a ready session; on exit it stops the services (an
        exception of the block is re-raised then, unless it is ``OutOfRangeError``, which
        ends training) and closes the session.

        Args:
            master: The target of the Session.
            config: The Session's ``ConfigProto``.
            start_standard_services: Whether to start the services and queue runners.
            close_summary_writer: Whether to close the summary writer on exit.

        Yields:
            The Session.
        """
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(
                master=master, config=config, start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - re-raised by the Coordinator's join
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    sess.close()

    # TensorFlow's CamelCase aliases
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed


class SVSummaryThread(LooperThread):
    """Runs the Supervisor's summary op every ``save_summaries_secs`` and writes it.

    Args:
        sv: The Supervisor.
        sess: The session.
    """

    def __init__(self, sv: Supervisor, sess: Any):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv = sv
        self._sess = sess

    def run_loop(self) -> None:
        """Runs and writes the summary once."""
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            tf_logging.info("Recording summary at step %s.", step)
            self._sv.summary_writer.add_summary(summary, step)


class SVStepCounterThread(LooperThread):
    """Writes the steps per second (``global_step/sec``) every ``save_summaries_secs``.

    Args:
        sv: The Supervisor.
        sess: The session.
        step_counter: The counter; the Supervisor's global step when None.
    """

    def __init__(self, sv: Supervisor, sess: Any, step_counter: Any = None):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv = sv
        self._sess = sess
        self._last_time = 0.0
        self._last_step = 0
        self._step_counter = sv.global_step if step_counter is None else step_counter
        self._summary_tag = "%s/sec" % self._step_counter.op.name

    def start_loop(self) -> None:
        """Records the start time and step."""
        self._last_time = time.time()
        self._last_step = _global_step_value(self._sess, self._step_counter)

    def run_loop(self) -> None:
        """Writes the steps per second since the last call."""
        from flowgrad.summary import protos
        step = _global_step_value(self._sess, self._step_counter)
        added, self._last_step = step - self._last_step, step
        now = time.time()
        elapsed, self._last_time = now - self._last_time, now
        rate = added / elapsed if elapsed > 0.0 else float("inf")
        summary_cls = protos.pb().summary_pb2.Summary
        summary = summary_cls(value=[summary_cls.Value(tag=self._summary_tag,
                                                       simple_value=rate)])
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(summary, step)
        tf_logging.info("%s: %g", self._summary_tag, rate)


class SVTimerCheckpointThread(LooperThread):
    """Saves a checkpoint every ``save_model_secs``.

    Args:
        sv: The Supervisor.
        sess: The session.
    """

    def __init__(self, sv: Supervisor, sess: Any):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv = sv
        self._sess = sess

    def run_loop(self) -> None:
        """Saves one checkpoint."""
        tf_logging.info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            step = _global_step_value(self._sess, self._sv.global_step)
            self._sv.summary_writer.add_session_log(
                _session_log("CHECKPOINT", checkpoint_path=self._sv.save_path), step)


__all__ = ["Supervisor"]
