"""TensorFlow's tensor bundle (flowgrad/train/tensor_bundle.py) against files TensorFlow 2.21
wrote (tests/data/tf_checkpoints, made by tools/tf_reference/make_checkpoints.py): flowgrad
reads TensorFlow's values and writes TensorFlow's bytes; damaged files are DataLossErrors."""
from __future__ import annotations

import json
import os
import pathlib
import shutil

import numpy as np
import pytest

pytest.importorskip("google_crc32c")
pytest.importorskip("tensorboard")

from flowgrad.framework import errors  # noqa: E402
from flowgrad.train import tensor_bundle as tb  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data" / "tf_checkpoints"
EXPECTED = json.loads((DATA / "expected.json").read_text())
PREFIXES = {"raw": DATA / "raw" / "bundle", "tf1": DATA / "tf1" / "model.ckpt-2",
            "module": DATA / "module" / "ckpt-1",
            "keras": DATA / "keras" / EXPECTED["keras"]["latest"]}


def decode(v: dict) -> np.ndarray:
    """An array recorded by make_checkpoints.py."""
    if v["dtype"] == "string":
        return np.array([bytes.fromhex(x) for x in v["strings"]] or [], dtype=object
                        ).reshape(v["shape"])
    if v["dtype"] == "bfloat16":
        import ml_dtypes
        dt = np.dtype(ml_dtypes.bfloat16)
    else:
        dt = np.dtype(v["dtype"])
    return np.frombuffer(bytes.fromhex(v["hex"]), dt).reshape(v["shape"])


def expected_values(name: str) -> dict:
    values = EXPECTED[name]["values"] if name == "keras" else EXPECTED[name]
    return {k: decode(v) for k, v in values.items()}


def assert_same(got: np.ndarray, want: np.ndarray, key: str) -> None:
    assert got.dtype == want.dtype, key
    assert got.shape == want.shape, key
    if want.dtype == object:
        assert got.tolist() == want.tolist(), key
    else:
        assert got.tobytes() == want.tobytes(), key


@pytest.mark.parametrize("name", sorted(PREFIXES))
def test_reads_tensorflows_values(name):
    reader = tb.BundleReader(str(PREFIXES[name]))
    want = expected_values(name)
    keys = [k for k in reader.keys() if k != "_CHECKPOINTABLE_OBJECT_GRAPH"]
    assert keys == sorted(want)
    for key, value in want.items():
        got = reader.get_tensor(key)
        assert_same(got, value, key)
        assert reader.shape(key) == list(value.shape)
        assert reader.get_variable_to_shape_map()[key] == list(value.shape)


def test_partitioned_variable_is_assembled_from_its_slices():
    reader = tb.BundleReader(str(PREFIXES["tf1"]))
    assert reader.keys().count("part") == 1
    assert not any(k.startswith("\x00") for k in reader.keys())
    assert reader.shape("part") == [5, 3]
    assert reader.get_tensor("part").shape == (5, 3)


def copy_bytes(prefix: pathlib.Path) -> dict:
    return {suffix: pathlib.Path(str(prefix) + suffix).read_bytes()
            for suffix in (".index", ".data-00000-of-00001")}


def test_writes_tensorflows_bytes_for_every_dtype(tmp_path):
    reader = tb.BundleReader(str(PREFIXES["raw"]))
    tb.write_bundle(str(tmp_path / "b"), {k: reader.get_tensor(k) for k in reader.keys()})
    assert copy_bytes(tmp_path / "b") == copy_bytes(PREFIXES["raw"])


def test_writes_tensorflows_bytes_for_slices(tmp_path):
    reader = tb.BundleReader(str(PREFIXES["tf1"]))
    whole = {k: reader.get_tensor(k) for k in reader.keys() if not k.startswith("part")}
    slices = {}
    for k in ("part", "part/Adam", "part/Adam_1"):
        full = reader.get_tensor(k)
        slices[k] = ([5, 3], [([0, 0], full[:3]), ([3, 0], full[3:])])
    tb.write_bundle(str(tmp_path / "m"), whole, slices)
    assert copy_bytes(tmp_path / "m") == copy_bytes(PREFIXES["tf1"])


def test_round_trip_of_strings_and_many_blocks(tmp_path):
    tensors = {"k%04d" % i: np.full((2,), i, np.int32) for i in range(300)}
    tensors["s"] = np.array([["a", "é"], ["", "x" * 300]], dtype=object)
    table = tb._table(sorted((k.encode(), b"v" * (i % 7)) for i, k in enumerate(tensors)),
                      block_size=256)
    entries = tb._read_table(table, "t")
    assert len(entries) == len(tensors)
    tb.write_bundle(str(tmp_path / "r"), tensors)
    reader = tb.BundleReader(str(tmp_path / "r"))
    assert reader.get_tensor("s").tolist() == [[b"a", "é".encode()], [b"", b"x" * 300]]
    assert reader.get_tensor("k0299").tolist() == [299, 299]


def test_slice_keys_encode_signed_numbers_as_tensorflow():
    # TensorFlow's ordered code: one header byte for small numbers, more for larger ones.
    key = tb.slice_key("v", [0, 100], [-1, 70000])
    assert key.encode("latin-1") == b"\x00v\x00\x01\x01\x02\x80\x7f\xc0\x64\xe1\x11\x70"


@pytest.fixture
def bundle(tmp_path):
    prefix = tmp_path / "model.ckpt-2"
    for suffix in (".index", ".data-00000-of-00001"):
        shutil.copy(str(PREFIXES["tf1"]) + suffix, str(prefix) + suffix)
    return prefix


def test_flipped_byte_in_data_is_a_data_loss_error(bundle):
    data = pathlib.Path(str(bundle) + ".data-00000-of-00001")
    raw = bytearray(data.read_bytes())
    raw[40] ^= 1
    data.write_bytes(bytes(raw))
    reader = tb.BundleReader(str(bundle))
    with pytest.raises(errors.DataLossError, match="data-00000-of-00001"):
        for key in reader.keys():
            reader.get_tensor(key)


def test_truncated_data_is_a_data_loss_error(bundle):
    data = pathlib.Path(str(bundle) + ".data-00000-of-00001")
    data.write_bytes(data.read_bytes()[:-10])
    reader = tb.BundleReader(str(bundle))
    with pytest.raises(errors.DataLossError, match="truncated"):
        reader.get_tensor("part/Adam_1")


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_damaged_index_is_a_data_loss_error(bundle, damage):
    index = pathlib.Path(str(bundle) + ".index")
    raw = bytearray(index.read_bytes())
    if damage == "truncate":
        raw = raw[:-20]
    else:
        raw[30] ^= 0x10
    index.write_bytes(bytes(raw))
    with pytest.raises(errors.DataLossError, match=str(index)):
        tb.BundleReader(str(bundle))


def test_missing_bundle_is_not_found(tmp_path):
    with pytest.raises(errors.NotFoundError, match="Failed to find any matching files"):
        tb.BundleReader(str(tmp_path / "none"))


def test_failed_write_leaves_the_previous_bundle(tmp_path):
    prefix = str(tmp_path / "p")
    tb.write_bundle(prefix, {"a": np.ones(2)})
    with pytest.raises(TypeError):
        tb.write_bundle(prefix, {"a": np.zeros(2), "b": np.array([object()], dtype=object)})
    assert tb.BundleReader(prefix).get_tensor("a").tolist() == [1.0, 1.0]
    assert sorted(os.listdir(tmp_path)) == ["p.data-00000-of-00001", "p.index"]
