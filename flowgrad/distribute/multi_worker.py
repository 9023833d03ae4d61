"""``tf.distribute.MultiWorkerMirroredStrategy`` on Ray: synchronous data parallelism,
one replica per worker process, the workers' gradients all-reduced among them.

As in TensorFlow every worker runs the same program; ``flowgrad.distribute.WorkerGroup``
starts it on Ray workers (``group.run(train_fn)``), and the strategy made inside it has
``num_replicas_in_sync`` equal to the group's size. Outside a group it is one worker (as
TensorFlow's without ``TF_CONFIG``).

- Variables created under ``scope()`` take worker 0's initial values (broadcast at the
  next ``run``), as TensorFlow's collective initialisation does.
- ``ReplicaContext.all_reduce`` (what a Keras optimizer's ``apply_gradients`` calls),
  ``strategy.reduce``, ``gather`` and ``extended.reduce_to`` are collectives among the
  workers (``flowgrad.distribute.collective``); inside a ``tf.function`` they are ops.
  All the tensors of one call go in one collective; sparse gradients (IndexedSlices) of
  an eager step stay sparse (every worker's rows gathered), in a tf.function they are
  reduced dense.
- Non-trainable floating-point variables that the replica function writes (batch
  normalization's moving statistics: TensorFlow's ON_READ variables aggregated by MEAN)
  are set to the workers' mean at the end of ``run``; those written in the cross-replica
  context (an optimizer's slots and ``iterations``) are equal on every worker already.
- ``experimental_distribute_dataset`` gives each worker its part of every global batch;
  ``distribute_datasets_from_function`` calls the function with this worker's
  ``InputContext``."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.distribute import collective, distribute_lib
from flowgrad.distribute.distribute_lib import (InputContext, PerReplica, ReplicaContext,
                                                Strategy, StrategyExtended)
from flowgrad.framework.context import executing_eagerly, get_default_graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.ops import array_ops, math_ops, state_ops


def _op_name(reduce_op: Any) -> str:
    return distribute_lib._reduce_op(reduce_op).value


class _WorkerExtended(StrategyExtended):
    """``strategy.extended`` of a MultiWorkerMirroredStrategy."""

    @property
    def worker_devices(self) -> tuple:
        return ("/job:worker/replica:0/task:%d/device:CPU:0" % self._strategy._group.rank,)

    @property
    def should_checkpoint(self) -> bool:
        return self._strategy._group.rank == 0

    @property
    def should_save_summary(self) -> bool:
        return self._strategy._group.rank == 0

    def _in_multi_worker_mode(self) -> bool:
        return self._strategy._group.world_size > 1

    def _use_merge_call(self) -> bool:
        return True

    def reduce_to(self, reduce_op: Any, value: Any, destinations: Any, options: Any = None) -> Any:
        return self._strategy._all_reduce(_op_name(reduce_op), value)

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: list,
                        options: Any = None) -> list:
        return self._strategy._all_reduce(_op_name(reduce_op),
                                          [v for v, _ in value_destination_pairs])


class _WorkerReplicaContext(ReplicaContext):
    """The replica context of this worker's one replica."""

    def all_reduce(self, reduce_op: Any, value: Any, options: Any = None) -> Any:
        return self._strategy._all_reduce(_op_name(reduce_op), value)

    def all_gather(self, value: Any, axis: int, options: Any = None) -> Any:
        return self._strategy._all_gather(value, axis)


class MultiWorkerMirroredStrategy(Strategy):
    """Synchronous training on several workers (``tf.distribute.MultiWorkerMirroredStrategy``),
    one replica each, on Ray (see the module docstring).

    Args:
      cluster_resolver: accepted for TensorFlow's signature; the cluster is the Ray
        ``WorkerGroup`` this program runs in.
      communication_options: accepted for TensorFlow's signature.
    """

    def __init__(self, cluster_resolver: Any = None, communication_options: Any = None):
        group = collective.current_group() or collective.CollectiveGroup(0, 1, [])
        self._group = group
        group.strategy = self
        super().__init__(_WorkerExtended(self, ""), num_replicas=group.world_size)
        self._synced = 0              # variables created under scope() already broadcast
        self._snapshot: dict | None = None     # id -> value of the ON_READ candidates
        self._written: dict = {}      # id -> variable the replica function wrote
        self._start: dict | None = None       # id -> value of the candidates at run's start
        self._graph_marks: list | None = None   # [last writes seen, ids written] in a trace

    @property
    def cluster_resolver(self) -> Any:
        """This worker's place in the cluster: ``task_type`` "worker", ``task_id`` its rank,
        ``num_workers``."""
        return _WorkerResolver(self._group.rank, self._group.world_size)

    @contextlib.contextmanager
    def scope(self) -> Iterator[Strategy]:
        """The strategy's scope; the variables created in it are marked as this strategy's
        (a Keras optimizer refuses to update them outside ``strategy.run``, where the
        workers would train apart)."""
        def mark(v: Any) -> None:
            v._distribute_strategy = self
        state_ops.VARIABLE_CREATED.append(mark)
        try:
            with super().scope() as strategy:
                yield strategy
        finally:
            state_ops.VARIABLE_CREATED.remove(mark)

    # -- collectives -----------------------------------------------------------------------
    def _all_reduce(self, op: str, value: Any) -> Any:
        """``value`` (a nest of tensors, arrays or numbers) summed or averaged over the
        workers, in one collective; a tensor inside a tf.function trace gives an op."""
        leaves = nest.flatten(value)
        if self._group.world_size > 1:
            leaves = [self._gather_slices(op, v)
                      if isinstance(v, IndexedSlices) and _is_eager(v.values) else v
                      for v in leaves]
        present = [i for i, v in enumerate(leaves)
                   if v is not None and not isinstance(v, _Gathered)]
        tensors = [leaves[i] for i in present]
        if not tensors:
            reduced = []
        elif all(_is_eager(t) for t in tensors):
            arrays = [_numpy(t) for t in tensors]
            reduced = [convert_to_tensor(a) for a in self._group.all_reduce(arrays, op)]
        else:
            tensors = [convert_to_tensor(t) for t in tensors]
            from flowgrad.ops.script_ops import numpy_function
            outs = numpy_function(lambda *a: self._group.all_reduce(list(a), op), tensors,
                                  [t.dtype for t in tensors], name="CollectiveReduce")
            for o, t in zip(outs, tensors):
                o.set_shape(t.shape)
            reduced = list(outs)
        out = [v.slices if isinstance(v, _Gathered) else v for v in leaves]
        for i, r in zip(present, reduced):
            out[i] = r
        return nest.pack_sequence_as(value, out)

    def _gather_slices(self, op: str, grad: IndexedSlices) -> _Gathered:
        """A sparse gradient combined over the workers and kept sparse: every worker's
        rows and indices concatenated (rows of one index add up when applied), divided
        by the number of workers for MEAN."""
        parts = self._group.all_gather([_numpy(grad.values), _numpy(grad.indices)])
        values = np.concatenate([p[0] for p in parts])
        if op == "MEAN":
            values = (values / len(parts)).astype(values.dtype)
        return _Gathered(IndexedSlices(convert_to_tensor(values),
                                       convert_to_tensor(np.concatenate([p[1] for p in parts])),
                                       grad.dense_shape))

    def _all_gather(self, value: Any, axis: int) -> Any:
        def gather(t: Any) -> Any:
            parts = self._group.all_gather([_numpy(t)])
            return convert_to_tensor(np.concatenate([p[0] for p in parts], axis=axis))
        return nest.map_structure(gather, value)

    def _sync_new_variables(self) -> None:
        if self._group.rejoining:     # a new worker: its values come from the survivors
            self._synced = len(self._variables)
            return
        new = self._variables[self._synced:]
        if new:
            values = self._group.broadcast([v.numpy() for v in new], root=0)
            for v, value in zip(new, values):
                v.assign(value)
        self._synced = len(self._variables)

    def _reset_step(self) -> None:
        """Forgets an interrupted step (a PreemptionCheckpointHandler runs it again)."""
        self._snapshot = None
        self._written = {}
        self._start = None
        self._graph_marks = None
        self._synced = len(self._variables)

    # -- variables the replica function writes --------------------------------------------
    def _candidates(self) -> list:
        return [v for v in self._variables
                if not v.trainable and v.dtype.is_floating]

    def _combine(self, variables: list, before: list, after: list) -> list:
        """The workers' values of ``variables`` after a replica step, made equal: an ON_READ
        variable aggregated by SUM (a Keras metric's total and count) gets every worker's
        change (``before + sum(after - before)``), the others (batch normalization's moving
        statistics: ON_READ, MEAN) the workers' mean."""
        summed = [_sums_on_read(v) for v in variables]
        parts = [np.asarray(a, np.float64) - np.asarray(b, np.float64) if s
                 else np.asarray(a, np.float64)
                 for s, b, a in zip(summed, before, after)]
        sums = self._group.all_reduce(parts, "SUM")
        k = self._group.world_size
        return [(np.asarray(b, np.float64) + t if s else t / k).astype(v.dtype.as_numpy_dtype)
                for v, s, b, t in zip(variables, summed, before, sums)]

    def _take_snapshot(self) -> None:
        self._snapshot = {id(v): np.array(v.numpy(), copy=True) for v in self._candidates()}
        if self._start is None:
            self._start = dict(self._snapshot)

    def _mark_written(self) -> None:
        for v in self._candidates():
            before = self._snapshot.get(id(v))
            if before is None or not np.array_equal(before, v.numpy()):
                self._written[id(v)] = v

    def _sync_written(self) -> None:
        written = [v for v in self._candidates() if id(v) in self._written]
        if written:
            values = self._combine(written, [self._start[id(v)] for v in written],
                                   [v.numpy() for v in written])
            for v, value in zip(written, values):
                v.assign(value)

    def _graph_run(self, fn: Callable, args: tuple, kwargs: dict) -> Any:
        """``run`` inside a tf.function trace (Keras ``fit``'s step): the variables the
        replica function writes outside merge calls are combined by one collective op
        after it."""
        from flowgrad.runtime.function import init_scope
        from flowgrad.ops.script_ops import numpy_function
        with init_scope():
            self._sync_new_variables()
        graph = get_default_graph()
        last_write = getattr(graph, "_last_write", None)
        candidates = self._candidates() if last_write is not None else []
        before = [v.read_value() for v in candidates]
        self._graph_marks = [dict(last_write or {}), set()]
        with _WorkerReplicaContext(self, self._group.rank):
            result = fn(*args, **kwargs)
        self._note_graph_writes()
        written_ids = self._graph_marks[1]
        self._graph_marks = None
        pairs = [(v, b) for v, b in zip(candidates, before) if id(v) in written_ids]
        if pairs and self._group.world_size > 1:
            variables = [v for v, _ in pairs]
            afters = [v.read_value() for v in variables]
            outs = numpy_function(
                lambda *a: self._combine(variables, a[:len(variables)], a[len(variables):]),
                [b for _, b in pairs] + afters, [v.dtype for v in variables],
                name="CollectiveSyncOnRead")
            for v, o in zip(variables, nest.flatten(outs)):
                v.assign(o)
        with init_scope():
            self._sync_new_variables()
        return result

    def _note_graph_writes(self) -> None:
        """Adds the variables written since the last mark to the written set."""
        marks = getattr(self, "_graph_marks", None)
        if marks is None:
            return
        graph = get_default_graph()
        now = dict(getattr(graph, "_last_write", {}))
        for key, op in now.items():
            if marks[0].get(key) is not op:
                marks[1].add(key)
        marks[0] = now

    # -- the strategy API ----------------------------------------------------------------
    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None,
            options: Any = None) -> Any:
        """``fn(*args, **kwargs)`` on this worker's replica, in its replica context."""
        if not executing_eagerly():
            return self._graph_run(fn, args, dict(kwargs or {}))
        self._sync_new_variables()
        self._written = {}
        self._start = None
        self._take_snapshot()
        with _WorkerReplicaContext(self, self._group.rank):
            result = fn(*args, **(kwargs or {}))
        self._mark_written()
        self._sync_written()
        self._sync_new_variables()
        self._snapshot = None
        return result

    def _merge_call(self, replica_id: int, merge_fn: Callable, args: tuple, kwargs: dict
                    ) -> Any:
        if self._snapshot is not None and executing_eagerly():
            self._mark_written()
        if not executing_eagerly():
            self._note_graph_writes()
        result = super()._merge_call(replica_id, merge_fn, args, kwargs)
        if self._snapshot is not None and executing_eagerly():
            self._take_snapshot()
        marks = getattr(self, "_graph_marks", None)
        if marks is not None and not executing_eagerly():
            marks[0] = dict(getattr(get_default_graph(), "_last_write", {}))
        return result

    def reduce(self, reduce_op: Any, value: Any, axis: int | None = None) -> Any:
        """This worker's ``value`` combined over the workers (``SUM`` or ``MEAN``), and over
        ``axis`` of each where given (the mean then is over every element)."""
        op = _op_name(reduce_op)
        if isinstance(value, PerReplica):
            value = value.values[0]
        if axis is None:
            return self._all_reduce(op, value)

        def reduce_axis(t: Any) -> Any:
            t = convert_to_tensor(t)
            if t.shape.rank == 0:     # a scalar (Keras fit's metric results): one element
                t = array_ops.reshape(t, [1])
            total = math_ops.reduce_sum(t, axis=axis)
            if op == "SUM":
                return self._all_reduce("SUM", total)
            count = math_ops.cast(array_ops.shape(t)[axis], total.dtype)
            total, count = self._all_reduce("SUM", [total, count])
            return total / count
        return nest.map_structure(reduce_axis, value)

    def gather(self, value: Any, axis: int) -> Any:
        """Every worker's ``value`` concatenated along ``axis``, in rank order."""
        if isinstance(value, PerReplica):
            value = value.values[0]
        return self._all_gather(value, axis)

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        """``dataset``'s global batches, of which this worker takes its part (split along
        the first axis as evenly as possible, worker 0 first)."""
        return _WorkerDataset(dataset, self._group.world_size, self._group.rank)

    def distribute_datasets_from_function(self, dataset_fn: Callable,
                                          options: Any = None) -> Any:
        """``dataset_fn(InputContext)`` for this worker's input pipeline."""
        k = self._group.world_size
        return dataset_fn(InputContext(k, self._group.rank, k))

    def experimental_distribute_values_from_function(self, value_fn: Callable) -> Any:
        ctx = distribute_lib.ValueContext()
        ctx.replica_id_in_sync_group = self._group.rank
        ctx.num_replicas_in_sync = self._group.world_size
        return value_fn(ctx)


def _sums_on_read(v: Any) -> bool:
    """Whether ``v`` is an ON_READ variable aggregated by SUM (a Keras metric's state)."""
    return (getattr(getattr(v, "synchronization", None), "name", "") == "ON_READ"
            and getattr(getattr(v, "aggregation", None), "name", "") == "SUM")


class _Gathered:
    """An IndexedSlices already combined over the workers."""

    def __init__(self, slices: IndexedSlices):
        self.slices = slices


def _is_eager(t: Any) -> bool:
    """Whether ``t`` has a value now (not a symbolic tensor of a graph being built)."""
    return not isinstance(t, Tensor)


def _numpy(t: Any) -> np.ndarray:
    if hasattr(t, "numpy"):
        return np.asarray(t.numpy())
    return np.asarray(t)


class _WorkerResolver:
    """What ``strategy.cluster_resolver`` tells a worker about the cluster."""

    task_type = "worker"

    def __init__(self, task_id: int, num_workers: int):
        self.task_id = task_id
        self.num_workers = num_workers

    def __repr__(self) -> str:
        return "<cluster_resolver task_type='worker' task_id=%d of %d>" % (
            self.task_id, self.num_workers)


class _WorkerDataset:
    """This worker's part of every global batch of a dataset."""

    def __init__(self, dataset: Any, num_workers: int, rank: int):
        self._dataset = dataset
        self._k = num_workers
        self._rank = rank

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    def __iter__(self) -> Iterator[Any]:
        for batch in self._dataset:
            if self._k == 1:
                yield batch
            else:
                yield distribute_lib.select_replica(
                    self._rank, distribute_lib._split_batch(batch, self._k))

    def reduce(self, initial_state: Any, reduce_func: Callable) -> Any:
        state = initial_state
        for element in self:
            state = reduce_func(state, element)
        return state


__all__ = ["MultiWorkerMirroredStrategy"]
