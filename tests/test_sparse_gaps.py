"""tf.sparse.segment_sum/mean/sqrt_n, softmax, split, to_indicator, eye, reset_shape, mask
and sampled_addmm against TensorFlow 2.21 (tools/tf_reference/sparse_gaps_reference.py
recorded tests/data/sparse_gaps/reference.json); their values' gradients (gathers and segment
sums) against central differences."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

REF = json.loads((Path(__file__).resolve().parent / "data" / "sparse_gaps"
                  / "reference.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


def _check(what, got, want):
    if "seq" in want:
        assert len(got) == len(want["seq"]), what
        for g, w in zip(got, want["seq"]):
            _check(what, g, w)
        return
    assert tf.is_tensor(got), (what, got)
    assert got.dtype.name == want["dtype"], (what, got.dtype.name, want["dtype"])
    assert got.shape.as_list() == want["shape"], (what, got.shape, want["shape"])
    np.testing.assert_allclose(np.asarray(got.numpy(), dtype=float),
                               np.asarray(want["value"], dtype=float), rtol=1e-6, atol=1e-6,
                               err_msg=what)


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_sparse_matches_tensorflow(expr):
    ns = {"tf": tf, "np": np}
    exec(REF["setup"], ns)  # noqa: S102 - the recorded set-up
    want = REF["cases"][expr]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307 - the recorded expression
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    _check(expr, eval(expr, ns), want)  # noqa: S307


def _numeric(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.mark.parametrize("fn", [
    lambda x: tf.sparse.segment_mean(x, [0, 2, 2, 1], [0, 0, 1, 3]),
    lambda x: tf.sparse.segment_sqrt_n(x, [0, 1, 2], [0, 0, 0]),
    lambda x: tf.sparse.softmax(tf.sparse.SparseTensor(
        [[0, 0], [0, 2], [1, 1], [2, 0], [2, 1]], tf.reshape(x, [-1])[:5], [3, 4])).values,
], ids=["segment_mean", "segment_sqrt_n", "softmax"])
def test_values_differentiate(fn):
    x0 = np.random.RandomState(5).randn(3, 2)
    w = np.random.RandomState(6).randn(*fn(tf.constant(x0)).shape)

    def loss(x):
        return tf.reduce_sum(fn(x) * w)

    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    got = tf.convert_to_tensor(tape.gradient(y, x)).numpy()     # gathers: IndexedSlices
    np.testing.assert_allclose(got, _numeric(lambda a: loss(tf.constant(a)).numpy(), x0),
                               rtol=1e-6, atol=1e-8)


def test_split_takes_positional_arguments_as_tensorflow_2():
    pieces = tf.sparse.split(tf.sparse.eye(2), 2, 1)
    assert [tf.sparse.to_dense(p).numpy().tolist() for p in pieces] == [[[1.0], [0.0]],
                                                                       [[0.0], [1.0]]]
    with pytest.raises(ValueError, match="required"):
        tf.sparse.split(tf.sparse.eye(2), 2)
