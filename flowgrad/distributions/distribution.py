"""The ``Distribution`` base class of ``tf.distributions`` (TensorFlow 1.x's API).

Subclasses implement ``_sample_n``, ``_log_prob``, ``_entropy``, ``_mean`` ... on
tensors; the public methods convert arguments, open name scopes and give TensorFlow's
NotImplementedError for what a family lacks. Everything is built from ordinary ops,
so log-probabilities, entropies and (reparameterised) samples are differentiable to
any order, in graph and eager mode alike."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import control_dependencies, name_scope
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.ops.array_ops import concat, identity, reshape, shape, slice
from flowgrad.ops.math_ops import exp, log
from flowgrad.ops.script_ops import numpy_function
from flowgrad.framework.type_hints import DTypeLike


class ReparameterizationType:
    """Whether samples are a differentiable function of the parameters.

    Args:
        rep_type: Its name (``FULLY_REPARAMETERIZED`` or ``NOT_REPARAMETERIZED``).
    """

    def __init__(self, rep_type: str):
        self._rep_type = rep_type

    def __repr__(self) -> str:
        return "<Reparameteriation Type: %s>" % self._rep_type

    def __eq__(self, other: Any) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def _check_values(x: Any, args: list, ok: Any, message: str) -> Any:
    """``x``, with a check that ``ok(*values of args)`` holds for all elements: at once when
    the values are known, otherwise when ``x`` is computed (InvalidArgumentError)."""
    values = [a.numpy() if executing_eagerly() else constant_value(a) for a in args]
    if all(v is not None for v in values):
        if not np.all(ok(*[np.asarray(v) for v in values])):
            raise InvalidArgumentError(None, None, message)
        return x

    def check(*vs: np.ndarray) -> np.ndarray:
        if not np.all(ok(*vs)):
            raise InvalidArgumentError(None, None, message)
        return np.zeros((), np.bool_)
    with control_dependencies([numpy_function(check, list(args), dtypes.bool, name="check")]):
        return identity(x)


def assert_positive(x: Any, what: str) -> Any:
    """``x`` checked to be > 0 elementwise (validate_args)."""
    return _check_values(x, [x], lambda v: v > 0, "Condition x > 0 did not hold element-wise: "
                         "argument `%s` must be positive" % what)


class Distribution:
    """A batch of probability distributions with sample, log_prob, entropy, statistics.

    Args:
        dtype: The dtype of its samples.
        reparameterization_type: Whether samples are differentiable in the parameters.
        validate_args: Whether to check the parameters (and ``log_prob``'s values).
        allow_nan_stats: Whether an undefined statistic is NaN (else it raises).
        parameters: The arguments it was made with (``parameters`` property).
        graph_parents: TensorFlow 1's list of the tensors it depends on (kept).
        name: A name for its ops.
    """

    def __init__(self, dtype: DTypeLike, reparameterization_type: ReparameterizationType,
                 validate_args: bool, allow_nan_stats: bool, parameters: dict | None = None,
                 graph_parents: list | None = None, name: str | None = None):
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._validate_args = validate_args
        self._allow_nan_stats = allow_nan_stats
        self._parameters = dict(parameters or {})
        for k in ("self", "__class__"):
            self._parameters.pop(k, None)
        self._graph_parents = list(graph_parents or [])
        self._name = name

    # -- properties ------------------------------------------------------------------
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    parameters = property(lambda self: dict(self._parameters))
    reparameterization_type = property(lambda self: self._reparameterization_type)
    allow_nan_stats = property(lambda self: self._allow_nan_stats)
    validate_args = property(lambda self: self._validate_args)

    @property
    def batch_shape(self) -> TensorShape:
        """The static shape of a batch of distributions (parameters broadcast)."""
        return self._batch_shape()

    @property
    def event_shape(self) -> TensorShape:
        """The static shape of one draw of one distribution."""
        return self._event_shape()

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Any:
        with self._name_scope(name):
            s = self.batch_shape
            if s.is_fully_defined():
                return convert_to_tensor(np.array(s.as_list(), np.int32), name="batch_shape")
            return self._batch_shape_tensor()

    def event_shape_tensor(self, name: str = "event_shape_tensor") -> Any:
        with self._name_scope(name):
            return convert_to_tensor(np.array(self.event_shape.as_list(), np.int32))

    def is_scalar_batch(self, name: str = "is_scalar_batch") -> bool:
        return self.batch_shape.rank == 0

    def is_scalar_event(self, name: str = "is_scalar_event") -> bool:
        return self.event_shape.rank == 0

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def copy(self, **override_parameters: Any) -> Distribution:
        """A new distribution of the same type with some parameters replaced."""
        return type(self)(**dict(self.parameters, **override_parameters))

    # -- sampling ---------------------------------------------------------------------
    def sample(self, sample_shape: Any = (), seed: int | None = None,
               name: str = "sample") -> Any:
        """Draws ``sample_shape + batch_shape + event_shape`` samples."""
        with self._name_scope(name):
            dims = _static_sample_shape(sample_shape)
            n = int(np.prod(dims, dtype=np.int64))
            samples = self._sample_n(n, seed)
            if len(dims) == 1:
                return samples
            rest = samples.shape.as_list()[1:] if samples.shape.rank is not None else None
            if rest is not None and None not in rest:
                return reshape(samples, dims + rest)
            return reshape(samples, concat([np.array(dims, np.int32),
                                            slice(shape(samples), [1], [-1])], 0))

    def _batch_sample_shape(self, n: int) -> Any:
        """[n] + batch_shape, static when the batch shape is known."""
        s = self.batch_shape
        if s.is_fully_defined():
            return [n] + s.as_list()
        return concat([np.array([n], np.int32), self._batch_shape_tensor()], 0)

    # -- densities --------------------------------------------------------------------
    def log_prob(self, value: Any, name: str = "log_prob") -> Any:
        """log p(value) for each distribution of the batch."""
        return self._call("log_prob", name, value)

    def prob(self, value: Any, name: str = "prob") -> Any:
        """p(value) (a probability mass for discrete distributions)."""
        return self._call("prob", name, value)

    def cdf(self, value: Any, name: str = "cdf") -> Any:
        """P[X <= value]."""
        return self._call("cdf", name, value)

    def log_cdf(self, value: Any, name: str = "log_cdf") -> Any:
        """log P[X <= value]."""
        return self._call("log_cdf", name, value)

    def survival_function(self, value: Any, name: str = "survival_function") -> Any:
        """P[X > value]."""
        return self._call("survival_function", name, value)

    def log_survival_function(self, value: Any, name: str = "log_survival_function") -> Any:
        """log P[X > value]."""
        return self._call("log_survival_function", name, value)

    def quantile(self, value: Any, name: str = "quantile") -> Any:
        """The inverse of the CDF at probability ``value``."""
        return self._call("quantile", name, value)

    def _prob(self, value: Any) -> Any:
        return exp(self._log_prob(value))

    def _log_prob(self, value: Any) -> Any:
        return log(self._prob(value))

    def _log_cdf(self, value: Any) -> Any:
        return log(self._cdf(value))

    def _survival_function(self, value: Any) -> Any:
        return 1.0 - self._cdf(value)

    def _log_survival_function(self, value: Any) -> Any:
        return log(self._survival_function(value))

    # -- statistics -------------------------------------------------------------------
    def entropy(self, name: str = "entropy") -> Any:
        """Shannon entropy (nats)."""
        return self._call("entropy", name)

    def mean(self, name: str = "mean") -> Any:
        return self._call("mean", name)

    def mode(self, name: str = "mode") -> Any:
        return self._call("mode", name)

    def stddev(self, name: str = "stddev") -> Any:
        return self._call("stddev", name)

    def variance(self, name: str = "variance") -> Any:
        return self._call("variance", name)

    def _stddev(self) -> Any:
        from flowgrad.ops.math_ops import sqrt
        return sqrt(self._variance())

    def _variance(self) -> Any:
        from flowgrad.ops.math_ops import square
        return square(self._stddev())

    def kl_divergence(self, other: Distribution, name: str = "kl_divergence") -> Any:
        """KL(self || other), from the registered formula for the two types."""
        from flowgrad.distributions.kullback_leibler import kl_divergence
        with self._name_scope(name):
            return kl_divergence(self, other)

    def cross_entropy(self, other: Distribution, name: str = "cross_entropy") -> Any:
        """H[self, other] = entropy(self) + KL(self || other)."""
        with self._name_scope(name):
            return self._entropy() + self.kl_divergence(other)

    # -- plumbing ---------------------------------------------------------------------
    def _call(self, method: str, name: str, *value: Any) -> Any:
        impl = getattr(type(self), "_" + method, None)
        if impl is None or _is_default_loop(type(self), method):
            raise NotImplementedError("%s is not implemented: %s"
                                      % (method, type(self).__name__))
        with self._name_scope(name):
            args = [self._convert_value(v) for v in value]
            return impl(self, *args)

    def _convert_value(self, value: Any) -> Any:
        return convert_to_tensor(value, self.dtype, name="value")

    @contextlib.contextmanager
    def _name_scope(self, name: str) -> Iterator[None]:
        with name_scope(self._name), name_scope(name):
            yield

    def __repr__(self) -> str:
        return ("<tf.distributions.%s '%s' batch_shape=%s event_shape=%s dtype=%s>"
                % (type(self).__name__, self.name, self.batch_shape, self.event_shape,
                   self.dtype.name))


# A family must define one of each pair; the default of one calls the other.
_PAIRS = {"prob": "log_prob", "log_prob": "prob", "log_cdf": "cdf",
          "survival_function": "cdf", "log_survival_function": "cdf",
          "stddev": "variance", "variance": "stddev"}


def _is_default_loop(cls: type, method: str) -> bool:
    """Whether ``method`` would only fall back on a partner the family does not define."""
    partner = _PAIRS.get(method)
    if partner is None:
        return False
    own = getattr(cls, "_" + method) is not getattr(Distribution, "_" + method, None)
    if own:
        return False
    p = getattr(cls, "_" + partner, None)
    return p is None or p is getattr(Distribution, "_" + partner, None)


def _static_sample_shape(sample_shape: Any) -> list:
    v = constant_value(sample_shape) if is_tensor(sample_shape) else sample_shape
    if v is None:
        raise ValueError("sample_shape must be known when the graph is built, got %s"
                         % (sample_shape,))
    dims = [int(d) for d in np.reshape(np.asarray(v, np.int64), [-1])]
    if any(d < 0 for d in dims):
        raise ValueError("sample_shape must be non-negative, got %s" % (dims,))
    return dims


def broadcast_batch_shape(*params: Any) -> TensorShape:
    """The static broadcast of the parameters' shapes."""
    s = TensorShape([])
    for p in params:
        s = broadcast_shapes(s, p.shape)
    return s


def init_name_scope(name: str, params: list) -> Any:
    """The distribution's name: a unique name scope in graph mode (as TensorFlow's)."""
    return name_scope(name, values=params) if not executing_eagerly() else \
        contextlib.nullcontext(name)
