"""TensorFlow's type-based dispatch (flowgrad/framework/dispatch.py): RaggedTensors and
SparseTensors through tf.math and the Python operators (``dense + ragged`` included) against
TensorFlow 2.21 (tools/tf_reference/dispatch_reference.py, recorded in
tests/data/dispatch/tf_2_21.json), and the dispatch machinery's own rules."""
import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework import dispatch
from flowgrad.framework.context import state
from flowgrad.ops import arithmetic_ops, elementwise_ops, ragged_dispatch
from tf_reference_program import load

PROGRAM, REF = load("dispatch_reference.py", "dispatch/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def _close(got, want):
    if isinstance(want, float):
        return isinstance(got, float) and np.isclose(got, want, rtol=1e-6)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            _close(g, w) for g, w in zip(got, want))
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(
            _close(got[k], want[k]) for k in want)
    return got == want


CASES = {**PROGRAM.ragged_cases(tf), **PROGRAM.sparse_cases(tf)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_is_tensorflows(case):
    got = PROGRAM.run({case: CASES[case]})[case]
    assert _close(got, REF[case]), (got, REF[case])


def test_every_recorded_case_runs():
    assert sorted(CASES) == sorted(REF)


def test_no_module_attribute_is_rebound():
    # The op functions are the ones their modules define (dispatch is registered on them),
    # so a name bound before the ragged module was imported dispatches too.
    assert tf.add is arithmetic_ops.add and tf.math.exp is elementwise_ops.exp
    assert dispatch.is_dispatchable(tf.add)
    assert any(t.__name__ == "elementwise_dispatch_target_for_add"
               for t in dispatch._TYPE_BASED_DISPATCH_SIGNATURES[tf.add])
    assert ragged_dispatch.ragged_unary_elementwise_op in \
        dispatch._ELEMENTWISE_API_HANDLERS.values()


def test_dense_arguments_never_dispatch():
    calls = []

    @dispatch.add_dispatch_support
    def double(x, name=None):
        return x * 2

    @dispatch.dispatch_for_api(double, {"x": tf.RaggedTensor})
    def ragged_double(x, name=None):
        calls.append(x)
        return x.with_flat_values(x.flat_values * 2)

    assert double(3) == 6 and calls == []
    assert double(tf.ragged.constant([[1], [2, 3]])).to_list() == [[2], [4, 6]]
    assert len(calls) == 1
    dispatch.unregister_dispatch_for(ragged_double)
    with pytest.raises(ValueError, match="was not registered"):
        dispatch.unregister_dispatch_for(ragged_double)


def test_dispatch_in_graph_mode():
    with tf.Graph().as_default():
        rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
        out = tf.constant([[1.0], [2.0]]) + rt
        assert isinstance(out, tf.RaggedTensor)
        with tf.compat.v1.Session() as sess:
            assert sess.run(out.flat_values).tolist() == [2.0, 3.0, 5.0]


def test_where_warning_still_sees_the_users_call(recwarn):
    # tf.where through the dispatcher still counts as the user's (not flowgrad's) where.
    from flowgrad.ops import comparison_ops
    with tf.Graph().as_default():
        out = tf.where(tf.constant([True]), tf.constant([1.0]), tf.constant([2.0]))
        assert out.op not in comparison_ops.LIBRARY_WHERES
