"""tf.compat.v1.train.warm_start: the variables a checkpoint initializes (renamed, by regex,
by list), and its log lines.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/warm_start.py
> tests/data/train_utilities/warm_start_tf_2_21.txt``; tests/test_train_utilities.py runs it
with ``python -m flowgrad`` and compares.
"""
import logging
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
workdir = tempfile.mkdtemp()


class Echo(logging.Handler):
    def emit(self, record):
        if record.levelno == logging.INFO:
            print("LOG", record.getMessage().replace(workdir, "<dir>"))


logger = logging.getLogger("tensorflow")
for h in list(logger.handlers):
    logger.removeHandler(h)
logger.addHandler(Echo())
logger.setLevel(logging.INFO)
logger.propagate = False

with tf.Graph().as_default():
    with tf.variable_scope("dense"):
        tf.get_variable("kernel", initializer=np.arange(6.0).reshape(2, 3))
        tf.get_variable("bias", initializer=np.array([7.0, 8.0, 9.0]))
    tf.get_variable("old_emb", initializer=np.array([[1.0, 2.0]]))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, os.path.join(workdir, "model"))


def run(label, **kwargs):
    print(label)
    with tf.Graph().as_default():
        with tf.variable_scope("dense"):
            kernel = tf.get_variable("kernel", initializer=np.zeros((2, 3)))
            bias = tf.get_variable("bias", initializer=np.zeros(3))
        emb = tf.get_variable("emb", initializer=np.zeros((1, 2)))
        frozen = tf.get_variable("frozen", initializer=np.zeros(1), trainable=False)
        try:
            tf.train.warm_start(workdir, **kwargs)
        except ValueError as e:
            print("ValueError", str(e).split(" in ")[0].split(".")[0])
            return
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in (kernel, bias, emb, frozen):
                print(v.op.name, sess.run(v).ravel().tolist())


run("dense only", vars_to_warm_start="dense/")
run("renamed", vars_to_warm_start=["dense/", "emb"],
    var_name_to_prev_var_name={"emb": "old_emb"})
run("by list", vars_to_warm_start=[])
run("missing", vars_to_warm_start=[".*"])
run("misspelled", vars_to_warm_start="dense/", var_name_to_prev_var_name={"embb": "old_emb"})
