"""TensorFlow's NodeDefs as flowgrad ops: ``tf.compat.v1.import_graph_def`` and the body
importer that the SavedModel and MetaGraph loaders share.

Each supported op type has one entry in :data:`IMPORTERS`: a function of the node's input
tensors, its attributes (decoded from AttrValues) and its name that builds the op with
flowgrad's own op functions. Inputs that TensorFlow passes as tensors but flowgrad keeps as
attributes (a reduction's axes, a reshape's shape, a transpose's permutation, ...) are read
from constant inputs; where they are not constant, flowgrad's dynamic form of the op is
used. An op type without an entry is an ``InvalidArgumentError`` naming the op type and the
node (and the function it is in).

Variables: ``VariableV2`` nodes become flowgrad variables' ``VariableV2`` ops, and so do
resource variables (``VarHandleOp``); their ``ReadVariableOp`` reads are identities of the
variable and ``AssignVariableOp`` an ``Assign``. Inside a function of a SavedModel, a
resource handle is the loaded flowgrad variable it was captured from.

Names: a GraphDef names an output ``node`` or ``node:i``; a FunctionDef body names one
``node:output_arg:i`` (the i-th tensor of that output argument) and the function's arguments
by their names. Control inputs are ``^node`` in both."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase, constant
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.ops import (
    arithmetic_ops,
    cast_ops,
    comparison_ops,
    concat_ops,
    constant_ops,
    conv_ops,
    fill_ops,
    indexing_ops,
    matmul_ops,
    nn_ops,
    pooling_ops,
    reduction_ops,
    shape_ops,
    slicing_ops,
    state_ops,
    sum_ops,
)
from flowgrad.saved_model import tf_protos
from flowgrad.framework.type_hints import DTypeLike

# --------------------------------------------------------------------------------------
# Attributes


def attr_value(av: Any) -> Any:
    """The Python value of an AttrValue: str, int, float, bool, DType, TensorShape, ndarray,
    a list of those, or the NameAttrList of a function attribute."""
    kind = av.WhichOneof("value")
    if kind == "s":
        return av.s.decode("utf-8", "replace")
    if kind in ("i", "f", "b"):
        return getattr(av, kind)
    if kind == "type":
        return _dtype_or_name(av.type)
    if kind == "shape":
        return tf_protos.as_shape(av.shape)
    if kind == "tensor":
        return tf_protos.to_array(av.tensor)
    if kind == "func":
        return av.func
    if kind == "placeholder":
        return av.placeholder
    if kind == "list":
        lst = av.list
        for field, conv in (("s", lambda v: v.decode("utf-8", "replace")), ("i", int),
                            ("f", float), ("b", bool), ("type", _dtype_or_name),
                            ("shape", tf_protos.as_shape), ("tensor", tf_protos.to_array),
                            ("func", lambda v: v)):
            vals = getattr(lst, field)
            if len(vals):
                return [conv(v) for v in vals]
        return []
    return None


def _dtype_or_name(enum: int) -> Any:
    """A DataType enum value as a flowgrad dtype, or its name where flowgrad has none
    (``DT_VARIANT``, ``DT_RESOURCE``: handles)."""
    try:
        return tf_protos.as_dtype(enum)
    except TypeError:
        return tf_protos.pb().types_pb2.DataType.Name(enum)


def _with_defaults(node: Any) -> dict:
    """A node's attributes, with the OpDef's defaults of those it leaves out (a SavedModel's
    FunctionDefs leave attributes at their default value out)."""
    from flowgrad.saved_model import tf_op_defs
    attrs = node_attrs(node)
    d = tf_op_defs.get(node.op)
    if d is not None:
        for a in d.attr:
            if a.name not in attrs and a.HasField("default_value"):
                attrs[a.name] = attr_value(a.default_value)
    return attrs


def node_attrs(node: Any) -> dict:
    """A NodeDef's attributes as Python values (TensorFlow's private ``_*`` ones left out)."""
    return {k: attr_value(v) for k, v in node.attr.items() if not k.startswith("_")}


# --------------------------------------------------------------------------------------
# The table: op type -> builder(inputs, attrs, name)


def _static(t: Any, what: str, node: str) -> Any:
    """The constant value of an input flowgrad keeps as an attribute."""
    from flowgrad.ops.array_op_util import constant_value
    v = constant_value(t) if isinstance(t, TensorBase) else t
    if v is None:
        raise errors.UnimplementedError(None, None, "Node '%s': flowgrad needs its %s to be a "
                                        "constant (it is computed at run time)" % (node, what))
    return np.asarray(v)


def _axis_list(t: Any, node: str) -> list:
    return [int(a) for a in np.ravel(_static(t, "axis", node))]


def _same(op_type: str) -> Callable:
    """An op whose flowgrad form takes the same inputs and no attributes."""
    return lambda ins, a, name: apply_op(op_type, ins, {}, name=name)


def _reduce(fn: Callable) -> Callable:
    def build(ins: list, a: dict, name: str) -> Any:
        from flowgrad.ops.array_op_util import constant_value
        axes = constant_value(ins[1])        # else a tensor: computed at run time
        axes = ins[1] if axes is None else [int(x) for x in np.ravel(axes)]
        return fn(ins[0], axes, keepdims=bool(a.get("keep_dims", False)), name=name)
    return build


def _variable(ins: list, a: dict, name: str) -> Any:
    return apply_op("VariableV2", [], {"shape": a["shape"], "dtype": a["dtype"]}, name=name)


def _read(ins: list, a: dict, name: str) -> Any:
    return constant_ops.identity(ins[0], name=name)


def _variable_shape(ins: list, a: dict, name: str) -> Any:
    """``VariableShape``: a resource variable's shape (TensorFlow's gradients of reads)."""
    from flowgrad.ops import array_ops
    return array_ops.shape(constant_ops.identity(ins[0]), out_type=a.get("out_type",
                                                                         dtypes.int32),
                           name=name)


def _resource_gather(ins: list, a: dict, name: str) -> Any:
    """``ResourceGather``: rows of a resource variable (``tf.gather`` on a variable)."""
    from flowgrad.ops.indexing_ops import gather
    return gather(constant_ops.identity(ins[0]), ins[1], batch_dims=a.get("batch_dims", 0),
                  name=name)


def _assign(ins: list, a: dict, name: str) -> Any:
    ref, value = ins
    if hasattr(ref, "assign") and not isinstance(ref, Tensor):       # a loaded variable
        return ref.assign(value, name=name)
    return state_ops.assign(ref, value, validate_shape=a.get("validate_shape", True),
                            name=name)


def _assign_update(kind: str) -> Callable:
    def build(ins: list, a: dict, name: str) -> Any:
        ref, value = ins
        if hasattr(ref, kind) and not isinstance(ref, Tensor):
            return getattr(ref, kind)(value, name=name)
        op_type = "AssignAdd" if kind == "assign_add" else "AssignSub"
        return apply_op(op_type, [ref, value], {}, name=name)
    return build


def _no_op(ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops.control_flow_ops import no_op
    return no_op(name=name)


def _const(ins: list, a: dict, name: str) -> Any:
    value = a["value"]
    return constant(value, dtype=a["dtype"], shape=value.shape, name=name)


def _placeholder(ins: list, a: dict, name: str) -> Any:
    shape = a.get("shape")
    return constant_ops.placeholder(a["dtype"], shape=shape, name=name)


def _strided_slice(ins: list, a: dict, name: str) -> Any:
    return slicing_ops.strided_slice(
        ins[0], ins[1], ins[2], ins[3], begin_mask=a.get("begin_mask", 0),
        end_mask=a.get("end_mask", 0), ellipsis_mask=a.get("ellipsis_mask", 0),
        new_axis_mask=a.get("new_axis_mask", 0), shrink_axis_mask=a.get("shrink_axis_mask", 0),
        name=name)


def _conv2d(ins: list, a: dict, name: str) -> Any:
    padding = a["padding"]
    if padding == "EXPLICIT":
        ep = a["explicit_paddings"]
        padding = [ep[i:i + 2] for i in range(0, len(ep), 2)]
    return conv_ops.conv2d_v2(ins[0], ins[1], strides=a["strides"], padding=padding,
                              data_format=a.get("data_format", "NHWC"),
                              dilations=a.get("dilations"), name=name)


def _pool(fn: Callable) -> Callable:
    return lambda ins, a, name: fn(ins[0], ksize=a["ksize"], strides=a["strides"],
                                   padding=a["padding"], data_format=a.get("data_format",
                                                                           "NHWC"), name=name)


def _split(ins: list, a: dict, name: str) -> Any:
    axis, value = ins
    return concat_ops.split(value, a["num_split"], axis=int(_static(axis, "axis", name)),
                            name=name)


def _split_v(ins: list, a: dict, name: str) -> Any:
    value, sizes, axis = ins
    return concat_ops.split(value, [int(s) for s in _static(sizes, "size_splits", name)],
                            axis=int(_static(axis, "axis", name)), name=name)


def _einsum(ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops.einsum_ops import einsum
    return einsum(a["equation"], *ins, name=name)


def _leaky_relu(ins: list, a: dict, name: str) -> Any:
    return nn_ops.leaky_relu(ins[0], alpha=a.get("alpha", 0.2), name=name)


def _top_k(ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops.sort_ops import top_k
    return top_k(ins[0], int(_static(ins[1], "k", name)), sorted=a.get("sorted", True),
                 index_type=a.get("index_type", dtypes.int32), name=name)


def _depthwise(ins: list, a: dict, name: str) -> Any:
    return conv_ops.depthwise_conv2d_native(
        ins[0], ins[1], strides=a["strides"], padding=a["padding"],
        data_format=a.get("data_format", "NHWC"), dilations=a.get("dilations"), name=name)


def _random(op_type: str) -> Callable:
    def build(ins: list, a: dict, name: str) -> Any:
        from flowgrad.ops.array_op_util import constant_value
        attrs = {"dtype": a["dtype"], "seed": a.get("seed", 0), "seed2": a.get("seed2", 0)}
        shape = constant_value(ins[0])
        if shape is None:                   # computed at run time (a dropout mask's)
            return apply_op(op_type, [ins[0]], attrs, name=name)
        attrs["shape"] = tuple(int(d) for d in np.ravel(shape))
        return apply_op(op_type, [], attrs, name=name)
    return build


def _summary(op_type: str, *keys: str) -> Callable:
    """A TF1 summary op: its ``tag`` input is flowgrad's attribute."""
    def build(ins: list, a: dict, name: str) -> Any:
        tag = _static(ins[0], "tag", name).reshape(-1)[0]
        attrs = {"tag": tag.decode() if isinstance(tag, bytes) else str(tag)}
        attrs.update({k: a[k] for k in keys if k in a})
        return apply_op(op_type, [ins[1]], attrs, name=name)
    return build


def _sampler(op_type: str) -> Callable:
    """RandomGamma / RandomPoissonV2: TensorFlow's (shape, param) as flowgrad's
    (param[, shape]), a constant shape as the ``shape`` attribute."""
    def build(ins: list, a: dict, name: str) -> Any:
        from flowgrad.ops.array_op_util import constant_value
        attrs = {"seed": a.get("seed", 0), "seed2": a.get("seed2", 0)}
        if "dtype" in a:
            attrs["dtype"] = a["dtype"]
        shape = constant_value(ins[0])
        if shape is None:
            return apply_op(op_type, [ins[1], ins[0]], attrs, name=name)
        attrs["shape"] = tuple(int(d) for d in np.ravel(shape))
        return apply_op(op_type, [ins[1]], attrs, name=name)
    return build


def _random_int(ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops.array_op_util import constant_value
    attrs = {"seed": a.get("seed", 0), "seed2": a.get("seed2", 0)}
    shape = constant_value(ins[0])
    if shape is None:
        return apply_op("RandomUniformInt", [ins[1], ins[2], ins[0]], attrs, name=name)
    attrs["shape"] = tuple(int(d) for d in np.ravel(shape))
    return apply_op("RandomUniformInt", [ins[1], ins[2]], attrs, name=name)


class TableHandle:
    """A lookup table of an imported graph or SavedModel (TensorFlow's ``HashTableV2``
    resource): its contents come from the ``InitializeTable*`` node that fills it, and a
    lookup is a flowgrad ``StaticHashTable`` of them (one per default value).

    Args:
      key_dtype: the keys' dtype.
      value_dtype: the values' dtype.
      name: the table node's name.
    """

    def __init__(self, key_dtype: DTypeLike, value_dtype: DTypeLike, name: str):
        self.key_dtype, self.value_dtype, self.name = key_dtype, value_dtype, name
        self.initializer: Any = None
        self._tables: dict = {}

    def table(self, default: Any = None) -> Any:
        """The flowgrad table of this resource's contents with ``default`` for missing keys."""
        from flowgrad.ops.lookup_ops import StaticHashTable
        if self.initializer is None:
            raise errors.FailedPreconditionError(None, None, "Table %s not initialized: no "
                                                 "InitializeTable node fills it" % self.name)
        value = np.asarray(default if default is not None else -1)
        key = value.tobytes() if value.dtype != object else repr(value)
        if key not in self._tables:
            self._tables[key] = StaticHashTable(self.initializer, value, name=self.name)
        return self._tables[key]


def _filename(x: Any, node: str) -> str:
    """A table initializer's file: a SavedModel asset, or a constant string tensor."""
    path = getattr(x, "asset_path", x)
    if isinstance(path, (str, bytes)):
        return path.decode() if isinstance(path, bytes) else path
    value = _static(path, "filename", node).reshape(-1)[0]
    return value.decode() if isinstance(value, bytes) else str(value)


def _init_from_file(ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops.lookup_ops import TextFileInitializer
    handle, filename = ins
    vocab = a.get("vocab_size", -1)
    handle.initializer = TextFileInitializer(
        _filename(filename, name), handle.key_dtype, a.get("key_index", -2),
        handle.value_dtype, a.get("value_index", -1),
        vocab_size=None if vocab is None or vocab < 0 else vocab,
        delimiter=a.get("delimiter", "\t"), value_index_offset=a.get("offset", 0))
    return _no_op([], a, name)


def _init_from_tensors(ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops.lookup_ops import KeyValueTensorInitializer
    handle, keys, values = ins
    handle.initializer = KeyValueTensorInitializer(
        _static(keys, "keys", name), _static(values, "values", name), handle.key_dtype,
        handle.value_dtype)
    return _no_op([], a, name)


def _lookup(ins: list, a: dict, name: str) -> Any:
    handle, keys, default = ins
    values = handle.table(_static(default, "default_value", name)).lookup(keys)
    return constant_ops.identity(values, name=name)


def _identity(ins: list, a: dict, name: str) -> Any:
    if isinstance(ins[0], TableHandle):       # a resource handle passes through
        return ins[0]
    return constant_ops.identity(ins[0], name=name)


#: The nodes that fill tables: built before the rest (flowgrad's tables are static).
TABLE_INITIALIZERS = frozenset({"InitializeTableFromTextFileV2", "InitializeTableV2"})

IMPORTERS: dict[str, Callable] = {
    "Const": _const, "Placeholder": _placeholder,
    "PlaceholderWithDefault": lambda ins, a, name: constant_ops.placeholder_with_default(
        ins[0], a["shape"], name=name),
    "Identity": _identity,
    "IdentityN": lambda ins, a, name: constant_ops.identity_n(ins, name=name),
    "StopGradient": lambda ins, a, name: constant_ops.stop_gradient(ins[0], name=name),
    "NoOp": _no_op,
    # variables
    "VariableV2": _variable, "VarHandleOp": _variable, "ReadVariableOp": _read,
    "VariableShape": _variable_shape,
    "ResourceGather": _resource_gather,
    "Assign": _assign, "AssignVariableOp": _assign,
    "AssignAdd": _assign_update("assign_add"), "AssignAddVariableOp": _assign_update("assign_add"),
    "AssignSub": _assign_update("assign_sub"), "AssignSubVariableOp": _assign_update("assign_sub"),
    # linear algebra and nn
    "MatMul": lambda ins, a, name: matmul_ops.matmul(
        ins[0], ins[1], transpose_a=a.get("transpose_a", False),
        transpose_b=a.get("transpose_b", False), name=name),
    "BatchMatMulV2": lambda ins, a, name: matmul_ops.matmul(
        ins[0], ins[1], adjoint_a=a.get("adj_x", False), adjoint_b=a.get("adj_y", False),
        name=name),
    "BiasAdd": lambda ins, a, name: nn_ops.bias_add(
        ins[0], ins[1], data_format=a.get("data_format", "NHWC"), name=name),
    "Softmax": lambda ins, a, name: nn_ops.softmax(ins[0], name=name),
    "LogSoftmax": lambda ins, a, name: nn_ops.log_softmax(ins[0], name=name),
    "LeakyRelu": _leaky_relu, "Conv2D": _conv2d,
    "MaxPool": _pool(pooling_ops.max_pool2d), "AvgPool": _pool(pooling_ops.avg_pool2d),
    "Einsum": _einsum,
    # shapes
    "Reshape": lambda ins, a, name: shape_ops.reshape(ins[0], ins[1], name=name),
    "Transpose": lambda ins, a, name: shape_ops.transpose(ins[0], ins[1], name=name),
    "Squeeze": lambda ins, a, name: shape_ops.squeeze(
        ins[0], a.get("squeeze_dims") or None, name=name),
    "ExpandDims": lambda ins, a, name: shape_ops.expand_dims(
        ins[0], int(_static(ins[1], "axis", name)), name=name),
    "Shape": lambda ins, a, name: shape_ops.shape(
        ins[0], out_type=a.get("out_type", dtypes.int32), name=name),
    "Size": lambda ins, a, name: shape_ops.size(
        ins[0], out_type=a.get("out_type", dtypes.int32), name=name),
    "Rank": lambda ins, a, name: shape_ops.rank(ins[0], name=name),
    "ShapeN": lambda ins, a, name: [shape_ops.shape(x, out_type=a.get("out_type", dtypes.int32),
                                                    name="%s_%d" % (name, i) if i else name)
                                    for i, x in enumerate(ins)],
    "SoftmaxCrossEntropyWithLogits": lambda ins, a, name: apply_op(
        "SoftmaxCrossEntropyWithLogits", ins, {"axis": -1}, name=name),
    "Pack": lambda ins, a, name: shape_ops.stack(ins, axis=a.get("axis", 0), name=name),
    "Unpack": lambda ins, a, name: shape_ops.unstack(ins[0], num=a.get("num"),
                                                     axis=a.get("axis", 0), name=name),
    "ConcatV2": lambda ins, a, name: concat_ops.concat(
        ins[:-1], int(_static(ins[-1], "axis", name)), name=name),
    "Split": _split, "SplitV": _split_v,
    "Tile": lambda ins, a, name: concat_ops.tile(ins[0], ins[1], name=name),
    "StridedSlice": _strided_slice,
    "Slice": lambda ins, a, name: slicing_ops.slice(ins[0], ins[1], ins[2], name=name),
    "Pad": lambda ins, a, name: slicing_ops.pad(ins[0], ins[1], name=name),
    "Fill": lambda ins, a, name: fill_ops.fill(ins[0], ins[1], name=name),
    "ZerosLike": lambda ins, a, name: fill_ops.zeros_like(ins[0], name=name),
    "OnesLike": lambda ins, a, name: fill_ops.ones_like(ins[0], name=name),
    "Range": lambda ins, a, name: fill_ops.range(ins[0], ins[1], ins[2], name=name),
    "BroadcastTo": lambda ins, a, name: shape_ops.broadcast_to(ins[0], ins[1], name=name),
    "GatherV2": lambda ins, a, name: indexing_ops.gather(
        ins[0], ins[1], axis=int(_static(ins[2], "axis", name)),
        batch_dims=a.get("batch_dims", 0), name=name),
    "Cast": lambda ins, a, name: cast_ops.cast(ins[0], a["DstT"], name=name),
    "SelectV2": lambda ins, a, name: comparison_ops.where(ins[0], ins[1], ins[2], name=name),
    "AddN": lambda ins, a, name: arithmetic_ops.add_n(ins, name=name),
    # reductions
    "Sum": _reduce(sum_ops.reduce_sum), "Mean": _reduce(reduction_ops.reduce_mean),
    "Max": _reduce(reduction_ops.reduce_max), "Min": _reduce(reduction_ops.reduce_min),
    "Prod": _reduce(reduction_ops.reduce_prod), "All": _reduce(reduction_ops.reduce_all),
    "Any": _reduce(reduction_ops.reduce_any),
    "ArgMax": lambda ins, a, name: reduction_ops.argmax(
        ins[0], int(_static(ins[1], "dimension", name)),
        output_type=a.get("output_type", dtypes.int64), name=name),
    "ArgMin": lambda ins, a, name: reduction_ops.argmin(
        ins[0], int(_static(ins[1], "dimension", name)),
        output_type=a.get("output_type", dtypes.int64), name=name),
    "TopKV2": _top_k,
    "OneHot": lambda ins, a, name: fill_ops.one_hot(
        ins[0], int(_static(ins[1], "depth", name)), ins[2], ins[3], axis=a.get("axis", -1),
        name=name),
    "Cumsum": lambda ins, a, name: reduction_ops.cumsum(
        ins[0], int(_static(ins[1], "axis", name)), exclusive=a.get("exclusive", False),
        reverse=a.get("reverse", False), name=name),
    "DepthwiseConv2dNative": _depthwise,
    "RandomUniform": _random("RandomUniform"),
    "RandomStandardNormal": _random("RandomStandardNormal"),
    "TruncatedNormal": _random("TruncatedNormal"), "RandomUniformInt": _random_int,
    "RandomGamma": _sampler("RandomGamma"), "RandomPoissonV2": _sampler("RandomPoissonV2"),
    "MatrixBandPart": lambda ins, a, name: apply_op("MatrixBandPart", [ins[0]], {
        "num_lower": int(_static(ins[1], "num_lower", name)),
        "num_upper": int(_static(ins[2], "num_upper", name))}, name=name),
    # TF1 summaries
    "ScalarSummary": _summary("ScalarSummary"), "HistogramSummary": _summary("HistogramSummary"),
    "ImageSummary": _summary("ImageSummary", "max_images", "bad_color"),
    "TensorSummaryV2": _summary("TensorSummaryV2"),
    # lookup tables
    "HashTableV2": lambda ins, a, name: TableHandle(a["key_dtype"], a["value_dtype"], name),
    "InitializeTableFromTextFileV2": _init_from_file,
    "InitializeTableV2": _init_from_tensors,
    "LookupTableFindV2": _lookup,
    "LookupTableSizeV2": lambda ins, a, name: constant_ops.identity(ins[0].table().size(),
                                                                    name=name),
}
# Elementwise ops: the same inputs, no attributes, in flowgrad and TensorFlow alike.
for _t in ("Abs", "Neg", "Exp", "Log", "Log1p", "Expm1", "Sqrt", "Rsqrt", "Square",
           "Reciprocal", "Sin", "Cos", "Tan", "Tanh", "Sigmoid", "Relu", "Relu6", "Elu", "Selu",
           "Softplus", "Softsign", "Sign", "Floor", "Ceil", "Round", "Rint", "Erf", "Erfc",
           "IsFinite", "IsNan", "IsInf", "LogicalNot", "AddV2", "Sub", "Mul", "RealDiv",
           "DivNoNan", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Pow",
           "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
           "GreaterEqual", "LogicalAnd", "LogicalOr"):
    IMPORTERS[_t] = _same(_t)
IMPORTERS["Add"] = _same("AddV2")


def _select(ins: list, a: dict, name: str) -> Any:
    """TensorFlow 1's ``Select``: a vector condition picks rows of ``x``/``y`` (the first
    dimension), where ``SelectV2`` broadcasts it against the last (dynamic_rnn's
    ``sequence_length`` masks are such vectors)."""
    from flowgrad.ops import array_ops
    cond, x, y = ins
    cr, xr = cond.shape.rank, x.shape.rank
    if cr is not None and xr is not None:
        if cr == 1 and xr > 1:
            cond = array_ops.reshape(cond, [-1] + [1] * (xr - 1))
    else:                   # the condition's shape padded with 1s to the rank of x
        ones = array_ops.fill(array_ops.reshape(array_ops.rank(x) - array_ops.rank(cond),
                                                [1]), 1)
        cond = array_ops.reshape(cond, array_ops.concat([array_ops.shape(cond), ones], 0))
    return comparison_ops.where(cond, x, y, name=name)


IMPORTERS["Select"] = _select
IMPORTERS["Div"] = lambda ins, a, name: arithmetic_ops.div(ins[0], ins[1], name=name)



# --------------------------------------------------------------------------------------
# Ops whose flowgrad form is TensorFlow's (the same inputs): built from the OpDef

#: TensorFlow's resource-variable forms of flowgrad's update ops (the same inputs, the
#: variable a handle): ``ResourceApplyAdam`` -> ``ApplyAdam``, ...
RESOURCE_FORMS = {"ResourceApply": "Apply", "ResourceSparseApply": "SparseApply",
                  "ResourceScatter": "Scatter"}


def op_def_form(op_type: str) -> str | None:
    """The flowgrad op type that builds a node of TensorFlow's ``op_type`` from its inputs
    as they are (``op_type`` itself, or the ref form of a ``Resource*`` update), None if
    flowgrad's form of it differs."""
    from flowgrad.saved_model.graph_export import has_op_def_form
    for prefix, ref in RESOURCE_FORMS.items():
        if op_type.startswith(prefix):
            target = ref + op_type[len(prefix):]
            return target if has_op_def_form(target) else None
    return op_type if has_op_def_form(op_type) else None


class _All:
    """Contains every name (a kernel taking ``**kwargs``)."""

    def __contains__(self, name: object) -> bool:
        return True


ALL = _All()


def _kernel_keywords(op_type: str, required: bool = True) -> Any:
    """The keyword arguments flowgrad's kernel of ``op_type`` requires (or, with
    ``required=False``, takes)."""
    import inspect
    from flowgrad.framework import registry
    d = registry._ops.get(op_type)
    try:
        params = inspect.signature(d.kernel).parameters if d is not None else {}
    except (TypeError, ValueError):
        return set()
    if not required and any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return ALL         # (``**masks``: StridedSliceGrad's)
    return {n for n, p in params.items()
            if p.kind is p.KEYWORD_ONLY and (p.default is p.empty or not required)}


def _defaults_taken(op_type: str, op_def: Any, derived: set) -> dict:
    """{name: default} of the OpDef's attributes with a default that flowgrad's kernel of
    ``op_type`` takes as a keyword (a SavedModel leaves default values out)."""
    required = _kernel_keywords(op_type, required=False)
    return {a.name: attr_value(a.default_value) for a in op_def.attr
            if a.name in required and a.name not in derived and a.name != "use_locking" and
            a.HasField("default_value")}


def build_from_op_def(op_type: str, node_op: str, ins: list, a: dict, name: str) -> Any:
    """A node built as flowgrad's ``op_type`` on its inputs, with the attributes flowgrad's
    op takes: the ones TensorFlow's OpDef of ``node_op`` does not derive from the inputs'
    dtypes (``use_locking`` left out)."""
    from flowgrad.saved_model import tf_op_defs
    d = tf_op_defs.get(node_op)
    derived = {arg.type_attr for arg in d.input_arg} | \
        {arg.type_list_attr for arg in d.input_arg} | {arg.number_attr for arg in d.input_arg}
    keep = _kernel_keywords(op_type)     # (a count flowgrad's kernel takes, DynamicStitch's N)
    attrs = {k: v for k, v in a.items() if (k not in derived or k in keep) and
             k != "use_locking"}
    for k, default in _defaults_taken(op_type, d, derived).items():
        attrs.setdefault(k, default)       # TensorFlow leaves attributes at their default out
    ins = [x._variable if hasattr(x, "_variable") and not isinstance(x, TensorBase) else x
           for x in ins]
    return apply_op(op_type, ins, attrs, name=name)


# --------------------------------------------------------------------------------------
# Importing a list of nodes


#: TensorFlow 1's dataflow control-flow ops (Switch/Merge conditionals, Enter/Exit frames).
V1_CONTROL_FLOW = frozenset({"Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter",
                             "Exit", "RefExit", "NextIteration", "RefNextIteration",
                             "LoopCond"})


#: ``[f(importer, nodes, prefix, skip)]``: builds nodes with control flow v1 (registered by
#: ``flowgrad.saved_model.control_flow_v1_import``, which converts its frames).
V1_BUILDER: list = [None]


def unsupported(op_type: str, node: str, where: str) -> errors.InvalidArgumentError:
    """The error for a node whose op type flowgrad cannot build."""
    return errors.InvalidArgumentError(
        None, None, "Op type not registered '%s' in flowgrad's GraphDef importer (node '%s'%s); "
        "the op types it builds are flowgrad.saved_model.graph_import.IMPORTERS"
        % (op_type, node, where))


def topological(nodes: list, inputs_of: Callable[[Any], list]) -> list:
    """``nodes`` ordered so that each comes after the nodes it reads (data and control)."""
    by_name = {n.name: n for n in nodes}
    order, state = [], {}
    for root in nodes:
        stack = [(root, False)]
        while stack:
            n, done = stack.pop()
            if done:
                state[n.name] = 2
                order.append(n)
                continue
            if state.get(n.name):
                continue
            state[n.name] = 1
            stack.append((n, True))
            for src in inputs_of(n):
                dep = by_name.get(src)
                if dep is None:
                    continue
                if state.get(src) == 1:
                    raise errors.InvalidArgumentError(
                        None, None, "The graph has a cycle through node '%s' (TF1 while loops "
                        "are not supported; TF2's functional While is)" % src)
                if not state.get(src):
                    stack.append((dep, False))
    return order


def source_node(ref: str) -> str:
    """The node an input reference (``^n``, ``n``, ``n:1``, ``n:arg:0``) reads."""
    return ref.lstrip("^").split(":", 1)[0]


class Importer:
    """Builds NodeDefs into the default graph.

    Args:
      library: FunctionDefs by name (for PartitionedCall/StatefulPartitionedCall).
      where: text naming the container, for errors (`` in function 'f'``).
      function_body: whether names are a FunctionDef body's (``node:arg:i``)."""

    def __init__(self, library: dict, where: str = "", function_body: bool = False):
        self.library = library
        self.where = where
        self.function_body = function_body
        self.values: dict[str, Any] = {}
        self.parent: Importer | None = None
        self.nodes: dict = {}

    def child(self) -> Importer:
        """An importer of a function inside this one's graph (a TensorFlow 1 loop's body, a
        branch): its own values, and this one's for the names it does not have."""
        imp = Importer(self.library, self.where, self.function_body)
        imp.parent = self
        imp.nodes = self.nodes
        return imp

    def has_local(self, name: str) -> bool:
        """Whether node ``name``'s value is this importer's own (not an enclosing one's)."""
        return name in self.values

    def lookup(self, ref: str) -> Any:
        """The tensor (or variable, for a resource handle) an input reference names."""
        parts = ref.split(":")
        out = self.values.get(parts[0])
        if out is None and self.parent is not None:
            return self.parent.lookup(ref)
        if out is None:
            raise errors.InvalidArgumentError(None, None, "Input '%s' names no node%s"
                                              % (ref, self.where))
        if not isinstance(out, list):
            return out
        if len(parts) == 1:
            i = 0
        elif len(parts) == 2:
            i = int(parts[1])
        else:
            i = self._flat_index(parts[0], parts[1], int(parts[2]))
        if i >= len(out):
            raise errors.InvalidArgumentError(None, None, "Input '%s': node '%s' has %d "
                                              "outputs%s" % (ref, parts[0], len(out), self.where))
        return out[i]

    def _flat_index(self, node: str, arg: str, i: int) -> int:
        from flowgrad.saved_model import tf_op_defs
        n = self.nodes.get(node)
        if n is None:
            return i
        counts = {k: (v.i if v.WhichOneof("value") == "i" else list(v.list.type))
                  for k, v in n.attr.items()}         # what argument lengths depend on
        return tf_op_defs.flat_output_index(n.op, arg, i, counts)

    def run(self, nodes: list, prefix: str = "", skip: Callable[[Any], bool] | None = None
            ) -> None:
        """Builds ``nodes`` (in dependency order) under the name ``prefix``."""
        self.nodes = {n.name: n for n in nodes}
        nodes = sorted(nodes, key=lambda n: n.op not in TABLE_INITIALIZERS)   # stable
        if any(node.op in V1_CONTROL_FLOW and (skip is None or not skip(node))
               for node in nodes):
            V1_BUILDER[0](self, nodes, prefix, skip)
            return
        for node in topological(nodes, lambda n: [source_node(r) for r in n.input]):
            if node.name in self.values or (skip is not None and skip(node)):
                continue
            self.build_node(node, prefix)

    def build_node(self, node: Any, prefix: str = "", fn: Callable | None = None) -> None:
        """Builds one node whose inputs are built, under the name ``prefix + node.name``
        (with ``fn(inputs, attrs, name)`` instead of its op type's importer if given)."""
        g = get_default_graph()
        data = [self.lookup(r) for r in node.input if not r.startswith("^")]
        control = [] if executing_eagerly() else [self._local_or_outer(source_node(r))
                                                  for r in node.input if r.startswith("^")]
        control = [_as_op(c) for c in control if c is not None]
        control = [c for c in control if c is not None and getattr(c, "graph", g) is g]
        name = prefix + node.name
        if control:
            with g.control_dependencies(control):
                out = self.build(node, data, name, fn)
        else:
            out = self.build(node, data, name, fn)
        self.values[node.name] = _as_outputs(out)

    def _local_or_outer(self, name: str) -> Any:
        imp: Importer | None = self
        while imp is not None:
            if name in imp.values:
                return imp.values[name]
            imp = imp.parent
        return None

    def build(self, node: Any, inputs: list, name: str, fn: Callable | None = None) -> Any:
        """One node: its importer (or ``fn``), or the call of a library function (inlined)."""
        if node.op in ("StatefulPartitionedCall", "PartitionedCall"):
            return self.call(node.attr["f"].func.name, inputs, name + "/")
        if node.op in ("If", "StatelessIf"):
            return self._if(node, inputs, name)
        if node.op in ("While", "StatelessWhile"):
            return self._while(node, inputs, name)
        if node.op in self.library:
            return self.call(node.op, inputs, name + "/")
        fn = fn or IMPORTERS.get(node.op)
        attrs = _with_defaults(node)        # the table's importers read attributes by name
        if fn is None:
            target = op_def_form(node.op)
            if target is None:
                raise unsupported(node.op, node.name, self.where)
            fn = functools.partial(build_from_op_def, target, node.op)
            attrs = node_attrs(node)        # (it takes the defaults flowgrad's kernel needs)
        try:
            return fn(inputs, attrs, name)
        except errors.OpError:
            raise
        except (ValueError, TypeError, KeyError) as e:
            raise errors.InvalidArgumentError(None, None, "Cannot import node '%s' (op %s)%s: "
                                              "%s" % (node.name, node.op, self.where, e)) from e

    def _function(self, node: Any, key: str) -> Any:
        fname = node.attr[key].func.name
        fdef = self.library.get(fname)
        if fdef is None:
            raise errors.NotFoundError(None, None, "Function '%s' (the %s of node '%s') is not "
                                       "in the graph's library%s" % (fname, key, node.name,
                                                                     self.where))
        return fdef

    def _if(self, node: Any, inputs: list, name: str) -> list:
        """TensorFlow's functional If as ``tf.cond`` over its branch functions."""
        from flowgrad.ops.cond_v2 import cond
        then_f, else_f = self._function(node, "then_branch"), self._function(node, "else_branch")
        pred, args = inputs[0], inputs[1:]

        def branch(fdef: Any, tag: str) -> Callable:
            return lambda: import_function_body(fdef, args, self.library,
                                                "%s/%s/" % (name, tag))
        out = cond(pred, branch(then_f, "then"), branch(else_f, "else"), name=name)
        return list(out) if isinstance(out, (list, tuple)) else [out]

    def _while(self, node: Any, inputs: list, name: str) -> list:
        """TensorFlow's functional While as ``tf.while_loop``: its tensor inputs are the loop
        variables; its resource inputs (variables) stay what they are in every iteration."""
        from flowgrad.ops.while_v2 import while_loop
        cond_f, body_f = self._function(node, "cond"), self._function(node, "body")
        is_var = [not isinstance(x, TensorBase) for x in inputs]
        shapes = [tf_protos.as_shape(s) for s in node.attr["output_shapes"].list.shape]
        lists = [t == 21 for t in node.attr["T"].list.type]         # DT_VARIANT: TensorLists
        shapes = [TensorShape(None) if k < len(lists) and lists[k] else s
                  for k, s in enumerate(shapes)]
        loop_vars = [x for x, v in zip(inputs, is_var) if not v]
        invariants = [s for s, v in zip(shapes, is_var) if not v] \
            if len(shapes) == len(inputs) else None
        for x, s in zip(loop_vars, invariants or ()):   # TensorFlow knew these shapes
            if isinstance(x, Tensor) and s.rank is not None and x.shape.is_compatible_with(s):
                x.set_shape(s)

        def full(xs: tuple) -> list:
            it = iter(xs)
            return [x if v else next(it) for x, v in zip(inputs, is_var)]

        def cond_fn(*xs: Any) -> Any:
            return import_function_body(cond_f, full(xs), self.library, name + "/cond/")[0]

        def body_fn(*xs: Any) -> list:
            outs = import_function_body(body_f, full(xs), self.library, name + "/body/")
            outs = [o for o, v in zip(outs, is_var) if not v]
            for o, s in zip(outs, invariants or ()):    # the shapes TensorFlow recorded
                if isinstance(o, Tensor) and s.rank is not None and \
                        o.shape.is_compatible_with(s):
                    o.set_shape(s)
            return outs
        if not loop_vars:
            raise errors.InvalidArgumentError(None, None, "While node '%s'%s has no tensor "
                                              "loop variables" % (node.name, self.where))
        finals = while_loop(cond_fn, body_fn, loop_vars, shape_invariants=invariants,
                            name=name)
        return full(tuple(finals))

    def call(self, fname: str, inputs: list, prefix: str) -> list:
        """The outputs of library function ``fname`` on ``inputs``, its body built inline."""
        fdef = self.library.get(fname)
        if fdef is None:
            raise errors.NotFoundError(None, None, "Function '%s' is not in the graph's "
                                       "library%s" % (fname, self.where))
        return import_function_body(fdef, inputs, self.library, prefix)


def _as_op(value: Any) -> Any:
    if isinstance(value, list):
        return value[0].op if value else None
    if isinstance(value, Tensor):
        return value.op
    return value if hasattr(value, "outputs") else None


def _as_outputs(out: Any) -> Any:
    """A node's value: the list of its output tensors, or the variable/op itself."""
    if isinstance(out, (list, tuple)):
        return list(out)
    if isinstance(out, EagerTensor):
        return [out]
    if isinstance(out, Tensor):
        return list(out.op.outputs) if out.value_index == 0 else [out]
    if hasattr(out, "outputs") and not hasattr(out, "assign"):      # an Operation
        return list(out.outputs) or out
    return out


def import_function_body(fdef: Any, inputs: list, library: dict, prefix: str) -> list:
    """Builds a FunctionDef's body on ``inputs`` (one per input argument) into the default
    graph under ``prefix``; returns its outputs (in output-argument order)."""
    sig = fdef.signature
    where = " in function '%s'" % sig.name
    if len(inputs) != len(sig.input_arg):
        raise errors.InvalidArgumentError(None, None, "Function '%s' takes %d inputs, got %d"
                                          % (sig.name, len(sig.input_arg), len(inputs)))
    imp = Importer(library, where, function_body=True)
    for arg, value in zip(sig.input_arg, inputs):
        imp.values[arg.name] = value if not isinstance(value, Tensor) else [value]
    imp.run(list(fdef.node_def), prefix)
    if not executing_eagerly():     # its control outputs (tf.print, ...) run on every call
        graph = get_default_graph()
        for node in fdef.control_ret.values():
            op = _as_op(imp.values.get(node))
            if op is not None and op not in graph.get_collection(SIDE_EFFECTS):
                graph.add_to_collection(SIDE_EFFECTS, op)
    return [imp.lookup(fdef.ret[arg.name]) for arg in sig.output_arg]
