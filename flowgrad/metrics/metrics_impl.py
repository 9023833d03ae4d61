"""TF1 streaming metrics (``tf.compat.v1.metrics``): each returns ``(value, update_op)``.

The counters are float32 LOCAL_VARIABLES (also in METRIC_VARIABLES) under a variable
scope named after the metric (``accuracy/total:0``, ``auc/true_positives:0``), reset by
``tf.local_variables_initializer()``; ``update_op`` adds a batch and returns the new
value, ``value`` reads the counters. Formulas follow TensorFlow's ``metrics_impl``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, add_to_collections
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import (expand_dims, ones_like, reshape, size, slice, squeeze,
                                    zeros_like)
from flowgrad.ops.math_ops import (
    abs,
    add,
    cast,
    div_no_nan,
    divide,
    equal,
    greater,
    logical_and,
    logical_not,
    maximum,
    minimum,
    multiply,
    reduce_sum,
    sqrt,
    squared_difference,
    subtract,
    where,
)
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.variable_scope import variable_scope
from collections.abc import Sequence
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


def metric_variable(shape: ShapeLike | TensorLike, dtype: DTypeLike, validate_shape: bool = True,
                    name: str | None = None) -> Variable:
    """A non-trainable zero-initialised variable in LOCAL_VARIABLES and METRIC_VARIABLES.

    Args:
        shape: The variable's shape.
        dtype: The variable's dtype.
        validate_shape: Whether the variable's shape is fixed.
        name: A name for the operation (optional).
    """
    dt = dtypes.as_dtype(dtype)
    return Variable(np.zeros(shape, dt.as_numpy_dtype), trainable=False,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES],
                    validate_shape=validate_shape, name=name)


def _graph_only(metric: str) -> None:
    if executing_eagerly():
        raise RuntimeError("tf.metrics.%s is not supported when eager execution is enabled."
                           % metric)


def _check_collections(metrics_collections: Any, updates_collections: Any) -> None:
    for what, c in (("metrics_collections", metrics_collections),
                    ("updates_collections", updates_collections)):
        if c is not None and not isinstance(c, (list, tuple)):
            raise ValueError("%s should be a list or tuple of collection names, got %r"
                             % (what, c))


def _remove_squeezable_dimensions(predictions: Any, labels: Any, weights: Any) -> tuple:
    """Squeezes a trailing size-1 axis of ``predictions`` or ``labels`` when their ranks
    differ by one; squeezes or expands ``weights``' last axis to match ``predictions``."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels = convert_to_tensor(labels)
        pr, lr = predictions.shape.rank, labels.shape.rank
        if pr is not None and lr is not None:
            if pr - lr == 1 and predictions.shape.as_list()[-1] in (None, 1):
                predictions = squeeze(predictions, [-1])
            elif lr - pr == 1 and labels.shape.as_list()[-1] in (None, 1):
                labels = squeeze(labels, [-1])
        if not predictions.shape.is_compatible_with(labels.shape):
            raise ValueError("Shapes %s and %s are incompatible (predictions and labels)"
                             % (predictions.shape, labels.shape))
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    wr, pr = weights.shape.rank, predictions.shape.rank
    if wr not in (None, 0) and pr is not None:
        if wr - pr == 1:
            weights = squeeze(weights, [-1])
        elif pr - wr == 1:
            weights = expand_dims(weights, -1)
    return predictions, labels, weights


def _broadcast_weights(weights: Any, values: Any) -> Any:
    """float32 ``weights`` broadcast to the shape of ``values``."""
    weights = cast(weights, dtypes.float32)
    ws, vs = weights.shape, values.shape
    if ws.rank is not None and vs.rank is not None and ws.rank not in (0, vs.rank):
        raise ValueError("weights can not be broadcast to values: weights rank %d, values "
                         "rank %d (weights must be a scalar or have the rank of values)"
                         % (ws.rank, vs.rank))
    return multiply(weights, ones_like(values, dtype=dtypes.float32))


def _collect(value: Any, update_op: Any, metrics_collections: Any,
             updates_collections: Any) -> tuple:
    if metrics_collections:
        add_to_collections(metrics_collections, value)
    if updates_collections:
        add_to_collections(updates_collections, update_op)
    return value, update_op


def mean(values: TensorLike, weights: TensorLike | None = None,
         metrics_collections: Sequence[str] | None = None,
         updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple:
    """The (weighted) mean of ``values`` over all updates: ``(mean, update_op)``.

    Args:
        values: The values to average.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("mean")
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "mean", (values, weights)):
        values = cast(values, dtypes.float32)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = cast(size(values), dtypes.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(weights, values)
            values = multiply(values, weights)
            num_values = reduce_sum(weights)
        update_total = total.assign_add(reduce_sum(values))
        update_count = count.assign_add(num_values)
        value = div_no_nan(total, maximum(count, 0.0), name="value")
        update_op = div_no_nan(update_total, maximum(update_count, 0.0), name="update_op")
        return _collect(value, update_op, metrics_collections, updates_collections)


def accuracy(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
             metrics_collections: Sequence[str] | None = None,
             updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple:
    """How often ``predictions`` equals ``labels``: ``(accuracy, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("accuracy")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    if labels.dtype.base_dtype != predictions.dtype.base_dtype:
        predictions = cast(predictions, labels.dtype.base_dtype)
    is_correct = cast(equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections,
                name or "accuracy")


def mean_squared_error(labels: TensorLike, predictions: TensorLike,
                       weights: TensorLike | None = None,
                       metrics_collections: Sequence[str] | None = None,
                       updates_collections: Sequence[str] | None = None,
                       name: str | None = None) -> tuple:
    """The (weighted) mean of (labels - predictions)**2: ``(mse, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    return mean(squared_difference(labels, predictions), weights, metrics_collections,
                updates_collections, name or "mean_squared_error")


def mean_absolute_error(labels: TensorLike, predictions: TensorLike,
                        weights: TensorLike | None = None,
                        metrics_collections: Sequence[str] | None = None,
                        updates_collections: Sequence[str] | None = None,
                        name: str | None = None) -> tuple:
    """The (weighted) mean of |predictions - labels|: ``(mae, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("mean_absolute_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    return mean(abs(subtract(predictions, labels)), weights, metrics_collections,
                updates_collections, name or "mean_absolute_error")


def root_mean_squared_error(labels: TensorLike, predictions: TensorLike,
                            weights: TensorLike | None = None,
                            metrics_collections: Sequence[str] | None = None,
                            updates_collections: Sequence[str] | None = None,
                            name: str | None = None) -> tuple:
    """sqrt of the (weighted) mean squared error: ``(rmse, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("root_mean_squared_error")
    _check_collections(metrics_collections, updates_collections)
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None,
                                         name or "root_mean_squared_error")
    return _collect(sqrt(mse), sqrt(update_mse), metrics_collections, updates_collections)


def _count_condition(values: Any, weights: Any, metrics_collections: Any,
                     updates_collections: Any) -> tuple:
    count = metric_variable([], dtypes.float32, name="count")
    values = cast(values, dtypes.float32)
    if weights is not None:
        values = multiply(values, _broadcast_weights(weights, values))
    update_op = count.assign_add(reduce_sum(values))
    return _collect(count.value(), update_op, metrics_collections, updates_collections)


def _bool_inputs(labels: Any, predictions: Any, weights: Any) -> tuple:
    return _remove_squeezable_dimensions(cast(predictions, dtypes.bool),
                                         cast(labels, dtypes.bool), weights)


def true_positives(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
                   metrics_collections: Sequence[str] | None = None,
                   updates_collections: Sequence[str] | None = None,
                   name: str | None = None) -> tuple:
    """The (weighted) number of true positives: ``(count, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("true_positives")
    with variable_scope(name, "true_positives", (predictions, labels, weights)):
        predictions, labels, weights = _bool_inputs(labels, predictions, weights)
        return _count_condition(logical_and(labels, predictions), weights,
                                metrics_collections, updates_collections)


def false_positives(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
                    metrics_collections: Sequence[str] | None = None,
                    updates_collections: Sequence[str] | None = None,
                    name: str | None = None) -> tuple:
    """The (weighted) number of false positives: ``(count, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("false_positives")
    with variable_scope(name, "false_positives", (predictions, labels, weights)):
        predictions, labels, weights = _bool_inputs(labels, predictions, weights)
        return _count_condition(logical_and(logical_not(labels), predictions), weights,
                                metrics_collections, updates_collections)


def false_negatives(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
                    metrics_collections: Sequence[str] | None = None,
                    updates_collections: Sequence[str] | None = None,
                    name: str | None = None) -> tuple:
    """The (weighted) number of false negatives: ``(count, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    _graph_only("false_negatives")
    with variable_scope(name, "false_negatives", (predictions, labels, weights)):
        predictions, labels, weights = _bool_inputs(labels, predictions, weights)
        return _count_condition(logical_and(labels, logical_not(predictions)), weights,
                                metrics_collections, updates_collections)


def _ratio_metric(metric: str, other: Any, labels: Any, predictions: Any, weights: Any,
                  metrics_collections: Any, updates_collections: Any, name: str | None) -> tuple:
    """tp / (tp + other) (0 while the denominator is 0): precision and recall."""
    _graph_only(metric)
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, metric, (predictions, labels, weights)):
        predictions, labels, weights = _bool_inputs(labels, predictions, weights)
        tp, tp_update = true_positives(labels, predictions, weights)
        n, n_update = other(labels, predictions, weights)

        def ratio(t: Any, o: Any, op_name: str) -> Any:
            denom = add(t, o)
            return where(greater(denom, 0.0), div_no_nan(t, denom), zeros_like(t), name=op_name)
        return _collect(ratio(tp, n, "value"), ratio(tp_update, n_update, "update_op"),
                        metrics_collections, updates_collections)


def precision(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
              metrics_collections: Sequence[str] | None = None,
              updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple:
    """true_positives / (true_positives + false_positives): ``(precision, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    return _ratio_metric("precision", false_positives, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def recall(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
           metrics_collections: Sequence[str] | None = None,
           updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple:
    """true_positives / (true_positives + false_negatives): ``(recall, update_op)``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        name: A name for the operation (optional).
    """
    return _ratio_metric("recall", false_negatives, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def _confusion_at_thresholds(labels: Any, predictions: Any, thresholds: list,
                             weights: Any, includes: tuple = ("tp", "fn", "tn", "fp")) -> tuple:
    """Counters tp, fn, tn, fp (those in ``includes``) of shape [len(thresholds)] and their
    update ops."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        cast(predictions, dtypes.float32), cast(labels, dtypes.bool), weights)
    pred_is_pos = greater(reshape(predictions, [1, -1]),
                          np.array(thresholds, np.float32).reshape(-1, 1))
    pred_is_neg = logical_not(pred_is_pos)
    label_is_pos = reshape(labels, [1, -1])
    label_is_neg = logical_not(label_is_pos)
    w = None if weights is None else reshape(_broadcast_weights(weights, predictions), [1, -1])
    values, updates = {}, {}
    for key, var_name, cond in (("tp", "true_positives", logical_and(label_is_pos, pred_is_pos)),
                                ("fn", "false_negatives", logical_and(label_is_pos, pred_is_neg)),
                                ("tn", "true_negatives", logical_and(label_is_neg, pred_is_neg)),
                                ("fp", "false_positives", logical_and(label_is_neg, pred_is_pos))):
        if key not in includes:
            continue
        counter = metric_variable([len(thresholds)], dtypes.float32, name=var_name)
        hits = cast(cond, dtypes.float32)
        if w is not None:
            hits = multiply(hits, w)
        updates[key] = counter.assign_add(reduce_sum(hits, 1))
        values[key] = counter.value()
    return values, updates


_SUMMATIONS = ("trapezoidal", "careful_interpolation", "minoring", "majoring")


def auc(labels: TensorLike, predictions: TensorLike, weights: TensorLike | None = None,
        num_thresholds: int = 200, metrics_collections: Sequence[str] | None = None,
        updates_collections: Sequence[str] | None = None, curve: str = "ROC",
        name: str | None = None, summation_method: str = "trapezoidal",
        thresholds: Any = None) -> tuple:
    """Area under the ROC or PR curve, by a Riemann sum over ``num_thresholds`` thresholds
    (TensorFlow's discretisation and epsilons): ``(auc, update_op)``.
    ``summation_method='careful_interpolation'`` for PR is not supported.

    Args:
        labels: The ground truth: bools, or numbers in {0, 1}.
        predictions: The predicted probabilities in [0, 1].
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        num_thresholds: How many thresholds to evaluate at.
        metrics_collections: Collections the metric's value tensor is added to.
        updates_collections: Collections the metric's update op is added to.
        curve: ``"ROC"`` or ``"PR"``.
        name: A name for the operation (optional).
        summation_method: ``"trapezoidal"``, ``"careful_interpolation"``, ``"minoring"`` or
            ``"majoring"``.
        thresholds: The thresholds to use instead of ``num_thresholds`` evenly spaced ones.
    """
    _graph_only("auc")
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError("Curve must be either ROC or PR. Curve %s is unknown." % curve)
        if summation_method not in _SUMMATIONS:
            raise ValueError("Invalid summation_method: %s summation_method should be "
                             "'trapezoidal', 'careful_interpolation', 'minoring', or "
                             "'majoring'." % summation_method)
        if curve == "PR" and summation_method == "careful_interpolation":
            raise NotImplementedError("tf.metrics.auc: curve='PR' with summation_method="
                                      "'careful_interpolation' is not supported by flowgrad")
        kepsilon = 1e-7
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        cuts = [0.0 - kepsilon] + inner + [1.0 + kepsilon]
        n = len(cuts)
        values, updates = _confusion_at_thresholds(labels, predictions, cuts, weights)
        epsilon = 1.0e-6

        def compute(c: dict, op_name: str) -> Any:
            rec = divide(c["tp"] + epsilon, c["tp"] + c["fn"] + epsilon)
            if curve == "ROC":
                x, y = divide(c["fp"], c["fp"] + c["tn"] + epsilon), rec
            else:
                x, y = rec, divide(c["tp"] + epsilon, c["tp"] + c["fp"] + epsilon)
            dx = subtract(slice(x, [0], [n - 1]), slice(x, [1], [n - 1]))
            y0, y1 = slice(y, [0], [n - 1]), slice(y, [1], [n - 1])
            height = {"minoring": minimum, "majoring": maximum}.get(
                summation_method, lambda a, b: multiply(add(a, b), 0.5))(y0, y1)
            return reduce_sum(multiply(dx, height), name=op_name)
        return _collect(compute(values, "value"), compute(updates, "update_op"),
                        metrics_collections, updates_collections)


__all__ = ["accuracy", "auc", "false_negatives", "false_positives", "mean",
           "mean_absolute_error", "mean_squared_error", "metric_variable", "precision", "recall",
           "root_mean_squared_error", "true_positives"]
