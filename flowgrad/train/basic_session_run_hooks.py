"""The hooks of ``tf.compat.v1.train``: stop at a step, stop on NaN, log tensors, save
checkpoints and summaries, count steps, feed, run final ops, wait for a step; with the
semantics of TensorFlow's ``python/training/basic_session_run_hooks.py``."""
from __future__ import annotations

import os
import time
from typing import Any, Callable

import numpy as np

from flowgrad.debug import tf_logging
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.train import training_util
from flowgrad.train.session_run_hook import (
    SessionRunArgs,
    SessionRunContext,
    SessionRunHook,
    SessionRunValues,
)
from flowgrad.framework.type_hints import TensorLike

_writers: dict = {}


def _summary_writer(logdir: str) -> Any:
    """The FileWriter of ``logdir`` shared by the hooks (TensorFlow's SummaryWriterCache)."""
    from flowgrad.summary.writer import FileWriter
    key = os.path.abspath(logdir)
    if key not in _writers:
        _writers[key] = FileWriter(logdir, graph=get_default_graph())
    return _writers[key]


def _global_step_or_raise(hook: str) -> Any:
    step = training_util.get_global_step()
    if step is None:
        raise RuntimeError("Global step should be created to use %s." % hook)
    return step


def _as_graph_element(obj: Any) -> Any:
    """``obj`` as an element of the default graph (a tensor name like "w:0" or "w")."""
    graph = get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", None) is not graph:
            raise ValueError("Passed %s should have graph attribute that is equal to current "
                             "graph %s." % (obj, graph))
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs "
                     "(at least 2)." % obj)


class SecondOrStepTimer:
    """Triggers at most once every N seconds or once every N steps.

    Args:
        every_secs: Seconds between triggers.
        every_steps: Steps between triggers.

    Raises:
        ValueError: Unless exactly one of ``every_secs`` and ``every_steps`` is given.
    """

    def __init__(self, every_secs: float | None = None, every_steps: int | None = None):
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self) -> None:
        """Forgets the last trigger."""
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step: int) -> bool:
        """Whether to trigger at ``step``: the first time, or once enough time/steps passed.

        Args:
            step: The training step.

        Returns:
            True to trigger.
        """
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= (self._last_triggered_time
                                                            + self._every_secs):
            return True
        return self._every_steps is not None and step >= (self._last_triggered_step
                                                          + self._every_steps)

    def update_last_triggered_step(self, step: int) -> tuple:
        """Records a trigger at ``step``.

        Args:
            step: The training step.

        Returns:
            ``(elapsed_secs, elapsed_steps)`` since the last trigger, ``(None, None)`` the first
            time.
        """
        now = time.time()
        if self._last_triggered_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time = now
        self._last_triggered_step = step
        return elapsed

    def last_triggered_step(self) -> int | None:
        """The step of the last trigger, or None.

        Returns:
            The step, or None before the first trigger.
        """
        return self._last_triggered_step


class _NeverTriggerTimer(SecondOrStepTimer):
    """A timer that never triggers (``LoggingTensorHook`` with only ``at_end``)."""

    def __init__(self):
        self.reset()

    def should_trigger_for_step(self, step: int) -> bool:
        return False


class LoggingTensorHook(SessionRunHook):
    """Logs the values of tensors every N local steps, every N seconds, or at the end.

    The values are logged with ``tf.compat.v1.logging.info`` as ``tag = value`` pairs joined
    by ", " (tags sorted for a dict, in order for a list), with ``(N.NNN sec)`` since the
    previous log.

    Args:
        tensors: A dict from tags to tensors or tensor names, or a list of them.
        every_n_iter: Log every this many local steps.
        every_n_secs: Log at most once every this many seconds.
        at_end: Whether to log the values at the end of the session too.
        formatter: A function from the dict of tag -> value to the message.

    Raises:
        ValueError: Unless ``at_end`` or exactly one of ``every_n_iter`` and ``every_n_secs``
            is given, or if ``every_n_iter`` is not positive.
    """

    def __init__(self, tensors: TensorLike, every_n_iter: int | None = None,
                 every_n_secs: float | None = None, at_end: bool = False,
                 formatter: Callable | None = None):
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and "
                             "every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError("invalid every_n_iter=%s." % every_n_iter)
        if not isinstance(tensors, dict):
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = (_NeverTriggerTimer() if only_log_at_end
                       else SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))
        self._log_at_end = at_end

    def begin(self) -> None:
        """Resolves the tensors in the default graph."""
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(tensor)
                                 for tag, tensor in self._tensors.items()}

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        """Fetches the tensors on the steps that log.

        Args:
            run_context: The run's context.

        Returns:
            The tensors to fetch, or None.
        """
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, tensor_values: dict) -> None:
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        try:
            elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
            if self._formatter:
                tf_logging.info(self._formatter(tensor_values))
            else:
                stats = ["%s = %s" % (tag, tensor_values[tag]) for tag in self._tag_order]
                if elapsed_secs is not None:
                    tf_logging.info("%s (%.3f sec)", ", ".join(stats), elapsed_secs)
                else:
                    tf_logging.info("%s", ", ".join(stats))
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Logs the fetched values on the steps that log.

        Args:
            run_context: The run's context.
            run_values: The fetched values.
        """
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session: Any) -> None:
        """Logs the values once more with ``at_end``.

        Args:
            session: The session.
        """
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Requests a stop at a global step: ``last_step``, or ``num_steps`` after the start.

    Args:
        num_steps: How many steps to run from the global step the session starts at.
        last_step: The global step to stop at.

    Raises:
        ValueError: Unless exactly one of ``num_steps`` and ``last_step`` is given.
    """

    def __init__(self, num_steps: int | None = None, last_step: int | None = None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self) -> None:
        """Finds the global step.

        Raises:
            RuntimeError: If the graph has no global step.
        """
        self._global_step_tensor = _global_step_or_raise("StopAtStepHook")

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Sets the last step from the global step the session starts at.

        Args:
            session: The session.
            coord: The coordinator.
        """
        global_step = session.run(self._global_step_tensor)
        if self._last_step is None:
            self._last_step = global_step + self._num_steps

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        """Fetches the global step.

        Args:
            run_context: The run's context.

        Returns:
            The global step to fetch.
        """
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Requests a stop once the global step reaches the last step.

        Args:
            run_context: The run's context.
            run_values: The fetched global step.
        """
        if run_values.results + 1 >= self._last_step:
            # the fetched step may be the one before this run's update: read it again
            if run_context.session.run(self._global_step_tensor) >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Called around the checkpoints a ``CheckpointSaverHook`` saves."""

    def begin(self) -> None:
        """Called when the hook begins."""

    def before_save(self, session: Any, global_step_value: int) -> None:
        """Called before each checkpoint is saved.

        Args:
            session: The session.
            global_step_value: The global step of the checkpoint.
        """

    def after_save(self, session: Any, global_step_value: int) -> bool | None:
        """Called after each checkpoint is saved.

        Args:
            session: The session.
            global_step_value: The global step of the checkpoint.

        Returns:
            True to request that training stop.
        """

    def end(self, session: Any, global_step_value: int) -> None:
        """Called at the end of the session.

        Args:
            session: The session.
            global_step_value: The last global step.
        """


class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint every N steps or seconds, at the start and at the end.

    Args:
        checkpoint_dir: The directory of the checkpoints.
        save_secs: Save every this many seconds.
        save_steps: Save every this many steps.
        saver: The Saver; else the scaffold's, else the one in the SAVERS collection.
        checkpoint_basename: The checkpoints' base name.
        scaffold: A Scaffold whose saver to use.
        listeners: ``CheckpointSaverListener``s called around each save.
        save_graph_def: Whether to write the graph (graph.pbtxt and .meta files).

    Raises:
        ValueError: If both ``saver`` and ``scaffold`` are given, or unless exactly one of
            ``save_secs`` and ``save_steps`` is.
    """

    def __init__(self, checkpoint_dir: str, save_secs: float | None = None,
                 save_steps: int | None = None, saver: Any = None,
                 checkpoint_basename: str = "model.ckpt", scaffold: Any = None,
                 listeners: list | None = None, save_graph_def: bool = True):
        tf_logging.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1
        self._save_graph_def = save_graph_def

    def begin(self) -> None:
        """Finds the global step and calls the listeners' ``begin``.

        Raises:
            RuntimeError: If the graph has no global step.
        """
        self._summary_writer = _summary_writer(self._checkpoint_dir)
        self._global_step_tensor = _global_step_or_raise("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Writes the graph and saves the first checkpoint.

        Args:
            session: The session.
            coord: The coordinator.
        """
        global_step = session.run(self._global_step_tensor)
        if self._save_graph_def:
            from google.protobuf import text_format

            from flowgrad.summary.graph_def import to_graph_def
            graph_def = to_graph_def(get_default_graph())
            os.makedirs(self._checkpoint_dir, exist_ok=True)
            with open(os.path.join(self._checkpoint_dir, "graph.pbtxt"), "w") as f:
                f.write(text_format.MessageToString(graph_def))
            self._summary_writer.add_graph(None, graph_def=graph_def)
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        """Fetches the global step.

        Args:
            run_context: The run's context.

        Returns:
            The global step to fetch.
        """
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Saves a checkpoint when the timer triggers.

        Args:
            run_context: The run's context.
            run_values: The fetched global step.
        """
        if self._timer.should_trigger_for_step(run_values.results + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session: Any) -> None:
        """Saves the last step's checkpoint (unless saved already) and ends the listeners.

        Args:
            session: The session.
        """
        last_step = session.run(self._global_step_tensor)
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session: Any, step: Any) -> bool:
        """Saves a checkpoint; whether a listener asked to stop."""
        step = int(step)
        tf_logging.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        tf_logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step,
                               write_meta_graph=self._save_graph_def)
        event_pb2 = _event_pb2()
        self._summary_writer.add_session_log(
            event_pb2.SessionLog(status=event_pb2.SessionLog.CHECKPOINT,
                                 checkpoint_path=self._save_path), step)
        self._summary_writer.flush()      # the checkpoint's event is on disk with it
        tf_logging.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                tf_logging.info("A CheckpointSaverListener requested that training be stopped. "
                                "listener: %s" % (listener,))
                should_stop = True
        return should_stop

    def _get_saver(self) -> Any:
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError("No items in collection %s. Please add a saver to the collection "
                               "or provide a saver or scaffold." % GraphKeys.SAVERS)
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection %s. Please indicate which one "
                               "to use by passing it to the constructor." % GraphKeys.SAVERS)
        self._saver = savers[0]
        return savers[0]


def _event_pb2() -> Any:
    from flowgrad.summary.protos import pb
    return pb().event_pb2


class StepCounterHook(SessionRunHook):
    """Logs (and writes as a summary) the global steps per second.

    Args:
        every_n_steps: Measure every this many global steps.
        every_n_secs: Measure every this many seconds.
        output_dir: Where to write the ``global_step/sec`` summary.
        summary_writer: A FileWriter to write it with instead.

    Raises:
        ValueError: Unless exactly one of ``every_n_steps`` and ``every_n_secs`` is given.
    """

    def __init__(self, every_n_steps: int | None = 100, every_n_secs: float | None = None,
                 output_dir: str | None = None, summary_writer: Any = None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._steps_per_run = 1

    def begin(self) -> None:
        """Finds the global step and the summary writer.

        Raises:
            RuntimeError: If the graph has no global step.
        """
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer(self._output_dir)
        self._global_step_tensor = _global_step_or_raise("StepCounterHook")
        self._summary_tag = self._global_step_tensor.op.name + "/sec"

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        """Fetches the global step.

        Args:
            run_context: The run's context.

        Returns:
            The global step to fetch.
        """
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Logs the steps per second when the timer triggers.

        Args:
            run_context: The run's context.
            run_values: The fetched global step.
        """
        if self._timer.should_trigger_for_step(run_values.results + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(
                    global_step)
                if elapsed_time is not None:
                    self._log_and_record(elapsed_steps, elapsed_time, global_step)

    def _log_and_record(self, elapsed_steps: int, elapsed_time: float, global_step: int) -> None:
        steps_per_sec = elapsed_steps / elapsed_time
        if self._summary_writer is not None:
            from flowgrad.summary.protos import pb
            summary_pb2 = pb().summary_pb2
            summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(
                tag=self._summary_tag, simple_value=steps_per_sec)])
            self._summary_writer.add_summary(summary, global_step)
        tf_logging.info("%s: %g", self._summary_tag, steps_per_sec)


class NanLossDuringTrainingError(RuntimeError):
    """The error ``NanTensorHook`` raises when the loss is NaN."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Stops training (or raises) when the loss becomes NaN.

    Args:
        loss_tensor: The loss tensor.
        fail_on_nan_loss: Whether to raise ``NanLossDuringTrainingError`` (else log a
            warning and request a stop).
    """

    def __init__(self, loss_tensor: Any, fail_on_nan_loss: bool = True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        """Fetches the loss.

        Args:
            run_context: The run's context.

        Returns:
            The loss to fetch.
        """
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Checks the loss.

        Args:
            run_context: The run's context.
            run_values: The fetched loss.

        Raises:
            NanLossDuringTrainingError: If the loss is NaN and ``fail_on_nan_loss``.
        """
        if np.isnan(run_values.results):
            failure_message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                tf_logging.error(failure_message)
                raise NanLossDuringTrainingError
            tf_logging.warning(failure_message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Writes the summary op's summaries every N steps or seconds.

    Args:
        save_steps: Write every this many steps.
        save_secs: Write every this many seconds.
        output_dir: The directory of the event file.
        summary_writer: A FileWriter to write with instead.
        scaffold: A Scaffold whose summary op to run.
        summary_op: A summary op (or a list) to run instead.

    Raises:
        ValueError: Unless exactly one of ``scaffold`` and ``summary_op`` is given, or exactly
            one of ``save_steps`` and ``save_secs``.
    """

    def __init__(self, save_steps: int | None = None, save_secs: float | None = None,
                 output_dir: str | None = None, summary_writer: Any = None,
                 scaffold: Any = None, summary_op: Any = None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self) -> None:
        """Finds the global step and the summary writer.

        Raises:
            RuntimeError: If the graph has no global step.
        """
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _global_step_or_raise("SummarySaverHook")

    def _get_summary_op(self) -> list | None:
        op = self._scaffold.summary_op if self._scaffold is not None else self._summary_op
        if op is None:
            return None
        return op if isinstance(op, list) else [op]

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        """Fetches the global step, and the summaries on the steps that write.

        Args:
            run_context: The run's context.

        Returns:
            What to fetch.
        """
        self._request_summary = (self._next_step is None
                                 or self._timer.should_trigger_for_step(self._next_step))
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary and self._get_summary_op() is not None:
            requests["summary"] = self._get_summary_op()
        return SessionRunArgs(requests)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Writes the fetched summaries (and a START session log the first time).

        Args:
            run_context: The run's context.
            run_values: The fetched values.
        """
        if not self._summary_writer:
            return
        global_step = run_values.results["global_step"] + 1
        if self._next_step is None or self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
        if self._next_step is None:
            event_pb2 = _event_pb2()
            self._summary_writer.add_session_log(
                event_pb2.SessionLog(status=event_pb2.SessionLog.START), global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", []):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session: Any = None) -> None:
        """Flushes the writer.

        Args:
            session: The session.
        """
        if self._summary_writer:
            self._summary_writer.flush()


class GlobalStepWaiterHook(SessionRunHook):
    """Delays the first step until the global step reaches ``wait_until_step``.

    Args:
        wait_until_step: The global step to wait for.
    """

    def __init__(self, wait_until_step: int):
        self._wait_until_step = wait_until_step

    def begin(self) -> None:
        """Finds the global step.

        Raises:
            RuntimeError: If the graph has no global step.
        """
        self._worker_is_started = False
        self._global_step_tensor = _global_step_or_raise("GlobalStepWaiterHook")

    def before_run(self, run_context: SessionRunContext) -> None:
        """Waits (polling every half second) until the global step is reached.

        Args:
            run_context: The run's context.
        """
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        tf_logging.info("Waiting for global step %d before starting training.",
                        self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                tf_logging.info("Waiting for global step %d before starting training. "
                                "Current step is %d.", self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(0.5)


class FinalOpsHook(SessionRunHook):
    """Runs ops at the end of the session and keeps their values.

    Args:
        final_ops: Any nesting of tensors and ops to run.
        final_ops_feed_dict: The feeds of that run.
    """

    def __init__(self, final_ops: Any, final_ops_feed_dict: dict | None = None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self) -> Any:
        """The values of the final ops (None before the session ends)."""
        return self._final_ops_values

    def end(self, session: Any) -> None:
        """Runs the final ops.

        Args:
            session: The session.
        """
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)


class FeedFnHook(SessionRunHook):
    """Feeds each run the dict ``feed_fn()`` returns.

    Args:
        feed_fn: A function returning a feed dict.
    """

    def __init__(self, feed_fn: Callable[[], dict]):
        self.feed_fn = feed_fn

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        """Adds the feeds.

        Args:
            run_context: The run's context.

        Returns:
            The feeds to add.
        """
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())
