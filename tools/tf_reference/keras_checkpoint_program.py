"""tf.train.Checkpoint of a Keras 3 model and its optimizer: ``save DIR`` trains a seeded
model, saves, prints the checkpoint's keys and the predictions; ``load DIR`` restores a fresh
model and optimizer from DIR, predicts, trains one more epoch (Adam's restored slots and
iterations in use) and predicts again. Real TensorFlow 2.21 + Keras printed
tests/data/keras/checkpoint_keras3/{save,load}_tf_2_21.txt and wrote the checkpoint in that
folder (``/path/to/tf-venv/bin/python tools/tf_reference/keras_checkpoint_program.py save
tests/data/keras/checkpoint_keras3``, then ``load``); tests/test_keras_checkpoint.py runs it
on flowgrad, which must print the same and read TensorFlow's files."""
import os
import sys

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
mode, folder = sys.argv[1], sys.argv[2]


def make():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])


x = np.ones((4, 3), np.float32)
y = np.zeros((4, 1), np.float32)
if mode == "save":
    m = make()
    opt = keras.optimizers.Adam(0.1)
    m.compile(opt, "mse")
    m.fit(x, y, epochs=2, verbose=0)
    p = tf.train.Checkpoint(model=m, optimizer=opt).save(os.path.join(folder, "ck"))
    print(p.split("/")[-1])
    print([k for k, _ in tf.train.list_variables(p)])
    print(np.round(m.predict(x, verbose=0).ravel(), 5).tolist(), int(opt.iterations.numpy()))
else:
    m = make()
    opt = keras.optimizers.Adam(0.1)
    tf.train.Checkpoint(model=m, optimizer=opt).restore(tf.train.latest_checkpoint(folder))
    print(np.round(m.predict(x, verbose=0).ravel(), 5).tolist())
    m.compile(opt, "mse")
    m.fit(x, y, epochs=1, verbose=0)
    print(int(opt.iterations.numpy()), np.round(m.predict(x, verbose=0).ravel(), 5).tolist())
