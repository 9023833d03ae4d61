"""Behaviours TensorFlow's own kernel tests pin (tools/tf_suite.py found flowgrad differing),
compared with TensorFlow 2.21's record (tools/tf_reference/kernel_test_behaviours.py made
tests/data/tf_kernel_tests/behaviours.json): integer means that do not wrap around, duplicate
reduction axes refused, ``reduce_all([])`` a bool, ``top_k``'s ``index_type``, the Pow gradient's
order of products, an eager variable's ``initializer``, TF1 Jacobians of complex tensors."""
from __future__ import annotations

import importlib.util
import json

import pytest

import flowgrad
from flowgrad.tf_internal.python.eager.context import eager_mode
from tests.tf_reference_program import ROOT

_SPEC = importlib.util.spec_from_file_location(
    "kernel_test_behaviours", ROOT / "tools" / "tf_reference" / "kernel_test_behaviours.py")
CASES = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(CASES)
RECORD = json.loads((ROOT / "tests" / "data" / "tf_kernel_tests" / "behaviours.json")
                    .read_text())["cases"]


@pytest.mark.parametrize("case", sorted(CASES.CASES))
def test_as_tensorflow(case):
    with eager_mode():
        got = CASES.outcome(flowgrad, case)
    assert got == RECORD[case]
