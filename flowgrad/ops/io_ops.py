"""File and serialization ops of ``tf.io``: ReadFile, WriteFile, MatchingFiles, DecodeRaw,
SerializeTensor and ParseTensor (TensorProto bytes, as TensorFlow writes them). None of them
is differentiable, as in TensorFlow."""
from __future__ import annotations

import base64
import re
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.ops import example_protos, file_io
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework import dispatch


def scalar_bytes(value: TensorLike) -> bytes:
    """A string scalar's bytes, from a kernel's input (bytes or a 0-d object array)."""
    return value if isinstance(value, bytes) else np.asarray(value).item()


def string_scalar(data: bytes) -> np.ndarray:
    """A 0-d string array holding ``data``."""
    return np.array(data, dtype=object)


def _string_scalar_rule(ins: list, attrs: dict) -> tuple:
    return dtypes.string, TensorShape([])


def _read_file_kernel(filename: Any) -> np.ndarray:
    return string_scalar(file_io.read_bytes(scalar_bytes(filename).decode("utf-8")))


def _write_file_kernel(filename: Any, contents: Any) -> None:
    file_io.write_bytes(scalar_bytes(filename).decode("utf-8"), scalar_bytes(contents))


def _matching_files_kernel(pattern: Any) -> np.ndarray:
    patterns = [scalar_bytes(p).decode("utf-8") for p in np.asarray(pattern, object).flat]
    out = np.empty(0, dtype=object)
    names = [m.encode("utf-8") for m in file_io.glob(patterns)]
    return np.array(names, dtype=object) if names else out


register_op("ReadFile", _read_file_kernel, _string_scalar_rule, stateful=True,
            input_names=("filename",))
register_op("WriteFile", _write_file_kernel, lambda ins, attrs: [], num_outputs=0,
            stateful=True, input_names=("filename", "contents"))
register_op("MatchingFiles", _matching_files_kernel,
            lambda ins, attrs: (dtypes.string, TensorShape([None])), stateful=True,
            input_names=("pattern",))
for _t in ("ReadFile", "WriteFile", "MatchingFiles", "DecodeRaw", "SerializeTensor",
           "ParseTensor"):
    NotDifferentiable(_t)


def read_file(filename: TensorLike, name: str | None = None) -> Any:
    """The contents of the file ``filename`` (a string scalar).

    Args:
        filename: A string scalar: the path of the file.
        name: A name for the operation (optional).

    Raises:
        NotFoundError: the file does not exist (when the op runs).
    """
    return apply_op("ReadFile", [convert_to_tensor(filename, dtypes.string)], name=name)


def write_file(filename: TensorLike, contents: TensorLike, name: str | None = None) -> Any:
    """Writes ``contents`` to ``filename``, creating missing directories.

    Args:
        filename: A string scalar: the path to write.
        contents: A string scalar: the bytes to write.
        name: A name for the operation (optional).
    """
    return apply_op("WriteFile", [convert_to_tensor(filename, dtypes.string),
                                  convert_to_tensor(contents, dtypes.string)], name=name)


def matching_files(pattern: TensorLike, name: str | None = None) -> Any:
    """The sorted file names matching the glob ``pattern`` (a string or a vector of them).

    Args:
        pattern: A glob pattern (a string scalar) or a vector of them.
        name: A name for the operation (optional).
    """
    return apply_op("MatchingFiles", [convert_to_tensor(pattern, dtypes.string)], name=name)


def _decode_raw_kernel(data: Any, *, out_type: dtypes.DType, little_endian: bool,
                       fixed_length: Any) -> np.ndarray:
    arr = np.asarray(data, dtype=object)
    dt = out_type.np.newbyteorder("<" if little_endian else ">")
    size = dt.itemsize
    if fixed_length is not None:
        if fixed_length % size:
            raise errors.InvalidArgumentError(
                None, None, "fixed_length (%d) must be a multiple of the size of out_type (%d)"
                % (fixed_length, size))
        rows = [bytes(b)[:fixed_length].ljust(fixed_length, b"\0") for b in arr.flat]
        width = fixed_length // size
    else:
        rows = [bytes(b) for b in arr.flat]
        width = len(rows[0]) // size if rows else 0
        for i, b in enumerate(rows):
            if len(b) % size:
                raise errors.InvalidArgumentError(
                    None, None, "Input to DecodeRaw has length %d that is not a multiple of %d, "
                    "the size of %s" % (len(b), size, out_type.name))
            if len(b) != len(rows[0]):
                raise errors.InvalidArgumentError(
                    None, None, "DecodeRaw requires input strings to all be the same size, but "
                    "element %d has size %d != %d" % (i, len(rows[0]), len(b)))
    flat = np.frombuffer(b"".join(rows), dtype=dt).astype(out_type.np)
    return flat.reshape(arr.shape + (width,))


def _decode_raw_rule(ins: list, attrs: dict) -> tuple:
    dims = ins[0].shape.as_tuple()
    fixed = attrs["fixed_length"]
    width = fixed // attrs["out_type"].np.itemsize if fixed is not None else None
    return attrs["out_type"], unknown_shape() if dims is None else TensorShape(dims + (width,))


register_op("DecodeRaw", _decode_raw_kernel, _decode_raw_rule, input_names=("bytes",))


def decode_raw(input_bytes: Any, out_type: DTypeLike, little_endian: bool = True,
               fixed_length: Any = None, name: str | None = None) -> Any:
    """Reinterprets the bytes of each string as a vector of ``out_type`` (a new last axis).

    Args:
        input_bytes: a string tensor; without ``fixed_length`` its strings have one length.
        out_type: the element type.
        little_endian: the byte order of the data.
        fixed_length: pad or cut each string to this many bytes.
        name: the op's name.

    Returns:
        A tensor of ``out_type`` with one more dimension.
    """
    attrs = {"out_type": dtypes.as_dtype(out_type), "little_endian": bool(little_endian),
             "fixed_length": None if fixed_length is None else int(fixed_length)}
    return apply_op("DecodeRaw", [convert_to_tensor(input_bytes, dtypes.string)], attrs,
                    name=name)


# -- TensorProto serialization -----------------------------------------------------------

_DT_NAMES = {"float16": "DT_HALF", "float32": "DT_FLOAT", "float64": "DT_DOUBLE"}


def _tensor_pb2() -> tuple:
    try:
        from tensorboard.compat.proto import tensor_pb2, types_pb2
    except ImportError as e:
        raise ImportError("tf.io.serialize_tensor and parse_tensor need TensorFlow's "
                          "TensorProto from the optional 'tensorboard' package: "
                          "pip install flowgrad[io]") from e
    return tensor_pb2, types_pb2


def tensor_proto_bytes(arr: np.ndarray, dt: dtypes.DType) -> bytes:
    """The serialized TensorProto TensorFlow writes for ``arr`` (tensor_content, or
    string_val for strings)."""
    tensor_pb2, types_pb2 = _tensor_pb2()
    p = tensor_pb2.TensorProto(dtype=types_pb2.DataType.Value(
        _DT_NAMES.get(dt.name, "DT_" + dt.name.upper())))
    p.tensor_shape.SetInParent()        # present for scalars too, as TensorFlow writes it
    for d in arr.shape:
        p.tensor_shape.dim.add(size=d)
    if dt is dtypes.string:
        p.string_val.extend(bytes(b) for b in arr.flat)
    else:
        p.tensor_content = np.ascontiguousarray(arr, dtype=dt.np.newbyteorder("<")).tobytes()
    return p.SerializeToString()


def _serialize_tensor_kernel(tensor: Any, *, T: dtypes.DType) -> np.ndarray:
    return string_scalar(tensor_proto_bytes(np.asarray(tensor, dtype=T.np), T))


register_op("SerializeTensor", _serialize_tensor_kernel, _string_scalar_rule,
            input_names=("tensor",))


def serialize_tensor(tensor: TensorLike, name: str | None = None) -> Any:
    """A string scalar holding ``tensor`` as a serialized TensorProto.

    Args:
        tensor: The tensor to serialize.
        name: A name for the operation (optional).
    """
    t = convert_to_tensor(tensor)
    return apply_op("SerializeTensor", [t], {"T": t.dtype.base_dtype}, name=name)


def _values_of(p: Any, dt: dtypes.DType) -> np.ndarray:
    """The elements of a TensorProto in its typed value fields (not tensor_content)."""
    name = dt.name
    if dt is dtypes.string:
        return np.array(list(p.string_val), dtype=object)
    if name in ("float16", "bfloat16"):
        return np.array(list(p.half_val), dtype=np.uint16).view(dt.np)
    field = {"float32": "float_val", "float64": "double_val", "int64": "int64_val",
             "uint64": "uint64_val", "uint32": "uint32_val", "bool": "bool_val",
             "complex64": "scomplex_val", "complex128": "dcomplex_val"}.get(name, "int_val")
    vals = list(getattr(p, field))
    if dt.is_complex:
        return np.array(vals[0::2], dt.np) + 1j * np.array(vals[1::2], dt.np)
    return np.array(vals, dtype=dt.np)


def _string_content(content: bytes, n: int) -> np.ndarray:
    """The strings of a string TensorProto's ``tensor_content`` (TensorFlow's EncodeStringList:
    the n lengths as varints, then the bytes one after another), as tf.data's snapshot files
    hold them."""
    lengths, pos = [], 0
    for _ in range(n):
        size, shift = 0, 0
        while True:
            byte = content[pos]
            pos += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        lengths.append(size)
    out = np.empty(n, object)
    for i, size in enumerate(lengths):
        out[i] = content[pos:pos + size]
        pos += size
    return out


def _parse_tensor_kernel(serialized: Any, *, out_type: dtypes.DType) -> np.ndarray:
    tensor_pb2, types_pb2 = _tensor_pb2()
    p = tensor_pb2.TensorProto()
    try:
        p.ParseFromString(scalar_bytes(serialized))
    except Exception:   # noqa: BLE001 - protobuf's DecodeError and friends
        p = None
    if p is None or not p.dtype:
        raise errors.InvalidArgumentError(None, None, "Could not parse `serialized` as "
                                          "TensorProto, base64: %s" % base64.b64encode(
                                              scalar_bytes(serialized)).decode())
    want = types_pb2.DataType.Value(_DT_NAMES.get(out_type.name,
                                                  "DT_" + out_type.name.upper()))
    if p.dtype != want:
        raise errors.InvalidArgumentError(
            None, None, "Type mismatch between parsed tensor (%s) and dtype (%s)"
            % (types_pb2.DataType.Name(p.dtype)[3:].lower(), out_type.name))
    shape = tuple(d.size for d in p.tensor_shape.dim)
    if p.tensor_content and out_type is dtypes.string:
        flat = _string_content(p.tensor_content, int(np.prod(shape, dtype=np.int64)))
    elif p.tensor_content:
        flat = np.frombuffer(p.tensor_content, dtype=out_type.np.newbyteorder("<"))
        flat = flat.astype(out_type.np)
    else:
        flat = _values_of(p, out_type)
    size = int(np.prod(shape, dtype=np.int64))
    if flat.size == 1 and size != 1:        # a single value fills the tensor
        flat = np.full(size, flat[0], dtype=flat.dtype)
    if flat.size != size:
        raise errors.InvalidArgumentError(None, None, "Could not parse `serialized` as "
                                          "TensorProto: the values do not fill shape %s"
                                          % list(shape))
    return flat.reshape(shape).copy()


register_op("ParseTensor", _parse_tensor_kernel,
            lambda ins, attrs: (attrs["out_type"], unknown_shape()),
            input_names=("serialized",))


def parse_tensor(serialized: TensorLike, out_type: DTypeLike, name: str | None = None) -> Any:
    """The tensor a serialized TensorProto holds.

    Args:
        serialized: A string scalar holding a serialized TensorProto.
        out_type: The dtype the TensorProto holds.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: the bytes are no TensorProto, or its dtype is not ``out_type``.
    """
    return apply_op("ParseTensor", [convert_to_tensor(serialized, dtypes.string)],
                    {"out_type": dtypes.as_dtype(out_type)}, name=name)


def _decode_json_example_kernel(json_examples: Any) -> np.ndarray:
    example = example_protos.pb().Example   # protobuf is present from here on
    from google.protobuf import json_format

    def convert(text: bytes) -> bytes:
        try:
            return json_format.Parse(text.decode("utf-8"), example()).SerializeToString()
        except (json_format.ParseError, UnicodeDecodeError) as e:
            raise errors.InvalidArgumentError(None, None, "Error while parsing JSON: %s"
                                              % e) from None
    arr = np.asarray(json_examples, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    if arr.size:
        out.flat[:] = [convert(b) for b in arr.flat]
    return out


register_op("DecodeJSONExample", _decode_json_example_kernel,
            lambda ins, attrs: (dtypes.string, ins[0].shape), input_names=("json_examples",))
NotDifferentiable("DecodeJSONExample")


def decode_json_example(json_examples: Any, name: str | None = None) -> Any:
    """Each JSON-encoded ``tf.train.Example`` (protobuf's JSON mapping) as the serialized
    binary Example.

    Args:
        json_examples: A string tensor of JSON-encoded ``tf.train.Example`` records.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: (when run) text that is not such JSON.
    """
    return apply_op("DecodeJSONExample", [convert_to_tensor(json_examples, dtypes.string)],
                    name=name)


# -- web-safe base64 ---------------------------------------------------------------------

def _encode_base64_kernel(x: Any, *, pad: bool) -> np.ndarray:
    def encode(b: bytes) -> bytes:
        out = base64.urlsafe_b64encode(b)
        return out if pad else out.rstrip(b"=")
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    if arr.size:
        out.flat[:] = [encode(b) for b in arr.flat]
    return out


_WEB_SAFE = re.compile(rb"[A-Za-z0-9_-]*")


def _decode_base64_kernel(x: Any) -> np.ndarray:
    def decode(b: bytes) -> bytes:
        b = b.rstrip(b"=")
        if len(b) % 4 == 1:
            raise errors.InvalidArgumentError(None, None, "Base64 string length cannot be 1 "
                                              "modulo 4.")
        if not _WEB_SAFE.fullmatch(b):
            raise errors.InvalidArgumentError(None, None, "Invalid character found in base64.")
        return base64.urlsafe_b64decode(b + b"=" * (-len(b) % 4))
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    if arr.size:
        out.flat[:] = [decode(b) for b in arr.flat]
    return out


register_op("EncodeBase64", _encode_base64_kernel,
            lambda ins, attrs: (dtypes.string, ins[0].shape), input_names=("input",))
register_op("DecodeBase64", _decode_base64_kernel,
            lambda ins, attrs: (dtypes.string, ins[0].shape), input_names=("input",))
NotDifferentiable("EncodeBase64")
NotDifferentiable("DecodeBase64")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def encode_base64(input: TensorLike, pad: bool = False, name: str | None = None) -> Any:
    """Each string in web-safe base64 (``-`` and ``_``), with ``=`` padding if ``pad``.

    Args:
        input: A string tensor.
        pad: Whether to end each encoding with ``=`` padding.
        name: A name for the operation (optional).
    """
    return apply_op("EncodeBase64", [convert_to_tensor(input, dtypes.string)],
                    {"pad": bool(pad)}, name=name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def decode_base64(input: TensorLike, name: str | None = None) -> Any:
    """Each web-safe base64 string (padded or not) decoded.

    Args:
        input: A string tensor of web-safe base64 text.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: (when run) text that is not web-safe base64.
    """
    return apply_op("DecodeBase64", [convert_to_tensor(input, dtypes.string)], name=name)
