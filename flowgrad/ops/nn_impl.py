"""Neural-network functions composed of other ops: sigmoid/weighted cross-entropy, moments,
normalization, silu.

As in ``nn_ops``, a TF1 form keeps the plain name and the TF2 form of a function whose
signature changed has a ``_v2`` suffix."""
from __future__ import annotations

import numbers
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.complex_ops import complex as complex_
from flowgrad.ops.complex_ops import imag, real
from flowgrad.ops.array_ops import _as_value, concat, reshape, shape, shape_of, zeros_like
from flowgrad.ops.math_ops import (
    abs,
    add,
    cast,
    equal,
    exp,
    greater_equal,
    log1p,
    maximum,
    multiply,
    negative,
    reduce_mean,
    reduce_sum,
    realdiv,
    rsqrt,
    sigmoid,
    square,
    squared_difference,
    subtract,
    tanh,
    where,
)
from flowgrad.ops.nn_ops import _check_xent_args, _input, relu
from flowgrad.ops.special_math_ops import erfc
from flowgrad.ops.stateless_random_ops import stateless_random_uniform
from flowgrad.framework.type_hints import AxisLike, ShapeLike, TensorLike
from flowgrad.framework import dispatch


def _same_shape_labels(labels: Any, logits: Any, what: str) -> tuple:
    x = _input(logits, what, "logits")
    z = convert_to_tensor(_as_value(labels), x.dtype.base_dtype)
    if not x.shape.is_compatible_with(z.shape):
        raise ValueError("logits and labels must have the same shape (%s vs %s)"
                         % (x.shape, z.shape))
    return z, x


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def sigmoid_cross_entropy_with_logits_v2(labels: TensorLike | None = None,
                                         logits: TensorLike | None = None,
                                         name: str | None = None) -> Any:
    """Elementwise logistic loss max(x, 0) - x * z + log(1 + exp(-|x|)) (overflow-free).

    Args:
        labels: The labels in [0, 1], as ``logits``' shape and dtype.
        logits: The logits: a floating tensor.
        name: A name for the operation (optional).
    """
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        z, x = _same_shape_labels(labels, logits, "sigmoid_cross_entropy_with_logits")
        zeros = zeros_like(x)
        cond = greater_equal(x, zeros)
        relu_logits = where(cond, x, zeros)
        neg_abs_logits = where(cond, negative(x), x)
        return add(subtract(relu_logits, multiply(x, z)), log1p(exp(neg_abs_logits)),
                   name=scope)


def sigmoid_cross_entropy_with_logits(_sentinel: Any = None, labels: TensorLike | None = None,
                                      logits: TensorLike | None = None,
                                      name: str | None = None) -> Any:
    """TF1 form (keyword arguments only) of the logistic loss.

    Args:
        _sentinel: Guards against positional arguments (TensorFlow's); pass ``labels`` and
            ``logits`` by name.
        labels: The labels in [0, 1], as ``logits``' shape and dtype.
        logits: The logits: a floating tensor.
        name: A name for the operation (optional).
    """
    _check_xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
    return sigmoid_cross_entropy_with_logits_v2(labels, logits, name)


def weighted_cross_entropy_with_logits(labels: TensorLike | None = None,
                                       logits: TensorLike | None = None, pos_weight: Any = None,
                                       name: str | None = None,
                                       targets: TensorLike | None = None) -> Any:
    """Logistic loss with the positive term weighted by ``pos_weight``.

    (1 - z) * x + (1 + (q - 1) * z) * (log(1 + exp(-|x|)) + max(-x, 0)); ``targets`` is
    TF1's name for ``labels``.

    Args:
        labels: The labels in [0, 1], as ``logits``' shape and dtype.
        logits: The logits: a floating tensor.
        pos_weight: The weight of the positive examples' term.
        name: A name for the operation (optional).
        targets: TF1's name for ``labels``.
    """
    if targets is not None:
        if labels is not None:
            raise ValueError("Cannot specify both 'labels' and 'targets'.")
        labels = targets
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        z, x = _same_shape_labels(labels, logits, "weighted_cross_entropy_with_logits")
        q = convert_to_tensor(_as_value(pos_weight), x.dtype.base_dtype)
        log_weight = add(multiply(subtract(q, 1.0), z), 1.0)
        softplus_neg = add(log1p(exp(negative(abs(x)))), relu(negative(x)))
        return add(multiply(subtract(1.0, z), x), multiply(log_weight, softplus_neg),
                   name=scope)


def moments_v2(x: TensorLike, axes: AxisLike, shift: Any = None, keepdims: bool = False,
               name: str | None = None) -> tuple:
    """(mean, variance) of ``x`` over ``axes``.

    Unlike TensorFlow, the variance does not stop the gradient through the mean: the first
    derivative is the same, and the second is then the true one. ``shift`` is unused, as
    in TensorFlow.

    Args:
        x: A floating tensor.
        axes: The axes to compute the mean and variance along.
        shift: Accepted for TensorFlow's signature (unused, as in TensorFlow 2).
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
    """
    with name_scope(name, "moments", [x, axes]):
        y = convert_to_tensor(_as_value(x))
        mean = reduce_mean(y, axes, keepdims=True, name="mean")
        variance = reduce_mean(squared_difference(y, mean), axes, keepdims=keepdims,
                               name="variance")
        if not keepdims:
            mean = reshape(mean, shape_of(variance))
        return mean, variance


def moments(x: TensorLike, axes: AxisLike, shift: Any = None, name: str | None = None,
            keep_dims: bool | None = None, keepdims: bool | None = None) -> tuple:
    """TF1 form of ``moments`` (``keep_dims`` spelling).

    Args:
        x: A floating tensor.
        axes: The axes to compute the mean and variance along.
        shift: Accepted for TensorFlow's signature (unused, as in TensorFlow 2).
        name: A name for the operation (optional).
        keep_dims: TF1's name for ``keepdims``.
        keepdims: Whether to keep the reduced axes with length 1.
    """
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
        keepdims = keep_dims
    return moments_v2(x, axes, shift, bool(keepdims), name)


@dispatch.add_dispatch_support
def l2_normalize(x: TensorLike, axis: AxisLike = None, epsilon: float = 1e-12,
                 name: str | None = None, dim: AxisLike = None) -> Any:
    """x / sqrt(max(sum(x ** 2, axis), epsilon)).

    Args:
        x: A floating or complex tensor (a complex one is divided by its modulus norm).
        axis: The axis or axes to normalize along; all when None.
        epsilon: The lower bound of the squared norm (avoids dividing by zero).
        name: A name for the operation (optional).
        dim: TF1's name for ``axis``.
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'.")
        axis = dim
    with name_scope(name, "l2_normalize", [x]) as scope:
        x = convert_to_tensor(_as_value(x), name="x")
        if x.dtype.is_complex:
            # TensorFlow normalizes the real and imaginary parts by the complex modulus.
            x_re, x_im = real(x), imag(x)
            square_sum = reduce_sum(square(x_re) + square(x_im), axis, keepdims=True)
            inv_norm = rsqrt(maximum(square_sum, epsilon))
            return complex_(multiply(x_re, inv_norm), multiply(x_im, inv_norm), name=scope)
        x = _input(x, "l2_normalize", "x")
        square_sum = reduce_sum(square(x), axis, keepdims=True)
        inv_norm = rsqrt(maximum(square_sum, epsilon))
        return multiply(x, inv_norm, name=scope)


def batch_normalization(x: TensorLike, mean: TensorLike, variance: TensorLike, offset: TensorLike,
                        scale: TensorLike, variance_epsilon: float, name: str | None = None) -> Any:
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset (broadcasting).

    Args:
        x: A floating tensor.
        mean: The mean to subtract (broadcast against ``x``).
        variance: The variance to divide by (broadcast against ``x``).
        offset: The offset (beta) added after normalizing, or None.
        scale: The scale (gamma) applied after normalizing, or None.
        variance_epsilon: A small float added to the variance.
        name: A name for the operation (optional).
    """
    with name_scope(name, "batchnorm", [x, mean, variance, scale, offset]) as scope:
        x = _input(x, "batch_normalization", "x")
        dt = x.dtype.base_dtype
        inv = rsqrt(add(convert_to_tensor(_as_value(variance), dt), variance_epsilon))
        if scale is not None:
            inv = multiply(inv, convert_to_tensor(_as_value(scale), dt))
        shift = negative(multiply(convert_to_tensor(_as_value(mean), dt), inv))
        if offset is not None:
            shift = add(shift, convert_to_tensor(_as_value(offset), dt))
        return add(multiply(x, inv), shift, name=scope)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def silu(features: TensorLike, beta: float = 1.0, name: str | None = None) -> Any:
    """features * sigmoid(beta * features) (also called swish).

    Args:
        features: A floating tensor.
        beta: The factor of ``features`` inside the sigmoid.
        name: A name for the operation (optional).
    """
    with name_scope(name, "silu", [features]) as scope:
        x = _input(features, "silu", "features")
        return multiply(x, sigmoid(multiply(x, beta)), name=scope)


swish = silu


def zero_fraction(value: TensorLike, name: str | None = None) -> Any:
    """The fraction of elements of ``value`` that are zero, as a float32 scalar.

    Args:
        value: A numeric tensor.
        name: A name for the operation (optional).
    """
    with name_scope(name, "zero_fraction", [value]):
        v = convert_to_tensor(_as_value(value))
        return reduce_mean(cast(equal(v, zeros_like(v)), dtypes.float32))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def gelu(features: TensorLike, approximate: bool = False, name: str | None = None) -> Any:
    """The Gaussian error linear unit, ``x * Phi(x)``, as TensorFlow computes it.

    Args:
      features: A floating point tensor.
      approximate: Whether to use the tanh approximation.
      name: A name for the operation.

    Returns:
      A tensor of ``features``' dtype and shape.
    """
    with name_scope(name, "Gelu", [features]) as scope:
        x = _input(features, "Gelu", "features")
        if approximate:
            cube = multiply(0.044715, multiply(x, square(x)))
            inner = tanh(multiply(0.7978845608028654, add(x, cube)))
            return multiply(multiply(0.5, x), add(1.0, inner), name=scope)
        # erfc(-x / sqrt(2)) = 1 + erf(x / sqrt(2)) without cancellation for negative x
        return multiply(multiply(0.5, x), erfc(multiply(negative(x), 0.7071067811865476)),
                        name=scope)


def stateless_dropout(x: TensorLike, rate: TensorLike, seed: int | None, rng_alg: Any = None,
                      noise_shape: ShapeLike | TensorLike | None = None,
                      name: str | None = None) -> Any:
    """Dropout whose mask is a pure function of ``seed`` (``tf.nn.experimental``).

    Args:
      x: A floating point tensor.
      rate: The probability of dropping each element, in [0, 1).
      seed: A shape-[2] int32/int64 tensor.
      rng_alg: Accepted for TensorFlow's signature.
      noise_shape: The shape of the mask (broadcast against ``x``); ``x``'s by default.
      name: A name for the operation.

    Returns:
      ``x`` with dropped elements zeroed and the others scaled by ``1 / (1 - rate)``.

    Raises:
      ValueError: for a rate outside [0, 1) or a tensor that is not floating point.
    """
    with name_scope(name, "stateless_dropout", [x]) as scope:
        t = convert_to_tensor(_as_value(x), name="x")
        dt = t.dtype.base_dtype
        if not dt.is_floating:
            raise ValueError("x has to be a floating point tensor since it's going to be "
                             "scaled. Got a %s tensor instead." % dt.name)
        if isinstance(rate, numbers.Real):
            if not 0 <= rate < 1:
                raise ValueError("rate must be a scalar tensor or a float in the range [0, 1), "
                                 "got %g" % rate)
            if rate == 0:
                return t
        r = convert_to_tensor(_as_value(rate), dt)
        mask_shape = shape(t) if noise_shape is None else noise_shape
        noise = stateless_random_uniform(mask_shape, seed, dtype=dt, alg=rng_alg)
        keep = cast(greater_equal(noise, r), dt)
        return multiply(realdiv(t, subtract(1.0, r)), keep, name=scope)


def crelu(features: TensorLike, axis: int = -1, name: str | None = None) -> Any:
    """Concatenated ReLU: ``concat([relu(x), relu(-x)], axis)`` (twice the channels).

    Args:
        features: A real tensor.
        axis: The axis along which the two halves are concatenated.
        name: A name for the operation.

    Returns:
        A tensor of ``features``' dtype whose ``axis`` dimension is doubled.
    """
    with name_scope(name, "CRelu", [features]) as scope:
        x = convert_to_tensor(_as_value(features), name="features")
        return relu(concat([x, negative(x)], axis, name=scope))


__all__ = ["sigmoid_cross_entropy_with_logits", "crelu", "weighted_cross_entropy_with_logits",
           "moments", "l2_normalize", "batch_normalization", "silu", "swish", "zero_fraction"]
