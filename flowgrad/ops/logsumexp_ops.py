"""``tf.math.cumulative_logsumexp``: ``log(cumsum(exp(x)))``, computed stably as
``m + log(cumsum(exp(x - m)))`` with ``m`` the (gradient-free) maximum along the axis, so
its gradient is the softmax-weighted one TensorFlow's CumulativeLogsumexp gives."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.comparison_ops import where
from flowgrad.ops.constant_ops import stop_gradient
from flowgrad.ops.elementwise_ops import exp, is_finite, log
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.reduction_ops import cumsum, reduce_max


def cumulative_logsumexp(x: Any, axis: Any = 0, exclusive: bool = False,
                         reverse: bool = False, name: str | None = None) -> Any:
    """The cumulative log-sum-exp of ``x`` along ``axis``.

    Args:
      x: a floating-point tensor.
      axis: the axis (0 by default, as in TensorFlow).
      exclusive: leave each element out of its own sum (the first result is ``-inf``).
      reverse: sum from the end.
      name: the op name scope.

    Returns:
      A tensor like ``x``.
    """
    with name_scope(name, "CumulativeLogsumexp", [x]):
        x = convert_to_tensor(x, name="x")
        m = stop_gradient(reduce_max(x, axis=axis, keepdims=True))
        m = where(is_finite(m), m, zeros_like(m))     # all -inf (or inf): no shift
        return log(cumsum(exp(x - m), axis=axis, exclusive=exclusive, reverse=reverse)) + m


__all__ = ["cumulative_logsumexp"]
