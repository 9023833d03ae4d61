"""``tf.distribute``'s strategy API (``tensorflow/python/distribute/distribute_lib.py``):
the default strategy, replica and cross-replica contexts, ``PerReplica`` values and
``OneDeviceStrategy``; ``MirroredStrategy`` (several replicas) is in ``mirrored``,
``MultiWorkerMirroredStrategy`` (several Ray workers) in ``multi_worker``.

Code written for strategies (Keras 3's TensorFlow trainer and optimizers among it) runs
unchanged: ``strategy.run(fn)`` calls ``fn`` in the replica context, ``reduce`` and
``all_reduce`` of one replica are identities (a reduction over ``axis`` where given),
``extended.update(var, fn)`` calls ``fn(var)``. With several replicas ``run`` returns
``PerReplica`` values, ``merge_call``/``all_reduce`` meet the other replicas
(``Strategy._merge_call``, which a strategy of several replicas overrides), and distributed
datasets give each replica its part. ``TPUStrategy`` raises ``NotImplementedError``."""
from __future__ import annotations

import contextlib
import enum
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.ops import array_ops, math_ops, state_ops


class ReduceOp(enum.Enum):
    """How values of the replicas are combined."""
    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation: Any) -> ReduceOp:
        """The ReduceOp of a ``tf.VariableAggregation`` (SUM or MEAN).

        Raises:
          ValueError: another aggregation.
        """
        name = getattr(aggregation, "name", str(aggregation)).upper()
        if name in ("SUM", "MEAN"):
            return ReduceOp[name]
        raise ValueError("Could not convert from `tf.VariableAggregation` %s to "
                         "`tf.distribute.ReduceOp` type" % (aggregation,))


def _reduce_op(op: Any) -> ReduceOp:
    return op if isinstance(op, ReduceOp) else ReduceOp(str(op).upper())


class _State(threading.local):
    def __init__(self) -> None:
        self.stack: list = []     # (strategy, replica context or None for cross-replica)


_state = _State()


class InputContext:
    """What ``distribute_datasets_from_function``'s function gets: one input pipeline.

    Args:
        num_input_pipelines: How many input pipelines there are.
        input_pipeline_id: Which one this is (0-based).
        num_replicas_in_sync: The replicas that train in step.
    """

    def __init__(self, num_input_pipelines: int = 1, input_pipeline_id: int = 0,
                 num_replicas_in_sync: int = 1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """``global_batch_size`` split over the replicas.

        Raises:
          ValueError: it does not divide evenly.
        """
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError("The `global_batch_size` %r is not divisible by "
                             "`num_replicas_in_sync` %r " % (global_batch_size,
                                                             self.num_replicas_in_sync))
        return global_batch_size // self.num_replicas_in_sync


class ReplicaContext:
    """The context ``strategy.run``'s function runs in (one replica here).

    Args:
        strategy: The strategy whose replica this is.
        replica_id_in_sync_group: The replica's index among those in sync.
    """

    def __init__(self, strategy: Strategy, replica_id_in_sync_group: int = 0):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group

    def __enter__(self) -> ReplicaContext:
        _state.stack.append((self._strategy, self))
        return self

    def __exit__(self, *exc: Any) -> None:
        _state.stack.pop()

    @property
    def strategy(self) -> Strategy:
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> Any:
        from flowgrad.framework.tensor import constant
        return constant(self._replica_id, name="replica_id_in_sync_group")

    @property
    def devices(self) -> tuple:
        return self._strategy.extended.worker_devices

    def merge_call(self, merge_fn: Callable, args: tuple = (), kwargs: dict | None = None) -> Any:
        """Calls ``merge_fn(strategy, *args, **kwargs)`` once, in the cross-replica context;
        with several replicas their arguments are gathered into PerReplica values and each
        replica gets the result."""
        return self._strategy._merge_call(self._replica_id, merge_fn, tuple(args),
                                          dict(kwargs or {}))

    def all_reduce(self, reduce_op: Any, value: Any, options: Any = None) -> Any:
        """``value`` (a nest of tensors) combined over the replicas (itself, for one);
        every replica gets the same result."""
        op = _reduce_op(reduce_op)
        if self.num_replicas_in_sync == 1:      # an IndexedSlices stays one (Keras's sparse
            return nest.map_structure(_copy, value)     # gradients reach update_step so)

        def merge(strategy: Strategy, per_replica: Any) -> Any:
            return nest.map_structure(lambda v: strategy.reduce(op, v, axis=None), per_replica)
        # each replica its own tensor of the result (TensorFlow's Mirrored value)
        return nest.map_structure(lambda v: v if v is None else array_ops.identity(v),
                                  self.merge_call(merge, (value,)))

    def all_gather(self, value: Any, axis: int, options: Any = None) -> Any:
        """``value`` concatenated over the replicas along ``axis``: itself, for one."""
        return nest.map_structure(array_ops.identity, value)


def _copy(value: Any) -> Any:
    """``value`` (a tensor, an IndexedSlices or None) as a new tensor of the same kind."""
    if value is None:
        return None
    if isinstance(value, IndexedSlices):
        return IndexedSlices(array_ops.identity(value.values), value.indices, value.dense_shape)
    return array_ops.identity(value)


class StrategyExtended:
    """The strategy's lower-level API (``strategy.extended``).

    Args:
        strategy: The strategy it belongs to.
        device: The device its variables live on.
    """

    def __init__(self, strategy: Strategy, device: str):
        self._strategy = strategy
        self._device = device

    @property
    def worker_devices(self) -> tuple:
        return getattr(self._strategy, "_devices", None) or (self._device,)

    @property
    def parameter_devices(self) -> tuple:
        return self.worker_devices

    @property
    def experimental_require_static_shapes(self) -> bool:
        return False

    @property
    def should_checkpoint(self) -> bool:
        return True

    def _in_multi_worker_mode(self) -> bool:
        return False

    def _use_merge_call(self) -> bool:
        return self._strategy.num_replicas_in_sync > 1

    def colocate_vars_with(self, colocate_with_variable: Any) -> Any:
        """A scope placing new variables with ``colocate_with_variable`` (one device here)."""
        return contextlib.nullcontext()

    def update(self, var: Any, fn: Callable, args: tuple = (), kwargs: dict | None = None,
               group: bool = True) -> Any:
        """``fn(var, *args, **kwargs)``, run where ``var`` lives. A mirrored variable is
        one copy here: ``fn`` runs once, with the first replica's part of PerReplica
        arguments (equal on every replica after an all-reduce)."""
        args, kwargs = select_replica(0, (tuple(args), dict(kwargs or {})))
        return fn(var, *args, **kwargs)

    def value_container(self, value: Any) -> Any:
        return value

    def variable_created_in_scope(self, v: Any) -> bool:
        return True

    def reduce_to(self, reduce_op: Any, value: Any, destinations: Any, options: Any = None) -> Any:
        if isinstance(value, PerReplica):
            return self._strategy.reduce(reduce_op, value, axis=None)
        _reduce_op(reduce_op)
        return value

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: list,
                        options: Any = None) -> list:
        return [self.reduce_to(reduce_op, v, d) for v, d in value_destination_pairs]

    def call_for_each_replica(self, fn: Callable, args: tuple = (),
                              kwargs: dict | None = None) -> Any:
        return self._strategy.run(fn, args, kwargs)


class Strategy:
    """A distribution strategy of one replica (see the module docstring).

    Args:
        extended: Its lower-level API (a StrategyExtended made for it when None).
        num_replicas: The replicas in sync.
    """

    _device = "/job:localhost/replica:0/task:0/device:CPU:0"

    def __init__(self, extended: StrategyExtended | None = None, num_replicas: int = 1):
        self._extended = extended or StrategyExtended(self, self._device)
        self._num_replicas = int(num_replicas)
        self._variables: list = []      # created under scope(), in creation order

    @property
    def extended(self) -> StrategyExtended:
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas

    @contextlib.contextmanager
    def scope(self) -> Iterator[Strategy]:
        """Makes this the current strategy (cross-replica context) inside the block.

        Raises:
          RuntimeError: another strategy's scope is open.
        """
        current = get_strategy()
        if current is not self and has_strategy() and self is not _default:
            raise RuntimeError("Mixing different tf.distribute.Strategy objects: %s is not %s"
                               % (self, current))
        _state.stack.append((self, None))
        state_ops.VARIABLE_CREATED.append(self._variables.append)
        try:
            yield self
        finally:
            state_ops.VARIABLE_CREATED.remove(self._variables.append)
            _state.stack.pop()

    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None,
            options: Any = None) -> Any:
        """``fn(*args, **kwargs)`` on each replica (one), in its replica context."""
        with ReplicaContext(self, 0):
            return fn(*args, **(kwargs or {}))

    def _merge_call(self, replica_id: int, merge_fn: Callable, args: tuple, kwargs: dict
                    ) -> Any:
        """``merge_fn(self, *args, **kwargs)`` in the cross-replica context (one replica;
        strategies of several override it)."""
        with _cross_replica(self):
            return merge_fn(self, *args, **kwargs)

    def reduce(self, reduce_op: Any, value: Any, axis: int | None = None) -> Any:
        """The per-replica ``value`` combined over replicas (``SUM`` or ``MEAN``), and over
        ``axis`` of each where given (the mean then is over every element of all replicas).

        Raises:
          ValueError: a value that is not per-replica cannot be summed over several replicas.
        """
        op = _reduce_op(reduce_op)
        if nest.is_nested(value):
            return nest.map_structure(lambda v: self.reduce(op, v, axis), value)
        if not isinstance(value, PerReplica):
            if self._num_replicas > 1 and op is ReduceOp.SUM:
                raise ValueError("A non-DistributedValues value %s cannot be reduced with the "
                                 "given reduce op %s." % (value, op))
            if axis is None:
                return value
            fn = math_ops.reduce_sum if op is ReduceOp.SUM else math_ops.reduce_mean
            return nest.map_structure(lambda v: fn(v, axis=axis), value)
        parts = [convert_to_tensor(p) for p in value.values]
        if axis is not None:
            counts = [array_ops.shape(p)[axis] for p in parts]
            parts = [math_ops.reduce_sum(p, axis=axis) for p in parts]
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        if op is ReduceOp.MEAN:
            if axis is None:
                total = total / np.asarray(len(parts), total.dtype.as_numpy_dtype)
            else:
                count = counts[0]
                for c in counts[1:]:
                    count = count + c
                total = total / math_ops.cast(count, total.dtype)
        return total

    def experimental_local_results(self, value: Any) -> tuple:
        """The per-replica parts of ``value`` on this worker."""
        if isinstance(value, PerReplica):
            return value.values
        return (value,)

    def gather(self, value: Any, axis: int) -> Any:
        """The per-replica ``value`` concatenated along ``axis`` (itself, for one replica)."""
        if isinstance(value, PerReplica):
            return array_ops.concat(list(value.values), axis=axis)
        return value

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        """``dataset`` as the replicas see it: the dataset itself for one replica; with
        several, each global batch split along its first axis (a PerReplica per leaf)."""
        if self._num_replicas == 1:
            return dataset
        return DistributedDataset(dataset, self._num_replicas, split=True)

    def distribute_datasets_from_function(self, dataset_fn: Callable,
                                          options: Any = None) -> Any:
        """``dataset_fn(InputContext)`` for the one input pipeline; with several replicas its
        dataset's per-replica batches go to the replicas in turn."""
        dataset = dataset_fn(InputContext(1, 0, self._num_replicas))
        if self._num_replicas == 1:
            return dataset
        return DistributedDataset(dataset, self._num_replicas, split=False)

    def _sync_on_read_variables(self) -> list:
        """The variables that may be kept per replica and averaged on read: the
        non-trainable ones created under ``scope()``. Those a replica writes (batch
        normalization's moving statistics) are; those written once in the cross-replica
        context (an optimizer's ``iterations``) stay mirrored."""
        return [v for v in self._variables if not v.trainable]

    def experimental_distribute_values_from_function(self, value_fn: Callable) -> Any:
        """``value_fn(ValueContext)`` of each replica (a PerReplica with several)."""
        return regroup([value_fn(ValueContext(r, self._num_replicas))
                        for r in range(self._num_replicas)])

    def __repr__(self) -> str:
        return "<%s>" % type(self).__name__


class ValueContext:
    """What ``experimental_distribute_values_from_function``'s function gets.

    Args:
        replica_id_in_sync_group: The replica the value is for.
        num_replicas_in_sync: How many replicas there are.
    """

    def __init__(self, replica_id_in_sync_group: int = 0, num_replicas_in_sync: int = 1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


class _DefaultDistributionStrategy(Strategy):
    """The strategy in effect when no other is (``tf.distribute.get_strategy()``)."""


class OneDeviceStrategy(Strategy):
    """Places variables and computation on one device.

    Args:
      device: the device (flowgrad computes on the CPU).
    """

    def __init__(self, device: str = "/cpu:0"):
        super().__init__()
        self._device_name = device


def _unsupported(name: str) -> type:
    class Unsupported(Strategy):
        """A strategy flowgrad does not have: making one raises NotImplementedError.

        Args:
            *args: TensorFlow's arguments (unused).
            **kwargs: Likewise.

        Raises:
            NotImplementedError: always, naming the strategy.
        """

        def __init__(self, *args: Any, **kwargs: Any):
            raise NotImplementedError("tf.distribute.%s needs TPUs, which flowgrad does not "
                                      "have; for training in several processes use "
                                      "tf.distribute.MultiWorkerMirroredStrategy in a "
                                      "flowgrad.distribute.WorkerGroup on Ray." % name)
    Unsupported.__name__ = Unsupported.__qualname__ = name
    return Unsupported


TPUStrategy = _unsupported("TPUStrategy")


class DistributedValues:
    """Values of the replicas."""


class PerReplicaSpec(TypeSpec):
    """The TypeSpec of a PerReplica: its components are the replicas' values, so a
    tf.function takes a PerReplica argument apart into one input per replica."""

    def __init__(self, num_replicas: int):
        self._num_replicas = num_replicas

    @property
    def value_type(self) -> type:
        return PerReplica

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        return (isinstance(spec_or_value, (PerReplica, PerReplicaSpec))
                and spec_or_value._type_spec._num_replicas == self._num_replicas)

    @property
    def _type_spec(self) -> PerReplicaSpec:
        return self

    def _to_components(self, value: PerReplica) -> list:
        return list(value.values)

    def _from_components(self, components: list) -> PerReplica:
        return PerReplica(components)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PerReplicaSpec) and other._num_replicas == self._num_replicas

    def __hash__(self) -> int:
        return hash((PerReplicaSpec, self._num_replicas))


class PerReplica(DistributedValues, CompositeTensor):
    """One value per replica (what ``strategy.run`` returns and distributed datasets
    yield with several replicas); ``values`` holds them in replica order."""

    def __init__(self, values: Any):
        self._values = tuple(values)

    @property
    def _type_spec(self) -> PerReplicaSpec:
        return PerReplicaSpec(len(self._values))

    @property
    def values(self) -> tuple:
        return self._values

    def __str__(self) -> str:
        return "PerReplica:{\n%s\n}" % ",\n".join(
            "  %d: %s" % (i, v) for i, v in enumerate(self._values))

    def __repr__(self) -> str:
        return "PerReplica:{\n%s\n}" % ",\n".join(
            "  %d: %r" % (i, v) for i, v in enumerate(self._values))


def regroup(per_replica: list) -> Any:
    """Per-replica nested structures -> one structure of PerReplica leaves (a leaf that is
    the same object on every replica, a variable, stays itself, as in TensorFlow)."""
    if len(per_replica) == 1:
        return per_replica[0]
    leaves = [parts[0] if all(p is parts[0] for p in parts) else PerReplica(parts)
              for parts in zip(*[nest.flatten(v) for v in per_replica])]
    return nest.pack_sequence_as(per_replica[0], leaves)


def select_replica(replica_id: int, structure: Any) -> Any:
    """The part of ``structure`` (PerReplica leaves and plain values) for one replica."""
    return nest.map_structure(
        lambda v: v.values[replica_id] if isinstance(v, PerReplica) else v, structure)


class DistributedDataset:
    """A dataset for several replicas: each element a structure of PerReplica leaves,
    split from a global batch (``split``) or made of consecutive per-replica batches.

    Args:
        dataset: The ``tf.data.Dataset`` it iterates.
        num_replicas: The replicas each element is for.
        split: Whether each element is one global batch to split (else ``num_replicas``
            consecutive elements are the replicas' batches).
    """

    def __init__(self, dataset: Any, num_replicas: int, split: bool):
        self._dataset = dataset
        self._k = num_replicas
        self._split = split

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    @property
    def cardinality(self) -> np.int64:
        """The number of elements (a NumPy int64, as TensorFlow's: -1 infinite, -2
        unknown)."""
        n = int(self._dataset.cardinality())
        if n >= 0 and not self._split:
            n = -(-n // self._k)
        return np.int64(n)

    def __iter__(self) -> Iterator[Any]:
        if self._split:
            for batch in self._dataset:
                yield _split_batch(batch, self._k)
            return
        parts: list = []
        for element in self._dataset:
            parts.append(element)
            if len(parts) == self._k:
                yield regroup(parts)
                parts = []
        if parts:
            yield regroup(parts + [_empty_like(parts[0])] * (self._k - len(parts)))

    def reduce(self, initial_state: Any, reduce_func: Callable) -> Any:
        state = initial_state
        for element in self:
            state = reduce_func(state, element)
        return state


# Keras 3 takes a dataset as TensorFlow's by its class's module (is_tf_dataset).
DistributedDataset.__module__ = "tensorflow.python.distribute.input_lib"


def _split_batch(batch: Any, k: int) -> Any:
    """One structure whose leaves are PerReplica(k slices along axis 0)."""
    def split(t: Any) -> PerReplica:
        arr = t.numpy() if is_tensor(t) else np.asarray(t)
        n = arr.shape[0]
        bounds = np.cumsum([0] + [n // k + (1 if r < n % k else 0) for r in range(k)])
        return PerReplica([convert_to_tensor(arr[bounds[r]:bounds[r + 1]]) for r in range(k)])
    return nest.map_structure(split, batch)


def _empty_like(element: Any) -> Any:
    return nest.map_structure(
        lambda t: convert_to_tensor(np.zeros((0,) + tuple(np.shape(t))[1:],
                                             np.asarray(t).dtype)), element)


@contextlib.contextmanager
def _cross_replica(strategy: Strategy) -> Iterator[None]:
    _state.stack.append((strategy, None))
    try:
        yield
    finally:
        _state.stack.pop()


class DistributedIterator:
    """An iterator of a DistributedDataset."""


_default = _DefaultDistributionStrategy()
_default_replica = ReplicaContext(_default, 0)


def _top() -> tuple:
    return _state.stack[-1] if _state.stack else (_default, _default_replica)


def get_strategy() -> Strategy:
    """The current strategy (the default one outside any ``scope()``)."""
    return _top()[0]


def has_strategy() -> bool:
    """Whether a strategy other than the default one is current."""
    return _top()[0] is not _default


def in_cross_replica_context() -> bool:
    """Whether code runs in a strategy's scope but outside ``strategy.run``."""
    return _top()[1] is None


def get_replica_context() -> ReplicaContext | None:
    """The current replica context; None in the cross-replica context."""
    return _top()[1]


def get_cross_replica_context() -> Strategy | None:
    """The current strategy in the cross-replica context; None in a replica context."""
    strategy, replica = _top()
    return strategy if replica is None else None


def strategy_supports_no_merge_call() -> bool:
    """Whether the current strategy's updates need no ``merge_call``."""
    return not has_strategy() or not get_strategy().extended._use_merge_call()


def maybe_merge_call(fn: Callable, strategy: Strategy, *args: Any, **kwargs: Any) -> Any:
    """``fn(strategy, *args, **kwargs)``, through ``merge_call`` where the strategy needs it."""
    if strategy_supports_no_merge_call():
        return fn(strategy, *args, **kwargs)
    return get_replica_context().merge_call(fn, args=args, kwargs=kwargs)


__all__ = ["DistributedDataset", "DistributedIterator", "DistributedValues", "InputContext",
           "OneDeviceStrategy", "PerReplica", "ReduceOp",
           "ReplicaContext", "Strategy", "StrategyExtended", "TPUStrategy",
           "get_cross_replica_context", "get_replica_context", "get_strategy", "has_strategy",
           "in_cross_replica_context", "maybe_merge_call", "strategy_supports_no_merge_call"]
