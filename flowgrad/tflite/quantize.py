"""The converter's post-training quantization, as TensorFlow's converter writes it.

* ``optimizations=[tf.lite.Optimize.DEFAULT]`` alone: dynamic-range quantization. The
  weights of fully connected and convolution operators with at least 1024 elements
  become int8, symmetric, one scale per output channel (zero point 0); the operators
  quantize their float inputs at run time (``asymmetric_quantize_inputs``).
* ``...`` with ``target_spec.supported_types=[tf.float16]``: every float32 constant an
  operator reads is stored as float16 and a DEQUANTIZE operator restores it to float32
  when the model is loaded.

* a ``representative_dataset`` (or int8 ops or types): full integer quantization
  (:mod:`flowgrad.tflite.integer_quantize`)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.tflite.weight_quantization import per_channel_int8

# operator name -> (weight input index, output-channel axis of the weights)
_WEIGHTS = {"FULLY_CONNECTED": (1, 0), "CONV_2D": (1, 0), "DEPTHWISE_CONV_2D": (1, 3)}
_MIN_ELEMENTS = 1024


def apply(b: Any, converter: Any, conv: Any) -> None:
    """Quantizes the model in ``b`` as ``converter``'s options ask.

    Args:
      b: the ``ModelBuilder``, after lowering.
      converter: the ``TFLiteConverter``.
      conv: the conversion (for error messages).

    Raises:
      ValueError: int8 ops or types without a representative dataset.
      UnimplementedError: int16 activations, or an operator without an int8 kernel where
        only int8 builtins are allowed.
    """
    optimizations = {str(o) for o in (getattr(converter, "optimizations", None) or ())}
    if not optimizations & {"DEFAULT", "OPTIMIZE_FOR_SIZE", "OPTIMIZE_FOR_LATENCY"}:
        return
    spec = converter.target_spec
    types = {getattr(t, "name", str(t)) for t in (spec.supported_types or ())}
    ops = {str(o) for o in (spec.supported_ops or ())}
    if converter.representative_dataset is not None or "TFLITE_BUILTINS_INT8" in ops \
            or types & {"int8", "int16"}:
        from flowgrad.tflite.integer_quantize import quantize
        quantize(b, converter, conv, _opname)
        return
    if "float16" in types:
        _float16(b)
    else:
        _dynamic_range(b)


def _opname(b: Any, op: Any) -> str:
    code = b.model.operatorCodes[op.opcodeIndex]
    code = max(code.builtinCode, code.deprecatedBuiltinCode)
    return next(k for k, v in vars(b.s.BuiltinOperator).items() if v == code)


def _const_value(b: Any, index: int) -> np.ndarray | None:
    t = b.subgraph.tensors[index]
    data = b.model.buffers[t.buffer].data
    if data is None or t.type != b.s.TensorType.FLOAT32:
        return None
    return np.frombuffer(np.asarray(data, np.uint8).tobytes(), np.float32).reshape(t.shape)


def _dynamic_range(b: Any) -> None:
    s = b.s
    for op in b.subgraph.operators:
        name = _opname(b, op)
        if name not in _WEIGHTS:
            continue
        k, axis = _WEIGHTS[name]
        w = _const_value(b, int(op.inputs[k]))
        if w is None or w.size < _MIN_ELEMENTS:
            continue
        q, scale = per_channel_int8(w, axis)
        t = b.subgraph.tensors[int(op.inputs[k])]
        t.type = s.TensorType.INT8
        b.model.buffers[t.buffer].data = np.frombuffer(q.tobytes(), np.uint8)
        qp = s.QuantizationParametersT()
        qp.scale = scale
        qp.zeroPoint = np.zeros(len(scale), np.int64)
        qp.quantizedDimension = axis
        t.quantization = qp
        if name == "FULLY_CONNECTED":
            op.builtinOptions.asymmetricQuantizeInputs = True


def _float16(b: Any) -> None:
    s = b.s
    done: dict = {}              # float32 constant tensor -> its dequantized tensor
    front = []
    for op in b.subgraph.operators:
        for j, i in enumerate(op.inputs):
            i = int(i)
            if i < 0:
                continue
            if i not in done:
                w = _const_value(b, i)
                if w is None:
                    continue
                t = b.subgraph.tensors[i]
                t.type = s.TensorType.FLOAT16
                b.model.buffers[t.buffer].data = np.frombuffer(
                    w.astype(np.float16).tobytes(), np.uint8)
                done[i] = b.add_tensor(t.name.decode() + "1" if isinstance(t.name, bytes)
                                       else t.name + "1", list(t.shape), np.float32)
                deq = s.OperatorT()
                deq.opcodeIndex = b.opcode("DEQUANTIZE", 3)
                deq.inputs = np.array([i], np.int32)
                deq.outputs = np.array([done[i]], np.int32)
                front.append(deq)
            op.inputs[j] = done[i]
    b.subgraph.operators[:0] = front
    if front:
        b.add_metadata("reduced_precision_support", b"fp16accfp32")
