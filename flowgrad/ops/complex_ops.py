"""Complex numbers: ``Complex`` (from real and imaginary parts), ``Real``, ``Imag``, ``Conj``,
``Angle`` and ``ComplexAbs`` (``tf.abs`` of a complex tensor), with
``tf.math.real/imag/conj/angle`` and ``tf.complex``.

As in TensorFlow, the functions accept real tensors too: ``real`` and ``conj`` return them
unchanged, ``imag`` gives zeros and ``angle`` gives pi where the value is negative, 0
elsewhere. The gradients are TensorFlow's (``math_grad.py``); ``Angle``'s is written with real
ops (the same value as TensorFlow's ``-grad / complex(imag, real)``), so it differentiates
again without complex products."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import unary
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import broadcast_shapes
from flowgrad.ops.arithmetic_ops import add, div_no_nan, multiply, negative, realdiv
from flowgrad.ops.array_ops import _as_value, sum_tangents
from flowgrad.ops.comparison_ops import less, where
from flowgrad.ops.elementwise_ops import square
from flowgrad.ops.fill_ops import ones_like, zeros_like
from flowgrad.ops.sum_ops import sum_to
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch

_PART = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}
_WHOLE = {v: k for k, v in _PART.items()}


def _part_rule(ins: list, attrs: dict) -> tuple:
    return _PART[ins[0].dtype.base_dtype], ins[0].shape


def _complex_rule(ins: list, attrs: dict) -> tuple:
    return _WHOLE[ins[0].dtype.base_dtype], broadcast_shapes(ins[0].shape, ins[1].shape)


def _complex_kernel(re: Any, im: Any) -> np.ndarray:
    re, im = np.asarray(re), np.asarray(im)
    out_dtype = np.complex64 if re.dtype == np.float32 else np.complex128
    return (re + 1j * im).astype(out_dtype)


@defop("Complex", _complex_kernel, _complex_rule, input_names=("real", "imag"))
def _complex_grad(op: Any, grad: Any) -> Any:
    re, im = op.inputs
    return sum_to(real(grad), re), sum_to(imag(grad), im)


register_jvp("Complex", lambda op, tr, ti: sum_tangents(op.outputs[0], [
    None if tr is None else complex(tr, zeros_like(tr)),
    None if ti is None else complex(zeros_like(ti), ti)]))


@defop("Real", np.real, _part_rule, input_names=("input",))
def _real_grad(op: Any, grad: Any) -> Any:
    return complex(grad, zeros_like(grad))


@defop("Imag", np.imag, _part_rule, input_names=("input",))
def _imag_grad(op: Any, grad: Any) -> Any:
    return complex(zeros_like(grad), grad)


@defop("Conj", np.conj, unary, input_names=("input",))
def _conj_grad(op: Any, grad: Any) -> Any:
    return conj(grad)


register_jvp("Real", lambda op, t: None if t is None else real(t))
register_jvp("Imag", lambda op, t: None if t is None else imag(t))
register_jvp("Conj", lambda op, t: None if t is None else conj(t))


def _angle_slopes(z: Any) -> tuple:
    """(d angle / d re, d angle / d im) = (-im, re) / |z|^2."""
    re, im = real(z), imag(z)
    r2 = add(square(re), square(im))
    return realdiv(negative(im), r2), realdiv(re, r2)


@defop("Angle", np.angle, _part_rule, input_names=("input",))
def _angle_grad(op: Any, grad: Any) -> Any:
    d_re, d_im = _angle_slopes(op.inputs[0])
    return complex(multiply(grad, d_re), multiply(grad, d_im))


def _angle_jvp(op: Any, t: Any) -> Any:
    if t is None:
        return None
    d_re, d_im = _angle_slopes(op.inputs[0])
    return d_re * real(t) + d_im * imag(t)


register_jvp("Angle", _angle_jvp)


@defop("ComplexAbs", np.abs, _part_rule, input_names=("x",))
def _complex_abs_grad(op: Any, grad: Any) -> Any:
    # TensorFlow's: div_no_nan(complex(grad, 0) x, complex(|x|, 0)), 0 where x is 0
    return div_no_nan(multiply(complex(grad, zeros_like(grad)), op.inputs[0]),
                      complex(op.outputs[0], zeros_like(op.outputs[0])))


def _complex_abs_jvp(op: Any, t: Any) -> Any:
    """d|z| = Re(conj(z) t) / |z| (0 where z is 0)."""
    if t is None:
        return None
    z = op.inputs[0]
    return div_no_nan(real(multiply(conj(z), t)), op.outputs[0])


register_jvp("ComplexAbs", _complex_abs_jvp)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def complex(real: Any, imag: Any, name: str | None = None) -> Any:  # noqa: A001 - TF's name
    """The complex number ``real + imag * 1j``, elementwise (broadcasting).

    Args:
      real: A float32 or float64 tensor.
      imag: A tensor of ``real``'s dtype.
      name: A name for the operation.

    Returns:
      A complex64 (from float32) or complex128 (from float64) tensor.

    Raises:
      TypeError: if the parts are not float32/float64 or differ in dtype.
    """
    re = convert_to_tensor(_as_value(real), name="real")
    im = convert_to_tensor(_as_value(imag), name="imag")
    if re.dtype.base_dtype != im.dtype.base_dtype or re.dtype.base_dtype not in _WHOLE:
        raise TypeError("The real and imag components have incorrect types: %s %s (op Complex; "
                        "both must be float32 or both float64)" % (re.dtype.name, im.dtype.name))
    return apply_op("Complex", (re, im), name=name)


def _tensor(x: Any) -> Any:
    return convert_to_tensor(_as_value(x), name="input")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def real(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The real part of a complex tensor; a real tensor is returned unchanged.

    Args:
      input: A tensor.
      name: A name for the operation.

    Returns:
      A float32/float64 tensor of ``input``'s shape.

    Raises:
      TypeError: If ``input`` is not numeric (bool or string).
    """
    x = _tensor(input)
    if x.dtype.is_complex:
        return apply_op("Real", (x,), name=name)
    if x.dtype.base_dtype.kind not in "fiu":
        raise TypeError("input must be a numeric tensor, but got tensor with dtype %r"
                        % x.dtype)
    return x


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def imag(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The imaginary part of a complex tensor; zeros for a real tensor; see :func:`real`.

    Args:
        input: A complex (or real) tensor.
        name: A name for the operation (optional).
    """
    x = _tensor(input)
    return apply_op("Imag", (x,), name=name) if x.dtype.is_complex else zeros_like(x)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def conj(x: TensorLike, name: str | None = None) -> Any:
    """The complex conjugate; a real tensor is returned unchanged; see :func:`real`.

    Args:
        x: A tensor (real tensors are returned as they are).
        name: A name for the operation (optional).

    Raises:
      TypeError: for a tensor that is not a number.
    """
    t = _tensor(x)
    if t.dtype.is_complex:
        return apply_op("Conj", (t,), name=name)
    if t.dtype.is_floating or t.dtype.is_integer:
        return t
    raise TypeError("Expected numeric or variant tensor, got dtype %s (conj)" % t.dtype.name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def angle(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The argument of a complex tensor; for a real one, pi where it is negative, else 0.

    Args:
      input: A tensor.
      name: A name for the operation.

    Returns:
      A float tensor of ``input``'s shape.
    """
    x = _tensor(input)
    if x.dtype.is_complex:
        return apply_op("Angle", (x,), name=name)
    return where(less(x, 0), np.pi * ones_like(x), zeros_like(x))
