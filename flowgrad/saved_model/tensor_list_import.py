"""TensorFlow's TensorList ops (the loops of ``tf.scan``, ``tf.map_fn``, TensorArrays in
``tf.while_loop`` and Keras RNN layers, as TensorFlow 2 writes them) imported as flowgrad's
graph-mode TensorArray: a list is its *flow*, one dense tensor ``[length, *element]``
(``flowgrad.ops.tensor_array_ops``), which a While op carries as an ordinary loop variable
and whose writes and reads differentiate.

``TensorListReserve`` / ``EmptyTensorList`` are zero flows (the element shape learned from
the first write where TensorFlow's is not known), ``TensorListFromTensor`` and
``TensorListStack`` are the tensor itself, ``TensorListGetItem`` / ``TensorListGather`` gather
rows, ``TensorListSetItem`` / ``TensorListPushBack`` / ``TensorListScatterIntoExistingList``
write rows (``TensorArrayScatter``), ``TensorListLength`` / ``TensorListElementShape`` read
the flow's shape."""
from __future__ import annotations

from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.ops import array_ops, cast_ops, math_ops
from flowgrad.saved_model.graph_import import IMPORTERS

#: TensorFlow's DataType enum value of DT_VARIANT (a TensorList handle).
DT_VARIANT = 21


def _element_shape(t: Any) -> TensorShape:
    """A TensorList's element shape from its ``element_shape`` input (-1: unknown)."""
    v = constant_value(t)
    if v is None or v.ndim == 0:
        return unknown_shape()
    return TensorShape([None if d < 0 else int(d) for d in v.reshape(-1)])


def _zeros(ins: list, a: dict, name: str, size: Any, dynamic: bool) -> Any:
    return apply_op("TensorArrayZeros", [size], {
        "dtype": a["element_dtype"], "element_shape": _element_shape(ins[0]),
        "dynamic_size": dynamic}, name=name)


def _write(flow: Any, index: Any, value: Any, dynamic: bool, name: str,
           ragged: bool = False) -> Any:
    attrs = {"dynamic_size": dynamic, "rows": None}
    if ragged:              # elements may differ in shape (kept as an object array of them)
        attrs["ragged"] = True
    return apply_op("TensorArrayScatter", [flow, array_ops.reshape(index, [-1]), value],
                    attrs, name=name)


def _resize(ins: list, a: dict, name: str) -> Any:
    """TensorListResize: the list cut or padded with zero elements to ``size``."""
    flow, size = ins
    shape = array_ops.shape(flow, out_type=dtypes.int32)
    kept = math_ops.minimum(shape[0], size)
    zeros = array_ops.zeros(array_ops.concat([array_ops.reshape(size - kept, [1]), shape[1:]],
                                             0), flow.dtype.base_dtype)
    return array_ops.concat([flow[:kept], zeros], 0, name=name)


def _pop_back(ins: list, a: dict, name: str) -> list:
    """TensorListPopBack (TensorFlow's gradient loops read accumulators so): the list less
    its last element, and that element."""
    flow = ins[0]
    last = array_ops.shape(flow, out_type=dtypes.int32)[0] - 1
    rest = array_ops.identity(flow[:last], name=name)
    item = _shaped(array_ops.gather(flow, last), _element_shape(ins[1]))
    return [rest, array_ops.identity(item, name=name + "_1")]


def _shaped(t: Any, shape: TensorShape) -> Any:
    """``t`` with the static shape TensorFlow's ``element_shape`` input gives (merged)."""
    if shape.rank is not None and t.shape.is_compatible_with(shape):
        t.set_shape(shape)
    return t


def _get(ins: list, a: dict, name: str) -> Any:
    return _shaped(array_ops.gather(ins[0], ins[1], name=name), _element_shape(ins[2]))


def _stack(ins: list, a: dict, name: str) -> Any:
    elem = _element_shape(ins[1])
    out = array_ops.identity(ins[0], name=name)
    return _shaped(out, TensorShape([None]).concatenate(elem)) if elem.rank is not None else out


def _length(flow: Any) -> Any:
    return array_ops.shape(flow, out_type=dtypes.int32)[0]


IMPORTERS.update({
    "TensorListReserve": lambda ins, a, name: _zeros(ins, a, name, ins[1], False),
    "EmptyTensorList": lambda ins, a, name: _zeros(ins, a, name, 0, True),
    "TensorListFromTensor": lambda ins, a, name: array_ops.identity(ins[0], name=name),
    "TensorListStack": _stack, "TensorListGetItem": _get,
    "TensorListGather": lambda ins, a, name: array_ops.gather(ins[0], ins[1], name=name),
    "TensorListSetItem": lambda ins, a, name: _write(
        ins[0], ins[1], array_ops.expand_dims(ins[2], 0),
        bool(a.get("resize_if_index_out_of_bounds", False)), name),
    "TensorListPushBack": lambda ins, a, name: _write(
        ins[0], _length(ins[0]), array_ops.expand_dims(ins[1], 0), True, name, ragged=True),
    "TensorListPopBack": _pop_back, "TensorListResize": _resize,
    "TensorListScatterIntoExistingList": lambda ins, a, name: _write(
        ins[0], ins[2], ins[1], True, name),
    "TensorListLength": lambda ins, a, name: array_ops.identity(_length(ins[0]), name=name),
    "TensorListElementShape": lambda ins, a, name: cast_ops.cast(
        array_ops.shape(ins[0])[1:], a.get("shape_type", dtypes.int32), name=name),
})
