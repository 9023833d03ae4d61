"""Reliability faults of issue 25: tf.function tracing under threads, unbounded loops,
unknown shapes and empty tensors, errors of TensorFlow's class, damaged files.

Each test reproduces a fault (it failed before its fix) or pins the behaviour beside it."""
import contextlib
import threading
import time


import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state


@contextlib.contextmanager
def eager():
    """Eager mode inside the block (conftest starts every test in graph mode)."""
    tf.enable_v2_behavior()
    try:
        yield
    finally:
        state.tapes.clear()
        tf.disable_v2_behavior()


def _in_threads(target, n=4):
    """Runs ``target(i)`` on ``n`` threads started together; returns their exceptions."""
    barrier = threading.Barrier(n)
    errs = []

    def run(i):
        barrier.wait()
        try:
            target(i)
        except Exception as e:          # noqa: BLE001 - reported by the test
            errs.append(e)
    ts = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errs


# --------------------------------------------------------------------------------------
# Tracing state is per thread: a trace never captures another thread's ops


def test_function_first_called_from_threads_traces_once():
    with eager():
        c = flowgrad.Variable(0)

        @flowgrad.function
        def f(x):
            time.sleep(0.02)            # other threads start while this one traces
            c.assign_add(1)
            return x * 2.0
        out = []
        errs = _in_threads(lambda i: out.append(f(flowgrad.constant(float(i))).numpy()))
        assert errs == []
        assert sorted(out) == [0.0, 2.0, 4.0, 6.0]
        f(flowgrad.constant(1.0))
        assert c.numpy() == 5             # TensorFlow: 5 (each call runs the body once)
        assert f.experimental_get_tracing_count() == 1


def test_eager_ops_on_other_threads_while_tracing_stay_eager():
    with eager():
        started, done = threading.Event(), threading.Event()
        seen = {}

        @flowgrad.function
        def f(x):
            started.set()
            done.wait(5)
            return x + 1.0
        t = threading.Thread(target=lambda: seen.setdefault("y", f(flowgrad.constant(1.0))))
        t.start()
        started.wait(5)
        y = flowgrad.constant(3.0) * 2.0      # this thread is eager while the other traces
        seen["eager"] = flowgrad.executing_eagerly()
        done.set()
        t.join()
        assert y.numpy() == 6.0 and seen["eager"]
        assert seen["y"].numpy() == 2.0
        traced = f.get_concrete_function(flowgrad.constant(1.0)).graph.get_operations()
        assert "Mul" not in [op.type for op in traced]


def test_name_scope_and_control_dependencies_are_per_thread():
    g = tf.Graph()
    with g.as_default():
        dep = tf.no_op(name="dep")
    inside, leave = threading.Event(), threading.Event()

    def scoped():
        with g.as_default(), g.name_scope("outer"), g.control_dependencies([dep]), \
                g.device("/cpu:0"):
            inside.set()
            leave.wait(5)
    t = threading.Thread(target=scoped)
    t.start()
    inside.wait(5)
    with g.as_default():
        x = tf.constant(1.0, name="x")
    leave.set()
    t.join()
    assert x.op.name == "x" and x.op.control_inputs == [] and x.op.device == ""


def test_tape_records_only_its_own_thread():
    with eager():
        v = flowgrad.Variable(2.0)
        opened, ran = threading.Event(), threading.Event()
        grads = {}

        def taped():
            with flowgrad.GradientTape() as tape:
                opened.set()
                ran.wait(5)
                y = v * 3.0
            grads["g"] = tape.gradient(y, v)
        t = threading.Thread(target=taped)
        t.start()
        opened.wait(5)
        z = v * v                          # not under the other thread's tape
        tapes_here = list(state.tapes)
        ran.set()
        t.join()
        assert grads["g"].numpy() == 3.0 and z.numpy() == 4.0
        assert tapes_here == []


def test_graph_default_is_per_thread():
    g = tf.Graph()
    seen = {}
    with g.as_default():
        t = threading.Thread(target=lambda: seen.setdefault("g", tf.get_default_graph()))
        t.start()
        t.join()
    assert seen["g"] is not g and seen["g"] is tf.get_default_graph()
