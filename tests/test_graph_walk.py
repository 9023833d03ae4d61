"""The shared backward graph walk (flowgrad/framework/graph_walk.py): the edges it follows,
where it stops, and its users (plan pruning, tf.function's argument pruning, inlining)."""
import numpy as np

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.framework.graph_walk import ancestors


def _graph() -> dict:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        c = tf.constant([1.0, 2.0], name="c")
        y = tf.add(x, c, name="y")
        side = tf.no_op(name="side")
        with tf.control_dependencies([side]):
            z = tf.multiply(y, 2.0, name="z")
        unused = tf.negative(x, name="unused")
    return {"g": g, "x": x, "c": c, "y": y, "side": side, "z": z, "unused": unused}


def _names(ops: set) -> set:
    return {op.name for op in ops}


def test_data_and_control_inputs_are_followed_and_unused_ops_are_not():
    t = _graph()
    assert _names(ancestors([t["z"]])) == {"x", "c", "y", "side", "z/y", "z"}
    assert _names(ancestors([t["z"]], control=False)) == {"x", "c", "y", "z/y", "z"}


def test_stop_tensors_and_visit_cut_the_walk():
    t = _graph()
    assert _names(ancestors([t["z"]], stop={t["y"]}, control=False)) == {"z/y", "z"}
    assert ancestors([t["x"]], stop={t["x"]}) == set()       # a fed root needs nothing
    assert _names(ancestors([t["z"].op], stop={t["z"]}, control=False)) >= {"z"}
    cut = ancestors([t["z"]], visit=lambda op: op.name == "y")
    assert _names(cut) == {"y", "side", "z/y", "z"}


def test_session_prunes_what_the_fetch_does_not_need():
    t = _graph()
    with tf.Session(graph=t["g"]) as sess:   # `unused` would need x; z needs it too: fed
        np.testing.assert_allclose(sess.run(t["z"], {t["x"]: [1.0, 1.0]}), [4.0, 6.0])
        np.testing.assert_allclose(sess.run(t["z"], {t["y"]: [1.0, 1.0]}), [2.0, 2.0])


def test_a_variable_made_in_a_function_starts_from_the_arguments_it_needs():
    tf.enable_v2_behavior()
    made = []

    @tf2.function
    def f(a, b):
        if not made:     # the initial value needs `a` only: `b` is not fed to compute it
            made.append(tf2.Variable(a * 2.0))
        return made[0] + b

    np.testing.assert_allclose(f(tf2.constant(3.0), tf2.constant(5.0)).numpy(), 11.0)
    np.testing.assert_allclose(f(tf2.constant(4.0), tf2.constant(1.0)).numpy(), 7.0)
