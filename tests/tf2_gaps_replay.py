"""Replays a topic of tests/data/tf2_gaps/ (recorded on TensorFlow 2.21 by
tools/tf_reference/tf2_gaps_reference.py) on flowgrad: values, dtypes and shapes, or the error
class and TensorFlow's kernel message."""
from __future__ import annotations

import builtins
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

import flowgrad as tf

_DIR = Path(__file__).resolve().parent / "data" / "tf2_gaps"


def load(topic: str) -> dict:
    """The record of one topic."""
    return json.loads((_DIR / ("%s.json" % topic)).read_text())


def _namespace(record: dict) -> dict:
    ns = {"tf": tf, "np": np}
    exec(record["setup"], ns)  # noqa: S102 - the recorded set-up
    return ns


def _latin1(v: Any) -> Any:
    if isinstance(v, list):
        return [_latin1(e) for e in v]
    return v.decode("latin-1") if isinstance(v, bytes) else v


def _check(got: Any, want: dict, expr: str, rtol: float) -> None:
    if "tuple" in want:
        assert len(got) == len(want["tuple"]), expr
        for g, w in zip(got, want["tuple"]):
            _check(g, w, expr, rtol)
        return
    if "python" in want:
        np.testing.assert_allclose(np.asarray(got), np.asarray(want["python"]), rtol=rtol,
                                   err_msg=expr)
        return
    assert got.dtype.name == want["dtype"], (expr, got.dtype.name, want["dtype"])
    if "ragged" in want:
        assert isinstance(got, tf.RaggedTensor), (expr, type(got))
        assert got.ragged_rank == want["ragged_rank"], (expr, got.ragged_rank)
        assert _latin1(got.to_list()) == want["ragged"], (expr, got.to_list())
        return
    assert got.shape.as_list() == want["shape"], (expr, got.shape, want["shape"])
    value, ref = got.numpy(), want["value"]
    if isinstance(ref, dict) and "bytes" in ref:
        flat = [v.encode("latin-1") for v in ref["bytes"]]
        assert np.asarray(value).reshape(-1).tolist() == flat, expr
        return
    if isinstance(ref, dict):
        ref = np.asarray(ref["re"]) + 1j * np.asarray(ref["im"])
    ref = np.asarray(ref)
    if ref.size == 0:
        assert value.size == 0, expr
        return
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(value, ref, err_msg=expr)
    else:
        np.testing.assert_allclose(value, ref, rtol=rtol, atol=rtol, err_msg=expr)


def _message(text: str) -> str:
    return re.sub(r"^\{\{function_node [^}]*\}\} ", "", text)


def replay(record: dict, expr: str, rtol: float | None = None) -> None:
    """Evaluates ``expr`` on flowgrad and compares it with what TensorFlow 2.21 gave."""
    ns = _namespace(record)
    want = record["cases"][expr]
    if "error" in want:
        cls = getattr(tf.errors, want["error"], None) or getattr(builtins, want["error"])
        try:
            eval(expr, ns)  # noqa: S307 - the recorded expression
        except cls as exc:
            assert _message(want["message"]) in str(exc) or \
                str(exc) in _message(want["message"]), (expr, str(exc), want["message"])
            return
        raise AssertionError("%s: TensorFlow raised %s, flowgrad did not" % (expr, want["error"]))
    got = eval(expr, ns)  # noqa: S307 - the recorded expression
    if rtol is None:
        rtol = 1e-5 if any(d in str(want) for d in ("float32", "complex64")) else 1e-10
    _check(got, want, expr, rtol)


def static_shapes(record: dict) -> dict:
    """The output static shape flowgrad infers inside a tf.function for each recorded
    ``fn(<input shape>, args)`` case, by key."""
    ns = _namespace(record)
    out = {}
    for key in record["static"]:
        fn, rest = key.split("(<", 1)
        shape, args = rest.split(">, ", 1)
        f = tf.function(eval("lambda t: %s(t, %s" % (fn, args), ns))  # noqa: S307
        cf = f.get_concrete_function(tf.TensorSpec(eval(shape), tf.float32))  # noqa: S307
        out[key] = cf.structured_outputs.shape.as_list()
    return out
