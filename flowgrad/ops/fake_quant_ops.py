"""``tf.quantization``'s fake quantization (quantization-aware training): TensorFlow's
FakeQuantWithMinMaxArgs / Vars / VarsPerChannel ops and their ``*Gradient`` ops, each with
its kernel, shape rule, gradient and JVP.

The input is clamped to a range ``[min, max]`` nudged so that zero is exactly representable,
rounded to one of ``2**num_bits`` levels (``2**num_bits - 1`` with ``narrow_range``) and
scaled back to floats. The gradient is TensorFlow's straight-through estimator: the incoming
gradient where the input lies inside the nudged range, and (for the Vars ops) its sums below
and above the range for ``min`` and ``max``. The kernels follow TensorFlow's
``fake_quant_ops_functor.h`` step by step in the inputs' dtype (float32, as TensorFlow's
ops take), so the results are TensorFlow's bit for bit. The ``*Gradient`` ops are linear in
the incoming gradient; their own gradients are built from ops (comparisons against the
nudged range), so they differentiate again."""
from __future__ import annotations

import collections
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.arithmetic_ops import add, clip_by_value, divide, multiply, subtract
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import (equal, greater, greater_equal, less, less_equal,
                                         logical_and, logical_not, where)
from flowgrad.ops.elementwise_ops import floor
from flowgrad.ops.sum_ops import reduce_sum

FakeQuantWithMinMaxVarsGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])
FakeQuantWithMinMaxVarsPerChannelGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsPerChannelGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])


def _levels(num_bits: int, narrow_range: bool) -> tuple:
    """(quant_min, quant_max) of ``num_bits`` levels."""
    return (1 if narrow_range else 0), (1 << num_bits) - 1


def _nudge(lo: Any, hi: Any, num_bits: int, narrow_range: bool) -> tuple:
    """TensorFlow's Nudge, elementwise over arrays of ranges in their dtype: (nudged_min,
    nudged_max, scale, inv_scale), zero a multiple of scale inside [nudged_min, nudged_max]."""
    qmin, qmax = _levels(num_bits, narrow_range)
    lo, hi = np.asarray(lo), np.asarray(hi)
    f = lo.dtype.type
    qmin_f, qmax_f = f(qmin), f(qmax)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = (hi - lo) / (qmax_f - qmin_f)
        inv_scale = (qmax_f - qmin_f) / (hi - lo)
        zero = qmin_f - lo / scale
        below = np.floor(zero)
        rounded = below + (zero - below >= f(0.5))          # std::round (zero >= 0 here)
        nudged_zero = np.where(zero < qmin_f, qmin_f, np.where(zero > qmax_f, qmax_f,
                                                                rounded)).astype(lo.dtype)
        return (qmin_f - nudged_zero) * scale, (qmax_f - nudged_zero) * scale, scale, \
            inv_scale


def _quantize(x: Any, lo: Any, hi: Any, num_bits: int, narrow_range: bool,
              divide_scale: bool = False) -> Any:
    """The fake-quantized ``x`` (ranges broadcast against x's last axis); zero where
    min == max == 0."""
    nmin, nmax, scale, inv = _nudge(lo, hi, num_bits, narrow_range)
    f = x.dtype.type
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        quant_zero = np.floor(-nmin * inv + f(0.5))
        shifted = np.maximum(np.minimum(x, nmax), nmin) - nmin
        steps = shifted / scale if divide_scale else shifted * inv
        out = np.floor(steps - quant_zero + f(0.5)) * scale
    zero = (np.asarray(lo) == 0) & (np.asarray(hi) == 0)
    return np.where(zero, f(0), out).astype(x.dtype)


def _masks(x: Any, lo: Any, hi: Any, num_bits: int, narrow_range: bool) -> tuple:
    """(inside, below, above) of x against the nudged range, as x's dtype; min == max == 0
    passes everything through."""
    nmin, nmax = _nudge(lo, hi, num_bits, narrow_range)[:2]
    zero = (np.asarray(lo) == 0) & (np.asarray(hi) == 0)
    f = x.dtype
    inside = (zero | ((x >= nmin) & (x <= nmax))).astype(f)
    return inside, (~zero & (x < nmin)).astype(f), (~zero & (x > nmax)).astype(f)


def _check_bits(num_bits: int) -> int:
    if not 2 <= int(num_bits) <= 16:
        raise argument_error("num_bits must be between 2 and 16, inclusive", ValueError)
    return int(num_bits)


def _float_input(x: TensorLike, name: str) -> TensorBase:
    return convert_to_tensor(_as_value(x), dtypes.float32, name=name)


# -- FakeQuantWithMinMaxArgs -------------------------------------------------------------

def _args_kernel(x: Any, *, min: float, max: float, num_bits: int,  # noqa: A002 - TF's attrs
                 narrow_range: bool) -> Any:
    f = x.dtype.type
    return _quantize(x, f(min), f(max), num_bits, narrow_range)


def _args_grad_kernel(g: Any, x: Any, *, min: float, max: float,  # noqa: A002 - TF's attrs
                      num_bits: int, narrow_range: bool) -> Any:
    f = x.dtype.type
    return g * _masks(x, f(min), f(max), num_bits, narrow_range)[0]


def _same_as_input(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, ins[0].shape


def _args_attrs(op: Any) -> dict:
    return {k: op.get_attr(k) for k in ("min", "max", "num_bits", "narrow_range")}


@defop("FakeQuantWithMinMaxArgs", _args_kernel, _same_as_input, input_names=("inputs",))
def _args_grad(op: Any, grad: Any) -> Any:
    return apply_op("FakeQuantWithMinMaxArgsGradient", [grad, op.inputs[0]], _args_attrs(op))


@defop("FakeQuantWithMinMaxArgsGradient", _args_grad_kernel, _same_as_input,
       input_names=("gradients", "inputs"), same_dtype=True, same_shape=True)
def _args_grad_grad(op: Any, grad: Any) -> Any:
    # linear in the incoming gradient; piecewise constant in the inputs
    return apply_op("FakeQuantWithMinMaxArgsGradient", [grad, op.inputs[1]],
                    _args_attrs(op)), None


def _args_jvp(op: Any, tangent: Any) -> Any:
    if tangent is None:
        return None
    return apply_op("FakeQuantWithMinMaxArgsGradient", [tangent, op.inputs[0]],
                    _args_attrs(op))


def _args_grad_jvp(op: Any, t_grad: Any, t_inputs: Any) -> Any:
    if t_grad is None:
        return None
    return apply_op("FakeQuantWithMinMaxArgsGradient", [t_grad, op.inputs[1]],
                    _args_attrs(op))


register_jvp("FakeQuantWithMinMaxArgs", _args_jvp)
register_jvp("FakeQuantWithMinMaxArgsGradient", _args_grad_jvp)


# -- FakeQuantWithMinMaxVars and VarsPerChannel -------------------------------------------

def _vars_kernel(x: Any, lo: Any, hi: Any, *, num_bits: int, narrow_range: bool) -> Any:
    return _quantize(x, lo, hi, num_bits, narrow_range, divide_scale=True)


def _channel_kernel(x: Any, lo: Any, hi: Any, *, num_bits: int, narrow_range: bool) -> Any:
    return _quantize(x, lo, hi, num_bits, narrow_range)


def _vars_grad_kernel(g: Any, x: Any, lo: Any, hi: Any, *, num_bits: int,
                      narrow_range: bool) -> tuple:
    inside, below, above = _masks(x, lo, hi, num_bits, narrow_range)
    axes = tuple(range(x.ndim - np.ndim(lo)))      # all axes (Vars), all but the last
    return g * inside, np.asarray((g * below).sum(axes), x.dtype), \
        np.asarray((g * above).sum(axes), x.dtype)


def _vars_infer(kind: str, rank: int) -> Any:
    def infer(ins: list, attrs: dict) -> tuple:
        x, lo, hi = ins[-3:]
        depth = x.shape.as_list()[-1] if x.shape.rank else None
        for t, what in ((lo, "min"), (hi, "max")):
            if t.shape.rank is not None and t.shape.rank != rank:
                raise ValueError("Shape must be rank %d but is rank %d for '%s' (%s shape %s)"
                                 % (rank, t.shape.rank, kind, what, t.shape))
            if rank == 1 and None not in (depth, t.shape.as_list()[0]) and \
                    t.shape.as_list()[0] != depth:
                raise ValueError("Dimensions must be equal, but are %d and %d for '%s' (%s "
                                 "shape %s, inputs shape %s)" % (depth, t.shape.as_list()[0],
                                                                 kind, what, t.shape, x.shape))
        if rank == 1 and x.shape.rank is not None and not 1 <= x.shape.rank <= 4:
            raise ValueError("Shape must be at least rank 1 and at most rank 4 for '%s' "
                             "(inputs shape %s)" % (kind, x.shape))
        dt = x.dtype.base_dtype
        if kind.endswith("Gradient"):
            return [(dt, x.shape), (dt, lo.shape if rank else TensorShape([])),
                    (dt, hi.shape if rank else TensorShape([]))]
        return dt, x.shape
    return infer


def _vars_attrs(op: Any) -> dict:
    return {"num_bits": op.get_attr("num_bits"), "narrow_range": op.get_attr("narrow_range")}


def _range_masks(x: Any, lo: Any, hi: Any, attrs: dict) -> tuple:
    """(inside, below, above) as x's dtype, built from ops (the nudge of ``_nudge``)."""
    qmin, qmax = _levels(attrs["num_bits"], attrs["narrow_range"])
    f = x.dtype.base_dtype
    qmin_f, qmax_f = cast(qmin, f), cast(qmax, f)
    scale = divide(subtract(hi, lo), float(qmax - qmin))
    zero = subtract(qmin_f, divide(lo, scale))
    nudged_zero = floor(add(clip_by_value(zero, qmin_f, qmax_f), 0.5))
    nmin = multiply(subtract(qmin_f, nudged_zero), scale)
    nmax = multiply(subtract(qmax_f, nudged_zero), scale)
    off = logical_and(equal(lo, 0.0), equal(hi, 0.0))
    inside = where(off, True, logical_and(greater_equal(x, nmin), less_equal(x, nmax)))
    below = logical_and(logical_not(off), less(x, nmin))
    above = logical_and(logical_not(off), greater(x, nmax))
    return cast(inside, f), cast(below, f), cast(above, f)


def _vars_grad_grad(op: Any, g_input: Any, g_min: Any, g_max: Any) -> tuple:
    # the outputs are linear in the incoming gradient: its gradient puts each output's
    # gradient back where that output gathered from
    x, lo, hi = op.inputs[1:]
    inside, below, above = _range_masks(x, lo, hi, _vars_attrs(op))
    total = None
    for g, mask in ((g_input, inside), (g_min, below), (g_max, above)):
        if g is not None:
            term = multiply(g, mask)
            total = term if total is None else add(total, term)
    return total, None, None, None


def _vars_jvp() -> Any:
    """The JVP: the tangent of x where x is inside the nudged range, min's where x is
    below it, max's where above (broadcast along the channels)."""
    def rule(op: Any, t_x: Any, t_min: Any, t_max: Any) -> Any:
        masks = _range_masks(*op.inputs, _vars_attrs(op))
        out = None
        for t, mask in zip((t_x, t_min, t_max), masks):
            if t is not None:
                term = multiply(t, mask)
                out = term if out is None else add(out, term)
        return out
    return rule


def _vars_grad_jvp(op: Any, t_g: Any, t_x: Any, t_lo: Any, t_hi: Any) -> Any:
    if t_g is None:
        return None, None, None
    x, lo, hi = op.inputs[1:]
    inside, below, above = _range_masks(x, lo, hi, _vars_attrs(op))
    axes = list(range(x.shape.rank - lo.shape.rank)) if x.shape.rank is not None else None
    return multiply(t_g, inside), reduce_sum(multiply(t_g, below), axes), \
        reduce_sum(multiply(t_g, above), axes)


for _kind, _kernel, _rank in (("FakeQuantWithMinMaxVars", _vars_kernel, 0),
                              ("FakeQuantWithMinMaxVarsPerChannel", _channel_kernel, 1)):
    def _forward_grad(op: Any, grad: Any, _kind: str = _kind) -> Any:
        return tuple(apply_op(_kind + "Gradient", [grad] + list(op.inputs), _vars_attrs(op)))

    defop(_kind, _kernel, _vars_infer(_kind, _rank), input_names=("inputs", "min", "max"),
          same_dtype=True)(_forward_grad)
    defop(_kind + "Gradient", _vars_grad_kernel, _vars_infer(_kind + "Gradient", _rank),
          input_names=("gradients", "inputs", "min", "max"), same_dtype=True,
          num_outputs=3)(_vars_grad_grad)
    register_jvp(_kind, _vars_jvp())
    register_jvp(_kind + "Gradient", _vars_grad_jvp)


# -- tf.quantization -----------------------------------------------------------------------

def _args_op_attrs(min: float, max: float, num_bits: int,  # noqa: A002 - TF's names
                   narrow_range: bool) -> dict:
    if not min < max:
        raise argument_error("min has to be smaller than max, was: %g >= %g" % (min, max))
    return {"min": float(min), "max": float(max), "num_bits": _check_bits(num_bits),
            "narrow_range": bool(narrow_range)}


def fake_quant_with_min_max_args(inputs: TensorLike, min: float = -6.0,  # noqa: A002
                                 max: float = 6.0, num_bits: int = 8,  # noqa: A002
                                 narrow_range: bool = False,
                                 name: str | None = None) -> TensorBase:
    """Fake-quantizes float32 ``inputs`` into the range ``[min, max]``.

    The range is nudged so that zero is one of the ``2**num_bits`` levels (``2**num_bits -
    1`` with ``narrow_range``); each input is clamped to it, rounded to the nearest level and
    returned as a float. The gradient passes through inside the nudged range (TensorFlow's
    straight-through estimator).

    Example:

        >>> x = tf.constant([-7.0, -0.01, 0.5, 6.5])
        >>> print(tf.quantization.fake_quant_with_min_max_args(x, -6.0, 6.0).numpy())
        [-6.0235295  0.         0.5176471  5.9764705]

    Args:
        inputs: A float32 tensor.
        min: The lower end of the range.
        max: The upper end of the range (above ``min``).
        num_bits: The bit width, 2 to 16.
        narrow_range: Whether the lowest level is left out.
        name: A name for the operation (optional).

    Returns:
        A float32 tensor of ``inputs``' shape.

    Raises:
        InvalidArgumentError: ``min >= max`` or ``num_bits`` is outside 2..16 (ValueError
            while building a graph).
    """
    attrs = _args_op_attrs(min, max, num_bits, narrow_range)
    return apply_op("FakeQuantWithMinMaxArgs", [_float_input(inputs, "inputs")], attrs,
                    name=name)


def fake_quant_with_min_max_args_gradient(gradients: TensorLike, inputs: TensorLike,
                                          min: float = -6.0,  # noqa: A002 - TF's name
                                          max: float = 6.0,  # noqa: A002 - TF's name
                                          num_bits: int = 8, narrow_range: bool = False,
                                          name: str | None = None) -> TensorBase:
    """The gradient of ``fake_quant_with_min_max_args``: ``gradients`` where ``inputs``
    lies inside the nudged range, zero elsewhere.

    Args:
        gradients: The backpropagated gradients (float32).
        inputs: The values that were fake-quantized (float32, ``gradients``' shape).
        min: The lower end of the range.
        max: The upper end of the range (above ``min``).
        num_bits: The bit width, 2 to 16.
        narrow_range: Whether the lowest level is left out.
        name: A name for the operation (optional).

    Returns:
        A float32 tensor of ``inputs``' shape.

    Raises:
        InvalidArgumentError: ``min >= max`` or ``num_bits`` is outside 2..16 (ValueError
            while building a graph).
    """
    attrs = _args_op_attrs(min, max, num_bits, narrow_range)
    return apply_op("FakeQuantWithMinMaxArgsGradient",
                    [_float_input(gradients, "gradients"), _float_input(inputs, "inputs")],
                    attrs, name=name)


def _vars_call(kind: str, tensors: list, num_bits: int, narrow_range: bool,
               name: str | None) -> Any:
    names = ("gradients", "inputs", "min", "max")[-len(tensors):]
    attrs = {"num_bits": _check_bits(num_bits), "narrow_range": bool(narrow_range)}
    return apply_op(kind, [_float_input(t, n) for t, n in zip(tensors, names)], attrs,
                    name=name)


def fake_quant_with_min_max_vars(inputs: TensorLike, min: TensorLike,  # noqa: A002
                                 max: TensorLike, num_bits: int = 8,  # noqa: A002
                                 narrow_range: bool = False,
                                 name: str | None = None) -> TensorBase:
    """Fake-quantizes float32 ``inputs`` into a range given by the scalar tensors ``min``
    and ``max`` (variables, in quantization-aware training), as
    ``fake_quant_with_min_max_args`` does; ``min == max == 0`` gives zeros. The gradient
    passes through inside the nudged range; ``min`` and ``max`` get the sums of the
    gradient below and above it.

    Args:
        inputs: A float32 tensor.
        min: A float32 scalar.
        max: A float32 scalar.
        num_bits: The bit width, 2 to 16.
        narrow_range: Whether the lowest level is left out.
        name: A name for the operation (optional).

    Returns:
        A float32 tensor of ``inputs``' shape.

    Raises:
        InvalidArgumentError: ``min`` or ``max`` is not a scalar, or ``num_bits`` is outside
            2..16 (ValueError while building a graph).
    """
    return _vars_call("FakeQuantWithMinMaxVars", [inputs, min, max], num_bits, narrow_range,
                      name)


def fake_quant_with_min_max_vars_gradient(gradients: TensorLike, inputs: TensorLike,
                                          min: TensorLike,  # noqa: A002 - TF's name
                                          max: TensorLike,  # noqa: A002 - TF's name
                                          num_bits: int = 8, narrow_range: bool = False,
                                          name: str | None = None) -> Any:
    """The gradients of ``fake_quant_with_min_max_vars``.

    Args:
        gradients: The backpropagated gradients (float32).
        inputs: The values that were fake-quantized (float32, ``gradients``' shape).
        min: A float32 scalar.
        max: A float32 scalar.
        num_bits: The bit width, 2 to 16.
        narrow_range: Whether the lowest level is left out.
        name: A name for the operation (optional).

    Returns:
        ``(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max)``: ``gradients`` inside
        the nudged range, and the sums of ``gradients`` below and above it.

    Raises:
        InvalidArgumentError: ``min`` or ``max`` is not a scalar, or ``num_bits`` is outside
            2..16 (ValueError while building a graph).
    """
    return FakeQuantWithMinMaxVarsGradient(*_vars_call(
        "FakeQuantWithMinMaxVarsGradient", [gradients, inputs, min, max], num_bits,
        narrow_range, name))


def fake_quant_with_min_max_vars_per_channel(inputs: TensorLike, min: TensorLike,  # noqa: A002
                                             max: TensorLike,  # noqa: A002 - TF's name
                                             num_bits: int = 8, narrow_range: bool = False,
                                             name: str | None = None) -> TensorBase:
    """Fake-quantizes float32 ``inputs`` channel by channel: the last axis's channel ``i``
    into ``[min[i], max[i]]``, as ``fake_quant_with_min_max_vars`` does for one range.

    Args:
        inputs: A float32 tensor of rank 1 to 4 (channels last).
        min: A float32 vector, one entry per channel.
        max: A float32 vector, one entry per channel.
        num_bits: The bit width, 2 to 16.
        narrow_range: Whether the lowest level is left out.
        name: A name for the operation (optional).

    Returns:
        A float32 tensor of ``inputs``' shape.

    Raises:
        InvalidArgumentError: ``min`` or ``max`` is not a vector of the channel count, or
            ``num_bits`` is outside 2..16 (ValueError while building a graph).
    """
    return _vars_call("FakeQuantWithMinMaxVarsPerChannel", [inputs, min, max], num_bits,
                      narrow_range, name)


def fake_quant_with_min_max_vars_per_channel_gradient(
        gradients: TensorLike, inputs: TensorLike, min: TensorLike,  # noqa: A002
        max: TensorLike, num_bits: int = 8, narrow_range: bool = False,  # noqa: A002
        name: str | None = None) -> Any:
    """The gradients of ``fake_quant_with_min_max_vars_per_channel``.

    Args:
        gradients: The backpropagated gradients (float32).
        inputs: The values that were fake-quantized (float32, ``gradients``' shape).
        min: A float32 vector, one entry per channel.
        max: A float32 vector, one entry per channel.
        num_bits: The bit width, 2 to 16.
        narrow_range: Whether the lowest level is left out.
        name: A name for the operation (optional).

    Returns:
        ``(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max)``: ``gradients`` inside
        each channel's nudged range, and per channel the sums of ``gradients`` below and
        above it.

    Raises:
        InvalidArgumentError: ``min`` or ``max`` is not a vector of the channel count, or
            ``num_bits`` is outside 2..16 (ValueError while building a graph).
    """
    return FakeQuantWithMinMaxVarsPerChannelGradient(*_vars_call(
        "FakeQuantWithMinMaxVarsPerChannelGradient", [gradients, inputs, min, max], num_bits,
        narrow_range, name))


__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient"]
