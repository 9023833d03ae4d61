"""tf.io.decode_proto / encode_proto (flowgrad/ops/proto_ops.py) against TensorFlow 2.21:
sizes, padded values, written bytes, the output types each field type allows and the error
classes, recorded by tools/tf_reference/proto_ops_reference.py into
tests/data/proto_ops/tf_2_21.json."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

pytest.importorskip("google.protobuf")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("proto_ops_reference.py", "proto_ops/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    """TF2 behaviour (the conftest starts each test in TF1 graph mode)."""
    tf1.enable_v2_behavior()
    yield


@pytest.fixture
def results():
    return json.loads(json.dumps(MODULE.program(tf)))


@pytest.mark.parametrize("key", sorted(RECORD))
def test_decode_and_encode_match_tensorflow(results, key):
    assert results[key] == RECORD[key]


def test_local_source_file_source_and_text_format(tmp_path):
    from google.protobuf import descriptor_pb2

    proto = descriptor_pb2.FileDescriptorProto(name="a.proto", package="pkg",
                                               dependency=["b.proto", "c.proto"])
    sizes, (name, deps) = tf.io.decode_proto(
        [proto.SerializeToString()], "google.protobuf.FileDescriptorProto",
        ["name", "dependency"], [tf.string, tf.string])
    assert sizes.numpy().tolist() == [[1, 2]]
    assert deps.numpy().tolist() == [[b"b.proto", b"c.proto"]]
    path = tmp_path / "item.desc"
    path.write_bytes(MODULE.descriptor_set())
    sizes, (ids,) = tf.io.decode_proto(['id: 5 name: "q"'], "fgtest.Item", ["id"], [tf.int64],
                                       descriptor_source=str(path), message_format="text")
    assert sizes.numpy().tolist() == [[1]] and ids.numpy().tolist() == [[5]]


def test_decode_proto_in_a_tf1_session():
    tf1.disable_v2_behavior()
    src = b"bytes://" + MODULE.descriptor_set()
    ser = tf1.placeholder(tf.string, [None])
    sizes, (tags,) = tf1.io.decode_proto(ser, "fgtest.Item", ["tags"], [tf.int64],
                                         descriptor_source=src)
    assert sizes.shape.as_list() == [None, 1] and tags.shape.as_list() == [None, None]
    encoded = tf1.io.encode_proto(sizes, [tags], ["tags"], "fgtest.Item",
                                  descriptor_source=src)
    with tf1.Session() as sess:
        got_tags, got = sess.run([tags, encoded], {ser: MODULE.messages()[:2]})
    np.testing.assert_array_equal(got_tags, [[10, -20, 0, 0], [1, 2, 3, 4]])
    assert got[1] == bytes.fromhex("2001200220032004")


def test_bad_input_raises_tensorflows_errors_naming_the_thing():
    src = b"bytes://" + MODULE.descriptor_set()
    ser = MODULE.messages()
    with pytest.raises(tf.errors.InvalidArgumentError, match="fgtest.Item.name: string to "
                                                             "DT_INT32"):
        tf.io.decode_proto(ser, "fgtest.Item", ["name"], [tf.int32], descriptor_source=src)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown field: nope in message "
                                                             "type fgtest.Item"):
        tf.io.decode_proto(ser, "fgtest.Item", ["nope"], [tf.int32], descriptor_source=src)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No descriptor found for message "
                                                             "type fgtest.Item"):
        tf.io.decode_proto(ser, "fgtest.Item", ["id"], [tf.int32])
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not represent serialized"):
        tf.io.decode_proto(ser, "fgtest.Item", ["id"], [tf.int32],
                           descriptor_source="/no/such/file.desc")
    with pytest.raises(tf.errors.InvalidArgumentError, match="format must be one of binary"):
        tf.io.decode_proto(ser, "fgtest.Item", ["id"], [tf.int32], descriptor_source=src,
                           message_format="json")
    with pytest.raises(tf.errors.DataLossError, match="Failed to consume entire buffer"):
        tf.io.decode_proto([b"\xff\xff"], "fgtest.Item", ["id"], [tf.int32],
                           descriptor_source=src)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Size to write must not be "
                                                             "larger than value tensor"):
        tf.io.encode_proto([[2]], [[[1]]], ["id"], "fgtest.Item", descriptor_source=src)
