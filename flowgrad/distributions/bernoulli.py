"""The Bernoulli distribution over {0, 1}, parameterised by ``logits`` or ``probs``."""
from __future__ import annotations

from typing import Any

from flowgrad.distributions._params import float_params
from flowgrad.distributions.distribution import (NOT_REPARAMETERIZED, Distribution,
                                                 _check_values, init_name_scope)
from flowgrad.distributions.kullback_leibler import RegisterKL
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import identity, ones_like, shape
from flowgrad.ops.math_ops import cast, greater, less, log, log1p, sigmoid
from flowgrad.ops.nn_impl import sigmoid_cross_entropy_with_logits_v2
from flowgrad.ops.nn_ops import softplus
from flowgrad.ops.random_ops import random_uniform
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def logits_and_probs(logits: TensorLike, probs: TensorLike, family: str, validate_args: bool,
                     multidimensional: bool = False) -> tuple:
    """(logits, probs), one given and the other derived from it."""
    if (logits is None) == (probs is None):
        raise ValueError("Must pass probs or logits, but not both.")
    if probs is None:
        (logits,) = float_params(("logits",), (logits,), family)
        return logits, None
    (probs,) = float_params(("probs",), (probs,), family)
    if validate_args:
        probs = _check_values(probs, [probs], lambda v: (v >= 0) & (v <= 1),
                              "probs has components outside [0, 1]")
    return None, probs


class Bernoulli(Distribution):
    """Bernoulli(p): 1 with probability p, 0 otherwise (samples of ``dtype``, int32).

    Args:
        logits: Log-odds of a 1 (give this or ``probs``).
        probs: Probability of a 1.
        dtype: The dtype of samples.
        validate_args: Whether to check the parameters with assertions.
        allow_nan_stats: Whether statistics may be NaN (else they raise).
        name: The name scope of the distribution's ops.
    """

    def __init__(self, logits: TensorLike | None = None, probs: TensorLike | None = None,
                 dtype: DTypeLike = dtypes.int32, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Bernoulli"):
        parameters = dict(locals())
        with init_name_scope(name, [logits, probs]) as scope:
            self._logits, self._probs = logits_and_probs(logits, probs, "Bernoulli",
                                                         validate_args)
            if self._logits is None:
                self._logits = identity(log(self._probs) - log1p(-self._probs), name="logits")
            if self._probs is None:
                self._probs = identity(sigmoid(self._logits), name="probs")
        super().__init__(dtypes.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters, [self._logits, self._probs], scope)

    logits = property(lambda self: self._logits, doc="Log-odds of a 1.")
    probs = property(lambda self: self._probs, doc="Probability of a 1.")

    def _batch_shape(self) -> TensorShape:
        return self._logits.shape

    def _batch_shape_tensor(self) -> Any:
        return shape(self._logits)

    def _convert_value(self, value: Any) -> Any:
        return convert_to_tensor(value, name="value")

    def _sample_n(self, n: int, seed: int | None = None) -> Any:
        u = random_uniform(self._batch_sample_shape(n), dtype=self._probs.dtype.base_dtype,
                           seed=seed)
        return cast(less(u, self._probs), self.dtype)

    def _log_prob(self, event: Any) -> Any:
        event = cast(event, self._logits.dtype.base_dtype)
        logits = self._logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and event.shape == logits.shape):
            logits, event = ones_like(event) * logits, ones_like(logits) * event
        return -sigmoid_cross_entropy_with_logits_v2(labels=event, logits=logits)

    def _entropy(self) -> Any:
        return -self._logits * (sigmoid(self._logits) - 1.0) + softplus(-self._logits)

    def _mean(self) -> Any:
        return identity(self._probs)

    def _variance(self) -> Any:
        return self._probs * (1.0 - self._probs)

    def _mode(self) -> Any:
        return cast(greater(self._probs, 0.5), self.dtype)


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a: Bernoulli, b: Bernoulli, name: str | None = None) -> Any:
    delta0 = softplus(-b.logits) - softplus(-a.logits)
    delta1 = softplus(b.logits) - softplus(a.logits)
    return sigmoid(a.logits) * delta0 + sigmoid(-a.logits) * delta1


__all__ = ["Bernoulli"]
