"""Neural-network ops: activations, softmax, cross-entropy losses, bias_add, l2_loss, dropout.

Each op is TensorFlow's op type with a NumPy kernel, a shape rule and a gradient built
from public ops; the fused gradient ops (ReluGrad, EluGrad, SoftplusGrad, BiasAddGrad,
...) carry their own gradients, so every derivative can be differentiated again.
Functions whose TF1 and TF2 signatures differ exist twice, as in TensorFlow: the TF1
form under the plain name and the TF2 form with a ``_v2`` suffix (``tf.nn``'s
entries in flowgrad/api/exports.py name the TF2 forms under the plain names)."""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import InvalidArgumentError, dims_text
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.shape_rules import constant_value, reduced_shape, unary
from flowgrad.framework.tensor import Tensor, convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops.array_ops import (
    _as_value,
    broadcast_to,
    concat,
    expand_dims,
    linear_in_all_jvp,
    rank,
    reshape,
    shape,
    shape_of,
    slice,
    stop_gradient,
    zeros_like,
)
from flowgrad.ops.broadcast_grad_ops import reduce_to_shape_of
from flowgrad.ops.math_helpers import attr_type_error
from flowgrad.ops.math_ops import (
    abs,
    add,
    cast,
    exp,
    greater_equal,
    less,
    multiply,
    negative,
    realdiv,
    reduce_sum,
    sigmoid,
    sign,
    square,
    subtract,
    tanh,
    where,
)
from flowgrad.framework.type_hints import AxisLike, ShapeLike
from flowgrad.framework import dispatch

# --------------------------------------------------------------------------------------
# Helpers

_FLOATS = "half, bfloat16, float, double"
# Ops whose one output is named after them (Softmax: ``logits:T -> softmax:T``).
_NAMED_OUTPUT = ("Softmax", "LogSoftmax")
_REALS = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"


def _input(x: Any, op_type: str, arg: str, floating_only: bool = True, dtype: Any = None) -> Any:
    """``x`` as a tensor whose dtype ``op_type`` accepts (TypeError naming the op if not)."""
    t = convert_to_tensor(_as_value(x), dtype)
    dt = t.dtype.base_dtype
    if not (dt.is_floating or not floating_only and dt.is_integer):
        allowed = _FLOATS if floating_only else _REALS
        if executing_eagerly():
            raise argument_error(attr_type_error(
                op_type, dt, [dtypes.as_dtype(n) for n in allowed.split(", ")],
                "%s:T -> %s:T" % (arg, op_type.lower()) if op_type in _NAMED_OUTPUT else None),
                TypeError)
        raise argument_error("Value for attr 'T' of %s is not in the list of allowed values: %s "
                             "(input '%s' of %s)" % (dt.name, allowed, arg, op_type), TypeError)
    return t


def _merged(ins: list, attrs: dict) -> tuple:
    """Fused gradient ops: output like input 0, whose shape must match input 1's."""
    return ins[0].dtype.base_dtype, ins[0].shape.merge_with(ins[1].shape)


def _fused_grad(op_type: str, grad: Any, x: Any, **attrs: Any) -> Any:
    return apply_op(op_type, (grad, x), attrs)


def _zero(x: np.ndarray) -> Any:
    return np.zeros((), x.dtype)


def _is_zero(t: Any) -> bool:
    """Whether gradient ``t`` is known to be all zeros (or absent) when the graph is built."""
    if t is None:
        return True
    if isinstance(t, Tensor) and t.op.type == "ZerosLike":
        return True
    v = constant_value(t)
    return v is not None and not np.any(v)


def _class_axis(logits: Any, axis: Any, what: str) -> int:
    """``axis`` of ``logits`` as an int (non-negative when the rank is known)."""
    axis = -1 if axis is None else int(axis)
    rank = logits.shape.rank
    if rank is None:
        return axis
    if rank == 0:
        raise ValueError("%s: logits must have rank >= 1, got a scalar (%s)"
                         % (what, getattr(logits, "name", "eager tensor")))
    if not -rank <= axis < rank:
        raise ValueError("%s: axis %d is out of range for logits of rank %d (shape %s)"
                         % (what, axis, rank, logits.shape))
    return axis % rank


def _sum_keepdims(t: Any, axis: int) -> Any:
    """reduce_sum over one axis, keeping it; a negative axis of a tensor of unknown rank too."""
    if axis < 0 and t.shape.rank is None:
        return reduce_sum(t, add(rank(t), axis), keepdims=True)
    return reduce_sum(t, axis, keepdims=True)


# --------------------------------------------------------------------------------------
# Piecewise-linear activations: relu, relu6, leaky_relu


def _relu_grad_kernel(g: Any, x: Any) -> Any:
    return g * (x > 0)      # TensorFlow's formula (and 20x faster than np.where)


@defop("Relu", lambda x: np.maximum(x, 0), unary, fresh_output=True, input_names=("features",),
       forward={0: lambda x: np.maximum(x, 0, out=x)},
       batching="elementwise", jvp="elementwise")
def _relu_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("ReluGrad", grad, op.outputs[0])


@defop("ReluGrad", _relu_grad_kernel, _merged, same_dtype=True, fresh_output=True,
       forward={0: lambda g, x: np.multiply(g, x > 0, out=g)}, same_shape=True,
       input_names=("gradients", "features"), batching="strict", linear_in=0)
def _relu_grad_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[1]
    return _fused_grad("ReluGrad", grad, x), zeros_like(x)


def _relu_grad_jvp(op: Any, tdy: Any, tx: Any) -> Any:
    """ReluGrad(dy, x) = dy where x > 0: piecewise linear in dy, constant in x."""
    return None if tdy is None else apply_op("ReluGrad", [tdy, op.inputs[1]])


register_jvp("ReluGrad", _relu_grad_jvp)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def relu(features: TensorLike, name: str | None = None) -> Any:
    """Computes the rectified linear ``max(features, 0)`` elementwise, as ``tf.nn.relu``.

    Args:
        features: A real-valued tensor.
        name: A name for the operation.

    Returns:
        A tensor of ``features``' dtype and shape.
    """
    return apply_op("Relu", (_input(features, "Relu", "features", False),), name=name)


def _relu6_grad_kernel(g: Any, x: Any) -> Any:
    return np.where((x > 0) & (x < 6), g, _zero(g))


@defop("Relu6", lambda x: np.clip(x, 0, 6), unary, input_names=("features",),
       batching="elementwise")
def _relu6_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("Relu6Grad", grad, op.inputs[0])


@defop("Relu6Grad", _relu6_grad_kernel, _merged, same_dtype=True,
       input_names=("gradients", "features"), batching="strict", linear_in=0)
def _relu6_grad_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[1]
    return _fused_grad("Relu6Grad", grad, x), zeros_like(x)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def relu6(features: TensorLike, name: str | None = None) -> Any:
    """min(max(features, 0), 6) elementwise.

    Args:
        features: A floating tensor.
        name: A name for the operation (optional).
    """
    return apply_op("Relu6", (_input(features, "Relu6", "features", False),), name=name)


def _leaky_relu_kernel(x: Any, *, alpha: float) -> Any:
    return np.where(x > 0, x, x * np.asarray(alpha, x.dtype))


def _leaky_relu_grad_kernel(g: Any, x: Any, *, alpha: float) -> Any:
    return np.where(x > 0, g, g * np.asarray(alpha, g.dtype))


@defop("LeakyRelu", _leaky_relu_kernel, unary, input_names=("features",), batching="elementwise")
def _leaky_relu_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("LeakyReluGrad", grad, op.inputs[0], alpha=op.get_attr("alpha"))


@defop("LeakyReluGrad", _leaky_relu_grad_kernel, _merged, same_dtype=True,
       input_names=("gradients", "features"), batching="strict", linear_in=0)
def _leaky_relu_grad_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[1]
    return _fused_grad("LeakyReluGrad", grad, x, alpha=op.get_attr("alpha")), zeros_like(x)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def leaky_relu(features: TensorLike, alpha: float = 0.2, name: str | None = None) -> Any:
    """features where positive, else alpha * features.

    Args:
        features: A floating tensor.
        alpha: The slope for negative inputs.
        name: A name for the operation (optional).
    """
    x = _input(features, "LeakyRelu", "features", False)
    if x.dtype.is_integer:
        x = cast(x, dtypes.float32)
    return apply_op("LeakyRelu", (x,), {"alpha": float(alpha)}, name=name)


# --------------------------------------------------------------------------------------
# Smooth activations: elu, selu, softplus, softsign

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _elu_kernel(x: Any) -> Any:
    return np.where(x < 0, np.expm1(np.minimum(x, 0)), x)


def _elu_grad_kernel(g: Any, y: Any) -> Any:
    return np.where(y < 0, g * (y + 1), g)


@defop("Elu", _elu_kernel, unary, input_names=("features",), batching="elementwise")
def _elu_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("EluGrad", grad, op.outputs[0])


@defop("EluGrad", _elu_grad_kernel, _merged, same_dtype=True,
       input_names=("gradients", "outputs"), batching="strict", linear_in=0)
def _elu_grad_grad(op: Any, grad: Any) -> Any:
    g, y = op.inputs
    return (_fused_grad("EluGrad", grad, y),
            where(less(y, 0.0), multiply(grad, g), zeros_like(y)))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def elu(features: TensorLike, name: str | None = None) -> Any:
    """exp(features) - 1 where negative, else features.

    Args:
        features: A floating tensor.
        name: A name for the operation (optional).
    """
    return apply_op("Elu", (_input(features, "Elu", "features"),), name=name)


def _selu_kernel(x: Any) -> Any:
    neg = np.expm1(np.minimum(x, 0)) * np.asarray(_SELU_ALPHA, x.dtype)
    return np.where(x < 0, neg, x) * np.asarray(_SELU_SCALE, x.dtype)


def _selu_grad_kernel(g: Any, y: Any) -> Any:
    scale = np.asarray(_SELU_SCALE, g.dtype)
    return np.where(y < 0, g * (y + scale * np.asarray(_SELU_ALPHA, g.dtype)), g * scale)


@defop("Selu", _selu_kernel, unary, input_names=("features",), batching="elementwise")
def _selu_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("SeluGrad", grad, op.outputs[0])


@defop("SeluGrad", _selu_grad_kernel, _merged, same_dtype=True,
       input_names=("gradients", "outputs"), batching="strict", linear_in=0)
def _selu_grad_grad(op: Any, grad: Any) -> Any:
    g, y = op.inputs
    return (_fused_grad("SeluGrad", grad, y),
            where(less(y, 0.0), multiply(grad, g), zeros_like(y)))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def selu(features: TensorLike, name: str | None = None) -> Any:
    """scale * (alpha * (exp(features) - 1) where negative, else features).

    Args:
        features: A floating tensor.
        name: A name for the operation (optional).
    """
    return apply_op("Selu", (_input(features, "Selu", "features"),), name=name)


def _sigmoid_np(x: Any) -> Any:
    return np.exp(-np.logaddexp(0, -x))


@defop("Softplus", lambda x: np.logaddexp(x, 0), unary, input_names=("features",),
       batching="elementwise", jvp="elementwise")
def _softplus_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("SoftplusGrad", grad, op.inputs[0])


@defop("SoftplusGrad", lambda g, x: g * _sigmoid_np(x), _merged, same_dtype=True,
       input_names=("gradients", "features"), batching="strict", linear_in=0)
def _softplus_grad_grad(op: Any, grad: Any) -> Any:
    g, x = op.inputs
    d2 = multiply(sigmoid(x), sigmoid(negative(x)))    # softplus'' without overflow
    return _fused_grad("SoftplusGrad", grad, x), multiply(multiply(grad, g), d2)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def softplus(features: TensorLike, name: str | None = None) -> Any:
    """log(exp(features) + 1), computed without overflow.

    Args:
        features: A floating tensor.
        name: A name for the operation (optional).
    """
    return apply_op("Softplus", (_input(features, "Softplus", "features"),), name=name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def log_sigmoid(x: TensorLike, name: str | None = None) -> Any:
    """log(sigmoid(x)), computed as TensorFlow does: ``-softplus(-x)`` (no overflow).

    Args:
      x: A floating point tensor.
      name: A name for the operation.

    Returns:
      A tensor of ``x``'s dtype and shape.
    """
    with name_scope(name, "LogSigmoid", [x]) as scope:
        return negative(softplus(negative(_input(x, "Softplus", "features"))), name=scope)


@defop("Softsign", lambda x: x / (1 + np.abs(x)), unary, input_names=("features",),
       batching="elementwise")
def _softsign_grad(op: Any, grad: Any) -> Any:
    return _fused_grad("SoftsignGrad", grad, op.inputs[0])


@defop("SoftsignGrad", lambda g, x: g / np.square(1 + np.abs(x)), _merged, same_dtype=True,
       input_names=("gradients", "features"), batching="strict", linear_in=0)
def _softsign_grad_grad(op: Any, grad: Any) -> Any:
    g, x = op.inputs
    denom = add(abs(x), 1.0)
    d2 = realdiv(multiply(-2.0, sign(x)), multiply(denom, square(denom)))
    return _fused_grad("SoftsignGrad", grad, x), multiply(multiply(grad, g), d2)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def softsign(features: TensorLike, name: str | None = None) -> Any:
    """features / (abs(features) + 1).

    Args:
        features: A floating tensor.
        name: A name for the operation (optional).
    """
    return apply_op("Softsign", (_input(features, "Softsign", "features"),), name=name)


# --------------------------------------------------------------------------------------
# softmax, log_softmax


def _shifted_lse(x: Any, axis: int) -> tuple:
    """(x - max(x), log(sum(exp(x - max(x))))) along ``axis``: log_softmax is their difference."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted, np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _log_softmax_np(x: Any, axis: int) -> Any:
    if not x.size:
        return np.zeros_like(x)
    shifted, lse = _shifted_lse(x, axis)
    return shifted - lse


def _softmax_kernel(x: Any, *, axis: int = -1) -> Any:
    if not x.size:
        return np.zeros_like(x)
    e = np.exp(x - np.maximum.reduce(x, axis=axis, keepdims=True))
    e /= np.add.reduce(e, axis=axis, keepdims=True)
    return e


@defop("Softmax", _softmax_kernel, unary, fresh_output=True, input_names=("logits",),
       batching="last_axis")
def _softmax_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    axis = op.get_attr("axis")
    return multiply(subtract(grad, _sum_keepdims(multiply(grad, y), axis)), y)


def _softmax_jvp(op: Any, t: Any) -> Any:
    if t is None:
        return None
    s = op.outputs[0]
    st = s * t
    return st - s * _sum_keepdims(st, op.get_attr("axis"))


register_jvp("Softmax", _softmax_jvp)


@defop("LogSoftmax", lambda x, *, axis=-1: _log_softmax_np(x, axis), unary,
       input_names=("logits",), batching="last_axis")
def _log_softmax_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    axis = op.get_attr("axis")
    return subtract(grad, multiply(_sum_keepdims(grad, axis), exp(y)))


def _log_softmax_jvp(op: Any, t: Any) -> Any:
    if t is None:
        return None
    p = exp(op.outputs[0])
    return t - _sum_keepdims(p * t, op.get_attr("axis"))


register_jvp("LogSoftmax", _log_softmax_jvp)


def _softmax_op(op_type: str, logits: Any, axis: Any, name: str | None, dim: Any) -> Any:
    if dim is not None:
        if axis is not None and axis != dim:
            raise ValueError("Cannot specify both 'axis' and 'dim'.")
        axis = dim
    x = _input(logits, op_type, "logits")
    if is_tensor(axis):
        c = constant_value(axis)
        axis = axis if c is None else int(c)
    r = x.shape.rank
    if r and axis is not None and not is_tensor(axis) and not -r <= int(axis) < r:
        # TensorFlow's softmax checks the axis as an op does (also in graphs)
        raise InvalidArgumentError(None, None, "`dim` must be in the range [%d, %d) where %d "
                                   "is the number of dimensions in the input. Received: dim=%d"
                                   % (-r, r, r, int(axis)))
    return apply_op(op_type, (x,), {"axis": _class_axis(x, axis, op_type)}, name=name)


@dispatch.add_dispatch_support
def softmax(logits: TensorLike, axis: int | None = None, name: str | None = None,
            dim: int | None = None) -> TensorBase:
    """Computes ``exp(logits) / sum(exp(logits))`` along an axis, as ``tf.nn.softmax``.

    The maximum is subtracted first, so large logits do not overflow.

    Example:

        >>> print(tf.nn.softmax(tf.math.log([1.0, 3.0])).numpy())
        [0.25 0.75]

    Args:
        logits: A non-empty floating-point tensor.
        axis: The axis the softmax normalizes over; the last if None.
        name: A name for the operation.
        dim: TensorFlow 1's name for ``axis``.

    Returns:
        A tensor of ``logits``' dtype and shape.
    """
    return _softmax_op("Softmax", logits, axis, name, dim)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def log_softmax(logits: TensorLike, axis: int | None = None, name: str | None = None,
                dim: int | None = None) -> Any:
    """logits - log(sum(exp(logits))) along ``axis`` (default the last), overflow-free.

    Args:
        logits: A floating tensor.
        axis: The axis to normalize along; the last when None.
        name: A name for the operation (optional).
        dim: TF1's name for ``axis``.
    """
    return _softmax_op("LogSoftmax", logits, axis, name, dim)


# --------------------------------------------------------------------------------------
# Softmax cross-entropy (dense and sparse labels): fused ops with outputs (loss, backprop)


def _labels_broadcast_shape(logits: TensorShape, labels: TensorShape) -> TensorShape:
    """Static shape of ``logits`` refined by ``labels``, which may broadcast (size-1 dims)."""
    if logits.rank is None or labels.rank is None:
        return logits
    if labels.rank > logits.rank:
        raise ValueError("logits and labels must have the same shape, received %s and %s "
                         "(or labels that broadcast)" % (logits, labels))
    zs = [None] * (logits.rank - labels.rank) + labels.as_list()
    dims = []
    for x, z in zip(logits.as_list(), zs):
        if x is not None and z is not None and z not in (1, x):
            raise ValueError("logits and labels must have the same shape, received %s and %s "
                             "(or labels that broadcast)" % (logits, labels))
        dims.append(x if x is not None or z == 1 else z)
    return TensorShape(dims)


def _xent_infer(ins: list, attrs: dict) -> list:
    dt = ins[0].dtype.base_dtype
    s = _labels_broadcast_shape(ins[0].shape, ins[1].shape)
    loss = TensorShape(None) if s.rank is None else reduced_shape(
        s, (attrs["axis"] % s.rank,), False)
    return [(dt, loss), (dt, s)]


def _xent_kernel(logits: Any, labels: Any, *, axis: int = -1) -> tuple:
    xs, zs = np.shape(logits), np.shape(labels)
    if xs != zs and (len(zs) > len(xs) or any(
            z not in (1, x) for x, z in zip(xs[len(xs) - len(zs):], zs))):
        raise InvalidArgumentError(
            None, None, "logits and labels must be the same size: logits_size=%s "
            "labels_size=%s (or labels that broadcast)" % (list(xs), list(zs)))
    shifted, lse = _shifted_lse(logits, axis)
    loss = np.sum(labels * (lse - shifted), axis=axis)
    return loss, np.exp(shifted - lse) - labels


def _xent_logits_grad(op: Any, grad_loss: Any, grad_grad: Any, axis: int) -> Any:
    """d/dlogits of the fused cross-entropy op, including the path through ``backprop``."""
    logits, backprop = op.inputs[0], op.outputs[1]
    grad = multiply(expand_dims(grad_loss, axis), backprop)
    if not _is_zero(grad_grad):
        sm = softmax(logits, axis)
        grad = add(grad, multiply(
            subtract(grad_grad, _sum_keepdims(multiply(grad_grad, sm), axis)), sm))
    return grad


@defop("SoftmaxCrossEntropyWithLogits", _xent_kernel, _xent_infer, num_outputs=2,
       same_dtype=True, fresh_output=True, input_names=("features", "labels"))
def _xent_grad(op: Any, grad_loss: Any, grad_grad: Any) -> Any:
    axis = op.get_attr("axis")
    logits = op.inputs[0]
    g_labels = multiply(expand_dims(grad_loss, axis),
                        negative(log_softmax(logits, axis)))
    if not _is_zero(grad_grad):     # backprop = softmax(logits) - labels
        g_labels = subtract(g_labels, grad_grad)
    labels = op.inputs[1]
    if not (labels.shape.is_fully_defined() and labels.shape == logits.shape):
        g_labels = reduce_to_shape_of(g_labels, labels)     # labels may have broadcast
    return _xent_logits_grad(op, grad_loss, grad_grad, axis), g_labels


def _sparse_xent_kernel(logits: Any, labels: Any) -> tuple:
    labels = np.asarray(labels)
    n = np.shape(logits)[-1]
    bad = (labels < 0) | (labels >= n)
    if np.any(bad):
        raise InvalidArgumentError(
            None, None, "Received a label value of %d which is outside the valid range of "
            "[0, %d).  Label values: %s" % (labels[bad].flat[0], n,
                                            " ".join(str(v) for v in labels.ravel())))
    shifted, lse = _shifted_lse(logits, -1)
    idx = labels[..., None].astype(np.intp)
    loss = lse - np.take_along_axis(shifted, idx, axis=-1)
    backprop = np.exp(shifted - lse)
    np.put_along_axis(backprop, idx, np.exp(-loss) - 1, axis=-1)
    return loss[..., 0], backprop


def _sparse_xent_infer(ins: list, attrs: dict) -> list:
    dt, s = ins[0].dtype.base_dtype, ins[0].shape
    loss = TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-1])
    return [(dt, loss.merge_with(ins[1].shape)), (dt, s)]


@defop("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_kernel, _sparse_xent_infer,
       num_outputs=2, input_names=("features", "labels"))
def _sparse_xent_grad(op: Any, grad_loss: Any, grad_grad: Any) -> Any:
    return _xent_logits_grad(op, grad_loss, grad_grad, -1), None


def _check_xent_args(name: str, sentinel: Any, labels: Any, logits: Any) -> None:
    if sentinel is not None:
        raise ValueError("Only call `%s` with named arguments (labels=..., logits=..., ...). "
                         "Received unnamed argument: %s" % (name, sentinel))
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")


def _flatten_outer_dims(t: Any, rank: int) -> Any:
    """``t`` as a matrix [-1, last dimension]."""
    last = t.shape.as_list()[-1]
    return reshape(t, [-1, last] if last is not None else concat(
        [[-1], slice(shape(t), [rank - 1], [1])], 0))


def _xent_of_different_ranks(x: Any, z: Any, axis: int, name: str | None) -> Any:
    """TensorFlow's rule for labels and logits of different ranks: both are flattened to
    matrices [-1, classes], the labels broadcast against the logits, and the loss takes
    the logits' outer shape."""
    xr, zr = x.shape.rank, z.shape.rank
    if axis != xr - 1:
        raise ValueError("softmax_cross_entropy_with_logits: labels of rank %d and logits of "
                         "rank %d need the class axis to be the last one (got axis %d)"
                         % (zr, xr, axis))
    loss, _ = apply_op("SoftmaxCrossEntropyWithLogits",
                       (_flatten_outer_dims(x, xr), _flatten_outer_dims(z, zr)), {"axis": 1},
                       name=name)
    outer = x.shape.as_list()[:-1]
    return reshape(loss, outer if None not in outer else slice(shape(x), [0], [xr - 1]))


def _softmax_xent(labels: Any, logits: Any, axis: Any, name: str | None,
                  stop_labels: bool) -> Any:
    x = _input(logits, "SoftmaxCrossEntropyWithLogits", "features")
    z = convert_to_tensor(_as_value(labels))
    if z.dtype.base_dtype != x.dtype.base_dtype:     # TensorFlow casts labels to the logits'
        z = cast(z, x.dtype.base_dtype)               # dtype (float64 one-hot labels, ints)
    if stop_labels:
        z = stop_gradient(z)
    a = _class_axis(x, axis, "softmax_cross_entropy_with_logits")
    if x.shape.rank is not None and z.shape.rank is not None and x.shape.rank != z.shape.rank:
        return _xent_of_different_ranks(x, z, a, name)
    try:
        _labels_broadcast_shape(x.shape, z.shape)
    except ValueError:
        if not executing_eagerly():
            raise
        raise InvalidArgumentError(      # TensorFlow's kernel message
            None, None, "logits and labels must be broadcastable: logits_size=%s labels_size=%s "
            "[Op:SoftmaxCrossEntropyWithLogits]" % (dims_text(x.shape.as_tuple()),
                                                     dims_text(z.shape.as_tuple()))) from None
    loss, _ = apply_op("SoftmaxCrossEntropyWithLogits", (x, z), {"axis": a}, name=name)
    return loss


def softmax_cross_entropy_with_logits_v2(labels: TensorLike, logits: TensorLike, axis: int = -1,
                                         name: str | None = None, dim: AxisLike = None) -> Any:
    """-sum(labels * log_softmax(logits)) along ``axis``; differentiable in labels too.

    Args:
        labels: The labels: a probability distribution along ``axis`` for each example, as
            ``logits``' shape.
        logits: The unnormalized log-probabilities, as the labels' shape.
        axis: The class axis.
        name: A name for the operation (optional).
        dim: TF1's name for ``axis``.
    """
    return _softmax_xent(labels, logits, axis if dim is None else dim, name, False)


def softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: TensorLike | None = None,
                                      logits: TensorLike | None = None, dim: int = -1,
                                      name: str | None = None, axis: int | None = None) -> Any:
    """TF1 form: like the v2 op, but no gradient flows into ``labels``.

    Args:
        _sentinel: Guards against positional arguments (TensorFlow's); pass ``labels`` and
            ``logits`` by name.
        labels: The labels: a probability distribution along ``axis`` for each example, as
            ``logits``' shape.
        logits: The unnormalized log-probabilities, as the labels' shape.
        dim: The class axis (TF1's name).
        name: A name for the operation (optional).
        axis: TensorFlow 2's name for ``dim``.
    """
    _check_xent_args("softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    return _softmax_xent(labels, logits, dim if axis is None else axis, name, True)


def sparse_softmax_cross_entropy_with_logits_v2(labels: TensorLike, logits: TensorLike,
                                                name: str | None = None) -> Any:
    """-log_softmax(logits)[label] per example; ``labels`` are int class indices.

    Args:
        labels: The class ids: an int32 or int64 tensor of ``logits``' shape without the last axis.
        logits: The unnormalized log-probabilities: [..., classes].
        name: A name for the operation (optional).
    """
    x = _input(logits, "SparseSoftmaxCrossEntropyWithLogits", "features")
    z = convert_to_tensor(_as_value(labels))
    if z.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise argument_error("Value for attr 'Tlabels' of %s is not in the list of allowed values: "
                             "int32, int64 (labels of SparseSoftmaxCrossEntropyWithLogits)"
                             % z.dtype.name, TypeError)
    xs, zs = x.shape, z.shape
    if xs.rank == 0:
        raise ValueError("Logits cannot be scalars - received shape %s." % xs)
    if xs.rank is not None and zs.rank is not None:
        if zs.rank != xs.rank - 1:
            raise ValueError("Rank mismatch: Rank of labels (received %d) should equal rank of "
                             "logits minus 1 (received %d)." % (zs.rank, xs.rank))
        if not TensorShape(xs.as_list()[:-1]).is_compatible_with(zs):
            raise ValueError("Shape mismatch: The shape of labels (received %s) should equal "
                             "the shape of logits except for the last dimension (received %s)."
                             % (zs, xs))
    loss, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", (x, z), name=name)
    return loss


def sparse_softmax_cross_entropy_with_logits(_sentinel: Any = None,
                                             labels: TensorLike | None = None,
                                             logits: TensorLike | None = None,
                                             name: str | None = None) -> Any:
    """TF1 form (keyword arguments only) of the sparse softmax cross-entropy.

    Args:
        _sentinel: Guards against positional arguments (TensorFlow's); pass ``labels`` and
            ``logits`` by name.
        labels: The class ids: an int32 or int64 tensor of ``logits``' shape without the last axis.
        logits: The unnormalized log-probabilities: [..., classes].
        name: A name for the operation (optional).
    """
    _check_xent_args("sparse_softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    return sparse_softmax_cross_entropy_with_logits_v2(labels, logits, name)


# --------------------------------------------------------------------------------------
# bias_add


def _bias_format(data_format: str | None) -> str:
    if data_format is None:
        return "NHWC"
    if data_format.startswith("NC"):
        return "NCHW"
    if data_format.startswith("N") and data_format.endswith("C"):
        return "NHWC"
    raise ValueError("data_format must be of the form `N...C` or `NC...`, got %r" % data_format)


def _channel_axis(ndim: int, data_format: str) -> int:
    return 1 if data_format == "NCHW" else ndim - 1


def _bias_add_kernel(value: Any, bias: Any, *, data_format: str = "NHWC") -> Any:
    c = _channel_axis(np.ndim(value), data_format)
    if np.ndim(bias) != 1 or np.shape(value)[c] != np.shape(bias)[0]:
        raise InvalidArgumentError(
            None, None, "Must provide as many biases as the channel dimension of the input "
            "tensor: %s vs. %s" % (list(np.shape(bias)), list(np.shape(value))))
    if c != np.ndim(value) - 1:
        bias = np.reshape(bias, (-1,) + (1,) * (np.ndim(value) - 2))
    return value + bias


def _bias_add_into(value: Any, bias: Any, *, data_format: str = "NHWC") -> Any:
    """``_bias_add_kernel`` writing into ``value``."""
    if type(value) is not np.ndarray or not value.flags.writeable:
        return _bias_add_kernel(value, bias, data_format=data_format)
    c = _channel_axis(value.ndim, data_format)
    if np.ndim(bias) != 1 or value.shape[c] != np.shape(bias)[0]:
        return _bias_add_kernel(value, bias, data_format=data_format)     # its error
    if c != value.ndim - 1:
        bias = np.reshape(bias, (-1,) + (1,) * (value.ndim - 2))
    return np.add(value, bias, out=value)


def _bias_add_grad_kernel(g: Any, *, data_format: str = "NHWC") -> Any:
    c = _channel_axis(np.ndim(g), data_format)
    return np.sum(g, axis=tuple(a for a in range(np.ndim(g)) if a != c), dtype=g.dtype)


def _bias_add_grad_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    if s.rank is None:
        return ins[0].dtype.base_dtype, TensorShape([None])
    return ins[0].dtype.base_dtype, TensorShape(
        [s.as_tuple()[_channel_axis(s.rank, attrs["data_format"])]])


def _bias_add_infer(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, ins[0].shape


@defop("BiasAdd", _bias_add_kernel, _bias_add_infer, same_dtype=True, fresh_output=True,
       forward={0: _bias_add_into},
       input_names=("value", "bias"))
def _bias_add_grad(op: Any, grad: Any) -> Any:
    return grad, apply_op("BiasAddGrad", (grad,), {"data_format": op.get_attr("data_format")})


register_jvp("BiasAdd", linear_in_all_jvp)


@defop("BiasAddGrad", _bias_add_grad_kernel, _bias_add_grad_infer,
       input_names=("out_backprop",))
def _bias_add_grad_grad(op: Any, grad: Any) -> Any:
    g = op.inputs[0]
    rank = g.shape.rank
    if op.get_attr("data_format") == "NCHW" and rank is not None and rank > 2:
        grad = reshape(grad, [-1] + [1] * (rank - 2))
    return broadcast_to(grad, shape_of(g))


def bias_add(value: TensorLike, bias: TensorLike, data_format: str | None = None,
             name: str | None = None) -> Any:
    """value + bias, with the 1-D ``bias`` added along the channel axis of ``data_format``.

    Args:
        value: A tensor of rank 2 or more.
        bias: A 1-D tensor as long as ``value``'s channel dimension.
        data_format: ``"NHWC"`` (channels last; also when None) or ``"NCHW"``.
        name: A name for the operation (optional).
    """
    fmt = _bias_format(data_format)
    x = _input(value, "BiasAdd", "value", False)
    b = _input(bias, "BiasAdd", "bias", False, dtype=x.dtype.base_dtype)
    if b.shape.rank is not None and b.shape.rank != 1:
        raise ValueError("Shape must be rank 1 but is rank %d for bias of BiasAdd (shape %s)"
                         % (b.shape.rank, b.shape))
    rank = x.shape.rank
    if rank is not None:
        least = 3 if fmt == "NCHW" else 2
        if rank < least:
            raise ValueError("Shape must be at least rank %d but is rank %d for value of "
                             "BiasAdd with data_format %s (shape %s)"
                             % (least, rank, fmt, x.shape))
        c = x.shape.as_tuple()[_channel_axis(rank, fmt)]
        nb = b.shape.as_tuple()[0] if b.shape.rank == 1 else None
        if c is not None and nb is not None and c != nb:
            raise ValueError("Dimensions must be equal, but are %d and %d for 'BiasAdd' with "
                             "input shapes: %s, %s." % (c, nb, x.shape, b.shape))
    elif fmt == "NCHW":
        raise ValueError("bias_add with data_format NCHW needs a value of known rank")
    return apply_op("BiasAdd", (x, b), {"data_format": fmt}, name=name)


# --------------------------------------------------------------------------------------
# l2_loss


def _l2_loss_kernel(x: Any) -> Any:
    return x.dtype.type(np.sum(np.square(x)) / 2)


@defop("L2Loss", _l2_loss_kernel, lambda ins, attrs: (ins[0].dtype.base_dtype, TensorShape(())),
       input_names=("t",))
def _l2_loss_grad(op: Any, grad: Any) -> Any:
    return multiply(op.inputs[0], grad)


def l2_loss(t: TensorLike, name: str | None = None) -> Any:
    """sum(t ** 2) / 2.

    Args:
        t: A floating tensor.
        name: A name for the operation (optional).
    """
    return apply_op("L2Loss", (_input(t, "L2Loss", "t"),), name=name)


# --------------------------------------------------------------------------------------
# in_top_k


def _in_top_k_kernel(predictions: Any, targets: Any, k: Any) -> Any:
    n = np.shape(predictions)[1]
    t = np.asarray(targets, np.int64)
    valid = (t >= 0) & (t < n)
    tp = np.take_along_axis(predictions, np.where(valid, t, 0)[:, None], axis=1)
    finite = np.all(np.isfinite(predictions), axis=1)
    above = np.sum(predictions > tp, axis=1)
    return valid & finite & (above < k)


def _in_top_k_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    batch = TensorShape(None if s.rank is None else s.as_list()[:1])
    return dtypes.bool, batch.merge_with(ins[1].shape)


register_op("InTopKV2", _in_top_k_kernel, _in_top_k_infer, grad=_NO_GRADIENT,
            input_names=("predictions", "targets", "k"))


def in_top_k(predictions: TensorLike, targets: TensorLike, k: TensorLike,
             name: str | None = None) -> Any:
    """TF1 argument order: whether each target is among the k largest predictions.

    Args:
        predictions: A [batch, classes] float tensor.
        targets: A [batch] integer tensor of class ids.
        k: How many top predictions to look at.
        name: A name for the operation (optional).
    """
    p = _input(predictions, "InTopKV2", "predictions")
    t = convert_to_tensor(_as_value(targets))
    if t.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("targets of in_top_k must be int32 or int64, got %s" % t.dtype.name)
    if p.shape.rank not in (None, 2) or t.shape.rank not in (None, 1):
        raise ValueError("in_top_k needs rank-2 predictions and rank-1 targets, got shapes "
                         "%s and %s" % (p.shape, t.shape))
    if not TensorShape(p.shape.as_list()[:1] if p.shape.rank else None).is_compatible_with(
            t.shape):
        raise ValueError("First dimension of predictions %s must match length of targets %s"
                         % (p.shape, t.shape))
    return apply_op("InTopKV2", (p, t, convert_to_tensor(k, t.dtype.base_dtype)), name=name)


def in_top_k_v2(targets: TensorLike, predictions: TensorLike, k: TensorLike,
                name: str | None = None) -> Any:
    """TF2 argument order of ``in_top_k``.

    Args:
        targets: A [batch] integer tensor of class ids.
        predictions: A [batch, classes] float tensor.
        k: How many top predictions to look at.
        name: A name for the operation (optional).
    """
    return in_top_k(predictions, targets, k, name)


# --------------------------------------------------------------------------------------
# dropout


def _noise_shape(x: Any, noise_shape: Any) -> Any:
    if noise_shape is None:
        return shape_of(x)
    if is_tensor(noise_shape):
        return noise_shape
    dims = list(noise_shape)
    xd = x.shape.as_tuple()
    if xd is not None and len(xd) == len(dims):
        dims = [xd[i] if d is None else d for i, d in enumerate(dims)]
    return dims


@dispatch.add_dispatch_support
def dropout_v2(x: TensorLike, rate: TensorLike, noise_shape: ShapeLike | TensorLike | None = None,
               seed: int | None = None, name: str | None = None) -> Any:
    """Zeros each element with probability ``rate`` and scales the rest by 1 / (1 - rate).

    Args:
        x: A floating tensor.
        rate: The probability of dropping each element, in [0, 1).
        noise_shape: The shape of the random keep/drop mask (broadcast against ``x``); ``x``'s shape
            when None.
        seed: The op-level seed; with the graph-level seed it fixes the mask.
        name: A name for the operation (optional).
    """
    from flowgrad.ops.random_ops import random_uniform
    with name_scope(name, "dropout", [x]) as scope:
        x = convert_to_tensor(_as_value(x))
        dt = x.dtype.base_dtype
        if not dt.is_floating:
            raise ValueError("x has to be a floating point tensor since it's going to be "
                             "scaled. Got a %s tensor instead." % dt.name)
        if isinstance(rate, numbers.Real):
            if not 0 <= rate < 1:
                raise ValueError("rate must be a scalar tensor or a float in the range [0, 1), "
                                 "got %g" % rate)
            if rate == 0:
                return x
        rate = convert_to_tensor(_as_value(rate), dt)
        if rate.shape.rank not in (None, 0):
            raise ValueError("rate must be a scalar tensor, got shape %s" % rate.shape)
        noise = random_uniform(_noise_shape(x, noise_shape), dtype=dt, seed=seed)
        keep = cast(greater_equal(noise, rate), dt)
        return multiply(realdiv(x, subtract(1.0, rate)), keep, name=scope)


def dropout(x: TensorLike, keep_prob: TensorLike | None = None,
            noise_shape: ShapeLike | TensorLike | None = None, seed: int | None = None,
            name: str | None = None, rate: TensorLike | None = None) -> Any:
    """TF1 form: keeps each element with probability ``keep_prob`` (or 1 - ``rate``).

    Args:
        x: A floating tensor.
        keep_prob: TF1's probability of keeping each element (``1 - rate``).
        noise_shape: The shape of the random keep/drop mask (broadcast against ``x``); ``x``'s shape
            when None.
        seed: The op-level seed; with the graph-level seed it fixes the mask.
        name: A name for the operation (optional).
        rate: The probability of dropping each element (TensorFlow 2's argument).
    """
    if keep_prob is not None:
        if rate is not None:
            raise ValueError("Cannot specify both 'rate' and 'keep_prob'.")
        if isinstance(keep_prob, numbers.Real) and not 0 < keep_prob <= 1:
            raise ValueError("keep_prob must be a scalar tensor or a float in the range (0, 1], "
                             "got %g" % keep_prob)
        rate = 1 - keep_prob
    if rate is None:
        raise ValueError("You must provide a rate to dropout.")
    return dropout_v2(x, rate, noise_shape, seed, name)


__all__ = ["relu", "relu6", "leaky_relu", "elu", "selu", "softplus", "softsign", "sigmoid",
           "tanh", "softmax", "log_softmax", "softmax_cross_entropy_with_logits",
           "softmax_cross_entropy_with_logits_v2", "sparse_softmax_cross_entropy_with_logits",
           "bias_add", "l2_loss", "in_top_k", "dropout"]
