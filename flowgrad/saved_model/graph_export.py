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
from flowgrad.saved_model import tf_protos

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
    if isinstance(value, dtypes.DType):
        return AttrValue(type=tf_protos.data_type(value.base_dtype))
    if isinstance(value, TensorShape):
        return AttrValue(shape=tf_protos.shape_proto(value))
    if isinstance(value, np.ndarray):
        return AttrValue(tensor=tf_protos.tensor_proto(value))
    if isinstance(value, (list, tuple)):
        lst = AttrValue.ListValue()
        for v in value:
            if isinstance(v, bool):
                lst.b.append(v)
            elif isinstance(v, (int, np.integer)):
                lst.i.append(int(v))
            elif isinstance(v, (float, np.floating)):
                lst.f.append(float(v))
            elif isinstance(v, str):
                lst.s.append(v.encode())
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
# are an int (the op's own input of that index) or (suffix, array, dtype) for a Const input
# named "<op>/<suffix>"; attrs maps TensorFlow's attribute names to Python values.


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


def _reduce(op: Any) -> tuple:
    return [0, ("reduction_indices", _axes(op), dtypes.int32)], {
        "T": _t(op), "Tidx": dtypes.int32, "keep_dims": bool(op._attrs.get("keepdims", False))}


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
    return [0, ("stack", _ints(a["begin"]), dtypes.int32),
            ("stack_1", _ints(a["end"]), dtypes.int32),
            ("stack_2", _ints(a["strides"]), dtypes.int32)], {
        "T": _t(op), "Index": dtypes.int32, "begin_mask": a.get("begin_mask", 0),
        "end_mask": a.get("end_mask", 0), "ellipsis_mask": a.get("ellipsis_mask", 0),
        "new_axis_mask": a.get("new_axis_mask", 0),
        "shrink_axis_mask": a.get("shrink_axis_mask", 0)}


def _fill(op: Any) -> tuple:
    if "shape" in op._attrs and op._attrs["shape"] is not None:
        return [("dims", _ints(op._attrs["shape"]), dtypes.int32), 0], {
            "T": _t(op), "index_type": dtypes.int32}
    return [1, 0], {"T": _t(op), "index_type": dtypes.int32}     # flowgrad: (value, dims)


def _tile(op: Any) -> tuple:
    return _attr_or_input(op, "multiples", "multiples"), {"T": _t(op),
                                                         "Tmultiples": dtypes.int32}


def _gather(op: Any) -> tuple:
    return [0, 1, ("axis", np.int32(op._attrs.get("axis", 0)), dtypes.int32)], {
        "Tparams": _t(op), "Tindices": _t(op, 1), "Taxis": dtypes.int32,
        "batch_dims": int(op._attrs.get("batch_dims", 0))}


def _slice(op: Any) -> tuple:
    return [0, ("begin", _ints(op._attrs["begin"]), dtypes.int32),
            ("size", _ints(op._attrs["size"]), dtypes.int32)], {"T": _t(op),
                                                               "Index": dtypes.int32}


def _pad(op: Any) -> tuple:
    p = np.asarray(op._attrs["paddings"], np.int32).reshape(-1, 2)
    return [0, ("paddings", p, dtypes.int32)], {"T": _t(op), "Tpaddings": dtypes.int32}


def _split(op: Any) -> tuple:
    return [("split_dim", np.int32(op._attrs["axis"]), dtypes.int32), 0], {
        "T": _t(op), "num_split": int(op._attrs["num_split"])}


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
    return [("shape", _ints(op._attrs["shape"]), dtypes.int32)], {
        "T": dtypes.int32, "dtype": op.outputs[0].dtype, "seed": int(op._attrs.get("seed", 0)),
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
    "StridedSlice": _strided_slice, "Fill": _fill, "Tile": _tile, "GatherV2": _gather,
    "Slice": _slice, "Pad": _pad, "Split": _split,
    "Range": lambda op: (_own(op), {"Tidx": _t(op)}),
    "SelectV2": lambda op: (_own(op), {"T": _t(op, 1)}),
    "AddN": lambda op: (_own(op), {"T": _t(op), "N": len(op.inputs)}),
    "ArgMax": _arg, "ArgMin": _arg,
    "RandomUniform": _random, "RandomStandardNormal": _random, "TruncatedNormal": _random,
    "Sum": _reduce, "Mean": _reduce, "Max": _reduce, "Min": _reduce, "Prod": _reduce,
    "All": lambda op: (_reduce(op)[0], {"Tidx": dtypes.int32,
                                        "keep_dims": bool(op._attrs.get("keepdims"))}),
    "Any": lambda op: (_reduce(op)[0], {"Tidx": dtypes.int32,
                                        "keep_dims": bool(op._attrs.get("keepdims"))}),
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


def tensor_ref(t: Any) -> str:
    """A GraphDef's name of a tensor: ``op`` for output 0, ``op:i`` otherwise."""
    i = output_index(t)
    return t.op.name if i == 0 else "%s:%d" % (t.op.name, i)


#: The output argument of each exported op type (TensorFlow's OpDefs; "output" unless
#: listed), which FunctionDef bodies name as ``node:arg:index``.
OUTPUT_ARG = {"AddN": "sum", "MatMul": "product", "Softmax": "softmax",
              "LogSoftmax": "logsoftmax", "VariableV2": "ref", "Assign": "output_ref",
              "AssignAdd": "output_ref", "AssignSub": "output_ref",
              "ReadVariableOp": "value", "VarHandleOp": "resource", "Cumsum": "out"}
for _name in ("Abs", "Cast", "Ceil", "Cos", "Erf", "Erfc", "Exp", "Expm1", "Floor",
              "IsFinite", "IsInf", "IsNan", "Log", "Log1p", "LogicalNot", "Neg", "OnesLike",
              "Reciprocal", "Rint", "Round", "Rsqrt", "Sigmoid", "Sign", "Sin", "Sqrt", "Square",
              "Tan", "Tanh", "Transpose", "ZerosLike"):
    OUTPUT_ARG[_name] = "y"
for _name in ("AddV2", "DivNoNan", "Equal", "FloorDiv", "FloorMod", "Greater", "GreaterEqual",
              "Less", "LessEqual", "LogicalAnd", "LogicalOr", "Maximum", "Minimum", "Mul",
              "NotEqual", "Pow", "RealDiv", "SquaredDifference", "Sub"):
    OUTPUT_ARG[_name] = "z"
for _name in ("Elu", "LeakyRelu", "Relu", "Relu6", "Selu", "Softplus", "Softsign"):
    OUTPUT_ARG[_name] = "activations"


def function_ref(t: Any) -> str:
    """A FunctionDef body's name of a tensor: ``node:output_arg:index``."""
    return "%s:%s:%d" % (t.op.name, OUTPUT_ARG.get(t.op.type, "output"), output_index(t))


def export_op(op: Any, add_node: Callable, input_ref: Callable = tensor_ref,
              const_ref: Callable = lambda name: name, library: Any = None) -> None:
    """Adds the NodeDef(s) of ``op`` through ``add_node(name, op_type, inputs, attrs,
    device)``: its own node and the Const nodes of attributes TensorFlow takes as inputs
    (named for the op's inputs by ``const_ref``). A control-flow op's branches or body go
    into ``library`` (a :class:`FunctionLibrary`) as FunctionDefs."""
    fn = EXPORTERS.get(op.type)
    if op.type in CONTROL_FLOW_EXPORTERS:
        if library is None:
            raise UnexportableOpError("Cannot export op '%s' of type %s here: it needs a "
                                      "function library" % (op.name, op.type))
        fn = functools.partial(CONTROL_FLOW_EXPORTERS[op.type], library=library)
    if fn is None:
        raise UnexportableOpError(
            "Cannot export op '%s' of type %s to a TensorFlow GraphDef: flowgrad has no "
            "exporter for it (the exportable op types are "
            "flowgrad.saved_model.graph_export.EXPORTERS)" % (op.name, op.type))
    try:
        inputs, attrs = fn(op)
    except (KeyError, TypeError) as e:
        raise UnexportableOpError("Cannot export op '%s' of type %s: %s"
                                  % (op.name, op.type, e)) from e
    refs = []
    for i in inputs:
        if isinstance(i, int):
            refs.append(input_ref(op.inputs[i]))
        else:
            suffix, value, dt = i
            name = "%s/%s" % (op.name, suffix)
            value = np.asarray(value, dtype=dt.as_numpy_dtype)
            add_node(name, "Const", [], {"dtype": dt, "value": tf_protos.tensor_proto(value, dt)},
                     op.device)
            refs.append(const_ref(name))
    refs.extend("^" + c.name for c in op.control_inputs)
    add_node(op.name, attrs.pop("_op_type", op.type), refs, attrs, op.device)


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
