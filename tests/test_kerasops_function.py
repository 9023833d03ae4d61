"""The TF2 function-level API Keras and TF2 programs call: ``tf.py_function`` (eager, under a
GradientTape, inside tf.function, in a TF1 graph), ``@tf.numpy_function(Tout=...)`` as a
decorator, ``get_concrete_function(tf.TensorSpec(...))`` and tf.function's options.
(``tf.linspace`` with integer ends is pinned against TensorFlow 2.21 in
tests/test_kerasops_reference.py.)"""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_py_function_eagerly_is_differentiable(eager):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.py_function(lambda a: a * a, [x], Tout=tf.float32)
    assert y.numpy() == 9.0 and tape.gradient(y, x).numpy() == 6.0
    a, b = tf.py_function(lambda v: (v + 1, v * 2), [tf.constant([1.0])],
                          Tout=[tf.float32, tf.float32])
    assert a.numpy().tolist() == [2.0] and b.numpy().tolist() == [2.0]


def test_py_function_in_tf_function_and_tf1_graph(eager):
    @tf.function
    def f(a):
        return tf.py_function(lambda b: b * 2 + tf.reduce_sum(b), [a], Tout=tf.float32)

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [5.0, 7.0]
    with tf1.Graph().as_default():
        p = tf1.placeholder(tf1.float32, [2])
        outs = tf1.py_function(lambda b: [b * 3, b + 1], [p], Tout=[tf1.float32, tf1.float32])
        with tf1.Session() as sess:
            got = sess.run(outs, {p: [1.0, 2.0]})
    assert [g.tolist() for g in got] == [[3.0, 6.0], [2.0, 3.0]]


def test_numpy_function_and_py_function_as_decorators(eager):
    @tf.numpy_function(Tout=tf.float32)
    def double(a):
        assert isinstance(a, np.ndarray)
        return (a * 2).astype(np.float32)

    @tf.py_function(Tout=tf.int32)
    def plus_one(a):
        return a + 1

    assert double(tf.constant([1.0, 4.0])).numpy().tolist() == [2.0, 8.0]
    assert plus_one(tf.constant(1)).numpy() == 2
    with pytest.raises(TypeError, match="Tout"):
        tf.numpy_function(inp=[1.0])


def test_get_concrete_function_of_tensor_specs(eager):
    calls = []

    def add_one(x):
        calls.append(1)
        return x + 1

    f = tf.function(add_one)
    cf = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    assert cf(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [2.0, 3.0, 4.0]
    assert f(tf.constant([0.0, 0.0, 0.0])).numpy().tolist() == [1.0, 1.0, 1.0]
    assert len(calls) == 1      # the call reuses the trace made for the spec
    any_length = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    assert any_length(tf.constant([5.0])).numpy().tolist() == [6.0]
    assert len(calls) == 2


def test_tf_function_options_are_accepted(eager):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], reduce_retracing=True,
                 jit_compile=True)
    def f(x):
        return x * 2

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    g = tf.function(lambda x: x - 1, experimental_relax_shapes=True)
    assert g(tf.constant(1.0)).numpy() == 0.0
