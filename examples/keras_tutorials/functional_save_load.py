"""Keras's "The Functional API" tutorial, unmodified but for the data and
``--epochs``/``--seed``/``--out``: a functional MNIST model trained with ``fit``, saved with
``model.save("....keras")``, loaded back with ``keras.models.load_model`` and scored. It runs
on real TensorFlow and, unchanged, on flowgrad with ``python -m flowgrad``.

    python -m flowgrad examples/keras_tutorials/functional_save_load.py --data small.npz

``--data`` takes an ``.npz`` with ``x_train``/``y_train``/``x_test``/``y_test``; without it
the program loads MNIST with Keras."""
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
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--seed", type=int, default=1337)
parser.add_argument("--out", default="my_model.keras", help="where the model is saved")
args = parser.parse_args()
keras.utils.set_random_seed(args.seed)

inputs = keras.Input(shape=(784,))
x = layers.Dense(64, activation="relu")(inputs)
x = layers.Dense(64, activation="relu")(x)
outputs = layers.Dense(10)(x)
model = keras.Model(inputs=inputs, outputs=outputs, name="mnist_model")
model.summary()

(x_train, y_train), (x_test, y_test) = load_mnist(args.data)
x_train = x_train.reshape(len(x_train), 784).astype("float32") / 255
x_test = x_test.reshape(len(x_test), 784).astype("float32") / 255

model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=keras.optimizers.RMSprop(),
    metrics=[keras.metrics.SparseCategoricalAccuracy()],
)
history = model.fit(x_train, y_train, batch_size=64, epochs=args.epochs, validation_split=0.2,
                    verbose=2)
test_scores = model.evaluate(x_test, y_test, verbose=0)
print("Test loss:", test_scores[0])
print("Test accuracy:", test_scores[1])

model.save(args.out)
del model
# Recreate the exact same model purely from the file:
model = keras.models.load_model(args.out)
loaded_scores = model.evaluate(x_test, y_test, verbose=0)
print("Loaded model test accuracy:", loaded_scores[1])
