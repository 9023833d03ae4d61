"""``tf.io.decode_proto`` / ``tf.io.encode_proto`` with a message type given by a serialized
FileDescriptorSet (``descriptor_source="bytes://..."``): a proto2 message with scalar and
repeated fields of most field types, defaults, a nested message and an enum; sizes and
padded values of a batch, the bytes ``encode_proto`` writes and the error classes.

``program(tf)`` runs with ``tf`` either TensorFlow or flowgrad (TF2 face, eager). Record
with TensorFlow 2.21::

    /work/venv-tf/bin/python tools/tf_reference/proto_ops_reference.py \\
        > tests/data/proto_ops/tf_2_21.json

tests/test_proto_ops.py runs the same program on flowgrad and compares.
"""
import json

import numpy as np

# (name, number, type, label, type_name, default)
_FIELDS = [
    ("id", 1, "TYPE_INT32", "LABEL_OPTIONAL", None, "7"),
    ("scores", 2, "TYPE_FLOAT", "LABEL_REPEATED", None, None),
    ("name", 3, "TYPE_STRING", "LABEL_OPTIONAL", None, "anon"),
    ("tags", 4, "TYPE_INT64", "LABEL_REPEATED", None, None),
    ("flag", 5, "TYPE_BOOL", "LABEL_OPTIONAL", None, None),
    ("value", 6, "TYPE_DOUBLE", "LABEL_OPTIONAL", None, "2.5"),
    ("count", 7, "TYPE_UINT32", "LABEL_OPTIONAL", None, None),
    ("big", 8, "TYPE_UINT64", "LABEL_REPEATED", None, None),
    ("delta", 9, "TYPE_SINT32", "LABEL_REPEATED", None, None),
    ("fixed", 10, "TYPE_FIXED64", "LABEL_OPTIONAL", None, None),
    ("color", 11, "TYPE_ENUM", "LABEL_OPTIONAL", ".fgtest.Color", None),
    ("child", 12, "TYPE_MESSAGE", "LABEL_REPEATED", ".fgtest.Child", None),
    ("blob", 13, "TYPE_BYTES", "LABEL_OPTIONAL", None, None),
]


def descriptor_set():
    """The serialized FileDescriptorSet of fgtest.Item, fgtest.Child and fgtest.Color."""
    from google.protobuf import descriptor_pb2 as d

    fds = d.FileDescriptorSet()
    f = fds.file.add(name="fgtest/item.proto", package="fgtest", syntax="proto2")
    enum = f.enum_type.add(name="Color")
    for i, n in enumerate(["RED", "GREEN", "BLUE"]):
        enum.value.add(name=n, number=i)
    child = f.message_type.add(name="Child")
    child.field.add(name="x", number=1, type=d.FieldDescriptorProto.TYPE_INT32,
                    label=d.FieldDescriptorProto.LABEL_OPTIONAL)
    item = f.message_type.add(name="Item")
    for name, number, typ, label, type_name, default in _FIELDS:
        fd = item.field.add(name=name, number=number,
                            type=getattr(d.FieldDescriptorProto, typ),
                            label=getattr(d.FieldDescriptorProto, label))
        if type_name:
            fd.type_name = type_name
        if default is not None:
            fd.default_value = default
    return fds.SerializeToString()


def messages():
    """Three serialized fgtest.Item messages (the last empty)."""
    from google.protobuf import descriptor_pool, message_factory
    from google.protobuf import descriptor_pb2 as d

    pool = descriptor_pool.DescriptorPool()
    for f in d.FileDescriptorSet.FromString(descriptor_set()).file:
        pool.Add(f)
    item = message_factory.GetMessageClass(pool.FindMessageTypeByName("fgtest.Item"))
    child = message_factory.GetMessageClass(pool.FindMessageTypeByName("fgtest.Child"))
    a = item(id=3, scores=[0.5, 1.5, -2.0], name="alpha", tags=[10, -20], flag=True,
             value=-1.25, count=4000000000, big=[2 ** 63 + 5], delta=[-3, 4],
             fixed=2 ** 40, color=2, child=[child(x=1), child(x=2)], blob=b"\x00\xff")
    b = item(scores=[3.0], tags=[1, 2, 3, 4], big=[1, 2], color=1)
    return [a.SerializeToString(), b.SerializeToString(), b""]


FIELDS = ["id", "scores", "name", "tags", "flag", "value", "count", "big", "delta", "fixed",
          "color", "child", "blob"]


def _types(tf):
    return [tf.int32, tf.float32, tf.string, tf.int64, tf.bool, tf.float64, tf.uint32,
            tf.uint64, tf.int32, tf.uint64, tf.int32, tf.string, tf.string]


def _plain(t):
    v = t.numpy()
    if v.dtype == object:
        return [x.hex() for x in v.ravel()], list(v.shape), "string"
    return v.tolist(), list(v.shape), t.dtype.name


def program(tf):
    """Decoded sizes and values of a batch (and a [2, 1] batch), re-encoded bytes, the
    int64/float64 widenings TensorFlow allows, and the errors' classes."""
    src = b"bytes://" + descriptor_set()
    ser = messages()
    out = {}
    sizes, values = tf.io.decode_proto(tf.constant(ser), "fgtest.Item", FIELDS, _types(tf),
                                       descriptor_source=src)
    out["sizes"] = _plain(sizes)
    out["values"] = {f: _plain(v) for f, v in zip(FIELDS, values)}
    grid_sizes, grid = tf.io.decode_proto(tf.constant(np.array(ser[:2], object).reshape(2, 1)),
                                          "fgtest.Item", ["tags", "name"],
                                          [tf.int64, tf.string], descriptor_source=src)
    out["grid"] = [_plain(grid_sizes)] + [_plain(v) for v in grid]
    wide_sizes, wide = tf.io.decode_proto(tf.constant(ser), "fgtest.Item",
                                          ["id", "count", "scores", "delta"],
                                          [tf.int64, tf.uint64, tf.float64, tf.int64],
                                          descriptor_source=src)
    out["widened"] = [_plain(wide_sizes)] + [_plain(v) for v in wide]
    allowed = {}
    for field in FIELDS:
        allowed[field] = []
        for dt in (tf.int32, tf.int64, tf.uint32, tf.uint64, tf.float32, tf.float64, tf.bool,
                   tf.string):
            try:
                tf.io.decode_proto(tf.constant(ser[:1]), "fgtest.Item", [field], [dt],
                                   descriptor_source=src)
                allowed[field].append(dt.name)
            except Exception:  # noqa: BLE001 - not a compatible output type
                pass
    out["allowed_types"] = allowed
    keep = [f for f in FIELDS if f != "child"]
    child = FIELDS.index("child")
    encoded = tf.io.encode_proto(tf.concat([sizes[:, :child], sizes[:, child + 1:]], 1),
                                 [v for f, v in zip(FIELDS, values) if f != "child"],
                                 keep, "fgtest.Item", descriptor_source=src)
    out["encoded"] = _plain(encoded)
    roundtrip = tf.io.encode_proto(sizes, values, FIELDS, "fgtest.Item",
                                   descriptor_source=src)
    out["roundtrip"] = _plain(roundtrip)
    errors = {
        "unknown_type": lambda: tf.io.decode_proto(tf.constant(ser), "fgtest.Nope", ["id"],
                                                   [tf.int32], descriptor_source=src),
        "unknown_field": lambda: tf.io.decode_proto(tf.constant(ser), "fgtest.Item", ["nope"],
                                                    [tf.int32], descriptor_source=src),
        "wrong_type": lambda: tf.io.decode_proto(tf.constant(ser), "fgtest.Item", ["name"],
                                                 [tf.int32], descriptor_source=src),
        "count_mismatch": lambda: tf.io.decode_proto(tf.constant(ser), "fgtest.Item",
                                                     ["id", "name"], [tf.int32],
                                                     descriptor_source=src),
        "bad_bytes": lambda: tf.io.decode_proto(tf.constant([b"\xff\xff"]), "fgtest.Item",
                                                ["id"], [tf.int32], descriptor_source=src),
        "encode_size_too_big": lambda: tf.io.encode_proto(
            tf.constant([[2]]), [tf.constant([[1]])], ["id"], "fgtest.Item",
            descriptor_source=src),
    }
    for key, fn in errors.items():
        try:
            fn()
            out["error_" + key] = None
        except Exception as e:  # noqa: BLE001 - the recorded error
            out["error_" + key] = type(e).__name__
    return out


if __name__ == "__main__":
    import tensorflow as tf2

    print(json.dumps(program(tf2), sort_keys=True))
