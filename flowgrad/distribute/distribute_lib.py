"""``tf.distribute``'s strategy API (``tensorflow/python/distribute/distribute_lib.py``) for
one process on one device: the default strategy, its replica context, and
``MirroredStrategy``/``OneDeviceStrategy`` with the single replica a CPU has.

Code written for strategies (Keras 3's TensorFlow trainer and optimizers among it) runs
unchanged: ``strategy.run(fn)`` calls ``fn`` in the replica context, ``reduce`` and
``all_reduce`` of one replica are identities (a reduction over ``axis`` where given),
``extended.update(var, fn)`` calls ``fn(var)``. Strategies that need several devices,
hosts or TPUs raise ``NotImplementedError`` naming themselves. (flowgrad's multi-process
training on Ray is ``flowgrad.distribute.ParameterServerStrategy``.)"""
from __future__ import annotations

import contextlib
import enum
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flowgrad import nest
from flowgrad.ops import array_ops, math_ops


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
    """What ``distribute_datasets_from_function``'s function gets: one input pipeline."""

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
    """The context ``strategy.run``'s function runs in (one replica here)."""

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
        """Calls ``merge_fn(strategy, *args, **kwargs)`` in the cross-replica context."""
        _state.stack.append((self._strategy, None))
        try:
            return merge_fn(self._strategy, *args, **(kwargs or {}))
        finally:
            _state.stack.pop()

    def all_reduce(self, reduce_op: Any, value: Any, options: Any = None) -> Any:
        """``value`` (a nest of tensors) combined over the replicas: itself, for one."""
        _reduce_op(reduce_op)
        return nest.map_structure(lambda v: v if v is None else array_ops.identity(v), value)

    def all_gather(self, value: Any, axis: int, options: Any = None) -> Any:
        """``value`` concatenated over the replicas along ``axis``: itself, for one."""
        return nest.map_structure(array_ops.identity, value)


class StrategyExtended:
    """The strategy's lower-level API (``strategy.extended``)."""

    def __init__(self, strategy: Strategy, device: str):
        self._strategy = strategy
        self._device = device

    @property
    def worker_devices(self) -> tuple:
        return (self._device,)

    @property
    def parameter_devices(self) -> tuple:
        return (self._device,)

    @property
    def experimental_require_static_shapes(self) -> bool:
        return False

    @property
    def should_checkpoint(self) -> bool:
        return True

    def _in_multi_worker_mode(self) -> bool:
        return False

    def _use_merge_call(self) -> bool:
        return False

    def colocate_vars_with(self, colocate_with_variable: Any) -> Any:
        """A scope placing new variables with ``colocate_with_variable`` (one device here)."""
        return contextlib.nullcontext()

    def update(self, var: Any, fn: Callable, args: tuple = (), kwargs: dict | None = None,
               group: bool = True) -> Any:
        """``fn(var, *args, **kwargs)``, run where ``var`` lives."""
        return fn(var, *args, **(kwargs or {}))

    def value_container(self, value: Any) -> Any:
        return value

    def variable_created_in_scope(self, v: Any) -> bool:
        return True

    def reduce_to(self, reduce_op: Any, value: Any, destinations: Any, options: Any = None) -> Any:
        _reduce_op(reduce_op)
        return value

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: list,
                        options: Any = None) -> list:
        return [self.reduce_to(reduce_op, v, d) for v, d in value_destination_pairs]

    def call_for_each_replica(self, fn: Callable, args: tuple = (),
                              kwargs: dict | None = None) -> Any:
        return self._strategy.run(fn, args, kwargs)


class Strategy:
    """A distribution strategy of one replica (see the module docstring)."""

    _device = "/job:localhost/replica:0/task:0/device:CPU:0"

    def __init__(self, extended: StrategyExtended | None = None):
        self._extended = extended or StrategyExtended(self, self._device)

    @property
    def extended(self) -> StrategyExtended:
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        return 1

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
        try:
            yield self
        finally:
            _state.stack.pop()

    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None,
            options: Any = None) -> Any:
        """``fn(*args, **kwargs)`` on each replica (one), in its replica context."""
        with ReplicaContext(self, 0):
            return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op: Any, value: Any, axis: int | None = None) -> Any:
        """The per-replica ``value`` combined over replicas (and over ``axis`` if given)."""
        op = _reduce_op(reduce_op)
        if axis is None:
            return value
        fn = math_ops.reduce_sum if op is ReduceOp.SUM else math_ops.reduce_mean
        return nest.map_structure(lambda v: fn(v, axis=axis), value)

    def experimental_local_results(self, value: Any) -> tuple:
        """The per-replica parts of ``value`` on this worker."""
        return (value,)

    def gather(self, value: Any, axis: int) -> Any:
        """The per-replica ``value`` concatenated along ``axis``: itself, for one replica."""
        return value

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        """``dataset`` as each replica sees it: the dataset itself, for one replica."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn: Callable,
                                          options: Any = None) -> Any:
        """``dataset_fn(InputContext())``: one input pipeline."""
        return dataset_fn(InputContext())

    def experimental_distribute_values_from_function(self, value_fn: Callable) -> Any:
        return value_fn(ValueContext())

    def __repr__(self) -> str:
        return "<%s>" % type(self).__name__


class ValueContext:
    """What ``experimental_distribute_values_from_function``'s function gets."""

    replica_id_in_sync_group = 0
    num_replicas_in_sync = 1


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


class MirroredStrategy(Strategy):
    """Synchronous training on the local devices; with flowgrad's one CPU device, one
    replica (as TensorFlow's on a machine without GPUs).

    Raises:
      NotImplementedError: several devices are asked for.
    """

    def __init__(self, devices: Any = None, cross_device_ops: Any = None):
        if devices is not None and len(list(devices)) > 1:
            raise NotImplementedError("flowgrad's MirroredStrategy has one replica (the CPU); "
                                      "got devices %r" % (devices,))
        super().__init__()


def _unsupported(name: str) -> type:
    class Unsupported(Strategy):
        def __init__(self, *args: Any, **kwargs: Any):
            raise NotImplementedError("tf.distribute.%s needs TPUs or several workers, which "
                                      "flowgrad does not have; for multi-process training use "
                                      "flowgrad.distribute.ParameterServerStrategy on Ray." % name)
    Unsupported.__name__ = Unsupported.__qualname__ = name
    return Unsupported


TPUStrategy = _unsupported("TPUStrategy")
MultiWorkerMirroredStrategy = _unsupported("MultiWorkerMirroredStrategy")


class DistributedValues:
    """Values of the replicas (a single replica's strategies make none)."""


class DistributedDataset:
    """A dataset split over replicas (a single replica's strategies use the dataset)."""


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
           "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "ReduceOp",
           "ReplicaContext", "Strategy", "StrategyExtended", "TPUStrategy",
           "get_cross_replica_context", "get_replica_context", "get_strategy", "has_strategy",
           "in_cross_replica_context", "maybe_merge_call", "strategy_supports_no_merge_call"]
