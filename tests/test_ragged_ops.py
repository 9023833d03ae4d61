"""RaggedTensor methods, tf.ragged's functions and TensorFlow's ragged dispatch of tf.math
ops, reductions and tf.concat, against TensorFlow 2.21: every expression of
tools/tf_reference/ragged_reference.py (recorded in tests/data/ragged/reference.json) gives
TensorFlow's kind, dtype and values (or its error class) on flowgrad."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

REF = json.loads((Path(__file__).resolve().parent / "data" / "ragged"
                  / "reference.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


def _namespace() -> dict:
    ns = {"tf": tf, "np": np}
    exec(REF["setup"], ns)  # noqa: S102 - the recorded set-up
    return ns


def _close(got, want, what):
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float),
                               rtol=1e-6, atol=1e-6, equal_nan=True, err_msg=what)


def _ragged_close(got, want, what):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (what, got, want)
        for g, w in zip(got, want):
            _ragged_close(g, w, what)
    elif isinstance(want, str):
        assert (got.decode() if isinstance(got, bytes) else got) == want, what
    else:
        _close(got, want, what)


def _check(what, got, want):
    if "seq" in want:
        assert len(got) == len(want["seq"]), what
        for g, w in zip(got, want["seq"]):
            _check(what, g, w)
        return
    kind = want["kind"]
    if kind == "ragged":
        assert isinstance(got, tf.RaggedTensor), (what, got)
        assert got.dtype.name == want["dtype"], (what, got.dtype.name, want["dtype"])
        assert got.ragged_rank == want["ragged_rank"], (what, got.ragged_rank)
        assert got.row_splits.dtype.name == want["splits_dtype"], (what, got.row_splits.dtype)
        _ragged_close(got.to_list(), want["value"], what)
    elif kind == "shape":
        assert got.as_list() == want["value"], (what, got)
    elif kind == "tensor":
        assert tf.is_tensor(got) and not isinstance(got, tf.RaggedTensor), (what, got)
        assert got.dtype.name == want["dtype"], (what, got.dtype.name, want["dtype"])
        assert got.shape.as_list() == want["shape"], (what, got.shape, want["shape"])
        value = got.numpy()
        if want["dtype"] == "string":
            assert [v.decode() for v in np.ravel(value)] == want["value"], what
        else:
            _close(value, want["value"], what)
    else:
        assert got == want["value"], (what, got)


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_ragged_matches_tensorflow(expr):
    ns = _namespace()
    want = REF["cases"][expr]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307 - the recorded expression
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    _check(expr, eval(expr, ns), want)  # noqa: S307


def test_ragged_ops_run_in_tf_function_and_differentiate():
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])

    @tf.function
    def f(v):
        rt = tf.RaggedTensor.from_row_lengths(v, [2, 0, 3])
        return tf.reduce_sum(tf.square(rt) * 2.0, axis=1), tf.reduce_max(rt, axis=1)

    with tf.GradientTape() as tape:
        tape.watch(values)
        sums, _ = f(values)
        loss = tf.reduce_sum(sums * tf.constant([1.0, 10.0, 100.0]))
    np.testing.assert_allclose(sums.numpy(), [10.0, 0.0, 100.0])
    np.testing.assert_allclose(tape.gradient(loss, values).numpy(),
                               [4.0, 8.0, 1200.0, 1600.0, 2000.0])


def test_dispatch_keeps_dense_calls_unchanged():
    assert tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=1).numpy().tolist() == [3, 7]
    assert tf.concat([[1], [2]], 0).numpy().tolist() == [1, 2]
    assert tf.math.exp.__name__ == "exp" and "Args:" in tf.math.exp.__doc__
