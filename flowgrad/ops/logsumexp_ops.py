"""``tf.math.cumulative_logsumexp``: TensorFlow's CumulativeLogsumexp op, with its kernel (a
running log-add-exp, exact where a global shift would underflow) and its gradient (the
log-space formula of TensorFlow's, built from ops, so it differentiates again)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import unary
from flowgrad.ops.comparison_ops import greater, less, where
from flowgrad.ops.elementwise_ops import exp, is_inf, log, negative
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.math_helpers import _FLOATING
from flowgrad.ops.reduction_ops import _scan, _scan_axis
from flowgrad.framework.type_hints import AxisLike, TensorLike

def _log_add_exp(acc: np.ndarray, x: np.ndarray) -> np.ndarray:
    """TensorFlow's (Eigen's) step: min/max as ``std::min``/``std::max``, so a NaN ``x`` adds
    log 2 to the running sum while a NaN sum stays NaN, and -inf + -inf stays -inf."""
    lo = np.where(x < acc, x, acc)
    hi = np.where(acc < x, x, acc)
    with np.errstate(invalid="ignore", over="ignore"):
        out = np.log1p(np.exp(lo - hi)) + hi
    return np.where(np.isneginf(hi), hi, out)


def _kernel(x: Any, axis_in: Any = None, *, axis: Any = 0, exclusive: bool = False,
            reverse: bool = False) -> Any:
    a = axis if axis_in is None else int(axis_in)
    work = np.float32 if x.itemsize < 4 else x.dtype     # half types step in float32
    xs = np.moveaxis(x, a, 0)
    if reverse:
        xs = xs[::-1]
    out = np.empty(xs.shape, x.dtype)
    acc = np.full(xs.shape[1:], -np.inf, work)
    for i in range(xs.shape[0]):
        if exclusive:
            out[i] = acc
        acc = _log_add_exp(acc, xs[i].astype(work)).astype(x.dtype).astype(work)
        if not exclusive:
            out[i] = acc
    if reverse:
        out = out[::-1]
    return np.moveaxis(out, 0, a)


@defop("CumulativeLogsumexp", _kernel, infer=unary, input_names=("x", "axis"),
       batching="axis")
def _cumulative_logsumexp_grad(op: Any, grad: Any) -> Any:
    # TensorFlow's formula: the incoming gradient split into its positive and negative
    # parts, each summed in log space, so large and infinite entries stay finite elsewhere.
    x, out = op.inputs[0], op.outputs[0]
    axis, exclusive = _scan_axis(op), op.get_attr("exclusive")
    reverse = not op.get_attr("reverse")
    lowest = grad.dtype.base_dtype.min

    def part(mask: Any, magnitude: Any) -> Any:
        log_grad = where(mask, log(magnitude), lowest)
        return exp(cumulative_logsumexp(log_grad - out, axis, exclusive, reverse) + x)

    g = part(greater(grad, 0.0), grad) - part(less(grad, 0.0), negative(grad))
    return [g, None][:len(op.inputs)]


def _cumulative_logsumexp_jvp(op: Any, tangent: Any, *_: Any) -> Any:
    """dy_i = sum_j softmax_ij dx_j over the entries summed into y_i, with the tangent's
    positive and negative parts summed in log space as the gradient does."""
    if tangent is None:
        return None
    x, y = op.inputs[0], op.outputs[0]
    axis, exclusive = _scan_axis(op), op.get_attr("exclusive")
    reverse = op.get_attr("reverse")
    lowest = tangent.dtype.base_dtype.min
    empty = is_inf(y) & less(y, 0.0)            # an exclusive scan's empty sum: log 0

    def part(mask: Any, magnitude: Any) -> Any:
        log_t = where(mask, log(magnitude), lowest)
        s = cumulative_logsumexp(x + log_t, axis, exclusive, reverse)
        return exp(s - where(empty, zeros_like(y), y))

    return where(empty, zeros_like(y),
                 part(greater(tangent, 0.0), tangent) - part(less(tangent, 0.0), negative(tangent)))


register_jvp("CumulativeLogsumexp", _cumulative_logsumexp_jvp)


def cumulative_logsumexp(x: TensorLike, axis: AxisLike = 0, exclusive: bool = False,
                         reverse: bool = False, name: str | None = None) -> Any:
    """The cumulative log-sum-exp of ``x`` along ``axis``.

    Args:
      x: a floating-point tensor.
      axis: the axis (0 by default, as in TensorFlow).
      exclusive: leave each element out of its own sum (the first result is ``-inf``).
      reverse: sum from the end.
      name: the op name scope.

    Returns:
      A tensor of ``x``'s shape and dtype: ``log(cumsum(exp(x)))``, computed as a running
      log-add-exp, so it neither overflows nor underflows.

    Raises:
      InvalidArgumentError: If ``x`` is not floating or ``axis`` is out of range.
    """
    return _scan("CumulativeLogsumexp", x, axis, exclusive, reverse, name,
                 kinds=_FLOATING)


__all__ = ["cumulative_logsumexp"]
