"""``tf.compat.v1.metrics``' ranking metrics, as TensorFlow 2.21's ``metrics_impl``:
``precision_at_k`` / ``recall_at_k`` (and ``*_at_top_k`` of given top-k class ids),
``average_precision_at_k`` with the deprecated ``sparse_*`` aliases, and
``sensitivity_at_specificity`` / ``specificity_at_sensitivity``.

Labels are int64 class ids: a dense ``[D1, ... DN]`` or ``[D1, ... DN, num_labels]`` tensor
(negative ids pad the rows) or a SparseTensor. The counters are float64 local variables named
as TensorFlow's (``precision_at_3/true_positive_at_3:0``); each function returns
``(value, update_op)`` and builds graphs only (a RuntimeError when executing eagerly)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.metrics.metrics_impl import (_check_collections, _collect,
                                           _confusion_at_thresholds, _graph_only,
                                           metric_variable)
from flowgrad.ops.array_ops import expand_dims, ones_like, shape, size, zeros_like
from flowgrad.ops.comparison_ops import greater_equal
from flowgrad.ops.concat_ops import concat, tile
from flowgrad.ops.cond_v2 import cond
from flowgrad.ops.fill_ops import fill
from flowgrad.ops.math_ops import (abs, add, cast, div_no_nan, divide, equal, minimum, multiply,
                                   reduce_sum, subtract, where)
from flowgrad.ops.reduction_ops import argmax, argmin, cumsum, reduce_max, reduce_min
from flowgrad.ops.set_ops import set_difference, set_intersection, set_size
from flowgrad.ops.sort_ops import top_k
from flowgrad.ops.sparse_concat import concat as sparse_concat
from flowgrad.ops.sparse_manip import reshape as sparse_reshape
from flowgrad.ops.sparse_manip import retain as sparse_retain
from flowgrad.ops.sparse_tensor import SparseTensor, SparseTensorValue
from flowgrad.ops.variable_scope import variable_scope

_Collections = Sequence[str] | None
_KEPSILON = 1e-7


def _labels_tensor(labels: Any) -> Any:
    if isinstance(labels, SparseTensorValue):
        return SparseTensor(*labels)
    return labels if isinstance(labels, SparseTensor) else convert_to_tensor(labels)


def _at_k_name(name: str, k: int | None = None, class_id: int | None = None) -> str:
    name = "%s_at_%d" % (name, k) if k is not None else "%s_at_k" % name
    return name if class_id is None else "%s_class%d" % (name, class_id)


def _maybe_expand_labels(labels: Any, predictions: Any) -> Any:
    """``labels`` with a trailing axis of one label when its rank is one below
    ``predictions``' (ValueError for other static ranks)."""
    with name_scope(None, "expand_labels", (predictions,)):
        labels = _labels_tensor(labels)
        p_rank = predictions.shape.rank
        if isinstance(labels, SparseTensor):
            l_rank = labels.shape.rank
            if l_rank is not None and p_rank is not None:
                if p_rank != l_rank + 1:
                    return labels
                return sparse_reshape(labels, concat([labels.dense_shape, [1]], 0))
            return cond(equal(size(shape(predictions)), size(labels.dense_shape) + 1),
                        lambda: sparse_reshape(labels, concat([labels.dense_shape, [1]], 0)),
                        lambda: labels)
        l_rank = labels.shape.rank
        if l_rank is not None and p_rank is not None:
            if p_rank == l_rank:
                return labels
            if p_rank == l_rank + 1:
                return expand_dims(labels, -1)
            raise ValueError("Unexpected labels shape %s for predictions shape %s. Predictions "
                             "rank should be the same rank as labels rank or labels rank plus "
                             "one ." % (labels.shape, predictions.shape))
        return cond(equal(size(shape(predictions)), size(shape(labels)) + 1),
                    lambda: expand_dims(labels, -1), lambda: labels)


def _select_class_id(ids: Any, selected_id: int) -> SparseTensor:
    """The entries of ``ids`` equal to ``selected_id``, as a SparseTensor of ``ids``' shape."""
    ids = _labels_tensor(ids)
    if isinstance(ids, SparseTensor):
        return sparse_retain(ids, equal(ids.values, selected_id))
    ids_shape = shape(ids, out_type=dtypes.int64)
    filled_shape = concat([ids_shape[:-1], [1]], 0)
    result = set_intersection(fill(filled_shape, cast(selected_id, dtypes.int64)), ids)
    return SparseTensor(result.indices, result.values, ids_shape)


def _weighted_count(counts: Any, weights: Any) -> Any:
    counts = cast(counts, dtypes.float64)
    return counts if weights is None else multiply(counts, cast(weights, dtypes.float64))


def _set_count(kind: str, labels: Any, predictions_idx: Any, class_id: int | None,
               weights: Any, name: str | None = None) -> Any:
    """Per-row true positives (``tp``), false positives (``fp``) or false negatives (``fn``)
    of the top-k ids against the labels, as float64 (times ``weights``)."""
    scope = {"tp": "true_positives", "fp": "false_positives", "fn": "false_negatives"}[kind]
    with name_scope(name, scope, (predictions_idx, weights)):
        if class_id is not None:
            labels = _select_class_id(labels, class_id)
            predictions_idx = _select_class_id(predictions_idx, class_id)
        if kind == "tp":
            found = set_intersection(predictions_idx, labels)
        else:
            found = set_difference(predictions_idx, labels, aminusb=kind == "fp")
        return _weighted_count(set_size(found), weights)


def _streaming_count(kind: str, labels: Any, predictions_idx: Any, k: int | None,
                     class_id: int | None, weights: Any) -> tuple:
    """A float64 local variable summing :func:`_set_count` over batches, and its update op."""
    prefix = {"tp": "true_positive", "fp": "false_positive", "fn": "false_negative"}[kind]
    with name_scope(None, _at_k_name(prefix, k, class_id), (predictions_idx, weights)) as scope:
        counts = _set_count(kind, labels, predictions_idx, class_id, weights)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, var.assign_add(cast(reduce_sum(counts), dtypes.float64), name="update")


def _ratio_at_top_k(other: str, labels: Any, predictions_idx: Any, k: int | None,
                    class_id: int | None, weights: Any, metrics_collections: _Collections,
                    updates_collections: _Collections, scope: str) -> tuple:
    """``tp / (tp + other)`` over the top-k ids (``other`` ``"fp"`` for precision, ``"fn"``
    for recall), with its update op."""
    _check_collections(metrics_collections, updates_collections)
    labels = _maybe_expand_labels(labels, predictions_idx)
    top_k_idx = cast(predictions_idx, dtypes.int64)
    tp, tp_update = _streaming_count("tp", labels, top_k_idx, k, class_id, weights)
    rest, rest_update = _streaming_count(other, labels, top_k_idx, k, class_id, weights)
    metric = divide(tp.value(), add(tp.value(), rest.value()), name=scope)
    update = divide(tp_update, add(tp_update, rest_update), name="update")
    return _collect(metric, update, metrics_collections, updates_collections)


def _check_k(k: Any) -> None:
    if k < 1:
        raise ValueError("Invalid k=%s. `k` should be >= 1." % (k,))


def precision_at_top_k(labels: TensorLike, predictions_idx: TensorLike, k: int | None = None,
                       class_id: int | None = None, weights: TensorLike | None = None,
                       metrics_collections: _Collections = None,
                       updates_collections: _Collections = None,
                       name: str | None = None) -> tuple:
    """Precision@k of given top-k class ids: how often a predicted id is among the labels.

    Args:
        labels: int64 class ids, ``[D1, ... DN, num_labels]`` or ``[D1, ... DN]`` (a dense
            tensor, negative ids padding its rows, or a SparseTensor).
        predictions_idx: Integer ``[D1, ... DN, k]`` top-k class ids.
        k: The k of the default name only.
        class_id: Count only this class (binary precision of it).
        weights: Weights of rank 0 or N, broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope (``precision_at_<k>[_class<id>]``).

    Returns:
        ``(precision, update_op)``: float64 scalars.

    Raises:
        RuntimeError: Executing eagerly.
        ValueError: The labels' rank does not fit the predictions', or a collections argument
            is not a list.
    """
    _graph_only("precision_at_top_k")
    with name_scope(name, _at_k_name("precision", k, class_id),
                    (predictions_idx, weights)) as scope:
        return _ratio_at_top_k("fp", labels, predictions_idx, k, class_id, weights,
                               metrics_collections, updates_collections, scope)


def recall_at_top_k(labels: TensorLike, predictions_idx: TensorLike, k: int | None = None,
                    class_id: int | None = None, weights: TensorLike | None = None,
                    metrics_collections: _Collections = None,
                    updates_collections: _Collections = None, name: str | None = None) -> tuple:
    """Recall@k of given top-k class ids: how often a label is among the predicted ids.

    Args:
        labels: int64 class ids, ``[D1, ... DN, num_labels]`` or ``[D1, ... DN]`` (a dense
            tensor, negative ids padding its rows, or a SparseTensor).
        predictions_idx: Integer ``[D1, ... DN, k]`` top-k class ids.
        k: The k of the default name only.
        class_id: Count only this class (binary recall of it).
        weights: Weights of rank 0 or N, broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope (``recall_at_<k>[_class<id>]``).

    Returns:
        ``(recall, update_op)``: float64 scalars.

    Raises:
        ValueError: The labels' rank does not fit the predictions', or a collections argument
            is not a list.
    """
    with name_scope(name, _at_k_name("recall", k, class_id),
                    (predictions_idx, weights)) as scope:
        return _ratio_at_top_k("fn", labels, predictions_idx, k, class_id, weights,
                               metrics_collections, updates_collections, scope)


def precision_at_k(labels: TensorLike, predictions: TensorLike, k: int,
                   class_id: int | None = None, weights: TensorLike | None = None,
                   metrics_collections: _Collections = None,
                   updates_collections: _Collections = None, name: str | None = None) -> tuple:
    """Precision@k: how often a class among the ``k`` highest ``predictions`` is a label.

    Args:
        labels: int64 class ids, ``[D1, ... DN, num_labels]`` or ``[D1, ... DN]`` (a dense
            tensor, negative ids padding its rows, or a SparseTensor).
        predictions: Float ``[D1, ... DN, num_classes]`` scores.
        k: How many top classes count as predicted.
        class_id: Count only this class (binary precision of it).
        weights: Weights of rank 0 or N, broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope (``precision_at_<k>[_class<id>]``).

    Returns:
        ``(precision, update_op)``: float64 scalars.

    Raises:
        RuntimeError: Executing eagerly.
    """
    _graph_only("sparse_precision_at_k")
    with name_scope(name, _at_k_name("precision", k, class_id), (predictions, weights)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return precision_at_top_k(labels, top_k_idx, k=k, class_id=class_id, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=scope)


def sparse_precision_at_k(labels: TensorLike, predictions: TensorLike, k: int,
                          class_id: int | None = None, weights: TensorLike | None = None,
                          metrics_collections: _Collections = None,
                          updates_collections: _Collections = None,
                          name: str | None = None) -> tuple:
    """The deprecated name of :func:`precision_at_k` (same arguments and result).

    Args:
        labels: int64 class ids (see :func:`precision_at_k`).
        predictions: Float ``[D1, ... DN, num_classes]`` scores.
        k: How many top classes count as predicted.
        class_id: Count only this class.
        weights: Weights broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope.

    Returns:
        ``(precision, update_op)``.
    """
    return precision_at_k(labels, predictions, k, class_id, weights, metrics_collections,
                          updates_collections, name)


def recall_at_k(labels: TensorLike, predictions: TensorLike, k: int,
                class_id: int | None = None, weights: TensorLike | None = None,
                metrics_collections: _Collections = None,
                updates_collections: _Collections = None, name: str | None = None) -> tuple:
    """Recall@k: how often a label is among the ``k`` highest ``predictions``.

    Args:
        labels: int64 class ids, ``[D1, ... DN, num_labels]`` or ``[D1, ... DN]`` (a dense
            tensor, negative ids padding its rows, or a SparseTensor); ids outside
            ``[0, num_classes)`` count as false negatives.
        predictions: Float ``[D1, ... DN, num_classes]`` scores.
        k: How many top classes count as predicted.
        class_id: Count only this class (binary recall of it).
        weights: Weights of rank 0 or N, broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope (``recall_at_<k>[_class<id>]``).

    Returns:
        ``(recall, update_op)``: float64 scalars.

    Raises:
        RuntimeError: Executing eagerly.
    """
    _graph_only("recall_at_k")
    with name_scope(name, _at_k_name("recall", k, class_id), (predictions, weights)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return recall_at_top_k(labels, top_k_idx, k=k, class_id=class_id, weights=weights,
                               metrics_collections=metrics_collections,
                               updates_collections=updates_collections, name=scope)


def _expand_and_tile(tensor: Any, multiple: int, name: str) -> Any:
    """``tensor`` with a new second-to-last axis repeated ``multiple`` times."""
    with name_scope(None, name, (tensor,)):
        if isinstance(tensor, SparseTensor):
            dense_shape = tensor.dense_shape
            expanded = sparse_reshape(tensor, concat([dense_shape[:-1], [1],
                                                      dense_shape[-1:]], 0))
            if multiple == 1:
                return expanded
            return sparse_concat(-2, [expanded] * multiple)
        expanded = expand_dims(tensor, -2)
        if multiple == 1:
            return expanded
        ones = ones_like(shape(tensor))
        return tile(expanded, concat([ones[:-1], [multiple], ones[-1:]], 0))


def _num_relevant(labels: Any, k: int) -> Any:
    """The number of labels per row (negative ids not counted), at most ``k``."""
    with name_scope(None, "num_relevant", ()):
        if isinstance(labels, SparseTensor):
            return minimum(set_size(labels), k)
        counts = reduce_sum(where(greater_equal(labels, 0), ones_like(labels),
                                  zeros_like(labels)), axis=-1)
        return minimum(counts, k)


def _average_precision_at_top_k(labels: Any, predictions_idx: Any) -> Any:
    """Per-row average precision of the top-k ids (float64, shape ``[D1, ... DN]``)."""
    with name_scope(None, "average_precision", (predictions_idx,)):
        predictions_idx = cast(predictions_idx, dtypes.int64, name="predictions_idx")
        if predictions_idx.shape.rank == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.shape.as_list()[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, "
                             "it is None.")
        labels = _maybe_expand_labels(labels, predictions_idx)
        per_k = expand_dims(predictions_idx, -1, name="predictions_idx_per_k")
        labels_per_k = _expand_and_tile(labels, k, "labels_per_k")
        relevant = _set_count("tp", labels_per_k, per_k, None, None, name="relevant_per_k")
        tp_per_k = cumsum(relevant, axis=-1, name="tp_per_k")
        retrieved = cumsum(ones_like(relevant), axis=-1, name="retrieved_per_k")
        precision = divide(cast(tp_per_k, dtypes.float64), cast(retrieved, dtypes.float64),
                           name="precision_per_k")
        relevant_precision = multiply(precision, cast(relevant, dtypes.float64),
                                      name="relevant_precision_per_k")
        precision_sum = reduce_sum(relevant_precision, axis=(-1,), name="precision_sum")
        return divide(precision_sum, cast(_num_relevant(labels, k), dtypes.float64))


def _clean_out_of_range_indices(labels: Any, num_classes: Any) -> Any:
    """``labels`` with the ids ``>= num_classes`` replaced by -1."""
    labels = _labels_tensor(labels)
    values = labels.values if isinstance(labels, SparseTensor) else labels

    def cleaned() -> Any:
        clean = where(greater_equal(values, num_classes), -1 * ones_like(values), values)
        if isinstance(labels, SparseTensor):
            return SparseTensor(labels.indices, clean, labels.dense_shape)
        return clean

    if isinstance(labels, SparseTensor):
        # cond of a SparseTensor: both branches' values are the labels' values, cleaned or not.
        keep = greater_equal(reduce_max(values), num_classes)
        return SparseTensor(labels.indices, cond(keep, lambda: cleaned().values,
                                                 lambda: values), labels.dense_shape)
    return cond(greater_equal(reduce_max(values), num_classes), cleaned, lambda: labels)


def average_precision_at_k(labels: TensorLike, predictions: TensorLike, k: int,
                           weights: TensorLike | None = None,
                           metrics_collections: _Collections = None,
                           updates_collections: _Collections = None,
                           name: str | None = None) -> tuple:
    """Mean average precision@k: per row, the mean of precision@i over the ranks i <= k
    whose class is a label, divided by ``min(k, number of labels)``.

    Args:
        labels: int64 class ids, ``[D1, ... DN, num_labels]`` or ``[D1, ... DN]`` (a dense
            tensor, negative ids padding its rows, or a SparseTensor); ids outside
            ``[0, num_classes)`` are ignored.
        predictions: Float ``[D1, ... DN, num_classes]`` scores.
        k: How many top classes count as predicted.
        weights: Weights of rank 0 or N, broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope (``average_precision_at_<k>``).

    Returns:
        ``(mean_average_precision, update_op)``: float64 scalars (NaN for a row without
        labels, as TensorFlow).

    Raises:
        RuntimeError: Executing eagerly.
        ValueError: ``k < 1``.
    """
    _graph_only("sparse_average_precision_at_k")
    _check_k(k)
    _check_collections(metrics_collections, updates_collections)
    with name_scope(name, _at_k_name("average_precision", k), (predictions, weights)) as scope:
        predictions = convert_to_tensor(predictions)
        _, predictions_idx = top_k(predictions, k)
        labels = _clean_out_of_range_indices(
            labels, cast(shape(predictions)[-1], dtypes.int64))
        with name_scope(scope):
            average_precision = _average_precision_at_top_k(labels, predictions_idx)
            if weights is not None:
                weights = multiply(cast(weights, dtypes.float64),
                                   ones_like(average_precision))
                average_precision = multiply(average_precision, weights)
            with name_scope(None, "max", (average_precision,)) as max_scope:
                max_var = metric_variable([], dtypes.float64, name=max_scope)
                if weights is None:
                    batch_max = cast(size(average_precision, name="batch_max"), dtypes.float64)
                else:
                    batch_max = reduce_sum(weights, name="batch_max")
                max_update = max_var.assign_add(batch_max, name="update")
            with name_scope(None, "total", (average_precision,)) as total_scope:
                total_var = metric_variable([], dtypes.float64, name=total_scope)
                batch_total = reduce_sum(average_precision, name="batch_total")
                total_update = total_var.assign_add(batch_total, name="update")
            metric = div_no_nan(total_var.value(), max_var.value(), name="mean")
            update = div_no_nan(total_update, max_update, name=scope)
        return _collect(metric, update, metrics_collections, updates_collections)


def sparse_average_precision_at_k(labels: TensorLike, predictions: TensorLike, k: int,
                                  weights: TensorLike | None = None,
                                  metrics_collections: _Collections = None,
                                  updates_collections: _Collections = None,
                                  name: str | None = None) -> tuple:
    """The deprecated name of :func:`average_precision_at_k` (same arguments and result).

    Args:
        labels: int64 class ids (see :func:`average_precision_at_k`).
        predictions: Float ``[D1, ... DN, num_classes]`` scores.
        k: How many top classes count as predicted.
        weights: Weights broadcastable to ``[D1, ... DN]``; None for 1.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The name scope.

    Returns:
        ``(mean_average_precision, update_op)``.
    """
    return average_precision_at_k(labels, predictions, k, weights, metrics_collections,
                                  updates_collections, name)


def _thresholds(num_thresholds: int, last: float) -> list:
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _KEPSILON] + inner + [last]


def sensitivity_at_specificity(labels: TensorLike, predictions: TensorLike, specificity: float,
                               weights: TensorLike | None = None, num_thresholds: int = 200,
                               metrics_collections: _Collections = None,
                               updates_collections: _Collections = None,
                               name: str | None = None) -> tuple:
    """The sensitivity (recall) at the threshold whose specificity is closest to
    ``specificity``, over ``num_thresholds`` thresholds in [0, 1].

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        specificity: The specificity to match, in [0, 1].
        weights: Weights broadcastable to the values, or None.
        num_thresholds: How many thresholds to try.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``sensitivity_at_specificity``).

    Returns:
        ``(sensitivity, update_op)``: float32 scalars.

    Raises:
        RuntimeError: Executing eagerly.
        ValueError: ``specificity`` outside [0, 1].
    """
    _graph_only("sensitivity_at_specificity")
    if specificity < 0 or specificity > 1:
        raise ValueError("`specificity` must be in the range [0, 1]. Currently, "
                         "`specificity` got %s." % (specificity,))
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "sensitivity_at_specificity", (predictions, labels, weights)):
        values, updates = _confusion_at_thresholds(
            labels, predictions, _thresholds(num_thresholds, 1.0 + _KEPSILON), weights)

        def compute(tp: Any, tn: Any, fp: Any, fn: Any, op_name: str) -> Any:
            specificities = divide(tn, tn + fp + _KEPSILON)
            index = cast(argmin(abs(subtract(specificities, specificity)), 0), dtypes.int32)
            return divide(tp[index], tp[index] + fn[index] + _KEPSILON, name=op_name)

        value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        update = compute(updates["tp"], updates["tn"], updates["fp"], updates["fn"],
                         "update_op")
        return _collect(value, update, metrics_collections, updates_collections)


def specificity_at_sensitivity(labels: TensorLike, predictions: TensorLike, sensitivity: float,
                               weights: TensorLike | None = None, num_thresholds: int = 200,
                               metrics_collections: _Collections = None,
                               updates_collections: _Collections = None,
                               name: str | None = None) -> tuple:
    """The specificity at the threshold whose sensitivity is closest to ``sensitivity`` (the
    last such threshold on ties), over ``num_thresholds`` thresholds in [0, 1].

    Args:
        labels: The 0/1 ground truth.
        predictions: Scores in [0, 1].
        sensitivity: The sensitivity to match, in [0, 1].
        weights: Weights broadcastable to the values, or None.
        num_thresholds: How many thresholds to try.
        metrics_collections: Collections the value is added to.
        updates_collections: Collections the update op is added to.
        name: The variable scope (``specificity_at_sensitivity``).

    Returns:
        ``(specificity, update_op)``: float32 scalars.

    Raises:
        RuntimeError: Executing eagerly.
        ValueError: ``sensitivity`` outside [0, 1].
    """
    _graph_only("specificity_at_sensitivity")
    if sensitivity < 0 or sensitivity > 1:
        raise ValueError("`sensitivity` must be in the range [0, 1]. Currently, "
                         "`sensitivity` is %s." % (sensitivity,))
    _check_collections(metrics_collections, updates_collections)
    with variable_scope(name, "specificity_at_sensitivity", (predictions, labels, weights)):
        values, updates = _confusion_at_thresholds(
            labels, predictions, _thresholds(num_thresholds, 1.0 - _KEPSILON), weights)

        def compute(tp: Any, tn: Any, fp: Any, fn: Any, op_name: str) -> Any:
            distance = abs(subtract(divide(tp, tp + fn + _KEPSILON), sensitivity))
            at_min = cast(equal(distance, reduce_min(distance)), dtypes.int64)
            index = cast(argmax(cumsum(at_min), 0), dtypes.int32)
            return divide(tn[index], tn[index] + fp[index] + _KEPSILON, name=op_name)

        value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        update = compute(updates["tp"], updates["tn"], updates["fp"], updates["fn"],
                         "update_op")
        return _collect(value, update, metrics_collections, updates_collections)


__all__ = ["average_precision_at_k", "precision_at_k", "precision_at_top_k", "recall_at_k",
           "recall_at_top_k", "sensitivity_at_specificity", "sparse_average_precision_at_k",
           "sparse_precision_at_k", "specificity_at_sensitivity"]
