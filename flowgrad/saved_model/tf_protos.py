"""TensorFlow's protocol buffers (GraphDef, NodeDef, AttrValue, TensorProto, FunctionDef,
MetaGraphDef, SavedObjectGraph, SaverDef, ...) as the optional ``tensorboard`` package ships
them under ``tensorboard.compat.proto``, and conversions between them and flowgrad's dtypes,
shapes and arrays.

``tensorboard`` does not ship ``saved_model.proto``; its one message (``SavedModel``: a
schema version and the MetaGraphDefs) is declared here over tensorboard's ``MetaGraphDef``,
with TensorFlow's field numbers, so the bytes are TensorFlow's."""
from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, ShapeLike

INSTALL_HINT = "pip install flowgrad[tf-formats]"

#: flowgrad dtype name -> TensorFlow's DataType enum name.
_DT_NAMES = {"float16": "DT_HALF", "float32": "DT_FLOAT", "float64": "DT_DOUBLE",
             "bfloat16": "DT_BFLOAT16", "int8": "DT_INT8", "int16": "DT_INT16",
             "int32": "DT_INT32", "int64": "DT_INT64", "uint8": "DT_UINT8",
             "uint16": "DT_UINT16", "uint32": "DT_UINT32", "uint64": "DT_UINT64",
             "bool": "DT_BOOL", "string": "DT_STRING", "complex64": "DT_COMPLEX64",
             "complex128": "DT_COMPLEX128", "resource": "DT_RESOURCE",
             "variant": "DT_VARIANT"}


#: TF1's top-level message classes: name -> (module attribute of :func:`pb`, class name).
GRAPH_MESSAGES = {"GraphDef": ("graph_pb2", "GraphDef"), "NodeDef": ("node_def_pb2", "NodeDef"),
                  "MetaGraphDef": ("meta_graph_pb2", "MetaGraphDef"),
                  "AttrValue": ("attr_value_pb2", "AttrValue"),
                  "NameAttrList": ("attr_value_pb2", "NameAttrList"),
                  "TensorInfo": ("meta_graph_pb2", "TensorInfo")}


def message_class(name: str) -> type:
    """The class of TF1's message ``name`` (``tf.compat.v1.GraphDef``, ...)."""
    module, cls = GRAPH_MESSAGES[name]
    return getattr(getattr(pb(), module), cls)


@functools.cache
def pb() -> SimpleNamespace:
    """The proto modules; ImportError with the install hint when tensorboard is missing."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format
        from tensorboard.compat.proto import (
            attr_value_pb2,
            function_pb2,
            graph_pb2,
            meta_graph_pb2,
            node_def_pb2,
            op_def_pb2,
            saved_object_graph_pb2,
            saver_pb2,
            struct_pb2,
            tensor_pb2,
            tensor_shape_pb2,
            trackable_object_graph_pb2,
            types_pb2,
            variable_pb2,
            versions_pb2,
        )
    except ImportError as e:
        raise ImportError("Reading and writing TensorFlow's GraphDef, MetaGraphDef and "
                          "SavedModel files needs TensorFlow's protocol buffers from the "
                          "optional 'tensorboard' package: %s" % INSTALL_HINT) from e
    return SimpleNamespace(
        attr_value_pb2=attr_value_pb2, function_pb2=function_pb2, graph_pb2=graph_pb2,
        meta_graph_pb2=meta_graph_pb2, node_def_pb2=node_def_pb2, op_def_pb2=op_def_pb2,
        saved_object_graph_pb2=saved_object_graph_pb2, saver_pb2=saver_pb2,
        struct_pb2=struct_pb2, tensor_pb2=tensor_pb2, tensor_shape_pb2=tensor_shape_pb2,
        trackable_object_graph_pb2=trackable_object_graph_pb2, types_pb2=types_pb2,
        variable_pb2=variable_pb2, versions_pb2=versions_pb2, text_format=text_format,
        SavedModel=_saved_model_class(descriptor_pb2, descriptor_pool, message_factory,
                                      meta_graph_pb2))


def _saved_model_class(descriptor_pb2: Any, descriptor_pool: Any, message_factory: Any,
                       meta_graph_pb2: Any) -> type:
    """TensorFlow's ``SavedModel`` message (saved_model.proto), over tensorboard's protos."""
    pool = descriptor_pool.Default()
    name = "flowgrad/saved_model/saved_model.proto"
    try:
        fd = pool.FindFileByName(name)
    except KeyError:
        f = descriptor_pb2.FileDescriptorProto(
            name=name, package=meta_graph_pb2.DESCRIPTOR.package, syntax="proto3",
            dependency=[meta_graph_pb2.DESCRIPTOR.name])
        m = f.message_type.add(name="SavedModel")
        F = descriptor_pb2.FieldDescriptorProto
        m.field.add(name="saved_model_schema_version", number=1, type=F.TYPE_INT64,
                    label=F.LABEL_OPTIONAL)
        m.field.add(name="meta_graphs", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                    type_name="." + meta_graph_pb2.MetaGraphDef.DESCRIPTOR.full_name)
        fd = pool.Add(f) or pool.FindFileByName(name)
    return message_factory.GetMessageClass(fd.message_types_by_name["SavedModel"])


# --------------------------------------------------------------------------------------
# dtypes, shapes, tensors


def data_type(dtype: DTypeLike) -> int:
    """TensorFlow's DataType enum value of a dtype (reference dtypes as DT_*_REF)."""
    dt = dtypes.as_dtype(dtype)
    name = _DT_NAMES.get(dt.base_dtype.name)
    if name is None:
        raise TypeError("dtype %s has no TensorFlow DataType" % dt.name)
    v = pb().types_pb2.DataType.Value(name)
    return v + 100 if dt.base_dtype is not dt else v


def as_dtype(enum: int) -> dtypes.DType:
    """The flowgrad dtype of a DataType enum value (reference types as their base type)."""
    name = pb().types_pb2.DataType.Name(enum % 100 if enum > 100 else enum)
    for k, v in _DT_NAMES.items():
        if v == name:
            return dtypes.as_dtype(k)
    raise TypeError("TensorFlow's %s has no flowgrad dtype" % name)


def shape_proto(shape: ShapeLike) -> Any:
    """A TensorShapeProto (unknown dimensions as -1, unknown rank as unknown_rank)."""
    return TensorShape(shape).as_proto()


def as_shape(proto: Any) -> TensorShape:
    """The TensorShape of a TensorShapeProto."""
    return TensorShape(proto)


def tensor_proto(value: Any, dtype: DTypeLike | None = None) -> Any:
    """A TensorProto holding ``value`` (as TensorFlow encodes it: ``tensor_content`` for
    numbers, ``string_val`` for strings, ``half_val`` for float16/bfloat16)."""
    p = pb()
    a = np.asarray(value)
    dt = dtypes.as_dtype(dtype if dtype is not None else
                         ("string" if a.dtype.kind in "SUO" else a.dtype))
    proto = p.tensor_pb2.TensorProto(dtype=data_type(dt), tensor_shape=shape_proto(a.shape))
    if dt.name == "string":
        proto.string_val.extend([v if isinstance(v, bytes) else str(v).encode()
                                 for v in a.ravel()])
    elif dt.name in ("float16", "bfloat16"):
        proto.half_val.extend(np.ascontiguousarray(a).view(np.uint16).ravel().tolist())
    else:
        proto.tensor_content = np.ascontiguousarray(a.astype(dt.as_numpy_dtype)).tobytes()
    return proto


_VALUE_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val",
                 "int16": "int_val", "int8": "int_val", "uint8": "int_val",
                 "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
                 "uint64": "uint64_val", "bool": "bool_val", "complex64": "scomplex_val",
                 "complex128": "dcomplex_val"}


def to_array(proto: Any) -> np.ndarray:
    """The ndarray of a TensorProto (any of TensorFlow's encodings; a value shorter than
    the shape repeats its last element, as TensorFlow reads it)."""
    dt = as_dtype(proto.dtype)
    shape = as_shape(proto.tensor_shape).as_list()
    n = int(np.prod(shape, dtype=np.int64))
    if dt.name == "string":
        flat = np.array(list(proto.string_val), dtype=object)
    elif proto.tensor_content:
        return np.frombuffer(proto.tensor_content, dtype=dt.as_numpy_dtype).reshape(shape).copy()
    elif dt.name in ("float16", "bfloat16"):
        flat = np.array(list(proto.half_val), np.uint16).view(dt.as_numpy_dtype)
    else:
        vals = list(getattr(proto, _VALUE_FIELDS[dt.name]))
        if dt.is_complex:
            vals = [complex(r, i) for r, i in zip(vals[0::2], vals[1::2])]
        flat = np.array(vals, dtype=dt.as_numpy_dtype)
    if flat.size == n:
        return flat.reshape(shape)
    if flat.size == 0:
        return np.zeros(shape, dtype=dt.as_numpy_dtype if dt.name != "string" else object)
    out = np.empty(n, dtype=flat.dtype)
    out[:flat.size] = flat
    out[flat.size:] = flat[-1]
    return out.reshape(shape)


# --------------------------------------------------------------------------------------
# Files


def read_message(message: str, path: str) -> Any:
    """Parses ``path`` (binary, or text format for a ``.pbtxt``/``.txt`` file or bytes that
    do not parse as binary) into ``message``; errors name the file."""
    from flowgrad.framework import errors
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
    text_first = path.endswith((".pbtxt", ".txt"))
    attempts = ("text", "binary") if text_first else ("binary", "text")
    for kind in attempts:
        try:
            message.Clear()
            if kind == "binary":
                message.ParseFromString(data)
            else:
                pb().text_format.Parse(data.decode("utf-8"), message)
            return message
        except Exception:     # noqa: BLE001 - either encoding may be the file's
            continue
    raise errors.DataLossError(None, None, "Cannot parse %s as a %s (binary or text "
                               "format)" % (path, message.DESCRIPTOR.name))
