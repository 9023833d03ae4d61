"""Records what TensorFlow 2.21 writes and returns for flowgrad's tf.io / tf.strings tests.

Run with the separate TensorFlow environment (tests never need TensorFlow):

    /work/venv-tf/bin/python tools/tf_reference/io_reference.py

Writes into tests/data/io/:
- ``records*.tfrecord``: TFRecord files TensorFlow wrote (plain, GZIP, ZLIB) for RECORDS;
- ``reference.json``: serialized Examples, serialize_tensor bytes, TensorFlow's outputs of the
  tf.strings functions, of parse_example/parse_single_example, decode_csv, CSV and text
  datasets, and error classes/messages for bad input.

Byte strings are stored as ``{"hex": ...}``; arrays as ``{"dtype", "shape", "values"}``.
"""
from __future__ import annotations

import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "io"
RECORDS = [b"", b"hello", bytes(range(256)), "w\u00f6rld".encode() * 50]


def enc(v):
    """A JSON-able form of a value (bytes as hex, arrays with dtype and shape)."""
    if isinstance(v, tf.SparseTensor):
        return {"sparse": True, "indices": enc(v.indices), "values": enc(v.values),
                "dense_shape": enc(v.dense_shape)}
    if isinstance(v, tf.RaggedTensor):
        return {"ragged": True, "flat_values": enc(v.flat_values),
                "nested_row_splits": [enc(s) for s in v.nested_row_splits]}
    if isinstance(v, (tf.Tensor, tf.Variable)):
        v = v.numpy()
    if isinstance(v, bytes):
        return {"hex": v.hex()}
    if isinstance(v, dict):
        return {k: enc(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        dtype = "string" if a.dtype == object else a.dtype.name
        vals = [x.hex() for x in a.ravel()] if a.dtype == object else a.ravel().tolist()
        if a.dtype.kind == "f":
            vals = [repr(float(x)) for x in a.ravel()]     # nan/inf survive JSON
        return {"dtype": dtype, "shape": list(a.shape), "values": vals}
    return v


def error_of(fn):
    """TensorFlow's error class and message for ``fn()`` (None if it succeeds)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording whatever TensorFlow raises
        msg = getattr(e, "message", str(e))
        if msg.startswith("{{function_node"):
            msg = msg.split("}} ", 1)[1]
        return {"class": type(e).__name__, "message": msg.split(" [Op:")[0]}
    return None


def example() -> tf.train.Example:
    f = tf.train
    return f.Example(features=f.Features(feature={
        "age": f.Feature(int64_list=f.Int64List(value=[29])),
        "scores": f.Feature(float_list=f.FloatList(value=[1.5, -2.25, 3.0])),
        "name": f.Feature(bytes_list=f.BytesList(value=[b"ada", "l\u00f6vel".encode()])),
        "empty": f.Feature(int64_list=f.Int64List(value=[])),
    }))


def record_files(ref: dict) -> None:
    for suffix, kind in (("", ""), ("_gzip", "GZIP"), ("_zlib", "ZLIB")):
        with tf.io.TFRecordWriter(str(OUT / ("records%s.tfrecord" % suffix)), kind) as w:
            for r in RECORDS:
                w.write(r)
    ref["records"] = [enc(r) for r in RECORDS]
    ref["example"] = enc(example().SerializeToString(deterministic=True))
    f = tf.train
    seq = f.SequenceExample(
        context=f.Features(feature={"id": f.Feature(bytes_list=f.BytesList(value=[b"s1"]))}),
        feature_lists=f.FeatureLists(feature_list={"tokens": f.FeatureList(feature=[
            f.Feature(int64_list=f.Int64List(value=[1, 2])),
            f.Feature(int64_list=f.Int64List(value=[3]))])}))
    ref["sequence_example"] = enc(seq.SerializeToString(deterministic=True))
    tensors = {"float32": tf.constant([[1.5, -2.0], [0.0, 3.25]]),
               "int64": tf.constant([1, -2, 3], tf.int64), "bool": tf.constant([True, False]),
               "string": tf.constant([b"a", b"", b"xyz"]), "scalar": tf.constant(7),
               "float64_empty": tf.zeros([0, 2], tf.float64),
               "uint8": tf.constant([[0, 255]], tf.uint8)}
    ref["serialize_tensor"] = {k: enc(tf.io.serialize_tensor(t)) for k, t in tensors.items()}
    bad = tf.io.serialize_tensor(tf.constant([1.0]))
    ref["parse_tensor_errors"] = {
        "wrong_dtype": error_of(lambda: tf.io.parse_tensor(bad, tf.int32)),
        "garbage": error_of(lambda: tf.io.parse_tensor(b"\xff\xff", tf.float32)),
    }
    ref["decode_raw"] = {
        "int16_le": enc(tf.io.decode_raw(tf.constant([b"abcd", b"efgh"]), tf.int16)),
        "int32_be": enc(tf.io.decode_raw(tf.constant(b"\x00\x00\x01\x02"), tf.int32,
                                         little_endian=False)),
        "float32": enc(tf.io.decode_raw(tf.constant([[b"\x00\x00\x80?"]]), tf.float32)),
        "fixed_length": enc(tf.io.decode_raw(tf.constant([b"ab", b"abcdef"]), tf.uint8,
                                             fixed_length=4)),
        "odd_length": error_of(lambda: tf.io.decode_raw(tf.constant(b"abc"), tf.int16)),
        "mixed_lengths": error_of(lambda: tf.io.decode_raw(tf.constant([b"ab", b"abcd"]),
                                                           tf.int16)),
    }
    damaged = OUT / "damaged.tfrecord"
    data = (OUT / "records.tfrecord").read_bytes()
    tmp = pathlib.Path("/tmp/flowgrad_io_reference")
    tmp.mkdir(exist_ok=True)
    cases = {"flipped_data": data[:30] + bytes([data[30] ^ 1]) + data[31:],
             "flipped_length": bytes([data[0] ^ 4]) + data[1:],
             "truncated": data[:-3]}
    ref["damaged"] = {}
    for k, d in cases.items():
        (tmp / k).write_bytes(d)
        ref["damaged"][k] = error_of(lambda p=str(tmp / k): list(tf.data.TFRecordDataset(p)))
    damaged.unlink(missing_ok=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ref: dict = {"tensorflow": tf.__version__}
    record_files(ref)
    for name in ("strings_reference", "parsing_reference", "csv_reference"):
        fn = globals().get(name)
        if fn is not None:
            fn(ref)
    (OUT / "reference.json").write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
