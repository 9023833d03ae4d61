"""``tf.distribute``'s cross-device reductions (``CrossDeviceOps``, ``NcclAllReduce``,
``HierarchicalCopyAllReduce``, ``ReductionToOneDevice``) and the collective communication
options of ``tf.distribute.experimental``.

flowgrad's replicas share one process's memory, so every algorithm reduces the same way: the
per-replica values summed (divided by their count for ``MEAN``). A strategy accepts any of
them (``MirroredStrategy(cross_device_ops=...)``); called directly they reduce a
``PerReplica`` value as TensorFlow's do."""
from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from flowgrad.distribute.distribute_lib import ReduceOp
from flowgrad.ops.arithmetic_ops import add_n
from flowgrad.ops.cast_ops import cast


def _values(value: Any) -> tuple:
    return tuple(value.values) if hasattr(value, "values") else (value,)


class CrossDeviceOps:
    """The base of the cross-device reduction algorithms (``tf.distribute.CrossDeviceOps``)."""

    def reduce(self, reduce_op: ReduceOp, per_replica_value: Any, destinations: Any,
               options: Any = None) -> Any:
        """Reduces a per-replica value.

        Args:
          reduce_op: ``tf.distribute.ReduceOp.SUM`` or ``MEAN``.
          per_replica_value: A ``PerReplica`` value (or a tensor: one replica).
          destinations: Where the result goes (accepted: one process's memory).
          options: Accepted (``tf.distribute.experimental.CommunicationOptions``).

        Returns:
          The reduced tensor.
        """
        return self.reduce_implementation(reduce_op, per_replica_value, destinations, options)

    def batch_reduce(self, reduce_op: ReduceOp, value_destination_pairs: list,
                     options: Any = None) -> list:
        """Reduces each ``(per_replica_value, destinations)`` pair.

        Args:
          reduce_op: ``ReduceOp.SUM`` or ``MEAN``.
          value_destination_pairs: A list of ``(value, destinations)``.
          options: Accepted.

        Returns:
          The reduced tensors, in order.
        """
        return self.batch_reduce_implementation(reduce_op, value_destination_pairs, options)

    def broadcast(self, tensor: Any, destinations: Any) -> Any:
        """Broadcasts ``tensor`` to ``destinations`` (the same tensor: shared memory).

        Args:
          tensor: The tensor.
          destinations: Where it goes.

        Returns:
          The tensor.
        """
        return self.broadcast_implementation(tensor, destinations)

    def reduce_implementation(self, reduce_op: ReduceOp, per_replica_value: Any,
                              destinations: Any, options: Any) -> Any:
        """The reduction :meth:`reduce` runs.

        Args:
          reduce_op: ``ReduceOp.SUM`` or ``MEAN``.
          per_replica_value: The per-replica value.
          destinations: Accepted.
          options: Accepted.

        Raises:
          ValueError: ``reduce_op`` is not a ReduceOp.
        """
        if isinstance(reduce_op, str):
            reduce_op = ReduceOp(reduce_op.upper())
        if not isinstance(reduce_op, ReduceOp):
            raise ValueError("reduce_op must be a tf.distribute.ReduceOp, got %r" % (reduce_op,))
        values = _values(per_replica_value)
        total = values[0] if len(values) == 1 else add_n(list(values))
        if reduce_op == ReduceOp.MEAN and len(values) > 1:
            total = total / cast(len(values), total.dtype)
        return total

    def batch_reduce_implementation(self, reduce_op: ReduceOp, value_destination_pairs: list,
                                    options: Any) -> list:
        """The reductions :meth:`batch_reduce` runs.

        Args:
          reduce_op: ``ReduceOp.SUM`` or ``MEAN``.
          value_destination_pairs: A list of ``(value, destinations)``.
          options: Accepted.
        """
        return [self.reduce_implementation(reduce_op, value, dest, options)
                for value, dest in value_destination_pairs]

    def broadcast_implementation(self, tensor: Any, destinations: Any) -> Any:
        """The broadcast :meth:`broadcast` runs.

        Args:
          tensor: The tensor.
          destinations: Accepted.
        """
        return tensor


def _check_num_packs(num_packs: int, who: str) -> None:
    if num_packs < 0:
        raise ValueError("%s requires num_packs >= 0, but %d is specified" % (who, num_packs))


class NcclAllReduce(CrossDeviceOps):
    """NCCL all-reduce (``tf.distribute.NcclAllReduce``).

    Args:
      num_packs: How many packs the gradients are split into (>= 0).

    Raises:
      ValueError: ``num_packs`` is negative.
    """

    def __init__(self, num_packs: int = 1):
        _check_num_packs(num_packs, "NCCL all-reduce")
        self._num_packs = num_packs


class HierarchicalCopyAllReduce(CrossDeviceOps):
    """Hierarchical-copy all-reduce (``tf.distribute.HierarchicalCopyAllReduce``).

    Args:
      num_packs: How many packs the gradients are split into (>= 0).

    Raises:
      ValueError: ``num_packs`` is negative.
    """

    def __init__(self, num_packs: int = 1):
        _check_num_packs(num_packs, "HierarchicalCopy")
        self._num_packs = num_packs


class ReductionToOneDevice(CrossDeviceOps):
    """Reduces on one device, then broadcasts (``tf.distribute.ReductionToOneDevice``).

    Args:
      reduce_to_device: The device reducing (accepted).
      accumulation_fn: Sums a list of tensors (``tf.math.add_n`` when None).
    """

    def __init__(self, reduce_to_device: str | None = None,
                 accumulation_fn: Callable | None = None):
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn or add_n

    def reduce_implementation(self, reduce_op: ReduceOp, per_replica_value: Any,
                              destinations: Any, options: Any) -> Any:
        """Sums with ``accumulation_fn`` (divided by the count for ``MEAN``).

        Args:
          reduce_op: ``ReduceOp.SUM`` or ``MEAN``.
          per_replica_value: The per-replica value.
          destinations: Accepted.
          options: Accepted.
        """
        values = list(_values(per_replica_value))
        total = self.accumulation_fn(values)
        if ReduceOp(getattr(reduce_op, "value", reduce_op)) == ReduceOp.MEAN and len(values) > 1:
            total = total / cast(len(values), total.dtype)
        return total


class CommunicationImplementation(enum.Enum):
    """The collective implementation (``tf.distribute.experimental.
    CommunicationImplementation``; ``CollectiveCommunication`` is its other name)."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """Options of collective communication (``tf.distribute.experimental.
    CommunicationOptions``), accepted by the strategies and ``reduce``.

    Args:
      bytes_per_pack: Split the values into packs of about this many bytes (0: none).
      timeout_seconds: Fail a collective that takes longer (None: no limit).
      implementation: A ``CommunicationImplementation``.

    Raises:
      ValueError: a negative ``bytes_per_pack``.
    """

    def __init__(self, bytes_per_pack: int = 0, timeout_seconds: float | None = None,
                 implementation: CommunicationImplementation = CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError("bytes_per_pack must be non-negative, got %s" % bytes_per_pack)
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        if not isinstance(implementation, CommunicationImplementation):
            raise ValueError("implementation should be a tf.distribute.experimental."
                             "CommunicationImplementation")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation
