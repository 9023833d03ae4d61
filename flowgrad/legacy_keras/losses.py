"""``keras.losses``: Keras 3 loss functions (per-sample values) and Loss classes (reduced).

A Loss class converts ``y_true``/``y_pred`` to float32, squeezes or expands a
trailing dimension of size 1 so their ranks agree, computes the per-sample loss,
multiplies by ``sample_weight`` and reduces: ``"sum_over_batch_size"`` (the
default: sum / number of values), ``"sum"``, ``"mean_with_sample_weight"`` (sum /
sum of weights) or ``"none"``. Probability-based cross-entropies clip
predictions to [1e-7, 1 - 1e-7]; in a traced graph a prediction computed by a
Softmax (Sigmoid) op is replaced by that op's logits, as Keras does on TensorFlow."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import EagerTensor, Tensor, convert_to_tensor
from flowgrad.ops import array_ops, math_ops, nn_impl, nn_ops
from flowgrad.framework.type_hints import DTypeLike, TensorLike

EPSILON = 1e-7
_REDUCTIONS = ("sum", "sum_over_batch_size", "mean", "mean_with_sample_weight", "none", None)


def _float(x: Any, dtype: Any = None) -> Any:
    """``x`` as a tensor of ``dtype`` (default: its own float type, else float32)."""
    if hasattr(x, "_as_tensor"):
        x = x._as_tensor()
    t = convert_to_tensor(x)
    if dtype is None:
        dtype = t.dtype.base_dtype if t.dtype.is_floating else dtypes.float32
    return t if t.dtype.base_dtype is dtype else math_ops.cast(t, dtype)


def _is_integer(x: Any) -> bool:
    dt = getattr(x, "dtype", None)
    return dt is not None and dtypes.as_dtype(dt).is_integer


def squeeze_or_expand_to_same_rank(x1: TensorLike, x2: TensorLike,
                                   expand_rank_1: bool = True) -> tuple:
    """Makes two tensors' ranks agree by squeezing (or expanding) a trailing 1."""
    r1, r2 = x1.shape.rank, x2.shape.rank
    if r1 is None or r2 is None or r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and x1.shape.as_list()[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = array_ops.expand_dims(x2, -1)
        else:
            x1 = array_ops.squeeze(x1, [-1])
    if r2 == r1 + 1 and x2.shape.as_list()[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = array_ops.expand_dims(x1, -1)
        else:
            x2 = array_ops.squeeze(x2, [-1])
    return x1, x2


def _check_same_shape(y_true: Any, y_pred: Any) -> None:
    a, b = y_true.shape.as_list(), y_pred.shape.as_list()
    if a is None or b is None:
        return
    if len(a) != len(b):
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). "
                         "Received: target.shape=%s, output.shape=%s"
                         % (y_true.shape, y_pred.shape))
    if any(p is not None and q is not None and p != q for p, q in zip(a, b)):
        raise ValueError("Arguments `target` and `output` must have the same shape. "
                         "Received: target.shape=%s, output.shape=%s"
                         % (y_true.shape, y_pred.shape))


def _get_logits(output: Any, from_logits: bool, op_type: str, fn_name: str) -> tuple:
    """In a graph, a Softmax/Sigmoid output stands for its op's input (the logits)."""
    if isinstance(output, Tensor) and not isinstance(output, EagerTensor) and \
            output.op.type == op_type:
        if from_logits:
            warnings.warn('"`%s` received `from_logits=True`, but the `output` argument was '
                          "produced by a %s activation and thus does not represent logits. "
                          "Was this intended?" % (fn_name, op_type), stacklevel=3)
        return output.op.inputs[0], True
    return output, from_logits


# --------------------------------------------------------------------------------------
# Loss functions (per sample)


def mean_squared_error(y_true: TensorLike, y_pred: TensorLike) -> Any:
    """mean((y_pred - y_true)**2, axis=-1).

    Args:
        y_true: The ground truth.
        y_pred: The predictions, as ``y_true``'s shape (for the sparse loss: with a class axis).
    """
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype.base_dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true: TensorLike, y_pred: TensorLike) -> Any:
    """mean(|y_pred - y_true|, axis=-1).

    Args:
        y_true: The ground truth.
        y_pred: The predictions, as ``y_true``'s shape (for the sparse loss: with a class axis).
    """
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype.base_dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.abs(y_pred - y_true), axis=-1)


def huber(y_true: TensorLike, y_pred: TensorLike, delta: float = 1.0) -> Any:
    """mean(0.5 e**2 if |e| <= delta else delta |e| - 0.5 delta**2), e = y_pred - y_true.

    Args:
        y_true: The ground truth.
        y_pred: The predictions, as ``y_true``'s shape (for the sparse loss: with a class axis).
        delta: Where the loss turns from quadratic to linear.
    """
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype.base_dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    error = y_pred - y_true
    abs_error = math_ops.abs(error)
    quadratic = 0.5 * math_ops.square(error)
    linear = delta * abs_error - 0.5 * delta * delta
    return math_ops.reduce_mean(math_ops.where(abs_error <= delta, quadratic, linear), axis=-1)


def categorical_crossentropy(y_true: TensorLike, y_pred: TensorLike, from_logits: bool = False,
                             label_smoothing: float = 0.0, axis: int = -1) -> Any:
    """-sum(y_true * log(y_pred)) over ``axis`` (softmax cross-entropy with logits).

    Args:
        y_true: The ground truth.
        y_pred: The predictions, as ``y_true``'s shape (for the sparse loss: with a class axis).
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        label_smoothing: Smooth the labels towards the uniform distribution (0: none).
        axis: The class axis.
    """
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype.base_dtype)
    if label_smoothing:
        n = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype.base_dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    _check_same_shape(y_true, y_pred)
    output, from_logits = _get_logits(y_pred, from_logits, "Softmax",
                                      "categorical_crossentropy")
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=y_true, logits=output,
                                                           axis=axis)
    output = output / math_ops.reduce_sum(output, axis, keepdims=True)
    output = math_ops.clip_by_value(output, EPSILON, 1.0 - EPSILON)
    return -math_ops.reduce_sum(y_true * math_ops.log(output), axis)


def sparse_categorical_crossentropy(y_true: TensorLike, y_pred: TensorLike,
                                    from_logits: bool = False, ignore_class: int | None = None,
                                    axis: int = -1) -> Any:
    """Categorical cross-entropy with integer class labels.

    Args:
        y_true: The ground truth.
        y_pred: The predictions, as ``y_true``'s shape (for the sparse loss: with a class axis).
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        ignore_class: A class id whose examples are left out of the loss; None keeps all.
        axis: The class axis.
    """
    y_pred = _float(y_pred)
    output, from_logits = _get_logits(y_pred, from_logits, "Softmax",
                                      "sparse_categorical_crossentropy")
    target = convert_to_tensor(y_true._as_tensor() if hasattr(y_true, "_as_tensor") else y_true)
    if target.dtype.base_dtype is not dtypes.int64:
        target = math_ops.cast(target, dtypes.int64)
    tr, orank = target.shape.rank, output.shape.rank
    if tr is not None and orank is not None and tr == orank and \
            target.shape.as_list()[-1] == 1:
        target = array_ops.squeeze(target, [-1])
        tr -= 1
    if tr is not None and orank is not None and tr != orank - 1:
        raise ValueError("Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
                         "target.shape=%s, output.shape=%s" % (target.shape, output.shape))
    if not from_logits:
        output = math_ops.log(math_ops.clip_by_value(output, EPSILON, 1.0 - EPSILON))
    return nn_ops.sparse_softmax_cross_entropy_with_logits_v2(labels=target, logits=output)


def binary_crossentropy(y_true: TensorLike, y_pred: TensorLike, from_logits: bool = False,
                        label_smoothing: float = 0.0, axis: int = -1) -> Any:
    """mean(-(y log p + (1 - y) log(1 - p)), axis=-1).

    Args:
        y_true: The ground truth.
        y_pred: The predictions, as ``y_true``'s shape (for the sparse loss: with a class axis).
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        label_smoothing: Smooth the labels towards the uniform distribution (0: none).
        axis: The class axis.
    """
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype.base_dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _check_same_shape(y_true, y_pred)
    output, from_logits = _get_logits(y_pred, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        bce = nn_impl.sigmoid_cross_entropy_with_logits_v2(labels=y_true, logits=output)
    else:
        output = math_ops.clip_by_value(output, EPSILON, 1.0 - EPSILON)
        bce = -(y_true * math_ops.log(output) + (1.0 - y_true) * math_ops.log(1.0 - output))
    return math_ops.reduce_mean(bce, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


# --------------------------------------------------------------------------------------
# Reductions


def _reduce_weighted(values: Any, sample_weight: Any, reduction: str | None) -> Any:
    if sample_weight is not None:
        sample_weight = _float(sample_weight, values.dtype.base_dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        values = values * sample_weight
    if reduction in (None, "none") or values.shape.rank == 0:
        return values
    loss = math_ops.reduce_sum(values)
    if reduction == "sum":
        return loss
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        divisor = math_ops.reduce_sum(sample_weight + array_ops.zeros_like(values))
    else:
        divisor = math_ops.cast(array_ops.size(values), loss.dtype.base_dtype)
    return math_ops.div_no_nan(loss, divisor)


def standardize_reduction(reduction: Any) -> Any:
    if reduction == "auto":
        return "sum_over_batch_size"
    if reduction not in _REDUCTIONS:
        raise ValueError("Invalid value for argument `reduction`. Expected one of %s. Received: "
                         "reduction=%s" % (list(_REDUCTIONS), reduction))
    return reduction


# --------------------------------------------------------------------------------------
# Loss classes


class Loss:
    """Base class: ``loss(y_true, y_pred, sample_weight=None)`` -> reduced loss.

    Args:
        name: The loss's name.
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, name: str | None = None, reduction: Any = "sum_over_batch_size",
                 dtype: DTypeLike | None = None):
        self.name = name or type(self).__name__.lower()
        self.reduction = standardize_reduction(reduction)
        self.dtype = dtypes.as_dtype(dtype or "float32")

    def __call__(self, y_true: TensorLike, y_pred: TensorLike, sample_weight: Any = None) -> Any:
        y_pred = _float(y_pred, self.dtype)
        y_true = y_true if _is_integer(y_true) else _float(y_true, self.dtype)
        return _reduce_weighted(self.call(y_true, y_pred), sample_weight, self.reduction)

    def call(self, y_true: TensorLike, y_pred: TensorLike) -> Any:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}


class LossFunctionWrapper(Loss):
    """A Loss whose per-sample values come from ``fn(y_true, y_pred, **kwargs)``."""

    def __init__(self, fn: Callable, reduction: Any = "sum_over_batch_size",
                 name: str | None = None, dtype: DTypeLike | None = None, **kwargs: Any):
        super().__init__(name=name or getattr(fn, "__name__", None), reduction=reduction,
                         dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true: TensorLike, y_pred: TensorLike) -> Any:
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squared errors.

    Args:
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        name: A name for the operation (optional).
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_squared_error",
                 dtype: DTypeLike | None = None):
        super().__init__(mean_squared_error, reduction, name, dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors.

    Args:
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        name: A name for the operation (optional).
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, reduction: Any = "sum_over_batch_size",
                 name: str = "mean_absolute_error", dtype: DTypeLike | None = None):
        super().__init__(mean_absolute_error, reduction, name, dtype)


class Huber(LossFunctionWrapper):
    """Quadratic for |error| <= delta, linear beyond.

    Args:
        delta: Where the loss turns from quadratic to linear.
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        name: A name for the operation (optional).
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, delta: float = 1.0, reduction: Any = "sum_over_batch_size",
                 name: str = "huber_loss", dtype: DTypeLike | None = None):
        super().__init__(huber, reduction, name, dtype, delta=delta)


class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy with one-hot labels (``from_logits`` for unnormalized predictions).

    Args:
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        label_smoothing: Smooth the labels towards the uniform distribution (0: none).
        axis: The class axis.
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        name: A name for the operation (optional).
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0,
                 axis: int = -1, reduction: Any = "sum_over_batch_size",
                 name: str = "categorical_crossentropy", dtype: DTypeLike | None = None):
        super().__init__(categorical_crossentropy, reduction, name, dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy with integer labels (``from_logits`` for unnormalized predictions).

    Args:
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        ignore_class: A class id whose examples are left out of the loss; None keeps all.
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        name: A name for the operation (optional).
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, from_logits: bool = False, ignore_class: int | None = None,
                 reduction: Any = "sum_over_batch_size",
                 name: str = "sparse_categorical_crossentropy", dtype: DTypeLike | None = None):
        if ignore_class is not None:
            raise NotImplementedError("flowgrad's SparseCategoricalCrossentropy does not "
                                      "implement ignore_class")
        super().__init__(sparse_categorical_crossentropy, reduction, name, dtype,
                         from_logits=from_logits)


class BinaryCrossentropy(LossFunctionWrapper):
    """Cross-entropy of independent binary labels.

    Args:
        from_logits: Whether ``y_pred`` holds logits (else probabilities).
        label_smoothing: Smooth the labels towards the uniform distribution (0: none).
        axis: The class axis.
        reduction: How the per-example losses are reduced: ``"sum_over_batch_size"``, ``"sum"``,
            ``"mean"`` or None.
        name: A name for the operation (optional).
        dtype: The dtype of the loss computation; the float type of the backend when None.
    """

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0,
                 axis: int = -1, reduction: Any = "sum_over_batch_size",
                 name: str = "binary_crossentropy", dtype: DTypeLike | None = None):
        super().__init__(binary_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


_BY_NAME: dict[str, Any] = {
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
    "MSE": mean_squared_error, "mean_absolute_error": mean_absolute_error,
    "mae": mean_absolute_error, "MAE": mean_absolute_error, "huber": huber,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "binary_crossentropy": binary_crossentropy,
    "MeanSquaredError": MeanSquaredError, "MeanAbsoluteError": MeanAbsoluteError,
    "Huber": Huber, "CategoricalCrossentropy": CategoricalCrossentropy,
    "SparseCategoricalCrossentropy": SparseCategoricalCrossentropy,
    "BinaryCrossentropy": BinaryCrossentropy}


def get(identifier: Any) -> Any:
    """A loss from a name ('mse', 'sparse_categorical_crossentropy', 'Huber'), a Loss or a
    function.

    Args:
        identifier: A name, a config dict, a callable, or None.
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:
            raise ValueError("Could not interpret loss identifier: %s" % identifier)
        return fn() if isinstance(fn, type) else fn
    if isinstance(identifier, type) and issubclass(identifier, Loss):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret loss identifier: %r" % (identifier,))


__all__ = ["Loss", "MeanSquaredError", "MeanAbsoluteError", "Huber",
           "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "BinaryCrossentropy",
           "mean_squared_error", "mean_absolute_error", "huber", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "binary_crossentropy", "mse", "mae", "MSE", "MAE",
           "get"]


def __dir__() -> list:
    """tf.keras.losses of TensorFlow 2.15 (``__all__``); imported helpers stay hidden."""
    return sorted(__all__)
