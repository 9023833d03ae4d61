"""tf.io.decode_csv, tf.data.experimental.CsvDataset and make_csv_dataset,
tf.data.TextLineDataset and Dataset.list_files against TensorFlow 2.21 (the cases and files
of tools/tf_reference/io_reference.py in tests/data/io)."""
from __future__ import annotations

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from io_reference import DATA, REF, dec, same, same_value

CASES = REF["decode_csv"]
TABLE = str(DATA / "table.csv")


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


def defaults(spec):
    out = []
    for d in spec:
        if d and d[0] == "required":
            out.append(tf.constant([], getattr(tf, d[1])))
        elif d and d[0] in ("int64", "float64"):
            out.append(tf.constant([d[1]], getattr(tf, d[0])))
        else:
            out.append(d)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_decode_csv_matches_tensorflow(name):
    spec = CASES[name]
    call = lambda: tf.io.decode_csv(spec["records"], defaults(spec["defaults"]),  # noqa: E731
                                    **spec["kwargs"])
    if "error" in spec:
        with pytest.raises(getattr(errors, spec["error"]["class"])) as e:
            call()
        assert str(e.value).startswith(spec["error"]["message"])
    else:
        got = call()
        assert len(got) == len(spec["result"])
        for g, w in zip(got, spec["result"]):
            same_value(g, w)


def test_decode_csv_in_graph_mode():
    g = tf.Graph()
    with g.as_default():
        rec = tf1.placeholder(tf.string, [None])
        cols = tf1.decode_csv(rec, [[0], [0.0], ["x"]])
        with tf1.Session() as s:
            got = s.run(cols, {rec: CASES["basic"]["records"]})
    for g_, w in zip(got, CASES["basic"]["result"]):
        same(g_, dec(w))


def test_csv_dataset_matches_tensorflow():
    ref = REF["csv_dataset"]
    ex = tf.data.experimental
    runs = {"all": ex.CsvDataset(TABLE, [[0], [0.0], [""], [-1]], header=True, na_value="NA"),
            "select": ex.CsvDataset(TABLE, [tf.int64, tf.string], header=True,
                                    select_cols=[0, 2]),
            "exclude": ex.CsvDataset(TABLE, [[0], [""]], header=True, exclude_cols=[1, 3])}
    for key, ds in runs.items():
        rows = [list(r) for r in ds]
        want = ref[key]
        assert len(rows) == len(want), key
        for row, wrow in zip(rows, want):
            for g_, w in zip(row, wrow):
                same_value(g_, w)
    with pytest.raises(errors.InvalidArgumentError) as e:
        list(ex.CsvDataset(TABLE, [[0], [0.0], [""], [0]]))
    assert str(e.value).startswith(ref["no_header_error"]["message"])


def _check_batches(got, want, with_label):
    assert len(got) == len(want)
    for item, w in zip(got, want):
        features = item[0] if with_label else item
        assert list(features) == w["order"]
        same_value(dict(features), w["features"])
        if with_label:
            same_value(item[1], w["label"])


def test_make_csv_dataset_matches_tensorflow():
    ref = REF["make_csv_dataset"]
    ds = tf.data.experimental.make_csv_dataset(TABLE, 3, label_name="name", shuffle=False,
                                               num_epochs=1, na_value="NA")
    _check_batches(list(ds), ref["label_name"], True)
    ds = tf.data.experimental.make_csv_dataset(TABLE, 2, select_columns=["id", "name"],
                                               shuffle=False, num_epochs=2)
    _check_batches(list(ds), ref["select_two_epochs"], False)
    forever = tf.data.experimental.make_csv_dataset(
        TABLE, 3, shuffle=False, column_defaults=[tf.int32, 0.0, "", tf.string])
    spec = {k: [v.shape.as_list(), v.dtype.name] for k, v in forever.element_spec.items()}
    assert spec == ref["forever_spec"]
    shuffled = tf.data.experimental.make_csv_dataset(TABLE, 4, num_epochs=1, shuffle_seed=3)
    ids = sorted(int(i) for b in shuffled for i in b["id"].numpy())
    assert ids == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="`label_name` provided must be one of the columns"):
        tf.data.experimental.make_csv_dataset(TABLE, 2, label_name="nope")


def test_text_line_dataset_matches_tensorflow():
    ref = REF["text_lines"]
    plain = list(tf.data.TextLineDataset(str(DATA / "lines.txt")).as_numpy_iterator())
    assert plain == dec(ref["plain"])
    gz = str(DATA / "lines.txt.gz")
    assert list(tf.data.TextLineDataset(gz, "GZIP").as_numpy_iterator()) == dec(ref["gzip"])
    assert list(tf.data.TextLineDataset(TABLE).skip(1).as_numpy_iterator()) == \
        dec(ref["skip_header"])


def test_list_files(tmp_path):
    for n in ("b.txt", "a.txt", "c.csv"):
        (tmp_path / n).write_text(n)
    got = list(tf.data.Dataset.list_files(str(tmp_path / "*.txt"), shuffle=False)
               .as_numpy_iterator())
    assert got == [str(tmp_path / "a.txt").encode(), str(tmp_path / "b.txt").encode()]
    shuffled = tf.data.Dataset.list_files(str(tmp_path / "*"), seed=1)
    assert sorted(shuffled.as_numpy_iterator()) == sorted(
        str(tmp_path / n).encode() for n in ("a.txt", "b.txt", "c.csv"))
    with pytest.raises(errors.InvalidArgumentError, match="No files matched pattern"):
        tf.data.Dataset.list_files(str(tmp_path / "*.nope"))
    lines = tf.data.Dataset.list_files(str(tmp_path / "*.txt"), shuffle=False).interleave(
        tf.data.TextLineDataset, cycle_length=1)
    assert list(lines.as_numpy_iterator()) == [b"a.txt", b"b.txt"]


def test_fixed_length_record_dataset_matches_tensorflow():
    ref = REF["fixed_length"]
    path = str(DATA / "fixed.bin")
    got = list(tf.data.FixedLengthRecordDataset(path, 4, header_bytes=2, footer_bytes=1)
               .as_numpy_iterator())
    assert got == dec(ref["records"])
    with pytest.raises(getattr(errors, ref["bad_size"]["class"])) as e:
        list(tf.data.FixedLengthRecordDataset(path, 5, header_bytes=2, footer_bytes=1))
    assert str(e.value) == ref["bad_size"]["message"].replace('"fixed.bin"', '"%s"' % path)
