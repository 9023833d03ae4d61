"""flowgrad graphs as TensorFlow's GraphDefs: ``Graph.as_graph_def()`` and
``tf.io.write_graph``.

flowgrad's ops already carry TensorFlow's op type names. Where TensorFlow's op takes a
tensor that flowgrad keeps as an attribute (a reduction's axes, a reshape's shape, a
transpose's permutation, a concat's axis, ...), the exported node gets a ``Const`` input
named as TensorFlow names it (``Sum/reduction_indices``, ``Reshape/shape``,
``transpose/perm``, ``concat/axis``, ...). Each exported op type has one entry in
:data:`EXPORTERS` giving its inputs and its attributes by TensorFlow's attribute names
(``T``, ``Tidx``, ``keep_dims``, ...), so TensorFlow 2.21 imports the result. flowgrad's
own op types (those TensorFlow does not have) and ops whose attributes are Python
callables cannot be exported: a ``ValueError`` names the op."""
from __future__ import annotations

import functools
import itertools
import os
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.saved_model import tf_op_defs, tf_protos

class UnexportableOpError(ValueError):
    """An op that TensorFlow's GraphDef cannot express (named in the message)."""


class FunctionName(str):
    """The name of a library function, stored as a ``func`` attribute."""


class FunctionLibrary:
    """The FunctionDefs of one export (a GraphDef's or a MetaGraphDef's ``library``), each
    traced sub-graph written once."""

    def __init__(self, proto: Any):
        self.proto = proto
        self._names: dict = {}

    def add(self, key: Any, base: str, build: Callable[[str], Any]) -> FunctionName:
        """The name of the function for ``key``, built by ``build(name)`` the first time."""
        if key not in self._names:
            name = "%s_%d" % (re.sub(r"[^A-Za-z0-9_]", "_", base), next(_counter))
            fdef = build(name)
            self.proto.function.add().CopyFrom(fdef)
            self._names[key] = (FunctionName(name), fdef)
        return self._names[key][0]

    def is_stateful(self, name: str) -> bool:
        """Whether the function ``name`` (written by this library) has side effects."""
        for fname, fdef in self._names.values():
            if fname == name:
                return fdef.signature.is_stateful
        return True


_counter = itertools.count(1)


#: The GraphDef version TensorFlow 2.21 writes (``tf.version.GRAPH_DEF_VERSION``).
PRODUCER = 2474


def attr(value: Any) -> Any:
    """An AttrValue holding a Python value (bool, int, float, str, DType, TensorShape,
    ndarray or TensorProto, or a list of ints/floats/strings/DTypes/TensorShapes)."""
    AttrValue = tf_protos.pb().attr_value_pb2.AttrValue
    if isinstance(value, AttrValue):
        return value
    if isinstance(value, RawDataType):
        return AttrValue(type=int(value))
    if isinstance(value, FunctionName):
        return AttrValue(func=tf_protos.pb().attr_value_pb2.NameAttrList(name=str(value)))
    if isinstance(value, tf_protos.pb().tensor_pb2.TensorProto):
        return AttrValue(tensor=value)
    if isinstance(value, bool):
        return AttrValue(b=value)
    if isinstance(value, (int, np.integer)):
        return AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, dtypes.DType):
        return AttrValue(type=tf_protos.data_type(value.base_dtype))
    if isinstance(value, TensorShape):
        return AttrValue(shape=tf_protos.shape_proto(value))
    if isinstance(value, np.ndarray):
        return AttrValue(tensor=tf_protos.tensor_proto(value))
    if isinstance(value, (list, tuple)):
        lst = AttrValue.ListValue()
        for v in value:
            if isinstance(v, RawDataType):
                lst.type.append(int(v))
            elif isinstance(v, bool):
                lst.b.append(v)
            elif isinstance(v, (int, np.integer)):
                lst.i.append(int(v))
            elif isinstance(v, (float, np.floating)):
                lst.f.append(float(v))
            elif isinstance(v, str):
                lst.s.append(v.encode())
            elif isinstance(v, bytes):
                lst.s.append(v)
            elif isinstance(v, dtypes.DType):
                lst.type.append(tf_protos.data_type(v.base_dtype))
            elif isinstance(v, TensorShape):
                lst.shape.append(tf_protos.shape_proto(v))
            else:
                raise TypeError("cannot store a %s in a list attribute" % type(v).__name__)
        return AttrValue(list=lst)
    raise TypeError("cannot store a %s as an attribute" % type(value).__name__)


# --------------------------------------------------------------------------------------
# The table: op type -> (inputs, attrs)
#
# An exporter gets the Operation and returns (inputs, attrs): inputs is a list whose items
# are an int (the op's own input of that index), (suffix, array, dtype) for a Const input
# named "<op>/<suffix>", or a function of a NodeBuilder that adds the nodes computing the
# input and returns its reference; attrs maps TensorFlow's attribute names to Python values.


def _t(op: Any, i: int = 0) -> dtypes.DType:
    return (op.inputs[i] if op.inputs else op.outputs[0]).dtype.base_dtype


def _own(op: Any) -> list:
    return list(range(len(op.inputs)))


def _elementwise(op: Any) -> tuple:
    return _own(op), {"T": _t(op)}


def _no_type(op: Any) -> tuple:
    return _own(op), {}


def _ints(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.int32).reshape(-1)


def _axes(op: Any) -> np.ndarray:
    axis = op._attrs.get("axis")
    if axis is None:
        rank = op.inputs[0].shape.rank
        if rank is None:
            raise UnexportableOpError("op '%s' (%s) reduces all axes of a tensor of unknown "
                                      "rank" % (op.name, op.type))
        axis = range(rank)
    return _ints(axis if isinstance(axis, (list, tuple, range)) else [axis])


def _all_axes(op: Any) -> Callable:
    """An input builder: ``Range(0, Rank(x), 1)``, all axes of a tensor of unknown rank."""
    def build(b: Any) -> str:
        rank = b.node("Rank", "Rank", [b.input(0)], {"T": _t(op)})
        return b.node("range", "Range", [b.const("range/start", 0), rank,
                                         b.const("range/delta", 1)], {"Tidx": dtypes.int32})
    return build


def _reduce(op: Any) -> tuple:
    keep = bool(op._attrs.get("keepdims", False))
    if len(op.inputs) > 1:                  # the axes computed at run time
        return [0, 1], {"T": _t(op), "Tidx": _t(op, 1), "keep_dims": keep}
    if op._attrs.get("axis") is None and op.inputs[0].shape.rank is None:
        return [0, _all_axes(op)], {"T": _t(op), "Tidx": dtypes.int32, "keep_dims": keep}
    return [0, ("reduction_indices", _axes(op), dtypes.int32)], {
        "T": _t(op), "Tidx": dtypes.int32, "keep_dims": keep}


def _attr_or_input(op: Any, key: str, suffix: str) -> list:
    """The op's input 0, then its attribute ``key`` as a Const input (or its input 1)."""
    if key in op._attrs and op._attrs[key] is not None:
        return [0, (suffix, _ints(op._attrs[key]), dtypes.int32)]
    return [0, 1]


def _softmax(op: Any) -> tuple:
    axis, rank = op._attrs.get("axis", -1), op.inputs[0].shape.rank
    if axis not in (-1, None) and (rank is None or axis != rank - 1):
        raise UnexportableOpError("op '%s': TensorFlow's %s works on the last axis only "
                                  "(axis=%s)" % (op.name, op.type, axis))
    return [0], {"T": _t(op)}


def _matmul(op: Any) -> tuple:
    return [0, 1], {"T": _t(op), "transpose_a": bool(op._attrs.get("transpose_a", False)),
                    "transpose_b": bool(op._attrs.get("transpose_b", False))}


def _batch_matmul(op: Any) -> tuple:
    return [0, 1], {"T": _t(op), "adj_x": bool(op._attrs.get("adj_x", False)),
                    "adj_y": bool(op._attrs.get("adj_y", False))}


def _const(op: Any) -> tuple:
    value = np.asarray(op._attrs["value"])
    dt = op.outputs[0].dtype.base_dtype
    return [], {"dtype": dt, "value": tf_protos.tensor_proto(value, dt)}


def _placeholder(op: Any) -> tuple:
    return [], {"dtype": op.outputs[0].dtype.base_dtype,
                "shape": TensorShape(op._attrs.get("shape"))}


def _variable(op: Any) -> tuple:
    return [], {"dtype": op.outputs[0].dtype.base_dtype, "shape": TensorShape(op._attrs["shape"]),
                "container": "", "shared_name": ""}


def _assign(op: Any) -> tuple:
    return [0, 1], {"T": _t(op), "validate_shape": bool(op._attrs.get("validate_shape", True)),
                    "use_locking": True}


def _reshape(op: Any) -> tuple:
    inputs = _attr_or_input(op, "shape", "shape")
    return inputs, {"T": _t(op), "Tshape": dtypes.int32}


def _transpose(op: Any) -> tuple:
    if op._attrs.get("perm") is None:        # a permutation computed at run time: input 1
        return [0, 1], {"T": _t(op), "Tperm": op.inputs[1].dtype.base_dtype}
    return [0, ("perm", _ints(op._attrs["perm"]), dtypes.int32)], {"T": _t(op),
                                                                  "Tperm": dtypes.int32}


def _concat(op: Any) -> tuple:
    n = len(op.inputs)
    return list(range(n)) + [("axis", np.int32(op._attrs["axis"]), dtypes.int32)], {
        "T": _t(op), "N": n, "Tidx": dtypes.int32}


def _arg(op: Any) -> tuple:
    return [0, ("dimension", np.int32(op._attrs["axis"]), dtypes.int32)], {
        "T": _t(op), "Tidx": dtypes.int32, "output_type": op.outputs[0].dtype}


def _expand_dims(op: Any) -> tuple:
    return [0, ("dim", np.int32(op._attrs["axis"]), dtypes.int32)], {"T": _t(op),
                                                                    "Tdim": dtypes.int32}


def _squeeze(op: Any) -> tuple:
    return [0], {"T": _t(op), "squeeze_dims": [int(d) for d in
                                                op._attrs.get("squeeze_dims") or ()]}


def _cast(op: Any) -> tuple:
    return [0], {"SrcT": _t(op), "DstT": op.outputs[0].dtype, "Truncate": False}


def _pack(op: Any) -> tuple:
    return _own(op), {"T": _t(op), "N": len(op.inputs), "axis": int(op._attrs.get("axis", 0))}


def _unpack(op: Any) -> tuple:
    return [0], {"T": _t(op), "num": len(op.outputs), "axis": int(op._attrs.get("axis", 0))}


def _shape(op: Any) -> tuple:
    return [0], {"T": _t(op), "out_type": op.outputs[0].dtype}


def _strided_slice(op: Any) -> tuple:
    a = op._attrs
    masks = {"begin_mask": a.get("begin_mask", 0), "end_mask": a.get("end_mask", 0),
             "ellipsis_mask": a.get("ellipsis_mask", 0),
             "new_axis_mask": a.get("new_axis_mask", 0),
             "shrink_axis_mask": a.get("shrink_axis_mask", 0)}
    if a.get("begin") is None:          # begin/end/strides are tensors (x[:n])
        return _own(op), {"T": _t(op), "Index": _t(op, 1), **masks}
    return [0, ("stack", _ints(a["begin"]), dtypes.int32),
            ("stack_1", _ints(a["end"]), dtypes.int32),
            ("stack_2", _ints(a["strides"]), dtypes.int32)], {
        "T": _t(op), "Index": dtypes.int32, **masks}


def _strided_slice_grad(op: Any) -> tuple:
    """StridedSliceGrad: flowgrad keeps constant begin/end/strides as attributes, TensorFlow
    takes them as inputs (before ``dy``)."""
    a = op._attrs
    masks = {k: a.get(k, 0) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                       "new_axis_mask", "shrink_axis_mask")}
    index = _t(op, 0)
    if a.get("begin") is None:
        return _own(op), {"T": _t(op, 4), "Index": index, **masks}
    return [0, ("begin", _ints(a["begin"]), index), ("end", _ints(a["end"]), index),
            ("strides", _ints(a["strides"]), index), 1], {"T": _t(op, 1), "Index": index,
                                                         **masks}


def _unsorted_segment_sum(op: Any) -> tuple:
    """UnsortedSegmentSum: flowgrad keeps a known ``num_segments`` as an attribute."""
    n = op._attrs.get("num_segments")
    attrs = {"T": _t(op), "Tindices": _t(op, 1)}
    if n is None:
        return _own(op), {**attrs, "Tnumsegments": _t(op, 2)}
    return [0, 1, ("num_segments", np.int32(n), dtypes.int32)], {
        **attrs, "Tnumsegments": dtypes.int32}


def _fill(op: Any) -> tuple:
    if "shape" in op._attrs and op._attrs["shape"] is not None:
        return [("dims", _ints(op._attrs["shape"]), dtypes.int32), 0], {
            "T": _t(op), "index_type": dtypes.int32}
    return [1, 0], {"T": _t(op), "index_type": dtypes.int32}     # flowgrad: (value, dims)


def _tile(op: Any) -> tuple:
    return _attr_or_input(op, "multiples", "multiples"), {"T": _t(op),
                                                         "Tmultiples": dtypes.int32}


def _reverse(op: Any) -> tuple:
    tidx = op.inputs[1].dtype.base_dtype if len(op.inputs) > 1 else dtypes.int32
    return _attr_or_input(op, "axis", "axis"), {"T": _t(op), "Tidx": tidx}


def _gather(op: Any) -> tuple:
    return [0, 1, ("axis", np.int32(op._attrs.get("axis", 0)), dtypes.int32)], {
        "Tparams": _t(op), "Tindices": _t(op, 1), "Taxis": dtypes.int32,
        "batch_dims": int(op._attrs.get("batch_dims", 0))}


def _slice(op: Any) -> tuple:
    if op._attrs.get("begin") is None:       # begin and size computed at run time: inputs
        return [0, 1, 2], {"T": _t(op), "Index": op.inputs[1].dtype.base_dtype}
    return [0, ("begin", _ints(op._attrs["begin"]), dtypes.int32),
            ("size", _ints(op._attrs["size"]), dtypes.int32)], {"T": _t(op),
                                                               "Index": dtypes.int32}


def _pad(op: Any) -> tuple:
    p = np.asarray(op._attrs["paddings"], np.int32).reshape(-1, 2)
    return [0, ("paddings", p, dtypes.int32)], {"T": _t(op), "Tpaddings": dtypes.int32}


def _split(op: Any) -> tuple:
    if op._attrs.get("axis") is None:       # flowgrad: (value, axis); TensorFlow the reverse
        return [1, 0], {"T": _t(op), "num_split": int(op._attrs["num_split"])}
    return [("split_dim", np.int32(op._attrs["axis"]), dtypes.int32), 0], {
        "T": _t(op), "num_split": int(op._attrs["num_split"])}


def _split_v(op: Any) -> tuple:
    """SplitV: flowgrad keeps known sizes and axis as attributes, TensorFlow takes inputs."""
    a = op._attrs
    n = int(a["num_split"])
    if a.get("size_splits") is None:
        return _own(op), {"T": _t(op), "Tlen": _t(op, 1), "num_split": n}
    return [0, ("size_splits", _ints(a["size_splits"]), dtypes.int32),
            ("split_dim", np.int32(a["axis"]), dtypes.int32)], {
        "T": _t(op), "Tlen": dtypes.int32, "num_split": n}


def _unsorted_segment(op: Any) -> tuple:
    """flowgrad holds a known ``num_segments`` as an attribute (TensorFlow's is an input)."""
    n = op._attrs.get("num_segments")
    last = [2] if n is None else [("num_segments", np.int32(n), dtypes.int32)]
    return [0, 1] + last, {"T": _t(op), "Tindices": _t(op, 1),
                           "Tnumsegments": _t(op, 2) if n is None else dtypes.int32}


def _bias_add(op: Any) -> tuple:
    return [0, 1], {"T": _t(op), "data_format": op._attrs.get("data_format", "NHWC")}


def _conv2d(op: Any) -> tuple:
    a = op._attrs
    return [0, 1], {"T": _t(op), "strides": list(a["strides"]), "padding": a["padding"],
                    "explicit_paddings": list(a.get("explicit_paddings") or ()),
                    "data_format": a.get("data_format", "NHWC"),
                    "dilations": list(a.get("dilations") or (1, 1, 1, 1)),
                    "use_cudnn_on_gpu": True}


def _pool(op: Any) -> tuple:
    a = op._attrs
    return [0], {"T": _t(op), "ksize": list(a["ksize"]), "strides": list(a["strides"]),
                 "padding": a["padding"], "data_format": a.get("data_format", "NHWC")}


def _random(op: Any) -> tuple:
    shape = op._attrs.get("shape")
    inputs = [0] if shape is None else [("shape", _ints(shape), dtypes.int32)]
    return inputs, {"T": _t(op) if shape is None else dtypes.int32,
                    "dtype": op.outputs[0].dtype, "seed": int(op._attrs.get("seed", 0)),
                    "seed2": int(op._attrs.get("seed2", 0))}


def _one_hot(op: Any) -> tuple:
    depth = op._attrs.get("depth")
    inputs = [0, ("depth", np.int32(depth), dtypes.int32), 1, 2] if depth is not None \
        else [0, 1, 2, 3]
    return inputs, {"T": op.outputs[0].dtype, "TI": _t(op), "axis": int(op._attrs.get("axis",
                                                                                   -1))}


def _cumsum(op: Any) -> tuple:
    return [0, ("axis", np.int32(op._attrs["axis"]), dtypes.int32)], {
        "T": _t(op), "Tidx": dtypes.int32, "exclusive": bool(op._attrs.get("exclusive")),
        "reverse": bool(op._attrs.get("reverse"))}


def _depthwise(op: Any) -> tuple:
    inputs, attrs = _conv2d(op)
    attrs.pop("use_cudnn_on_gpu")
    return inputs, attrs


EXPORTERS: dict[str, Callable] = {
    "Const": _const, "Placeholder": _placeholder,
    "PlaceholderWithDefault": lambda op: ([0], {"dtype": _t(op),
                                                "shape": TensorShape(op._attrs["shape"])}),
    "NoOp": _no_type, "Identity": _elementwise, "StopGradient": _elementwise,
    "IdentityN": lambda op: (_own(op), {"T": [t.dtype.base_dtype for t in op.inputs]}),
    "VariableV2": _variable, "Assign": _assign,
    "AssignAdd": lambda op: ([0, 1], {"T": _t(op), "use_locking": False}),
    "AssignSub": lambda op: ([0, 1], {"T": _t(op), "use_locking": False}),
    "MatMul": _matmul, "BatchMatMulV2": _batch_matmul, "BiasAdd": _bias_add,
    "Softmax": _softmax, "LogSoftmax": _softmax,
    "LeakyRelu": lambda op: ([0], {"T": _t(op), "alpha": float(op._attrs.get("alpha", 0.2))}),
    "Conv2D": _conv2d, "MaxPool": _pool, "AvgPool": _pool,
    "DepthwiseConv2dNative": _depthwise, "OneHot": _one_hot, "Cumsum": _cumsum,
    "Reshape": _reshape, "Transpose": _transpose, "ConcatV2": _concat,
    "ExpandDims": _expand_dims, "Squeeze": _squeeze, "Cast": _cast, "Pack": _pack,
    "Unpack": _unpack, "Shape": _shape, "Size": _shape, "Rank": _elementwise,
    "StridedSlice": _strided_slice, "StridedSliceGrad": _strided_slice_grad, "Fill": _fill,
    "UnsortedSegmentSum": _unsorted_segment_sum,
    "Tile": _tile, "GatherV2": _gather,
    "ReverseV2": _reverse,
    "Slice": _slice, "Pad": _pad, "Split": _split, "SplitV": _split_v,
    "BroadcastTo": lambda op: (_attr_or_input(op, "shape", "shape"), {
        "T": _t(op), "Tidx": _t(op, 1) if len(op.inputs) > 1 else dtypes.int32}),
    "Range": lambda op: (_own(op), {"Tidx": _t(op)}),
    "SelectV2": lambda op: (_own(op), {"T": _t(op, 1)}),
    "AddN": lambda op: (_own(op), {"T": _t(op), "N": len(op.inputs)}),
    "ArgMax": _arg, "ArgMin": _arg,
    "RandomUniform": _random, "RandomStandardNormal": _random, "TruncatedNormal": _random,
    "Sum": _reduce, "Mean": _reduce, "Max": _reduce, "Min": _reduce, "Prod": _reduce,
    "All": lambda op: (_reduce(op)[0], {k: v for k, v in _reduce(op)[1].items() if k != "T"}),
    "Any": lambda op: (_reduce(op)[0], {k: v for k, v in _reduce(op)[1].items() if k != "T"}),
}
for _name in ("Abs", "Neg", "Exp", "Log", "Log1p", "Expm1", "Sqrt", "Rsqrt", "Square",
              "Reciprocal", "Sin", "Cos", "Tan", "Tanh", "Sigmoid", "Relu", "Relu6", "Elu",
              "Selu", "Softplus", "Softsign", "Sign", "Floor", "Ceil", "Round", "Rint", "Erf",
              "Erfc", "IsFinite", "IsNan", "IsInf", "AddV2", "Sub", "Mul", "RealDiv", "DivNoNan",
              "FloorDiv", "FloorMod", "Maximum", "Minimum", "Pow", "SquaredDifference", "Equal",
              "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "ZerosLike",
              "OnesLike"):
    EXPORTERS[_name] = _elementwise
for _name in ("LogicalNot", "LogicalAnd", "LogicalOr"):
    EXPORTERS[_name] = _no_type
for _name in ("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
              "UnsortedSegmentProd"):
    EXPORTERS[_name] = _unsorted_segment


# --------------------------------------------------------------------------------------
# Graphs


#: Op types whose exporter adds functions to a library: op type -> exporter(op, library).
CONTROL_FLOW_EXPORTERS: dict[str, Callable] = {}
#: Op types whose outputs TensorFlow numbers differently: op type -> index(tensor).
OUTPUT_INDEX: dict[str, Callable] = {}


def output_index(t: Any) -> int:
    """The index TensorFlow's op gives the output ``t`` of a flowgrad op (they differ for
    the While op, whose TensorFlow form starts with the iteration counter)."""
    remap = OUTPUT_INDEX.get(t.op.type)
    return t.value_index if remap is None else remap(t)


#: Op types some of whose outputs TensorFlow computes with a node of their own (the
#: TensorListStack after a While): op type -> ``f(tensor)`` giving ``(node name, node op
#: type, output index)``, or None for an output of the op's own node.
OUTPUT_NODE: dict[str, Callable] = {}


def _output_node(t: Any) -> tuple | None:
    remap = OUTPUT_NODE.get(t.op.type)
    return None if remap is None else remap(t)


def tensor_ref(t: Any) -> str:
    """A GraphDef's name of a tensor: ``op`` for output 0, ``op:i`` otherwise."""
    node = _output_node(t)
    if node is not None:
        return graph_node_ref(*node)
    i = output_index(t)
    return t.op.name if i == 0 else "%s:%d" % (t.op.name, i)


def function_ref(t: Any) -> str:
    """A FunctionDef body's name of a tensor: ``node:output_arg:index`` (the output
    argument from TensorFlow's OpDef of the op type the tensor's op is exported as)."""
    node = _output_node(t)
    if node is not None:
        return function_node_ref(*node)
    arg, i = tf_op_defs.output_arg(exported_type(t.op), output_index(t), t.op._attrs)
    return "%s:%s:%d" % (t.op.name, arg, i)


class RawDataType(int):
    """A DataType enum value for a type attribute flowgrad has no dtype of (DT_VARIANT:
    a TensorList handle)."""


#: TensorFlow's DT_VARIANT (TensorList handles).
VARIANT = RawDataType(21)


def exported_type(op: Any) -> str:
    """The op type ``op``'s last (or only) exported node has."""
    return EXPORTED_TYPE.get(op.type, op.type)


#: Op types exported as a node of another TensorFlow op type (flowgrad-internal ops
#: written as a subgraph whose last node is of this type).
EXPORTED_TYPE: dict[str, str] = {}


def graph_node_ref(name: str, op_type: str, index: int = 0, attrs: dict | None = None) -> str:
    """A GraphDef's name of output ``index`` of node ``name``."""
    return name if index == 0 else "%s:%d" % (name, index)


def function_node_ref(name: str, op_type: str, index: int = 0,
                      attrs: dict | None = None) -> str:
    """A FunctionDef body's name of output ``index`` of node ``name`` (of ``op_type``)."""
    arg, i = tf_op_defs.output_arg(op_type, index, attrs or {})
    return "%s:%s:%d" % (name, arg, i)


class NodeBuilder:
    """Writes one flowgrad op as several TensorFlow nodes (a :data:`SUBGRAPH_EXPORTERS`
    entry's argument): nodes named ``<op>/<suffix>``, the last one (``suffix=None``) named
    as the op, so that its consumers read it.

    Args:
      op: the flowgrad Operation.
      add_node: ``add_node(name, op_type, inputs, attrs, device)``.
      input_ref: the reference of one of the op's input tensors.
      node_ref: ``node_ref(name, op_type, index, attrs)``: the reference of a node's output.
    """

    def __init__(self, op: Any, add_node: Callable, input_ref: Callable, node_ref: Callable):
        self.op, self._add, self._input_ref, self._node_ref = op, add_node, input_ref, node_ref

    def input(self, i: int) -> str:
        """The reference of the op's input ``i``."""
        return self._input_ref(self.op.inputs[i])

    def const(self, suffix: str, value: Any, dt: Any = dtypes.int32) -> str:
        """A Const node ``<op>/<suffix>`` holding ``value`` (of ``dt``)."""
        value = np.asarray(value, dtype=dt.as_numpy_dtype)
        return self.node(suffix, "Const", [], {"dtype": dt,
                                                "value": tf_protos.tensor_proto(value, dt)})

    def node(self, suffix: str | None, op_type: str, inputs: list, attrs: dict,
             outputs: int = 1) -> Any:
        """Adds a node; returns the reference of its output (a list of ``outputs`` of them
        when more than one). ``suffix=None``: the op's own (last) node, which takes the op's
        control inputs."""
        name = self.op.name if suffix is None else _free_name(self.op, suffix)
        refs = list(inputs)
        if suffix is None:
            refs.extend("^" + c.name for c in self.op.control_inputs)
        self._add(name, op_type, refs, dict(attrs), self.op.device)
        out = [self._node_ref(name, op_type, i, attrs) for i in range(outputs)]
        return out[0] if outputs == 1 else out


#: flowgrad's own op types (TensorFlow has none of that name) written as several TensorFlow
#: nodes: op type -> ``fn(op, builder)`` (a :class:`NodeBuilder`).
SUBGRAPH_EXPORTERS: dict[str, Callable] = {}


# --------------------------------------------------------------------------------------
# Ops whose flowgrad form is TensorFlow's: inputs and attributes from its OpDef

#: Attributes that change nothing in flowgrad (``use_locking``: one thread updates).
_IGNORED_ATTRS = frozenset({"use_locking"})


def has_op_def_form(op_type: str) -> bool:
    """Whether flowgrad's ``op_type`` takes TensorFlow's inputs (the registered input names
    are those of TensorFlow's OpDef), so :func:`_from_op_def` writes it."""
    from flowgrad.framework import registry
    d, tf_def = registry._ops.get(op_type), tf_op_defs.get(op_type)
    return (d is not None and tf_def is not None and bool(d.input_names)
            and tuple(d.input_names) == tuple(a.name for a in tf_def.input_arg))


def _attr_python(value: Any, kind: str) -> Any:
    """A flowgrad attribute's value as :func:`attr` stores it for an OpDef attr of ``kind``."""
    if kind == "type":
        return dtypes.as_dtype(value).base_dtype
    if kind == "list(type)":
        return [dtypes.as_dtype(v).base_dtype for v in value]
    if kind == "shape":
        return TensorShape(value)
    if kind == "list(shape)":
        return [TensorShape(v) for v in value]
    if kind in ("list(int)", "list(float)", "list(string)", "list(bool)"):
        return list(value)
    if kind == "float":
        return float(value)
    if kind == "int":
        return int(value)
    if kind == "bool":
        return bool(value)
    return value


def _from_op_def(op: Any) -> tuple:
    """(inputs, attrs) of an op whose flowgrad form has TensorFlow's inputs: the type and
    count attributes from its tensors, the others from the op's attributes (by TensorFlow's
    names) or the OpDef's defaults."""
    d = tf_op_defs.get(op.type)
    known = {a.name for a in d.attr}
    stray = [k for k, v in op._attrs.items()
             if k not in known and not k.startswith("_") and v is not None]
    if stray:
        raise UnexportableOpError("Cannot export op '%s' of type %s: its attribute(s) %s have "
                                  "no counterpart in TensorFlow's %s" % (op.name, op.type,
                                                                         stray, op.type))
    fixed = sum(1 for a in d.input_arg if not (a.number_attr or a.type_list_attr))
    lists = [a for a in d.input_arg if a.number_attr or a.type_list_attr]
    # several list arguments: of one count attribute (DynamicStitch's indices and data)
    shared = len(lists) > 1 and all(a.number_attr and a.number_attr == lists[0].number_attr
                                    for a in lists) and \
        (len(op.inputs) - fixed) % len(lists) == 0
    if (len(lists) > 1 and not shared) or (not lists and len(op.inputs) != fixed):
        raise UnexportableOpError("Cannot export op '%s' of type %s: %d inputs, TensorFlow's "
                                  "OpDef has %d" % (op.name, op.type, len(op.inputs),
                                                    len(d.input_arg)))
    attrs: dict = {}
    for arg, tensors in _split_args(d.input_arg, list(op.inputs),
                                    (len(op.inputs) - fixed) // max(len(lists), 1)):
        _type_attrs(arg, tensors, attrs)
    for arg, tensors in _split_args(d.output_arg, list(op.outputs),
                                    len(op.outputs) - sum(1 for a in d.output_arg if not (
                                        a.number_attr or a.type_list_attr))):
        _type_attrs(arg, tensors, attrs, overwrite=False)
    out: dict = {}
    for a in d.attr:
        if a.name in _IGNORED_ATTRS:
            continue
        if a.name in op._attrs and op._attrs[a.name] is not None:
            out[a.name] = _attr_python(op._attrs[a.name], a.type)
        elif a.name in attrs:
            out[a.name] = attrs[a.name]
        elif a.HasField("default_value"):
            out[a.name] = a.default_value
        else:
            raise UnexportableOpError("Cannot export op '%s' of type %s: flowgrad has no value "
                                      "for TensorFlow's attribute '%s'" % (op.name, op.type,
                                                                           a.name))
    return _own(op), out


def _split_args(args: Any, tensors: list, list_len: int) -> list:
    """``[(arg, its tensors)]``: the tensors of each OpDef argument (one list argument)."""
    out, i = [], 0
    for arg in args:
        n = list_len if (arg.number_attr or arg.type_list_attr) else 1
        out.append((arg, tensors[i:i + n]))
        i += n
    return out


def _type_attrs(arg: Any, tensors: list, attrs: dict, overwrite: bool = True) -> None:
    """The type and count attributes an argument's tensors give."""
    def put(key: str, value: Any) -> None:
        if overwrite or key not in attrs:
            attrs.setdefault(key, value)
    if arg.number_attr:
        put(arg.number_attr, len(tensors))
    if arg.type_attr and tensors:
        put(arg.type_attr, tensors[0].dtype.base_dtype)
    if arg.type_list_attr:
        put(arg.type_list_attr, [t.dtype.base_dtype for t in tensors])


def exporter_kind(op_type: str) -> str | None:
    """How op type ``op_type`` is written to a GraphDef: "table" (an :data:`EXPORTERS`
    entry), "control_flow", "subgraph" (several TensorFlow nodes), "op_def" (its form is
    TensorFlow's OpDef), or None (it cannot be)."""
    if op_type in CONTROL_FLOW_EXPORTERS:
        return "control_flow"
    if op_type in EXPORTERS:
        return "table"
    if op_type in SUBGRAPH_EXPORTERS:
        return "subgraph"
    if has_op_def_form(op_type):
        return "op_def"
    return None


def _free_name(op: Any, suffix: str) -> str:
    """``<op>/<suffix>`` for a node an op's export adds, numbered past the graph's own ops of
    that name (a graph imported from TensorFlow still holds the Const a StridedSlice read)."""
    base = name = "%s/%s" % (op.name, suffix)
    ops = getattr(op.graph, "_ops_by_name", {})
    k = 0
    while name in ops:
        k += 1
        name = "%s_%d" % (base, k)
    return name


def export_op(op: Any, add_node: Callable, input_ref: Callable = tensor_ref,
              node_ref: Callable = graph_node_ref, library: Any = None) -> None:
    """Adds the NodeDef(s) of ``op`` (see :func:`_export_op`); an attribute value TensorFlow's
    AttrValue cannot hold is an ``UnexportableOpError`` naming the op."""
    try:
        _export_op(op, add_node, input_ref, node_ref, library)
    except (KeyError, TypeError) as e:
        raise UnexportableOpError("Cannot export op '%s' of type %s: %s"
                                  % (op.name, op.type, e)) from e


def _export_op(op: Any, add_node: Callable, input_ref: Callable = tensor_ref,
               node_ref: Callable = graph_node_ref, library: Any = None) -> None:
    """Adds the NodeDef(s) of ``op`` through ``add_node(name, op_type, inputs, attrs,
    device)``: its own node, the Const nodes of attributes TensorFlow takes as inputs, and
    for flowgrad's own op types the TensorFlow nodes that compute the same (their outputs
    named by ``node_ref(name, op_type, index, attrs)``: :func:`graph_node_ref` or
    :func:`function_node_ref`). A control-flow op's branches or body go into ``library``
    (a :class:`FunctionLibrary`) as FunctionDefs."""
    kind = exporter_kind(op.type)
    if kind == "subgraph":
        SUBGRAPH_EXPORTERS[op.type](op, NodeBuilder(op, add_node, input_ref, node_ref))
        return
    fn = {"table": EXPORTERS.get(op.type), "op_def": _from_op_def}.get(kind)
    if kind == "control_flow":
        if library is None:
            raise UnexportableOpError("Cannot export op '%s' of type %s here: it needs a "
                                      "function library" % (op.name, op.type))
        fn = functools.partial(CONTROL_FLOW_EXPORTERS[op.type], library=library)
    if fn is None:
        raise UnexportableOpError(
            "Cannot export op '%s' of type %s to a TensorFlow GraphDef: flowgrad has no "
            "exporter for it (flowgrad.saved_model.graph_export.exporter_kind says how each "
            "op type is written)" % (op.name, op.type))
    try:
        inputs, attrs = fn(op)
    except (KeyError, TypeError) as e:
        raise UnexportableOpError("Cannot export op '%s' of type %s: %s"
                                  % (op.name, op.type, e)) from e
    refs = []
    for i in inputs:
        if isinstance(i, int):
            refs.append(input_ref(op.inputs[i]))
        elif callable(i):                   # an input computed by nodes of its own
            refs.append(i(NodeBuilder(op, add_node, input_ref, node_ref)))
        else:
            suffix, value, dt = i
            name = _free_name(op, suffix)
            value = np.asarray(value, dtype=dt.as_numpy_dtype)
            add_node(name, "Const", [], {"dtype": dt, "value": tf_protos.tensor_proto(value, dt)},
                     op.device)
            refs.append(node_ref(name, "Const"))
    refs.extend("^" + c.name for c in op.control_inputs)
    after = attrs.pop("_after", None)
    add_node(op.name, attrs.pop("_op_type", op.type), refs, attrs, op.device)
    if after is not None:               # nodes reading the op's outputs
        after(NodeBuilder(op, add_node, input_ref, node_ref))


def to_graph_def(graph: Any, from_version: int | None = None, add_shapes: bool = False) -> Any:
    """The GraphDef of a flowgrad graph (TensorFlow's ``Graph.as_graph_def``).

    Args:
      graph: the flowgrad Graph.
      from_version: only ops added after this graph version (as TensorFlow's).
      add_shapes: add each node's ``_output_shapes`` attribute.

    Returns:
      A ``GraphDef`` proto that TensorFlow imports.

    Raises:
      ValueError: an op TensorFlow does not know, naming it.
    """
    pb = tf_protos.pb()
    gd = pb.graph_pb2.GraphDef()
    gd.versions.producer = PRODUCER
    gd.versions.min_consumer = 12

    def add_node(name: str, op_type: str, inputs: list, attrs: dict, device: str) -> None:
        node = gd.node.add(name=name, op=op_type, device=device or "")
        node.input.extend(inputs)
        for k, v in attrs.items():
            node.attr[k].CopyFrom(attr(v))

    ops = graph.get_operations()
    if from_version is not None:
        ops = ops[from_version:]
    library = FunctionLibrary(gd.library)
    for op in ops:
        export_op(op, add_node, library=library)
        if add_shapes and op.outputs:
            gd.node[-1].attr["_output_shapes"].CopyFrom(attr([t.shape for t in op.outputs]))
    return gd


def write_graph(graph_or_graph_def: Any, logdir: str, name: str, as_text: bool = True) -> str:
    """Writes a graph's GraphDef to ``logdir/name`` (text format or binary), atomically.

    Args:
      graph_or_graph_def: a Graph or a GraphDef proto.
      logdir: the directory (created if missing).
      name: the file name.
      as_text: text format (``.pbtxt``) or binary.

    Returns:
      The path written.
    """
    from flowgrad.train.checkpoint_management import write_atomically
    gd = graph_or_graph_def
    if not hasattr(gd, "SerializeToString"):
        gd = to_graph_def(gd)
    path = os.path.join(logdir, name)
    os.makedirs(logdir, exist_ok=True)
    data = (tf_protos.pb().text_format.MessageToString(gd).encode() if as_text
            else gd.SerializeToString())
    write_atomically(path, lambda f: f.write(data))
    return path


hooks.register(graph_def=to_graph_def)
