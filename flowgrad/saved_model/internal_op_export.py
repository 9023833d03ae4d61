"""flowgrad's own op types written as TensorFlow's ops, and the table entries of ops whose
flowgrad form keeps an input of TensorFlow's as an attribute (summaries' tags, top-k's k,
...).

flowgrad's gradients use a few fused helpers TensorFlow does not have; a GraphDef (a
``.meta`` file of a training graph) holds them as the small subgraphs of TensorFlow's ops
that compute the same values, the last node named as flowgrad's op:

- ``BroadcastToShapeOf(x, like)``: ``BroadcastTo(x, Shape(like))`` (after a ``Reshape`` that
  puts back the reduced axes as 1s);
- ``ReduceToShapeOf(grad, like)``: ``Reshape(Sum(grad, BroadcastGradientArgs(Shape(grad),
  Shape(like))[1], keep_dims=True), Shape(like))``, as TensorFlow's broadcasting gradients;
- ``ReducedSize(x)``: ``Cast(Size(x))``, or ``Cast(Prod(Gather(Shape(x), axes)))``;
- ``ReducedShape(shape, axes)``: ``TensorScatterUpdate(shape, axes mod Size(shape), 1)``.

- ``PrintV2`` (``tf.print``: the tensors and a template): ``StringFormat`` and TensorFlow's
  one-string ``PrintV2``;
- ``TensorArrayZeros`` / ``TensorArrayScatter`` (the dense storage of flowgrad's graph
  TensorArray, as Keras RNN layers use it): ``Fill`` and ``TensorScatterUpdate``, for arrays of
  a fixed size and a known element shape.

``GatherGradAlongAxis`` (a gather's gradient along an axis of a tensor of unknown rank),
``TensorArrayPadRows`` (a TensorArray's gradient) and ``IteratorGetNextFromStringHandle`` are
not written: exporting one is an ``UnexportableOpError`` naming it."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.saved_model.graph_export import (EXPORTED_TYPE, EXPORTERS, SUBGRAPH_EXPORTERS,
                                               NodeBuilder, UnexportableOpError)

i32 = dtypes.int32


def _dt(t: Any) -> Any:
    return t.dtype.base_dtype


def _shape(b: NodeBuilder, i: int, suffix: str) -> str:
    return b.node(suffix, "Shape", [b.input(i)], {"T": _dt(b.op.inputs[i]), "out_type": i32})


def _ones_at(b: NodeBuilder, shape: str, axes: list, suffix: str) -> str:
    """``shape`` (an int32 vector) with 1 at ``axes`` (negative ones from the end):
    ``TensorScatterUpdate(shape, reshape(axes mod size(shape), [-1, 1]), ones)``."""
    size = b.node(suffix + "/Size", "Size", [shape], {"T": i32, "out_type": i32})
    pos = b.node(suffix + "/FloorMod", "FloorMod",
                 [b.const(suffix + "/axes", [int(a) for a in axes]), size], {"T": i32})
    idx = b.node(suffix + "/Reshape", "Reshape", [pos, b.const(suffix + "/Reshape/shape",
                                                               [-1, 1])],
                 {"T": i32, "Tshape": i32})
    ones = b.const(suffix + "/ones", np.ones(len(axes), np.int32))
    return b.node(suffix, "TensorScatterUpdate", [shape, idx, ones], {"T": i32,
                                                                      "Tindices": i32})


def _broadcast_to_shape_of(op: Any, b: NodeBuilder) -> None:
    x, dt = b.input(0), _dt(op.inputs[0])
    axes = op._attrs.get("axes")
    like = _shape(b, 1, "Shape")
    if axes:                            # x lacks the reduced axes: put them back as 1s
        x = b.node("Reshape", "Reshape", [x, _ones_at(b, like, axes, "kept_shape")],
                   {"T": dt, "Tshape": i32})
    b.node(None, "BroadcastTo", [x, like], {"T": dt, "Tidx": i32})


def _reduce_to_shape_of(op: Any, b: NodeBuilder) -> None:
    dt = _dt(op.inputs[0])
    like = _shape(b, 1, "Shape_1")
    args = b.node("BroadcastGradientArgs", "BroadcastGradientArgs",
                  [_shape(b, 0, "Shape"), like], {"T": i32}, outputs=2)
    total = b.node("Sum", "Sum", [b.input(0), args[1]], {"T": dt, "Tidx": i32,
                                                          "keep_dims": True})
    b.node(None, "Reshape", [total, like], {"T": dt, "Tshape": i32})


def _reduced_size(op: Any, b: NodeBuilder) -> None:
    dt, axes, x = op._attrs["dtype"], op._attrs.get("axes"), op.inputs[0]
    if axes is None:
        n = b.node("Size", "Size", [b.input(0)], {"T": _dt(x), "out_type": i32})
    else:
        idx = b.const("axes", sorted({int(a) for a in axes}))
        rank = b.node("Rank", "Rank", [b.input(0)], {"T": _dt(x)})
        idx = b.node("FloorMod", "FloorMod", [idx, rank], {"T": i32})
        dims = b.node("GatherV2", "GatherV2", [_shape(b, 0, "Shape"), idx,
                                               b.const("GatherV2/axis", 0)],
                      {"Tparams": i32, "Tindices": i32, "Taxis": i32, "batch_dims": 0})
        n = b.node("Prod", "Prod", [dims, b.const("Prod/reduction_indices", 0)],
                   {"T": i32, "Tidx": i32, "keep_dims": False})
    b.node(None, "Cast", [n], {"SrcT": i32, "DstT": dt, "Truncate": False})


def _reduced_shape(op: Any, b: NodeBuilder) -> None:
    dt = _dt(op.inputs[0])
    if len(op.inputs) > 1:
        axes = b.input(1)
        if _dt(op.inputs[1]) != dt:
            axes = b.node("Cast", "Cast", [axes], {"SrcT": _dt(op.inputs[1]), "DstT": dt,
                                                   "Truncate": False})
    elif op._attrs.get("axis") is None:
        b.node(None, "OnesLike", [b.input(0)], {"T": dt})
        return
    else:
        axes = b.const("axes", np.ravel(op._attrs["axis"]), dt)
    size = b.node("Size", "Size", [b.input(0)], {"T": dt, "out_type": dt})
    pos = b.node("FloorMod", "FloorMod", [axes, size], {"T": dt})
    idx = b.node("Reshape", "Reshape", [pos, b.const("Reshape/shape", [-1, 1])],
                 {"T": dt, "Tshape": i32})
    count = b.node("Shape_1", "Shape", [pos], {"T": dt, "out_type": i32})
    ones = b.node("Fill", "Fill", [count, b.const("one", 1, dt)], {"T": dt, "index_type": i32})
    ones = b.node("Reshape_1", "Reshape", [ones, b.const("Reshape_1/shape", [-1])],
                  {"T": dt, "Tshape": i32})
    b.node(None, "TensorScatterUpdate", [b.input(0), idx, ones], {"T": dt, "Tindices": dt})


def _tensor_array_zeros(op: Any, b: NodeBuilder) -> None:
    elem = op._attrs["element_shape"]
    if op._attrs.get("dynamic_size"):
        raise UnexportableOpError(
            "Cannot export op '%s' (the storage of a TensorArray with dynamic_size=True): "
            "TensorFlow's dense form needs a fixed size" % op.name)
    dt = op._attrs["dtype"]
    size = b.node("size", "Reshape", [b.input(0), b.const("size/shape", [1])],
                  {"T": _dt(op.inputs[0]), "Tshape": i32})
    if _dt(op.inputs[0]) != i32:
        size = b.node("size_int32", "Cast", [size], {"SrcT": _dt(op.inputs[0]), "DstT": i32,
                                                     "Truncate": False})
    dims = b.node("dims", "ConcatV2", [size, b.const("element_shape", [
        d or 0 for d in elem.as_list()] if elem.rank is not None else [0]),
                                       b.const("dims/axis", 0)],
                  {"T": i32, "N": 2, "Tidx": i32})   # as flowgrad's: unknown sizes 0 until written
    b.node(None, "Fill", [dims, b.const("zero", np.zeros((), dt.as_numpy_dtype), dt)],
           {"T": dt, "index_type": i32})


def _tensor_array_scatter(op: Any, b: NodeBuilder) -> None:
    flow = op.inputs[0]
    if op._attrs.get("dynamic_size"):
        raise UnexportableOpError(
            "Cannot export op '%s' (a write of a TensorArray with dynamic_size=True): "
            "TensorFlow's dense form needs a fixed size" % op.name)
    dt, idx_dt = _dt(flow), _dt(op.inputs[1])
    base = b.input(0)
    if flow.shape.rank is None:         # no element written yet: the value's element shape
        rows = b.node("rows", "Slice", [_shape(b, 0, "flow_shape"), b.const("rows/begin", [0]),
                                        b.const("rows/size", [1])], {"T": i32, "Index": i32})
        elem = b.node("element_shape", "Slice", [
            _shape(b, 2, "value_shape"), b.const("element_shape/begin", [1]),
            b.const("element_shape/size", [-1])], {"T": i32, "Index": i32})
        dims = b.node("dims", "ConcatV2", [rows, elem, b.const("dims/axis", 0)],
                      {"T": i32, "N": 2, "Tidx": i32})
        base = b.node("zeros", "Fill", [dims, b.const("zero", np.zeros((), dt.as_numpy_dtype),
                                                      dt)], {"T": dt, "index_type": i32})
    elif not flow.shape[1:].is_fully_defined():    # sizes not known yet: 0 until written
        target = b.node("target", "ConcatV2", [
            b.node("rows", "Slice", [_shape(b, 0, "flow_shape"), b.const("rows/begin", [0]),
                                     b.const("rows/size", [1])], {"T": i32, "Index": i32}),
            b.node("element_shape", "Slice", [
                _shape(b, 2, "value_shape"), b.const("element_shape/begin", [1]),
                b.const("element_shape/size", [-1])], {"T": i32, "Index": i32}),
            b.const("target/axis", 0)], {"T": i32, "N": 2, "Tidx": i32})
        grow = b.node("grow", "Sub", [target, b.node("flow_shape_1", "Shape", [base], {
            "T": dt, "out_type": i32})], {"T": i32})
        pads = b.node("paddings", "Pack", [b.node("no_pad", "ZerosLike", [grow], {"T": i32}),
                                           grow], {"T": i32, "N": 2, "axis": 1})
        base = b.node("padded", "Pad", [base, pads], {"T": dt, "Tpaddings": i32})
    idx = b.node("indices", "Reshape", [b.input(1), b.const("indices/shape", [-1, 1])],
                 {"T": idx_dt, "Tshape": i32})
    b.node(None, "TensorScatterUpdate", [base, idx, b.input(2)],
           {"T": dt, "Tindices": idx_dt})


def _print_v2(op: Any, b: NodeBuilder) -> None:
    """flowgrad's PrintV2 (the inputs and a template) as TensorFlow writes ``tf.print``: a
    ``StringFormat`` of the inputs, printed by TensorFlow's one-string ``PrintV2``."""
    template = op._attrs.get("template", (-1,))
    stream = op._attrs.get("output_stream", "stderr")
    if not isinstance(stream, str) or any(isinstance(t, int) and t > 0 for t in template):
        raise UnexportableOpError(
            "Cannot export op '%s' (tf.print of a RaggedTensor, or to a Python stream object): "
            "TensorFlow's StringFormat has no counterpart" % op.name)
    text = b.input(0)
    if template != (-1,):
        holder = "{}"
        while any(isinstance(t, str) and holder in t for t in template):
            holder = "{" + holder + "}"
        text = b.node("StringFormat", "StringFormat", [b.input(i) for i in range(
            len(op.inputs))], {"T": [_dt(t) for t in op.inputs],
                               "template": "".join(t if isinstance(t, str) else holder
                                                   for t in template),
                               "placeholder": holder,
                               "summarize": int(op._attrs.get("summarize", 3))})
    b.node(None, "PrintV2", [text], {"output_stream": stream,
                                     "end": op._attrs.get("end", "\n")})


SUBGRAPH_EXPORTERS["PrintV2"] = _print_v2
SUBGRAPH_EXPORTERS.update({"TensorArrayZeros": _tensor_array_zeros,
                           "TensorArrayScatter": _tensor_array_scatter})
EXPORTED_TYPE.update({"TensorArrayZeros": "Fill", "TensorArrayScatter": "TensorScatterUpdate"})
SUBGRAPH_EXPORTERS.update({"BroadcastToShapeOf": _broadcast_to_shape_of,
                           "ReduceToShapeOf": _reduce_to_shape_of,
                           "ReducedSize": _reduced_size, "ReducedShape": _reduced_shape})
EXPORTED_TYPE.update({"BroadcastToShapeOf": "BroadcastTo", "ReduceToShapeOf": "Reshape",
                      "ReducedSize": "Cast", "ReducedShape": "TensorScatterUpdate"})


# --------------------------------------------------------------------------------------
# Ops that keep one of TensorFlow's inputs as an attribute


def _tag(op: Any) -> tuple:
    return ("tag", np.asarray(op._attrs["tag"], dtype=object), dtypes.string)


def _summary(op: Any) -> tuple:
    return [_tag(op), 0], {"T": _dt(op.inputs[0])}


def _image_summary(op: Any) -> tuple:
    a = op._attrs
    color = np.asarray(a.get("bad_color", [255, 0, 0, 255]), np.uint8).reshape(-1)
    return [_tag(op), 0], {"T": _dt(op.inputs[0]), "max_images": int(a.get("max_images", 3)),
                           "bad_color": color}


def _text_summary(op: Any) -> tuple:
    from tensorboard.compat.proto import summary_pb2
    meta = summary_pb2.SummaryMetadata()
    meta.plugin_data.plugin_name = "text"          # what tf.compat.v1.summary.text writes
    return [_tag(op), 0, ("serialized_summary_metadata",
                          np.asarray(meta.SerializeToString(), dtype=object), dtypes.string)], {
        "T": _dt(op.inputs[0])}


def _top_k(op: Any) -> tuple:
    if op._attrs.get("k") is None:
        raise UnexportableOpError("Cannot export op '%s' (TopKV2): its k is computed at run "
                                  "time" % op.name)
    return [0, ("k", np.int32(op._attrs["k"]), i32)], {
        "T": _dt(op.inputs[0]), "sorted": bool(op._attrs.get("sorted", True)),
        "Tk": i32, "index_type": op.outputs[1].dtype.base_dtype}


def _band_part(op: Any) -> tuple:
    a = op._attrs
    return [0, ("num_lower", np.int64(a["num_lower"]), dtypes.int64),
            ("num_upper", np.int64(a["num_upper"]), dtypes.int64)], {
        "T": _dt(op.inputs[0]), "Tindex": dtypes.int64}


def _softmax_xent(op: Any) -> tuple:
    axis, rank = op._attrs.get("axis", -1), op.inputs[0].shape.rank
    if axis != -1 and (rank is None or axis != rank - 1):
        raise UnexportableOpError("Cannot export op '%s': TensorFlow's "
                                  "SoftmaxCrossEntropyWithLogits works on the last axis only "
                                  "(axis=%s)" % (op.name, axis))
    return [0, 1], {"T": _dt(op.inputs[0])}


def _softmax_xent(op: Any) -> tuple:
    axis, rank = op._attrs.get("axis", -1), op.inputs[0].shape.rank
    if axis != -1 and (rank is None or axis != rank - 1):
        raise UnexportableOpError("Cannot export op '%s': TensorFlow's "
                                  "SoftmaxCrossEntropyWithLogits works on the last axis only "
                                  "(axis=%s)" % (op.name, axis))
    return [0, 1], {"T": _dt(op.inputs[0])}


def _random_int(op: Any) -> tuple:
    shape = op._attrs.get("shape")            # flowgrad: (minval, maxval[, shape])
    first = [("shape", np.asarray(shape, np.int32).reshape(-1), i32)] if shape is not None \
        else [2]
    return first + [0, 1], {"Tout": _dt(op.inputs[0]),
                            "T": i32 if shape is not None else _dt(op.inputs[2]),
                            "seed": int(op._attrs.get("seed", 0)),
                            "seed2": int(op._attrs.get("seed2", 0))}


def _sampler(param_attr: str) -> Any:
    """RandomGamma / RandomPoissonV2: flowgrad's (param[, shape]) as TensorFlow's
    (shape, param), the shape a Const when flowgrad holds it as an attribute."""
    def exporter(op: Any) -> tuple:
        shape = op._attrs.get("shape")
        first = [("shape", np.asarray(shape, np.int32).reshape(-1), i32)] if shape is not None \
            else [1]
        attrs = {"S": i32 if shape is not None else _dt(op.inputs[1]),
                 param_attr: _dt(op.inputs[0]), "seed": int(op._attrs.get("seed", 0)),
                 "seed2": int(op._attrs.get("seed2", 0))}
        if "dtype" in op._attrs:
            attrs["dtype"] = op._attrs["dtype"]
        return first + [0], attrs
    return exporter


EXPORTERS.update({"RandomUniformInt": _random_int,
                  "RandomGamma": _sampler("T"), "RandomPoissonV2": _sampler("R"),
                  "SoftmaxCrossEntropyWithLogits": _softmax_xent,
                  "ScalarSummary": _summary, "HistogramSummary": _summary,
                  "ImageSummary": _image_summary, "TensorSummaryV2": _text_summary,
                  "TopKV2": _top_k,
                  "MatrixBandPart": _band_part})
