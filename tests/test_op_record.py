"""One op, one record: what the layers above the ops know about an op type comes from its
registration (``flowgrad.framework.registry.OpDef``), not from lists of op types."""
import ast
from pathlib import Path

import numpy as np
import pytest

import flowgrad.plan
from flowgrad.framework.registry import get_op_def, op_defs


def _string_constants(path: Path) -> set:
    return {n.value for n in ast.walk(ast.parse(path.read_text()))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_the_plan_compiler_names_no_op_type():
    root = Path(flowgrad.plan.__file__)
    files = sorted(root.parent.glob("*.py")) if root.name == "__init__.py" else [root]
    types = {d.type for d in op_defs()}
    named = {(f.name, s) for f in files for s in _string_constants(f) & types}
    assert not named, "the plan compiler names op types %s: put the fact in their " \
                      "registration" % sorted(named)


@pytest.mark.parametrize("op_type,n_updated,scalars", [
    ("ApplyGradientDescent", 1, [0.1]),
    ("ApplyMomentum", 2, [0.1, "grad", 0.9]),
    ("ApplyAdam", 3, [0.9, 0.999, 0.1, 0.9, 0.999, 1e-8]),
])
@pytest.mark.parametrize("shape", [(3, 2), ()], ids=["matrix", "scalar"])
def test_dense_update_kernel_is_its_inplace_formula_on_copies(op_type, n_updated, scalars,
                                                              shape):
    """The kernel of a dense update (the formula written once, in place) writes nothing
    it was given and returns what the in-place kernel writes."""
    rng = np.random.RandomState(0)
    f = np.float32
    arrays = [np.array(rng.rand(*shape) + 1, f) for _ in range(n_updated)]
    grad = np.array(rng.randn(*shape), f)
    rest = [grad if s == "grad" else f(s) for s in scalars]
    if "grad" not in scalars:
        rest.append(grad)
    d = get_op_def(op_type)
    before = [a.copy() for a in arrays]
    got = d.bound_kernel({})(*arrays, *rest)
    for a, b in zip(arrays, before):
        np.testing.assert_array_equal(a, b)
    work = [a.copy() for a in arrays]
    want = d.bound_inplace({})(*work, *rest)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == n_updated
    for g, w, a in zip(got, want, arrays):
        assert g is not a and np.shape(g) == shape and np.asarray(g).dtype == f
        np.testing.assert_array_equal(g, w)
        assert not np.array_equal(g, a)     # the update moved it
