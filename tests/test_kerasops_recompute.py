"""tf.recompute_grad: the same values and gradients as the function (orders 1 and 2, graph
and eager, variables too), with the function run again in the backward pass."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state
from gradcheck import check_gradients


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_gradients_orders_one_and_two(mode):
    if mode == "eager":
        tf.enable_v2_behavior()
    try:
        check_gradients(flowgrad.recompute_grad(lambda x, y: tf.sin(x) * y + x * x),
                        [np.array([0.3, -1.2]), np.array([2.0, 0.5])], order=2, mode=mode)
    finally:
        state.tapes.clear()


def test_recomputes_and_differentiates_variables():
    tf.enable_v2_behavior()
    calls = []
    v = flowgrad.Variable(2.0)

    def f(x):
        calls.append(1)
        return x * v * v

    g = flowgrad.recompute_grad(f)
    x = flowgrad.constant([0.5, 1.0])
    with flowgrad.GradientTape() as tape:
        tape.watch(x)
        y = flowgrad.reduce_sum(g(x))
    gx, gv = tape.gradient(y, [x, v])
    assert len(calls) == 2          # forward, and again in the backward pass
    np.testing.assert_allclose(gx.numpy(), [4.0, 4.0])
    assert gv.numpy() == 6.0

    @flowgrad.function(autograph=False)
    def step(x):
        with flowgrad.GradientTape() as t:
            t.watch(x)
            out = flowgrad.reduce_sum(g(x))
        return t.gradient(out, x)

    np.testing.assert_allclose(step(x).numpy(), [4.0, 4.0])
