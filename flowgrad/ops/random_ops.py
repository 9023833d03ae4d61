"""Random ops (RandomStandardNormal, TruncatedNormal, RandomUniform, RandomUniformInt,
RandomShuffle, Multinomial) and TensorFlow's graph-level / op-level seeding rules."""
from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, op_call
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import get_default_graph, name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.philox import PhiloxStream
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.shape_rules import constant_value, shape_from_value, unary
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import _as_value, _static_int_list
from flowgrad.ops import random_distributions
from flowgrad.ops.math_ops import add, multiply, subtract
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)

# --------------------------------------------------------------------------------------
# Seeds


class _EagerSeed:
    """The global seed of eager mode and the generator that picks op seeds from it."""

    seed: int | None = None
    op_seeds = _pyrandom.Random()


_eager_seed = _EagerSeed()


def set_random_seed(seed: int | None) -> None:
    """Sets the graph-level seed of the default graph (the global seed in eager mode).

    Args:
        seed: The graph-level seed (an int), or None to clear it.
    """
    if executing_eagerly():
        _eager_seed.seed = seed
        _eager_seed.op_seeds = _pyrandom.Random(seed)
        op_call._eager_rngs.clear()     # restart every eager random stream, as TF does
    else:
        get_default_graph().seed = seed


def set_seed(seed: int | None) -> None:
    """Sets the global random seed (TF2 name of ``set_random_seed``), as ``tf.random.set_seed``.

    Ops created afterwards without an op seed draw reproducible sequences: TensorFlow's
    numbers for the same seed (its seeding rules, Philox streams and kernels).

    Args:
        seed: An integer, or None to clear the global seed.
    """
    set_random_seed(seed)


def global_seed() -> int | None:
    """The global seed in force here: eager mode's, or the default graph's."""
    return _eager_seed.seed if executing_eagerly() else get_default_graph().seed


def get_seed(op_seed: int | None) -> tuple:
    """The (seed, seed2) pair of a random op, from the global and the op-level seed.

    Global seed set, op seed None: the op seed is picked deterministically (a
    per-graph counter, or the eager seed sequence). Only the op seed set: the
    global seed is DEFAULT_GRAPH_SEED. Neither: (None, None), nondeterministic.

    Args:
        op_seed: The op-level seed, or None.
    """
    eager = executing_eagerly()
    seed = global_seed()
    if seed is not None:
        if op_seed is None:
            op_seed = (_eager_seed.op_seeds.randint(0, _MAXINT32) if eager
                       else get_default_graph()._next_op_seed())
        seeds = int(seed % _MAXINT32), int(op_seed % _MAXINT32)   # a float seed truncates
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed % _MAXINT32)
    else:
        seeds = None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _seed_attrs(seed: int | None) -> dict:
    s1, s2 = get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


# --------------------------------------------------------------------------------------
# Kernels


def _size(shape_in: Any, shape: tuple | None) -> tuple:
    return shape if shape_in is None else tuple(int(d) for d in np.ravel(shape_in))


def _count(size: tuple) -> int:
    return int(np.prod(size, dtype=np.int64))


def _normal_kernel(rng: PhiloxStream, shape_in: Any = None, *, dtype: dtypes.DType,
                   seed: int, seed2: int, shape: tuple | None = None) -> np.ndarray:
    size = _size(shape_in, shape)
    key, counter = rng.reserve_outputs(_count(size))
    return random_distributions.normal(key, counter, size, dtype)


def _truncated_normal_kernel(rng: PhiloxStream, shape_in: Any = None, *,
                             dtype: dtypes.DType, seed: int, seed2: int,
                             shape: tuple | None = None) -> np.ndarray:
    size = _size(shape_in, shape)
    key, counter = rng.reserve_outputs(_count(size))
    return random_distributions.truncated_normal(key, counter, size, dtype)


def _uniform_kernel(rng: PhiloxStream, shape_in: Any = None, *, dtype: dtypes.DType,
                    seed: int, seed2: int, shape: tuple | None = None) -> np.ndarray:
    size = _size(shape_in, shape)
    key, counter = rng.reserve_outputs(_count(size))
    return random_distributions.uniform(key, counter, size, dtype)


def _uniform_int_kernel(rng: PhiloxStream, minval: Any, maxval: Any,
                        shape_in: Any = None, *, seed: int, seed2: int,
                        shape: tuple | None = None) -> np.ndarray:
    size = _size(shape_in, shape)
    dtype = dtypes.as_dtype(np.asarray(minval).dtype)
    if _count(size) == 0:
        return np.zeros(size, dtype.np)
    if not minval < maxval:
        raise InvalidArgumentError(None, None, "Need minval < maxval: %d >= %d (op "
                                   "RandomUniformInt)" % (minval, maxval))
    key, counter = rng.reserve_outputs(_count(size))
    return random_distributions.uniform_int(key, counter, size, int(minval), int(maxval),
                                            dtype)


def _shuffle_kernel(rng: PhiloxStream, value: Any, *, seed: int, seed2: int) -> np.ndarray:
    value = np.asarray(value)
    if value.size <= 1 or value.shape[0] <= 1:
        return value.copy()
    key, counter = rng.reserve32(value.shape[0] - 1)
    return value[random_distributions.shuffle_permutation(key, counter, value.shape[0])]


def _multinomial_kernel(rng: PhiloxStream, logits: Any, n_in: Any = None, *,
                        output_dtype: dtypes.DType, seed: int, seed2: int,
                        num_samples: int | None = None) -> np.ndarray:
    n = int(n_in) if num_samples is None else num_samples
    return multinomial_sample(rng, np.asarray(logits), n, output_dtype)


def multinomial_sample(rng: PhiloxStream, logits: np.ndarray, n: int,
                       output_dtype: dtypes.DType) -> np.ndarray:
    """``MultinomialOp``'s samples: reserves ``batch * ceil4(n) * 2`` outputs of ``rng``.

    Args:
        rng: The op's stream.
        logits: A ``[batch, classes]`` array.
        n: Samples per row.
        output_dtype: int32 or int64.
    """
    if n < 0:
        raise InvalidArgumentError(None, None, "num_samples should be non-negative, got %d"
                                   % n)
    if logits.ndim == 2 and logits.shape[1] == 0:
        raise InvalidArgumentError(None, None, "num_classes should be positive, got 0")
    if logits.shape[0] * n == 0:
        return np.zeros((logits.shape[0], n), output_dtype.np)
    key, counter = rng.reserve_outputs(logits.shape[0] * ((n + 3) // 4 * 4) * 2)
    return random_distributions.categorical(key, counter, logits, n).astype(output_dtype.np)


# --------------------------------------------------------------------------------------
# Shape rules and registration


def _target_shape(ins: list, attrs: dict, k: int) -> TensorShape:
    """The output shape: the static ``shape`` attr, else the value of input ``k``."""
    return TensorShape(attrs["shape"]) if "shape" in attrs else shape_from_value(ins[k])


def _sample_infer(ins: list, attrs: dict) -> tuple:
    return attrs["dtype"], _target_shape(ins, attrs, 0)


def _uniform_int_infer(ins: list, attrs: dict) -> tuple:
    for t, what in zip(ins[:2], ("minval", "maxval")):
        if t.shape.rank not in (None, 0):
            raise ValueError("%s must be 0-D, got shape %s" % (what, t.shape))
    return ins[0].dtype.base_dtype, _target_shape(ins, attrs, 2)


def _multinomial_infer(ins: list, attrs: dict) -> tuple:
    logits = ins[0].shape
    if logits.rank not in (None, 2):
        raise ValueError("logits should be a matrix [batch_size, num_classes], got shape %s"
                         % logits)
    batch = None if logits.rank is None else logits.as_tuple()[0]
    n = attrs.get("num_samples")
    if n is None:
        v = constant_value(ins[1])
        n = None if v is None else int(v)
    return attrs["output_dtype"], TensorShape([batch, n])


_RANDOM = dict(grad=_NO_GRADIENT, rng=True, stateful=True)
register_op("RandomStandardNormal", _normal_kernel, _sample_infer, input_names=("shape",),
            **_RANDOM)
register_op("TruncatedNormal", _truncated_normal_kernel, _sample_infer, input_names=("shape",),
            **_RANDOM)
register_op("RandomUniform", _uniform_kernel, _sample_infer, input_names=("shape",), **_RANDOM)
register_op("RandomUniformInt", _uniform_int_kernel, _uniform_int_infer,
            input_names=("minval", "maxval", "shape"), **_RANDOM)
register_op("RandomShuffle", _shuffle_kernel, unary, input_names=("value",), **_RANDOM)
register_op("Multinomial", _multinomial_kernel, _multinomial_infer,
            input_names=("logits", "num_samples"), **_RANDOM)


# --------------------------------------------------------------------------------------
# Public functions


def _shape_args(shape: Any) -> tuple[list, dict]:
    """(extra inputs, attrs) for an output shape: a static attr when known, else an input."""
    if isinstance(shape, (list, tuple)) and any(is_tensor(d) for d in shape):
        rank = 1                        # [tf.shape(x)[0], 4]: packed into one tensor below
    else:
        rank = None if is_tensor(shape) or isinstance(shape, TensorShape) else np.ndim(shape)
    if rank not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d (shape=%r)" % (rank, shape))
    if isinstance(shape, TensorShape) and not shape.is_fully_defined():
        raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % shape)
    static = _static_int_list(shape)
    if static is not None:
        for d in static:
            if d < 0:
                raise ValueError("Dimension %d must be >= 0 (shape=%s)" % (d, static))
        return [], {"shape": tuple(static)}
    t = convert_to_tensor(shape, name="shape")
    if t.dtype.base_dtype not in (dtypes.int32, dtypes.int64) or t.shape.rank not in (None, 1):
        raise ValueError("shape must be a 1-D int32 or int64 tensor, got %r" % (t,))
    return [t], {}


def _float_dtype(dtype: Any, op_type: str) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype not in _FLOATS:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of "
                        "allowed values: float16, bfloat16, float32, float64 (op %s)"
                        % (dtype.name, op_type))
    return dtype


def _scaled_sample(op_type: str, default_name: str, shape: Any, mean: Any, stddev: Any,
                   dtype: Any, seed: int | None, name: str | None) -> Any:
    dtype = _float_dtype(dtype, op_type)
    with name_scope(name, default_name, [shape, mean, stddev]) as scope:
        ins, attrs = _shape_args(shape)
        mean_t = convert_to_tensor(_as_value(mean), dtype, name="mean")
        stddev_t = convert_to_tensor(_as_value(stddev), dtype, name="stddev")
        rnd = apply_op(op_type, ins, dict(attrs, dtype=dtype, **_seed_attrs(seed)))
        return add(multiply(rnd, stddev_t, name="mul"), mean_t, name=scope)


def random_normal(shape: ShapeLike | TensorLike, mean: TensorLike = 0.0, stddev: TensorLike = 1.0,
                  dtype: DTypeLike = dtypes.float32, seed: int | None = None,
                  name: str | None = None) -> Any:
    """Samples of a normal distribution N(mean, stddev**2) of the given shape.

    Args:
        shape: The output's shape: a 1-D integer tensor or a list.
        mean: The mean of the distribution.
        stddev: Its standard deviation.
        dtype: A floating dtype.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        name: A name for the operation (optional).
    """
    return _scaled_sample("RandomStandardNormal", "random_normal", shape, mean, stddev, dtype,
                          seed, name)


def truncated_normal(shape: ShapeLike | TensorLike, mean: TensorLike = 0.0,
                     stddev: TensorLike = 1.0, dtype: DTypeLike = dtypes.float32,
                     seed: int | None = None, name: str | None = None) -> Any:
    """Normal samples, re-drawn where they fall two or more stddevs from the mean.

    Args:
        shape: The output's shape: a 1-D integer tensor or a list.
        mean: The mean of the distribution.
        stddev: Its standard deviation (before truncation).
        dtype: A floating dtype.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        name: A name for the operation (optional).
    """
    return _scaled_sample("TruncatedNormal", "truncated_normal", shape, mean, stddev, dtype,
                          seed, name)


def random_uniform(shape: ShapeLike | TensorLike, minval: TensorLike = 0,
                   maxval: TensorLike | None = None, dtype: DTypeLike = dtypes.float32,
                   seed: int | None = None, name: str | None = None) -> Any:
    """Uniform samples in [minval, maxval) (maxval is required for integer dtypes).

    Args:
        shape: The output's shape: a 1-D integer tensor or a list.
        minval: The lower bound (inclusive).
        maxval: The upper bound (exclusive); 1 for floats when None.
        dtype: A floating or integer dtype.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        name: A name for the operation (optional).
    """
    dtype = dtypes.as_dtype(dtype).base_dtype
    accepted = _FLOATS + (dtypes.int32, dtypes.int64)
    if dtype not in accepted:
        raise ValueError("Argument `dtype` got invalid value %r. Accepted dtypes are %s."
                         % (dtype, ", ".join(repr(d) for d in accepted)))
    if maxval is None:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % dtype)
        maxval = 1
    with name_scope(name, "random_uniform", [shape, minval, maxval]) as scope:
        ins, attrs = _shape_args(shape)
        minval_is_zero = isinstance(minval, int) and minval == 0
        maxval_is_one = isinstance(maxval, int) and maxval == 1
        if not minval_is_zero or not maxval_is_one or dtype.is_integer:
            minval = convert_to_tensor(_as_value(minval), dtype, name="min")
            maxval = convert_to_tensor(_as_value(maxval), dtype, name="max")
        attrs.update(_seed_attrs(seed))
        if dtype.is_integer:
            return apply_op("RandomUniformInt", [minval, maxval] + ins, attrs, name=scope)
        result = apply_op("RandomUniform", ins, dict(attrs, dtype=dtype))
        if minval_is_zero:
            return result if maxval_is_one else multiply(result, maxval)
        return add(multiply(result, subtract(maxval, minval, name="sub"), name="mul"), minval,
                   name=scope)


def random_shuffle(value: TensorLike, seed: int | None = None, name: str | None = None) -> Any:
    """``value`` with its first dimension randomly permuted.

    Args:
        value: The tensor to shuffle along its first dimension.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        name: A name for the operation (optional).
    """
    return apply_op("RandomShuffle", [_as_value(value)], _seed_attrs(seed), name=name)


def _categorical(logits: Any, num_samples: Any, dtype: Any, seed: int | None) -> Any:
    logits = convert_to_tensor(_as_value(logits), name="logits")
    dtype = dtypes.as_dtype(dtype).base_dtype if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("Argument `dtype` got invalid value %r. Accepted dtypes are tf.int32, "
                         "tf.int64." % dtype)
    attrs = dict(_seed_attrs(seed), output_dtype=dtype)
    n = constant_value(num_samples) if is_tensor(num_samples) else num_samples
    if n is None:
        return apply_op("Multinomial", [logits, num_samples], attrs)
    if np.ndim(n) != 0 or int(n) < 0:
        raise ValueError("num_samples must be a non-negative scalar, got %r" % (num_samples,))
    return apply_op("Multinomial", [logits], dict(attrs, num_samples=int(n)))


def multinomial(logits: TensorLike, num_samples: TensorLike, seed: int | None = None,
                name: str | None = None, output_dtype: DTypeLike | None = None) -> Any:
    """Class indices drawn from each row of ``logits`` (unnormalized log-probabilities).

    Args:
        logits: A [batch, classes] tensor of unnormalized log-probabilities.
        num_samples: How many samples to draw per row.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        name: A name for the operation (optional).
        output_dtype: int32 or int64 (the default) for the indices.
    """
    with name_scope(name, "multinomial", [logits]):
        return _categorical(logits, num_samples, output_dtype, seed)


def categorical(logits: TensorLike, num_samples: TensorLike, dtype: DTypeLike | None = None,
                seed: int | None = None, name: str | None = None) -> Any:
    """Class indices drawn from each row of ``logits`` (TF2 name of ``multinomial``).

    Args:
        logits: A [batch, classes] tensor of unnormalized log-probabilities.
        num_samples: How many samples to draw per row.
        dtype: int32 or int64 (the default) for the indices.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        name: A name for the operation (optional).
    """
    with name_scope(name, "categorical", [logits]):
        return _categorical(logits, num_samples, dtype, seed)


__all__ = ["random_normal", "truncated_normal", "random_uniform", "random_shuffle",
           "multinomial", "set_random_seed", "get_seed"]
