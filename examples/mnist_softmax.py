"""The classic TF1 tutorial's softmax regression on MNIST, on flowgrad.

Two ways to train the same model, as the tutorial shows:

- ``--variant minimize`` (default): ``tf.train.GradientDescentOptimizer(lr).minimize(cost)``;
- ``--variant gradients``: ``tf.gradients(cost, [W, b])`` and ``W.assign(W - lr * grad_W)``.

Batches come in file order (as in the TensorFlow run its figures were recorded from), so
both variants print TensorFlow's numbers: epoch 1 cost 1.182139039, epoch 10 cost
0.392480284, accuracy 0.874 on the first 3000 test images. ``--shuffle`` reshuffles the
training set every epoch like the old tutorial helper. MNIST comes from the copy bundled
with flowgrad. A progress bar is shown on stderr when tqdm is installed
(``pip install "flowgrad[progress]"``).

    python examples/mnist_softmax.py [--variant minimize|gradients] [--epochs 10] [--shuffle]
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

import flowgrad.compat.v1 as tf
from flowgrad.datasets import mnist as input_data

LEARNING_RATE = 0.01
BATCH_SIZE = 100
TEST_EXAMPLES = 3000


@contextlib.contextmanager
def progress_bar(total: int, enabled: bool) -> Iterator[Any]:
    """A tqdm bar on stderr counting training steps (a no-op without tqdm)."""
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if tqdm is None or not enabled:
        yield None
        return
    with tqdm(total=total, unit="step", file=sys.stderr, leave=False) as bar:
        yield bar


def build_model(variant: str, learning_rate: float) -> dict:
    """The seed's graph: placeholders, W and b, the softmax cost and a training op."""
    x = tf.placeholder(tf.float32, [None, 784])   # images of 28*28 = 784 pixels
    y = tf.placeholder(tf.float32, [None, 10])    # one-hot digit labels
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    pred = tf.nn.softmax(tf.matmul(x, W) + b)
    cost = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred), reduction_indices=1))
    if variant == "minimize":
        train_op = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost)
    elif variant == "gradients":
        grad_W, grad_b = tf.gradients(xs=[W, b], ys=cost)
        train_op = [W.assign(W - learning_rate * grad_W), b.assign(b - learning_rate * grad_b)]
    else:
        raise ValueError("variant must be 'minimize' or 'gradients', got %r" % (variant,))
    correct = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return {"x": x, "y": y, "cost": cost, "train_op": train_op, "accuracy": accuracy}


def train(variant: str = "minimize", epochs: int = 10, shuffle: bool = False,
          learning_rate: float = LEARNING_RATE, batch_size: int = BATCH_SIZE,
          progress: bool = True, out: TextIO | None = None) -> dict:
    """Trains and prints the seed's epoch table; returns the epoch costs and the accuracy."""
    out = out or sys.stdout
    mnist = input_data.read_data_sets(one_hot=True, seed=0 if shuffle else None)
    total_batch = int(mnist.train.num_examples / batch_size)
    costs = []
    with tf.Graph().as_default():
        m = build_model(variant, learning_rate)
        feed_x, feed_y = m["x"], m["y"]
        with tf.Session() as sess, progress_bar(epochs * total_batch, progress) as bar:
            sess.run(tf.global_variables_initializer())
            for epoch in range(epochs):
                avg_cost = 0.0
                for _ in range(total_batch):
                    batch_xs, batch_ys = mnist.train.next_batch(batch_size, shuffle=shuffle)
                    _, c = sess.run([m["train_op"], m["cost"]],
                                    feed_dict={feed_x: batch_xs, feed_y: batch_ys})
                    avg_cost += c / total_batch
                    if bar is not None:
                        bar.update()
                costs.append(avg_cost)
                line = "Epoch: %04d cost= %.9f" % (epoch + 1, avg_cost)
                if bar is not None:       # above the bar, which stays at the bottom
                    bar.write(line, file=out)
                else:
                    print(line, file=out)
            print("Optimization Finished!", file=out)
            accuracy = m["accuracy"].eval({feed_x: mnist.test.images[:TEST_EXAMPLES],
                                           feed_y: mnist.test.labels[:TEST_EXAMPLES]})
            print("Accuracy:", accuracy, file=out)
    return {"costs": costs, "accuracy": float(accuracy)}


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--variant", choices=("minimize", "gradients"), default="minimize",
                        help="optimizer.minimize or tf.gradients + assign")
    parser.add_argument("--epochs", type=int, default=10, help="training epochs")
    parser.add_argument("--shuffle", action="store_true",
                        help="reshuffle the training set every epoch (seeded)")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (shown on stderr when tqdm is installed)")
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error("--epochs must be at least 1")
    tf.disable_v2_behavior()
    start = time.perf_counter()
    train(args.variant, args.epochs, args.shuffle, progress=not args.no_progress)
    print("Took %.1f s" % (time.perf_counter() - start), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
