"""tf.compat.v1.train's replica_device_setter, get_checkpoint_mtimes, remove_checkpoint and
summary_iterator.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/train_utilities.py
> tests/data/train_utilities/tf_2_21.txt``; tests/test_train_utilities.py runs it with
``python -m flowgrad`` and compares.
"""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
workdir = tempfile.mkdtemp()

with tf.Graph().as_default():
    variables = [tf.Variable(float(i), name="v%d" % i) for i in range(4)]
    y = tf.add(variables[0], 1.0, name="y")
    with tf.device("/job:worker/task:2/device:CPU:0"):
        pinned = tf.Variable(5.0, name="pinned")
        z = tf.multiply(y, 2.0, name="z")
    with tf.device("/cpu:0"):
        w = tf.identity(y, name="w")
    ops = [v.op for v in variables] + [y.op, pinned.op, z.op, w.op]
    print("no ps", tf.train.replica_device_setter())
    setter = tf.train.replica_device_setter(ps_tasks=3)
    for op in ops:
        print(op.name, setter(op))
    cluster = {"ps": ["a:1", "b:1"], "worker": ["c:1"]}
    setter = tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:0")
    for op in ops:
        print(op.name, setter(op))


with tf.Graph().as_default():
    variables = [tf.Variable(float(i), name="v%d" % i) for i in range(2)]
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = saver.save(sess, os.path.join(workdir, "model"), global_step=1)
        second = saver.save(sess, os.path.join(workdir, "model"), global_step=2)
    mtimes = tf.train.get_checkpoint_mtimes([first, os.path.join(workdir, "missing"), second])
    print("mtimes", len(mtimes), all(isinstance(m, float) and m > 1e9 for m in mtimes))
    tf.train.remove_checkpoint(first)
    print("left", sorted(os.listdir(workdir)))

    writer = tf.summary.FileWriter(os.path.join(workdir, "events"))
    value = tf.placeholder(tf.float32, [])
    summary = tf.summary.scalar("loss", value)
    with tf.Session() as sess:
        for step in range(3):
            writer.add_summary(sess.run(summary, {value: 0.5 * step}), step)
    writer.close()
    path = os.path.join(workdir, "events", os.listdir(os.path.join(workdir, "events"))[0])
    for event in tf.train.summary_iterator(path):
        if event.HasField("summary"):
            for v in event.summary.value:
                print("event", event.step, v.tag, np.float32(tf.make_ndarray(v.tensor))
                      if v.HasField("tensor") else v.simple_value)
        else:
            print("event", event.step, event.WhichOneof("what"))
