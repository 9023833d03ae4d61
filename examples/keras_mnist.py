"""MNIST with tf.keras on flowgrad (TF2 face): ``model.fit`` and a custom GradientTape loop.

The model is TensorFlow's beginner quickstart (Flatten, Dense 128 ReLU, Dropout 0.2,
Dense 10 logits) or, with ``--model cnn``, a small CNN (Conv2D 32 3x3, max-pool, Conv2D 64
3x3, max-pool, Dense 10). Part 1 trains it with ``compile``/``fit`` (Keras's progress bar)
and evaluates; part 2 trains a fresh copy with a hand-written ``tf.GradientTape`` loop
inside ``tf.function``, printing its own progress. MNIST comes from flowgrad's bundled
copy (``tf.compat.v1.keras.datasets.mnist``, no download).

    python examples/keras_mnist.py                 # MLP, 5 epochs each way
    python examples/keras_mnist.py --model cnn --epochs 1 --train-size 10000
"""
from __future__ import annotations

import argparse
import os
import time

# One BLAS thread: these small matrix products only lose time to threading on a shared CPU.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import flowgrad as tf  # noqa: E402
from flowgrad import keras  # noqa: E402


def build_model(kind: str) -> keras.Model:
    layers = keras.layers
    if kind == "cnn":
        return keras.Sequential([
            keras.Input((28, 28, 1)),
            layers.Conv2D(32, 3, activation="relu"),
            layers.MaxPooling2D(),
            layers.Conv2D(64, 3, activation="relu"),
            layers.MaxPooling2D(),
            layers.Flatten(),
            layers.Dropout(0.2),
            layers.Dense(10),
        ])
    return keras.Sequential([
        keras.Input((28, 28)),
        layers.Flatten(),
        layers.Dense(128, activation="relu"),
        layers.Dropout(0.2),
        layers.Dense(10),
    ])


def load(kind: str, train_size: int) -> tuple:
    # flowgrad's bundled MNIST (no download), through the TF1 face's Keras datasets
    (x_train, y_train), (x_test, y_test) = tf.compat.v1.keras.datasets.mnist.load_data()
    x_train, x_test = x_train[:train_size] / 255.0, x_test / 255.0
    y_train = y_train[:train_size]
    if kind == "cnn":
        x_train, x_test = x_train[..., None], x_test[..., None]
    return ((x_train.astype("float32"), y_train), (x_test.astype("float32"), y_test))


def fit_part(args: argparse.Namespace, data: tuple) -> None:
    (x_train, y_train), (x_test, y_test) = data
    tf.random.set_seed(args.seed)
    model = build_model(args.model)
    model.summary()
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=args.batch_size, epochs=args.epochs,
              validation_data=(x_test, y_test), verbose=args.verbose)
    loss, acc = model.evaluate(x_test, y_test, verbose=0)
    print("fit: test loss %.4f, test accuracy %.4f" % (loss, acc))


def tape_part(args: argparse.Namespace, data: tuple) -> None:
    (x_train, y_train), (x_test, y_test) = data
    tf.random.set_seed(args.seed)
    model = build_model(args.model)
    optimizer = keras.optimizers.Adam()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_loss = keras.metrics.Mean(name="train_loss")
    train_acc = keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    test_acc = keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")

    @tf.function
    def train_step(images: tf.Tensor, labels: tf.Tensor) -> None:
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = loss_fn(labels, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        train_loss.update_state(loss)
        train_acc.update_state(labels, logits)

    @tf.function
    def test_step(images: tf.Tensor, labels: tf.Tensor) -> None:
        test_acc.update_state(labels, model(images, training=False))

    rng = np.random.default_rng(args.seed)
    n, bs = len(x_train), args.batch_size
    for epoch in range(args.epochs):
        for m in (train_loss, train_acc, test_acc):
            m.reset_state()
        start = time.time()
        order = rng.permutation(n)
        for i in range(0, n, bs):
            idx = order[i:i + bs]
            train_step(x_train[idx], y_train[idx])
        for i in range(0, len(x_test), 1000):
            test_step(x_test[i:i + 1000], y_test[i:i + 1000])
        print("tape loop: epoch %d/%d - %.1fs - loss %.4f - accuracy %.4f - test accuracy %.4f"
              % (epoch + 1, args.epochs, time.time() - start, train_loss.result().numpy(),
                 train_acc.result().numpy(), test_acc.result().numpy()))


def main(argv: list | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--model", choices=["mlp", "cnn"], default="mlp",
                   help="the quickstart's dense network or a small CNN")
    p.add_argument("--epochs", type=int, default=5, help="epochs of each part")
    p.add_argument("--batch-size", type=int, default=128, help="examples per step")
    p.add_argument("--train-size", type=int, default=60000,
                   help="train on the first N training images")
    p.add_argument("--seed", type=int, default=0, help="seed of the weights and shuffling")
    p.add_argument("--verbose", type=int, default=1, choices=[0, 1, 2],
                   help="fit's verbosity: 0 silent, 1 progress bar, 2 one line per epoch")
    p.add_argument("--part", choices=["both", "fit", "tape"], default="both",
                   help="run model.fit, the GradientTape loop, or both")
    args = p.parse_args(argv)
    data = load(args.model, args.train_size)
    if args.part in ("both", "fit"):
        fit_part(args, data)
    if args.part in ("both", "tape"):
        tape_part(args, data)


if __name__ == "__main__":
    main()
