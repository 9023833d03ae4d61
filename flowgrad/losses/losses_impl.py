"""TF1's ``tf.losses``: per-element losses reduced by ``compute_weighted_loss``.

As in TensorFlow, every loss is computed in float32 (inputs are cast) and cast
back to the input's dtype, is added to ``tf.GraphKeys.LOSSES``, and is reduced
with ``Reduction.SUM_BY_NONZERO_WEIGHTS`` by default: the weighted sum divided by
the number of elements whose (broadcast) weight is nonzero."""
from __future__ import annotations

from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.graph import GraphKeys, name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.losses.util import add_loss
from flowgrad.ops.array_ops import ones_like, shape, size, squeeze, stop_gradient, zeros_like
from flowgrad.ops.math_ops import (abs, add, cast, div_no_nan, equal, log, minimum, multiply,
                                   reduce_sum, squared_difference, subtract, where)
from flowgrad.ops.nn_impl import sigmoid_cross_entropy_with_logits_v2
from flowgrad.ops.nn_ops import relu as _relu
from flowgrad.ops.nn_ops import (softmax_cross_entropy_with_logits_v2,
                                 sparse_softmax_cross_entropy_with_logits_v2)
from flowgrad.framework.type_hints import TensorLike


class Reduction:
    """How ``compute_weighted_loss`` reduces the weighted losses."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key: str) -> None:
        if key not in cls.all():
            raise ValueError("Invalid Reduction Key %s." % key)


def _value(x: Any) -> Any:
    return x._as_tensor() if hasattr(x, "_as_tensor") else x


def _check_broadcastable(weights: Any, losses: Any) -> None:
    """ValueError unless ``weights`` is a scalar or has the losses' rank with dims 1 or equal."""
    w, v = weights.shape.as_tuple(), losses.shape.as_tuple()
    if w is None or v is None or len(w) == 0:
        return
    if len(w) != len(v) or any(a is not None and b is not None and a != 1 and a != b
                               for a, b in zip(w, v)):
        raise ValueError("weights can not be broadcast to values. values.rank=%d. "
                         "weights.rank=%d. values.shape=%s. weights.shape=%s."
                         % (len(v), len(w), losses.shape, weights.shape))


def _num_present(losses: Any, weights: Any) -> Any:
    """The number of loss elements whose broadcast weight is nonzero."""
    with name_scope(None, "num_present", [losses, weights]) as scope:
        present = where(equal(weights, 0.0), zeros_like(weights), ones_like(weights))
        present = multiply(present, ones_like(losses))
        return reduce_sum(present, name=scope or None)


def compute_weighted_loss(losses: Any, weights: TensorLike = 1.0, scope: str | None = None,
                          loss_collection: str | None = GraphKeys.LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``losses * weights`` reduced as ``reduction`` says; added to ``loss_collection``.

    Args:
        losses: A tensor of per-element losses.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    Reduction.validate(reduction)
    with name_scope(scope, "weighted_loss", [losses, weights]):
        losses = convert_to_tensor(_value(losses))
        input_dtype = losses.dtype.base_dtype
        losses = cast(losses, dtypes.float32)
        weights = cast(convert_to_tensor(_value(weights)), dtypes.float32)
        _check_broadcastable(weights, losses)
        weighted = multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                loss = div_no_nan(loss, reduce_sum(multiply(ones_like(losses), weights)))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = div_no_nan(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = div_no_nan(loss, cast(size(losses), dtypes.float32))
        loss = cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


def _not_none(**args: Any) -> None:
    """TF's ValueError for the first of ``args`` (in order) that is None."""
    for name, value in args.items():
        if value is None:
            raise ValueError("Argument `%s` must not be None." % name)


def _pair(labels: Any, predictions: Any, what: str = "predictions") -> tuple:
    _not_none(labels=labels, **{what: predictions})
    labels = cast(convert_to_tensor(_value(labels)), dtypes.float32)
    predictions = cast(convert_to_tensor(_value(predictions)), dtypes.float32)
    _compatible(predictions, labels, what, "labels")
    return labels, predictions


def _compatible(a: Any, b: Any, a_name: str, b_name: str) -> None:
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError("Shapes %s and %s are incompatible: %s and %s must have the same shape"
                         % (a.shape, b.shape, a_name, b_name))


def absolute_difference(labels: TensorLike, predictions: TensorLike, weights: TensorLike = 1.0,
                        scope: str | None = None, loss_collection: str = GraphKeys.LOSSES,
                        reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``|predictions - labels|``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    with name_scope(scope, "absolute_difference", [predictions, labels, weights]) as sc:
        labels, predictions = _pair(labels, predictions)
        losses = abs(subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def mean_squared_error(labels: TensorLike, predictions: TensorLike, weights: TensorLike = 1.0,
                       scope: str | None = None, loss_collection: str = GraphKeys.LOSSES,
                       reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``(predictions - labels)**2``.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    with name_scope(scope, "mean_squared_error", [predictions, labels, weights]) as sc:
        labels, predictions = _pair(labels, predictions)
        losses = squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def huber_loss(labels: TensorLike, predictions: TensorLike, weights: TensorLike = 1.0,
               delta: float = 1.0, scope: str | None = None,
               loss_collection: str = GraphKeys.LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted Huber loss: quadratic up to ``delta``, linear beyond.

    Args:
        labels: The ground truth, as ``predictions``' shape.
        predictions: The predicted values.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        delta: Where the loss turns from quadratic to linear.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    with name_scope(scope, "huber_loss", [predictions, labels, weights]) as sc:
        labels, predictions = _pair(labels, predictions)
        abs_error = abs(subtract(predictions, labels))
        quadratic = minimum(abs_error, delta)
        linear = subtract(abs_error, quadratic)
        losses = add(multiply(0.5, multiply(quadratic, quadratic)), multiply(delta, linear))
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def log_loss(labels: TensorLike, predictions: TensorLike, weights: TensorLike = 1.0,
             epsilon: float = 1e-7, scope: str | None = None,
             loss_collection: str = GraphKeys.LOSSES,
             reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``-y log(p + eps) - (1 - y) log(1 - p + eps)``.

    Args:
        labels: The labels in [0, 1], as ``predictions``' shape.
        predictions: The predicted probabilities.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        epsilon: Added inside the logarithms to avoid log(0).
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    with name_scope(scope, "log_loss", [predictions, labels, weights]) as sc:
        labels, predictions = _pair(labels, predictions)
        losses = subtract(multiply(-1.0, multiply(labels, log(add(predictions, epsilon)))),
                          multiply(subtract(1.0, labels),
                                   log(add(subtract(1.0, predictions), epsilon))))
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def hinge_loss(labels: TensorLike, logits: TensorLike, weights: TensorLike = 1.0,
               scope: str | None = None, loss_collection: str = GraphKeys.LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``max(0, 1 - (2 labels - 1) * logits)`` for labels in {0, 1}.

    Args:
        labels: The labels in {0, 1}, as ``logits``' shape.
        logits: The logits (the classifier's scores).
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    with name_scope(scope, "hinge_loss", [logits, labels, weights]) as sc:
        labels, logits = _pair(labels, logits, "logits")
        signed = subtract(multiply(2.0, labels), 1.0)
        losses = _relu(subtract(1.0, multiply(signed, logits)))
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def cosine_distance(labels: TensorLike, predictions: TensorLike, axis: int | None = None,
                    weights: TensorLike = 1.0, scope: str | None = None,
                    loss_collection: str = GraphKeys.LOSSES,
                    reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS,
                    dim: int | None = None) -> Any:
    """Weighted ``1 - sum(labels * predictions, axis)`` (inputs assumed unit-normalized).

    Args:
        labels: Unit-normalized ground truth, as ``predictions``' shape.
        predictions: Unit-normalized predictions.
        axis: The axis the cosine is taken along.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
        dim: TF1's name for ``axis``.
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'.")
        axis = dim
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    with name_scope(scope, "cosine_distance_loss", [predictions, labels, weights]) as sc:
        labels, predictions = _pair(labels, predictions)
        losses = subtract(1.0, reduce_sum(multiply(predictions, labels), axis, keepdims=True))
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: TensorLike, weights: TensorLike = 1.0,
                          label_smoothing: float = 0, scope: str | None = None,
                          loss_collection: str = GraphKeys.LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted logistic loss; labels smoothed towards 1/2 by ``label_smoothing``.

    Args:
        multi_class_labels: The labels in [0, 1], as ``logits``' shape.
        logits: The logits.
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        label_smoothing: Smooth the labels towards 1/num_classes (0: none).
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    _not_none(multi_class_labels=multi_class_labels, logits=logits)
    with name_scope(scope, "sigmoid_cross_entropy_loss",
                    [logits, multi_class_labels, weights]) as sc:
        logits = convert_to_tensor(_value(logits))
        labels = cast(convert_to_tensor(_value(multi_class_labels)), logits.dtype.base_dtype)
        _compatible(logits, labels, "logits", "multi_class_labels")
        if label_smoothing > 0:
            labels = add(multiply(labels, 1 - label_smoothing), 0.5 * label_smoothing)
        losses = sigmoid_cross_entropy_with_logits_v2(labels=labels, logits=logits,
                                                      name="xentropy")
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def softmax_cross_entropy(onehot_labels: Any, logits: TensorLike, weights: TensorLike = 1.0,
                          label_smoothing: float = 0, scope: str | None = None,
                          loss_collection: str = GraphKeys.LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted softmax cross-entropy over the last axis (labels get no gradient).

    With ``label_smoothing`` s, labels become ``onehot * (1 - s) + s / num_classes``.

    Args:
        onehot_labels: The one-hot (or probability) labels, as ``logits``' shape.
        logits: The logits: [batch, classes].
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        label_smoothing: Smooth the labels towards 1/num_classes (0: none).
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    _not_none(onehot_labels=onehot_labels, logits=logits)
    with name_scope(scope, "softmax_cross_entropy_loss", [logits, onehot_labels, weights]) as sc:
        logits = convert_to_tensor(_value(logits))
        dt = logits.dtype.base_dtype
        labels = cast(convert_to_tensor(_value(onehot_labels)), dt)
        _compatible(logits, labels, "logits", "onehot_labels")
        if label_smoothing > 0:
            num_classes = cast(shape(labels)[-1], dt)
            labels = add(multiply(labels, 1.0 - label_smoothing),
                         div_no_nan(cast(label_smoothing, dt), num_classes))
        labels = stop_gradient(labels, name="labels_stop_gradient")
        losses = softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits,
                                                      name="xentropy")
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


def _squeeze_last(t: Any, rank: int | None) -> Any:
    """``t`` without its last dimension when that is 1 and ``t`` has rank ``rank``."""
    dims = t.shape.as_tuple()
    if dims is not None and rank is not None and len(dims) == rank and dims[-1] == 1:
        return squeeze(t, [-1])
    return t


def sparse_softmax_cross_entropy(labels: TensorLike, logits: TensorLike, weights: TensorLike = 1.0,
                                 scope: str | None = None,
                                 loss_collection: str = GraphKeys.LOSSES,
                                 reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted softmax cross-entropy with integer class labels (labels [batch] or [batch, 1]).

    Args:
        labels: The class ids: an int tensor of ``logits``' shape without the last axis.
        logits: The logits: [..., classes].
        weights: Per-example (or per-element) weights broadcastable to the losses; 1.0 weighs all
            equally.
        scope: The name scope of the loss's ops.
        loss_collection: The collection the loss is added to.
        reduction: How the weighted losses are reduced: a ``tf.losses.Reduction`` name.
    """
    _not_none(labels=labels, logits=logits)
    with name_scope(scope, "sparse_softmax_cross_entropy_loss", [logits, labels, weights]) as sc:
        logits = convert_to_tensor(_value(logits))
        labels = convert_to_tensor(_value(labels))
        rank = logits.shape.rank
        labels = _squeeze_last(labels, rank)
        weights = convert_to_tensor(_value(weights))
        if weights.shape.rank:
            weights = _squeeze_last(weights, rank)
        losses = sparse_softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits,
                                                             name="xentropy")
        return compute_weighted_loss(losses, weights, sc, loss_collection, reduction)


__all__ = ["Reduction", "compute_weighted_loss", "absolute_difference", "mean_squared_error",
           "huber_loss", "log_loss", "hinge_loss", "cosine_distance", "sigmoid_cross_entropy",
           "softmax_cross_entropy", "sparse_softmax_cross_entropy"]
