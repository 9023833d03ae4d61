"""tf.io and tf.io.gfile, TFRecord files and the tf.train.Example protos, pinned against
TensorFlow 2.21 (tests/data/io, made by tools/tf_reference/io_reference.py): flowgrad reads
the records TensorFlow wrote and writes the same bytes, in both faces."""
from __future__ import annotations

import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from io_reference import DATA, REF, dec, same

RECORDS = dec(REF["records"])
KINDS = [("", ""), ("_gzip", "GZIP"), ("_zlib", "ZLIB")]


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


@pytest.mark.parametrize("suffix,kind", KINDS)
def test_reads_tensorflows_records(suffix, kind):
    path = str(DATA / ("records%s.tfrecord" % suffix))
    got = [t.numpy() for t in tf.data.TFRecordDataset(path, compression_type=kind)]
    assert got == RECORDS
    assert list(tf1.io.tf_record_iterator(path, tf.io.TFRecordOptions(kind))) == RECORDS
    assert list(tf1.python_io.tf_record_iterator(path, kind)) == RECORDS


@pytest.mark.parametrize("suffix,kind", KINDS)
def test_writes_tensorflows_bytes(tmp_path, suffix, kind):
    path = tmp_path / "out.tfrecord"
    with tf.io.TFRecordWriter(str(path), kind) as w:
        for r in RECORDS:
            w.write(r)
    assert path.read_bytes() == (DATA / ("records%s.tfrecord" % suffix)).read_bytes()
    writer = tf1.python_io.TFRecordWriter(str(tmp_path / "v1"),
                                          tf1.python_io.TFRecordOptions(kind))
    for r in RECORDS:
        writer.write(r)
    writer.close()
    assert (tmp_path / "v1").read_bytes() == path.read_bytes()


def test_unknown_compression_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="Unsupported compression type: LZ4"):
        tf.io.TFRecordWriter(str(tmp_path / "x"), "LZ4")


@pytest.mark.parametrize("case", ["flipped_data", "flipped_length", "truncated"])
def test_damaged_records_raise_data_loss_naming_the_file(tmp_path, case):
    data = (DATA / "records.tfrecord").read_bytes()
    damaged = {"flipped_data": data[:30] + bytes([data[30] ^ 1]) + data[31:],
               "flipped_length": bytes([data[0] ^ 4]) + data[1:],
               "truncated": data[:-3]}[case]
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(damaged)
    want = REF["damaged"][case]
    with pytest.raises(errors.DataLossError) as e:
        list(tf.data.TFRecordDataset(str(path)))
    assert want["class"] == "DataLossError"
    assert str(e.value).startswith(want["message"].split("'")[0])
    assert str(path) in str(e.value)


def test_num_parallel_reads_interleaves_files_as_tensorflow(tmp_path):
    names = []
    for c in range(3):
        names.append(str(tmp_path / ("f%d" % c)))
        with tf.io.TFRecordWriter(names[-1]) as w:
            for i in range(c + 2):
                w.write(b"f%d-%d" % (c, i))
    got = list(tf.data.TFRecordDataset(names, num_parallel_reads=2).as_numpy_iterator())
    # TensorFlow 2.21's order (a slot whose file ends opens the next file for its next turn)
    assert got == [b"f0-0", b"f1-0", b"f0-1", b"f1-1", b"f1-2", b"f2-0", b"f2-1", b"f2-2",
                   b"f2-3"]
    from_ds = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(names[:1]))
    assert list(from_ds.as_numpy_iterator()) == [b"f0-0", b"f0-1"]


def test_tfrecord_dataset_in_graph_mode(tmp_path):
    path = str(DATA / "records.tfrecord")
    g = tf.Graph()
    with g.as_default():
        nxt = tf1.data.make_one_shot_iterator(tf.data.TFRecordDataset(path)).get_next()
        with tf1.Session() as s:
            assert [s.run(nxt) for _ in RECORDS] == RECORDS
            with pytest.raises(errors.OutOfRangeError):
                s.run(nxt)


def test_example_protos_serialize_as_tensorflow():
    f = tf.train
    ex = f.Example(features=f.Features(feature={
        "age": f.Feature(int64_list=f.Int64List(value=[29])),
        "scores": f.Feature(float_list=f.FloatList(value=[1.5, -2.25, 3.0])),
        "name": f.Feature(bytes_list=f.BytesList(value=[b"ada", "l\u00f6vel".encode()])),
        "empty": f.Feature(int64_list=f.Int64List(value=[])),
    }))
    assert ex.SerializeToString(deterministic=True) == dec(REF["example"])
    back = tf1.train.Example.FromString(dec(REF["example"]))
    assert list(back.features.feature["scores"].float_list.value) == [1.5, -2.25, 3.0]
    seq = f.SequenceExample(
        context=f.Features(feature={"id": f.Feature(bytes_list=f.BytesList(value=[b"s1"]))}),
        feature_lists=f.FeatureLists(feature_list={"tokens": f.FeatureList(feature=[
            f.Feature(int64_list=f.Int64List(value=[1, 2])),
            f.Feature(int64_list=f.Int64List(value=[3]))])}))
    assert seq.SerializeToString(deterministic=True) == dec(REF["sequence_example"])
    assert type(ex).DESCRIPTOR.full_name == "tensorflow.Example"


def test_serialize_tensor_gives_tensorflows_bytes_and_parses_back():
    tensors = {"float32": tf.constant([[1.5, -2.0], [0.0, 3.25]]),
               "int64": tf.constant([1, -2, 3], tf.int64), "bool": tf.constant([True, False]),
               "string": tf.constant([b"a", b"", b"xyz"]), "scalar": tf.constant(7),
               "float64_empty": tf.zeros([0, 2], tf.float64),
               "uint8": tf.constant([[0, 255]], tf.uint8)}
    for key, t in tensors.items():
        s = tf.io.serialize_tensor(t)
        assert s.numpy() == dec(REF["serialize_tensor"][key]), key
        back = tf.io.parse_tensor(s, t.dtype)
        assert back.shape == t.shape and np.array_equal(back.numpy(), t.numpy()), key


def test_parse_tensor_errors_are_tensorflows():
    s = tf.io.serialize_tensor(tf.constant([1.0]))
    for key, call in (("wrong_dtype", lambda: tf.io.parse_tensor(s, tf.int32)),
                      ("garbage", lambda: tf.io.parse_tensor(b"\xff\xff", tf.float32))):
        want = REF["parse_tensor_errors"][key]
        with pytest.raises(getattr(errors, want["class"])) as e:
            call()
        assert str(e.value).startswith(want["message"])


def test_decode_raw_matches_tensorflow():
    ref = REF["decode_raw"]
    same(tf.io.decode_raw(tf.constant([b"abcd", b"efgh"]), tf.int16), dec(ref["int16_le"]))
    same(tf.io.decode_raw(b"\x00\x00\x01\x02", tf.int32, little_endian=False),
         dec(ref["int32_be"]))
    same(tf.io.decode_raw([[b"\x00\x00\x80?"]], tf.float32), dec(ref["float32"]))
    same(tf.io.decode_raw([b"ab", b"abcdef"], tf.uint8, fixed_length=4),
         dec(ref["fixed_length"]))
    for key, arg in (("odd_length", b"abc"), ("mixed_lengths", [b"ab", b"abcd"])):
        with pytest.raises(errors.InvalidArgumentError) as e:
            tf.io.decode_raw(arg, tf.int16)
        assert str(e.value).startswith(ref[key]["message"])


def test_read_write_and_matching_files_in_both_modes(tmp_path):
    target = str(tmp_path / "sub" / "f.txt")
    tf.io.write_file(target, "h\xe9")       # creates the missing directory
    assert tf.io.read_file(target).numpy() == "h\xe9".encode()
    (tmp_path / "sub" / "g.txt").write_bytes(b"")
    got = tf.io.matching_files(str(tmp_path / "sub" / "*.txt")).numpy().tolist()
    assert got == [target.encode(), str(tmp_path / "sub" / "g.txt").encode()]
    with pytest.raises(errors.NotFoundError, match="No such file or directory"):
        tf.io.read_file(str(tmp_path / "nope"))
    g = tf.Graph()
    with g.as_default():
        name = tf1.placeholder(tf.string, [])
        content = tf1.io.read_file(name)
        write = tf1.io.write_file(str(tmp_path / "w"), content)
        with tf1.Session() as s:
            assert s.run(content, {name: target}) == "h\xe9".encode()
            s.run(write, {name: target})
            with pytest.raises(errors.NotFoundError):
                s.run(content, {name: str(tmp_path / "nope")})
    assert (tmp_path / "w").read_bytes() == "h\xe9".encode()


def test_gfile_functions_and_errors(tmp_path):
    G = tf.io.gfile
    d = str(tmp_path / "a" / "b")
    with pytest.raises(errors.NotFoundError, match="; No such file or directory"):
        G.mkdir(d)
    G.makedirs(d)
    G.mkdir(d)      # an existing directory is kept, as in TensorFlow
    assert G.isdir(d) and G.exists(d) and not G.exists(d + "x")
    f = G.join(d, "t.txt")
    with G.GFile(f, "w") as fh:
        fh.write("hi\nthere")
    with G.GFile(f) as fh:
        assert fh.readlines() == ["hi\n", "there"]
    with G.GFile(f, "rb") as fh:
        assert fh.read() == b"hi\nthere"
    with pytest.raises(errors.PermissionDeniedError, match="File isn't open for reading"):
        G.GFile(f, "w").read()
    assert G.stat(f).length == 8 and not G.stat(f).is_directory
    assert sorted(G.listdir(str(tmp_path / "a"))) == ["b"]
    with pytest.raises(errors.NotFoundError, match="Could not find directory"):
        G.listdir(str(tmp_path / "nope"))
    assert G.glob(G.join(d, "*")) == [f]
    G.copy(f, f + "2")
    with pytest.raises(errors.AlreadyExistsError, match="file already exists"):
        G.copy(f, f + "2")
    with pytest.raises(errors.AlreadyExistsError):
        G.rename(f, f + "2")
    G.rename(f, f + "2", overwrite=True)
    assert not G.exists(f)
    assert [w[0] for w in G.walk(str(tmp_path / "a"))] == [str(tmp_path / "a"), d]
    G.remove(f + "2")
    with pytest.raises(errors.NotFoundError):
        G.remove(f + "2")
    G.rmtree(str(tmp_path / "a"))
    with pytest.raises(errors.NotFoundError, match="not found"):
        G.rmtree(str(tmp_path / "a"))


def test_tf1_gfile_names(tmp_path):
    G = tf1.gfile
    G.MakeDirs(str(tmp_path / "x" / "y"))
    with G.Open(str(tmp_path / "x" / "f"), "w") as fh:
        fh.write(b"z")
    assert G.Exists(str(tmp_path / "x" / "f")) and G.IsDirectory(str(tmp_path / "x"))
    assert G.Glob(str(tmp_path / "x" / "*")) == [str(tmp_path / "x" / "f"),
                                                 str(tmp_path / "x" / "y")]
    assert sorted(G.ListDirectory(str(tmp_path / "x"))) == ["f", "y"]
    assert G.FastGFile(str(tmp_path / "x" / "f"), "rb").read() == b"z"
    G.DeleteRecursively(str(tmp_path / "x"))
    assert not os.path.exists(tmp_path / "x")


def test_web_safe_base64_matches_tensorflow():
    ref = REF["decode_raw"]
    data = [b"hello?>", b"ab", bytes(range(256))]
    enc = tf.io.encode_base64(data)
    same(enc, dec(ref["base64"]))
    same(tf.io.encode_base64(data[:2], pad=True), dec(ref["base64_pad"]))
    assert tf.io.decode_base64(enc).numpy().tolist() == data
    assert tf.io.decode_base64(dec(ref["base64_pad"])).numpy().tolist() == data[:2]
    for key, bad in (("base64_bad_length", ["a"]), ("base64_bad_char", ["ab+c"])):
        with pytest.raises(errors.InvalidArgumentError) as e:
            tf.io.decode_base64(bad)
        assert str(e.value).startswith(ref[key]["message"])


def test_dataset_tfrecord_writer_writes_tensorflows_bytes(tmp_path):
    path = str(tmp_path / "ds.tfrecord")
    tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.from_tensor_slices(RECORDS))
    assert (tmp_path / "ds.tfrecord").read_bytes() == (DATA / "records.tfrecord").read_bytes()
    with pytest.raises(TypeError, match="scalar `DT_STRING`"):
        tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.range(3))
