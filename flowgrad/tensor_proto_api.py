"""``tf.make_tensor_proto`` and ``tf.make_ndarray``: values as TensorFlow's ``TensorProto``
and back, encoded as TensorFlow encodes them (``tensor_content`` for a full numeric tensor
of more than one element, the typed ``*_val`` fields otherwise, a value shorter than the
shape repeated when read). The protos are TensorFlow's own messages (the ``tensorboard``
package's copies; ``pip install flowgrad[tf-formats]``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.saved_model import tf_protos
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

#: The dtypes TensorFlow stores as raw ``tensor_content`` bytes.
_CONTENT = frozenset({"float32", "float64", "int32", "uint8", "int16", "int8", "int64",
                      "uint16", "uint32", "uint64", "qint8", "quint8", "qint16", "quint16",
                      "qint32"})


def make_tensor_proto(values: Any, dtype: DTypeLike | None = None, shape: ShapeLike = None,
                      verify_shape: bool = False, allow_broadcast: bool = False) -> Any:
    """A TensorProto of ``values``.

    Args:
      values: a tensor, NumPy array or Python value (Python floats become float32, ints
        int32, as ``tf.constant`` makes them).
      dtype: the proto's dtype (inferred if None).
      shape: the proto's shape (the values' if None); fewer values than the shape holds are
        repeated when read.
      verify_shape: require ``values`` to have ``shape`` exactly.
      allow_broadcast: a single value fills ``shape``; other values must have it.

    Returns:
      A ``tensorflow.TensorProto`` message.

    Raises:
      ValueError: more values than ``shape`` holds.
      TypeError: a shape ``verify_shape`` or ``allow_broadcast`` rejects.
    """
    if is_tensor(values) and hasattr(values, "numpy"):
        values = values.numpy()
    array = values if isinstance(values, np.ndarray) else \
        np.asarray(convert_to_tensor(values, dtype).numpy())
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.as_dtype(
        "string" if array.dtype.kind in "SUO" else array.dtype)
    if dt != dtypes.string:
        array = array.astype(dt.as_numpy_dtype)
    dims = list(array.shape) if shape is None else [int(d) for d in shape]
    size = int(np.prod(dims, dtype=np.int64))
    if shape is not None and list(array.shape) != dims:
        if verify_shape or (allow_broadcast and array.size != 1):
            raise TypeError("Expected Tensor's shape: %s, but got %s." % (tuple(dims),
                                                                         array.shape))
        if array.size > size:
            raise ValueError("Too many elements provided. Takes at most %d, but got %d."
                             % (size, array.size))
    if dt.name in _CONTENT and array.size == size and size > 1:
        return tf_protos.tensor_proto(array.reshape(dims), dt)
    proto = tf_protos.pb().tensor_pb2.TensorProto(dtype=tf_protos.data_type(dt),
                                                  tensor_shape=tf_protos.shape_proto(dims))
    flat = array.ravel()
    if dt == dtypes.string:
        proto.string_val.extend([v if isinstance(v, bytes) else str(v).encode() for v in flat])
    elif dt.name in ("float16", "bfloat16"):
        proto.half_val.extend(np.ascontiguousarray(flat).view(np.uint16).tolist())
    else:
        field = getattr(proto, tf_protos._VALUE_FIELDS[dt.name])
        if dt.is_complex:
            field.extend([p for c in flat.tolist() for p in (c.real, c.imag)])
        else:
            field.extend(flat.tolist())
    return proto


def make_ndarray(tensor: TensorLike) -> np.ndarray:
    """The NumPy array of a TensorProto.

    Args:
      tensor: a ``TensorProto``.

    Returns:
      The array (strings as ``bytes`` objects).
    """
    return tf_protos.to_array(tensor)


__all__ = ["make_ndarray", "make_tensor_proto"]
