"""TensorFlow's ``tf.train.Example`` protocol buffers (``tensorflow/core/example/feature.proto``
and ``example.proto``), built with the ``protobuf`` package from their definitions: Example,
SequenceExample, Features, Feature, FeatureList(s), BytesList, FloatList, Int64List. The
serialized bytes are TensorFlow's (same package, names, field numbers and packing)."""
from __future__ import annotations

import functools
from types import SimpleNamespace

MESSAGES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
             "FeatureLists", "Example", "SequenceExample")


def _camel(name: str) -> str:
    """protoc's JSON name of a field: ``int64_list`` -> ``int64List``."""
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def _file_descriptor(descriptor_pb2: object) -> object:
    """The FileDescriptorProto of feature.proto and example.proto (one file, package
    ``tensorflow``)."""
    fd = descriptor_pb2.FileDescriptorProto(name="flowgrad/tensorflow_example.proto",
                                            package="tensorflow", syntax="proto3")
    f = descriptor_pb2.FieldDescriptorProto
    rep, opt = f.LABEL_REPEATED, f.LABEL_OPTIONAL

    def message(name: str, fields: list, nested: tuple = (), oneof: str | None = None) -> None:
        m = fd.message_type.add(name=name)
        if oneof:
            m.oneof_decl.add(name=oneof)
        for fname, number, label, ftype, type_name, packed in fields:
            fld = m.field.add(name=fname, number=number, label=label, type=ftype,
                              json_name=_camel(fname))
            if type_name:
                fld.type_name = type_name
            if packed:
                fld.options.packed = True
            if oneof:
                fld.oneof_index = 0
        for entry_name, value_type in nested:      # map<string, value_type> entries
            e = m.nested_type.add(name=entry_name)
            e.options.map_entry = True
            e.field.add(name="key", number=1, label=opt, type=f.TYPE_STRING, json_name="key")
            e.field.add(name="value", number=2, label=opt, type=f.TYPE_MESSAGE,
                        type_name=value_type, json_name="value")

    message("BytesList", [("value", 1, rep, f.TYPE_BYTES, None, False)])
    message("FloatList", [("value", 1, rep, f.TYPE_FLOAT, None, True)])
    message("Int64List", [("value", 1, rep, f.TYPE_INT64, None, True)])
    message("Feature", [("bytes_list", 1, opt, f.TYPE_MESSAGE, ".tensorflow.BytesList", False),
                        ("float_list", 2, opt, f.TYPE_MESSAGE, ".tensorflow.FloatList", False),
                        ("int64_list", 3, opt, f.TYPE_MESSAGE, ".tensorflow.Int64List", False)],
            oneof="kind")
    message("Features", [("feature", 1, rep, f.TYPE_MESSAGE,
                           ".tensorflow.Features.FeatureEntry", False)],
            nested=(("FeatureEntry", ".tensorflow.Feature"),))
    message("FeatureList", [("feature", 1, rep, f.TYPE_MESSAGE, ".tensorflow.Feature", False)])
    message("FeatureLists", [("feature_list", 1, rep, f.TYPE_MESSAGE,
                              ".tensorflow.FeatureLists.FeatureListEntry", False)],
            nested=(("FeatureListEntry", ".tensorflow.FeatureList"),))
    message("Example", [("features", 1, opt, f.TYPE_MESSAGE, ".tensorflow.Features", False)])
    message("SequenceExample", [
        ("context", 1, opt, f.TYPE_MESSAGE, ".tensorflow.Features", False),
        ("feature_lists", 2, opt, f.TYPE_MESSAGE, ".tensorflow.FeatureLists", False)])
    return fd


@functools.cache
def pb() -> SimpleNamespace:
    """The message classes by name; ImportError with the install hint without protobuf."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError as e:
        raise ImportError("tf.train.Example and tf.io's parsing functions need the optional "
                          "'protobuf' package: pip install flowgrad[io]") from e
    pool = descriptor_pool.DescriptorPool()
    fd = pool.Add(_file_descriptor(descriptor_pb2))
    fd = pool.FindFileByName("flowgrad/tensorflow_example.proto") if fd is None else fd
    return SimpleNamespace(**{n: message_factory.GetMessageClass(fd.message_types_by_name[n])
                              for n in MESSAGES})


def __getattr__(name: str) -> type:
    """``example_protos.Example`` ...: the message classes, built on first use."""
    if name in MESSAGES:
        return getattr(pb(), name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
