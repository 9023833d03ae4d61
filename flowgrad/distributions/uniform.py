"""The continuous Uniform distribution on [low, high)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.distributions._params import float_params
from flowgrad.distributions.distribution import (FULLY_REPARAMETERIZED, Distribution,
                                                 _check_values, broadcast_batch_shape,
                                                 init_name_scope)
from flowgrad.distributions.kullback_leibler import RegisterKL
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import ones_like, shape, zeros_like
from flowgrad.ops.math_ops import (add, greater_equal, is_nan, less, less_equal, log,
                                   logical_and, logical_or, square, where)
from flowgrad.ops.random_ops import random_uniform
from flowgrad.framework.type_hints import TensorLike


class Uniform(Distribution):
    """Uniform(low, high): density 1 / (high - low) on [low, high).

    Samples are reparameterised (``low + (high - low) * u``).

    Args:
        low: The lower bound (inclusive).
        high: The upper bound (exclusive), above ``low``.
        validate_args: Whether to check the parameters with assertions.
        allow_nan_stats: Whether statistics may be NaN (else they raise).
        name: The name scope of the distribution's ops.
    """

    def __init__(self, low: TensorLike = 0.0, high: TensorLike = 1.0, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Uniform"):
        parameters = dict(locals())
        with init_name_scope(name, [low, high]) as scope:
            self._low, self._high = float_params(("low", "high"), (low, high), "Uniform")
            if validate_args:
                self._high = _check_values(self._high, [self._low, self._high],
                                           lambda lo, hi: lo < hi,
                                           "uniform not well-defined when low >= high.")
        super().__init__(self._low.dtype.base_dtype, FULLY_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters, [self._low, self._high], scope)

    low = property(lambda self: self._low, doc="Lower boundary of the support.")
    high = property(lambda self: self._high, doc="Upper boundary of the support.")

    def range(self, name: str = "range") -> Any:
        """high - low."""
        with self._name_scope(name):
            return self._high - self._low

    def _batch_shape(self) -> TensorShape:
        return broadcast_batch_shape(self._low, self._high)

    def _batch_shape_tensor(self) -> Any:
        return shape(add(zeros_like(self._low), zeros_like(self._high)))

    def _sample_n(self, n: int, seed: int | None = None) -> Any:
        u = random_uniform(self._batch_sample_shape(n), dtype=self._low.dtype.base_dtype,
                           seed=seed)
        return self._low + self.range() * u

    def _broadcast(self, x: Any) -> Any:
        return x * ones_like(self._low + self._high)

    def _prob(self, x: Any) -> Any:
        bx = self._broadcast(x)
        outside = logical_or(less(bx, self._low), greater_equal(bx, self._high))
        inside = where(outside, zeros_like(bx), ones_like(bx) / self.range())
        return where(is_nan(bx), bx, inside)

    def _cdf(self, x: Any) -> Any:
        bx = self._broadcast(x)
        below = where(less(bx, self._low), zeros_like(bx), (bx - self._low) / self.range())
        return where(greater_equal(bx, self._high), ones_like(bx), below)

    def _entropy(self) -> Any:
        return log(self.range())

    def _mean(self) -> Any:
        return (self._low + self._high) / 2.0

    def _variance(self) -> Any:
        return square(self.range()) / 12.0

    def _stddev(self) -> Any:
        return self.range() / math.sqrt(12.0)


@RegisterKL(Uniform, Uniform)
def _kl_uniform_uniform(a: Uniform, b: Uniform, name: str | None = None) -> Any:
    """log(range_b / range_a) where a's support lies inside b's, else +inf."""
    inside = logical_and(less_equal(b.low, a.low), less_equal(a.high, b.high))
    finite = log(b.range()) - log(a.range())
    return where(inside, finite, finite * 0.0 + np.inf)


__all__ = ["Uniform"]
