"""The op-level functions Keras's TensorFlow backend calls, against TensorFlow 2.21's values.

tests/data/kerasops/reference.json was written by tools/tf_reference/kerasops_reference.py with
TensorFlow 2.21: each case is an expression over ``tf`` and named inputs; here the same
expression runs on flowgrad (eagerly, and once more inside ``tf.function``) and must give
TensorFlow's dtypes, shapes and values."""
import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework.context import state

DATA = json.loads((Path(__file__).parent / "data" / "kerasops" / "reference.json").read_text())
CASES = {case["id"]: case for case in DATA["cases"]}


@pytest.fixture(autouse=True)
def eager_mode():
    tf.compat.v1.enable_v2_behavior()
    yield
    state.tapes.clear()


def _decode(rec: dict) -> np.ndarray:
    if "real" in rec:
        value = np.asarray(rec["real"]) + 1j * np.asarray(rec["imag"])
    else:
        value = np.asarray(rec["value"])
    return value.astype(rec["dtype"]).reshape(rec["shape"])


def _evaluate(case: dict, traced: bool) -> list:
    names = sorted(case["inputs"])
    values = [_decode(case["inputs"][n]) for n in names]

    def run(*xs):
        env = {"tf": tf, "np": np}
        env.update(zip(names, xs))
        return eval(case["expr"], env)  # noqa: S307 - the recorded expressions

    fn = tf.function(run) if traced else run
    out = fn(*[tf.constant(v) for v in values])
    return list(out) if case["tuple"] else [out]


def _tolerance(dtype: str) -> float:
    return {"float32": 2e-6, "complex64": 2e-6, "float16": 1e-3}.get(dtype, 1e-12)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("case_id", sorted(CASES))
def test_matches_tensorflow(case_id, traced):
    case = CASES[case_id]
    got = _evaluate(case, traced)
    assert len(got) == len(case["outputs"])
    for g, rec in zip(got, case["outputs"]):
        want = _decode(rec)
        g = g.numpy()
        assert g.dtype == want.dtype, (case_id, g.dtype, want.dtype)
        assert g.shape == want.shape, (case_id, g.shape, want.shape)
        if want.dtype.kind in "fc":
            # float32 sums taken in another order (average pools, TensorFlow's single-precision
            # FFTs) differ in the last bits, relative to the largest value
            scale = {"float32": 1e-7, "complex64": 1e-6}.get(rec["dtype"], 0.0)
            atol = scale * np.max(np.abs(want)) if want.size else 0.0
            np.testing.assert_allclose(g, want, rtol=_tolerance(rec["dtype"]), atol=atol,
                                       err_msg=case_id)
        else:
            np.testing.assert_array_equal(g, want, err_msg=case_id)
