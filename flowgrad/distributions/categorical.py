"""The Categorical distribution over classes {0, ..., K-1}."""
from __future__ import annotations

from typing import Any


from flowgrad.distributions.bernoulli import logits_and_probs
from flowgrad.distributions.distribution import (NOT_REPARAMETERIZED, Distribution,
                                                 init_name_scope)
from flowgrad.distributions.kullback_leibler import RegisterKL
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import (expand_dims, identity, ones, ones_like, reshape, shape,
                                    slice, transpose)
from flowgrad.ops.math_ops import argmax, cast, log, reduce_sum
from flowgrad.ops.nn_ops import log_softmax, softmax, sparse_softmax_cross_entropy_with_logits
from flowgrad.ops.random_ops import multinomial
from flowgrad.framework.type_hints import DTypeLike, TensorLike


class Categorical(Distribution):
    """Categorical(logits or probs over the last axis): samples are class indices.

    Args:
        logits: Unnormalized log-probabilities over the last axis (give this or ``probs``).
        probs: Probabilities over the last axis.
        dtype: The dtype of samples.
        validate_args: Whether to check the parameters with assertions.
        allow_nan_stats: Whether statistics may be NaN (else they raise).
        name: The name scope of the distribution's ops.
    """

    def __init__(self, logits: TensorLike | None = None, probs: TensorLike | None = None,
                 dtype: DTypeLike = dtypes.int32, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Categorical"):
        parameters = dict(locals())
        with init_name_scope(name, [logits, probs]) as scope:
            self._logits, self._probs = logits_and_probs(logits, probs, "Categorical",
                                                         validate_args)
            p = self._logits if self._logits is not None else self._probs
            if p.shape.rank == 0:
                raise ValueError("Categorical: logits/probs must have rank >= 1 (the last "
                                 "axis holds the classes), got a scalar")
            if self._logits is None:
                self._logits = identity(log(self._probs), name="logits")
            if self._probs is None:
                self._probs = identity(softmax(self._logits), name="probs")
        super().__init__(dtypes.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters, [self._logits, self._probs], scope)

    logits = property(lambda self: self._logits, doc="Unnormalised log-probabilities.")
    probs = property(lambda self: self._probs, doc="Class probabilities.")

    @property
    def event_size(self) -> Any:
        """The number of classes K (an int when known statically)."""
        k = self._logits.shape.as_list()[-1] if self._logits.shape.rank else None
        return k if k is not None else shape(self._logits)[-1]

    def _batch_shape(self) -> TensorShape:
        s = self._logits.shape
        return TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-1])

    def _batch_shape_tensor(self) -> Any:
        return slice(shape(self._logits), [0], [self._logits.shape.rank - 1])

    def _convert_value(self, value: Any) -> Any:
        return convert_to_tensor(value, name="value")

    def _sample_n(self, n: int, seed: int | None = None) -> Any:
        k = self.event_size
        logits_2d = reshape(self._logits, [-1, k])
        draws = transpose(multinomial(logits_2d, n, seed=seed))      # [n, prod(batch)]
        return cast(reshape(draws, self._batch_sample_shape(n)), self.dtype)

    def _log_prob(self, k: Any) -> Any:
        if k.dtype.base_dtype.is_floating:
            k = cast(k, dtypes.int32)
        elif not k.dtype.base_dtype.is_integer:
            raise TypeError("`value` should have integer `dtype` or `self.dtype` (%s)"
                            % self.dtype.name)
        logits = self._logits
        batch = self.batch_shape
        if not (batch.is_fully_defined() and k.shape.is_fully_defined() and batch == k.shape):
            logits = logits * ones_like(expand_dims(k, -1), dtype=logits.dtype.base_dtype)
            k = k * ones(slice(shape(logits), [0], [logits.shape.rank - 1])
                         if logits.shape.rank is not None else shape(logits)[:-1],
                         dtype=k.dtype.base_dtype)
        return -sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self) -> Any:
        return -reduce_sum(log_softmax(self._logits) * self._probs, -1)

    def _mode(self) -> Any:
        return cast(argmax(self._logits, axis=-1), self.dtype)


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a: Categorical, b: Categorical, name: str | None = None) -> Any:
    delta = log_softmax(a.logits) - log_softmax(b.logits)
    return reduce_sum(softmax(a.logits) * delta, -1)


__all__ = ["Categorical"]
