"""The type aliases of flowgrad's public signatures, as ``tf.types`` has them for TensorFlow.

``TensorLike`` is what an op accepts as a tensor (TensorFlow's
``tf.types.experimental.TensorLike``: a tensor, a variable, anything with ``__tf_tensor__``, a
NumPy array or scalar, or a Python number, string or nested list); ``DTypeLike`` names a dtype;
``ShapeLike`` a (partially known) shape; ``AxisLike`` the axes of a reduction. The public
functions annotate their parameters with these and return ``TensorBase`` (``tf.Tensor``), so
``help()``, IDEs and the API reference show what each parameter takes.
"""
from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Union

import numpy as np

from flowgrad.framework import types_core
from flowgrad.framework.dtypes import DType
from flowgrad.framework.tensor_shape import TensorShape



class VariableLike(abc.ABC):  # noqa: B024 - a marker base
    """``tf.Variable`` (registered by flowgrad/ops/state_ops.py, a layer above this one)."""


#: A value an op converts to a tensor (``tf.convert_to_tensor``'s argument).
TensorLike = Union[types_core.Tensor, types_core.TensorProtocol, VariableLike, int, float, bool,
                   complex, str, bytes, list, tuple, np.ndarray, np.generic]

#: A dtype: ``tf.float32``, ``"float32"``, ``np.float32`` or ``np.dtype("float32")``.
DTypeLike = Union[DType, str, type, np.dtype]

#: A shape: a ``TensorShape`` or a list of dimensions (None where unknown).
ShapeLike = Union[TensorShape, Sequence[Union[int, None]], None]

#: The axes of a reduction: one, several (negative counts from the end), or None for all.
AxisLike = Union[int, Sequence[int], TensorLike, None]

__all__ = ["AxisLike", "DTypeLike", "ShapeLike", "TensorLike", "VariableLike"]
