"""Keras's "Simple MNIST convnet" tutorial, unmodified but for ``--data``/``--epochs``/``--seed``:
a Sequential CNN trained with ``fit`` and scored with ``evaluate``. It runs on real
TensorFlow and, unchanged, on flowgrad with ``python -m flowgrad mnist_convnet.py``.

    python -m flowgrad examples/keras_tutorials/mnist_convnet.py --epochs 3
    python -m flowgrad examples/keras_tutorials/mnist_convnet.py --data small.npz

``--data`` takes an ``.npz`` with ``x_train``/``y_train``/``x_test``/``y_test`` (as
``keras.datasets.mnist.load_data()`` returns them); without it the program loads MNIST
with Keras."""
import argparse

import numpy as np
from tensorflow import keras
from tensorflow.keras import layers


def load_mnist(path):
    """MNIST as ``keras.datasets.mnist.load_data()`` returns it (from ``path`` if given)."""
    if not path:
        return keras.datasets.mnist.load_data()
    with np.load(path) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])


parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--data", help=".npz with x_train, y_train, x_test, y_test")
parser.add_argument("--epochs", type=int, default=15)
parser.add_argument("--seed", type=int, default=1337)
args = parser.parse_args()
keras.utils.set_random_seed(args.seed)

num_classes = 10
input_shape = (28, 28, 1)

(x_train, y_train), (x_test, y_test) = load_mnist(args.data)
x_train = x_train.astype("float32") / 255
x_test = x_test.astype("float32") / 255
x_train = np.expand_dims(x_train, -1)
x_test = np.expand_dims(x_test, -1)
print("x_train shape:", x_train.shape)
y_train = keras.utils.to_categorical(y_train, num_classes)
y_test = keras.utils.to_categorical(y_test, num_classes)

model = keras.Sequential(
    [
        keras.Input(shape=input_shape),
        layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(num_classes, activation="softmax"),
    ]
)
model.summary()

model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
model.fit(x_train, y_train, batch_size=128, epochs=args.epochs, validation_split=0.1,
          verbose=2)

score = model.evaluate(x_test, y_test, verbose=0)
print("Test loss:", score[0])
print("Test accuracy:", score[1])
