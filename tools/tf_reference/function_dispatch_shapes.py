"""Prints what tf.function does with dynamic sizes: the static shapes of ops given a shape
list holding a tensor (``tf.random.normal([tf.shape(x)[0], 4])``, ``tf.eye(n)``,
``tf.tile(x, [n, 1])``, ...) inside a trace, and when a call reuses a trace made for a
supertype (a TensorSpec with None dimensions from ``get_concrete_function``) instead of tracing
again. Run on TensorFlow 2.21 it wrote tests/data/reprs/function_dispatch.txt, which
tests/test_function_dispatch.py compares with this program's output under ``python -m
flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/function_dispatch_shapes.py \
        > tests/data/reprs/function_dispatch.txt
"""
import tensorflow as tf


@tf.function
def shapes(x):
    n = tf.shape(x)[0]
    outs = [tf.random.normal([n, 4]), tf.random.uniform([n, 2], maxval=3, dtype=tf.int32),
            tf.random.truncated_normal((n, 3)), tf.zeros([n, 4]), tf.ones((n, 2)),
            tf.fill([n, 2], 1.5), tf.reshape(x, [n, -1]),
            tf.random.stateless_normal([n, 2], seed=[1, 2]),
            tf.random.categorical(tf.zeros([n, 3]), 2), tf.eye(n), tf.eye(n, 3),
            tf.eye(2, batch_shape=[n]), tf.broadcast_to(1., [n, 2]), tf.tile(x, [n, 1]),
            tf.random.shuffle(tf.range(n)), tf.zeros_like(x), tf.range(n),
            tf.linspace(0., 1., n), tf.one_hot(tf.range(n), n)]
    print("shapes", [o.shape for o in outs])
    return tf.reduce_sum(outs[9]) + tf.reduce_sum(outs[11]), outs[13]


shapes.get_concrete_function(tf.TensorSpec([None, 3]))
total, tiled = shapes(tf.ones([5, 3]))
print("values", total.numpy(), tiled.shape)


@tf.function
def f(x):
    print("trace", x.shape)
    return tf.zeros_like(x)


f.get_concrete_function(tf.TensorSpec([None, 3]))
print(f.experimental_get_tracing_count())
for shape in ([5, 3], [2, 3], [2, 4], [2, 4], [3, 4]):
    f(tf.ones(shape))
    print(f.experimental_get_tracing_count())


@tf.function
def g(x, k):
    print("g trace", x.shape, k)
    return x * k


g.get_concrete_function(tf.TensorSpec(None), 2)
g.get_concrete_function(tf.TensorSpec([None]), 2)
for args in ((tf.ones([4]), 2), (tf.ones([2, 2]), 2), (tf.ones([4]), 3)):
    g(*args)
    print(g.experimental_get_tracing_count())
