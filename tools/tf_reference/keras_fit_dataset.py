"""A Keras 3 program that trains on a tf.data pipeline: fit (with validation), evaluate and
predict on a shuffled, batched Dataset, all seeded. Real TensorFlow 2.21 + Keras printed
tests/data/keras_tutorials/fit_dataset_tf_2_21.json (``/path/to/tf-venv/bin/python
tools/tf_reference/keras_fit_dataset.py``); tests/test_keras_fit_dataset.py runs it unchanged
on flowgrad and compares the numbers."""
import json

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.RandomState(0).randn(64, 4).astype(np.float32)
y = (x.sum(1) > 0).astype(np.int32)
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=1).batch(16)
m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                         tf.keras.layers.Dense(2)])
m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
          metrics=["accuracy"])
h = m.fit(ds, epochs=2, verbose=0, validation_data=ds)
out = {"history": h.history, "evaluate": m.evaluate(ds, verbose=0),
       "predict": m.predict(x[:3], verbose=0).tolist()}
print(json.dumps(out))
