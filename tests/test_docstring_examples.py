"""The Examples in public docstrings run, so they cannot drift from the code (issue 28).

Every function, class and method shown by a namespace of either face whose docstring holds
``>>>`` lines is collected and run with :mod:`doctest`, in eager mode (TensorFlow 2's default),
with ``tf`` (``import flowgrad as tf``) and ``np`` already imported; an example about the TF1
face imports ``flowgrad.compat.v1`` itself. Printed values are compared as doctest does (with
``...`` and whitespace normalization). :data:`MOST_USED` must all have a runnable Example.
"""
from __future__ import annotations

import doctest
import inspect
import types

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as v1

#: The public functions a TensorFlow user meets first: each one's docstring has an Example.
MOST_USED = ("gradients", "GradientTape", "GradientTape.gradient", "compat.v1.Session",
             "Variable", "reduce_sum", "reduce_mean", "matmul", "function", "constant",
             "reshape", "concat", "cast", "one_hot", "argmax", "nn.softmax",
             "compat.v1.placeholder", "data.Dataset.from_tensor_slices")

_SKIPPED = {"keras", "losses", "metrics", "optimizers", "compat", "raw_ops"}



def _walk(module: types.ModuleType, path: str, seen: set, out: dict) -> None:
    for name in sorted(getattr(module, "__all__", None) or dir(module)):
        if name.startswith("_") or name in _SKIPPED:
            continue
        try:
            value = getattr(module, name)
        except Exception:  # an optional dependency is missing
            continue
        if isinstance(value, types.ModuleType):
            if id(value) not in seen and value.__name__.startswith("flowgrad"):
                seen.add(id(value))
                _walk(value, path + "." + name, seen, out)
            continue
        if not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        if not (getattr(value, "__module__", None) or "").startswith("flowgrad"):
            continue
        members = [(path + "." + name, value)]
        if inspect.isclass(value):
            members += [(path + "." + name + "." + k, m) for k, m in vars(value).items()
                        if inspect.isfunction(m) and not k.startswith("_")]
        for where, obj in members:
            if id(obj) not in out and ">>>" in (obj.__doc__ or ""):
                out[id(obj)] = (where, obj)


def examples() -> list:
    """(where, object) for every public object whose docstring has an example."""
    found: dict = {}
    seen: set = set()
    _walk(flowgrad, "tf", seen, found)
    _walk(v1, "tf.compat.v1", seen, found)
    return sorted(found.values(), key=lambda e: e[0])


_EXAMPLES = [pytest.param(where, obj, id=where) for where, obj in examples()]


@pytest.mark.parametrize("where,obj", _EXAMPLES)
def test_docstring_example_runs(where, obj):
    v1.enable_v2_behavior()
    v1.reset_default_graph()
    tests = doctest.DocTestParser().get_doctest(
        inspect.cleandoc(obj.__doc__), {"tf": flowgrad, "np": np}, where, None, 0)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list = []
    runner.run(tests, out=report.append)
    assert runner.failures == 0, "".join(report)


@pytest.mark.parametrize("path", MOST_USED)
def test_the_most_used_functions_have_an_example(path):
    obj = flowgrad
    for part in path.split("."):
        obj = getattr(obj, part)
    assert ">>>" in (obj.__doc__ or ""), "tf.%s has no runnable Example" % path
