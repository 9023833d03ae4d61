"""``tf.compat.v1.metrics``: streaming metrics whose counters are local variables."""
from flowgrad.metrics.metrics_impl import (
    accuracy,
    auc,
    false_negatives,
    false_positives,
    mean,
    mean_absolute_error,
    mean_squared_error,
    precision,
    recall,
    root_mean_squared_error,
    true_positives,
)

from flowgrad.metrics.metrics_at_k import (
    average_precision_at_k,
    precision_at_k,
    precision_at_top_k,
    recall_at_k,
    recall_at_top_k,
    sensitivity_at_specificity,
    sparse_average_precision_at_k,
    sparse_precision_at_k,
    specificity_at_sensitivity,
)
from flowgrad.metrics.metrics_more import (
    false_negatives_at_thresholds,
    false_positives_at_thresholds,
    mean_cosine_distance,
    mean_iou,
    mean_per_class_accuracy,
    mean_relative_error,
    mean_tensor,
    percentage_below,
    precision_at_thresholds,
    recall_at_thresholds,
    true_negatives,
    true_negatives_at_thresholds,
    true_positives_at_thresholds,
)

__all__ = ["accuracy", "auc", "false_negatives", "false_positives", "mean",
           "mean_absolute_error", "mean_squared_error", "precision", "recall",
           "root_mean_squared_error", "true_positives",
           "false_negatives_at_thresholds", "false_positives_at_thresholds",
           "mean_cosine_distance", "mean_iou", "mean_per_class_accuracy", "mean_relative_error",
           "mean_tensor", "percentage_below", "precision_at_thresholds", "recall_at_thresholds",
           "true_negatives", "true_negatives_at_thresholds", "true_positives_at_thresholds",
           "average_precision_at_k", "precision_at_k", "precision_at_top_k", "recall_at_k",
           "recall_at_top_k", "sensitivity_at_specificity", "sparse_average_precision_at_k",
           "sparse_precision_at_k", "specificity_at_sensitivity"]


def __dir__() -> list:
    """TensorFlow's tf.compat.v1.metrics names; the implementation modules stay importable."""
    return sorted(__all__)
