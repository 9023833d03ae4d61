"""Stateless random ops: ``tf.random.stateless_uniform``, ``stateless_normal``,
``stateless_truncated_normal``, ``stateless_categorical``, ``stateless_binomial``,
``stateless_gamma`` and ``stateless_poisson`` (TensorFlow's op types
``StatelessRandomUniform``, ``StatelessRandomUniformInt``, ``StatelessRandomUniformFullInt``,
``StatelessRandomNormal``, ``StatelessTruncatedNormal``, ``StatelessMultinomial``,
``StatelessRandomBinomial``, ``StatelessRandomGammaV2``, ``StatelessRandomPoisson``).

The contract is TensorFlow's: the output is a pure function of ``shape``, the ``seed`` (a
shape-[2] int32/int64 tensor) and the other arguments -- the same seed gives the same numbers,
in eager mode, in graphs and across processes; different seeds give independent streams.
The numbers are TensorFlow's: the seed's key and counter come from TensorFlow's scramble
(``GenerateKey``) and the distributions are its kernels' (flowgrad/ops/random_distributions.py),
and the rejection samplers of flowgrad/ops/random_rejection.py. None of the ops has a
gradient, as in TensorFlow, except the gamma ops (``StatelessRandomGammaV2/V3``): a sample's
derivative in ``alpha`` by implicit reparameterization."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.philox import stateless_key_counter
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.shape_rules import constant_value, shape_from_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.ops import random_distributions, random_rejection
from flowgrad.ops.arithmetic_ops import add, multiply, realdiv
from flowgrad.ops.math_ops import maximum, reduce_sum
from flowgrad.ops.array_ops import _as_value, broadcast_to, reshape, stack
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

def _key_counter(op_type: str, seed: Any) -> tuple[int, int]:
    """TensorFlow's (key, counter) of a shape-[2] seed (``GenerateKey``)."""
    s = np.asarray(seed)
    if s.shape != (2,):
        raise InvalidArgumentError(None, None, "%s: seed must have shape [2], not %s"
                                   % (op_type, list(s.shape)))
    return stateless_key_counter(int(s[0]), int(s[1]))


def _size(shape: Any, op_type: str) -> tuple:
    dims = tuple(int(d) for d in np.ravel(shape))
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(None, None, "%s: shape must not have negative dimensions, "
                                   "got %s" % (op_type, list(dims)))
    return dims


def _floats(op_type: str, draw: Any) -> Any:
    def kernel(shape: Any, seed: Any, *, dtype: dtypes.DType) -> np.ndarray:
        key, counter = _key_counter(op_type, seed)
        return draw(key, counter, _size(shape, op_type), dtype)
    return kernel


def _sample_infer(ins: list, attrs: dict) -> tuple:
    return attrs["dtype"], shape_from_value(ins[0])


_STATELESS = dict(grad=_NO_GRADIENT)
register_op("StatelessRandomUniform",
            _floats("StatelessRandomUniform", random_distributions.uniform),
            _sample_infer, input_names=("shape", "seed"), **_STATELESS)
register_op("StatelessRandomNormal",
            _floats("StatelessRandomNormal", random_distributions.normal),
            _sample_infer, input_names=("shape", "seed"), **_STATELESS)
register_op("StatelessTruncatedNormal",
            _floats("StatelessTruncatedNormal", random_distributions.truncated_normal),
            _sample_infer, input_names=("shape", "seed"), **_STATELESS)


def _uniform_int_kernel(shape: Any, seed: Any, minval: Any, maxval: Any) -> np.ndarray:
    lo, hi = np.asarray(minval), np.asarray(maxval)
    if not lo < hi:
        raise InvalidArgumentError(None, None, "StatelessRandomUniformInt: Need minval < maxval: "
                                   "%s >= %s" % (lo, hi))
    key, counter = _key_counter("StatelessRandomUniformInt", seed)
    return random_distributions.uniform_int(key, counter,
                                            _size(shape, "StatelessRandomUniformInt"),
                                            int(lo), int(hi), dtypes.as_dtype(lo.dtype))


def _full_int_kernel(shape: Any, seed: Any, *, dtype: dtypes.DType) -> np.ndarray:
    key, counter = _key_counter("StatelessRandomUniformFullInt", seed)
    return random_distributions.full_int(key, counter,
                                         _size(shape, "StatelessRandomUniformFullInt"), dtype)


register_op("StatelessRandomUniformInt", _uniform_int_kernel,
            lambda ins, attrs: (ins[2].dtype.base_dtype, shape_from_value(ins[0])),
            input_names=("shape", "seed", "minval", "maxval"), **_STATELESS)
register_op("StatelessRandomUniformFullInt", _full_int_kernel, _sample_infer,
            input_names=("shape", "seed"), **_STATELESS)


# The V2 ops take TensorFlow's (key, counter) directly: key uint64 [1], counter uint64 [2]
# (tf.random.Generator's draws, StatelessRandomGetKeyCounter's outputs); ``alg`` 1 (Philox)
# and 3 (auto-select, Philox on CPU) give the same numbers.


def _v2_key_counter(op_type: str, key: Any, counter: Any, alg: Any) -> tuple[int, int]:
    k, c = np.ravel(key), np.ravel(counter)
    if k.size != 1 or c.size < 2:
        raise InvalidArgumentError(None, None, "%s: key must have 1 element and counter 2, "
                                   "got %d and %d" % (op_type, k.size, c.size))
    if int(alg) not in (1, 3):
        raise InvalidArgumentError(None, None, "%s: unsupported algorithm id %d (flowgrad has "
                                   "Philox: 1, or auto-select: 3)" % (op_type, int(alg)))
    c = c.astype(np.uint64)
    return int(k.astype(np.uint64)[0]), int(c[0]) | int(c[1]) << 64


def _floats_v2(op_type: str, draw: Any) -> Any:
    def kernel(shape: Any, key: Any, counter: Any, alg: Any, *,
               dtype: dtypes.DType) -> np.ndarray:
        return draw(*_v2_key_counter(op_type, key, counter, alg), _size(shape, op_type), dtype)
    return kernel


def _uniform_int_v2_kernel(shape: Any, key: Any, counter: Any, alg: Any, minval: Any,
                           maxval: Any) -> np.ndarray:
    lo, hi = np.asarray(minval), np.asarray(maxval)
    size = _size(shape, "StatelessRandomUniformIntV2")
    if int(np.prod(size)) and not lo < hi:
        raise InvalidArgumentError(None, None, "StatelessRandomUniformIntV2: Need minval < "
                                   "maxval: %s >= %s" % (lo, hi))
    k, c = _v2_key_counter("StatelessRandomUniformIntV2", key, counter, alg)
    return random_distributions.uniform_int(k, c, size, int(lo), int(hi),
                                            dtypes.as_dtype(lo.dtype))


def _full_int_v2_kernel(shape: Any, key: Any, counter: Any, alg: Any, *,
                        dtype: dtypes.DType) -> np.ndarray:
    k, c = _v2_key_counter("StatelessRandomUniformFullIntV2", key, counter, alg)
    return random_distributions.full_int(k, c, _size(shape, "StatelessRandomUniformFullIntV2"),
                                         dtype)


def _get_key_counter_kernel(seed: Any) -> tuple:
    key, counter = _key_counter("StatelessRandomGetKeyCounter", seed)
    return (np.array([key], np.uint64),
            np.array([counter & (2**64 - 1), counter >> 64], np.uint64))


_V2 = ("shape", "key", "counter", "alg")
register_op("StatelessRandomUniformV2",
            _floats_v2("StatelessRandomUniformV2", random_distributions.uniform),
            _sample_infer, input_names=_V2, **_STATELESS)
register_op("StatelessRandomNormalV2",
            _floats_v2("StatelessRandomNormalV2", random_distributions.normal),
            _sample_infer, input_names=_V2, **_STATELESS)
register_op("StatelessTruncatedNormalV2",
            _floats_v2("StatelessTruncatedNormalV2", random_distributions.truncated_normal),
            _sample_infer, input_names=_V2, **_STATELESS)
register_op("StatelessRandomUniformIntV2", _uniform_int_v2_kernel,
            lambda ins, attrs: (ins[4].dtype.base_dtype, shape_from_value(ins[0])),
            input_names=_V2 + ("minval", "maxval"), **_STATELESS)
register_op("StatelessRandomUniformFullIntV2", _full_int_v2_kernel, _sample_infer,
            input_names=_V2, **_STATELESS)
register_op("StatelessRandomGetKeyCounter", _get_key_counter_kernel,
            lambda ins, attrs: [(dtypes.uint64, TensorShape([1])),
                                (dtypes.uint64, TensorShape([2]))],
            num_outputs=2, input_names=("seed",), **_STATELESS)


def _shuffle_kernel(value: Any, key: Any, counter: Any, alg: Any) -> np.ndarray:
    value = np.asarray(value)
    if value.size <= 1 or value.shape[0] <= 1:
        return value.copy()
    k, c = _v2_key_counter("StatelessShuffle", key, counter, alg)
    return value[random_distributions.shuffle_permutation(k, c, value.shape[0])]


register_op("StatelessShuffle", _shuffle_kernel,
            lambda ins, attrs: (ins[0].dtype.base_dtype, ins[0].shape),
            input_names=("value", "key", "counter", "alg"), **_STATELESS)


def _multinomial_kernel(logits: Any, num_samples: Any, seed: Any, *,
                        output_dtype: dtypes.DType) -> np.ndarray:
    z = np.asarray(logits)
    if z.ndim != 2:
        raise InvalidArgumentError(None, None, "StatelessMultinomial: logits should be a matrix, "
                                   "got shape %s" % (list(z.shape),))
    n = int(num_samples)
    if n < 0:
        raise InvalidArgumentError(None, None, "StatelessMultinomial: num_samples should be "
                                   "non-negative, got %d" % n)
    if z.shape[1] == 0:
        raise InvalidArgumentError(None, None, "StatelessMultinomial: num_classes should be "
                                   "positive, got 0")
    key, counter = _key_counter("StatelessMultinomial", seed)
    if z.shape[0] * n == 0:
        return np.zeros((z.shape[0], n), output_dtype.np)
    return random_distributions.categorical(key, counter, np.asarray(logits), n).astype(
        output_dtype.np)


def _multinomial_infer(ins: list, attrs: dict) -> tuple:
    logits = ins[0].shape
    if logits.rank not in (None, 2):
        raise ValueError("logits should be a matrix [batch_size, num_classes], got shape %s"
                         % logits)
    n = constant_value(ins[1])
    batch = None if logits.rank is None else logits.as_list()[0]
    return attrs["output_dtype"], TensorShape([batch, None if n is None else int(n)])


register_op("StatelessMultinomial", _multinomial_kernel, _multinomial_infer,
            input_names=("logits", "num_samples", "seed"), **_STATELESS)


def _per_param(shape: Any, params: np.ndarray, op_type: str) -> tuple:
    """(output shape, samples per parameter): the shape must end with the parameters'."""
    size = _size(shape, op_type)
    tail = params.shape
    if len(size) < len(tail) or tuple(size[len(size) - len(tail):]) != tail:
        raise InvalidArgumentError(None, None, "%s: Shape passed in must end with broadcasted "
                                   "shape." % op_type)
    n = int(np.prod(size, dtype=np.int64))
    if params.size == 0:
        if n:
            raise InvalidArgumentError(None, None, "%s: Input should have non-zero element "
                                       "count, got: 0" % op_type)
        return size, 0
    return size, n // params.size


def binomial_samples(op_type: str, key: int, counter: int, shape: Any, counts: Any,
                     probs: Any, dtype: dtypes.DType) -> np.ndarray:
    """TensorFlow's binomial samples of ``shape`` from the Philox stream at (key, counter):
    the kernel of StatelessRandomBinomial and of StatefulRandomBinomial."""
    c, p = np.asarray(counts), np.asarray(probs)
    try:
        batch = np.broadcast_shapes(c.shape, p.shape)
    except ValueError:
        raise InvalidArgumentError(None, None, "%s: counts and probs must have compatible "
                                   "batch dimensions: %s vs. %s"
                                   % (op_type, list(c.shape), list(p.shape))) from None
    c, p = np.broadcast_to(c, batch), np.broadcast_to(p, batch)
    size, per = _per_param(shape, c, op_type)
    flat = random_rejection.binomial(key, counter, c.reshape(-1), p.reshape(-1), per)
    return flat.astype(dtype.np).reshape(size)


def _binomial_kernel(shape: Any, seed: Any, counts: Any, probs: Any, *,
                     dtype: dtypes.DType) -> np.ndarray:
    key, counter = _key_counter("StatelessRandomBinomial", seed)
    return binomial_samples("StatelessRandomBinomial", key, counter, shape, counts, probs,
                            dtype)


def _gamma(op_type: str, key: int, counter: int, shape: Any, alpha: Any) -> np.ndarray:
    a = np.asarray(alpha)
    size, per = _per_param(shape, a, op_type)
    return random_rejection.gamma(key, counter, a.reshape(-1), per).reshape(
        size)


def _gamma_kernel(shape: Any, seed: Any, alpha: Any) -> np.ndarray:
    return _gamma("StatelessRandomGammaV2", *_key_counter("StatelessRandomGammaV2", seed),
                  shape, alpha)


def _gamma_v3_kernel(shape: Any, key: Any, counter: Any, alg: Any, alpha: Any) -> np.ndarray:
    return _gamma("StatelessRandomGammaV3",
                  *_v2_key_counter("StatelessRandomGammaV3", key, counter, alg), shape, alpha)


def _poisson_kernel(shape: Any, seed: Any, lam: Any, *, dtype: dtypes.DType) -> np.ndarray:
    rate = np.asarray(lam)
    size, per = _per_param(shape, rate, "StatelessRandomPoisson")
    key, counter = _key_counter("StatelessRandomPoisson", seed)
    if rate.dtype.kind in "iu":
        rate = rate.astype(np.float64)
    return random_rejection.poisson(key, counter, rate.reshape(-1), per).astype(
        dtype.np).reshape(size)


def _gamma_grad_alpha(op: Any, grad: Any) -> tuple:
    """TensorFlow's: the implicit reparameterization derivative (``RandomGammaGrad``),
    summed over the sample dimensions (those in front of ``alpha``'s)."""
    alpha, sample = op.inputs[-1], op.outputs[0]
    n_sample = sample.shape.rank - alpha.shape.rank
    lead = reshape(alpha, [1] * n_sample + alpha.shape.as_list())
    partial = apply_op("RandomGammaGrad", [lead, sample])
    d_alpha = reduce_sum(multiply(grad, partial), axis=list(range(n_sample)))
    return (None,) * (len(op.inputs) - 1) + (d_alpha,)


register_op("StatelessRandomBinomial", _binomial_kernel, _sample_infer,
            input_names=("shape", "seed", "counts", "probs"), **_STATELESS)
register_op("StatelessRandomGammaV2", _gamma_kernel,
            lambda ins, attrs: (ins[2].dtype.base_dtype, shape_from_value(ins[0])),
            grad=_gamma_grad_alpha, input_names=("shape", "seed", "alpha"))
register_op("StatelessRandomGammaV3", _gamma_v3_kernel,
            lambda ins, attrs: (ins[4].dtype.base_dtype, shape_from_value(ins[0])),
            grad=_gamma_grad_alpha, input_names=_V2 + ("alpha",))
register_op("StatelessRandomPoisson", _poisson_kernel, _sample_infer,
            input_names=("shape", "seed", "lam"), **_STATELESS)


# --------------------------------------------------------------------------------------
# Public functions


def _shape_and_seed(shape: Any, seed: Any) -> tuple:
    s = convert_to_tensor(_as_value(shape), name="shape")
    if not s.dtype.is_integer:
        s = convert_to_tensor(np.asarray(_as_value(shape), np.int32), name="shape")
    sd = convert_to_tensor(_as_value(seed), name="seed")
    if sd.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("seed must be an int32 or int64 tensor of shape [2], got %s"
                        % sd.dtype.name)
    if sd.shape.rank is not None and sd.shape.as_list() not in ([2], [None]):
        raise ValueError("seed must have shape [2], not %s" % sd.shape)
    return s, sd


def stateless_random_uniform(shape: ShapeLike | TensorLike, seed: int | None,
                             minval: TensorLike = 0, maxval: TensorLike | None = None,
                             dtype: DTypeLike = dtypes.float32, name: str | None = None,
                             alg: Any = "auto_select") -> Any:
    """Deterministic uniform numbers in ``[minval, maxval)`` for a given ``seed``.

    Args:
      shape: The output shape (a 1-D integer tensor or list).
      seed: A shape-[2] int32/int64 tensor.
      minval: The lower bound (inclusive).
      maxval: The upper bound (exclusive); 1 for floats. For integer dtypes both bounds are
        needed, or neither (then the whole range of the dtype).
      dtype: float16/32/64, int32/int64 (or uint32/uint64 without bounds).
      name: A name for the operation.
      alg: Accepted for TensorFlow's signature (one generator serves every choice).

    Returns:
      A tensor of ``shape`` and ``dtype``.

    Raises:
      ValueError: for integer dtypes with only one bound.
    """
    del alg
    dt = dtypes.as_dtype(dtype)
    with name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as scope:
        s, sd = _shape_and_seed(shape, seed)
        if dt.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError("For integer dtype %s, minval and maxval must be both `None` "
                                 "or both non-`None`; got minval=%s and maxval=%s."
                                 % (dt, minval, maxval))
            if maxval is None:
                return apply_op("StatelessRandomUniformFullInt", (s, sd), {"dtype": dt},
                                name=scope)
            lo = convert_to_tensor(_as_value(minval), dt, name="min")
            hi = convert_to_tensor(_as_value(maxval), dt, name="max")
            return apply_op("StatelessRandomUniformInt", (s, sd, lo, hi), name=scope)
        if maxval is None:
            maxval = 1
        lo = convert_to_tensor(_as_value(minval), dt, name="min")
        hi = convert_to_tensor(_as_value(maxval), dt, name="max")
        rnd = apply_op("StatelessRandomUniform", (s, sd), {"dtype": dt})
        return add(multiply(rnd, hi - lo), lo, name=scope)


def stateless_random_normal(shape: ShapeLike | TensorLike, seed: int | None, mean: TensorLike = 0.0,
                            stddev: TensorLike = 1.0, dtype: DTypeLike = dtypes.float32,
                            name: str | None = None, alg: Any = "auto_select") -> Any:
    """Deterministic normal numbers for a given ``seed``; see
    :func:`stateless_random_uniform` for ``shape``, ``seed``, ``name`` and ``alg``.

    Args:
        shape: The output's shape: a 1-D int tensor or a list.
        seed: A shape [2] int32 or int64 tensor: the stateless seed.
        mean: The mean of the distribution.
        stddev: Its standard deviation.
        dtype: A floating dtype.
        name: A name for the operation (optional).
        alg: The counter-based RNG: ``"auto_select"``, ``"philox"`` or ``"threefry"``.

    Returns:
      A tensor of ``shape`` and ``dtype``: ``mean + stddev * N(0, 1)``.
    """
    del alg
    dt = dtypes.as_dtype(dtype)
    with name_scope(name, "stateless_random_normal", [shape, seed, mean, stddev]) as scope:
        s, sd = _shape_and_seed(shape, seed)
        rnd = apply_op("StatelessRandomNormal", (s, sd), {"dtype": dt})
        return add(multiply(rnd, convert_to_tensor(_as_value(stddev), dt)),
                   convert_to_tensor(_as_value(mean), dt), name=scope)


def stateless_truncated_normal(shape: ShapeLike | TensorLike, seed: int | None,
                               mean: TensorLike = 0.0, stddev: TensorLike = 1.0,
                               dtype: DTypeLike = dtypes.float32, name: str | None = None,
                               alg: Any = "auto_select") -> Any:
    """Like :func:`stateless_random_normal`, with values more than two standard deviations
    from the mean re-drawn.

    Args:
        shape: The output's shape: a 1-D int tensor or a list.
        seed: A shape [2] int32 or int64 tensor: the stateless seed.
        mean: The mean of the distribution.
        stddev: Its standard deviation (before truncation).
        dtype: A floating dtype.
        name: A name for the operation (optional).
        alg: The counter-based RNG: ``"auto_select"``, ``"philox"`` or ``"threefry"``.
    """
    del alg
    dt = dtypes.as_dtype(dtype)
    with name_scope(name, "stateless_truncated_normal", [shape, seed, mean, stddev]) as scope:
        s, sd = _shape_and_seed(shape, seed)
        rnd = apply_op("StatelessTruncatedNormal", (s, sd), {"dtype": dt})
        return add(multiply(rnd, convert_to_tensor(_as_value(stddev), dt)),
                   convert_to_tensor(_as_value(mean), dt), name=scope)


def stateless_shuffle(value: TensorLike, seed: int | None, alg: Any = "auto_select",
                      name: str | None = None) -> Any:
    """``value`` with its first dimension permuted, as a pure function of ``seed``
    (TensorFlow's ``StatelessShuffle``: the same permutation as ``tf.random.shuffle`` draws
    from the seed's key and counter).

    Args:
        value: The tensor to shuffle along its first dimension.
        seed: A shape [2] int32 or int64 tensor: the stateless seed.
        alg: The counter-based RNG: ``"auto_select"`` or ``"philox"``.
        name: A name for the operation (optional).

    Returns:
        A tensor of the shape and dtype of ``value``.
    """
    del alg
    with name_scope(name, "stateless_shuffle", [value, seed]):
        _, sd = _shape_and_seed([], seed)
        key, counter = apply_op("StatelessRandomGetKeyCounter", (sd,))
        return apply_op("StatelessShuffle", (convert_to_tensor(_as_value(value)), key, counter,
                                             np.int32(3)))


def split(seed: int | None, num: int = 2, alg: Any = "auto_select") -> Any:
    """``num`` new stateless seeds from ``seed``: full-range integers of the seed's dtype.

    Args:
        seed: A shape [2] int32 or int64 tensor.
        num: How many seeds.
        alg: The counter-based RNG.

    Returns:
        A ``[num, 2]`` tensor of the seed's dtype.
    """
    seed = convert_to_tensor(_as_value(seed))
    return stateless_random_uniform([num, 2], seed, None, None, seed.dtype, alg=alg)


def fold_in(seed: int | None, data: TensorLike, alg: Any = "auto_select") -> Any:
    """A new stateless seed that folds ``data`` (an integer) into ``seed``.

    Args:
        seed: A shape [2] int32 or int64 tensor.
        data: An int32 or int64 scalar.
        alg: The counter-based RNG.

    Returns:
        A shape [2] tensor: a full-range integer drawn from ``seed``, and ``data``.
    """
    data = convert_to_tensor(_as_value(data))
    seed1 = stateless_random_uniform([], seed, None, None, data.dtype, alg=alg)
    return stack([seed1, data])


def stateless_categorical(logits: TensorLike, num_samples: TensorLike, seed: int | None,
                          dtype: DTypeLike = dtypes.int64, name: str | None = None) -> Any:
    """Deterministic class samples from unnormalized log-probabilities.

    Args:
      logits: A ``[batch_size, num_classes]`` float tensor.
      num_samples: The number of samples per row.
      seed: A shape-[2] int32/int64 tensor.
      dtype: int32 or int64.
      name: A name for the operation.

    Returns:
      A ``[batch_size, num_samples]`` tensor of class indices.
    """
    with name_scope(name, "stateless_categorical", [logits, seed]) as scope:
        z = convert_to_tensor(_as_value(logits), name="logits")
        _, sd = _shape_and_seed([0], seed)
        n = convert_to_tensor(_as_value(num_samples), dtypes.int32, name="num_samples")
        return apply_op("StatelessMultinomial", (z, n, sd),
                        {"output_dtype": dtypes.as_dtype(dtype)}, name=scope)


def stateless_multinomial(logits: TensorLike, num_samples: TensorLike, seed: int | None,
                          output_dtype: DTypeLike = dtypes.int64,
                          name: str | None = None) -> Any:
    """TensorFlow 1's name of :func:`stateless_categorical` (``output_dtype`` for ``dtype``).

    Args:
      logits: A ``[batch_size, num_classes]`` float tensor.
      num_samples: The number of samples per row.
      seed: A shape-[2] int32/int64 tensor.
      output_dtype: int32 or int64.
      name: A name for the operation.

    Returns:
      A ``[batch_size, num_samples]`` tensor of class indices.
    """
    with name_scope(name, "stateless_multinomial", [logits, seed]):
        return stateless_categorical(logits, num_samples, seed, output_dtype)


def stateless_random_binomial(shape: ShapeLike | TensorLike, seed: int | None, counts: Any,
                              probs: TensorLike, output_dtype: DTypeLike = dtypes.int32,
                              name: str | None = None) -> Any:
    """Deterministic binomial samples: successes in ``counts`` trials of probability ``probs``
    (both broadcast to ``shape``).

    Args:
        shape: The output's shape: a 1-D int tensor or a list.
        seed: A shape [2] int32 or int64 tensor: the stateless seed.
        counts: The number of trials (broadcast to ``shape``).
        probs: The probability of success (broadcast to ``shape``).
        output_dtype: The dtype of the counts.
        name: A name for the operation (optional).

    Returns:
      A tensor of ``shape`` and ``output_dtype``.
    """
    with name_scope(name, "stateless_random_binomial", [shape, seed, counts, probs]):
        s, sd = _shape_and_seed(shape, seed)
        p = convert_to_tensor(_as_value(probs), name="probs")
        c = convert_to_tensor(_as_value(counts), p.dtype.base_dtype, name="counts")
        return apply_op("StatelessRandomBinomial", (s, sd, c, p),
                        {"dtype": dtypes.as_dtype(output_dtype)})


def stateless_random_gamma(shape: ShapeLike | TensorLike, seed: int | None, alpha: TensorLike,
                           beta: TensorLike | None = None, dtype: DTypeLike = dtypes.float32,
                           name: str | None = None) -> Any:
    """Deterministic gamma samples of concentration ``alpha`` and rate ``beta``.

    Args:
      shape: The output shape; it must end with the broadcast shape of ``alpha`` and ``beta``.
      seed: A shape-[2] int32/int64 tensor.
      alpha: The concentration (shape parameter).
      beta: The rate (inverse scale); 1 by default.
      dtype: float16/32/64.
      name: A name for the operation.

    Returns:
      A tensor of ``shape`` and ``dtype``.

    Raises:
      ValueError: if ``shape`` does not end with the parameters' broadcast shape.
    """
    dt = dtypes.as_dtype(dtype)
    with name_scope(name, "stateless_random_gamma", [shape, seed, alpha, beta]):
        s, sd = _shape_and_seed(shape, seed)
        a = convert_to_tensor(_as_value(alpha), dt, name="alpha")
        b = convert_to_tensor(_as_value(1 if beta is None else beta), dt, name="beta")
        params = broadcast_shapes(a.shape, b.shape)
        want = shape_from_value(s)
        if want.rank is not None and params.rank is not None and params.rank and (
                want.rank < params.rank
                or not TensorShape(want.as_list()[want.rank - params.rank:])
                .is_compatible_with(params)):
            raise ValueError("Shape passed in must end with broadcasted shape: %s does not end "
                             "with %s" % (want, params))
        a_b = a if a.shape == params else broadcast_to(a, params.as_list())
        key, counter = apply_op("StatelessRandomGetKeyCounter", (sd,))
        sample = apply_op("StatelessRandomGammaV3",
                          (s, key, counter, convert_to_tensor(3, dtypes.int32), a_b))
        return maximum(np.finfo(dt.np).tiny.astype(dt.np), realdiv(sample, b))


def stateless_random_poisson(shape: ShapeLike | TensorLike, seed: int | None, lam: TensorLike,
                             dtype: DTypeLike = dtypes.int32, name: str | None = None) -> Any:
    """Deterministic Poisson samples of rate ``lam`` (broadcast to ``shape``).

    Args:
        shape: The output's shape: a 1-D int tensor or a list.
        seed: A shape [2] int32 or int64 tensor: the stateless seed.
        lam: The rate (broadcast to ``shape``).
        dtype: The dtype of the samples.
        name: A name for the operation (optional).

    Returns:
      A tensor of ``shape`` and ``dtype``.
    """
    with name_scope(name, "stateless_random_poisson", [shape, seed, lam]):
        s, sd = _shape_and_seed(shape, seed)
        rate = convert_to_tensor(_as_value(lam), name="lam")
        return apply_op("StatelessRandomPoisson", (s, sd, rate),
                        {"dtype": dtypes.as_dtype(dtype)})
