"""The Normal (Gaussian) distribution N(loc, scale**2)."""
from __future__ import annotations

import math
from typing import Any

from flowgrad.distributions._params import float_params
from flowgrad.distributions.distribution import (FULLY_REPARAMETERIZED, Distribution,
                                                 assert_positive, broadcast_batch_shape,
                                                 init_name_scope)
from flowgrad.distributions.kullback_leibler import RegisterKL
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import ones_like, shape, zeros_like
from flowgrad.ops.math_ops import abs, add, greater, less, log, square, where
from flowgrad.ops.random_ops import random_normal
from flowgrad.ops.special_math_ops import erf, erfc, ndtri

_HALF_SQRT_2 = 0.5 * math.sqrt(2.0)


def ndtr(x: Any) -> Any:
    """The standard normal CDF, accurate in both tails (erf near 0, erfc beyond).

    Args:
        x: A float tensor.

    Returns:
        P(Z <= x) for a standard normal Z, elementwise.
    """
    w = x * _HALF_SQRT_2
    z = abs(w)
    y = where(less(z, _HALF_SQRT_2), 1.0 + erf(w),
              where(greater(w, 0.0), 2.0 - erfc(z), erfc(z)))
    return 0.5 * y


class Normal(Distribution):
    """N(loc, scale**2) with ``loc`` and ``scale`` broadcast to the batch shape.

    Samples are reparameterised (``loc + scale * eps``), so gradients flow into both
    parameters. ``log_cdf`` is log(cdf) (no asymptotic series in the far lower tail).

    Args:
        loc: The mean.
        scale: The standard deviation (positive).
        validate_args: Whether to check the parameters with assertions.
        allow_nan_stats: Whether statistics may be NaN (else they raise).
        name: The name scope of the distribution's ops.
    """

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Normal"):
        parameters = dict(locals())
        with init_name_scope(name, [loc, scale]) as scope:
            self._loc, self._scale = float_params(("loc", "scale"), (loc, scale), "Normal")
            if validate_args:
                self._scale = assert_positive(self._scale, "scale")
        super().__init__(self._loc.dtype.base_dtype, FULLY_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters, [self._loc, self._scale], scope)

    loc = property(lambda self: self._loc, doc="The mean of the distribution.")
    scale = property(lambda self: self._scale, doc="The standard deviation.")

    def _batch_shape(self) -> TensorShape:
        return broadcast_batch_shape(self._loc, self._scale)

    def _batch_shape_tensor(self) -> Any:
        return shape(add(zeros_like(self._loc), zeros_like(self._scale)))

    def _sample_n(self, n: int, seed: int | None = None) -> Any:
        eps = random_normal(self._batch_sample_shape(n), dtype=self._loc.dtype.base_dtype,
                            seed=seed)
        return eps * self._scale + self._loc

    def _z(self, x: Any) -> Any:
        return (x - self._loc) / self._scale

    def _log_prob(self, x: Any) -> Any:
        return -0.5 * square(self._z(x)) - (0.5 * math.log(2.0 * math.pi) + log(self._scale))

    def _cdf(self, x: Any) -> Any:
        return ndtr(self._z(x))

    def _survival_function(self, x: Any) -> Any:
        return ndtr(-self._z(x))

    def _quantile(self, p: Any) -> Any:
        return ndtri(p) * self._scale + self._loc

    def _entropy(self) -> Any:
        return 0.5 * math.log(2.0 * math.pi * math.e) + log(self._scale * ones_like(self._loc))

    def _mean(self) -> Any:
        return self._loc * ones_like(self._scale)

    def _mode(self) -> Any:
        return self._mean()

    def _stddev(self) -> Any:
        return self._scale * ones_like(self._loc)

    def _variance(self) -> Any:
        return square(self._stddev())


@RegisterKL(Normal, Normal)
def _kl_normal_normal(a: Normal, b: Normal, name: str | None = None) -> Any:
    ratio = square(a.scale) / square(b.scale)
    return square(a.loc - b.loc) / (2.0 * square(b.scale)) + 0.5 * (ratio - 1.0 - log(ratio))


__all__ = ["Normal"]
