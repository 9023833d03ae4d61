"""TensorFlow 1.15's ``tf.contrib.losses`` (deprecated there for ``tf.losses``): the same
losses with contrib's argument order (predictions or logits first) and names."""
from __future__ import annotations

from flowgrad.compat import v1 as _tf
from flowgrad.framework.type_hints import TensorLike

add_loss = _tf.losses.add_loss
compute_weighted_loss = _tf.losses.compute_weighted_loss
get_losses = _tf.losses.get_losses
get_regularization_losses = _tf.losses.get_regularization_losses
get_total_loss = _tf.losses.get_total_loss


def absolute_difference(predictions: TensorLike, labels: TensorLike | None = None,
                        weights: TensorLike = 1.0, scope: str | None = None) -> TensorLike:
    """``tf.losses.absolute_difference(labels, predictions, weights)``.

    Args:
      predictions: The predictions.
      labels: The targets, shaped as ``predictions``.
      weights: Loss weights (a scalar or broadcastable to the losses).
      scope: The name scope.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.absolute_difference(labels, predictions, weights, scope=scope)


def mean_squared_error(predictions: TensorLike, labels: TensorLike | None = None,
                       weights: TensorLike = 1.0, scope: str | None = None) -> TensorLike:
    """``tf.losses.mean_squared_error(labels, predictions, weights)``.

    Args:
      predictions: The predictions.
      labels: The targets, shaped as ``predictions``.
      weights: Loss weights.
      scope: The name scope.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.mean_squared_error(labels, predictions, weights, scope=scope)


def log_loss(predictions: TensorLike, labels: TensorLike | None = None,
             weights: TensorLike = 1.0, epsilon: float = 1e-7,
             scope: str | None = None) -> TensorLike:
    """``tf.losses.log_loss(labels, predictions, weights, epsilon)``.

    Args:
      predictions: Predicted probabilities.
      labels: The 0/1 targets.
      weights: Loss weights.
      epsilon: Added inside the logarithms.
      scope: The name scope.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.log_loss(labels, predictions, weights, epsilon, scope=scope)


def cosine_distance(predictions: TensorLike, labels: TensorLike | None = None,
                    axis: int | None = None, weights: TensorLike = 1.0,
                    scope: str | None = None, dim: int | None = None) -> TensorLike:
    """``tf.losses.cosine_distance(labels, predictions, axis, weights)``.

    Args:
      predictions: Unit-normalized predictions.
      labels: Unit-normalized targets.
      axis: The axis of the vectors.
      weights: Loss weights.
      scope: The name scope.
      dim: The deprecated name of ``axis``.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.cosine_distance(labels, predictions, axis, weights, scope=scope, dim=dim)


def sigmoid_cross_entropy(logits: TensorLike, multi_class_labels: TensorLike,
                          weights: TensorLike = 1.0, label_smoothing: float = 0,
                          scope: str | None = None) -> TensorLike:
    """``tf.losses.sigmoid_cross_entropy(multi_class_labels, logits, ...)``.

    Args:
      logits: The logits.
      multi_class_labels: The 0/1 targets, shaped as ``logits``.
      weights: Loss weights.
      label_smoothing: Smooths the labels towards 1/2.
      scope: The name scope.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.sigmoid_cross_entropy(multi_class_labels, logits, weights,
                                            label_smoothing, scope=scope)


def softmax_cross_entropy(logits: TensorLike, onehot_labels: TensorLike,
                          weights: TensorLike = 1.0, label_smoothing: float = 0,
                          scope: str | None = None) -> TensorLike:
    """``tf.losses.softmax_cross_entropy(onehot_labels, logits, ...)``.

    Args:
      logits: [batch, classes] logits.
      onehot_labels: One-hot targets.
      weights: Loss weights (per example or scalar).
      label_smoothing: Smooths the labels towards uniform.
      scope: The name scope.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.softmax_cross_entropy(onehot_labels, logits, weights, label_smoothing,
                                            scope=scope)


def sparse_softmax_cross_entropy(logits: TensorLike, labels: TensorLike,
                                 weights: TensorLike = 1.0,
                                 scope: str | None = None) -> TensorLike:
    """``tf.losses.sparse_softmax_cross_entropy(labels, logits, weights)``.

    Args:
      logits: [batch, classes] logits.
      labels: Integer classes.
      weights: Loss weights.
      scope: The name scope.

    Returns:
      The weighted mean loss, a scalar.
    """
    return _tf.losses.sparse_softmax_cross_entropy(labels, logits, weights, scope=scope)


def hinge_loss(logits: TensorLike, labels: TensorLike | None = None,
               scope: str | None = None) -> TensorLike:
    """The unreduced hinge loss ``relu(1 - (2 labels - 1) logits)`` (contrib's: no weights, no
    mean).

    Args:
      logits: The logits.
      labels: The 0/1 targets, shaped as ``logits``.
      scope: The name scope.

    Returns:
      The per-element losses, shaped as ``logits``.
    """
    with _tf.name_scope(scope, "hinge_loss", [logits, labels]):
        logits = _tf.convert_to_tensor(logits)
        labels = _tf.cast(labels, logits.dtype)
        all_ones = _tf.ones_like(labels)
        labels = _tf.subtract(2 * labels, all_ones)
        return _tf.nn.relu(_tf.subtract(all_ones, _tf.multiply(labels, logits)))


__all__ = ["absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance",
           "get_losses", "get_regularization_losses", "get_total_loss", "hinge_loss",
           "log_loss", "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy"]


def __dir__() -> list:
    return sorted(__all__)
