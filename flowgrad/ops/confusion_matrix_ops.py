"""``tf.math.confusion_matrix``, built from ops as in TensorFlow (a ScatterNd of ones or of
the weights, so the weights' gradient flows through it)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import control_dependencies, name_scope
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.ops.arithmetic_ops import maximum
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.check_ops import assert_less, assert_non_negative
from flowgrad.ops.constant_ops import identity
from flowgrad.ops.fill_ops import ones_like
from flowgrad.ops.reduction_ops import reduce_max
from flowgrad.ops.scatter_nd_ops import scatter_nd
from flowgrad.ops.shape_ops import stack
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def confusion_matrix(labels: TensorLike, predictions: TensorLike, num_classes: Any = None,
                     weights: TensorLike | None = None, dtype: DTypeLike = dtypes.int32,
                     name: str | None = None) -> Any:
    """The confusion matrix of ``labels`` against ``predictions``: entry ``[i, j]`` counts
    (or sums the ``weights`` of) the examples of label ``i`` predicted as ``j``.

    Args:
      labels: 1-D integer tensor of true classes.
      predictions: 1-D integer tensor of predicted classes, the same length.
      num_classes: the number of classes; by default one more than the largest class seen.
      weights: optional 1-D tensor of per-example weights.
      dtype: the result's dtype.
      name: the op name scope.

    Returns:
      A ``[num_classes, num_classes]`` tensor of ``dtype``.

    Raises:
      InvalidArgumentError: a negative class, or one not below ``num_classes``.
    """
    with name_scope(name, "confusion_matrix", [labels, predictions, num_classes, weights]):
        labels = cast(convert_to_tensor(labels, name="labels"), dtypes.int64)
        predictions = cast(convert_to_tensor(predictions, name="predictions"), dtypes.int64)
        checks = [assert_non_negative(labels, message="`labels` contains negative values."),
                  assert_non_negative(predictions,
                                      message="`predictions` contains negative values.")]
        if num_classes is None:
            num_classes = maximum(reduce_max(predictions), reduce_max(labels)) + 1
            size = stack([num_classes, num_classes])
        else:
            known = None if is_tensor(num_classes) else int(num_classes)
            num_classes = cast(convert_to_tensor(num_classes), dtypes.int64)
            size = stack([num_classes, num_classes]) if known is None \
                else np.array([known, known], np.int64)    # a static shape, as in TensorFlow
            checks += [assert_less(labels, num_classes, message="`labels` out of bound"),
                       assert_less(predictions, num_classes,
                                   message="`predictions` out of bound")]
        checks = [c for c in checks if c is not None]
        if checks:
            with control_dependencies(checks):
                labels = identity(labels)
        indices = stack([labels, predictions], axis=1)
        values = ones_like(predictions, dtype) if weights is None \
            else cast(convert_to_tensor(weights), dtype)
        return scatter_nd(indices, values, size)


__all__ = ["confusion_matrix"]
