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
  TensorArray, as Keras RNN layers and ``dynamic_rnn`` use it): ``Fill`` and
  ``TensorScatterUpdate``; a write past the end of a ``dynamic_size=True`` array first ``Pad``s
  the storage with zero rows up to the largest index;
- ``Assert`` (its texts kept as an attribute): string ``Const`` inputs;
- ``TensorArrayPadRows`` (a write's gradient, cut or padded to the rows of the array):
  ``Slice`` and ``Pad``.

- ``GatherGradAlongAxis`` (a gather's gradient along an axis of a tensor of unknown rank):
  ``Reshape``, ``Transpose`` (the axis first), ``UnsortedSegmentSum`` and ``Transpose`` back,
  with the permutations computed from the rank at run time.

``IteratorGetNextFromStringHandle`` is not written: exporting it is an
``UnexportableOpError`` naming it."""
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


def _grow_rows(b: NodeBuilder, base: str, dt: Any, idx_dt: Any) -> str:
    """``base`` (a TensorArray's flow) padded with zero rows to hold the op's largest index
    (input 1): ``Pad(base, [[0, max(max(indices) + 1 - rows, 0)], [0, 0], ...])``."""
    top = b.node("grow/top", "Max", [b.input(1), b.const("grow/top/axis", [0])],
                 {"T": idx_dt, "Tidx": i32, "keep_dims": False})
    if idx_dt != i32:
        top = b.node("grow/top_int32", "Cast", [top], {"SrcT": idx_dt, "DstT": i32,
                                                         "Truncate": False})
    rows = b.node("grow/rows", "StridedSlice", [
        b.node("grow/shape", "Shape", [base], {"T": dt, "out_type": i32}),
        b.const("grow/rows/begin", [0]), b.const("grow/rows/end", [1]),
        b.const("grow/rows/strides", [1])],
        {"T": i32, "Index": i32, "begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
         "new_axis_mask": 0, "shrink_axis_mask": 1})
    more = b.node("grow/more", "Maximum", [
        b.node("grow/missing", "Sub", [b.node("grow/needed", "AddV2", [
            top, b.const("grow/one", 1)], {"T": i32}), rows], {"T": i32}),
        b.const("grow/zero", 0)], {"T": i32})
    first = b.node("grow/first", "Pack", [b.const("grow/none", 0), more],
                   {"T": i32, "N": 2, "axis": 0})
    rank = b.node("grow/rank", "Rank", [base], {"T": dt})
    others = b.node("grow/others", "Fill", [
        b.node("grow/others/dims", "Pack", [
            b.node("grow/others/rows", "Sub", [rank, b.const("grow/others/one", 1)],
                   {"T": i32}), b.const("grow/others/two", 2)],
               {"T": i32, "N": 2, "axis": 0}), b.const("grow/others/zero", 0)],
        {"T": i32, "index_type": i32})
    pads = b.node("grow/paddings", "ConcatV2", [
        b.node("grow/first_row", "Reshape", [first, b.const("grow/first_row/shape", [1, 2])],
               {"T": i32, "Tshape": i32}), others, b.const("grow/paddings/axis", 0)],
        {"T": i32, "N": 2, "Tidx": i32})
    return b.node("grow/padded", "Pad", [base, pads], {"T": dt, "Tpaddings": i32})


def _tensor_array_scatter(op: Any, b: NodeBuilder) -> None:
    flow = op.inputs[0]
    dt, idx_dt = _dt(flow), _dt(op.inputs[1])
    base = b.input(0)
    if flow.shape.rank is None or not flow.shape[1:].is_fully_defined():
        # the element shape is learned from the first write: storage that holds no element
        # yet (flowgrad's zeros of the size and 0 for what is unknown) becomes zeros of the
        # value's element shape, storage that does is kept: its values, padded with as many
        # zeros as the target has more (none, or all of them), reshaped to the target
        target = b.node("target", "ConcatV2", [
            b.node("rows", "Slice", [_shape(b, 0, "flow_shape"), b.const("rows/begin", [0]),
                                     b.const("rows/size", [1])], {"T": i32, "Index": i32}),
            b.node("element_shape", "Slice", [
                _shape(b, 2, "value_shape"), b.const("element_shape/begin", [1]),
                b.const("element_shape/size", [-1])], {"T": i32, "Index": i32}),
            b.const("target/axis", 0)], {"T": i32, "N": 2, "Tidx": i32})
        flat = b.node("flat", "Reshape", [base, b.const("flat/shape", [-1])],
                      {"T": dt, "Tshape": i32})
        missing = b.node("missing", "Sub", [
            b.node("target_size", "Prod", [target, b.const("target_size/axis", [0])],
                   {"T": i32, "Tidx": i32, "keep_dims": False}),
            b.node("flow_size", "Size", [base], {"T": dt, "out_type": i32})], {"T": i32})
        pads = b.node("paddings", "Reshape", [
            b.node("paddings/pair", "Pack", [b.const("paddings/none", 0), missing],
                   {"T": i32, "N": 2, "axis": 0}), b.const("paddings/shape", [1, 2])],
            {"T": i32, "Tshape": i32})
        base = b.node("storage", "Reshape", [
            b.node("padded", "Pad", [flat, pads], {"T": dt, "Tpaddings": i32}), target],
            {"T": dt, "Tshape": i32})
    if op._attrs.get("dynamic_size"):   # grown with zero rows up to the largest index
        base = _grow_rows(b, base, dt, idx_dt)
    idx = b.node("indices", "Reshape", [b.input(1), b.const("indices/shape", [-1, 1])],
                 {"T": idx_dt, "Tshape": i32})
    b.node(None, "TensorScatterUpdate", [base, idx, b.input(2)],
           {"T": dt, "Tindices": idx_dt})


def _tensor_array_pad_rows(op: Any, b: NodeBuilder) -> None:
    """``x`` cut or zero-padded to the rows of ``like`` (a TensorArray write's gradient):
    ``Pad(Slice(x, 0, [min(rows(x), rows(like)), -1, ...]), [[0, rows(like) - kept], 0...])``.
    (flowgrad's kernel gives zeros of ``like``'s shape where ``like`` held no element yet, a
    gradient that only reaches the array's first, empty, storage, which has none.)"""
    dt = _dt(op.inputs[0])

    def rows(i: int, suffix: str) -> str:
        return b.node(suffix, "StridedSlice", [
            _shape(b, i, suffix + "/shape"), b.const(suffix + "/begin", [0]),
            b.const(suffix + "/end", [1]), b.const(suffix + "/strides", [1])],
            {"T": i32, "Index": i32, "begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
             "new_axis_mask": 0, "shrink_axis_mask": 1})
    n = rows(1, "rows")
    kept = b.node("kept", "Minimum", [rows(0, "x_rows"), n], {"T": i32})
    rank = b.node("rank", "Rank", [b.input(0)], {"T": dt})
    others = b.node("others", "Sub", [rank, b.const("others/one", 1)], {"T": i32})
    begin = b.node("begin", "Fill", [b.node("begin/dims", "Reshape", [
        rank, b.const("begin/dims/shape", [1])], {"T": i32, "Tshape": i32}),
        b.const("begin/zero", 0)], {"T": i32, "index_type": i32})
    size = b.node("size", "ConcatV2", [
        b.node("size/rows", "Reshape", [kept, b.const("size/rows/shape", [1])],
               {"T": i32, "Tshape": i32}),
        b.node("size/rest", "Fill", [b.node("size/rest/dims", "Reshape", [
            others, b.const("size/rest/dims/shape", [1])], {"T": i32, "Tshape": i32}),
            b.const("size/rest/all", -1)], {"T": i32, "index_type": i32}),
        b.const("size/axis", 0)], {"T": i32, "N": 2, "Tidx": i32})
    cut = b.node("cut", "Slice", [b.input(0), begin, size], {"T": dt, "Index": i32})
    first = b.node("first", "Pack", [b.const("first/none", 0), b.node(
        "missing", "Sub", [n, kept], {"T": i32})], {"T": i32, "N": 2, "axis": 0})
    pads = b.node("paddings", "ConcatV2", [
        b.node("first_row", "Reshape", [first, b.const("first_row/shape", [1, 2])],
               {"T": i32, "Tshape": i32}),
        b.node("rest_rows", "Fill", [b.node("rest_rows/dims", "Pack", [
            others, b.const("rest_rows/two", 2)], {"T": i32, "N": 2, "axis": 0}),
            b.const("rest_rows/zero", 0)], {"T": i32, "index_type": i32}),
        b.const("paddings/axis", 0)], {"T": i32, "N": 2, "Tidx": i32})
    b.node(None, "Pad", [cut, pads], {"T": dt, "Tpaddings": i32})


def _gather_grad_along_axis(op: Any, b: NodeBuilder) -> None:
    """A gather's gradient along ``axis`` of a tensor of unknown rank (input 2, ``like``), as
    TensorFlow's gather gradient builds it: ``grad`` reshaped to ``like``'s shape with the
    gathered axis flattened, that axis moved first, ``UnsortedSegmentSum`` over the indices,
    moved back."""
    dt, idx_dt = _dt(op.inputs[0]), _dt(op.inputs[1])
    s = _shape(b, 2, "like_shape")
    rank = b.node("rank", "Size", [s], {"T": i32, "out_type": i32})
    a = b.node("axis", "FloorMod", [b.const("axis/value", int(op._attrs["axis"])), rank],
               {"T": i32})
    a1 = b.node("axis_1", "Reshape", [a, b.const("axis_1/shape", [1])],
                {"T": i32, "Tshape": i32})
    after = b.node("after", "AddV2", [a1, b.const("after/one", [1])], {"T": i32})
    outer = b.node("outer", "Slice", [s, b.const("outer/begin", [0]), a1],
                   {"T": i32, "Index": i32})
    inner = b.node("inner", "Slice", [s, after, b.const("inner/size", [-1])],
                   {"T": i32, "Index": i32})
    g = b.node("values", "Reshape", [b.input(0), b.node("values/shape", "ConcatV2", [
        outer, b.const("values/shape/rows", [-1]), inner, b.const("values/shape/axis", 0)],
        {"T": i32, "N": 3, "Tidx": i32})], {"T": dt, "Tshape": i32})
    perm = b.node("perm", "ConcatV2", [
        a1, b.node("perm/before", "Range", [b.const("perm/zero", 0), a, b.const("perm/one", 1)],
                   {"Tidx": i32}),
        b.node("perm/after", "Range", [
            b.node("perm/start", "AddV2", [a, b.const("perm/start/one", 1)], {"T": i32}),
            rank, b.const("perm/delta", 1)], {"Tidx": i32}),
        b.const("perm/axis", 0)], {"T": i32, "N": 3, "Tidx": i32})
    moved = b.node("moved", "Transpose", [g, perm], {"T": dt, "Tperm": i32})
    rows = b.node("rows", "Reshape", [b.node("rows/size", "Slice", [s, a1, b.const(
        "rows/one", [1])], {"T": i32, "Index": i32}), b.const("rows/shape", [])],
                  {"T": i32, "Tshape": i32})
    flat = b.node("indices", "Reshape", [b.input(1), b.const("indices/shape", [-1])],
                  {"T": idx_dt, "Tshape": i32})
    summed = b.node("summed", "UnsortedSegmentSum", [moved, flat, rows],
                    {"T": dt, "Tindices": idx_dt, "Tnumsegments": i32})
    b.node(None, "Transpose", [summed, b.node("inverse", "InvertPermutation", [perm],
                                              {"T": i32})], {"T": dt, "Tperm": i32})


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


def _assert(op: Any, b: NodeBuilder) -> None:
    """flowgrad's Assert keeps the Python strings of its data (``tf.Assert(c, ["x:", x])``,
    the messages of ``tf.assert_*``) as an attribute; TensorFlow's takes them as string
    ``Const`` inputs."""
    tensors = iter(range(1, len(op.inputs)))
    data = [b.const("data_%d" % k, text, dtypes.string) if text is not None
            else b.input(next(tensors)) for k, text in enumerate(op._attrs.get("texts", ()))]
    data += [b.input(i) for i in tensors]
    types = [dtypes.string if text is not None else None
             for text in op._attrs.get("texts", ())]
    it = iter(op.inputs[1:])
    types = [t or _dt(next(it)) for t in types] + [_dt(t) for t in it]
    b.node(None, "Assert", [b.input(0)] + data,
           {"T": types, "summarize": int(op._attrs.get("summarize") or 3)})


SUBGRAPH_EXPORTERS["PrintV2"] = _print_v2
SUBGRAPH_EXPORTERS["GatherGradAlongAxis"] = _gather_grad_along_axis
EXPORTED_TYPE["GatherGradAlongAxis"] = "Transpose"
SUBGRAPH_EXPORTERS["Assert"] = _assert
SUBGRAPH_EXPORTERS.update({"TensorArrayZeros": _tensor_array_zeros,
                           "TensorArrayScatter": _tensor_array_scatter,
                           "TensorArrayPadRows": _tensor_array_pad_rows})
EXPORTED_TYPE.update({"TensorArrayZeros": "Fill", "TensorArrayScatter": "TensorScatterUpdate",
                      "TensorArrayPadRows": "Pad"})
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
