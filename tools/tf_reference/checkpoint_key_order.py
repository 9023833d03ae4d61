"""The keys of a tf.train.Checkpoint whose optimizer and model reach the same variables (the
TF checkpoint guide's Checkpoint(step=..., optimizer=..., net=...)): TensorFlow adds the
keyword arguments in name order, so the variables are saved under ``net/...``, the first path.

    /work/venv-tf/bin/python tools/tf_reference/checkpoint_key_order.py DIR \\
        > tests/data/checkpoint_key_order/tf_2_21.json

tests/test_checkpoint_key_order.py runs it under ``python -m flowgrad`` and compares."""
import json
import sys

import keras
import tensorflow as tf


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


keras.utils.set_random_seed(0)
net, opt = Net(), keras.optimizers.Adam(0.1)
x, y = tf.ones([2, 1]), tf.zeros([2, 5])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.abs(net(x) - y))
opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)
path = ckpt.save(sys.argv[1] + "/ckpt")
print(json.dumps(sorted(name for name, _ in tf.train.list_variables(path)), indent=1))
