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
        msg = msg.replace(str(OUT) + "/", "")      # fixture paths, relative to tests/data/io
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
        "base64": enc(tf.io.encode_base64([b"hello?>", b"ab", bytes(range(256))])),
        "base64_pad": enc(tf.io.encode_base64([b"hello?>", b"ab"], pad=True)),
        "base64_bad_length": error_of(lambda: tf.io.decode_base64(["a"])),
        "base64_bad_char": error_of(lambda: tf.io.decode_base64(["ab+c"])),
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


# tf.strings cases: (name, function under tf., args, kwargs); {"ragged": x} is
# tf.ragged.constant(x). The tests call flowgrad's function with the same arguments.
STRING_CASES = [
    ("split_whitespace", "strings.split", [["hello world", " a  b\tc ", ""]], {}),
    ("split_sep", "strings.split", [["a,b,,c", ",x,"]], {"sep": ","}),
    ("split_multichar_sep", "strings.split", [["a<>b<>c"]], {"sep": "<>"}),
    ("split_maxsplit", "strings.split", [["a b c d"]], {"maxsplit": 2}),
    ("split_scalar", "strings.split", ["x y  z"], {}),
    ("split_matrix", "strings.split", [[["a b", "c"], ["d e f", ""]]], {}),
    ("split_ragged", "strings.split", [{"ragged": [["a b"], ["c", "d e"]]}], {}),
    ("bytes_split", "strings.bytes_split", [["ab", "", "h\u00e9"]], {}),
    ("join", "strings.join", [[["a", "b"], ["x", "y"]]], {"separator": "-"}),
    ("join_broadcast", "strings.join", [[["a", "b"], "z"]], {}),
    ("reduce_join_all", "strings.reduce_join", [[["a", "b"], ["c", "d"]]], {}),
    ("reduce_join_axis1", "strings.reduce_join", [[["a", "b"], ["c", "d"]]],
     {"axis": 1, "separator": ","}),
    ("reduce_join_axis0_keepdims", "strings.reduce_join", [[["a", "b"], ["c", "d"]]],
     {"axis": 0, "keepdims": True}),
    ("reduce_join_neg_axis", "strings.reduce_join", [[["a", "b"], ["c", "d"]]], {"axis": -1}),
    ("regex_replace", "strings.regex_replace", [["aaa bab", "xyz"], "a+", "<\\0>"], {}),
    ("regex_replace_group", "strings.regex_replace", [["2024-01-31"], "(\\d+)-(\\d+)-(\\d+)",
                                                       "\\3/\\2/\\1"], {}),
    ("regex_replace_first", "strings.regex_replace", [["a a a"], "a", "b"],
     {"replace_global": False}),
    ("regex_replace_punct", "strings.regex_replace", [["Hello, World! It's"], "[^a-z ]", ""],
     {}),
    ("regex_full_match", "strings.regex_full_match", [["abc", "ab", "abcd", ""], "ab.?"], {}),
    ("to_number_float", "strings.to_number", [["1.5", "-2e3", " 7", "inf", "0x10", ".5"]], {}),
    ("to_number_float_bad", "strings.to_number", [["1.5", "abc"]], {}),
    ("to_number_int", "strings.to_number", [["12", "-7", "+3"]], {"out_type": "int32"}),
    ("to_number_int_bad", "strings.to_number", [["1.5"]], {"out_type": "int32"}),
    ("to_number_int64", "strings.to_number", [["9007199254740993"]], {"out_type": "int64"}),
    ("to_number_float64", "strings.to_number", [["0.1", "1e-320"]], {"out_type": "float64"}),
    ("hash_fast", "strings.to_hash_bucket_fast", [["hello", "", "TensorFlow", "h\u00e9"], 1000],
     {}),
    ("hash_strong", "strings.to_hash_bucket_strong", [["hello", "", "TensorFlow"], 77, [1, 2]],
     {}),
    ("as_string_float", "strings.as_string", [[1.5, -2.0, 1e10, 1e-7]], {}),
    ("as_string_precision", "strings.as_string", [[3.14159, 2.5]], {"precision": 2}),
    ("as_string_scientific", "strings.as_string", [[1234.5]], {"scientific": True}),
    ("as_string_shortest", "strings.as_string", [[0.1, 100.0, 1e-7]], {"shortest": True}),
    ("as_string_int_width", "strings.as_string", [[1, -22, 333]], {"width": 5}),
    ("as_string_int_fill", "strings.as_string", [[1, 22]], {"width": 4, "fill": "0"}),
    ("as_string_bool", "strings.as_string", [[True, False]], {}),
    ("length_bytes", "strings.length", [["h\u00e9llo", "", "abc"]], {}),
    ("length_chars", "strings.length", [["h\u00e9llo", "", "abc"]], {"unit": "UTF8_CHAR"}),
    ("substr", "strings.substr", [["hello", "world"], 1, 3], {}),
    ("substr_negative", "strings.substr", [["hello"], -3, 2], {}),
    ("substr_long", "strings.substr", [["hello"], 2, 10], {}),
    ("substr_chars", "strings.substr", [["h\u00e9llo"], 1, 2], {"unit": "UTF8_CHAR"}),
    ("substr_vector_pos", "strings.substr", [["hello", "world"], [0, 1], [1, 2]], {}),
    ("substr_bad_pos", "strings.substr", [["hi"], 3, 1], {}),
    ("lower", "strings.lower", [["ABC def \u00c9"]], {}),
    ("lower_utf8", "strings.lower", [["ABC def \u00c9"]], {"encoding": "utf-8"}),
    ("upper", "strings.upper", [["abc \u00e9"]], {}),
    ("upper_utf8", "strings.upper", [["abc \u00e9"]], {"encoding": "utf-8"}),
    ("strip", "strings.strip", [["  a b \n", "\t", "x"]], {}),
    ("unicode_decode", "strings.unicode_decode", [["h\u00e9", "ab", ""], "UTF-8"], {}),
    ("unicode_decode_scalar", "strings.unicode_decode", ["h\u00e9\u4e16", "UTF-8"], {}),
    ("unicode_decode_bad", "strings.unicode_decode", [{"hex": "61ff62"}, "UTF-8"], {}),
    ("unicode_decode_bad_strict", "strings.unicode_decode", [{"hex": "61ff62"}, "UTF-8"],
     {"errors": "strict"}),
    ("unicode_split", "strings.unicode_split", [["h\u00e9", "ab"], "UTF-8"], {}),
    ("unicode_encode_ragged", "strings.unicode_encode", [{"ragged": [[104, 233], [19990]]},
                                                          "UTF-8"], {}),
    ("unicode_encode_vector", "strings.unicode_encode", [[104, 105], "UTF-8"], {}),
    ("ngrams", "strings.ngrams", [{"ragged": [["a", "b", "c", "d"], ["e"]]}, 2], {}),
    ("ngrams_multi", "strings.ngrams", [{"ragged": [["a", "b", "c"]]}, [1, 3]],
     {"separator": "_"}),
    ("format", "strings.format", ["x={} y={}", [[1, 2], "s"]], {}),
    ("format_summarize", "strings.format", ["{}", [list(range(10))]], {"summarize": 2}),
    ("format_floats", "strings.format", ["{}", [[1.5, 0.1]]], {}),
    ("format_strings", "strings.format", ["v: {}", [["a", "b"]]], {}),
    ("as_string_top", "as_string", [[1, 2]], {}),
    ("unicode_transcode", "strings.unicode_transcode", [["h\u00e9", "ab"], "UTF-8",
                                                        "UTF-16-BE"], {}),
    ("unicode_transcode_bad", "strings.unicode_transcode", [{"hex": "61ff"}, "UTF-8", "UTF-8"],
     {}),
    ("segment_join", "strings.unsorted_segment_join", [["a", "b", "c", "d"], [1, 0, 1, 0], 3],
     {"separator": ":"}),
    ("segment_join_negative", "strings.unsorted_segment_join", [["a", "b"], [1, -1], 3], {}),
    ("segment_join_matrix", "strings.unsorted_segment_join", [[["a", "b"], ["c", "d"]], [1, 1],
                                                              2], {}),
]


def tf_argument(v):
    if isinstance(v, dict) and "ragged" in v:
        return tf.ragged.constant(v["ragged"])
    if isinstance(v, dict) and "hex" in v:
        return bytes.fromhex(v["hex"])
    return v


def call_case(fn: str, args: list, kwargs: dict):
    f = tf
    for part in fn.split("."):
        f = getattr(f, part)
    kw = {k: (getattr(tf, v) if k == "out_type" else v) for k, v in kwargs.items()}
    args = [tf_argument(a) for a in args]
    if fn == "strings.format":
        args[1] = [tf.constant(x) for x in args[1]]
    return f(*args, **kw)


def strings_reference(ref: dict) -> None:
    out = {}
    for name, fn, args, kwargs in STRING_CASES:
        spec = {"fn": fn, "args": args, "kwargs": kwargs}
        err = error_of(lambda fn=fn, args=args, kwargs=kwargs: call_case(fn, args, kwargs))
        spec["error" if err else "result"] = err or enc(call_case(fn, args, kwargs))
        out[name] = spec
    ref["strings"] = out
    ref["repr"] = {"scalar": repr(tf.constant("abc")), "vector": repr(tf.constant(["a", "bc"])),
                   "ragged": repr(tf.ragged.constant([[b"a"], []]))}


# Parsing cases: (name, function, which serialized input, features). A feature is
# [kind, shape, dtype, default] ("fixed", "seq": FixedLenSequenceFeature(allow_missing=True))
# or [kind, dtype] ("var", "ragged").
PARSE_CASES = [
    ("single_fixed", "parse_single_example", "example",
     {"age": ["fixed", [], "int64", None], "scores": ["fixed", [3], "float32", None],
      "name": ["fixed", [2], "string", None]}),
    ("single_default", "parse_single_example", "example",
     {"missing": ["fixed", [2], "float32", [0.5, 1.5]], "m2": ["fixed", [], "string", "d"]}),
    ("single_matrix", "parse_single_example", "example",
     {"scores": ["fixed", [3, 1], "float32", None]}),
    ("single_var", "parse_single_example", "example",
     {"scores": ["var", "float32"], "name": ["var", "string"], "nope": ["var", "int64"],
      "empty": ["var", "int64"]}),
    ("single_seq", "parse_single_example", "example",
     {"scores": ["seq", [], "float32", None], "nope": ["seq", [], "int64", None]}),
    ("single_ragged", "parse_single_example", "example", {"scores": ["ragged", "float32"]}),
    ("batch_fixed", "parse_example", "batch",
     {"age": ["fixed", [], "int64", [-1]], "name": ["fixed", [], "string", "?"]}),
    ("batch_var", "parse_example", "batch",
     {"scores": ["var", "float32"], "name": ["var", "string"]}),
    ("batch_seq", "parse_example", "batch",
     {"scores": ["seq", [], "float32", None], "age": ["seq", [], "int64", 9]}),
    ("batch_ragged", "parse_example", "batch", {"scores": ["ragged", "float32"]}),
    ("missing_required", "parse_single_example", "example",
     {"missing": ["fixed", [], "int64", None]}),
    ("wrong_count", "parse_single_example", "example", {"scores": ["fixed", [2], "float32", None]}),
    ("wrong_type", "parse_single_example", "example", {"age": ["fixed", [], "float32", None]}),
    ("wrong_default_size", "parse_single_example", "example",
     {"age": ["fixed", [], "int64", [1, 2]]}),
]


# parse_single_sequence_example cases: (name, context features, sequence features); the
# SequenceExample is the recorded "sequence_example" (context id; lists tokens [[1, 2], [3]]).
SEQUENCE_CASES = [
    ("var_and_fixed", {"id": ["fixed", [], "string", None], "x": ["var", "int64"]},
     {"tokens": ["var", "int64"], "m": ["seq", [], "int64", None]}),
    ("missing_list", {}, {"nope": ["seqreq", [], "int64", None]}),
    ("wrong_count", {}, {"tokens": ["seqreq", [2], "int64", None]}),
    ("missing_context", {"nope": ["fixed", [], "int64", None]}, {}),
]


def make_feature(spec):
    kind = spec[0]
    if kind == "var":
        return tf.io.VarLenFeature(getattr(tf, spec[1]))
    if kind == "ragged":
        return tf.io.RaggedFeature(getattr(tf, spec[1]))
    if kind == "seqreq":
        return tf.io.FixedLenSequenceFeature(spec[1], getattr(tf, spec[2]))
    cls = tf.io.FixedLenFeature if kind == "fixed" else \
        (lambda s, d, default_value=None: tf.io.FixedLenSequenceFeature(
            s, d, allow_missing=True, default_value=default_value))
    return cls(spec[1], getattr(tf, spec[2]), default_value=spec[3])


def parse_inputs():
    f = tf.train
    other = f.Example(features=f.Features(feature={
        "age": f.Feature(int64_list=f.Int64List(value=[3])),
        "scores": f.Feature(float_list=f.FloatList(value=[7.0]))}))
    return {"example": example().SerializeToString(deterministic=True),
            "batch": [example().SerializeToString(deterministic=True),
                      other.SerializeToString(deterministic=True),
                      f.Example().SerializeToString()]}


def parsing_reference(ref: dict) -> None:
    inputs = parse_inputs()
    ref["parse_inputs"] = {k: enc(v) for k, v in inputs.items()}
    out = {}
    for name, fn, which, feats in PARSE_CASES:
        def run(fn=fn, which=which, feats=feats):
            return getattr(tf.io, fn)(inputs[which], {k: make_feature(v)
                                                      for k, v in feats.items()})
        spec = {"fn": fn, "input": which, "features": feats}
        err = error_of(run)
        spec["error" if err else "result"] = err or enc(run())
        out[name] = spec
    ref["parsing"] = out
    seq = bytes.fromhex(ref["sequence_example"]["hex"])
    out = {}
    for name, ctx, feats in SEQUENCE_CASES:
        def run(ctx=ctx, feats=feats):
            c, s = tf.io.parse_single_sequence_example(
                seq, {k: make_feature(v) for k, v in ctx.items()},
                {k: make_feature(v) for k, v in feats.items()})
            return {"context": c, "sequence": s}
        spec = {"context": ctx, "sequence": feats}
        err = error_of(run)
        spec["error" if err else "result"] = err or enc(run())
        out[name] = spec
    ref["sequence_parsing"] = out
    from google.protobuf import json_format
    text = json_format.MessageToJson(example())
    ref["json_example"] = {"json": text, "binary": enc(tf.io.decode_json_example(text)),
                           "error": error_of(lambda: tf.io.decode_json_example('{"nope": 1}'))}


CSV_TEXT = ('id,score,name,flag\n1,2.5,ada,\n2,,"b,c",NA\n3,-1e3,"q""t",1\n'
            '4,7,plain,0\n')
TEXT_LINES = "first\r\nsecond\n\nlast no newline"

# decode_csv cases: (name, records, record_defaults, kwargs); "" marks a required column of
# the type named in the list ["required", dtype].
CSV_CASES = [
    ("basic", ["1,2.5,a", '3,,"b,c"'], [[0], [0.0], ["x"]], {}),
    ("escaped_quote", ['"a""b",2'], [[""], [0]], {}),
    ("na_value", ["NA,2"], [[5], [0]], {"na_value": "NA"}),
    ("delim", ["1;2"], [[5], [0]], {"field_delim": ";"}),
    ("select_cols", ["1,2,3"], [[5], [0]], {"select_cols": [0, 2]}),
    ("int64_float64", ["99999999999,0.1"], [["int64", 5], ["float64", 0.0]], {}),
    ("no_quote", ['"a",2'], [[""], [0]], {"use_quote_delim": False}),
    ("spaces", [" 1 , 2"], [[0], [0.0]], {}),
    ("matrix", [["1,a", "2,b"], ["3,c", "4,d"]], [[0], [""]], {}),
    ("too_few", ["1,2"], [[0], [0], [0]], {}),
    ("too_many", ["1,2,3"], [[0], [0]], {}),
    ("bad_int", ["a,2"], [[0], [0]], {}),
    ("bad_float", ["1,x"], [[0], [0.0]], {}),
    ("int_overflow", ["99999999999,2"], [[5], [0]], {}),
    ("required_missing", [",2"], [["required", "int32"], [0]], {}),
    ("bad_quote", ['"ab"c,2'], [[""], [0]], {}),
    ("unclosed_quote", ['"ab,2'], [[""], [0]], {}),
]


def tf_defaults(defaults):
    out = []
    for d in defaults:
        if d and d[0] == "required":
            out.append(tf.constant([], getattr(tf, d[1])))
        elif d and d[0] in ("int64", "float64"):
            out.append(tf.constant([d[1]], getattr(tf, d[0])))
        else:
            out.append(d)
    return out


def csv_reference(ref: dict) -> None:
    (OUT / "table.csv").write_text(CSV_TEXT)
    (OUT / "lines.txt").write_text(TEXT_LINES)
    import gzip
    (OUT / "lines.txt.gz").write_bytes(gzip.compress(TEXT_LINES.encode(), mtime=0))
    out = {}
    for name, records, defaults, kwargs in CSV_CASES:
        def run(records=records, defaults=defaults, kwargs=kwargs):
            return tf.io.decode_csv(records, tf_defaults(defaults), **kwargs)
        spec = {"records": records, "defaults": defaults, "kwargs": kwargs}
        err = error_of(run)
        spec["error" if err else "result"] = err or enc(run())
        out[name] = spec
    ref["decode_csv"] = out
    path = str(OUT / "table.csv")
    ex = tf.data.experimental
    ref["csv_dataset"] = {
        "all": enc([list(r) for r in ex.CsvDataset(
            path, [[0], [0.0], [""], [-1]], header=True, na_value="NA").as_numpy_iterator()]),
        "select": enc([list(r) for r in ex.CsvDataset(
            path, [tf.int64, tf.string], header=True, select_cols=[0, 2]).as_numpy_iterator()]),
        "exclude": enc([list(r) for r in ex.CsvDataset(
            path, [[0], [""]], header=True, exclude_cols=[1, 3]).as_numpy_iterator()]),
        "no_header_error": error_of(lambda: list(ex.CsvDataset(path, [[0], [0.0], [""], [0]]))),
    }
    batches = []
    for features, label in ex.make_csv_dataset(path, 3, label_name="name", shuffle=False,
                                               num_epochs=1, na_value="NA"):
        batches.append({"features": enc(dict(features)), "label": enc(label),
                        "order": list(features)})
    ref["make_csv_dataset"] = {"label_name": batches}
    batches = []
    for features in ex.make_csv_dataset(path, 2, select_columns=["id", "name"], shuffle=False,
                                        num_epochs=2):
        batches.append({"features": enc(dict(features)), "order": list(features)})
    ref["make_csv_dataset"]["select_two_epochs"] = batches
    forever = ex.make_csv_dataset(path, 3, shuffle=False, column_defaults=[tf.int32, 0.0, "",
                                                                          tf.string])
    ref["make_csv_dataset"]["forever_spec"] = {k: [v.shape.as_list(), v.dtype.name]
                                               for k, v in forever.element_spec.items()}
    fixed = OUT / "fixed.bin"
    fixed.write_bytes(b"HH" + bytes(range(12)) + b"F")
    ref["fixed_length"] = {
        "records": enc(list(tf.data.FixedLengthRecordDataset(
            str(fixed), 4, header_bytes=2, footer_bytes=1).as_numpy_iterator())),
        "bad_size": error_of(lambda: list(tf.data.FixedLengthRecordDataset(
            str(fixed), 5, header_bytes=2, footer_bytes=1)))}
    ref["text_lines"] = {
        "plain": enc(list(tf.data.TextLineDataset(str(OUT / "lines.txt")).as_numpy_iterator())),
        "gzip": enc(list(tf.data.TextLineDataset(str(OUT / "lines.txt.gz"), "GZIP")
                         .as_numpy_iterator())),
        "skip_header": enc(list(tf.data.TextLineDataset(str(OUT / "table.csv")).skip(1)
                                .as_numpy_iterator())),
    }


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
