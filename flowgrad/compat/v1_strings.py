"""``tf.strings`` of the TF1 face: TF2's functions, with TensorFlow 1's signatures where they
differ (``split`` gives a SparseTensor unless ``result_type="RaggedTensor"``;
``reduce_join``'s ``keep_dims``; ``to_number``'s ``string_tensor``; ``length``/``substr`` take
``name`` before ``unit``). ``tf.compat.v1.strings`` is TF2's ``tf.strings`` with these
(flowgrad/api/exports.py)."""
from typing import Any

from flowgrad.framework import dtypes as _dtypes
from flowgrad.ops import string_ops as _v2
from flowgrad.ops.string_ops import split_to_sparse as _split_to_sparse
from flowgrad.framework.type_hints import AxisLike, DTypeLike
from flowgrad.framework import dispatch


def split(input: Any = None, sep: Any = None, maxsplit: int = -1,  # noqa: A002 - TF's names
          result_type: str = "SparseTensor", source: Any = None, name: str | None = None) -> Any:
    """TF1's ``tf.strings.split``: a SparseTensor of the pieces (or a RaggedTensor).

    Args:
        input: A string tensor.
        sep: The separator string; None or empty splits at runs of whitespace.
        maxsplit: The most splits per string; -1 for no limit.
        result_type: ``"SparseTensor"`` or ``"RaggedTensor"``.
        source: TF1's name for ``input``.
        name: A name for the operation (optional).
    """
    if (input is None) == (source is None):
        raise ValueError("Exactly one of input and source must be given.")
    value = input if input is not None else source
    if result_type == "RaggedTensor":
        return _v2.split(value, sep, maxsplit, name)
    if result_type != "SparseTensor":
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    return _split_to_sparse(value, sep, maxsplit, name)


def reduce_join(inputs: Any, axis: AxisLike = None, keep_dims: bool | None = None,
                separator: str = "", name: str | None = None, reduction_indices: AxisLike = None,
                keepdims: bool | None = None) -> Any:
    """TF1's ``tf.strings.reduce_join`` (``keep_dims``/``reduction_indices`` accepted).

    Args:
        inputs: A string tensor.
        axis: The axis or axes to join along; all when None.
        keep_dims: Whether to keep the joined axes with length 1.
        separator: The string put between joined strings.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keepdims: TensorFlow 2's name for ``keep_dims``.
    """
    axis = reduction_indices if axis is None else axis
    keep = bool(keepdims if keepdims is not None else keep_dims)
    return _v2.reduce_join(inputs, axis, keep, separator, name)


def to_number(string_tensor: Any = None, out_type: DTypeLike = _dtypes.float32,
              name: str | None = None, input: Any = None) -> Any:  # noqa: A002
    """TF1's ``tf.strings.to_number`` (``string_tensor`` or ``input``).

    Args:
        string_tensor: A string tensor.
        out_type: float32, float64, int32 or int64.
        name: A name for the operation (optional).
        input: TensorFlow 2's name for ``string_tensor``.
    """
    return _v2.to_number(string_tensor if string_tensor is not None else input, out_type, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def length(input: Any, name: str | None = None, unit: str = "BYTE") -> Any:  # noqa: A002
    """TF1's ``tf.strings.length``.

    Args:
        input: A string tensor.
        name: A name for the operation (optional).
        unit: ``"BYTE"`` or ``"UTF8_CHAR"``.
    """
    return _v2.length(input, unit, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def substr(input: Any, pos: Any, len: Any, name: str | None = None,  # noqa: A002
           unit: str = "BYTE") -> Any:
    """TF1's ``tf.strings.substr``.

    Args:
        input: A string tensor.
        pos: The start of each substring (negative: from the end).
        len: The length of each substring.
        name: A name for the operation (optional).
        unit: ``"BYTE"`` or ``"UTF8_CHAR"``.
    """
    return _v2.substr(input, pos, len, unit, name)

