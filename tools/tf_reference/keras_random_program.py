"""A Keras 3 program that draws random numbers: initial weights under
keras.utils.set_random_seed, an initializer with its own seed, a dropout mask, and tf.random
after tf.random.set_seed. Real TensorFlow 2.21 + Keras printed
tests/data/random_streams/keras_tf_2_21.txt (``/path/to/tf-venv/bin/python
tools/tf_reference/keras_random_program.py``); tests/test_keras_random_numbers.py runs it
unchanged on flowgrad and compares: the same script gives the same numbers."""
import numpy as np
import tensorflow as tf
import keras
keras.utils.set_random_seed(1)
d = keras.layers.Dense(3)
d.build((None, 4))
print(np.round(d.kernel.numpy(), 6).tolist())
m = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, activation="relu"),
                      keras.layers.Dropout(0.5), keras.layers.Dense(2)])
print(np.round(m.layers[0].kernel.numpy()[0], 6).tolist())
x = np.ones((2, 5), np.float32)
print(np.round(m(x, training=True).numpy(), 5).tolist())
tf.random.set_seed(3)
print(np.round(tf.random.normal([3]).numpy(), 6).tolist(),
      np.round(tf.random.uniform([2], 0, 10, tf.int32).numpy(), 6).tolist())
print(np.round(keras.initializers.GlorotUniform(seed=7)((2, 2)).numpy(), 6).tolist())
