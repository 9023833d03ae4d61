"""``tf.nn.compute_average_loss`` and ``tf.nn.scale_regularization_loss``: a per-replica loss
scaled so that summing it over the replicas of a ``tf.distribute`` strategy gives the
global average (one replica outside a strategy)."""
from __future__ import annotations

from typing import Any

from flowgrad.distribute.distribute_lib import get_strategy, has_strategy, \
    in_cross_replica_context
from flowgrad.framework import errors
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.math_ops import multiply, reduce_sum
from flowgrad.ops.shape_ops import shape

_CROSS_REPLICA = ("You are calling `%s` in cross replica context, while it was expected to be "
                  "called in replica context.")


def _replicas(fn: str) -> int:
    if has_strategy() and in_cross_replica_context():
        raise RuntimeError(_CROSS_REPLICA % fn)
    return get_strategy().num_replicas_in_sync


def compute_average_loss(per_example_loss: Any, sample_weight: Any = None,
                         global_batch_size: Any = None) -> Any:
    """``sum(per_example_loss * sample_weight) / global_batch_size``.

    Args:
      per_example_loss: the losses of this replica's examples, rank 1 or more.
      sample_weight: optional weights, broadcast against the losses.
      global_batch_size: the batch size over all replicas; by default this replica's batch
        size (the losses' first dimension) times the number of replicas.

    Returns:
      A scalar of the losses' dtype.

    Raises:
      ValueError: ``per_example_loss`` is a scalar.
      InvalidArgumentError: ``global_batch_size`` is not a scalar integer.
      RuntimeError: called in a strategy's cross-replica context.
    """
    given = per_example_loss
    per_example_loss = convert_to_tensor(per_example_loss)
    dtype = per_example_loss.dtype
    if per_example_loss.shape.rank == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with "
                         "at least rank 1. Received per_example_loss=%s with rank 0" % (given,))
    if sample_weight is not None:
        per_example_loss = multiply(per_example_loss, cast(convert_to_tensor(sample_weight),
                                                           dtype))
    if global_batch_size is None:
        global_batch_size = shape(per_example_loss)[0] * _replicas("compute_average_loss")
    else:
        size = convert_to_tensor(global_batch_size)
        if size.shape.rank != 0 or not size.dtype.is_integer:
            raise errors.InvalidArgumentError(
                None, None, "global_batch_size must be a scalar integer, got %r"
                % (global_batch_size,))
    return reduce_sum(per_example_loss) / cast(global_batch_size, dtype)


def scale_regularization_loss(regularization_loss: Any) -> Any:
    """``sum(regularization_loss) / num_replicas_in_sync``: the share of one replica.

    Args:
      regularization_loss: The regularization losses (a scalar or a tensor summed).

    Returns:
      A scalar tensor.

    Raises:
      RuntimeError: called in a strategy's cross-replica context.
    """
    replicas = _replicas("scale_regularization_loss")
    loss = convert_to_tensor(regularization_loss)
    return reduce_sum(loss) / cast(replicas, loss.dtype)


__all__ = ["compute_average_loss", "scale_regularization_loss"]
