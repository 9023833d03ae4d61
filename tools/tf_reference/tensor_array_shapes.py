"""Prints the static shapes TensorFlow infers for TensorArrays written inside loops and
read after them (tf.function with AutoGraph, tf.while_loop in a TF1 graph, fixed and dynamic
sizes, infer_shape on and off). Run on TensorFlow 2.21 it wrote
tests/data/tensor_array/shapes.txt, which tests/test_tensor_array_shapes.py compares with this
program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/tensor_array_shapes.py \
        > tests/data/tensor_array/shapes.txt
"""
import tensorflow as tf


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i * i, tf.float32))
    return ta.stack(), ta.read(0), ta.gather([0, 1])


@tf.function
def rows(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.fill([3], tf.cast(i, tf.float32)))
    return ta.stack(), ta.element_shape


@tf.function
def loose(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, infer_shape=False)
    for i in tf.range(n):
        ta = ta.write(i, tf.fill([2], tf.cast(i, tf.float32)))
    return ta.stack()


for f in (squares, rows, loose):
    cf = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    print(f.__name__, [getattr(o, "shape", o) for o in tf.nest.flatten(cf.structured_outputs)])
    print(f.__name__, [o.numpy().tolist() if hasattr(o, "numpy") else o
                       for o in tf.nest.flatten(f(tf.constant(4)))])

v1 = tf.compat.v1
with tf.Graph().as_default():
    n = v1.placeholder(tf.int32, [])
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

    def body(i, t):
        return i + 1, t.write(i, tf.ones([2, 2]) * tf.cast(i, tf.float32))

    _, out = tf.while_loop(lambda i, t: i < n, body, [0, ta])
    stacked, first = out.stack(), out.read(1)
    print("v1", stacked.shape, first.shape, out.element_shape)
    with v1.Session() as sess:
        s, f = sess.run([stacked, first], {n: 3})
        print("v1", s.shape, f.tolist())
