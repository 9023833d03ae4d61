"""Assembles a TensorFlow Lite model (tensors, buffers, operators, signatures) into bytes."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.tflite.schema import schema

# numpy dtype name -> TensorType name
_TENSOR_TYPES = {"float32": "FLOAT32", "float16": "FLOAT16", "float64": "FLOAT64",
                 "int32": "INT32", "int64": "INT64", "int16": "INT16", "int8": "INT8",
                 "uint8": "UINT8", "bool": "BOOL", "complex64": "COMPLEX64",
                 "uint16": "UINT16", "uint32": "UINT32", "uint64": "UINT64",
                 "bfloat16": "BFLOAT16", "object": "STRING", "bytes": "STRING"}


def tensor_type(dtype: Any) -> int:
    """The TensorType enum value of a NumPy or flowgrad dtype.

    Args:
      dtype: a NumPy dtype (or anything ``np.dtype`` takes) or a flowgrad ``tf.DType``.

    Returns:
      The schema's ``TensorType`` value.

    Raises:
      UnimplementedError: TensorFlow Lite has no such tensor type.
    """
    name = getattr(dtype, "name", None) or np.dtype(dtype).name
    name = name.replace("_ref", "")
    if name == "string":
        name = "object"
    key = _TENSOR_TYPES.get(name)
    if key is None:
        raise errors.UnimplementedError(None, None, "TensorFlow Lite has no %s tensors" % name)
    return getattr(schema().TensorType, key)


class ModelBuilder:
    """A TensorFlow Lite model under construction: one subgraph, its tensors and operators.

    Args:
      description: the model's description string (TensorFlow writes "MLIR Converted.").
    """

    def __init__(self, description: str = "MLIR Converted.") -> None:
        s = schema()
        self.s = s
        self.model = s.ModelT()
        self.model.version = 3
        self.model.description = description
        self.model.buffers = [s.BufferT()]           # buffer 0: the empty buffer
        self.model.operatorCodes = []
        self.subgraph = s.SubGraphT()
        self.subgraph.name = "main"
        self.subgraph.tensors = []
        self.subgraph.operators = []
        self.subgraph.inputs = []
        self.subgraph.outputs = []
        self.model.subgraphs = [self.subgraph]
        self._codes: dict = {}

    def add_tensor(self, name: str, shape: Any, dtype: Any, data: np.ndarray | None = None,
                   quantization: Any = None) -> int:
        """Adds a tensor; ``shape`` may hold None or -1 for a dimension known at run time.

        Args:
          name: the tensor's name.
          shape: its dimensions (None or -1 where unknown) or None for an unknown rank.
          dtype: its element type.
          data: the constant's value, written to its own buffer.
          quantization: a ``QuantizationParametersT`` or None.

        Returns:
          The tensor's index in the subgraph.
        """
        s = self.s
        t = s.TensorT()
        t.name = name
        t.type = tensor_type(dtype)
        if shape is None:
            t.hasRank = False
            t.shape = np.zeros([0], np.int32)
        else:
            dims = [-1 if d is None else int(d) for d in shape]
            t.hasRank = True
            t.shape = np.array([1 if d < 0 else d for d in dims], np.int32)
            if any(d < 0 for d in dims):
                t.shapeSignature = np.array(dims, np.int32)
        buf = s.BufferT()
        if data is not None:
            arr = np.ascontiguousarray(data)
            if arr.dtype == object:
                buf.data = np.frombuffer(_string_tensor(arr), np.uint8)
            else:
                buf.data = np.frombuffer(arr.tobytes(), np.uint8)
        self.model.buffers.append(buf)
        t.buffer = len(self.model.buffers) - 1
        t.quantization = quantization
        self.subgraph.tensors.append(t)
        return len(self.subgraph.tensors) - 1

    def opcode(self, name: str, version: int = 1) -> int:
        """The index of the operator code of builtin ``name`` (``"FULLY_CONNECTED"``, ...)."""
        code = getattr(self.s.BuiltinOperator, name)
        key = (code, version)
        if key not in self._codes:
            oc = self.s.OperatorCodeT()
            oc.builtinCode = code
            oc.deprecatedBuiltinCode = min(code, 127)
            oc.version = version
            self.model.operatorCodes.append(oc)
            self._codes[key] = len(self.model.operatorCodes) - 1
        return self._codes[key]

    def add_operator(self, name: str, inputs: list, outputs: list, options: Any = None,
                     options_type: str | None = None, version: int = 1) -> None:
        """Adds an operator of builtin ``name`` reading tensors ``inputs`` (-1: absent).

        Args:
          name: the builtin operator's name.
          inputs: input tensor indices.
          outputs: output tensor indices.
          options: the operator's ``*OptionsT`` object.
          options_type: the ``BuiltinOptions`` member name of ``options`` (default: the
            class name less its trailing ``T``).
          version: the operator's version.
        """
        op = self.s.OperatorT()
        op.opcodeIndex = self.opcode(name, version)
        op.inputs = np.array(inputs, np.int32)
        op.outputs = np.array(outputs, np.int32)
        if options is not None:
            key = options_type or type(options).__name__[:-1]
            op.builtinOptionsType = getattr(self.s.BuiltinOptions, key)
            op.builtinOptions = options
        self.subgraph.operators.append(op)

    def add_signature(self, key: str, inputs: list, outputs: list) -> None:
        """Adds a signature: ``inputs``/``outputs`` are lists of (name, tensor index)."""
        s = self.s
        sd = s.SignatureDefT()
        sd.signatureKey = key
        sd.subgraphIndex = 0

        def maps(pairs: list) -> list:
            out = []
            for name, index in pairs:
                m = s.TensorMapT()
                m.name = name
                m.tensorIndex = index
                out.append(m)
            return out
        sd.inputs = maps(inputs)
        sd.outputs = maps(outputs)
        self.model.signatureDefs = (self.model.signatureDefs or []) + [sd]

    def add_metadata(self, name: str, data: bytes) -> None:
        """Adds a metadata entry whose value is its own buffer."""
        buf = self.s.BufferT()
        buf.data = np.frombuffer(data, np.uint8)
        self.model.buffers.append(buf)
        md = self.s.MetadataT()
        md.name = name
        md.buffer = len(self.model.buffers) - 1
        self.model.metadata = (self.model.metadata or []) + [md]

    def serialize(self) -> bytes:
        """The model as TensorFlow Lite flatbuffer bytes (file identifier ``TFL3``)."""
        import flatbuffers
        b = flatbuffers.Builder(1024)
        b.Finish(self.model.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())


def _string_tensor(arr: np.ndarray) -> bytes:
    """TensorFlow Lite's string tensor layout: count, offsets, then the bytes."""
    items = [x if isinstance(x, bytes) else str(x).encode() for x in arr.reshape(-1)]
    header = 4 * (len(items) + 2)
    offsets = [header]
    for x in items:
        offsets.append(offsets[-1] + len(x))
    return (np.array([len(items)] + offsets, np.int32).tobytes() + b"".join(items))
