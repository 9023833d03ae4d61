"""The numerical gradient-check tables of the op tests, run eagerly under nested GradientTapes.

Each table module (tests/test_core_math.py, test_math_ops.py, test_array_ops.py,
test_nn_ops.py) keeps its cases in module-level lists of ``(name, fn, inputs)``;
this file runs every case at first and second order in eager mode, where the tape
replays the same registered gradient functions. A table module that does not
exist (yet) is skipped."""
import importlib

import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state
from gradcheck import check_gradients

TABLES = {"test_core_math": "CASES", "test_math_ops": "CASES", "test_array_ops": "CASES",
          "test_nn_ops": "GRAD_CASES"}


def _cases() -> list:
    params = []
    for module, table in TABLES.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError:
            params.append(pytest.param(None, None, None, id="%s-missing" % module,
                                       marks=pytest.mark.skip(reason="%s does not exist yet"
                                                              % module)))
            continue
        for name, fn, inputs in getattr(mod, table):
            params.append(pytest.param(name, fn, inputs, id="%s-%s" % (module[5:], name)))
    return params


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour) for each test; conftest starts every test in graph mode."""
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


@pytest.mark.parametrize("name,fn,inputs", _cases())
def test_eager_gradients_first_and_second_order(name, fn, inputs):
    assert tf.executing_eagerly()
    check_gradients(fn, inputs, order=2, mode="eager")
