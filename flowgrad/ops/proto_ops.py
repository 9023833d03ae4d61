"""``tf.io.decode_proto`` / ``tf.io.encode_proto`` (the DecodeProtoV2 and EncodeProto ops):
fields of protocol buffer messages as tensors and back, with the message type found by the
``protobuf`` package (``pip install flowgrad[io]``).

``descriptor_source`` is TensorFlow's: ``"local://"`` looks the type up in the process's
protobuf pool (the ``_pb2`` modules the program imported), ``"bytes://<serialized
FileDescriptorSet>"`` or a file path of a serialized FileDescriptorSet give the types
themselves. The values of each field are padded to the longest in the batch (at least one)
with the field's default; message fields are serialized sub-messages. Not differentiable, as
in TensorFlow."""
from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, TensorLike

DecodeProtoV2 = collections.namedtuple("DecodeProtoV2", ["sizes", "values"])

# The output dtypes TensorFlow's proto_utils accept for each field type (the first is the
# natural one); recorded in tools/tf_reference/proto_ops_reference.py's allowed_types.
_COMPATIBLE = {
    "TYPE_DOUBLE": ("float64",), "TYPE_FLOAT": ("float32", "float64"),
    "TYPE_INT64": ("int64",), "TYPE_UINT64": ("uint64",), "TYPE_INT32": ("int32", "int64"),
    "TYPE_FIXED64": ("uint64",), "TYPE_FIXED32": ("uint32", "uint64"), "TYPE_BOOL": ("bool",),
    "TYPE_STRING": ("string",), "TYPE_GROUP": ("string",), "TYPE_MESSAGE": ("string",),
    "TYPE_BYTES": ("string",), "TYPE_UINT32": ("uint32", "uint64"), "TYPE_ENUM": ("int32",),
    "TYPE_SFIXED32": ("int32", "int64"), "TYPE_SFIXED64": ("int64",),
    "TYPE_SINT32": ("int32", "int64"), "TYPE_SINT64": ("int64",),
}
_TYPE_NAMES = {"TYPE_DOUBLE": "double", "TYPE_FLOAT": "float", "TYPE_INT64": "int64",
               "TYPE_UINT64": "uint64", "TYPE_INT32": "int32", "TYPE_FIXED64": "fixed64",
               "TYPE_FIXED32": "fixed32", "TYPE_BOOL": "bool", "TYPE_STRING": "string",
               "TYPE_GROUP": "group", "TYPE_MESSAGE": "message", "TYPE_BYTES": "bytes",
               "TYPE_UINT32": "uint32", "TYPE_ENUM": "enum", "TYPE_SFIXED32": "sfixed32",
               "TYPE_SFIXED64": "sfixed64", "TYPE_SINT32": "sint32", "TYPE_SINT64": "sint64"}


def _protobuf() -> Any:
    try:
        from google.protobuf import (descriptor, descriptor_pb2, descriptor_pool,
                                     message_factory, text_format)
    except ImportError as e:
        raise ImportError("tf.io.decode_proto and encode_proto need the optional 'protobuf' "
                          "package: pip install flowgrad[io]") from e
    return descriptor, descriptor_pb2, descriptor_pool, message_factory, text_format


def _message_class(message_type: str, descriptor_source: Any) -> Any:
    """The message class of ``message_type`` from TensorFlow's kind of descriptor source."""
    descriptor, descriptor_pb2, descriptor_pool, message_factory, _ = _protobuf()
    source = descriptor_source.encode("latin-1") if isinstance(descriptor_source, str) \
        else bytes(descriptor_source)
    if source == b"local://":
        pool = descriptor_pool.Default()
    else:
        if source.startswith(b"bytes://"):
            data = source[len(b"bytes://"):]
        else:
            try:
                with open(source, "rb") as f:
                    data = f.read()
            except OSError:
                data = None
        fds = descriptor_pb2.FileDescriptorSet()
        try:
            fds.ParseFromString(data)
        except Exception:  # noqa: BLE001 - protobuf's DecodeError or a missing file
            data = None
        if data is None:
            raise errors.InvalidArgumentError(
                None, None, "Source does not represent serialized file descriptor set proto. "
                "This may be due to a missing dependency on the file containing "
                "REGISTER_DESCRIPTOR_POOL(\"%s\", ...);" % source.decode("latin-1")[:100])
        pool = descriptor_pool.DescriptorPool()
        for file_proto in fds.file:
            pool.Add(file_proto)
    try:
        desc = pool.FindMessageTypeByName(message_type)
    except KeyError:
        desc = None
    if desc is None:
        raise errors.InvalidArgumentError(None, None, "No descriptor found for message type %s"
                                          % message_type)
    return message_factory.GetMessageClass(desc), descriptor.FieldDescriptor


def _fields(cls: Any, field_desc: Any, message_type: str, field_names: Sequence[str],
            types: Sequence[dtypes.DType]) -> list:
    """The FieldDescriptors of ``field_names``, each checked against its output dtype."""
    if len(field_names) != len(types):
        raise errors.InvalidArgumentError(None, None, "field_names and output_types attributes "
                                          "must have the same length")
    type_names = {getattr(field_desc, n): n for n in _COMPATIBLE}
    out = []
    for name, dt in zip(field_names, types):
        fd = cls.DESCRIPTOR.fields_by_name.get(name)
        if fd is None:
            raise errors.InvalidArgumentError(None, None, "Unknown field: %s in message type %s"
                                              % (name, message_type))
        kind = type_names[fd.type]
        if dt.name not in _COMPATIBLE[kind]:
            raise errors.InvalidArgumentError(
                None, None, "Unexpected output type for %s: %s to DT_%s"
                % (fd.full_name, _TYPE_NAMES[kind], dt.name.upper()))
        out.append((fd, kind, dt))
    return out


def _field_values(msg: Any, fd: Any, kind: str) -> list:
    """The values of one field of a parsed message, as it holds them on the wire."""
    present = {f.name: v for f, v in msg.ListFields()}
    if fd.name not in present:
        return []
    value = present[fd.name]
    values = list(value) if fd.is_repeated else [value]
    if kind in ("TYPE_MESSAGE", "TYPE_GROUP"):
        return [v.SerializeToString() for v in values]
    if kind == "TYPE_STRING":
        return [v.encode("utf-8") for v in values]
    return values


def _default(fd: Any, kind: str) -> Any:
    if fd.is_repeated or kind in ("TYPE_MESSAGE", "TYPE_GROUP"):
        return b"" if kind in ("TYPE_STRING", "TYPE_BYTES", "TYPE_MESSAGE",
                               "TYPE_GROUP") else 0
    value = fd.default_value
    return value.encode("utf-8") if kind == "TYPE_STRING" else value


def _decode_kernel(serialized: Any, *, message_type: str, field_names: tuple,
                   output_types: tuple, descriptor_source: Any, message_format: str,
                   sanitize: bool) -> tuple:
    if message_format not in ("binary", "text"):
        raise errors.InvalidArgumentError(None, None, "format must be one of binary or text")
    cls, field_desc = _message_class(message_type, descriptor_source)
    fields = _fields(cls, field_desc, message_type, field_names, output_types)
    ser = np.asarray(serialized, dtype=object)
    messages = []
    for s in ser.reshape(-1):
        msg = cls()
        try:
            if message_format == "text":
                _protobuf()[4].Parse(s.decode("utf-8"), msg)
            else:
                msg.ParseFromString(s)
        except Exception:  # noqa: BLE001 - protobuf's DecodeError / ParseError
            raise errors.DataLossError(None, None, "CountFields: Failed to consume entire "
                                       "buffer") from None
        messages.append(msg)
    sizes = np.zeros((len(messages), len(fields)), np.int32)
    values = []
    for j, (fd, kind, dt) in enumerate(fields):
        rows = [_field_values(m, fd, kind) for m in messages]
        for i, r in enumerate(rows):
            sizes[i, j] = len(r)
        width = max([1] + [len(r) for r in rows])
        out = np.empty((len(rows), width), object if dt is dtypes.string else dt.as_numpy_dtype)
        out[...] = _default(fd, kind)
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
        values.append(out.reshape(ser.shape + (width,)))
    return (sizes.reshape(ser.shape + (len(fields),)), *values)


def _decode_rule(ins: list, attrs: dict) -> list:
    batch = ins[0].shape
    dims = None if batch.rank is None else batch.as_list()
    n = len(attrs["field_names"])
    if dims is None:
        return [(dtypes.int32, TensorShape(None))] + \
            [(dt, TensorShape(None)) for dt in attrs["output_types"]]
    return [(dtypes.int32, TensorShape(dims + [n]))] + \
        [(dt, TensorShape(dims + [None])) for dt in attrs["output_types"]]


register_op("DecodeProtoV2", _decode_kernel, _decode_rule,
            num_outputs=lambda a: 1 + len(a["output_types"]), input_names=("bytes",))
NotDifferentiable("DecodeProtoV2")


def decode_proto(bytes: TensorLike, message_type: str, field_names: Sequence[str],  # noqa: A002
                 output_types: Sequence[DTypeLike], descriptor_source: str | bytes = "local://",
                 message_format: str = "binary", sanitize: bool = False,
                 name: str | None = None) -> DecodeProtoV2:
    """The fields ``field_names`` of serialized ``message_type`` protos as tensors.

    Args:
        bytes: A string tensor of serialized messages (any shape: the batch shape).
        message_type: The full name of the message type (``"package.Message"``).
        field_names: The names of the fields to extract.
        output_types: One dtype per field: int32/int64/uint32/uint64/float32/float64/bool
            as the field's type allows, string for string, bytes and message fields.
        descriptor_source: ``"local://"``, ``"bytes://"`` followed by a serialized
            FileDescriptorSet, or the path of a file holding one.
        message_format: ``"binary"`` or ``"text"`` (the protobuf text format).
        sanitize: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).

    Returns:
        ``(sizes, values)``: int32 sizes of shape ``batch + [len(field_names)]`` (how many
        values each message holds per field) and one tensor per field of shape
        ``batch + [longest]``, padded with the field's default.

    Raises:
        InvalidArgumentError: an unknown message type or field, an output type the field's
            type does not allow, a descriptor source that is no FileDescriptorSet.
        DataLossError: (when run) bytes that are no such message.
    """
    types = tuple(dtypes.as_dtype(t) for t in output_types)
    attrs = {"message_type": message_type, "field_names": tuple(field_names),
             "output_types": types, "descriptor_source": descriptor_source,
             "message_format": message_format, "sanitize": bool(sanitize)}
    if message_format not in ("binary", "text"):
        raise errors.InvalidArgumentError(None, None, "format must be one of binary or text")
    cls, field_desc = _message_class(message_type, descriptor_source)
    _fields(cls, field_desc, message_type, field_names, types)
    outs = apply_op("DecodeProtoV2", [convert_to_tensor(bytes, dtypes.string)], attrs,
                    name=name or "DecodeProtoV2")
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return DecodeProtoV2(outs[0], outs[1:])


def _encode_kernel(sizes: Any, *values: Any, field_names: tuple, message_type: str,
                   descriptor_source: Any) -> np.ndarray:
    cls, field_desc = _message_class(message_type, descriptor_source)
    sizes = np.asarray(sizes)
    batch = sizes.shape[:-1]
    if sizes.shape[-1:] != (len(field_names),):
        raise errors.InvalidArgumentError(
            None, None, "sizes should be batch_size + [len(field_names)].  Saw: [%s] but "
            "expected: [%s]" % (",".join(map(str, sizes.shape)),
                                ",".join(map(str, batch + (len(field_names),)))))
    fields = _fields(cls, field_desc, message_type, field_names,
                     [_value_dtype(np.asarray(v)) for v in values])
    flat_sizes = sizes.reshape(-1, len(field_names))
    flat_values = [np.asarray(v).reshape(len(flat_sizes), -1) for v in values]
    out = np.empty(len(flat_sizes), object)
    for i in range(len(flat_sizes)):
        msg = cls()
        for j, (fd, kind, _) in enumerate(fields):
            n = int(flat_sizes[i, j])
            if n > flat_values[j].shape[1]:
                raise errors.InvalidArgumentError(
                    None, None, "Size to write must not be larger than value tensor; but saw: "
                    "%d > %d at message %d field %d" % (n, flat_values[j].shape[1], i, j))
            items = [_python_value(v, kind) for v in flat_values[j][i, :n]]
            if fd.is_repeated:
                if kind in ("TYPE_MESSAGE", "TYPE_GROUP"):
                    for item in items:
                        getattr(msg, fd.name).add().MergeFromString(item)
                else:
                    getattr(msg, fd.name).extend(items)
            elif items:
                if kind in ("TYPE_MESSAGE", "TYPE_GROUP"):
                    getattr(msg, fd.name).MergeFromString(items[-1])
                else:
                    setattr(msg, fd.name, items[-1])
        out[i] = msg.SerializeToString(deterministic=True)
    return out.reshape(batch)


def _value_dtype(v: np.ndarray) -> dtypes.DType:
    return dtypes.string if v.dtype == object else dtypes.as_dtype(v.dtype)


def _python_value(v: Any, kind: str) -> Any:
    if kind == "TYPE_STRING":
        return v.decode("utf-8") if isinstance(v, bytes) else str(v)
    if kind in ("TYPE_BYTES", "TYPE_MESSAGE", "TYPE_GROUP"):
        return bytes(v)
    return v.item() if hasattr(v, "item") else v


def _encode_rule(ins: list, attrs: dict) -> tuple:
    sizes = ins[0].shape
    return dtypes.string, TensorShape(None) if sizes.rank is None else \
        TensorShape(sizes.as_list()[:-1])


register_op("EncodeProto", _encode_kernel, _encode_rule, input_names=("sizes", "values"))
NotDifferentiable("EncodeProto")


def encode_proto(sizes: TensorLike, values: Sequence[TensorLike], field_names: Sequence[str],
                 message_type: str, descriptor_source: str | bytes = "local://",
                 name: str | None = None) -> Any:
    """Serialized ``message_type`` protos holding the first ``sizes`` values of each field.

    Args:
        sizes: An int32 tensor of shape ``batch + [len(field_names)]``: how many values of
            each field to write.
        values: One tensor per field, of shape ``batch + [n]`` with ``n`` at least the size
            written; dtypes as ``decode_proto``'s output types.
        field_names: The names of the fields.
        message_type: The full name of the message type.
        descriptor_source: ``"local://"``, ``"bytes://"`` followed by a serialized
            FileDescriptorSet, or the path of a file holding one.
        name: A name for the operation (optional).

    Returns:
        A string tensor of shape ``batch`` of serialized messages.

    Raises:
        InvalidArgumentError: an unknown message type or field, a dtype the field's type does
            not allow, or (when run) a size larger than its values.
    """
    values = [convert_to_tensor(v) for v in values]
    cls, field_desc = _message_class(message_type, descriptor_source)
    _fields(cls, field_desc, message_type, field_names,
            [v.dtype.base_dtype for v in values])
    attrs = {"field_names": tuple(field_names), "message_type": message_type,
             "descriptor_source": descriptor_source}
    return apply_op("EncodeProto", [convert_to_tensor(sizes, dtypes.int32), *values], attrs,
                    name=name or "EncodeProto")


__all__ = ["decode_proto", "encode_proto"]
