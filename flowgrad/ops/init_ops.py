"""TF1 variable initializers: callables ``(shape, dtype=None, partition_info=None) -> tensor``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import constant, to_numpy
from flowgrad.framework.tensor_shape import as_shape
from flowgrad.ops.array_ops import ones, zeros
from flowgrad.ops.random_ops import random_normal, random_uniform, truncated_normal
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


def _assert_float_dtype(dtype: Any) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError("Argument `dtype` is expected to be floating point. Received: %s."
                         % dtype)
    return dtype


def _dims(shape: Any) -> list:
    """A static shape as a list of ints (initializers that need fans need one)."""
    dims = as_shape(shape).as_list()
    if dims is None or None in dims:
        raise ValueError("The shape %s must be fully defined to compute fans" % (shape,))
    return [int(d) for d in dims]


def _compute_fans(shape: list) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight shape; conv kernels are (..., in_depth, out_depth)."""
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive_field = int(np.prod(shape[:-2]))
    return shape[-2] * receptive_field, shape[-1] * receptive_field


class Initializer:
    """Base class of initializers: ``init(shape, dtype=None, partition_info=None)``."""

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        raise NotImplementedError


class Zeros(Initializer):
    """Tensors of zeros.

    Args:
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, dtype: DTypeLike = dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        return zeros(shape, self.dtype if dtype is None else dtype)


class Ones(Initializer):
    """Tensors of ones.

    Args:
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, dtype: DTypeLike = dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        return ones(shape, self.dtype if dtype is None else dtype)


class Constant(Initializer):
    """Tensors holding ``value``; a shorter value is padded with its last element (TF1).

    Args:
        value: A Python scalar, list or NumPy array: the values.
        dtype: The dtype of the tensors it makes.
        verify_shape: Whether ``value``'s shape must equal the requested shape.
    """

    def __init__(self, value: TensorLike = 0, dtype: DTypeLike = dtypes.float32,
                 verify_shape: bool = False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError("Invalid type for initial value=%r of type: %s. Expected Python "
                            "scalar, list or tuple of values, or numpy.ndarray."
                            % (value, type(value).__name__))
        self.value = value
        self.dtype = dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None, verify_shape: bool | None = None) -> Any:
        dtype = dtypes.as_dtype(self.dtype if dtype is None else dtype)
        verify = self._verify_shape if verify_shape is None else verify_shape
        dims = tuple(_dims(shape))
        arr = to_numpy(self.value, dtype)
        if verify and arr.shape != dims:
            raise TypeError("Expected Tensor's shape: %s, but got %s." % (dims, arr.shape))
        n = int(np.prod(dims))
        if arr.size > n:
            raise ValueError("Too many elements provided. Needed at most %d, but received %d"
                             % (n, arr.size))
        flat = arr.reshape(-1)
        if 0 < flat.size < n:
            flat = np.concatenate([flat, np.full(n - flat.size, flat[-1], flat.dtype)])
        elif flat.size == 0:
            flat = np.zeros(n, arr.dtype)
        return constant(flat.reshape(dims), dtype)


class RandomUniform(Initializer):
    """Uniform samples in [minval, maxval).

    Args:
        minval: The lower bound (inclusive).
        maxval: The upper bound (exclusive); 1 for floats when None.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, minval: TensorLike = 0.0, maxval: TensorLike | None = None,
                 seed: int | None = None, dtype: DTypeLike = dtypes.float32):
        self.minval = minval
        self.maxval = maxval
        self.seed = seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        return random_uniform(shape, self.minval, self.maxval,
                              self.dtype if dtype is None else dtype, seed=self.seed)


class RandomNormal(Initializer):
    """Normal samples N(mean, stddev**2).

    Args:
        mean: The mean of the normal distribution.
        stddev: Its standard deviation.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        dtype: The dtype of the tensors it makes.
    """

    _sample = staticmethod(random_normal)

    def __init__(self, mean: TensorLike = 0.0, stddev: TensorLike = 1.0, seed: int | None = None,
                 dtype: DTypeLike = dtypes.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        return self._sample(shape, self.mean, self.stddev,
                            self.dtype if dtype is None else dtype, seed=self.seed)


class TruncatedNormal(RandomNormal):
    """Normal samples re-drawn where more than two stddevs from the mean.

    Args:
        mean: The mean of the normal distribution.
        stddev: Its standard deviation (before truncation).
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        dtype: The dtype of the tensors it makes.
    """

    _sample = staticmethod(truncated_normal)


class VarianceScaling(Initializer):
    """Samples scaled to the weight shape: variance ``scale / n`` with n from ``mode``.

    "truncated_normal" (alias "normal"): truncated normal with stddev
    sqrt(scale / n) / 0.8796...; "untruncated_normal": stddev sqrt(scale / n);
    "uniform": U(-limit, limit) with limit = sqrt(3 * scale / n).

    Args:
        scale: The scaling factor (positive).
        mode: ``"fan_in"``, ``"fan_out"`` or ``"fan_avg"``: the n of ``scale / n``.
        distribution: ``"truncated_normal"``, ``"untruncated_normal"`` or ``"uniform"``.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal", seed: int | None = None,
                 dtype: DTypeLike = dtypes.float32):
        if scale <= 0.0:
            raise ValueError("Argument `scale` must be a positive float. Received: %s" % scale)
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("Argument `mode` should be one of ('fan_in', 'fan_out', "
                             "'fan_avg'). Received: %s" % mode)
        distribution = distribution.lower()
        if distribution not in ("normal", "uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("Argument `distribution` should be one of ('normal', 'uniform', "
                             "'truncated_normal', 'untruncated_normal'). Received: %s"
                             % distribution)
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.seed = seed
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        dtype = self.dtype if dtype is None else dtype
        full = partition_info.full_shape if partition_info is not None else shape
        fan_in, fan_out = _compute_fans(_dims(full))
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, n[self.mode])
        if self.distribution in ("normal", "truncated_normal"):
            # 0.8796... is the stddev of a unit normal truncated to [-2, 2]
            stddev = math.sqrt(scale) / 0.87962566103423978
            return truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_uniform(shape, -limit, limit, dtype, seed=self.seed)


class GlorotUniform(VarianceScaling):
    """Xavier uniform: U(-limit, limit), limit = sqrt(6 / (fan_in + fan_out)).

    Args:
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, seed: int | None = None, dtype: DTypeLike = dtypes.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)


class GlorotNormal(VarianceScaling):
    """Xavier normal: truncated normal with stddev sqrt(2 / (fan_in + fan_out)).

    Args:
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, seed: int | None = None, dtype: DTypeLike = dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only).

    Args:
        gain: The factor the identity matrix is multiplied by.
        dtype: The dtype of the tensors it makes.
    """

    def __init__(self, gain: float = 1.0, dtype: DTypeLike = dtypes.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape: ShapeLike | TensorLike, dtype: DTypeLike | None = None,
                 partition_info: Any = None) -> Any:
        dims = _dims(partition_info.full_shape if partition_info is not None else shape)
        if len(dims) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             "Received shape=%s" % (dims,))
        dtype = dtypes.as_dtype(self.dtype if dtype is None else dtype)
        return self.gain * constant(np.eye(dims[0], dims[1], dtype=dtype.np), name="eye")


def he_normal(seed: int | None = None) -> VarianceScaling:
    """Truncated normal with stddev sqrt(2 / fan_in).

    Args:
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
    """
    return VarianceScaling(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed: int | None = None) -> VarianceScaling:
    """U(-limit, limit) with limit = sqrt(6 / fan_in).

    Args:
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
    """
    return VarianceScaling(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed: int | None = None) -> VarianceScaling:
    """Truncated normal with stddev sqrt(1 / fan_in).

    Args:
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
    """
    return VarianceScaling(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed: int | None = None) -> VarianceScaling:
    """U(-limit, limit) with limit = sqrt(3 / fan_in).

    Args:
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes the
            values.
    """
    return VarianceScaling(1.0, "fan_in", "uniform", seed)


# TF1's lower-case names (``tf.compat.v1.zeros_initializer`` ...)
zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal

__all__ = ["zeros_initializer", "ones_initializer", "constant_initializer",
           "random_uniform_initializer", "random_normal_initializer",
           "truncated_normal_initializer", "variance_scaling_initializer",
           "glorot_uniform_initializer", "glorot_normal_initializer"]
