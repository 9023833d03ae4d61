"""``tf.experimental.numpy``'s dtypes and its type promotion: NumPy's ``result_type`` on the
arguments' dtypes (Python scalars are weak, as in NumPy 2), with Python floats taken as
float64 unless ``experimental_enable_numpy_behavior(prefer_float32=True)``."""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework.type_hints import DTypeLike

bool_ = np.bool_
int_ = np.int64
float_ = np.float64
complex_ = np.complex128
object_ = np.object_
string_ = np.bytes_
unicode_ = np.str_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
inexact = np.inexact
iinfo = np.iinfo
issubdtype = np.issubdtype

_state = {"prefer_float32": False}


def is_prefer_float32() -> bool:
    """Whether Python floats are float32 (``prefer_float32=True`` of
    ``experimental_enable_numpy_behavior``) rather than NumPy's float64."""
    return _state["prefer_float32"]


def set_prefer_float32(value: bool) -> None:
    """Sets the dtype Python floats become (see :func:`is_prefer_float32`)."""
    _state["prefer_float32"] = bool(value)


def finfo(dtype: DTypeLike) -> np.finfo:
    """Machine limits of a floating dtype, as ``np.finfo`` (TensorFlow's dtypes accepted).

    Args:
      dtype: A floating dtype (NumPy's or TensorFlow's) or a tensor of one.

    Returns:
      ``np.finfo`` of the dtype.
    """
    return np.finfo(to_numpy_type(dtype))


def to_numpy_type(dtype: DTypeLike) -> Any:
    """NumPy's type for ``dtype`` (a TensorFlow DType, a tensor's dtype or a NumPy type)."""
    if isinstance(dtype, (TensorBase, IndexedSlices)):
        dtype = dtype.dtype
    if isinstance(dtype, dtypes.DType):
        return dtype.base_dtype.as_numpy_dtype
    return np.dtype(dtype).type


def _flatten(values: Any) -> list:
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(_flatten(v))
        else:
            out.append(v)
    return out


def _numpy_operand(x: Any) -> Any:
    """What NumPy's ``result_type`` sees for one argument."""
    if isinstance(x, numbers.Number) and not isinstance(x, np.generic):
        if is_prefer_float32():
            if isinstance(x, float):
                return np.float32(x)
            if isinstance(x, complex):
                return np.complex64(x)
        return x
    if isinstance(x, (TensorBase, IndexedSlices)) or hasattr(x, "dtype") and isinstance(
            x.dtype, dtypes.DType):
        return x.dtype.base_dtype.as_numpy_dtype
    if isinstance(x, dtypes.DType):
        return x.base_dtype.as_numpy_dtype
    return x


def result_type(*arrays_and_dtypes: Any) -> dtypes.DType:
    """The dtype NumPy's promotion gives for these arrays, Python scalars and dtypes, as
    ``tf.experimental.numpy.result_type``.

    Args:
      *arrays_and_dtypes: Tensors, NumPy arrays, Python scalars (weak, as in NumPy 2),
        sequences of them, and dtypes (NumPy's, TensorFlow's or names).

    Returns:
      The TensorFlow DType of the result.
    """
    values = [_numpy_operand(x) for x in _flatten(arrays_and_dtypes)]
    if not values:
        values = [np.asarray([])]
    return dtypes.as_dtype(np.result_type(*values))


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """The smallest dtype both ``type1`` and ``type2`` cast to safely, as
    ``np.promote_types`` (TensorFlow's dtypes accepted).

    Args:
      type1: A dtype.
      type2: A dtype.

    Returns:
      NumPy's dtype.
    """
    return np.promote_types(to_numpy_type(type1), to_numpy_type(type2))


def default_float_type() -> dtypes.DType:
    """``result_type(float)``: float64, even with ``prefer_float32`` (which changes Python
    float values, not the type ``float``), as in TensorFlow's tnp."""
    return dtypes.float64
