"""Inverse trigonometric and hyperbolic functions: ``Asin``, ``Acos``, ``Atan``, ``Atan2``,
``Sinh``, ``Cosh``, ``Asinh``, ``Acosh`` and ``Atanh``.

Each op's gradient is TensorFlow's formula (``math_grad.py``) written with ops, so it can be
differentiated again; each has a JVP rule of the same formula."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import unary
from flowgrad.ops.arithmetic_ops import (
    _ARITH,
    add,
    conj_if_complex,
    multiply,
    negative,
    realdiv,
    subtract,
)
from flowgrad.ops.array_ops import sum_tangents
from flowgrad.ops.elementwise_ops import reciprocal, rsqrt, square
from flowgrad.ops.math_helpers import _FLOATING, _binary, _unary
from flowgrad.ops.sum_ops import sum_to
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


@defop("Asin", np.arcsin, unary, input_names=("x",), jvp="elementwise")
def _asin_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, rsqrt(subtract(1.0, square(conj_if_complex(op.inputs[0])))))


@defop("Acos", np.arccos, unary, input_names=("x",), jvp="elementwise")
def _acos_grad(op: Any, grad: Any) -> Any:
    return negative(multiply(grad, rsqrt(subtract(1.0, square(conj_if_complex(op.inputs[0]))))))


@defop("Atan", np.arctan, unary, input_names=("x",), jvp="elementwise")
def _atan_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, reciprocal(add(1.0, square(conj_if_complex(op.inputs[0])))))


@defop("Atan2", np.arctan2, **dict(_ARITH, input_names=("y", "x")))
def _atan2_grad(op: Any, grad: Any) -> Any:
    y, x = op.inputs
    g = realdiv(grad, add(square(x), square(y)))
    return sum_to(multiply(g, x), y), sum_to(negative(multiply(g, y)), x)


def _atan2_jvp(op: Any, ty: Any, tx: Any) -> Any:
    y, x = op.inputs
    r2 = square(x) + square(y)
    return sum_tangents(op.outputs[0], [None if ty is None else ty * x / r2,
                                        None if tx is None else -tx * y / r2])


register_jvp("Atan2", _atan2_jvp)


@defop("Sinh", np.sinh, unary, input_names=("x",), jvp="elementwise")
def _sinh_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, cosh(conj_if_complex(op.inputs[0])))


@defop("Cosh", np.cosh, unary, input_names=("x",), jvp="elementwise")
def _cosh_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, sinh(conj_if_complex(op.inputs[0])))


@defop("Asinh", np.arcsinh, unary, input_names=("x",), jvp="elementwise")
def _asinh_grad(op: Any, grad: Any) -> Any:
    return realdiv(grad, cosh(conj_if_complex(op.outputs[0])))


@defop("Acosh", np.arccosh, unary, input_names=("x",), jvp="elementwise")
def _acosh_grad(op: Any, grad: Any) -> Any:
    return realdiv(grad, sinh(conj_if_complex(op.outputs[0])))


@defop("Atanh", np.arctanh, unary, input_names=("x",), jvp="elementwise")
def _atanh_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, reciprocal(subtract(1.0, square(conj_if_complex(op.inputs[0])))))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def asin(x: TensorLike, name: str | None = None) -> Any:
    """The inverse sine, elementwise (NaN outside [-1, 1]).

    Args:
      x: A floating point tensor.
      name: A name for the operation.

    Returns:
      A tensor of ``x``'s dtype and shape.
    """
    return _unary("Asin", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def acos(x: TensorLike, name: str | None = None) -> Any:
    """The inverse cosine, elementwise (NaN outside [-1, 1]); see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Acos", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def atan(x: TensorLike, name: str | None = None) -> Any:
    """The inverse tangent, elementwise; see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Atan", x, name, _FLOATING)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def atan2(y: TensorLike, x: TensorLike, name: str | None = None) -> Any:
    """The angle of the point (x, y), elementwise, in [-pi, pi]; broadcasts ``y`` and ``x``.

    Args:
      y: A floating point tensor.
      x: A tensor of ``y``'s dtype.
      name: A name for the operation.

    Returns:
      A tensor of the broadcast shape.
    """
    return _binary("Atan2", y, x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def sinh(x: TensorLike, name: str | None = None) -> Any:
    """The hyperbolic sine, elementwise; see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Sinh", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def cosh(x: TensorLike, name: str | None = None) -> Any:
    """The hyperbolic cosine, elementwise; see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Cosh", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def asinh(x: TensorLike, name: str | None = None) -> Any:
    """The inverse hyperbolic sine, elementwise; see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Asinh", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def acosh(x: TensorLike, name: str | None = None) -> Any:
    """The inverse hyperbolic cosine, elementwise (NaN below 1); see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Acosh", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def atanh(x: TensorLike, name: str | None = None) -> Any:
    """The inverse hyperbolic tangent, elementwise (NaN outside [-1, 1]); see :func:`asin`.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Atanh", x, name, _FLOATING)
