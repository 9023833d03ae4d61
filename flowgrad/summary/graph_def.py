"""A flowgrad Graph as a TensorFlow ``GraphDef`` proto, for TensorBoard's graph tab."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.dtypes import DType
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.summary import protos

_DT = {"float16": "DT_HALF", "float32": "DT_FLOAT", "float64": "DT_DOUBLE",
       "bfloat16": "DT_BFLOAT16", "int8": "DT_INT8", "int16": "DT_INT16", "int32": "DT_INT32",
       "int64": "DT_INT64", "uint8": "DT_UINT8", "uint16": "DT_UINT16", "uint32": "DT_UINT32",
       "uint64": "DT_UINT64", "bool": "DT_BOOL", "string": "DT_STRING",
       "complex64": "DT_COMPLEX64", "complex128": "DT_COMPLEX128"}
_PRODUCER = 1205      # the GraphDef version TensorFlow 2.x writes
_CONST_LIMIT = 64     # Const values up to this many elements are included


def data_type(dt: DType) -> int:
    """The DataType enum value of a flowgrad dtype (ref dtypes as DT_*_REF)."""
    types_pb2 = protos.pb().types_pb2
    v = types_pb2.DataType.Value(_DT.get(dt.base_dtype.name, "DT_INVALID"))
    return v + 100 if dt.base_dtype is not dt and v else v


def _attr_value(v: Any) -> Any:
    """An AttrValue for a plain attribute value, or None for values not represented."""
    pb = protos.pb()
    AttrValue = pb.attr_value_pb2.AttrValue
    if isinstance(v, bool):
        return AttrValue(b=v)
    if isinstance(v, (int, np.integer)):
        return AttrValue(i=int(v))
    if isinstance(v, (float, np.floating)):
        return AttrValue(f=float(v))
    if isinstance(v, str):
        return AttrValue(s=v.encode())
    if isinstance(v, DType):
        return AttrValue(type=data_type(v))
    if isinstance(v, TensorShape):
        return AttrValue(shape=v.as_proto())
    if isinstance(v, np.ndarray) and v.size <= _CONST_LIMIT and v.dtype.kind in "biufc":
        return AttrValue(tensor=pb.tensor_util.make_tensor_proto(v))
    if isinstance(v, tuple) and all(isinstance(x, (int, np.integer)) for x in v):
        return AttrValue(list=AttrValue.ListValue(i=[int(x) for x in v]))
    return None


def to_graph_def(graph: Any) -> Any:
    """The GraphDef of a flowgrad Graph: nodes, inputs ('op', 'op:1', '^control'),
    device, plain attributes, output dtypes and static shapes."""
    pb = protos.pb()
    gd = pb.graph_pb2.GraphDef()
    gd.versions.producer = _PRODUCER
    AttrValue = pb.attr_value_pb2.AttrValue
    for op in graph.get_operations():
        node = gd.node.add(name=op.name, op=op.type, device=op.device)
        node.input.extend([t.op.name if t.value_index == 0 else t.name for t in op.inputs])
        node.input.extend(["^" + c.name for c in op.control_inputs])
        for k, v in sorted(op._attrs.items()):
            a = _attr_value(v)
            if a is not None:
                node.attr[k].CopyFrom(a)
        if op.outputs:
            if "T" not in node.attr and "dtype" not in node.attr:
                node.attr["T"].CopyFrom(AttrValue(type=data_type(op.outputs[0].dtype)))
            node.attr["_output_shapes"].CopyFrom(AttrValue(list=AttrValue.ListValue(
                shape=[t.shape.as_proto() for t in op.outputs])))
    return gd
