"""``tf.compat``: the compatibility faces (``tf.compat.v1``, ``tf.compat.v2``) and TensorFlow's
bytes/text and dimension helpers."""
from __future__ import annotations

import contextlib
import datetime
import numbers
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
from flowgrad.framework.type_hints import AxisLike, ShapeLike

#: The types TensorFlow treats as bytes or text, integers, reals and complex numbers.
bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)

# TensorFlow's forward-compatibility horizon: the date up to which graphs stay readable by
# older binaries; flowgrad reads and writes the TensorFlow 2.21 formats, so it uses 2.21's.
_HORIZON = [datetime.date(2025, 12, 1)]


def as_bytes(bytes_or_text: bytes | str, encoding: str = "utf-8") -> bytes:
    """``bytes_or_text`` as bytes (text is encoded with ``encoding``).

    Args:
      bytes_or_text: a ``bytes``, ``bytearray`` or ``str``.
      encoding: the encoding of text.

    Returns:
      The bytes.

    Raises:
      TypeError: for any other type, as TensorFlow.
    """
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


def as_text(bytes_or_text: bytes | str, encoding: str = "utf-8") -> str:
    """``bytes_or_text`` as text (bytes are decoded with ``encoding``).

    Args:
      bytes_or_text: a ``bytes`` or ``str``.
      encoding: the encoding of bytes.

    Returns:
      The text.

    Raises:
      TypeError: for any other type.
    """
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


as_str = as_text


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    """``value`` as text: bytes decoded, anything else through ``str``.

    Args:
        value: A bytes, str or any object.
        encoding: The encoding of bytes.
    """
    if isinstance(value, bytes):
        return as_str(value, encoding)
    return str(value)


def path_to_str(path: Any) -> Any:
    """A path-like object as ``str`` (other objects unchanged).

    Args:
        path: A str, bytes or ``os.PathLike``.
    """
    if isinstance(path, os.PathLike):
        return as_str_any(os.fspath(path))
    return path


def dimension_value(dimension: AxisLike) -> int | None:
    """The int (or None) of a ``Dimension`` or an int, as TensorFlow's helper.

    Args:
        dimension: An int, None or a ``Dimension``.
    """
    return getattr(dimension, "value", dimension)


def dimension_at_index(shape: ShapeLike, index: int) -> Any:
    """The dimension at ``index`` of a TensorShape (None when its rank is unknown).

    Args:
        shape: A TensorShape (or something ``tf.TensorShape`` takes).
        index: The dimension's index.
    """
    from flowgrad.framework.tensor_shape import Dimension, TensorShape

    shape = TensorShape(shape)
    if shape.rank is None:
        return Dimension(None)
    return Dimension(dimension_value(shape[index]))


def forward_compatible(year: int, month: int, day: int) -> bool:
    """Whether the forward-compatibility horizon is past the given date.

    Args:
        year: The year of the horizon.
        month: Its month.
        day: Its day.
    """
    return _HORIZON[0] > datetime.date(year, month, day)


@contextlib.contextmanager
def forward_compatibility_horizon(year: int, month: int, day: int) -> Iterator[None]:
    """A context that moves the forward-compatibility horizon to the given date (tests).

    Args:
        year: The year of the horizon.
        month: Its month.
        day: Its day.
    """
    saved = _HORIZON[0]
    _HORIZON[0] = datetime.date(year, month, day)
    try:
        yield
    finally:
        _HORIZON[0] = saved


__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types",
           "complex_types", "dimension_at_index", "dimension_value",
           "forward_compatibility_horizon", "forward_compatible", "integral_types",
           "path_to_str", "real_types"]
