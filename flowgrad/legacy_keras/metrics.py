"""``keras.metrics``: stateful metrics (``update_state`` / ``result`` / ``reset_state``).

Each metric keeps its running state in non-trainable variables (``Mean``: ``total``
and ``count``), so it can be updated eagerly or inside a tf.function train step.
``Mean.update_state(values, sample_weight)`` reduces ``values`` to one value per
sample (mean over the other axes), then adds ``sum(values * weight)`` to ``total``
and ``sum(weight)`` (or the number of samples) to ``count``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.runtime.function import FuncGraph, init_scope
from flowgrad.legacy_keras import losses as losses_lib
from flowgrad.legacy_keras.losses import squeeze_or_expand_to_same_rank
# Keras 2's metric functions of these names are its loss functions
from flowgrad.legacy_keras.losses import (MAE, MSE, binary_crossentropy,
                                          categorical_crossentropy, mae,
                                          mean_absolute_error, mean_squared_error, mse,
                                          sparse_categorical_crossentropy)
from flowgrad.ops import array_ops, math_ops
from flowgrad.ops.state_ops import EagerVariable, Variable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


def _tensor(x: Any, dtype: Any = None) -> Any:
    return losses_lib._float(x, dtype) if dtype is not None else losses_lib.convert_to_tensor(
        x._as_tensor() if hasattr(x, "_as_tensor") else x)


class Metric:
    """Base class of stateful metrics.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str | None = None, dtype: DTypeLike | None = None):
        from flowgrad.legacy_keras.layers.base import to_snake_case
        self.name = name or to_snake_case(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self._variables: list = []

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def variables(self) -> list:
        """The metric's state variables."""
        return list(self._variables)

    def add_variable(self, shape: ShapeLike, initializer: Any = "zeros",
                     dtype: DTypeLike | None = None, aggregation: str = "sum",
                     name: str | None = None) -> Any:
        """A non-trainable state variable (zeros by default)."""
        dt = dtypes.as_dtype(dtype) if dtype is not None else self._dtype
        fill = {"zeros": 0, "ones": 1}.get(initializer, initializer) \
            if isinstance(initializer, str) else initializer
        value = np.full(tuple(shape), fill, dt.np)
        if executing_eagerly() or isinstance(get_default_graph(), FuncGraph):
            with init_scope():
                var = EagerVariable(value, trainable=False, name=name or "variable", dtype=dt)
        else:
            var = Variable(value, trainable=False, name=name, dtype=dt,
                           collections=[GraphKeys.LOCAL_VARIABLES])
        self._variables.append(var)
        return var

    def update_state(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def result(self) -> Any:
        raise NotImplementedError

    def reset_state(self) -> None:
        """Sets every state variable back to zero."""
        for v in self._variables:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.base_dtype.np))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Updates the state with one batch and returns the new result."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self._dtype.name}

    def __repr__(self) -> str:
        return "<%s name=%s>" % (type(self).__name__, self.name)


def _samplewise(values: Any, sample_weight: Any, dtype: dtypes.DType) -> tuple:
    values = _tensor(values, dtype)
    if sample_weight is not None:
        sample_weight = _tensor(sample_weight, dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        w_rank, v_rank = sample_weight.shape.rank, values.shape.rank
        if v_rank > w_rank:
            values = math_ops.reduce_mean(values, list(range(w_rank, v_rank)))
        sample_weight = sample_weight + array_ops.zeros_like(values)
        values = values * sample_weight
        if w_rank > 1:
            sample_weight = math_ops.reduce_mean(sample_weight, list(range(1, w_rank)))
    if values.shape.rank > 1:
        values = math_ops.reduce_mean(values, list(range(1, values.shape.rank)))
    return values, sample_weight


class Sum(Metric):
    """The running (weighted) sum of the values.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "sum", dtype: DTypeLike | None = None):
        super().__init__(name, dtype)
        self.total = self.add_variable((), name="total")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        values, _ = _samplewise(values, sample_weight, self._dtype)
        self.total.assign_add(math_ops.reduce_sum(values))

    def result(self) -> Any:
        return self.total.value()


class Mean(Metric):
    """The running (weighted) mean of the values: total / count.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "mean", dtype: DTypeLike | None = None):
        super().__init__(name, dtype)
        self.total = self.add_variable((), name="total")
        self.count = self.add_variable((), name="count")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        values, sample_weight = _samplewise(values, sample_weight, self._dtype)
        self.total.assign_add(math_ops.reduce_sum(values))
        if sample_weight is not None:
            n = math_ops.reduce_sum(sample_weight)
        elif values.shape.rank:
            n = math_ops.cast(array_ops.shape(values)[0], self._dtype)
        else:
            n = 1.0
        self.count.assign_add(n)

    def result(self) -> Any:
        return math_ops.div_no_nan(self.total.value(), self.count.value())


class MeanMetricWrapper(Mean):
    """The mean of ``fn(y_true, y_pred, **kwargs)`` over all samples seen.

    Args:
        fn: A function (y_true, y_pred, **kwargs) returning per-example values.
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
        **kwargs: Passed to ``fn``.
    """

    def __init__(self, fn: Callable, name: str | None = None, dtype: DTypeLike | None = None,
                 **kwargs: Any):
        super().__init__(name=name or getattr(fn, "__name__", "mean_metric_wrapper"),
                         dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true: TensorLike, y_pred: TensorLike,
                     sample_weight: Any = None) -> None:
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight)


# --------------------------------------------------------------------------------------
# Accuracy functions (one value per sample)


def accuracy(y_true: TensorLike, y_pred: TensorLike) -> Any:
    """1.0 where y_true == y_pred."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype.base_dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return math_ops.cast(math_ops.equal(y_true, y_pred), dtypes.float32)


def binary_accuracy(y_true: TensorLike, y_pred: TensorLike, threshold: float = 0.5) -> Any:
    """Mean over the last axis of (y_pred > threshold) == y_true.

    Args:
        y_true: The ground truth.
        y_pred: The predictions.
        threshold: Predictions above it count as 1.
    """
    y_pred = _tensor(y_pred, dtypes.float32)
    y_true = _tensor(y_true, dtypes.float32)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    pred = math_ops.cast(math_ops.greater(y_pred, threshold), dtypes.float32)
    return math_ops.reduce_mean(math_ops.cast(math_ops.equal(y_true, pred), dtypes.float32),
                                axis=-1)


def categorical_accuracy(y_true: TensorLike, y_pred: TensorLike) -> Any:
    """1.0 where argmax(y_true) == argmax(y_pred).

    Args:
        y_true: The ground truth.
        y_pred: The predictions.
    """
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true)
    return math_ops.cast(math_ops.equal(math_ops.argmax_v2(y_true, -1),
                                        math_ops.argmax_v2(y_pred, -1)), dtypes.float32)


def sparse_categorical_accuracy(y_true: TensorLike, y_pred: TensorLike) -> Any:
    """1.0 where the integer label y_true == argmax(y_pred).

    Args:
        y_true: The ground truth.
        y_pred: The predictions.
    """
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype.base_dtype)
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank and \
            y_true.shape.as_list()[-1] == 1:
        y_true = array_ops.squeeze(y_true, [-1])
    pred = math_ops.cast(math_ops.argmax_v2(y_pred, -1), y_true.dtype.base_dtype)
    return math_ops.cast(math_ops.equal(y_true, pred), dtypes.float32)


# --------------------------------------------------------------------------------------
# Metric classes


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "accuracy", dtype: DTypeLike | None = None):
        super().__init__(accuracy, name, dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often thresholded predictions equal binary labels.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
        threshold: Predictions above it count as 1.
    """

    def __init__(self, name: str = "binary_accuracy", dtype: DTypeLike | None = None,
                 threshold: float = 0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the predicted class equals the one-hot label's class.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "categorical_accuracy", dtype: DTypeLike | None = None):
        super().__init__(categorical_accuracy, name, dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the predicted class equals the integer label.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "sparse_categorical_accuracy", dtype: DTypeLike | None = None):
        super().__init__(sparse_categorical_accuracy, name, dtype)


class MeanSquaredError(MeanMetricWrapper):
    """The mean of squared errors over all samples seen.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "mean_squared_error", dtype: DTypeLike | None = None):
        super().__init__(losses_lib.mean_squared_error, name, dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The mean of absolute errors over all samples seen.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
    """

    def __init__(self, name: str = "mean_absolute_error", dtype: DTypeLike | None = None):
        super().__init__(losses_lib.mean_absolute_error, name, dtype)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean sparse categorical cross-entropy over all samples seen.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
    """

    def __init__(self, name: str = "sparse_categorical_crossentropy",
                 dtype: DTypeLike | None = None, from_logits: bool = False):
        super().__init__(losses_lib.sparse_categorical_crossentropy, name, dtype,
                         from_logits=from_logits)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean categorical cross-entropy over all samples seen.

    Args:
        name: A name for the operation (optional).
        dtype: The dtype of the metric's variables; float32 when None.
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        label_smoothing: Smooth the labels towards the uniform distribution (0: none).
    """

    def __init__(self, name: str = "categorical_crossentropy", dtype: DTypeLike | None = None,
                 from_logits: bool = False, label_smoothing: float = 0.0):
        super().__init__(losses_lib.categorical_crossentropy, name, dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing)


_BY_NAME: dict[str, Any] = {
    "accuracy": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "mean_squared_error": MeanSquaredError, "mse": MeanSquaredError,
    "mean_absolute_error": MeanAbsoluteError, "mae": MeanAbsoluteError,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
    "categorical_crossentropy": CategoricalCrossentropy}
_BY_NAME.update({cls.__name__: cls for cls in set(_BY_NAME.values())})
_BY_NAME.update({"Mean": Mean, "Sum": Sum})


def get(identifier: Any) -> Any:
    """A metric from a name ('sparse_categorical_accuracy', 'mse', 'AUC'...), a Metric, a
    Metric class or a function ``(y_true, y_pred) -> values``.

    Args:
        identifier: A name, a config dict, a callable (or instance), or None.
    """
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise ValueError("Could not interpret metric identifier: %r" % (identifier,))


__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "SparseCategoricalCrossentropy", "CategoricalCrossentropy",
           "binary_accuracy", "MAE", "MSE", "mae", "mse", "mean_absolute_error",
           "mean_squared_error", "binary_crossentropy", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "categorical_accuracy", "sparse_categorical_accuracy",
           "get"]


def __dir__() -> list:
    """tf.keras.metrics of TensorFlow 2.15 (``__all__``); imported helpers stay hidden."""
    return sorted(__all__)
