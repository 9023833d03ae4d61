"""The n-dimensional FFTs ``FFTND``, ``IFFTND``, ``RFFTND`` and ``IRFFTND`` (``tf.fftnd`` ...,
and ``tf.signal.fftnd`` ... with TensorFlow 2.21's wrappers: default lengths and axes, the
zero padding of the innermost dimensions, ``norm``).

TensorFlow 2.21 registers these kernels for GPUs only (on a CPU its ops raise
``NotFoundError``); flowgrad computes what the GPU kernel computes, with its checks: the axes
are successive and ascending and end at the last one, ``fft_length`` has one length per axis,
an input dimension longer than its length is cropped (the real transforms require it at
least as long). NumPy's ``numpy.fft`` is the kernel. TensorFlow registers no gradient for
these ops, and neither does flowgrad (a gradient through one raises ``LookupError``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.slicing_ops import pad

_COMPLEX = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _invalid(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(None, None, message)


def _checked(x: np.ndarray, fft_length: Any, axes: Any, real: bool, forward: bool) -> tuple:
    """TensorFlow's FFTNBase checks; returns the lengths and the axes as lists."""
    lengths, axes = [int(v) for v in np.ravel(fft_length)], [int(a) for a in np.ravel(axes)]
    rank, k = x.ndim, len(axes)
    if rank < k:
        raise _invalid("Input must have rank of at least %d but got: [%s]"
                       % (k, ",".join(str(d) for d in x.shape)))
    axes = [a + rank if a < 0 else a for a in axes]
    for i in range(1, k):
        if axes[i - 1] + 1 != axes[i]:
            raise _invalid("axes must be successive and ascending.")
    if k and axes[-1] != rank - 1:
        raise _invalid("The last axis to perform transform on must be -1.")
    if np.ndim(fft_length) != 1 or len(lengths) != k:
        raise _invalid("fft_length must have shape [%d], but got: %d." % (k, len(lengths)))
    for i, n in enumerate(lengths):
        if n < 0:
            raise _invalid("fft_length[%d] must >= 0, but got: %d" % (i, n))
        if real:
            need = n // 2 + 1 if not forward and i == k - 1 else n
            index = rank - k + i
            if x.shape[index] != 0 and x.shape[index] < need:
                raise _invalid("Input dimension %d must have length of at least %d but got: %d"
                               % (index, need, x.shape[index]))
    return lengths, axes


def _fftnd_kernel(forward: bool) -> Any:
    def kernel(x: Any, fft_length: Any, axes: Any) -> np.ndarray:
        x = np.asarray(x)
        lengths, axes = _checked(x, fft_length, axes, False, forward)
        if x.size == 0 or not axes:
            return np.zeros(_out_dims(x.shape, lengths, False, forward), x.dtype)
        fn = np.fft.fftn if forward else np.fft.ifftn
        return fn(x, s=lengths, axes=axes).astype(x.dtype)
    return kernel


def _rfftnd_kernel(x: Any, fft_length: Any, axes: Any, *, Tcomplex: Any) -> np.ndarray:  # noqa: N803
    x = np.asarray(x)
    lengths, axes = _checked(x, fft_length, axes, True, True)
    if x.size == 0 or not axes or 0 in lengths:
        return np.zeros(_out_dims(x.shape, lengths, True, True), Tcomplex.np)
    return np.fft.rfftn(x, s=lengths, axes=axes).astype(Tcomplex.np)


def _irfftnd_kernel(x: Any, fft_length: Any, axes: Any, *, Treal: Any) -> np.ndarray:  # noqa: N803
    x = np.asarray(x)
    lengths, axes = _checked(x, fft_length, axes, True, False)
    if x.size == 0 or not axes or 0 in lengths:
        return np.zeros(_out_dims(x.shape, lengths, True, False), Treal.np)
    return np.fft.irfftn(x, s=lengths, axes=axes).astype(Treal.np)


def _out_dims(dims: tuple, lengths: list, real: bool, forward: bool) -> list:
    out, k = list(dims), len(lengths)
    for i, n in enumerate(lengths):
        out[len(out) - k + i] = n // 2 + 1 if real and forward and i == k - 1 and n else n
    return out


def _infer(real: bool, forward: bool, attr: str | None) -> Any:
    def infer(ins: list, attrs: dict) -> tuple:
        x = ins[0]
        dt = attrs[attr] if attr else x.dtype.base_dtype
        lengths = constant_value(ins[1])
        if x.shape.rank is None:
            return dt, TensorShape(None)
        if lengths is None:
            k = ins[2].shape.as_list()[0] if ins[2].shape.rank == 1 else None
            dims = x.shape.as_list()
            if k is None:
                return dt, TensorShape([None] * len(dims))
            return dt, TensorShape(dims[:len(dims) - k] + [None] * k)
        lengths = [int(v) for v in np.ravel(lengths)]
        if len(lengths) > x.shape.rank:
            return dt, TensorShape([None] * x.shape.rank)
        return dt, TensorShape(_out_dims(tuple(x.shape.as_list()), lengths, real, forward))
    return infer


register_op("FFTND", _fftnd_kernel(True), _infer(False, True, None),
            input_names=("input", "fft_length", "axes"))
register_op("IFFTND", _fftnd_kernel(False), _infer(False, False, None),
            input_names=("input", "fft_length", "axes"))
register_op("RFFTND", _rfftnd_kernel, _infer(True, True, "Tcomplex"),
            input_names=("input", "fft_length", "axes"))
register_op("IRFFTND", _irfftnd_kernel, _infer(True, False, "Treal"),
            input_names=("input", "fft_length", "axes"))


def _check_complex(x: Any, op_type: str) -> None:
    if x.dtype.base_dtype not in (dtypes.complex64, dtypes.complex128):
        name = {"float32": "float", "float64": "double"}.get(x.dtype.base_dtype.name,
                                                             x.dtype.base_dtype.name)
        raise InvalidArgumentError(None, None, "Value for attr 'Tcomplex' of %s is not in the "
                                   "list of allowed values: complex64, complex128 (%s)"
                                   % (name, op_type))


def _int32(v: Any, name: str) -> Any:
    return convert_to_tensor(_as_value(v), dtypes.int32, name=name)


def _complex_nd(op_type: str, input: TensorLike, fft_length: TensorLike,  # noqa: A002
                axes: TensorLike, name: str | None) -> Any:
    """The complex-to-complex ``op_type`` (FFTND, IFFTND) of ``input``."""
    x = convert_to_tensor(_as_value(input), name="input")
    _check_complex(x, op_type)
    return apply_op(op_type, (x, _int32(fft_length, "fft_length"), _int32(axes, "axes")), {},
                    name=name)


def fftnd(input: TensorLike, fft_length: TensorLike, axes: TensorLike,  # noqa: A002
          name: str | None = None) -> Any:
    """TensorFlow's ``FFTND`` op (``tf.fftnd``): the n-dimensional FFT over ``axes``.

    Args:
        input: A complex64/complex128 tensor.
        fft_length: An int32 vector: the FFT length for each axis.
        axes: An int32 vector of successive, ascending axes ending at the last one.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``input``'s dtype.
    """
    return _complex_nd("FFTND", input, fft_length, axes, name)


def ifftnd(input: TensorLike, fft_length: TensorLike, axes: TensorLike,  # noqa: A002
           name: str | None = None) -> Any:
    """TensorFlow's ``IFFTND`` op (``tf.ifftnd``): the n-dimensional inverse FFT.

    Args:
        input: A complex64/complex128 tensor.
        fft_length: An int32 vector: the FFT length for each axis.
        axes: An int32 vector of successive, ascending axes ending at the last one.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``input``'s dtype.
    """
    return _complex_nd("IFFTND", input, fft_length, axes, name)


def rfftnd(input: TensorLike, fft_length: TensorLike, axes: TensorLike,  # noqa: A002
           Tcomplex: DTypeLike = dtypes.complex64, name: str | None = None) -> Any:  # noqa: N803
    """TensorFlow's ``RFFTND`` op (``tf.rfftnd``): the n-dimensional FFT of a real signal
    (the innermost axis keeps ``fft_length[-1] // 2 + 1`` bins).

    Args:
        input: A float32/float64 tensor.
        fft_length: An int32 vector: the FFT length for each axis.
        axes: An int32 vector of successive, ascending axes ending at the last one.
        Tcomplex: The result's dtype, complex64 or complex128.
        name: A name for the operation (optional).

    Returns:
        A ``Tcomplex`` tensor.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    return apply_op("RFFTND", (x, _int32(fft_length, "fft_length"), _int32(axes, "axes")),
                    {"Tcomplex": dtypes.as_dtype(Tcomplex)}, name=name)


def irfftnd(input: TensorLike, fft_length: TensorLike, axes: TensorLike,  # noqa: A002
            Treal: DTypeLike = dtypes.float32, name: str | None = None) -> Any:  # noqa: N803
    """TensorFlow's ``IRFFTND`` op (``tf.irfftnd``): the inverse of :func:`rfftnd`.

    Args:
        input: A complex64/complex128 tensor of half spectra.
        fft_length: An int32 vector: the FFT length for each axis.
        axes: An int32 vector of successive, ascending axes ending at the last one.
        Treal: The result's dtype, float32 or float64.
        name: A name for the operation (optional).

    Returns:
        A ``Treal`` tensor.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    return apply_op("IRFFTND", (x, _int32(fft_length, "fft_length"), _int32(axes, "axes")),
                    {"Treal": dtypes.as_dtype(Treal)}, name=name)


def _pad_inner(x: Any, lengths: Any, reverse: bool = False) -> Any:
    """TensorFlow's ``_maybe_pad_for_rfft``: zero-pads the innermost ``len(lengths)``
    dimensions of ``x`` up to ``lengths`` (the last to ``lengths[-1] // 2 + 1`` when
    ``reverse``)."""
    dims = x.shape.as_list()
    if lengths is None or None in dims[len(dims) - len(lengths):]:
        raise ValueError("tf.signal's n-d FFTs need static shapes and fft_length in flowgrad")
    if 0 in dims:
        return x
    want = list(lengths)
    if reverse and want:
        want[-1] = want[-1] // 2 + 1
    inner = dims[len(dims) - len(want):] if want else []
    paddings = [[0, max(w - d, 0)] for w, d in zip(want, inner)]
    if any(p for _, p in paddings):
        return pad(x, [[0, 0]] * max(len(dims) - len(want), 0) + paddings)
    return x


def _prepare(input_tensor: Any, fft_length: Any, axes: Any, preferred: Any,
             irfft: bool = False) -> tuple:
    x = convert_to_tensor(_as_value(input_tensor), preferred_dtype=preferred)
    rank = x.shape.rank
    if rank is None:
        raise ValueError("tf.signal's n-d FFTs need an input of known rank in flowgrad")
    axes = list(range(rank)) if axes is None else [int(a) for a in np.ravel(_as_value(axes))]
    if rank < len(axes):
        raise ValueError("Shape %s must have rank at least %d" % (x.shape, len(axes)))
    if fft_length is None:
        lengths = x.shape.as_list()
        if irfft and lengths:
            lengths[-1] = max(0, 2 * (lengths[-1] - 1))
    else:
        lengths = constant_value(_int32(fft_length, "fft_length"))
        lengths = None if lengths is None else [int(v) for v in np.ravel(lengths)]
    return x, axes, lengths


def _normalized(x: Any, lengths: list, norm: str | None, inverse: bool) -> Any:
    if norm is None or norm == "backward":
        return x
    n = float(np.prod(lengths)) if lengths else 1.0
    if norm == "forward":
        return x * n if inverse else x / n
    if norm == "ortho":
        return x * np.sqrt(n) if inverse else x / np.sqrt(n)
    return x


def signal_fftnd(input_tensor: TensorLike, fft_length: TensorLike | None = None,
                 axes: TensorLike | None = None, norm: str | None = None,
                 name: str | None = None) -> Any:
    """``tf.signal.fftnd``: the n-dimensional FFT over ``axes`` (all by default), the
    innermost dimensions zero-padded to ``fft_length`` (the input's shape by default).

    Args:
        input_tensor: A complex tensor (Python values become complex64).
        fft_length: The FFT length for each axis.
        axes: Successive, ascending axes ending at the last one.
        norm: ``"backward"`` (None), ``"forward"`` (scaled by ``1/n``) or ``"ortho"``.
        name: A name for the operation (optional).

    Returns:
        A complex tensor.
    """
    with name_scope(name, "fftnd", [input_tensor]) as scope:
        x, axes, lengths = _prepare(input_tensor, fft_length, axes, dtypes.complex64)
        x = _normalized(_pad_inner(x, lengths), lengths, norm, False)
        _check_complex(x, "FFTND")
        return fftnd(x, lengths, axes, name=scope)


def signal_ifftnd(input_tensor: TensorLike, fft_length: TensorLike | None = None,
                  axes: TensorLike | None = None, norm: str | None = None,
                  name: str | None = None) -> Any:
    """``tf.signal.ifftnd``: the inverse of :func:`signal_fftnd`.

    Args:
        input_tensor: A complex tensor.
        fft_length: The FFT length for each axis.
        axes: Successive, ascending axes ending at the last one.
        norm: ``"backward"`` (None: scaled by ``1/n``), ``"forward"`` or ``"ortho"``.
        name: A name for the operation (optional).

    Returns:
        A complex tensor.
    """
    with name_scope(name, "ifftnd", [input_tensor]) as scope:
        x, axes, lengths = _prepare(input_tensor, fft_length, axes, dtypes.complex64)
        x = _normalized(_pad_inner(x, lengths), lengths, norm, True)
        _check_complex(x, "IFFTND")
        return ifftnd(x, lengths, axes, name=scope)


def signal_rfftnd(input_tensor: TensorLike, fft_length: TensorLike | None = None,
                  axes: TensorLike | None = None, norm: str | None = None,
                  name: str | None = None) -> Any:
    """``tf.signal.rfftnd``: the n-dimensional FFT of a real signal.

    Args:
        input_tensor: A float32/float64 tensor.
        fft_length: The FFT length for each axis.
        axes: Successive, ascending axes ending at the last one.
        norm: ``"backward"`` (None), ``"forward"`` or ``"ortho"``.
        name: A name for the operation (optional).

    Returns:
        A complex64/complex128 tensor.

    Raises:
        ValueError: if the input is not float32 or float64.
    """
    with name_scope(name, "rfftnd", [input_tensor]) as scope:
        x, axes, lengths = _prepare(input_tensor, fft_length, axes, dtypes.float32)
        if x.dtype.base_dtype not in _COMPLEX:
            raise ValueError("RFFT requires tf.float32 or tf.float64 inputs, got: %s" % x)
        x = _normalized(_pad_inner(x, lengths), lengths, norm, False)
        return rfftnd(x, lengths, axes, Tcomplex=_COMPLEX[x.dtype.base_dtype], name=scope)


def signal_irfftnd(input_tensor: TensorLike, fft_length: TensorLike | None = None,
                   axes: TensorLike | None = None, norm: str | None = None,
                   name: str | None = None) -> Any:
    """``tf.signal.irfftnd``: the inverse of :func:`signal_rfftnd` (the last length is
    ``2 * (n - 1)`` of the input's last dimension ``n`` by default).

    Args:
        input_tensor: A complex64/complex128 tensor of half spectra.
        fft_length: The FFT length for each axis.
        axes: Successive, ascending axes ending at the last one.
        norm: ``"backward"`` (None), ``"forward"`` or ``"ortho"``.
        name: A name for the operation (optional).

    Returns:
        A float32/float64 tensor.

    Raises:
        ValueError: if the input is not complex64 or complex128.
    """
    with name_scope(name, "irfftnd", [input_tensor]) as scope:
        x, axes, lengths = _prepare(input_tensor, fft_length, axes, dtypes.complex64,
                                    irfft=True)
        if x.dtype.base_dtype not in (dtypes.complex64, dtypes.complex128):
            raise ValueError("IRFFT requires tf.complex64 or tf.complex128 inputs, got: %s" % x)
        x = _normalized(_pad_inner(x, lengths, reverse=True), lengths, norm, True)
        return irfftnd(x, lengths, axes, Treal=x.dtype.base_dtype.real_dtype, name=scope)
