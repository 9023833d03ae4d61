"""One record per TensorFlow op type: how it becomes TensorFlow Lite builtin operators.

Each record is ``f(lowering, op)``: it reads the op's inputs through
``lowering.tensor``/``lowering.const`` and adds operators with ``lowering.b.add_operator``,
giving each op output a tensor (``lowering.output``) or an alias. The layouts are
TensorFlow Lite's: fully connected weights ``[out, in]``, convolution filters ``OHWI``,
depthwise filters ``[1, H, W, C*M]``, transposed convolution filters ``[out, H, W, in]``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.tflite.graph_lowering import GraphLowering


def _options(L: GraphLowering, kind: str, **fields: Any) -> Any:
    o = getattr(L.s, kind + "OptionsT")()
    for k, v in fields.items():
        setattr(o, k, v)
    return o


def _attr(op: Any, key: str, default: Any = None) -> Any:
    v = op._attrs.get(key, default)
    return v.decode() if isinstance(v, bytes) else v


def _i32(L: GraphLowering, t: Any, name: str = "arith.constant") -> int:
    """The tensor ``t`` as int32 (TensorFlow Lite's shapes, axes and sizes)."""
    v = L.const(t)
    if v is not None:
        return L.new_const(np.asarray(v, np.int32), getattr(getattr(t, "op", None), "name",
                                                            name))
    return L.tensor(t)


def _padding(L: GraphLowering, op: Any) -> int:
    p = _attr(op, "padding", "VALID")
    if p not in ("SAME", "VALID"):
        L._unsupported(op, "padded explicitly (padding=%r)" % p)
    return getattr(L.s.Padding, p)


def _nhwc(L: GraphLowering, op: Any) -> None:
    if _attr(op, "data_format", "NHWC") not in ("NHWC", "NDHWC"):
        L._unsupported(op, "in data format %s" % _attr(op, "data_format"))


def _fused_tail(L: GraphLowering, t: Any, n: int) -> tuple:
    """Absorbs a bias add and an activation after ``t``: (result, bias or None, activation)."""
    t, bias = L.absorb_bias(t, n)
    t, act = L.absorb_activation(t)
    return t, bias, act


def fully_connected(L: GraphLowering, op: Any, x: Any, w: np.ndarray, keep_dims: bool,
                    extra_bias: np.ndarray | None = None) -> None:
    """FULLY_CONNECTED of ``x`` with weights ``w`` ``[in, out]`` (plus ``extra_bias``).

    Args:
      L: the lowering.
      op: the matrix multiplication (its output, and the ops after it that fuse).
      x: the input tensor.
      w: the weights, ``[in, out]``.
      keep_dims: keep the leading dimensions of an input of rank above 2.
      extra_bias: a bias the weights' folded producers add.
    """
    out, bias, act = _fused_tail(L, op.outputs[0], w.shape[1])
    if extra_bias is not None:
        bias = extra_bias.astype(w.dtype) if bias is None else (bias + extra_bias).astype(
            w.dtype)
    inputs = [L.tensor(x), L.new_const(np.ascontiguousarray(w.T), op.name),
              -1 if bias is None else L.new_const(bias, op.name + "/bias")]
    L.b.add_operator("FULLY_CONNECTED", inputs, [L.output(out)], _options(
        L, "FullyConnected", fusedActivationFunction=act, keepNumDims=keep_dims))


def _batch_matmul(L: GraphLowering, op: Any, adj_x: bool, adj_y: bool) -> None:
    x, y = op.inputs[0], op.inputs[1]
    w = L.const(y)
    if w is not None and w.ndim == 2 and not adj_x and L.const(x) is None:
        rank = x.shape.rank
        fully_connected(L, op, x, w.T if adj_y else w, keep_dims=rank is not None and rank > 2)
        return
    L.b.add_operator("BATCH_MATMUL", [L.tensor(x), L.tensor(y)], [L.output(op.outputs[0])],
                     _options(L, "BatchMatMul", adjX=bool(adj_x), adjY=bool(adj_y)))


def _matmul(L: GraphLowering, op: Any) -> None:
    _batch_matmul(L, op, bool(_attr(op, "transpose_a", False)),
                  bool(_attr(op, "transpose_b", False)))


def _batch_matmul_op(L: GraphLowering, op: Any) -> None:
    _batch_matmul(L, op, bool(_attr(op, "adj_x", False)), bool(_attr(op, "adj_y", False)))


def _window(op: Any, key: str) -> tuple:
    v = list(_attr(op, key, [1, 1, 1, 1]))
    return (v[1], v[2]) if len(v) == 4 else (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


def _filter(L: GraphLowering, op: Any) -> np.ndarray:
    """The constant filter of convolution ``op`` (NHWC only)."""
    _nhwc(L, op)
    f = L.const(op.inputs[1])
    if f is None:
        L._unsupported(op, "a convolution with a filter computed at run time")
    return f


def _convolution(L: GraphLowering, op: Any, kind: str, options: str, weights: np.ndarray,
                 channels: int, **fields: Any) -> None:
    """CONV_2D / DEPTHWISE_CONV_2D of ``op`` with TFLite-layout ``weights``, a bias add and
    an activation after it fused (a zero bias where none follows)."""
    out, bias, act = _fused_tail(L, op.outputs[0], channels)
    if bias is None:
        bias = np.zeros([channels], weights.dtype)
    sh, sw = _window(op, "strides")
    dh, dw = _window(op, "dilations")
    L.b.add_operator(kind, [L.tensor(op.inputs[0]), L.new_const(weights, op.name),
                            L.new_const(bias, op.name + "/bias")],
                     [L.output(out)], _options(
                         L, options, padding=_padding(L, op), strideH=sh, strideW=sw,
                         dilationHFactor=dh, dilationWFactor=dw, fusedActivationFunction=act,
                         **fields))


def _conv2d(L: GraphLowering, op: Any) -> None:
    f = _filter(L, op)
    _convolution(L, op, "CONV_2D", "Conv2D", f.transpose(3, 0, 1, 2), f.shape[3])


def _depthwise(L: GraphLowering, op: Any) -> None:
    f = _filter(L, op)
    kh, kw, c, m = f.shape
    _convolution(L, op, "DEPTHWISE_CONV_2D", "DepthwiseConv2D",
                 f.reshape(1, kh, kw, c * m), c * m, depthMultiplier=m)


def _conv2d_transpose(L: GraphLowering, op: Any) -> None:
    f = _filter(L, op)
    out, bias, act = _fused_tail(L, op.outputs[0], f.shape[2])
    sh, sw = _window(op, "strides")
    inputs = [_i32(L, op.inputs[0]), L.new_const(f.transpose(2, 0, 1, 3), op.name),
              L.tensor(op.inputs[2]),
              -1 if bias is None else L.new_const(bias, op.name + "/bias")]
    L.b.add_operator("TRANSPOSE_CONV", inputs, [L.output(out)], _options(
        L, "TransposeConv", padding=_padding(L, op), strideH=sh, strideW=sw,
        fusedActivationFunction=act))


def _pool(kind: str) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        _nhwc(L, op)
        kh, kw = _window(op, "ksize")
        sh, sw = _window(op, "strides")
        out, act = L.absorb_activation(op.outputs[0])
        L.b.add_operator(kind, [L.tensor(op.inputs[0])], [L.output(out)], _options(
            L, "Pool2D", padding=_padding(L, op), strideH=sh, strideW=sw, filterHeight=kh,
            filterWidth=kw, fusedActivationFunction=act))
    return lower


def _unary(kind: str, options: str | None = None) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        L.b.add_operator(kind, [L.tensor(op.inputs[0])], [L.output(op.outputs[0])],
                         _options(L, options) if options else None)
    return lower


def _binary(kind: str, options: str | None = None) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        L.b.add_operator(kind, [L.tensor(op.inputs[0]), L.tensor(op.inputs[1])],
                         [L.output(op.outputs[0])], _options(L, options) if options else None)
    return lower


def _softmax(kind: str, options: str) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        extra = {"beta": 1.0} if kind == "SOFTMAX" else {}
        L.b.add_operator(kind, [L.tensor(op.inputs[0])], [L.output(op.outputs[0])],
                         _options(L, options, **extra))
    return lower


def _leaky_relu(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("LEAKY_RELU", [L.tensor(op.inputs[0])], [L.output(op.outputs[0])],
                     _options(L, "LeakyRelu", alpha=float(_attr(op, "alpha", 0.2))))


def _reduce(kind: str) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        L.b.add_operator(kind, [L.tensor(op.inputs[0]), _i32(L, op.inputs[1])],
                         [L.output(op.outputs[0])],
                         _options(L, "Reducer", keepDims=bool(_attr(op, "keep_dims", False))),
                         options_type="ReducerOptions")
    return lower


def _reshape(L: GraphLowering, op: Any) -> None:
    shape = L.const(op.inputs[1])
    opts = _options(L, "Reshape", newShape=np.asarray(shape, np.int32).reshape(-1)) \
        if shape is not None else None
    L.b.add_operator("RESHAPE", [L.tensor(op.inputs[0]), _i32(L, op.inputs[1])],
                     [L.output(op.outputs[0])], opts)


def _squeeze(L: GraphLowering, op: Any) -> None:
    dims = [int(d) for d in (_attr(op, "squeeze_dims", None) or [])]
    L.b.add_operator("SQUEEZE", [L.tensor(op.inputs[0])], [L.output(op.outputs[0])],
                     _options(L, "Squeeze", squeezeDims=np.array(dims, np.int32)))


def _with_int_inputs(kind: str, options: str | None = None) -> Callable:
    """An operator whose inputs after the first are int32 shapes/axes/sizes."""
    def lower(L: GraphLowering, op: Any) -> None:
        ins = [L.tensor(op.inputs[0])] + [_i32(L, t) for t in op.inputs[1:]]
        L.b.add_operator(kind, ins, [L.output(op.outputs[0])],
                         _options(L, options) if options else None)
    return lower


def _concat(L: GraphLowering, op: Any) -> None:
    values, axis = op.inputs[:-1], L.const(op.inputs[-1])
    rank = op.outputs[0].shape.rank
    axis = int(axis) if rank is None or int(axis) >= 0 else int(axis) + rank
    out, act = L.absorb_activation(op.outputs[0])
    L.b.add_operator("CONCATENATION", [L.tensor(t) for t in values], [L.output(out)],
                     _options(L, "Concatenation", axis=axis, fusedActivationFunction=act))


def _pack(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("PACK", [L.tensor(t) for t in op.inputs], [L.output(op.outputs[0])],
                     _options(L, "Pack", valuesCount=len(op.inputs),
                              axis=int(_attr(op, "axis", 0))))


def _unpack(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("UNPACK", [L.tensor(op.inputs[0])], [L.output(t) for t in op.outputs],
                     _options(L, "Unpack", num=len(op.outputs), axis=int(_attr(op, "axis", 0))))


def _split(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("SPLIT", [_i32(L, op.inputs[0]), L.tensor(op.inputs[1])],
                     [L.output(t) for t in op.outputs],
                     _options(L, "Split", numSplits=len(op.outputs)))


def _split_v(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("SPLIT_V", [L.tensor(op.inputs[0]), _i32(L, op.inputs[1]),
                                 _i32(L, op.inputs[2])],
                     [L.output(t) for t in op.outputs],
                     _options(L, "SplitV", numSplits=len(op.outputs)))


def _strided_slice(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("STRIDED_SLICE", [L.tensor(op.inputs[0])] +
                     [_i32(L, t) for t in op.inputs[1:4]], [L.output(op.outputs[0])],
                     _options(L, "StridedSlice", **{
                         k: int(_attr(op, a, 0)) for k, a in (
                             ("beginMask", "begin_mask"), ("endMask", "end_mask"),
                             ("ellipsisMask", "ellipsis_mask"),
                             ("newAxisMask", "new_axis_mask"),
                             ("shrinkAxisMask", "shrink_axis_mask"))}))


def _gather(L: GraphLowering, op: Any) -> None:
    axis = 0 if len(op.inputs) < 3 else int(L.const(op.inputs[2]))
    L.b.add_operator("GATHER", [L.tensor(op.inputs[0]), L.tensor(op.inputs[1])],
                     [L.output(op.outputs[0])],
                     _options(L, "Gather", axis=axis, batchDims=int(_attr(op, "batch_dims", 0))))


def _cast(L: GraphLowering, op: Any) -> None:
    from flowgrad.tflite.model_builder import tensor_type
    L.b.add_operator("CAST", [L.tensor(op.inputs[0])], [L.output(op.outputs[0])], _options(
        L, "Cast", inDataType=tensor_type(op.inputs[0].dtype.base_dtype.as_numpy_dtype),
        outDataType=tensor_type(op.outputs[0].dtype.base_dtype.as_numpy_dtype)))


def _shape(L: GraphLowering, op: Any) -> None:
    from flowgrad.tflite.model_builder import tensor_type
    L.b.add_operator("SHAPE", [L.tensor(op.inputs[0])], [L.output(op.outputs[0])], _options(
        L, "Shape", outType=tensor_type(op.outputs[0].dtype.base_dtype.as_numpy_dtype)))


def _arg(kind: str, options: str) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        from flowgrad.tflite.model_builder import tensor_type
        L.b.add_operator(kind, [L.tensor(op.inputs[0]), _i32(L, op.inputs[1])],
                         [L.output(op.outputs[0])], _options(
                             L, options, outputType=tensor_type(
                                 op.outputs[0].dtype.base_dtype.as_numpy_dtype)))
    return lower


def _resize(kind: str, options: str) -> Callable:
    def lower(L: GraphLowering, op: Any) -> None:
        L.b.add_operator(kind, [L.tensor(op.inputs[0]), _i32(L, op.inputs[1])],
                         [L.output(op.outputs[0])], _options(
                             L, options, alignCorners=bool(_attr(op, "align_corners", False)),
                             halfPixelCenters=bool(_attr(op, "half_pixel_centers", False))))
    return lower


def _mirror_pad(L: GraphLowering, op: Any) -> None:
    mode = str(_attr(op, "mode", "REFLECT")).upper()
    L.b.add_operator("MIRROR_PAD", [L.tensor(op.inputs[0]), _i32(L, op.inputs[1])],
                     [L.output(op.outputs[0])],
                     _options(L, "MirrorPad", mode=getattr(L.s.MirrorPadMode, mode)))


def _select(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("SELECT_V2", [L.tensor(t) for t in op.inputs], [L.output(op.outputs[0])],
                     _options(L, "SelectV2"))


def _fill(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("FILL", [_i32(L, op.inputs[0]), L.tensor(op.inputs[1])],
                     [L.output(op.outputs[0])], None)


def _add_n(L: GraphLowering, op: Any) -> None:
    L.b.add_operator("ADD_N", [L.tensor(t) for t in op.inputs], [L.output(op.outputs[0])],
                     _options(L, "AddN"))


LOWERINGS: dict = {
    "MatMul": _matmul, "BatchMatMul": _batch_matmul_op, "BatchMatMulV2": _batch_matmul_op,
    "BatchMatMulV3": _batch_matmul_op,
    "Conv2D": _conv2d, "DepthwiseConv2dNative": _depthwise,
    "Conv2DBackpropInput": _conv2d_transpose,
    "MaxPool": _pool("MAX_POOL_2D"), "AvgPool": _pool("AVERAGE_POOL_2D"),
    "Relu": _unary("RELU"), "Relu6": _unary("RELU6"), "Elu": _unary("ELU"),
    "Tanh": _unary("TANH"), "Sigmoid": _unary("LOGISTIC"), "Exp": _unary("EXP", "Exp"),
    "Log": _unary("LOG"), "Sqrt": _unary("SQRT"), "Rsqrt": _unary("RSQRT"),
    "Square": _unary("SQUARE", "Square"), "Neg": _unary("NEG", "Neg"),
    "Abs": _unary("ABS", "Abs"), "Sin": _unary("SIN"), "Cos": _unary("COS", "Cos"),
    "Floor": _unary("FLOOR"), "Ceil": _unary("CEIL"), "Round": _unary("ROUND"),
    "Sign": _unary("SIGN", "Sign"), "LogicalNot": _unary("LOGICAL_NOT", "LogicalNot"),
    "ZerosLike": _unary("ZEROS_LIKE", "ZerosLike"), "OnesLike": _unary("ONES_LIKE"),
    "LeakyRelu": _leaky_relu,
    "Softmax": _softmax("SOFTMAX", "Softmax"), "LogSoftmax": _softmax("LOG_SOFTMAX",
                                                                         "LogSoftmax"),
    "Add": _binary("ADD", "Add"), "AddV2": _binary("ADD", "Add"), "Sub": _binary("SUB", "Sub"),
    "Mul": _binary("MUL", "Mul"), "RealDiv": _binary("DIV", "Div"), "Div": _binary("DIV", "Div"),
    "Maximum": _binary("MAXIMUM", "MaximumMinimum"),
    "Minimum": _binary("MINIMUM", "MaximumMinimum"), "Pow": _binary("POW", "Pow"),
    "SquaredDifference": _binary("SQUARED_DIFFERENCE", "SquaredDifference"),
    "FloorDiv": _binary("FLOOR_DIV", "FloorDiv"), "FloorMod": _binary("FLOOR_MOD", "FloorMod"),
    "Less": _binary("LESS", "Less"), "LessEqual": _binary("LESS_EQUAL", "LessEqual"),
    "Greater": _binary("GREATER", "Greater"),
    "GreaterEqual": _binary("GREATER_EQUAL", "GreaterEqual"),
    "Equal": _binary("EQUAL", "Equal"), "NotEqual": _binary("NOT_EQUAL", "NotEqual"),
    "LogicalAnd": _binary("LOGICAL_AND", "LogicalAnd"),
    "LogicalOr": _binary("LOGICAL_OR", "LogicalOr"), "AddN": _add_n,
    "Mean": _reduce("MEAN"), "Sum": _reduce("SUM"), "Max": _reduce("REDUCE_MAX"),
    "Min": _reduce("REDUCE_MIN"), "Prod": _reduce("REDUCE_PROD"), "Any": _reduce("REDUCE_ANY"),
    "All": _reduce("REDUCE_ALL"),
    "ArgMax": _arg("ARG_MAX", "ArgMax"), "ArgMin": _arg("ARG_MIN", "ArgMin"),
    "Reshape": _reshape, "Squeeze": _squeeze,
    "ExpandDims": _with_int_inputs("EXPAND_DIMS", "ExpandDims"),
    "Transpose": _with_int_inputs("TRANSPOSE", "Transpose"),
    "Tile": _with_int_inputs("TILE", "Tile"), "Pad": _with_int_inputs("PAD", "Pad"),
    "Slice": _with_int_inputs("SLICE", "Slice"),
    "BroadcastTo": _with_int_inputs("BROADCAST_TO", "BroadcastTo"),
    "PadV2": lambda L, op: L.b.add_operator(
        "PADV2", [L.tensor(op.inputs[0]), _i32(L, op.inputs[1]), L.tensor(op.inputs[2])],
        [L.output(op.outputs[0])], _options(L, "PadV2")),
    "MirrorPad": _mirror_pad, "ConcatV2": _concat, "Pack": _pack, "Unpack": _unpack,
    "Split": _split, "SplitV": _split_v, "StridedSlice": _strided_slice,
    "GatherV2": _gather, "ResourceGather": _gather, "Cast": _cast, "Shape": _shape,
    "Fill": _fill, "Select": _select, "SelectV2": _select,
    "ResizeBilinear": _resize("RESIZE_BILINEAR", "ResizeBilinear"),
    "ResizeNearestNeighbor": _resize("RESIZE_NEAREST_NEIGHBOR", "ResizeNearestNeighbor"),
}
