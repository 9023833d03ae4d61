"""TF1's ``tf.train.SyncReplicasOptimizer`` on Ray workers: every worker of a
``flowgrad.distribute.WorkerGroup`` runs the TF1 program, and each step applies the mean
of all the workers' gradients.

TensorFlow keeps the variables on parameter servers and collects the gradients in
accumulators; here every worker holds the variables and the mean is an all-reduce among
the workers (one PyFunc op for all the gradients), so every worker applies the same update
with the wrapped optimizer. The session hook (``make_session_run_hook``) gives every
worker worker 0's variable values when a session is created, as the shared variables
of TensorFlow's parameter servers are. Backup workers (``replicas_to_aggregate`` below
``total_num_replicas``) and ``variable_averages`` are not supported."""
from __future__ import annotations

from typing import Any

from flowgrad.distribute import collective
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import control_flow_ops, state_ops
from flowgrad.ops.script_ops import numpy_function
from flowgrad.train.optimizer import Optimizer


def _group() -> collective.CollectiveGroup:
    return collective.current_group() or collective.CollectiveGroup(0, 1, [])


class SyncReplicasOptimizer(Optimizer):
    """Synchronous training of a TF1 graph on the workers of a ``WorkerGroup``.

    Args:
      opt: the optimizer that applies the averaged gradients.
      replicas_to_aggregate: the gradients averaged per step: every worker's.
      total_num_replicas: the number of workers (default ``replicas_to_aggregate``).
      variable_averages: not supported (must be None).
      variables_to_average: not supported (must be None).
      use_locking: accepted for TensorFlow's signature.
      name: the name of its ops.

    Raises:
      ValueError: the counts differ from the group's number of workers, or
        ``variable_averages`` is given.
    """

    def __init__(self, opt: Optimizer, replicas_to_aggregate: int,
                 total_num_replicas: int | None = None, variable_averages: Any = None,
                 variables_to_average: Any = None, use_locking: bool = False,
                 name: str = "sync_replicas"):
        super().__init__(use_locking, name)
        total = replicas_to_aggregate if total_num_replicas is None else total_num_replicas
        workers = _group().world_size
        if int(replicas_to_aggregate) != workers or int(total) != workers:
            raise ValueError(
                "SyncReplicasOptimizer here averages every worker's gradients each step: "
                "replicas_to_aggregate (%r) and total_num_replicas (%r) must both equal the "
                "number of workers running this program (%d; run it with "
                "flowgrad.distribute.WorkerGroup(num_workers).run(...))"
                % (replicas_to_aggregate, total_num_replicas, workers))
        if variable_averages is not None or variables_to_average is not None:
            raise ValueError("SyncReplicasOptimizer's variable_averages is not supported")
        self._opt = opt
        self._replicas_to_aggregate = int(replicas_to_aggregate)
        self._total_num_replicas = int(total)
        self._vars: list = []

    def compute_gradients(self, *args: Any, **kwargs: Any) -> list:
        """The wrapped optimizer's ``compute_gradients``."""
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: str | None = None) -> Any:
        """An op that applies the mean of every worker's gradients with the wrapped
        optimizer (sparse gradients are averaged dense).

        Args:
          grads_and_vars: (gradient, variable) pairs from ``compute_gradients``.
          global_step: incremented by the update, as by the wrapped optimizer.
          name: the name of the op.

        Returns:
          The training op.

        Raises:
          ValueError: no gradients.
        """
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("Must supply at least one variable")
        grads = [convert_to_tensor(g) for g, _ in pairs]      # IndexedSlices made dense
        group = _group()
        means = numpy_function(lambda *a: group.all_reduce(list(a), "MEAN"), grads,
                               [g.dtype.base_dtype for g in grads], name="SyncReplicasMean")
        means = list(means) if isinstance(means, (list, tuple)) else [means]
        for m, g in zip(means, grads):
            m.set_shape(g.shape)
        self._vars = [v for _, v in pairs]
        return self._opt.apply_gradients(list(zip(means, self._vars)),
                                         global_step=global_step, name=name)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> list:
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self) -> list:
        return self._opt.variables()

    def get_init_tokens_op(self, num_tokens: int = -1) -> Any:
        """A no-op: there is no token queue (every worker applies every step)."""
        return control_flow_ops.no_op(name="sync_replicas_init_tokens")

    def get_chief_queue_runner(self) -> None:
        """None: no queue runner is needed."""
        return None

    def make_session_run_hook(self, is_chief: bool, num_tokens: int = -1) -> Any:
        """A session hook that gives every worker worker 0's values of the global variables
        when a session is created (``after_create_session``)."""
        return _SyncReplicasHook()


class _SyncReplicasHook:
    """``SyncReplicasOptimizer.make_session_run_hook``'s hook."""

    def __init__(self) -> None:
        self._sync: Any = None

    def begin(self) -> None:
        """Builds the op that broadcasts worker 0's variable values."""
        variables = state_ops.global_variables()
        group = _group()
        values = numpy_function(lambda *a: group.broadcast(list(a), root=0), variables,
                                [v.dtype.base_dtype for v in variables],
                                name="SyncReplicasBroadcast") if variables else []
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        self._sync = control_flow_ops.group(
            *[state_ops.assign(v, x) for v, x in zip(variables, values)])

    def after_create_session(self, session: Any, coord: Any = None) -> None:
        """Runs the broadcast (the variables must be initialised)."""
        if self._sync is None:
            self.begin()
        session.run(self._sync)

    def before_run(self, run_context: Any) -> None:
        return None

    def after_run(self, run_context: Any, run_values: Any) -> None:
        return None

    def end(self, session: Any) -> None:
        return None
