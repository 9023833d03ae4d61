"""The op database (tests/op_db.py) driven through the numerical gradient checks.

Every entry with a nonzero ``graph`` / ``eager`` order is checked against central
differences (``flowgrad.testing.check_gradients``, float64) up to that order, in graph
mode and eagerly under nested GradientTapes. Reverse mode is complete: every
differentiable op type flowgrad registers appears in some checked entry (in its graph
or in its first gradient, which the second-order check differentiates) or has a
written reason in ``op_db.NO_GRADIENT_CHECK``."""
import collections

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import registry
from flowgrad.framework.context import state
from flowgrad.testing import check_gradients
from op_db import NO_GRADIENT_CHECK, OP_DB, entries

GRAPH = entries(graph=True)
EAGER = entries(eager=True)


def _dtype(v):
    """The placeholder dtype of an entry's input: complex128 for complex arrays."""
    return tf.complex128 if np.iscomplexobj(v) else tf.float64


def _ids(es):
    return [e.name for e in es]


def _assert_every_input_gets_a_gradient(e):
    """check_gradients compares only the gradients that are not None: an input outside
    ``expect_none`` must get one (a None where the derivative is zero passes the check)."""
    with tf.Graph().as_default():
        xs = [tf.placeholder(_dtype(v), np.shape(v)) for v in e.inputs]
        ys = e.fn(*xs)
        grads = tf.gradients([y for y in (ys if isinstance(ys, (list, tuple)) else [ys])
                              if y.dtype.is_floating or y.dtype.is_complex], xs)
        assert all(g is not None for i, g in enumerate(grads) if i not in e.expect_none), e.name


@pytest.mark.parametrize("e", GRAPH, ids=_ids(GRAPH))
def test_gradients_graph(e):
    _assert_every_input_gets_a_gradient(e)
    check_gradients(e.fn, e.inputs, order=e.graph, mode="graph", rtol=e.rtol, atol=e.atol,
                    expect_none=e.expect_none)


@pytest.mark.parametrize("e", EAGER, ids=_ids(EAGER))
def test_gradients_eager(e):
    tf.enable_v2_behavior()     # conftest restores graph mode afterwards
    try:
        check_gradients(e.fn, e.inputs, order=e.eager, mode="eager", rtol=e.rtol,
                        atol=e.atol, expect_none=e.expect_none)
    finally:
        state.tapes.clear()


def test_names_are_unique_and_an_op_type_has_one_jvp_entry():
    assert not [n for n, k in collections.Counter(e.name for e in OP_DB).items() if k > 1]
    assert not [t for t, k in collections.Counter(e.op for e in OP_DB if e.jvp).items() if k > 1]


def test_a_check_turned_off_in_one_mode_says_why():
    for e in OP_DB:
        if bool(e.graph) != bool(e.eager):
            assert e.why, "%s: graph=%d, eager=%d needs a reason (why=...)" % (e.name, e.graph,
                                                                               e.eager)


def _differentiable_op_types() -> set:
    """The op types flowgrad registers with a gradient function (test-registered ops aside)."""
    return {t for t, g in registry._gradients.items()
            if g is not None and t in registry._ops and g.__module__.startswith("flowgrad.")}


def _checked_op_types() -> set:
    """The op types in the graphs of the gradient-checked entries and their first gradients."""
    types: set = set()
    for e in OP_DB:
        if not (e.graph or e.eager):
            continue
        g = tf.Graph()
        with g.as_default():
            xs = [tf.placeholder(_dtype(v), np.shape(v)) for v in e.inputs]
            ys = e.fn(*xs)
            ys = [y for y in (ys if isinstance(ys, (list, tuple)) else [ys])
                  if y.dtype.is_floating or y.dtype.is_complex]
            if max(e.graph, e.eager) > 1:
                tf.gradients(tf.add_n([tf.reduce_sum(y) for y in ys]), xs)
        types |= {op.type for op in g.get_operations()}
    return types


def test_every_differentiable_op_has_a_gradient_check_or_a_reason():
    ops = _differentiable_op_types()
    missing = sorted(ops - _checked_op_types() - set(NO_GRADIENT_CHECK))
    assert not missing, ("differentiable op types without a gradient-checked op_db entry "
                         "(add one, or a reason to op_db.NO_GRADIENT_CHECK): %s" % missing)
    stale = sorted(set(NO_GRADIENT_CHECK) - ops)
    assert not stale, "op_db.NO_GRADIENT_CHECK names op types that are not differentiable: %s" \
        % stale


def test_fuzz_entries_make_their_op_type():
    for e in entries(fuzz=True):
        with tf.Graph().as_default() as g:
            xs = [tf.placeholder(tf.float64, [2, 3]) for _ in range(2 if e.fuzz == "binary" else 1)]
            e.fn(*xs)
        assert e.op is None or e.op in {op.type for op in g.get_operations()}, e.name
