"""An LSTM classifier on MNIST rows: each image is a sequence of 28 steps of 28 pixels.

Two ways to build the same model:

- ``--api tf1`` (default): ``tf.nn.rnn_cell.BasicLSTMCell`` run by ``tf.nn.dynamic_rnn``
  (one While op over time) in a TF1 graph with a Session and ``tf.train.AdamOptimizer``;
- ``--api keras``: ``keras.layers.LSTM`` in a ``keras.Sequential`` model trained with
  ``fit`` (eager, with the training step in a tf.function).

It prints the loss and the accuracy of the training batches every ``--log-every`` steps,
then the accuracy on ``--test-examples`` test images, and exits with status 1 if that is
below ``--target`` (default 0.90). MNIST comes from the copy bundled with flowgrad.

    python examples/rnn_mnist.py [--api tf1|keras] [--steps 600] [--units 128]
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

import numpy as np

from flowgrad.datasets import mnist as input_data

STEPS, ROWS = 28, 28


def train_tf1(mnist: object, steps: int, units: int, batch_size: int, lr: float,
              log_every: int, test_examples: int, out: TextIO) -> float:
    """The TF1 model: BasicLSTMCell + dynamic_rnn + dense softmax; returns test accuracy."""
    import flowgrad.compat.v1 as tf
    tf.disable_v2_behavior()
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [None, STEPS, ROWS], name="rows")
        y = tf.placeholder(tf.int64, [None], name="digits")
        cell = tf.nn.rnn_cell.BasicLSTMCell(units)
        _, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        logits = tf.layers.dense(state.h, 10)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                             logits=logits))
        train_op = tf.train.AdamOptimizer(lr).minimize(loss)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            start = time.perf_counter()
            for step in range(1, steps + 1):
                images, labels = mnist.train.next_batch(batch_size)
                _, lv, av = sess.run([train_op, loss, accuracy],
                                     {x: images.reshape(-1, STEPS, ROWS), y: labels})
                if step % log_every == 0 or step == steps:
                    print("step %5d  loss %.4f  batch accuracy %.3f  (%.1f s)"
                          % (step, lv, av, time.perf_counter() - start), file=out, flush=True)
            test_x = mnist.test.images[:test_examples].reshape(-1, STEPS, ROWS)
            return float(sess.run(accuracy, {x: test_x,
                                             y: mnist.test.labels[:test_examples]}))


def train_keras(mnist: object, steps: int, units: int, batch_size: int, lr: float,
                log_every: int, test_examples: int, out: TextIO) -> float:
    """The Keras model: LSTM + Dense, trained with fit; returns test accuracy."""
    import flowgrad as tf
    keras = tf.keras
    tf.random.set_seed(0)
    model = keras.Sequential([keras.Input((STEPS, ROWS)), keras.layers.LSTM(units),
                              keras.layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.Adam(lr), metrics=["accuracy"],
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    start = time.perf_counter()
    done = 0
    while done < steps:
        chunk = min(log_every, steps - done)
        images, labels = mnist.train.next_batch(batch_size * chunk)
        hist = model.fit(images.reshape(-1, STEPS, ROWS), labels, batch_size=batch_size,
                         epochs=1, verbose=0, shuffle=False)
        done += chunk
        print("step %5d  loss %.4f  batch accuracy %.3f  (%.1f s)"
              % (done, hist.history["loss"][-1], hist.history["accuracy"][-1],
                 time.perf_counter() - start), file=out, flush=True)
    test_x = mnist.test.images[:test_examples].reshape(-1, STEPS, ROWS)
    return float(model.evaluate(test_x, mnist.test.labels[:test_examples], verbose=0)[1])


def main(argv: list | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--api", choices=("tf1", "keras"), default="tf1",
                        help="TF1 dynamic_rnn in a Session, or a tf.keras LSTM")
    parser.add_argument("--steps", type=int, default=600, help="training steps")
    parser.add_argument("--units", type=int, default=128, help="LSTM units")
    parser.add_argument("--batch-size", type=int, default=64, help="images per step")
    parser.add_argument("--lr", type=float, default=0.005, help="Adam learning rate")
    parser.add_argument("--log-every", type=int, default=50, help="steps between log lines")
    parser.add_argument("--test-examples", type=int, default=2000,
                        help="evaluate on the first N test images")
    parser.add_argument("--target", type=float, default=0.90,
                        help="exit with status 1 below this test accuracy")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.units < 1 or args.log_every < 1:
        parser.error("--steps, --units and --log-every must be positive")
    mnist = input_data.read_data_sets(one_hot=False, seed=0)
    np.random.seed(0)
    train = train_tf1 if args.api == "tf1" else train_keras
    start = time.perf_counter()
    acc = train(mnist, args.steps, args.units, args.batch_size, args.lr, args.log_every,
                args.test_examples, out)
    print("test accuracy %.4f on %d images (%.1f s)"
          % (acc, args.test_examples, time.perf_counter() - start), file=out)
    return 0 if acc >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
