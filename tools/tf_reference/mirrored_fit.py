"""Keras 3 ``fit``/``evaluate``/``predict`` of a model made and compiled under
``tf.distribute.MirroredStrategy``'s scope, with 1 and 2 replicas (two logical CPUs), as
TensorFlow's distributed-Keras tutorial does. Real TensorFlow 2.21 + Keras 3.15.1 wrote
tests/data/distribute/mirrored_fit_tf_2_21.json (``/path/to/tf-venv/bin/python
tools/tf_reference/mirrored_fit.py OUT.json``); tests/test_distribute_mirrored.py runs the same
program on flowgrad and compares. (With BatchNormalization and 2 replicas TensorFlow 2.21's
own run aborts in a collective, so the record has no such case.)"""
import json
import sys

import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
import keras  # noqa: E402

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
out = {}
for k in (1, 2):
    strategy = tf.distribute.MirroredStrategy(["/cpu:%d" % i for i in range(k)])
    with strategy.scope():
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.layers.Input((5,)),
                                  keras.layers.Dense(4, activation="relu"),
                                  keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False).history
    out["replicas_%d" % k] = {
        "history": history,
        "weights": [w.numpy().tolist() for w in model.weights],
        "iterations": int(model.optimizer.iterations.numpy()),
        "evaluate": model.evaluate(x, y, batch_size=8, verbose=0),
        "predict": model.predict(x[:6], batch_size=4, verbose=0).tolist(),
    }
with open(sys.argv[1], "w") as f:
    json.dump(out, f, indent=1)
