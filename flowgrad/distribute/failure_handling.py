"""``tf.distribute.experimental.PreemptionCheckpointHandler`` and ``TerminationConfig``:
TensorFlow's fault handling for a ``MultiWorkerMirroredStrategy`` custom training loop,
on Ray.

As in TensorFlow, the handler restores the latest checkpoint when it is made, counts the
steps it runs (``total_run_calls``, saved in the checkpoint), and on a termination signal
(SIGTERM, or ``TerminationConfig.termination_watcher_fn``) every worker saves a checkpoint
at the same step and the program exits (``exit_fn``).

flowgrad's improvement for a worker that dies without notice: in a
``flowgrad.distribute.WorkerGroup`` with ``max_failures``, the driver starts a new worker
in the lost one's place, and the survivors, inside ``handler.run``, put back the variables
the interrupted step had changed, send the new worker their current state (the handler's
checkpoint, written to memory, and the step count) and run the step again with it. The new
worker runs the program from its start; its handler takes that state instead of the
latest checkpoint file, so its loop starts at the step the survivors retry
(``total_run_calls``, or the step variables the checkpoint holds). Training goes on as if
nothing had happened: the same values as an uninterrupted run. (TensorFlow restarts the
whole cluster from the latest checkpoint instead.)"""
from __future__ import annotations

import glob
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.debug import tf_logging
from flowgrad.distribute import collective
from flowgrad.framework import errors

_ITERATION_VARIABLE = "checkpointed_runs"


class TerminationConfig:
    """How a ``PreemptionCheckpointHandler`` learns of a termination, and exits
    (``tf.distribute.experimental.TerminationConfig``).

    Args:
      termination_watcher_fn: a function, polled every second, that returns True once a
        termination notice is available (default: the SIGTERM signal).
      exit_fn: called after the checkpoint is saved (default: ``sys.exit(42)``).
      grace_period: seconds between the notice and the termination; accepted (flowgrad
        saves at the next step).
      save_fn: saves the checkpoint instead of the CheckpointManager's ``save``.
    """

    def __init__(self, termination_watcher_fn: Callable | None = None,
                 exit_fn: Callable | None = None, grace_period: float | None = None,
                 save_fn: Callable | None = None):
        self.termination_watcher_fn = termination_watcher_fn
        self.exit_fn = exit_fn
        self.grace_period = grace_period
        self.save_fn = save_fn


def _non_chief_checkpoint_dir(checkpoint_dir: str, task_id: int) -> str:
    """Where a worker other than the chief saves (TensorFlow's ``workertemp_<id>``)."""
    dirpath = os.path.join(os.path.dirname(checkpoint_dir), "workertemp_%d" % task_id)
    os.makedirs(dirpath, exist_ok=True)
    return os.path.join(dirpath, os.path.basename(checkpoint_dir))


class PreemptionCheckpointHandler:
    """Preemption and failure handling for synchronous training
    (``tf.distribute.experimental.PreemptionCheckpointHandler``); see the module docstring.

    Args:
      cluster_resolver: the strategy's ``cluster_resolver``.
      checkpoint_or_checkpoint_manager: a ``tf.train.CheckpointManager``, or a
        ``tf.train.Checkpoint`` (then ``checkpoint_dir`` is needed, and the handler makes
        a manager keeping one checkpoint there).
      checkpoint_dir: where the handler saves and restores a Checkpoint's files.
      termination_config: a ``TerminationConfig``.

    Raises:
      InvalidArgumentError: a Checkpoint without ``checkpoint_dir``.
      NotImplementedError: a ParameterServerStrategy cluster.
    """

    def __init__(self, cluster_resolver: Any, checkpoint_or_checkpoint_manager: Any,
                 checkpoint_dir: str | None = None,
                 termination_config: TerminationConfig | None = None):
        from flowgrad.train.checkpoint import CheckpointManager
        from flowgrad.ops.state_ops import EagerVariable
        manager = checkpoint_or_checkpoint_manager
        if not isinstance(manager, CheckpointManager) and not checkpoint_dir:
            raise errors.InvalidArgumentError(
                None, None, "When a checkpoint is passed, a checkpoint_dir must be passed "
                "as well.")
        spec = cluster_resolver.cluster_spec() if hasattr(cluster_resolver,
                                                          "cluster_spec") else None
        if spec is not None and "ps" in getattr(spec, "jobs", ()):
            raise NotImplementedError("PreemptionCheckpointHandler does not supportusage "
                                      "with tf.distribute.experimental.ParameterServerStrategy.")
        config = termination_config or TerminationConfig()
        self._watcher_fn = config.termination_watcher_fn
        self._exit_fn = config.exit_fn or (lambda: sys.exit(42))
        self._save_fn = config.save_fn
        self._group = collective.current_group()
        self._task_id = int(getattr(cluster_resolver, "task_id", 0) or 0)
        self._is_chief = self._task_id == 0
        if isinstance(manager, CheckpointManager):
            self._read_manager = self._write_manager = manager
        else:
            self._read_manager = CheckpointManager(manager, checkpoint_dir, max_to_keep=1)
            self._write_manager = self._read_manager if self._is_chief else \
                CheckpointManager(manager, _non_chief_checkpoint_dir(checkpoint_dir,
                                                                     self._task_id),
                                  max_to_keep=1)
        self._checkpoint = self._read_manager.checkpoint
        self._checkpointed_runs = EagerVariable(np.int64(0), trainable=False,
                                                name=_ITERATION_VARIABLE)
        for m in {id(self._read_manager): self._read_manager,
                  id(self._write_manager): self._write_manager}.values():
            if not hasattr(m.checkpoint, _ITERATION_VARIABLE):
                setattr(m.checkpoint, _ITERATION_VARIABLE, self._checkpointed_runs)
        self._state_dir: str | None = None
        self.rejoins = 0           # steps this worker ran again with a replaced peer
        if self._group is not None and self._group.rejoining:
            self._run_counter = self._take_survivors_state()
        else:
            self._read_manager.restore_or_initialize()
            self._run_counter = int(self._checkpointed_runs.numpy())
        self._step_to_checkpoint: int | None = None
        self._own_signal = threading.Event()
        self._stop = threading.Event()
        self._watch()

    # -- termination notices -------------------------------------------------------------
    def _watch(self) -> None:
        if self._watcher_fn is not None:
            def poll() -> None:
                while not self._stop.wait(1.0):
                    if self._watcher_fn():
                        self._own_signal.set()
                        return
            threading.Thread(target=poll, name="PreemptionWatcher", daemon=True).start()
            return
        try:
            signal.signal(signal.SIGTERM, lambda signum, frame: self._own_signal.set())
        except ValueError:        # not the main thread (a Ray actor's method)
            pass

    def __del__(self) -> None:
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()

    @property
    def total_run_calls(self) -> int:
        """The number of ``run`` calls, those before the restored checkpoint included."""
        return self._run_counter

    def _check_preemption_and_maybe_checkpoint(self, *args: Any, **kwargs: Any) -> None:
        group = self._group
        if self._own_signal.is_set() and self._step_to_checkpoint is None:
            self._step_to_checkpoint = self._run_counter + 1
            if group is not None and group.world_size > 1:
                group.announce(self._step_to_checkpoint)
        announced = group.announced() if group is not None else None
        if announced is not None and self._step_to_checkpoint is None:
            self._step_to_checkpoint = announced
        if self._step_to_checkpoint is not None and \
                self._run_counter >= self._step_to_checkpoint:
            self._save_checkpoint(*args, **kwargs)
            self._stop.set()
            tf_logging.info("PreemptionCheckpointHandler: checkpoint saved. Exiting.")
            self._exit_fn()

    def _save_checkpoint(self, *args: Any, **kwargs: Any) -> None:
        self._checkpointed_runs.assign(np.int64(self._run_counter))
        if self._save_fn is not None:
            self._save_fn(*args, **kwargs)
        else:
            self._write_manager.save(*args, **kwargs)

    def save_checkpoint_if_preempted(self, *args: Any, **kwargs: Any) -> None:
        """Saves a checkpoint (and exits) if a termination notice came; counts a step.

        Args:
          *args: passed to ``tf.train.CheckpointManager.save``.
          **kwargs: passed to ``tf.train.CheckpointManager.save``.
        """
        self._check_preemption_and_maybe_checkpoint(*args, **kwargs)
        self._run_counter += 1

    # -- a step --------------------------------------------------------------------------
    def run(self, distributed_train_function: Callable, *args: Any, **kwargs: Any) -> Any:
        """``distributed_train_function(*args, **kwargs)`` (a single step that calls
        ``strategy.run``), with the termination handling; in a ``WorkerGroup``, a step
        interrupted by a lost worker runs again once a new worker took its place.

        Args:
          distributed_train_function: a single-step distributed training function.
          *args: its positional arguments.
          **kwargs: its keyword arguments.

        Returns:
          What ``distributed_train_function`` returns.
        """
        self._check_preemption_and_maybe_checkpoint()
        group = self._group
        if group is None or group.world_size == 1:
            result = distributed_train_function(*args, **kwargs)
            self._run_counter += 1
            return result
        while True:
            strategy = getattr(group, "strategy", None)
            variables = list(getattr(strategy, "_variables", ()))
            saved = [np.array(v.numpy(), copy=True) for v in variables]
            sequence = group.sequence
            group.rejoinable += 1
            try:
                result = distributed_train_function(*args, **kwargs)
                break
            except Exception:       # noqa: BLE001 - retried only when a peer was replaced
                lost = group.replaced_ranks()
                if not lost:
                    raise
            finally:
                group.rejoinable -= 1
            self._retry_after_loss(strategy, variables, saved, sequence, lost)
        if group.rejoining:
            group.rejoining = False
            if strategy is not None:
                strategy._synced = len(strategy._variables)
            if self._state_dir is not None:
                shutil.rmtree(self._state_dir, ignore_errors=True)
                self._state_dir = None
        self._run_counter += 1
        return result

    def _retry_after_loss(self, strategy: Any, variables: list, saved: list, sequence: int,
                          lost: list) -> None:
        """Puts back what the interrupted step changed, enters the group's new generation
        and, on the lowest surviving rank, sends the new workers the current state."""
        group = self._group
        tf_logging.warning("Worker(s) %s died during step %d; they were replaced and the "
                           "step runs again", lost, self._run_counter)
        for v, value in zip(variables, saved):
            v.assign(value)
        if strategy is not None:
            strategy._reset_step()
        group.resume(sequence)
        root = min(r for r in range(group.world_size) if r not in lost)
        if group.rank == root:
            state = self._state(sequence)
            for rank in lost:
                group.send_state(rank, state)
        self.rejoins += 1

    def _state(self, sequence: int) -> dict:
        """This worker's state for a new worker: the handler's checkpoint written to
        memory, the step count and the collective sequence of the step to retry."""
        self._checkpointed_runs.assign(np.int64(self._run_counter))
        directory = tempfile.mkdtemp(prefix="flowgrad_rejoin_")
        try:
            prefix = self._checkpoint.write(os.path.join(directory, "state"))
            files = {}
            for path in glob.glob(prefix + "*"):
                with open(path, "rb") as f:
                    files[os.path.basename(path)] = f.read()
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return {"run_counter": self._run_counter, "sequence": sequence, "files": files}

    def _take_survivors_state(self) -> int:
        """On a new worker: restores the state a survivor sent (the files stay until the
        first step ends: an optimizer's slots are restored when they are made)."""
        state = self._group.receive_state()
        self._state_dir = tempfile.mkdtemp(prefix="flowgrad_rejoin_")
        for name, data in state["files"].items():
            with open(os.path.join(self._state_dir, name), "wb") as f:
                f.write(data)
        self._checkpoint.restore(os.path.join(self._state_dir, "state"))
        self._group.resume(state["sequence"])
        tf_logging.warning("Worker %d rejoined the group at step %d with the survivors' "
                           "state", self._group.rank, state["run_counter"])
        return int(state["run_counter"])

    def watch_preemption_scope(self) -> Any:
        """A context for ``TPUStrategy``'s preemption handling; here it does nothing."""
        import contextlib
        return contextlib.nullcontext()


__all__ = ["PreemptionCheckpointHandler", "TerminationConfig"]
