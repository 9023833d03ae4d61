"""TensorFlow 1.15's ``tf.contrib.seq2seq.sequence_loss``: the weighted cross-entropy of a
[batch, time, classes] logits sequence, averaged or summed over time and batch."""
from __future__ import annotations

from collections.abc import Callable

from flowgrad.compat import v1 as _tf
from flowgrad.framework.type_hints import TensorLike


def sequence_loss(logits: TensorLike, targets: TensorLike, weights: TensorLike,
                  average_across_timesteps: bool = True, average_across_batch: bool = True,
                  sum_over_timesteps: bool = False, sum_over_batch: bool = False,
                  softmax_loss_function: Callable | None = None,
                  name: str | None = None) -> TensorLike:
    """The weighted cross-entropy of a sequence of logits.

    Args:
      logits: [batch, time, classes] logits.
      targets: [batch, time] integer classes.
      weights: [batch, time] weights (a mask of the real steps, typically).
      average_across_timesteps: Divide the sum over time by the weights' sum.
      average_across_batch: Divide the sum over the batch by the weights' sum.
      sum_over_timesteps: Sum over time, divided by the number of nonzero weights.
      sum_over_batch: Sum over the batch, divided by the number of nonzero weights.
      softmax_loss_function: A ``fn(labels=, logits=)`` used instead of the sparse softmax
        cross-entropy.
      name: The name scope (``sequence_loss``).

    Returns:
      A scalar, or a [batch] or [time] vector when only one axis is reduced, or [batch, time].

    Raises:
      ValueError: wrong ranks, or averaging and summing over the same axis.
    """
    logits = _tf.convert_to_tensor(logits)
    targets = _tf.convert_to_tensor(targets)
    weights = _tf.convert_to_tensor(weights)
    if len(logits.get_shape()) != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if len(targets.get_shape()) != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if len(weights.get_shape()) != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to "
                         "True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at "
                         "same time.")
    with _tf.name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = _tf.shape(logits)[2]
        logits_flat = _tf.reshape(logits, [-1, num_classes])
        targets = _tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets,
                                                                       logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets, logits=logits_flat)
        crossent *= _tf.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return _tf.div_no_nan(_tf.reduce_sum(crossent), _tf.reduce_sum(weights))
        if sum_over_timesteps and sum_over_batch:
            count = _tf.cast(_tf.count_nonzero(weights), crossent.dtype)
            return _tf.div_no_nan(_tf.reduce_sum(crossent), count)
        crossent = _tf.reshape(crossent, _tf.shape(logits)[0:2])
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            return _tf.div_no_nan(_tf.reduce_sum(crossent, axis=axis),
                                  _tf.reduce_sum(weights, axis=axis))
        if sum_over_timesteps or sum_over_batch:
            axis = [0] if sum_over_batch else [1]
            count = _tf.cast(_tf.count_nonzero(weights, axis=axis), crossent.dtype)
            return _tf.div_no_nan(_tf.reduce_sum(crossent, axis=axis), count)
        return crossent


