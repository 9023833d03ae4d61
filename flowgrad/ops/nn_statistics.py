"""``tf.nn``'s statistics and small layers, composed of ops as TensorFlow composes them:
``sufficient_statistics``, ``normalize_moments``, ``weighted_moments``,
``fused_batch_norm`` (TF1), ``batch_norm_with_global_normalization``, ``log_poisson_loss``,
``xw_plus_b`` and ``relu_layer`` (TF1)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.array_ops import reshape, shape, squeeze
from flowgrad.ops.arithmetic_ops import div_no_nan, squared_difference
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import greater_equal, less_equal, logical_and, where
from flowgrad.ops.elementwise_ops import exp, log, reciprocal
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.math_ops import add, multiply, reduce_mean, reduce_prod, reduce_sum, square
from flowgrad.ops.math_ops import subtract
from flowgrad.ops.nn_impl import batch_normalization
from flowgrad.ops.nn_ops import bias_add, relu
from flowgrad.ops.shape_ops import rank
from flowgrad.framework.type_hints import AxisLike, TensorLike


def _keepdims(keepdims: Any, keep_dims: Any) -> bool:
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'.")
        return bool(keep_dims)
    return bool(keepdims)


def sufficient_statistics(x: TensorLike, axes: AxisLike, shift: Any = None,
                          keep_dims: bool | None = None, name: str | None = None,
                          keepdims: bool | None = None) -> tuple:
    """The sufficient statistics of the mean and variance of ``x`` over ``axes`` (TF1 form).

    Args:
        x: A tensor.
        axes: The axes to compute the statistics over.
        shift: A value subtracted from ``x`` first (for numerical stability), or None.
        keep_dims: TF1's name for ``keepdims``.
        name: A name scope for the ops (optional).
        keepdims: Whether to keep the reduced axes with length 1.

    Returns:
        ``(count, mean_ss, variance_ss, shift)``: the number of entries summed, the sum of
        ``x - shift``, the sum of ``(x - shift) ** 2``, and ``shift``.
    """
    axes = list(set(axes))
    keep = _keepdims(keepdims, keep_dims)
    with name_scope(name, "sufficient_statistics", [x, shift]):
        x = convert_to_tensor(_as_value(x), name="x")
        dims = x.shape.as_tuple()
        if dims is not None and all(dims[d] is not None for d in axes):
            counts = convert_to_tensor(np.prod([dims[d] for d in axes], dtype=np.int64),
                                       x.dtype.base_dtype)
        else:
            r = rank(x)
            positive = [a + r if a < 0 else a for a in axes]
            counts = reduce_prod(gather(cast(shape(x), x.dtype.base_dtype), positive),
                                 name="count")
        if shift is not None:
            shift = convert_to_tensor(_as_value(shift), name="shift")
            m_ss, v_ss = subtract(x, shift), squared_difference(x, shift)
        else:
            m_ss, v_ss = x, square(x)
        m_ss = reduce_sum(m_ss, axes, keepdims=keep, name="mean_ss")
        v_ss = reduce_sum(v_ss, axes, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def sufficient_statistics_v2(x: TensorLike, axes: AxisLike, shift: Any = None,
                             keepdims: bool = False, name: str | None = None) -> tuple:
    """The sufficient statistics of the mean and variance of ``x`` over ``axes``.

    Args:
        x: A tensor.
        axes: The axes to compute the statistics over.
        shift: A value subtracted from ``x`` first (for numerical stability), or None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name scope for the ops (optional).

    Returns:
        ``(count, mean_ss, variance_ss, shift)`` (see ``sufficient_statistics``).
    """
    return sufficient_statistics(x, axes, shift, keepdims, name)


def normalize_moments(counts: Any, mean_ss: Any, variance_ss: Any, shift: Any,
                      name: str | None = None) -> tuple:
    """The mean and variance from sufficient statistics.

    Args:
        counts: The number of entries summed.
        mean_ss: The sum of the (shifted) entries.
        variance_ss: The sum of their squares.
        shift: The shift the statistics were taken with, or None.
        name: A name scope for the ops (optional).

    Returns:
        ``(mean, variance)``.
    """
    with name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = multiply(mean_ss, divisor, name="shifted_mean")
            mean = add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = subtract(multiply(variance_ss, divisor), square(shifted_mean),
                            name="variance")
    return mean, variance


def weighted_moments(x: TensorLike, axes: AxisLike, frequency_weights: Any, name: str | None = None,
                     keep_dims: bool | None = None, keepdims: bool | None = None) -> tuple:
    """The frequency-weighted mean and variance of ``x`` over ``axes`` (TF1 form).

    Args:
        x: A tensor.
        axes: The axes to compute the moments over.
        frequency_weights: Weights broadcastable to ``x``.
        name: A name scope for the ops (optional).
        keep_dims: TF1's name for ``keepdims``.
        keepdims: Whether to keep the reduced axes with length 1.

    Returns:
        ``(mean, variance)``; 0 where the weights sum to 0.
    """
    keep = _keepdims(keepdims, keep_dims)
    with name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = convert_to_tensor(_as_value(x), name="x")
        w = convert_to_tensor(_as_value(frequency_weights), name="frequency_weights")
        half = x.dtype.base_dtype is dtypes.float16
        if half:
            x = cast(x, dtypes.float32)
        if w.dtype.base_dtype is not x.dtype.base_dtype:
            w = cast(w, x.dtype.base_dtype)
        weighted_sum = reduce_sum(w * x, axes, name="weighted_input_sum", keepdims=True)
        sum_of_weights = reduce_sum(w + zeros_like(x), axes, name="sum_of_weights",
                                    keepdims=True)
        mean = div_no_nan(weighted_sum, sum_of_weights)
        distsq = reduce_sum(w * squared_difference(x, mean), axes, name="weighted_distsq",
                            keepdims=True)
        variance = div_no_nan(distsq, sum_of_weights)
        if not keep:
            mean, variance = squeeze(mean, axis=axes), squeeze(variance, axis=axes)
        if half:
            mean, variance = cast(mean, dtypes.float16), cast(variance, dtypes.float16)
        return mean, variance


def weighted_moments_v2(x: TensorLike, axes: AxisLike, frequency_weights: Any,
                        keepdims: bool = False, name: str | None = None) -> tuple:
    """The frequency-weighted mean and variance of ``x`` over ``axes``.

    Args:
        x: A tensor.
        axes: The axes to compute the moments over.
        frequency_weights: Weights broadcastable to ``x``.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name scope for the ops (optional).

    Returns:
        ``(mean, variance)``.
    """
    return weighted_moments(x, axes, frequency_weights, name, keepdims)


def fused_batch_norm(x: TensorLike, scale: TensorLike, offset: TensorLike,
                     mean: TensorLike | None = None, variance: TensorLike | None = None,
                     epsilon: float = 0.001, data_format: str = "NHWC", is_training: bool = True,
                     name: str | None = None, exponential_avg_factor: float = 1.0) -> tuple:
    """Batch normalization of a 4-D (or 5-D) tensor over all axes but the channels (TF1).

    Training normalizes with the batch's mean and (biased) variance and returns the
    running statistics as TensorFlow's FusedBatchNormV3 does: the batch variance
    Bessel-corrected, both blended with ``mean``/``variance`` by ``exponential_avg_factor``;
    inference normalizes with ``mean`` and ``variance``.

    Args:
        x: The input, NHWC or NCHW (NDHWC/NCDHW for 5-D).
        scale: The per-channel scale (gamma).
        offset: The per-channel offset (beta).
        mean: The per-channel mean for inference, or the running mean to blend.
        variance: The per-channel variance for inference, or the running variance to blend.
        epsilon: A small float added to the variance.
        data_format: Where the channels are: last ("NHWC") or second ("NCHW").
        is_training: Whether to normalize with the batch's statistics.
        name: A name scope for the ops (optional).
        exponential_avg_factor: The weight of the batch statistics in the returned running
            ones (1: the batch's alone).

    Returns:
        ``(y, running_mean, running_variance)``.

    Raises:
        ValueError: If ``mean``/``variance`` are missing where they are needed.
    """
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or
                                                                variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` "
                         "is False or `exponential_avg_factor` != 1.0. Received: `mean` %r "
                         "and `variance` %r" % (mean, variance))
    with name_scope(name, "FusedBatchNormV3", [x, scale, offset]):
        x = convert_to_tensor(_as_value(x), name="input")
        dt = x.dtype.base_dtype
        work = dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt
        xw = cast(x, work) if work is not dt else x
        r = x.shape.rank
        channels_first = data_format.startswith("NC")
        axes = [0] + list(range(2, r)) if channels_first else list(range(r - 1))
        bshape = [1, -1] + [1] * (r - 2) if channels_first else [-1]

        def per_channel(v: Any) -> Any:
            return reshape(cast(convert_to_tensor(_as_value(v)), work), bshape)

        if is_training:
            batch_mean = reduce_mean(xw, axes)
            batch_var = reduce_mean(squared_difference(xw, reshape(batch_mean, bshape)), axes)
            n = 1
            for a in axes:
                n *= x.shape.as_tuple()[a]
            corrected = multiply(batch_var, n / max(n - 1, 1))
            y = batch_normalization(xw, reshape(batch_mean, bshape), reshape(batch_var, bshape),
                                    per_channel(offset), per_channel(scale), epsilon)
            if exponential_avg_factor != 1.0:
                f = exponential_avg_factor
                batch_mean = add(multiply(1.0 - f, cast(mean, work)), multiply(f, batch_mean))
                corrected = add(multiply(1.0 - f, cast(variance, work)), multiply(f, corrected))
            running_mean, running_var = batch_mean, corrected
        else:
            running_mean = cast(convert_to_tensor(_as_value(mean)), work)
            running_var = cast(convert_to_tensor(_as_value(variance)), work)
            y = batch_normalization(xw, reshape(running_mean, bshape),
                                    reshape(running_var, bshape), per_channel(offset),
                                    per_channel(scale), epsilon)
        return (cast(y, dt) if work is not dt else y), running_mean, running_var


def batch_norm_with_global_normalization(t: TensorLike | None = None, m: TensorLike | None = None,  # noqa: A002
                                         v: TensorLike | None = None,
                                         beta: TensorLike | None = None,
                                         gamma: TensorLike | None = None,
                                         variance_epsilon: TensorLike | None = None,
                                         scale_after_normalization: Any = None,
                                         name: str | None = None, input: TensorLike | None = None,
                                         mean: TensorLike | None = None,
                                         variance: TensorLike | None = None) -> Any:
    """Batch normalization with given statistics (TF1 form; ``input``/``mean``/``variance``
    are TF2's names for ``t``/``m``/``v``).

    Args:
        t: The input.
        m: The mean.
        v: The variance.
        beta: The offset.
        gamma: The scale, used when ``scale_after_normalization``.
        variance_epsilon: A small float added to the variance.
        scale_after_normalization: Whether to multiply by ``gamma``.
        name: A name scope for the ops (optional).
        input: TF2's name for ``t``.
        mean: TF2's name for ``m``.
        variance: TF2's name for ``v``.
    """
    t = input if t is None else t
    m = mean if m is None else m
    v = variance if v is None else v
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name)


def batch_norm_with_global_normalization_v2(input: TensorLike, mean: TensorLike,  # noqa: A002
                                            variance: TensorLike, beta: TensorLike,
                                            gamma: TensorLike, variance_epsilon: TensorLike,
                                            scale_after_normalization: bool,
                                            name: str | None = None) -> Any:
    """Batch normalization with given statistics.

    Args:
        input: The input.
        mean: The mean.
        variance: The variance.
        beta: The offset.
        gamma: The scale, used when ``scale_after_normalization``.
        variance_epsilon: A small float added to the variance.
        scale_after_normalization: Whether to multiply by ``gamma``.
        name: A name scope for the ops (optional).
    """
    return batch_norm_with_global_normalization(input, mean, variance, beta, gamma,
                                                variance_epsilon, scale_after_normalization,
                                                name)


def log_poisson_loss(targets: TensorLike, log_input: Any, compute_full_loss: bool = False,
                     name: str | None = None) -> Any:
    """The negative log-likelihood of ``targets`` under a Poisson of mean ``exp(log_input)``.

    Args:
        targets: The observed counts.
        log_input: The log of the predicted means (same shape).
        compute_full_loss: Whether to add Stirling's approximation of ``log(targets!)``
            (where ``targets > 1``).
        name: A name scope for the ops (optional).

    Returns:
        ``exp(log_input) - log_input * targets`` (plus the Stirling term), elementwise.

    Raises:
        ValueError: If the shapes differ.
    """
    with name_scope(name, "log_poisson_loss", [log_input, targets]):
        log_input = convert_to_tensor(_as_value(log_input), name="log_input")
        targets = convert_to_tensor(_as_value(targets), name="targets")
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError("`log_input` and `targets` must have the same shape, received "
                             "(%s vs %s)." % (log_input.shape, targets.shape))
        result = exp(log_input) - log_input * targets
        if compute_full_loss:
            dt = targets.dtype.base_dtype
            stirling = targets * log(targets) - targets + convert_to_tensor(0.5, dt) * log(
                convert_to_tensor(2 * math.pi, dt) * targets)
            zeros = zeros_like(targets)
            cond = logical_and(greater_equal(targets, zeros), less_equal(targets, 1.0))
            result += where(cond, zeros, stirling)
        return result


def xw_plus_b(x: TensorLike, weights: TensorLike, biases: TensorLike,
              name: str | None = None) -> Any:
    """``matmul(x, weights) + biases``.

    Args:
        x: A 2-D tensor ``[batch, in]``.
        weights: A 2-D tensor ``[in, out]``.
        biases: A 1-D tensor ``[out]``.
        name: A name for the operation (optional).
    """
    with name_scope(name, "xw_plus_b", [x, weights, biases]) as scope:
        return bias_add(*_product(x, weights, biases), name=scope)


def relu_layer(x: TensorLike, weights: TensorLike, biases: TensorLike,
               name: str | None = None) -> Any:
    """``relu(matmul(x, weights) + biases)`` (TF1).

    Args:
        x: A 2-D tensor ``[batch, in]``.
        weights: A 2-D tensor ``[in, out]``.
        biases: A 1-D tensor ``[out]``.
        name: A name for the operation (optional).
    """
    with name_scope(name, "relu_layer", [x, weights, biases]) as scope:
        return relu(bias_add(*_product(x, weights, biases)), name=scope)


def _product(x: Any, weights: Any, biases: Any) -> tuple:
    """(x @ weights, biases) as tensors named as TensorFlow names them."""
    x = convert_to_tensor(_as_value(x), name="x")
    weights = convert_to_tensor(_as_value(weights), name="weights")
    return matmul(x, weights), convert_to_tensor(_as_value(biases), name="biases")
