"""One op, one record: what the layers above the ops know about an op type comes from its
registration (``flowgrad.framework.registry.OpDef``), not from lists of op types."""
import ast
import warnings
from pathlib import Path

import numpy as np
import pytest
from gradcheck import check_gradients

import flowgrad
import flowgrad.compat.v1 as tf
import flowgrad.runtime.plan
from flowgrad.framework import registry
from flowgrad.framework.context import state
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, get_op_def, op_defs
from flowgrad.framework.shape_rules import unary
from flowgrad.autodiff.pfor.rules import KINDS


def _string_constants(path: Path) -> set:
    return {n.value for n in ast.walk(ast.parse(path.read_text()))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_the_plan_compiler_names_no_op_type():
    root = Path(flowgrad.runtime.plan.__file__)
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


@pytest.fixture
def cube():
    """A new elementwise op, registered with one ``defop`` (and gone after the test, so
    the completeness checks of other tests never see it)."""
    @defop("OpRecordTestCube", lambda x: x * x * x, unary, input_names=("x",),
           batching="elementwise", jvp="elementwise")
    def _cube_grad(op, grad):
        return tf.multiply(grad, tf.multiply(3.0, tf.square(op.inputs[0])))
    yield lambda x: apply_op("OpRecordTestCube", [x])
    registry._ops.pop("OpRecordTestCube")
    registry._gradients.pop("OpRecordTestCube")


X = np.array([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]])
T = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])


def test_a_new_elementwise_op_is_one_defop(cube):
    for order in (1, 2):
        check_gradients(cube, [X], order=order)
    with tf.Session() as sess:                      # a Session plan runs it
        x = tf.placeholder(tf.float64, [2, 3])
        np.testing.assert_allclose(sess.run(cube(x), {x: X}), X ** 3)
    tf.enable_v2_behavior()
    try:
        check_gradients(cube, [X], order=2, mode="eager")
        x = tf.constant(X)
        with flowgrad.autodiff.ForwardAccumulator(x, tf.constant(T)) as acc:     # its JVP
            y = cube(x)
        np.testing.assert_allclose(acc.jvp(y).numpy(), 3 * X ** 2 * T)
        with warnings.catch_warnings():                 # batched by its kind, not looped
            warnings.simplefilter("error")
            got = flowgrad.vectorized_map(lambda r: cube(r) * 2.0, tf.constant(X))
        np.testing.assert_allclose(got.numpy(), 2 * X ** 3)
    finally:
        state.tapes.clear()
        tf.disable_v2_behavior()


def test_jvp_elementwise_needs_a_gradient():
    with pytest.raises(ValueError, match="OpRecordTestNoGrad.*derived from the gradient"):
        registry.register_op("OpRecordTestNoGrad", lambda x: x, unary, jvp="elementwise")
    assert "OpRecordTestNoGrad" not in {d.type for d in op_defs()}


def test_every_batching_kind_has_a_rule():
    kinds = {d.batching for d in op_defs()} - {None}
    assert kinds <= set(KINDS), sorted(kinds - set(KINDS))
