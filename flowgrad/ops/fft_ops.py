"""Discrete Fourier transforms: ``FFT``/``IFFT`` and ``FFT2D``/``IFFT2D`` (complex, over the
innermost one or two axes) and ``RFFT``/``IRFFT`` (real signals and their half spectra),
``tf.signal.fft`` ... ``irfft`` (NumPy's ``numpy.fft`` kernels).

The gradients follow TensorFlow's convention for complex tensors (the gradient of a real loss
``L`` with respect to ``z`` is ``dL/dRe z + i dL/dIm z``): a linear map ``A`` passes back
``A^H g``. So ``FFT``'s gradient is ``n * IFFT(g)`` and ``IFFT``'s is ``FFT(g) / n``;
``RFFT``'s is the real part of ``n * IFFT`` of the zero-padded gradient and ``IRFFT``'s is
``RFFT(g)`` weighted by 1 (zero and Nyquist bins) or 2 (the others) over ``n``, each cropped or
padded back to the input's length: all made of these ops, so they differentiate again."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import constant_value, unary
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.arithmetic_ops import multiply
from flowgrad.ops.array_op_util import linear_in_first_jvp
from flowgrad.ops.array_ops import _as_value, pad, shape, slice
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.complex_ops import real
from flowgrad.ops.reduction_ops import reduce_prod
from flowgrad.framework.type_hints import TensorLike

_COMPLEX = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}
_REAL = {v: k for k, v in _COMPLEX.items()}


def _length_of(x: Any, axes: int) -> Any:
    """The product of ``x``'s innermost ``axes`` dimensions (static when known)."""
    dims = x.shape.as_list()[-axes:] if x.shape.rank is not None else [None]
    if None not in dims:
        return float(np.prod(dims))
    s = shape(x)[-axes:]
    return cast(reduce_prod(s), _REAL[x.dtype.base_dtype])


def _scaled(x: Any, factor: Any) -> Any:
    if isinstance(factor, float):       # a static size: the factor in x's precision
        return multiply(x, np.asarray(factor, x.dtype.base_dtype.as_numpy_dtype))
    return multiply(x, cast(factor, x.dtype.base_dtype))


def _complex_kernel(fn: Any) -> Any:
    def kernel(x: Any) -> np.ndarray:
        x = np.asarray(x)
        return fn(x).astype(x.dtype)
    return kernel


@defop("FFT", _complex_kernel(lambda x: np.fft.fft(x, axis=-1)), unary, input_names=("input",))
def _fft_grad(op: Any, grad: Any) -> Any:
    return _scaled(apply_op("IFFT", (grad,)), _length_of(grad, 1))


@defop("IFFT", _complex_kernel(lambda x: np.fft.ifft(x, axis=-1)), unary,
       input_names=("input",))
def _ifft_grad(op: Any, grad: Any) -> Any:
    return _scaled(apply_op("FFT", (grad,)), 1.0 / _length_of(grad, 1))


@defop("FFT2D", _complex_kernel(lambda x: np.fft.fft2(x, axes=(-2, -1))), unary,
       input_names=("input",))
def _fft2d_grad(op: Any, grad: Any) -> Any:
    return _scaled(apply_op("IFFT2D", (grad,)), _length_of(grad, 2))


@defop("IFFT2D", _complex_kernel(lambda x: np.fft.ifft2(x, axes=(-2, -1))), unary,
       input_names=("input",))
def _ifft2d_grad(op: Any, grad: Any) -> Any:
    return _scaled(apply_op("FFT2D", (grad,)), 1.0 / _length_of(grad, 2))


for _type in ("FFT", "IFFT", "FFT2D", "IFFT2D"):
    register_jvp(_type, linear_in_first_jvp)


def _fit_last(x: Any, n: int) -> Any:
    """``x`` cropped or zero-padded along its last axis to length ``n`` (static lengths)."""
    m = x.shape.as_list()[-1]
    if m == n:
        return x
    if m > n:
        return slice(x, [0] * x.shape.rank, [-1] * (x.shape.rank - 1) + [n])
    return pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - m]])


def _rfft_kernel(x: Any, fft_length: Any, *, Tcomplex: Any) -> np.ndarray:  # noqa: N803
    n = int(np.ravel(fft_length)[0])
    return np.fft.rfft(np.asarray(x), n=n, axis=-1).astype(Tcomplex.np)


def _irfft_kernel(x: Any, fft_length: Any, *, Treal: Any) -> np.ndarray:  # noqa: N803
    n = int(np.ravel(fft_length)[0])
    x = np.asarray(x)
    m = n // 2 + 1
    x = x[..., :m] if x.shape[-1] >= m else np.concatenate(
        [x, np.zeros(x.shape[:-1] + (m - x.shape[-1],), x.dtype)], -1)
    return np.fft.irfft(x, n=n, axis=-1).astype(Treal.np)


def _fft_length(ins: list) -> int | None:
    v = constant_value(ins[1])
    return None if v is None else int(np.ravel(v)[0])


def _rfft_infer(ins: list, attrs: dict) -> tuple:
    n, s = _fft_length(ins), ins[0].shape
    if s.rank is None:
        return attrs["Tcomplex"], s
    return attrs["Tcomplex"], TensorShape(s.as_list()[:-1] + [None if n is None else n // 2 + 1])


def _irfft_infer(ins: list, attrs: dict) -> tuple:
    n, s = _fft_length(ins), ins[0].shape
    if s.rank is None:
        return attrs["Treal"], s
    return attrs["Treal"], TensorShape(s.as_list()[:-1] + [n])


def _static_n(op: Any) -> int:
    n = _fft_length(op.inputs)
    if n is None:
        raise ValueError("the gradient of %s needs a known fft_length" % op.type)
    return n


@defop("RFFT", _rfft_kernel, _rfft_infer, input_names=("input", "fft_length"))
def _rfft_grad(op: Any, grad: Any) -> Any:
    n, x = _static_n(op), op.inputs[0]
    full = apply_op("IFFT", (_fit_last(grad, n),))
    g = real(_scaled(full, float(n)))
    return _fit_last(g, x.shape.as_list()[-1]), None


@defop("IRFFT", _irfft_kernel, _irfft_infer, input_names=("input", "fft_length"))
def _irfft_grad(op: Any, grad: Any) -> Any:
    n, x = _static_n(op), op.inputs[0]
    m = n // 2 + 1
    weights = np.full([m], 2.0 / n)
    weights[0] = 1.0 / n
    if n % 2 == 0:
        weights[-1] = 1.0 / n
    spectrum = apply_op("RFFT", (grad, convert_to_tensor(np.array([n], np.int32))),
                        {"Tcomplex": x.dtype.base_dtype})
    g = multiply(spectrum, convert_to_tensor(weights.astype(x.dtype.base_dtype.np)))
    return _fit_last(g, x.shape.as_list()[-1]), None


register_jvp("RFFT", linear_in_first_jvp)
register_jvp("IRFFT", linear_in_first_jvp)


# --------------------------------------------------------------------------------------
# Public functions


def _complex_input(x: Any, what: str) -> Any:
    t = convert_to_tensor(_as_value(x), name="input")
    if not t.dtype.is_complex:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of "
                        "allowed values: complex64, complex128 (op %s)" % (t.dtype.name, what))
    return t


def fft(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The discrete Fourier transform over the innermost axis of a complex tensor.

    Args:
      input: A complex64 or complex128 tensor.
      name: A name for the operation.

    Returns:
      A tensor of ``input``'s shape and dtype.

    Raises:
      TypeError: for a tensor that is not complex.
    """
    return apply_op("FFT", (_complex_input(input, "FFT"),), name=name)


def ifft(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The inverse of :func:`fft` (divided by the length).

    Args:
        input: A complex tensor; transformed over its last axis.
        name: A name for the operation (optional).
    """
    return apply_op("IFFT", (_complex_input(input, "IFFT"),), name=name)


def fft2d(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The 2-D discrete Fourier transform over the innermost two axes; see :func:`fft`.

    Args:
        input: A complex tensor; transformed over its last two axes.
        name: A name for the operation (optional).
    """
    return apply_op("FFT2D", (_complex_input(input, "FFT2D"),), name=name)


def ifft2d(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The inverse of :func:`fft2d`.

    Args:
        input: A complex tensor; transformed over its last two axes.
        name: A name for the operation (optional).
    """
    return apply_op("IFFT2D", (_complex_input(input, "IFFT2D"),), name=name)


def _length_arg(fft_length: Any, x: Any, default: Any) -> Any:
    if fft_length is None:
        return convert_to_tensor(np.array([default], np.int32), name="fft_length")
    return convert_to_tensor(_as_value(fft_length), dtypes.int32, name="fft_length")


def rfft(input_tensor: TensorLike, fft_length: TensorLike | None = None,
         name: str | None = None) -> Any:
    """The DFT of a real signal over its innermost axis: the ``fft_length // 2 + 1`` unique
    bins (the input is cropped or zero-padded to ``fft_length``).

    Args:
      input_tensor: A float32 or float64 tensor.
      fft_length: A 1-element int32 tensor; the innermost dimension by default.
      name: A name for the operation.

    Returns:
      A complex64 (complex128 for float64) tensor.

    Raises:
      TypeError: for a tensor that is not float32/float64.
    """
    with name_scope(name, "rfft", [input_tensor]) as scope:
        x = convert_to_tensor(_as_value(input_tensor), name="input_tensor")
        if x.dtype.base_dtype not in _COMPLEX:
            raise TypeError("rfft: input must be float32 or float64, got %s" % x.dtype.name)
        n = _length_arg(fft_length, x, x.shape.as_list()[-1] if x.shape.rank else None)
        return apply_op("RFFT", (x, n), {"Tcomplex": _COMPLEX[x.dtype.base_dtype]}, name=scope)


def irfft(input_tensor: TensorLike, fft_length: TensorLike | None = None,
          name: str | None = None) -> Any:
    """The inverse of :func:`rfft`: a real signal of ``fft_length`` samples from its half
    spectrum (by default ``2 * (inner - 1)``).

    Args:
      input_tensor: A complex64 or complex128 tensor.
      fft_length: A 1-element int32 tensor.
      name: A name for the operation.

    Returns:
      A float32 (float64 for complex128) tensor.
    """
    with name_scope(name, "irfft", [input_tensor]) as scope:
        x = _complex_input(input_tensor, "IRFFT")
        inner = x.shape.as_list()[-1] if x.shape.rank else None
        n = _length_arg(fft_length, x, None if inner is None else 2 * (inner - 1))
        return apply_op("IRFFT", (x, n), {"Treal": _REAL[x.dtype.base_dtype]}, name=scope)


__all__ = ["fft", "ifft", "fft2d", "ifft2d", "rfft", "irfft"]
