"""``tf.dynamic_partition`` and ``tf.dynamic_stitch``: values, static shapes, gradients (eager
and in a TF1 graph), duplicate indices and bad partitions.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/partition_stitch.py
> tests/data/partition_stitch/tf_2_21.txt``; tests/test_partition_stitch.py runs it with
``python -m flowgrad`` and compares the output line by line.
"""
import numpy as np
import tensorflow.compat.v1 as tf

x = tf.constant(np.arange(12.0).reshape(6, 2))
parts = tf.dynamic_partition(x, [2, 0, 2, 1, 0, 2], 3)
print("partition", [p.numpy().tolist() for p in parts], [p.shape.as_list() for p in parts])
m = tf.constant([[1, 0], [0, 1]])
print("2-d partitions", [p.numpy().tolist() for p in tf.dynamic_partition(
    tf.constant([[1.0, 2.0], [3.0, 4.0]]), m, 2)])
idx = [tf.constant([0, 4]), tf.constant([[1], [3]]), tf.constant([2, 4])]
vals = [tf.constant([[1.0, 1.5], [2.0, 2.5]]), tf.constant([[[3.0, 3.5]], [[4.0, 4.5]]]),
        tf.constant([[5.0, 5.5], [6.0, 6.5]])]
print("stitch", tf.dynamic_stitch(idx, vals).numpy().tolist())
with tf.GradientTape() as tape:
    tape.watch(x)
    p = tf.dynamic_partition(x, [2, 0, 2, 1, 0, 2], 3)
    loss = tf.reduce_sum(p[0] * 3.0) + tf.reduce_sum(p[2] ** 2)
print("partition grad", tape.gradient(loss, x).numpy().tolist())
with tf.GradientTape() as tape:
    tape.watch(vals)
    loss = tf.reduce_sum(tf.dynamic_stitch(idx, vals) * [[1.0, 2.0]])
print("stitch grads", [tf.convert_to_tensor(g).numpy().tolist()
                       for g in tape.gradient(loss, vals)])
for call in (lambda: tf.dynamic_partition(x, [0, 3, 0, 0, 0, 0], 3),
             lambda: tf.dynamic_stitch([tf.constant([0, -1])], [tf.constant([1.0, 2.0])])):
    try:
        call()
        print("no error")
    except tf.errors.InvalidArgumentError:
        print("InvalidArgumentError")

tf.disable_v2_behavior()
with tf.Graph().as_default():
    d = tf.placeholder(tf.float32, [None, 3])
    pid = tf.placeholder(tf.int32, [None])
    outs = tf.dynamic_partition(d, pid, 2)
    merged = tf.dynamic_stitch([tf.constant([0, 1, 2]), tf.constant([1])],
                               [d, tf.constant([[9.0, 9, 9]])])
    grad = tf.gradients(tf.reduce_sum(outs[1] * outs[1]) + tf.reduce_sum(merged), d)[0]
    print("graph", [o.shape.as_list() for o in outs], merged.shape.as_list(), outs[0].op.type)
    with tf.Session() as sess:
        feed = {d: np.arange(9.0).reshape(3, 3), pid: [1, 0, 1]}
        print("graph values", [v.tolist() for v in sess.run(outs, feed)],
              sess.run(merged, feed).tolist(), sess.run(grad, feed).tolist())
