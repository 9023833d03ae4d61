"""TensorFlow 1.15's ``tf.contrib.metrics``: the ``streaming_*`` metrics (``tf.metrics``' with
contrib's argument order, predictions first), ``streaming_mean``, ``streaming_auc``,
``accuracy`` and the aggregation helpers. Each streaming metric returns ``(value, update_op)``
over local variables, as ``tf.metrics``."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from flowgrad.compat import v1 as _tf
from flowgrad.framework.type_hints import TensorLike

_DOC = """``tf.metrics.%s(labels, predictions, weights, ...)``, predictions first.

    Args:
      predictions: The predictions.
      labels: The targets, shaped as ``predictions``.
      weights: Per-element weights, or None.
      metrics_collections: Collections for the value.
      updates_collections: Collections for the update op.
      name: The variable scope.

    Returns:
      ``(value, update_op)``.
    """


def _streaming(metric_name: str) -> Callable:
    def streaming(predictions: TensorLike, labels: TensorLike,
                  weights: TensorLike | None = None,
                  metrics_collections: Sequence[str] | None = None,
                  updates_collections: Sequence[str] | None = None,
                  name: str | None = None) -> tuple:
        return getattr(_tf.metrics, metric_name)(labels, predictions, weights,
                                                 metrics_collections, updates_collections, name)
    streaming.__name__ = streaming.__qualname__ = "streaming_" + metric_name
    streaming.__doc__ = _DOC % metric_name
    return streaming


streaming_accuracy = _streaming("accuracy")
streaming_precision = _streaming("precision")
streaming_recall = _streaming("recall")
streaming_mean_squared_error = _streaming("mean_squared_error")
streaming_mean_absolute_error = _streaming("mean_absolute_error")
streaming_root_mean_squared_error = _streaming("root_mean_squared_error")
streaming_true_positives = _streaming("true_positives")
streaming_false_positives = _streaming("false_positives")
streaming_false_negatives = _streaming("false_negatives")


def streaming_mean(values: TensorLike, weights: TensorLike | None = None,
                   metrics_collections: Sequence[str] | None = None,
                   updates_collections: Sequence[str] | None = None,
                   name: str | None = None) -> tuple:
    """``tf.metrics.mean``: the running (weighted) mean of ``values``.

    Args:
      values: The values.
      weights: Their weights, or None.
      metrics_collections: Collections for the value.
      updates_collections: Collections for the update op.
      name: The variable scope.

    Returns:
      ``(mean, update_op)``.
    """
    return _tf.metrics.mean(values, weights, metrics_collections, updates_collections, name)


def streaming_auc(predictions: TensorLike, labels: TensorLike,
                  weights: TensorLike | None = None, num_thresholds: int = 200,
                  metrics_collections: Sequence[str] | None = None,
                  updates_collections: Sequence[str] | None = None, curve: str = "ROC",
                  name: str | None = None) -> tuple:
    """``tf.metrics.auc(labels, predictions, ...)``, predictions first.

    Args:
      predictions: Scores in [0, 1].
      labels: The 0/1 targets.
      weights: Per-element weights, or None.
      num_thresholds: The number of thresholds of the curve.
      metrics_collections: Collections for the value.
      updates_collections: Collections for the update op.
      curve: ``"ROC"`` or ``"PR"``.
      name: The variable scope.

    Returns:
      ``(auc, update_op)``.
    """
    return _tf.metrics.auc(labels, predictions, weights, num_thresholds, metrics_collections,
                           updates_collections, curve, name)


def accuracy(predictions: TensorLike, labels: TensorLike, weights: TensorLike | None = None,
             name: str | None = None) -> TensorLike:
    """The (weighted) fraction of ``predictions`` equal to ``labels``, computed at once (not a
    streaming metric).

    Args:
      predictions: The predicted classes.
      labels: The true classes, shaped as ``predictions``.
      weights: Per-element weights, or None.
      name: The name scope.

    Returns:
      A scalar float32 tensor.

    Raises:
      ValueError: ``predictions`` and ``labels`` have different dtypes.
    """
    with _tf.name_scope(name, "accuracy", values=[predictions, labels]):
        predictions = _tf.convert_to_tensor(predictions)
        labels = _tf.convert_to_tensor(labels)
        if predictions.dtype != labels.dtype:
            raise ValueError("Dtypes of predictions and labels should match. Given: "
                             "predictions (%s) and labels (%s)"
                             % (predictions.dtype, labels.dtype))
        is_correct = _tf.cast(_tf.equal(predictions, labels), _tf.float32)
        if weights is not None:
            weights = _tf.cast(weights, _tf.float32)
            return _tf.div(_tf.reduce_sum(is_correct * weights), _tf.reduce_sum(weights))
        return _tf.reduce_mean(is_correct)


def aggregate_metrics(*value_update_tuples: tuple) -> tuple:
    """Splits ``(value, update_op)`` pairs into a list of values and a list of update ops.

    Args:
      *value_update_tuples: The metrics' pairs.

    Returns:
      ``(values, update_ops)``.

    Raises:
      ValueError: no pair is given.
    """
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    values, updates = zip(*value_update_tuples)
    return list(values), list(updates)


def aggregate_metric_map(names_to_tuples: dict) -> tuple:
    """Splits a dict of ``(value, update_op)`` pairs into a dict of values and a dict of update
    ops, by the same names.

    Args:
      names_to_tuples: Metric names to their pairs.

    Returns:
      ``(names_to_values, names_to_updates)``.
    """
    names = list(names_to_tuples.keys())
    values, updates = aggregate_metrics(*names_to_tuples.values())
    return dict(zip(names, values)), dict(zip(names, updates))


__all__ = ["accuracy", "aggregate_metric_map", "aggregate_metrics", "streaming_accuracy",
           "streaming_auc", "streaming_false_negatives", "streaming_false_positives",
           "streaming_mean", "streaming_mean_absolute_error", "streaming_mean_squared_error",
           "streaming_precision", "streaming_recall", "streaming_root_mean_squared_error",
           "streaming_true_positives"]


def __dir__() -> list:
    return sorted(__all__)
