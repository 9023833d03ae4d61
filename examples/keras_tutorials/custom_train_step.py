"""Keras's "Customizing what happens in fit()" tutorial (TensorFlow version), unmodified but
for the data and ``--epochs``/``--seed``: a subclassed ``keras.Model`` whose ``train_step``
takes the gradients with ``tf.GradientTape`` and applies them, trained with ``fit`` on MNIST.
It runs on real TensorFlow and, unchanged, on flowgrad with ``python -m flowgrad``.

    python -m flowgrad examples/keras_tutorials/custom_train_step.py --data small.npz

``--data`` takes an ``.npz`` with ``x_train``/``y_train``/``x_test``/``y_test``; without it
the program loads MNIST with Keras."""
import argparse

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def load_mnist(path):
    """MNIST as ``keras.datasets.mnist.load_data()`` returns it (from ``path`` if given)."""
    if not path:
        return keras.datasets.mnist.load_data()
    with np.load(path) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])


class CustomModel(keras.Model):
    def __init__(self, num_classes=10):
        super().__init__()
        self.flatten = layers.Flatten()
        self.hidden = layers.Dense(128, activation="relu")
        self.dropout = layers.Dropout(0.2)
        self.classifier = layers.Dense(num_classes)

    def call(self, inputs, training=False):
        x = self.flatten(inputs)
        x = self.hidden(x)
        x = self.dropout(x, training=training)
        return self.classifier(x)

    def train_step(self, data):
        # Unpack the data. Its structure depends on your model and
        # on what you pass to `fit()`.
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute the loss value
            # (the loss function is configured in `compile()`)
            loss = self.compute_loss(y=y, y_pred=y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply(gradients, trainable_vars)

        # Update metrics (includes the metric that tracks the loss)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)

        # Return a dict mapping metric names to current value
        return {m.name: m.result() for m in self.metrics}


parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--data", help=".npz with x_train, y_train, x_test, y_test")
parser.add_argument("--epochs", type=int, default=5)
parser.add_argument("--seed", type=int, default=1337)
args = parser.parse_args()
keras.utils.set_random_seed(args.seed)

(x_train, y_train), (x_test, y_test) = load_mnist(args.data)
x_train, x_test = x_train / 255.0, x_test / 255.0

model = CustomModel()
model.compile(
    optimizer="adam",
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
model.fit(x_train, y_train, batch_size=32, epochs=args.epochs, verbose=2)

loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
print("Test loss:", loss)
print("Test accuracy:", accuracy)
