"""Full integer quantization (a ``representative_dataset``), as TensorFlow's converter does it.

The float model is run on LiteRT over the representative samples and every activation's
range recorded. Activations become int8 with ``scale = (max - min) / 255`` over the range
widened to hold 0; the outputs of softmax and the logistic are int8 with scale 1/256 (tanh:
1/128), and the ops that only move values (pooling, reshapes, slices, gathers, paddings)
keep their input's scale. Weights are symmetric int8 with one scale per output channel,
biases int32 with the scale ``input scale * weight scale``, other constants int8 over their
own range. A float model input gets a QUANTIZE operator after it and a float output a
DEQUANTIZE before it; ``inference_input_type``/``inference_output_type`` int8 or uint8
make them integer tensors instead. An operator LiteRT has no int8 kernel for stays float
between a DEQUANTIZE and a QUANTIZE, unless ``target_spec.supported_ops`` holds only
``TFLITE_BUILTINS_INT8``: then it is an error naming the operator."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.tflite.weight_quantization import per_channel_int8

# operator -> (weight input, output-channel axis of the weights, bias input)
_WEIGHTED = {"FULLY_CONNECTED": (1, 0, 2), "CONV_2D": (1, 0, 2),
             "DEPTHWISE_CONV_2D": (1, 3, 2), "TRANSPOSE_CONV": (1, 0, 3)}
# operators whose output has a fixed scale and zero point in int8
_FIXED = {"SOFTMAX": (1 / 256, -128), "LOGISTIC": (1 / 256, -128), "TANH": (1 / 128, 0),
          "LOG_SOFTMAX": (16 / 256, 127)}
# operators whose int8 output keeps the scale of their (first) input
_SAME = {"MAX_POOL_2D", "AVERAGE_POOL_2D", "RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE",
         "STRIDED_SLICE", "SLICE", "GATHER", "PAD", "PADV2", "SPLIT", "SPLIT_V", "UNPACK",
         "TILE", "RESIZE_NEAREST_NEIGHBOR", "RESIZE_BILINEAR", "BROADCAST_TO", "PACK",
         "MIRROR_PAD", "REDUCE_MAX", "REDUCE_MIN"}
# operators whose int8 inputs and output must share one scale (LiteRT does not rescale):
# the output's range is the inputs' union, and an input of another scale is requantized
_SHARED = {"CONCATENATION", "MAXIMUM", "MINIMUM"}
# operators LiteRT runs on int8 tensors
_INT8 = set(_WEIGHTED) | set(_FIXED) | _SAME | _SHARED | {
    "ADD", "SUB", "MUL", "MEAN", "SUM", "RELU", "RELU6", "LEAKY_RELU", "HARD_SWISH", "ELU",
    "GELU", "ARG_MAX", "ARG_MIN", "SHAPE", "QUANTIZE", "DEQUANTIZE", "RSQRT",
    "SQUARED_DIFFERENCE", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL",
    "NOT_EQUAL", "NEG", "ABS", "CAST"}


def quantize(b: Any, converter: Any, conv: Any, opname: Any) -> None:
    """Rewrites the float model in ``b`` as a full integer model.

    Args:
      b: the ``ModelBuilder`` after lowering.
      converter: the ``TFLiteConverter`` (its ``representative_dataset``, ``target_spec``,
        ``inference_input_type``, ``inference_output_type``).
      conv: the conversion (signature input names, and where, for messages).
      opname: ``f(builder, operator) -> builtin name``.

    Raises:
      ValueError: no representative dataset (TensorFlow's message).
      UnimplementedError: an operator without an int8 kernel when only int8 builtins are
        allowed, or int16 activations.
    """
    ops_set = {str(o) for o in (converter.target_spec.supported_ops or ())}
    if converter.representative_dataset is None:
        raise ValueError("For full integer quantization, a `representative_dataset` must be "
                         "specified.")
    if any("INT16" in o for o in ops_set):
        raise errors.UnimplementedError(None, None, "TFLiteConverter: int16 activations are "
                                        "not supported by flowgrad's converter")
    int8_only = ops_set == {"TFLITE_BUILTINS_INT8"}
    dataset = converter.representative_dataset
    ranges = _calibrate(b, getattr(dataset, "input_gen", dataset), conv)
    _Rewrite(b, ranges, opname, int8_only, conv.where).run(
        _io_type(converter.inference_input_type), _io_type(converter.inference_output_type))


def _io_type(dtype: Any) -> str:
    name = getattr(dtype, "name", None) or (np.dtype(dtype).name if dtype is not None
                                            else "float32")
    if name not in ("float32", "int8", "uint8"):
        raise ValueError("Unsupported inference_input_type/inference_output_type value %s."
                         % name)
    return name


def _calibrate(b: Any, dataset: Any, conv: Any) -> dict:
    """{tensor index: (min, max)} of every float activation over the samples."""
    from flowgrad.tflite.interpreter import litert_interpreter
    float_model = b.serialize()
    it = litert_interpreter()(model_content=float_model, experimental_preserve_all_tensors=True)
    inputs = [int(i) for i in b.subgraph.inputs]
    watch = [i for i, t in enumerate(b.subgraph.tensors)
             if t.type == b.s.TensorType.FLOAT32 and b.model.buffers[t.buffer].data is None]
    ranges: dict = {}
    count = 0
    for sample in dataset():
        if isinstance(sample, dict):
            sample = [sample[n] for n in conv.input_names]
        sample = [np.asarray(v) for v in (sample if isinstance(sample, (list, tuple))
                                          else [sample])]
        if len(sample) != len(inputs):
            raise ValueError("The representative dataset gives %d inputs; the model takes %d"
                             % (len(sample), len(inputs)))
        for i, v in zip(inputs, sample):
            it.resize_tensor_input(i, list(v.shape))
        it.allocate_tensors()
        for i, v in zip(inputs, sample):
            it.set_tensor(i, v.astype(np.float32))
        it.invoke()
        for i in watch:
            v = it.get_tensor(i)
            if v.size:
                lo, hi = float(v.min()), float(v.max())
                old = ranges.get(i)
                ranges[i] = (lo, hi) if old is None else (min(old[0], lo), max(old[1], hi))
        count += 1
    if not count:
        raise ValueError("The representative dataset gave no samples.")
    return ranges


def _affine(lo: float, hi: float) -> tuple:
    """(scale, zero point) of int8 over [lo, hi] widened to hold 0."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-9:
        hi = lo + 1e-9
    scale = (hi - lo) / 255.0
    zp = int(np.clip(np.round(-128 - lo / scale), -128, 127))
    return np.float32(scale), zp


class _Rewrite:
    """One rewrite of a float model's tensors and operators to int8."""

    def __init__(self, b: Any, ranges: dict, opname: Any, int8_only: bool, where: str) -> None:
        self.b = b
        self.s = b.s
        self.ranges = ranges
        self.opname = opname
        self.int8_only = int8_only
        self.where = where
        self.params: dict = {}              # activation tensor -> (scale, zero point)

    def _tensor(self, i: int) -> Any:
        return self.b.subgraph.tensors[i]

    def _const(self, i: int) -> np.ndarray | None:
        t = self._tensor(i)
        data = self.b.model.buffers[t.buffer].data
        if data is None or t.type != self.s.TensorType.FLOAT32:
            return None
        return np.frombuffer(np.asarray(data, np.uint8).tobytes(), np.float32).reshape(t.shape)

    def _is_float_activation(self, i: int) -> bool:
        t = self._tensor(i)
        return t.type == self.s.TensorType.FLOAT32 and \
            self.b.model.buffers[t.buffer].data is None

    def _set(self, i: int, type_name: str, scale: Any, zp: Any, axis: int = 0,
             data: np.ndarray | None = None) -> None:
        t = self._tensor(i)
        t.type = getattr(self.s.TensorType, type_name)
        qp = self.s.QuantizationParametersT()
        qp.scale = np.atleast_1d(np.asarray(scale, np.float32))
        qp.zeroPoint = np.atleast_1d(np.asarray(zp, np.int64))
        qp.quantizedDimension = axis
        t.quantization = qp
        if data is not None:
            self.b.model.buffers[t.buffer].data = np.frombuffer(data.tobytes(), np.uint8)

    def _plan_params(self) -> None:
        """Chooses each float activation's scale and zero point."""
        for i, r in self.ranges.items():
            self.params[i] = _affine(*r)
        for op in self.b.subgraph.operators:
            name = self.opname(self.b, op)
            outs = [int(o) for o in op.outputs if int(o) in self.params]
            if name in _FIXED:
                for o in outs:
                    self.params[o] = (np.float32(_FIXED[name][0]), _FIXED[name][1])
            elif name in _SAME:
                src = int(op.inputs[0])
                if src in self.params:
                    for o in outs:
                        self.params[o] = self.params[src]
            elif name in _SHARED and outs:
                lo, hi = self.ranges.get(outs[0], (0.0, 0.0))
                for i in op.inputs:
                    r = self.ranges.get(int(i))
                    if r is not None:
                        lo, hi = min(lo, r[0]), max(hi, r[1])
                self.params[outs[0]] = _affine(lo, hi)

    def run(self, in_type: str, out_type: str) -> None:
        """Rewrites the model (``in_type``/``out_type``: the model's input/output types)."""
        self._plan_params()
        new_ops: list = []
        float_ops = []
        for op in self.b.subgraph.operators:
            name = self.opname(self.b, op)
            if name not in _INT8 and any(self._is_float_activation(int(i))
                                         for i in list(op.inputs) + list(op.outputs)
                                         if int(i) >= 0):
                if self.int8_only:
                    raise errors.UnimplementedError(
                        None, None, "TFLiteConverter: the %s operator of %s has no int8 "
                        "kernel; allow float operators with target_spec.supported_ops = "
                        "[tf.lite.OpsSet.TFLITE_BUILTINS_INT8, "
                        "tf.lite.OpsSet.TFLITE_BUILTINS]" % (name, self.where))
                float_ops.append(op)
        float_set = set(map(id, float_ops))
        consts_done: dict = {}
        for op in self.b.subgraph.operators:
            name = self.opname(self.b, op)
            if id(op) in float_set:
                before, after = self._keep_float(op)
                new_ops.extend(before + [op] + after)
                continue
            if name in _SHARED:
                new_ops.extend(self._requantize_inputs(op, consts_done))
            self._weights(op, name, consts_done)
            new_ops.append(op)
        for i, (scale, zp) in self.params.items():
            self._set(i, "INT8", scale, zp)
        new_ops = self._io(new_ops, in_type, out_type)
        self.b.subgraph.operators = new_ops

    def _weights(self, op: Any, name: str, done: dict) -> None:
        """Quantizes the constant inputs of an int8 operator."""
        spec = _WEIGHTED.get(name)
        for k, i in enumerate(op.inputs):
            i = int(i)
            if i < 0 or i in done:
                continue
            value = self._const(i)
            if value is None:
                continue
            if spec is not None and k == spec[0]:
                axis = spec[1]
                q, scale = per_channel_int8(value, axis)
                self._set(i, "INT8", scale, np.zeros(len(scale), np.int64), axis, q)
                done[i] = scale
                bias = spec[2]
                b_idx = int(op.inputs[bias]) if len(op.inputs) > bias else -1
                src = int(op.inputs[2 if name == "TRANSPOSE_CONV" else 0])
                if b_idx >= 0 and self._const(b_idx) is not None:
                    in_scale = self.params.get(src, (np.float32(1.0), 0))[0]
                    bscale = (scale * in_scale).astype(np.float32)
                    bq = np.round(self._const(b_idx) / bscale).astype(np.int32)
                    self._set(b_idx, "INT32", bscale, np.zeros(len(bscale), np.int64), 0, bq)
                    done[b_idx] = bscale
            elif spec is not None and k == spec[2]:
                continue                    # the bias: with its weights above
            else:
                sc, zp = _affine(float(value.min()), float(value.max()))
                q = np.clip(np.round(value / sc) + zp, -128, 127).astype(np.int8)
                self._set(i, "INT8", sc, zp, 0, q)
                done[i] = sc

    def _requantize_inputs(self, op: Any, done: dict) -> list:
        """Int8 copies, at the output's scale, of the inputs of ``op`` at another scale."""
        out = int(op.outputs[0])
        target = self.params.get(out)
        if target is None:
            return []
        ops = []
        for k, i in enumerate(op.inputs):
            i = int(i)
            if i in self.params and self.params[i] != target:
                q = self._new_tensor(i, "INT8", "_requantized")
                self.params[q] = target
                ops.append(self._convert_op("QUANTIZE", i, q))
                op.inputs[k] = q
            elif i >= 0 and self._const(i) is not None and i not in done:
                scale, zp = target
                value = self._const(i)
                q = np.clip(np.round(value / scale) + zp, -128, 127).astype(np.int8)
                self._set(i, "INT8", scale, zp, 0, q)
                done[i] = scale
        return ops

    def _new_tensor(self, like: int, type_name: str, suffix: str) -> int:
        t = self._tensor(like)
        name = t.name.decode() if isinstance(t.name, bytes) else t.name
        shape = [int(d) for d in (t.shapeSignature if t.shapeSignature is not None
                                  else t.shape)]
        idx = self.b.add_tensor(name + suffix, shape, np.float32)
        self._tensor(idx).type = getattr(self.s.TensorType, type_name)
        return idx

    def _convert_op(self, kind: str, src: int, dst: int) -> Any:
        op = self.s.OperatorT()
        op.opcodeIndex = self.b.opcode(kind)
        op.inputs = np.array([src], np.int32)
        op.outputs = np.array([dst], np.int32)
        return op

    def _keep_float(self, op: Any) -> tuple:
        """DEQUANTIZE before and QUANTIZE after an operator that stays float."""
        before, after = [], []
        for k, i in enumerate(op.inputs):
            i = int(i)
            if i in self.params:
                f = self._new_tensor(i, "FLOAT32", "_float")
                before.append(self._convert_op("DEQUANTIZE", i, f))
                op.inputs[k] = f
        for k, o in enumerate(op.outputs):
            o = int(o)
            if o in self.params:
                f = self._new_tensor(o, "FLOAT32", "_float")
                after.append(self._convert_op("QUANTIZE", f, o))
                op.outputs[k] = f
        return before, after

    def _io(self, ops: list, in_type: str, out_type: str) -> list:
        """The model's inputs and outputs in the types asked for."""
        sub = self.b.subgraph
        front, back = [], []
        for i in list(sub.inputs):
            i = int(i)
            if i not in self.params:
                continue
            scale, zp = self.params[i]
            if in_type == "int8":
                continue
            q = self._new_tensor(i, "INT8", "_int8")
            self._set(q, "INT8", scale, zp)
            for op in ops:
                op.inputs = np.array([q if int(x) == i else int(x) for x in op.inputs],
                                     np.int32)
            if in_type == "uint8":
                self._set(i, "UINT8", scale, zp + 128)
            else:
                t = self._tensor(i)
                t.type, t.quantization = self.s.TensorType.FLOAT32, None
            front.append(self._convert_op("QUANTIZE", i, q))
        for o in list(sub.outputs):
            o = int(o)
            if o not in self.params:
                continue
            scale, zp = self.params[o]
            if out_type == "int8":
                continue
            q = self._new_tensor(o, "INT8", "_int8")
            self._set(q, "INT8", scale, zp)
            for op in ops:
                op.outputs = np.array([q if int(x) == o else int(x) for x in op.outputs],
                                      np.int32)
            if out_type == "uint8":
                self._set(o, "UINT8", scale, zp + 128)
                back.append(self._convert_op("QUANTIZE", q, o))
            else:
                t = self._tensor(o)
                t.type, t.quantization = self.s.TensorType.FLOAT32, None
                back.append(self._convert_op("DEQUANTIZE", q, o))
        return front + ops + back
