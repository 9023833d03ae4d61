"""Local response normalization (``tf.nn.local_response_normalization``, ``tf.nn.lrn``):
TensorFlow's LRN op, with its kernel, shape rule, gradient and JVP.

Each entry of a 4-D input is divided by ``(bias + alpha * s) ** beta``, where ``s`` sums the
squares of the entries within ``depth_radius`` along the last axis (AlexNet's
normalization). The window sum is a product with a band matrix of ones, as TensorFlow's CPU
kernel computes it; the gradient is built from the same ops, so it differentiates again."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import unary
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.array_ops import reshape, shape
from flowgrad.ops.fill_ops import ones
from flowgrad.ops.linalg_ops import band_part
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.math_ops import add, multiply, pow, square, subtract
from flowgrad.framework.type_hints import TensorLike

_LRN_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def _band(depth: int, radius: int, dtype: Any) -> np.ndarray:
    k = np.arange(depth)
    return (np.abs(k[:, None] - k[None, :]) <= radius).astype(dtype)


def _lrn_kernel(x: Any, *, depth_radius: int, bias: float, alpha: float, beta: float) -> Any:
    work = np.float32 if x.itemsize < 4 else x.dtype      # half types compute in float32
    xw = x.astype(work)
    s = (xw * xw) @ _band(x.shape[-1], depth_radius, work)
    return (xw * (bias + alpha * s) ** -beta).astype(x.dtype)


def _lrn_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    if x.shape.rank is not None and x.shape.rank != 4:
        raise ValueError("Shape must be rank 4 but is rank %d for 'LRN' (input shape %s)"
                         % (x.shape.rank, x.shape))
    return unary(ins, attrs)


def _window_sum(t: Any, radius: int) -> Any:
    """The sum of ``t`` over ``radius`` neighbours on each side along the last axis."""
    depth = shape(t)[-1]
    band = band_part(ones([depth, depth], t.dtype.base_dtype), radius, radius)
    return reshape(matmul(reshape(t, [-1, depth]), band), shape(t))


def _norm(op: Any) -> tuple:
    x = op.inputs[0]
    radius, alpha = op.get_attr("depth_radius"), op.get_attr("alpha")
    return x, radius, alpha, op.get_attr("beta"), add(op.get_attr("bias"),
                                                        multiply(alpha, _window_sum(square(x),
                                                                                    radius)))


@defop("LRN", _lrn_kernel, _lrn_infer, input_names=("input",))
def _lrn_grad(op: Any, grad: Any) -> Any:
    # out_d = x_d N_d^-beta with N = bias + alpha W(x^2):
    # dx_j = g_j N_j^-beta - 2 alpha beta x_j W(g x N^(-beta-1))_j (W is symmetric).
    x, radius, alpha, beta, n = _norm(op)
    inner = _window_sum(multiply(multiply(grad, x), pow(n, -beta - 1.0)), radius)
    return subtract(multiply(grad, pow(n, -beta)),
                    multiply(2.0 * alpha * beta, multiply(x, inner)))


def _lrn_jvp(op: Any, tangent: Any) -> Any:
    if tangent is None:
        return None
    x, radius, alpha, beta, n = _norm(op)
    inner = _window_sum(multiply(x, tangent), radius)
    return subtract(multiply(tangent, pow(n, -beta)),
                    multiply(2.0 * alpha * beta,
                             multiply(multiply(x, pow(n, -beta - 1.0)), inner)))


register_jvp("LRN", _lrn_jvp)


def local_response_normalization(input: TensorLike, depth_radius: int = 5,  # noqa: A002 - TF's name
                                 bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                                 name: str | None = None) -> Any:
    """Local response normalization over the last axis of a 4-D tensor.

    ``output = input / (bias + alpha * sqr_sum) ** beta``, where ``sqr_sum`` sums
    ``input ** 2`` over ``depth_radius`` neighbours on each side along the last axis.

    Args:
        input: A 4-D float tensor (half, bfloat16, float32 or float64).
        depth_radius: The half-width of the window.
        bias: The offset (usually positive, to avoid dividing by 0).
        alpha: The scale of the sum.
        beta: The exponent.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``input``'s shape and dtype.

    Raises:
        TypeError: If ``input`` is not one of the float dtypes above.
        ValueError: If ``input`` is not 4-D.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    if x.dtype.base_dtype not in _LRN_DTYPES:
        raise argument_error("Value for attr 'T' of %s is not in the list of allowed values: "
                             "half, bfloat16, float" % x.dtype.base_dtype.name, TypeError)
    attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha),
             "beta": float(beta)}
    return apply_op("LRN", [x], attrs, name=name)


lrn = local_response_normalization
