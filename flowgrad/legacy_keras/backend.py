"""``tf.keras.backend``: Keras's global settings (float type, epsilon, image layout) and the
helpers programs use from it (``clear_session``, ``int_shape``, ``backend()``).

Keras 3 dropped ``learning_phase``; flowgrad does too (layers take ``training=``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly, reset_default_graph, state
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"
_clear_session_callbacks: list = []


def backend() -> str:
    """The name of the backend Keras runs on (TensorFlow's API, here flowgrad's)."""
    return "tensorflow"


def floatx() -> str:
    """The default float type of new weights and inputs, as a string ('float32')."""
    return _FLOATX


def set_floatx(value: str) -> None:
    """Sets the default float type: 'float16', 'bfloat16', 'float32' or 'float64'.

    Args:
        value: ``"float16"``, ``"bfloat16"``, ``"float32"`` or ``"float64"``.
    """
    global _FLOATX
    accepted = {"float16", "bfloat16", "float32", "float64"}
    if value not in accepted:
        raise ValueError("Unknown `floatx` value: %s. Expected one of %s" % (value,
                                                                             sorted(accepted)))
    _FLOATX = str(value)


def epsilon() -> float:
    """The fuzz factor added to denominators (1e-7)."""
    return _EPSILON


def set_epsilon(value: float) -> None:
    """Sets the fuzz factor returned by ``epsilon()``.

    Args:
        value: The fuzz factor used in numeric expressions.
    """
    global _EPSILON
    _EPSILON = float(value)


def image_data_format() -> str:
    """'channels_last' (NHWC, the default) or 'channels_first' (NCHW)."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format: str) -> None:
    """Sets the default layout of image tensors for convolution and pooling layers.

    Args:
        data_format: ``"channels_last"`` or ``"channels_first"``.
    """
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         "'channels_last'}. Received: data_format=%s" % data_format)
    _IMAGE_DATA_FORMAT = data_format


def cast_to_floatx(x: Any) -> np.ndarray:
    """``x`` as a NumPy array of the ``floatx()`` type.

    Args:
        x: A NumPy array or a Python number.
    """
    return np.asarray(x, dtype=dtypes.as_dtype(_FLOATX).np)


def int_shape(x: Any) -> tuple | None:
    """The static shape of a tensor or variable as a tuple of ints and None (None if unknown).

    Args:
        x: A tensor or variable.
    """
    shape = getattr(x, "shape", None)
    if shape is None:
        shape = convert_to_tensor(x).shape
    if isinstance(shape, tuple):
        return shape
    dims = shape.as_tuple() if hasattr(shape, "as_tuple") else tuple(shape)
    return None if dims is None else tuple(dims)


def is_float_dtype(dtype: DTypeLike) -> bool:
    """Whether ``dtype`` is a floating dtype.

    Args:
        dtype: A dtype or its name.
    """
    return dtypes.as_dtype(dtype).is_floating


def is_int_dtype(dtype: DTypeLike) -> bool:
    """Whether ``dtype`` is an integer dtype.

    Args:
        dtype: A dtype or its name.
    """
    return dtypes.as_dtype(dtype).is_integer


def standardize_dtype(dtype: DTypeLike | None = None) -> str:
    """A dtype's name ('float32'); None means ``floatx()``.

    Args:
        dtype: A dtype, a NumPy dtype, a Python type or a name; the float type when None.
    """
    return _FLOATX if dtype is None else dtypes.as_dtype(dtype).name


def on_clear_session(callback: Callable[[], None]) -> None:
    """Registers a function that ``clear_session`` calls (Keras resets its layer names so).

    Args:
        callback: Called with no arguments on every ``clear_session``.
    """
    if callback not in _clear_session_callbacks:
        _clear_session_callbacks.append(callback)


def clear_session(free_memory: bool = True) -> None:
    """Resets Keras's global state: automatic layer names start again, and in graph mode
    the default graph is replaced by a new empty one.

    Args:
        free_memory: Accepted for Keras's signature.
    """
    for callback in _clear_session_callbacks:
        callback()
    if not executing_eagerly() and not state.graph_stack:
        reset_default_graph()


__all__ = ["backend", "floatx", "set_floatx", "epsilon", "set_epsilon", "image_data_format",
           "set_image_data_format", "cast_to_floatx", "int_shape", "is_float_dtype",
           "is_int_dtype", "standardize_dtype", "on_clear_session", "clear_session"]
