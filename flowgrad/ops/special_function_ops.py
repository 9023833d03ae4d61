"""``tf.math.special``'s Bessel functions of the first and second kind (``BesselJ0``,
``BesselJ1``, ``BesselY0``, ``BesselY1``), the modified ones of the second kind (``BesselK0``,
``BesselK0e``, ``BesselK1``, ``BesselK1e``), Dawson's integral (``Dawsn``), the exponential
integral Ei (``Expint``), the Fresnel integrals (``FresnelCos``, ``FresnelSin``) and Spence's
dilogarithm (``Spence``).

The kernels are SciPy's (``scipy.special``: Cephes, the library TensorFlow's kernels were
ported from; the ``special`` extra), evaluated in float64 and rounded to the input's dtype,
with TensorFlow's values outside the functions' domains: ``K`` of a negative argument is
``inf``, ``Y`` of one ``-inf``, ``Ei`` of a negative or infinite one ``nan`` (and
float32's ``Y1(0)`` is ``nan``, as TensorFlow's float kernel gives). Like TensorFlow's CPU
kernels, they take float32 and float64 (float16 and bfloat16 have no kernel:
``NotFoundError``). The gradients are TensorFlow's (``math_grad.py``), made of ops and so
differentiable again."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import NotFoundError
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import unary
from flowgrad.framework.tensor import EagerTensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch
from flowgrad.ops.arithmetic_ops import multiply, negative, realdiv, subtract
from flowgrad.ops.array_ops import ones_like
from flowgrad.ops.comparison_ops import equal, where
from flowgrad.ops.elementwise_ops import cos, exp, log, reciprocal, sin, square
from flowgrad.ops.math_helpers import _dtype_of
from flowgrad.ops.array_op_util import _as_value

_TF_DTYPE = {"bfloat16": "DT_BFLOAT16", "float16": "DT_HALF"}


def _scipy_special() -> Any:
    try:
        import scipy.special
    except ImportError as exc:  # pragma: no cover - scipy is in the dev extra
        raise ImportError("tf.math.special's Bessel, Dawson, Fresnel, exponential integral "
                          "and Spence functions need SciPy: pip install flowgrad[special]"
                          ) from exc
    return scipy.special


def _expint(sc: Any, x: np.ndarray) -> np.ndarray:
    return np.where((x >= 0) & np.isfinite(x), sc.expi(np.where(x >= 0, x, 1.0)), np.nan)


_FUNCTIONS = {
    "BesselJ0": lambda sc, x: sc.j0(x),
    "BesselJ1": lambda sc, x: sc.j1(x),
    "BesselY0": lambda sc, x: np.where(x < 0, -np.inf, sc.y0(x)),
    "BesselY1": lambda sc, x: np.where(x < 0, -np.inf, sc.y1(x)),
    "BesselK0": lambda sc, x: np.where(x < 0, np.inf, sc.k0(x)),
    "BesselK0e": lambda sc, x: np.where(x < 0, np.inf, sc.k0e(x)),
    "BesselK1": lambda sc, x: np.where(x < 0, np.inf, sc.k1(x)),
    "BesselK1e": lambda sc, x: np.where(x < 0, np.inf, sc.k1e(x)),
    "Dawsn": lambda sc, x: sc.dawsn(x),
    "Expint": _expint,
    "FresnelCos": lambda sc, x: sc.fresnel(x)[1],
    "FresnelSin": lambda sc, x: sc.fresnel(x)[0],
    "Spence": lambda sc, x: sc.spence(x),
}


def _kernel(op_type: str) -> Any:
    fn = _FUNCTIONS[op_type]

    def kernel(x: Any) -> np.ndarray:
        x = np.asarray(x)
        if x.dtype.name in _TF_DTYPE:
            raise NotFoundError(None, None, "Could not find device for node: {{node %s}} = "
                                "%s[T=%s]" % (op_type, op_type, _TF_DTYPE[x.dtype.name]))
        with np.errstate(all="ignore"):
            y = np.asarray(fn(_scipy_special(), x.astype(np.float64)))
        if op_type == "BesselY1" and x.dtype == np.float32:
            y = np.where(x == 0, np.nan, y)     # TensorFlow's float kernel
        return y.astype(x.dtype)
    return kernel


def _apply(op_type: str, x: TensorLike, name: str | None) -> Any:
    if type(x) is not EagerTensor:
        x = _as_value(x)
    dt = _dtype_of(x)
    if dt.kind != "f":
        raise argument_error("Value for attr 'T' of %s is not in the list of allowed values: "
                             "bfloat16, half, float, double" % dt.name, TypeError)
    return apply_op(op_type, (x,), name=name)


def _nonzero(x: Any) -> Any:
    return where(equal(x, 0.0), ones_like(x), x)


@defop("BesselJ0", _kernel("BesselJ0"), unary, input_names=("x",), jvp="elementwise")
def _j0_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, negative(bessel_j1(op.inputs[0])))


@defop("BesselJ1", _kernel("BesselJ1"), unary, input_names=("x",), jvp="elementwise")
def _j1_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    slope = where(equal(x, 0.0), 0.5 * ones_like(x),
                  subtract(bessel_j0(x), realdiv(y, _nonzero(x))))
    return multiply(grad, slope)


@defop("BesselY0", _kernel("BesselY0"), unary, input_names=("x",), jvp="elementwise")
def _y0_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, negative(bessel_y1(op.inputs[0])))


@defop("BesselY1", _kernel("BesselY1"), unary, input_names=("x",), jvp="elementwise")
def _y1_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    return multiply(grad, subtract(bessel_y0(x), realdiv(y, x)))


@defop("BesselK0", _kernel("BesselK0"), unary, input_names=("x",), jvp="elementwise")
def _k0_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, negative(bessel_k1(op.inputs[0])))


@defop("BesselK0e", _kernel("BesselK0e"), unary, input_names=("x",), jvp="elementwise")
def _k0e_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, subtract(op.outputs[0], bessel_k1e(op.inputs[0])))


@defop("BesselK1", _kernel("BesselK1"), unary, input_names=("x",), jvp="elementwise")
def _k1_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    return multiply(grad, subtract(negative(bessel_k0(x)), realdiv(y, x)))


@defop("BesselK1e", _kernel("BesselK1e"), unary, input_names=("x",), jvp="elementwise")
def _k1e_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    return multiply(grad, subtract(multiply(y, subtract(1.0, reciprocal(x))), bessel_k0e(x)))


@defop("Dawsn", _kernel("Dawsn"), unary, input_names=("x",), jvp="elementwise")
def _dawsn_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    return multiply(grad, subtract(1.0, multiply(2.0 * x, y)))


@defop("Expint", _kernel("Expint"), unary, input_names=("x",), jvp="elementwise")
def _expint_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return multiply(grad, realdiv(exp(x), x))


@defop("FresnelCos", _kernel("FresnelCos"), unary, input_names=("x",), jvp="elementwise")
def _fresnel_cos_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, cos((np.pi / 2.0) * square(op.inputs[0])))


@defop("FresnelSin", _kernel("FresnelSin"), unary, input_names=("x",), jvp="elementwise")
def _fresnel_sin_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, sin((np.pi / 2.0) * square(op.inputs[0])))


@defop("Spence", _kernel("Spence"), unary, input_names=("x",), jvp="elementwise")
def _spence_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    slope = where(equal(x, 1.0), negative(ones_like(x)), realdiv(log(x), subtract(1.0, x)))
    return multiply(grad, slope)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_j0(x: TensorLike, name: str | None = None) -> Any:
    """The Bessel function of the first kind of order 0, elementwise.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselJ0", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_j1(x: TensorLike, name: str | None = None) -> Any:
    """The Bessel function of the first kind of order 1, elementwise.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselJ1", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_y0(x: TensorLike, name: str | None = None) -> Any:
    """The Bessel function of the second kind of order 0, elementwise (``-inf`` for
    ``x <= 0``).

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselY0", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_y1(x: TensorLike, name: str | None = None) -> Any:
    """The Bessel function of the second kind of order 1, elementwise (``-inf`` for
    ``x < 0``).

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselY1", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_k0(x: TensorLike, name: str | None = None) -> Any:
    """The modified Bessel function of the second kind of order 0, elementwise (``inf`` for
    ``x <= 0``).

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselK0", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_k0e(x: TensorLike, name: str | None = None) -> Any:
    """``exp(x) * bessel_k0(x)``, elementwise, without underflow.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselK0e", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_k1(x: TensorLike, name: str | None = None) -> Any:
    """The modified Bessel function of the second kind of order 1, elementwise (``inf`` for
    ``x <= 0``).

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselK1", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_k1e(x: TensorLike, name: str | None = None) -> Any:
    """``exp(x) * bessel_k1(x)``, elementwise, without underflow.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("BesselK1e", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def dawsn(x: TensorLike, name: str | None = None) -> Any:
    """Dawson's integral ``exp(-x**2) * integral_0^x exp(t**2) dt``, elementwise.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("Dawsn", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def expint(x: TensorLike, name: str | None = None) -> Any:
    """The exponential integral ``Ei(x) = integral_-inf^x exp(t) / t dt``, elementwise
    (``nan`` for ``x < 0`` and ``x = inf``, as in TensorFlow).

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("Expint", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def fresnel_cos(x: TensorLike, name: str | None = None) -> Any:
    """The Fresnel cosine integral ``integral_0^x cos(pi t**2 / 2) dt``, elementwise.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("FresnelCos", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def fresnel_sin(x: TensorLike, name: str | None = None) -> Any:
    """The Fresnel sine integral ``integral_0^x sin(pi t**2 / 2) dt``, elementwise.

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("FresnelSin", x, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def spence(x: TensorLike, name: str | None = None) -> Any:
    """Spence's function ``integral_1^x log(t) / (1 - t) dt``, elementwise (``nan`` for
    ``x < 0``).

    Args:
        x: A float32 or float64 tensor.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _apply("Spence", x, name)
