"""TensorFlow 1's scatter updates of variables: ``tf.scatter_update/add/sub/mul/div/min/max``,
``tf.scatter_nd_update/add/sub``, ``tf.batch_scatter_update``, the ``Variable.scatter_*``
methods (eager, in a ``tf.function`` and on TF1 graph variables), ``tf.assign`` with
``validate_shape=False`` and ``tf.count_up_to``.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/variable_scatter.py
> tests/data/variable_scatter/tf_2_21.txt``; tests/test_variable_scatter.py runs it with
``python -m flowgrad`` and compares the output line by line.
"""
import re

import numpy as np
import tensorflow.compat.v1 as tf

np.set_printoptions(precision=6, suppress=True)

BASE = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
IDX = [2, 0, 2]
UPD = np.array([[2., 4., 8.], [0.5, -1., 3.], [-2., 10., 0.25]], np.float32)


def message(e):
    """The kernel's message: the line that says what is wrong, without TensorFlow's function
    and op decorations."""
    for line in str(e).splitlines():
        line = re.sub(r"\{\{function_node [^}]*\}\} | \[Op:\w+\].*$", "", line).strip()
        if line and not line.startswith(("Graph execution error", "Detected at node", "[[",
                                         "File ", "Node:", "Stack trace")):
            return type(e).__name__ + " " + line
    return type(e).__name__


def show(label, value):
    print(label, np.asarray(value).dtype, np.asarray(value).tolist())


# -- TF2: eager variables and their methods
for method in ("scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
               "scatter_min", "scatter_max"):
    v = tf.Variable(BASE)
    out = getattr(v, method)(tf.IndexedSlices(tf.constant(UPD), tf.constant(IDX)))
    show("eager " + method, v.numpy())
    show("eager returned " + method, out.numpy())
for fn in ("scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
           "scatter_min", "scatter_max"):
    v = tf.Variable(BASE)
    getattr(tf, fn)(v, IDX, UPD)
    show("eager tf." + fn, v.numpy())
    v = tf.Variable(BASE)
    getattr(tf, fn)(v, [1, 3], 2.0)
    show("eager scalar tf." + fn, v.numpy())
for method in ("scatter_nd_update", "scatter_nd_add", "scatter_nd_sub"):
    v = tf.Variable(BASE)
    getattr(v, method)([[0, 1], [3, 2], [0, 1]], [10., 20., 30.])
    show("eager " + method, v.numpy())
    v = tf.Variable(BASE)
    getattr(tf, method)(v, [[1], [3]], [[1., 2., 3.], [4., 5., 6.]])
    show("eager rows tf." + method, v.numpy())
v = tf.Variable(BASE)
v.batch_scatter_update(tf.IndexedSlices(tf.constant([[7.], [8.], [9.], [10.]]),
                                        tf.constant([[2], [0], [1], [2]])))
show("eager batch_scatter_update", v.numpy())
v = tf.Variable(np.arange(24, dtype=np.float64).reshape(2, 3, 4))
tf.batch_scatter_update(v, [[1, 0], [2, 2]], np.ones((2, 2, 4)) * -1)
show("eager tf.batch_scatter_update", v.numpy())
v = tf.Variable([10, -7, 9, 4])
tf.scatter_div(v, [0, 1, 3], [3, 2, -3])
show("eager int scatter_div", v.numpy())
show("eager sparse_read", tf.Variable(BASE).sparse_read([3, 1]).numpy())
show("eager gather_nd", tf.Variable(BASE).gather_nd([[3, 1], [0, 2]]).numpy())

v = tf.Variable(BASE)


@tf.function
def step(rows, values):
    v.scatter_add(tf.IndexedSlices(values, rows))
    v.scatter_nd_update([[0, 0]], [-5.])
    tf.scatter_mul(v, rows, values)
    return v.read_value()


show("function", step(tf.constant([1, 1]), tf.constant(UPD[:2])).numpy())
show("function variable", v.numpy())

for call in (lambda: tf.Variable(BASE).scatter_update(tf.constant([1.])),
             lambda: tf.scatter_update(tf.Variable(BASE), [4], UPD[:1]),
             lambda: tf.scatter_add(tf.Variable(BASE), [0], UPD[:2]),
             lambda: tf.scatter_nd_update(tf.Variable(BASE), [[5, 0]], [1.])):
    try:
        call()
        print("no error")
    except (TypeError, tf.errors.OpError) as e:
        print(message(e))

# -- TF1: graph (reference) variables
tf.disable_v2_behavior()
with tf.Graph().as_default(), tf.Session() as sess:
    var = tf.Variable(BASE, name="var")
    ops = {fn: getattr(tf, fn)(var, IDX, UPD) for fn in (
        "scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
        "scatter_min", "scatter_max")}
    ops["scatter_nd_update"] = tf.scatter_nd_update(var, [[0, 1], [3, 2]], [10., 20.])
    ops["scatter_nd_add"] = tf.scatter_nd_add(var, [[1], [1]], UPD[:2])
    ops["scatter_nd_sub"] = tf.scatter_nd_sub(var, [[0, 0]], [100.])
    ops["batch_scatter_update"] = tf.batch_scatter_update(var, [[1], [0], [2], [2]],
                                                          [[1.], [2.], [3.], [4.]])
    for name, op in sorted(ops.items()):
        print(name, op.op.type if hasattr(op, "op") else type(op).__name__, op.dtype, op.shape)
        sess.run(var.initializer)
        show("graph " + name, sess.run(op))
    meth = var.scatter_sub(tf.IndexedSlices(tf.constant(UPD[:1]), tf.constant([3])))
    sess.run(var.initializer)
    show("graph method scatter_sub", sess.run(meth))
    placeholder_idx = tf.placeholder(tf.int32, [None])
    dyn = tf.scatter_add(var, placeholder_idx, tf.ones([1, 3]) * 5.0)
    sess.run(var.initializer)
    show("graph fed", sess.run(dyn, {placeholder_idx: [3]}))
    try:
        sess.run(dyn, {placeholder_idx: [7]})
    except tf.errors.OpError as e:
        print(message(e))
    try:
        tf.scatter_update(var, [[0, 1]], UPD[:1])
    except ValueError:
        print("ValueError")

    grow = tf.Variable([1., 2.], name="grow")
    bigger = tf.assign(grow, [1., 2., 3.], validate_shape=False)
    print("validate_shape=False", bigger.shape, grow.shape)
    sess.run(grow.initializer)
    show("grown", sess.run(bigger))
    try:
        tf.assign(grow, [1., 2., 3.])
    except ValueError:
        print("ValueError")

    counter = tf.Variable(0, name="counter")
    up = tf.count_up_to(counter, 3)
    sess.run(counter.initializer)
    print("count_up_to", up.dtype, [int(sess.run(up)) for _ in range(3)])
    try:
        sess.run(up)
    except tf.errors.OutOfRangeError as e:
        print(message(e))
