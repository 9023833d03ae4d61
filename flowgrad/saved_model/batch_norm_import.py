"""TensorFlow's fused batch normalization (``FusedBatchNorm``/``V2``/``V3``, which Keras 2,
``tf.compat.v1.layers.batch_normalization(fused=True)`` and ``tf.compat.v1.nn.fused_batch_norm``
write) and its gradient (``FusedBatchNormGrad``/``V2``/``V3``, in TF1 training graphs)
imported as the composites of flowgrad's ops that compute the same, as TensorFlow's
``nn_grad._BatchNormGrad`` writes the gradient. Built from differentiable ops, both
differentiate again (a loaded model fine-tunes through them, and a gradient graph to any
order), in both data formats (channels last ``NHWC``/``NDHWC``, channels first
``NCHW``/``NCDHW``).

Training mode normalizes by the batch's mean and (biased) variance; the ``batch_mean`` and
``batch_variance`` outputs are the moving averages ``(1 - f) * mean + f * batch_mean`` for an
``exponential_avg_factor`` f below 1, else the batch's mean and its Bessel-corrected
variance; the reserve spaces hold the batch's mean and biased variance (TensorFlow's CPU
kernel). Inference mode normalizes by the ``mean`` and ``variance`` inputs and passes them
through."""
from __future__ import annotations

from typing import Any

from flowgrad.ops import array_ops, math_ops
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.constant_ops import identity_n
from flowgrad.ops.fill_ops import zeros
from flowgrad.saved_model.graph_import import IMPORTERS


def _layout(x: Any, data_format: str) -> tuple:
    """(the channel axis, the reduction axes, the shape a [C] vector broadcasts as)."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError("fused batch normalization needs an input of known rank")
    fmt = data_format.decode() if isinstance(data_format, bytes) else str(data_format)
    if fmt not in ("NHWC", "NCHW", "NDHWC", "NCDHW"):
        raise ValueError("unknown data_format %r" % fmt)
    axis = 1 if fmt.startswith("NC") else rank - 1
    shape = [1] * rank
    shape[axis] = -1
    return axis, [i for i in range(rank) if i != axis], shape


def _compute_dtype(x: Any, scale: Any) -> Any:
    """x in the dtype of scale (float32 for half inputs, as TensorFlow computes them)."""
    return cast(x, scale.dtype.base_dtype) if x.dtype.base_dtype != scale.dtype.base_dtype \
        else x


def _empty(dtype: Any) -> Any:
    return zeros([0], dtype)


def _fused_batch_norm(ins: list, a: dict, name: str, reserves: int) -> list:
    x, scale, offset, mean, variance = ins[:5]
    eps = float(a.get("epsilon", 1e-4))
    training = bool(a.get("is_training", True))
    factor = float(a.get("exponential_avg_factor", 1.0))
    _, axes, bshape = _layout(x, a.get("data_format", "NHWC"))
    xc = _compute_dtype(x, scale)

    def b(v: Any) -> Any:
        return array_ops.reshape(v, bshape)
    if training:
        batch_mean = math_ops.reduce_mean(xc, axes)
        centered = math_ops.subtract(xc, b(batch_mean))
        batch_var = math_ops.reduce_mean(math_ops.square(centered), axes)
        n = math_ops.cast(math_ops.divide(array_ops.size(xc), array_ops.size(batch_mean)),
                          batch_var.dtype.base_dtype)
        unbiased = math_ops.multiply(batch_var, math_ops.divide(
            n, math_ops.maximum(math_ops.subtract(n, 1.0), 1.0)))
        inv = math_ops.rsqrt(math_ops.add(batch_var, eps))
        if factor != 1.0:
            mean_out = math_ops.add(math_ops.multiply(1.0 - factor, mean),
                                    math_ops.multiply(factor, batch_mean))
            var_out = math_ops.add(math_ops.multiply(1.0 - factor, variance),
                                   math_ops.multiply(factor, unbiased))
        else:
            mean_out, var_out = batch_mean, unbiased
        saved = [batch_mean, batch_var]
    else:
        centered = math_ops.subtract(xc, b(mean))
        inv = math_ops.rsqrt(math_ops.add(variance, eps))
        mean_out, var_out = array_ops.identity(mean), array_ops.identity(variance)
        saved = [array_ops.identity(mean), array_ops.identity(variance)]
    y = math_ops.add(math_ops.multiply(centered, b(math_ops.multiply(inv, scale))), b(offset))
    return _named([cast(y, x.dtype.base_dtype), mean_out, var_out] + saved +
                  [_empty(scale.dtype.base_dtype)] * reserves, name)


def _fused_batch_norm_grad(ins: list, a: dict, name: str, reserves: int) -> list:
    """TensorFlow's ``nn_grad._BatchNormGrad``: training mode from the batch's statistics
    (recomputed from x), inference mode from the population ones (reserve spaces 1, 2)."""
    dy, x, scale, pop_mean, pop_var = ins[:5]
    eps = float(a.get("epsilon", 1e-4))
    training = bool(a.get("is_training", True))
    _, axes, bshape = _layout(x, a.get("data_format", "NHWC"))
    xc, dyc = _compute_dtype(x, scale), _compute_dtype(dy, scale)

    def b(v: Any) -> Any:
        return array_ops.reshape(v, bshape)
    if training:
        mean_x = math_ops.reduce_mean(xc, axes)
        x_offset = math_ops.subtract(xc, b(mean_x))
        var_x = math_ops.reduce_mean(math_ops.square(x_offset), axes)
        inv = math_ops.rsqrt(math_ops.add(var_x, eps))
        dy_offset = math_ops.subtract(dyc, b(math_ops.reduce_mean(dyc, axes)))
        mean_dy_x = math_ops.reduce_mean(math_ops.multiply(dyc, x_offset), axes)
        dx = math_ops.multiply(b(math_ops.multiply(scale, inv)), math_ops.subtract(
            dy_offset, math_ops.multiply(b(math_ops.multiply(math_ops.square(inv), mean_dy_x)),
                                         x_offset)))
        dscale = math_ops.multiply(inv, math_ops.reduce_sum(math_ops.multiply(dyc, x_offset),
                                                            axes))
    else:
        inv = math_ops.rsqrt(math_ops.add(pop_var, eps))
        dscale = math_ops.reduce_sum(math_ops.multiply(
            dyc, math_ops.multiply(math_ops.subtract(xc, b(pop_mean)), b(inv))), axes)
        dx = math_ops.multiply(dyc, b(math_ops.multiply(scale, inv)))
    doffset = math_ops.reduce_sum(dyc, axes)
    return _named([cast(dx, x.dtype.base_dtype), dscale, doffset] +
                  [_empty(scale.dtype.base_dtype)] * reserves, name)


def _named(outputs: list, name: str) -> list:
    """The outputs through one IdentityN named as the node, so ``name:1`` ... name them."""
    return list(identity_n(outputs, name=name))


def _importer(fn: Any, reserves: int) -> Any:
    return lambda ins, a, name: fn(ins, a, name, reserves)


IMPORTERS.update({
    "FusedBatchNorm": _importer(_fused_batch_norm, 0),
    "FusedBatchNormV2": _importer(_fused_batch_norm, 0),
    "FusedBatchNormV3": _importer(_fused_batch_norm, 1),
    "FusedBatchNormGrad": _importer(_fused_batch_norm_grad, 2),
    "FusedBatchNormGradV2": _importer(_fused_batch_norm_grad, 2),
    "FusedBatchNormGradV3": _importer(_fused_batch_norm_grad, 2),
})

__all__: list = []
