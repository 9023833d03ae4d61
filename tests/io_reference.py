"""Reading tests/data/io/reference.json (recorded from TensorFlow 2.21 by
tools/tf_reference/io_reference.py) back into bytes and NumPy arrays."""
from __future__ import annotations

import json
import pathlib

import numpy as np

DATA = pathlib.Path(__file__).resolve().parent / "data" / "io"
REF = json.loads((DATA / "reference.json").read_text())


def dec(v):
    """The value ``enc`` stored: bytes, arrays, dicts and lists of them."""
    if isinstance(v, dict):
        if set(v) == {"hex"}:
            return bytes.fromhex(v["hex"])
        if "dtype" in v and "values" in v:
            if v["dtype"] == "string":
                flat = [bytes.fromhex(x) for x in v["values"]]
                arr = np.empty(len(flat), dtype=object)
                arr[:] = flat
                return arr.reshape(v["shape"])
            vals = [float(x) for x in v["values"]] if v["dtype"].startswith("float") \
                else v["values"]
            return np.array(vals, dtype=v["dtype"]).reshape(v["shape"])
        return {k: dec(x) for k, x in v.items()}
    if isinstance(v, list):
        return [dec(x) for x in v]
    return v


def same_value(got, want) -> None:
    """Asserts a flowgrad result (tensor, RaggedTensor, SparseTensor or bytes) equals a
    recorded TensorFlow result."""
    if isinstance(want, dict) and want.get("ragged"):
        assert type(got).__name__ == "RaggedTensor", type(got)
        same(got.flat_values, dec(want["flat_values"]))
        splits = [dec(s) for s in want["nested_row_splits"]]
        assert len(got.nested_row_splits) == len(splits)
        for g, w in zip(got.nested_row_splits, splits):
            same(g, w)
    elif isinstance(want, dict) and want.get("sparse"):
        assert type(got).__name__ == "SparseTensor", type(got)
        for k in ("indices", "values", "dense_shape"):
            same(getattr(got, k), dec(want[k]))
    elif isinstance(want, dict) and not ("hex" in want or "values" in want):
        assert sorted(got) == sorted(want), (sorted(got), sorted(want))
        for k in want:
            same_value(got[k], want[k])
    else:
        same(got, dec(want))


def same(got, want) -> None:
    """Asserts a flowgrad value equals a recorded TensorFlow value (dtype, shape, elements)."""
    got = got.numpy() if hasattr(got, "numpy") else got
    if isinstance(want, bytes):
        assert got == want, (got, want)
        return
    got = np.asarray(got)
    want_dtype = object if want.dtype == object else want.dtype
    assert got.dtype == want_dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(got, want)
    else:
        assert got.tolist() == want.tolist(), (got.tolist(), want.tolist())
