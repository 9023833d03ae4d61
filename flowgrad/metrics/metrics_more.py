"""More of ``tf.compat.v1.metrics``, as TensorFlow 2.21's ``metrics_impl``: ``true_negatives``,
the counters at thresholds, ``precision_at_thresholds`` / ``recall_at_thresholds``,
``mean_iou``, ``mean_per_class_accuracy``, ``mean_tensor``, ``mean_relative_error``,
``mean_cosine_distance`` and ``percentage_below``. Each returns ``(value, update_op)`` over
local variables (names and scopes as TensorFlow's)."""
from __future__ import annotations

from collections.abc import Sequence

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.metrics.metrics_impl import (_bool_inputs, _broadcast_weights, _check_collections,
                                           _collect, _confusion_at_thresholds,
                                           _count_condition, _graph_only,
                                           _remove_squeezable_dimensions, mean, metric_variable)
from flowgrad.ops.array_ops import ones, ones_like, reshape, size, zeros_like
from flowgrad.ops.confusion_matrix_ops import confusion_matrix
from flowgrad.ops.linalg_ops import diag_part
from flowgrad.ops.comparison_ops import less, not_equal
from flowgrad.ops.math_ops import (abs, cast, div_no_nan, divide, equal, greater, logical_and,
                                   logical_not, maximum, multiply, reduce_sum, subtract, where)
from flowgrad.ops.reduction_ops import reduce_mean
from flowgrad.ops.variable_scatter_ops import scatter_add
from flowgrad.ops.variable_scope import variable_scope

_Collections = Sequence[str] | None


def true_negatives(labels: TensorLike, predictions: TensorLike,
                   weights: TensorLike | None = None, metrics_collections: _Collections = None,
                   updates_collections: _Collections = None,
                   name: str | None = None) -> tuple:
    """The (weighted) number of true negatives: ``(count, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values (cast to bool).
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``true_negatives``).

    Returns:
        ``(count, update_op)``.
    """
    _graph_only("true_negatives")
    with variable_scope(name, "true_negatives", (predictions, labels, weights)):
        predictions, labels, weights = _bool_inputs(labels, predictions, weights)
        return _count_condition(logical_and(logical_not(labels), logical_not(predictions)),
                                weights, metrics_collections, updates_collections)


def _at_thresholds(key: str, scope: str, labels: TensorLike, predictions: TensorLike,
                   thresholds: Sequence[float], weights: TensorLike | None,
                   metrics_collections: _Collections, updates_collections: _Collections,
                   name: str | None) -> tuple:
    _graph_only(scope + "_at_thresholds")
    with variable_scope(name, scope, (predictions, labels, weights)):
        values, updates = _confusion_at_thresholds(labels, predictions, list(thresholds),
                                                   weights, includes=(key,))
        return _collect(values[key], updates[key], metrics_collections, updates_collections)


def true_positives_at_thresholds(labels: TensorLike, predictions: TensorLike,
                                 thresholds: Sequence[float], weights: TensorLike | None = None,
                                 metrics_collections: _Collections = None,
                                 updates_collections: _Collections = None,
                                 name: str | None = None) -> tuple:
    """The (weighted) true positives of ``predictions > threshold``, per threshold.

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        thresholds: The thresholds.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``true_positives``).

    Returns:
        ``(counts, update_op)``, each of shape [len(thresholds)].
    """
    return _at_thresholds("tp", "true_positives", labels, predictions, thresholds, weights,
                          metrics_collections, updates_collections, name)


def false_positives_at_thresholds(labels: TensorLike, predictions: TensorLike,
                                  thresholds: Sequence[float],
                                  weights: TensorLike | None = None,
                                  metrics_collections: _Collections = None,
                                  updates_collections: _Collections = None,
                                  name: str | None = None) -> tuple:
    """The (weighted) false positives of ``predictions > threshold``, per threshold.

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        thresholds: The thresholds.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``false_positives``).

    Returns:
        ``(counts, update_op)``, each of shape [len(thresholds)].
    """
    return _at_thresholds("fp", "false_positives", labels, predictions, thresholds, weights,
                          metrics_collections, updates_collections, name)


def true_negatives_at_thresholds(labels: TensorLike, predictions: TensorLike,
                                 thresholds: Sequence[float], weights: TensorLike | None = None,
                                 metrics_collections: _Collections = None,
                                 updates_collections: _Collections = None,
                                 name: str | None = None) -> tuple:
    """The (weighted) true negatives of ``predictions > threshold``, per threshold.

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        thresholds: The thresholds.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``true_negatives``).

    Returns:
        ``(counts, update_op)``, each of shape [len(thresholds)].
    """
    return _at_thresholds("tn", "true_negatives", labels, predictions, thresholds, weights,
                          metrics_collections, updates_collections, name)


def false_negatives_at_thresholds(labels: TensorLike, predictions: TensorLike,
                                  thresholds: Sequence[float],
                                  weights: TensorLike | None = None,
                                  metrics_collections: _Collections = None,
                                  updates_collections: _Collections = None,
                                  name: str | None = None) -> tuple:
    """The (weighted) false negatives of ``predictions > threshold``, per threshold.

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        thresholds: The thresholds.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``false_negatives``).

    Returns:
        ``(counts, update_op)``, each of shape [len(thresholds)].
    """
    return _at_thresholds("fn", "false_negatives", labels, predictions, thresholds, weights,
                          metrics_collections, updates_collections, name)


def _ratio_at_thresholds(metric: str, other: str, labels: TensorLike, predictions: TensorLike,
                         thresholds: Sequence[float], weights: TensorLike | None,
                         metrics_collections: _Collections, updates_collections: _Collections,
                         name: str | None) -> tuple:
    _graph_only(metric)
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, metric, (predictions, labels, weights)):
        values, updates = _confusion_at_thresholds(labels, predictions, list(thresholds),
                                                   weights, includes=("tp", other))
        epsilon = 1e-7
        short = metric.split("_")[0]

        def ratio(c: dict, op_name: str) -> TensorLike:
            return divide(c["tp"], epsilon + c["tp"] + c[other], name=short + "_" + op_name)
        return _collect(ratio(values, "value"), ratio(updates, "update_op"),
                        metrics_collections, updates_collections)


def precision_at_thresholds(labels: TensorLike, predictions: TensorLike,
                            thresholds: Sequence[float], weights: TensorLike | None = None,
                            metrics_collections: _Collections = None,
                            updates_collections: _Collections = None,
                            name: str | None = None) -> tuple:
    """``tp / (tp + fp + 1e-7)`` of ``predictions > threshold``, per threshold.

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        thresholds: The thresholds.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``precision_at_thresholds``).

    Returns:
        ``(precision, update_op)``, each of shape [len(thresholds)].
    """
    return _ratio_at_thresholds("precision_at_thresholds", "fp", labels, predictions,
                                thresholds, weights, metrics_collections, updates_collections,
                                name)


def recall_at_thresholds(labels: TensorLike, predictions: TensorLike,
                         thresholds: Sequence[float], weights: TensorLike | None = None,
                         metrics_collections: _Collections = None,
                         updates_collections: _Collections = None,
                         name: str | None = None) -> tuple:
    """``tp / (tp + fn + 1e-7)`` of ``predictions > threshold``, per threshold.

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        thresholds: The thresholds.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``recall_at_thresholds``).

    Returns:
        ``(recall, update_op)``, each of shape [len(thresholds)].
    """
    return _ratio_at_thresholds("recall_at_thresholds", "fn", labels, predictions, thresholds,
                                weights, metrics_collections, updates_collections, name)


def _flat(x: TensorLike) -> TensorLike:
    return reshape(x, [-1]) if x.shape.ndims is not None and x.shape.ndims > 1 else x


def mean_iou(labels: TensorLike, predictions: TensorLike, num_classes: int,
             weights: TensorLike | None = None, metrics_collections: _Collections = None,
             updates_collections: _Collections = None, name: str | None = None) -> tuple:
    """The mean intersection-over-union of the classes present (semantic segmentation's
    metric), from a float64 confusion matrix accumulated over the updates.

    Args:
        labels: The true classes (any shape; flattened).
        predictions: The predicted classes, shaped as ``labels``.
        num_classes: The number of classes.
        weights: Weights shaped as ``labels``, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``mean_iou``).

    Returns:
        ``(mean_iou, update_op)``: the update op returns the confusion matrix.
    """
    _graph_only("mean_iou")
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        if not predictions.shape.is_compatible_with(labels.shape):
            raise ValueError("Shapes %s and %s are incompatible" % (predictions.shape,
                                                                    labels.shape))
        total_cm = metric_variable([num_classes, num_classes], dtypes.float64,
                                   name="total_confusion_matrix")
        predictions = _flat(cast(predictions, dtypes.int64))
        labels = _flat(cast(labels, dtypes.int64))
        if weights is not None:
            weights = _flat(convert_to_tensor(weights))
        current = confusion_matrix(labels, predictions, num_classes, weights=weights,
                                   dtype=dtypes.float64)
        update_op = total_cm.assign_add(current)
        cm = total_cm.value()
        sum_over_row = cast(reduce_sum(cm, 0), dtypes.float32)
        sum_over_col = cast(reduce_sum(cm, 1), dtypes.float32)
        cm_diag = cast(diag_part(cm), dtypes.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid = reduce_sum(cast(not_equal(denominator, 0), dtypes.float32))
        denominator = where(greater(denominator, 0), denominator, ones_like(denominator))
        iou = divide(cm_diag, denominator)
        value = where(greater(num_valid, 0), reduce_sum(iou, name="mean_iou") / num_valid,
                      0.0)
        return _collect(value, update_op, metrics_collections, updates_collections)


def mean_per_class_accuracy(labels: TensorLike, predictions: TensorLike, num_classes: int,
                            weights: TensorLike | None = None,
                            metrics_collections: _Collections = None,
                            updates_collections: _Collections = None,
                            name: str | None = None) -> tuple:
    """The mean over classes of each class's accuracy (the fraction of its examples predicted
    right).

    Args:
        labels: The true classes (any shape; flattened).
        predictions: The predicted classes, shaped as ``labels``.
        num_classes: The number of classes.
        weights: Weights shaped as ``labels``, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``mean_accuracy``).

    Returns:
        ``(mean_accuracy, update_op)``: the update op returns the per-class accuracies.
    """
    _graph_only("mean_per_class_accuracy")
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = _flat(cast(labels, dtypes.int64))
        predictions = _flat(convert_to_tensor(predictions))
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones_ = ones([size(labels)], dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = cast(predictions, labels.dtype)
        is_correct = cast(equal(predictions, labels), dtypes.float32)
        if weights is not None:
            weights = cast(_flat(convert_to_tensor(weights)), dtypes.float32)
            is_correct = is_correct * weights
            ones_ = ones_ * weights
        update_total = scatter_add(total, labels, ones_)
        update_count = scatter_add(count, labels, is_correct)
        per_class = div_no_nan(count.value(), maximum(total.value(), 0))
        value = reduce_mean(per_class, name="mean_accuracy")
        update_op = div_no_nan(update_count, maximum(update_total, 0), name="update_op")
        return _collect(value, update_op, metrics_collections, updates_collections)


def mean_tensor(values: TensorLike, weights: TensorLike | None = None,
                metrics_collections: _Collections = None,
                updates_collections: _Collections = None, name: str | None = None) -> tuple:
    """The element-wise (weighted) mean of ``values`` over the updates.

    Args:
        values: A tensor of a fixed shape.
        weights: Weights broadcastable to ``values``, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``mean``).

    Returns:
        ``(mean, update_op)``, shaped as ``values``.
    """
    _graph_only("mean_tensor")
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "mean", (values, weights)):
        values = cast(values, dtypes.float32)
        total = metric_variable(values.shape.as_list(), dtypes.float32, name="total_tensor")
        count = metric_variable(values.shape.as_list(), dtypes.float32, name="count_tensor")
        num_values = ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(weights, values)
            values = multiply(values, weights)
            num_values = multiply(num_values, weights)
        update_total = total.assign_add(values)
        update_count = count.assign_add(num_values)
        value = div_no_nan(total.value(), maximum(count.value(), 0), name="value")
        update_op = div_no_nan(update_total, maximum(update_count, 0), name="update_op")
        return _collect(value, update_op, metrics_collections, updates_collections)


def mean_relative_error(labels: TensorLike, predictions: TensorLike, normalizer: TensorLike,
                        weights: TensorLike | None = None,
                        metrics_collections: _Collections = None,
                        updates_collections: _Collections = None,
                        name: str | None = None) -> tuple:
    """The mean of ``|labels - predictions| / normalizer`` (0 where ``normalizer`` is 0).

    Args:
        labels: The ground truth.
        predictions: The predictions, shaped as ``labels``.
        normalizer: The normalizers, shaped as ``predictions``.
        weights: Weights broadcastable to the values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``mean_relative_error``).

    Returns:
        ``(mean_relative_error, update_op)``.
    """
    _graph_only("mean_relative_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    normalizer = convert_to_tensor(normalizer)
    relative_errors = where(equal(normalizer, 0.0), zeros_like(labels),
                            divide(abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")


def mean_cosine_distance(labels: TensorLike, predictions: TensorLike, dim: int,
                         weights: TensorLike | None = None,
                         metrics_collections: _Collections = None,
                         updates_collections: _Collections = None,
                         name: str | None = None) -> tuple:
    """``1 - mean(sum(labels * predictions, dim))`` for unit-normalized vectors along ``dim``.

    Args:
        labels: Unit vectors along ``dim``.
        predictions: Unit vectors, shaped as ``labels``.
        dim: The axis of the vectors.
        weights: Weights broadcastable to the per-vector values, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``mean_cosine_distance``).

    Returns:
        ``(mean_distance, update_op)``.
    """
    _graph_only("mean_cosine_distance")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    radial = reduce_sum(multiply(predictions, labels), axis=[dim], keepdims=True)
    value, update_op = mean(radial, weights, None, None, name or "mean_cosine_distance")
    return _collect(subtract(1.0, value), subtract(1.0, update_op), metrics_collections,
                    updates_collections)


def percentage_below(values: TensorLike, threshold: float,
                     weights: TensorLike | None = None,
                     metrics_collections: _Collections = None,
                     updates_collections: _Collections = None,
                     name: str | None = None) -> tuple:
    """The (weighted) fraction of ``values`` below ``threshold``.

    Args:
        values: The values.
        threshold: The threshold.
        weights: Weights broadcastable to ``values``, or None.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``percentage_below_threshold``).

    Returns:
        ``(percentage, update_op)``.
    """
    _graph_only("percentage_below")
    is_below = cast(less(values, threshold), dtypes.float32)
    return mean(is_below, weights, metrics_collections, updates_collections,
                name or "percentage_below_threshold")


__all__ = ["false_negatives_at_thresholds", "false_positives_at_thresholds",
           "mean_cosine_distance", "mean_iou", "mean_per_class_accuracy", "mean_relative_error",
           "mean_tensor", "percentage_below", "precision_at_thresholds", "recall_at_thresholds",
           "true_negatives", "true_negatives_at_thresholds", "true_positives_at_thresholds"]
