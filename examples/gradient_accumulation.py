"""Gradient accumulation through placeholders (the TF1 recipe: accumulate, then apply).

The seed's pattern: fetch the gradients with ``sess.run``, process them in NumPy, and
feed them back through placeholders to ``apply_gradients``. Here the processing is
accumulation: each batch of ``--batch-size`` MNIST images is split into ``--micro-batches``
micro-batches, their gradients are fetched one by one and averaged in NumPy, and the
mean is applied with momentum. Because the loss is a mean over the batch, this takes
the same steps as training on the whole batch at once, which the script checks at the
end (for models too large to fit a whole batch in memory, this is how to train with it).

    python examples/gradient_accumulation.py [--steps 50] [--batch-size 100] [--micro-batches 4]
"""
from __future__ import annotations

import argparse
import sys
from typing import TextIO

import numpy as np

import flowgrad.compat.v1 as tf
from flowgrad.datasets import mnist as input_data

MOMENTUM = 0.9


def _model() -> tuple:
    x = tf.placeholder(tf.float32, [None, 784], name="x")
    y = tf.placeholder(tf.float32, [None, 10], name="y")
    W = tf.Variable(tf.zeros([784, 10]), name="W")
    b = tf.Variable(tf.zeros([10]), name="b")
    pred = tf.nn.softmax(tf.matmul(x, W) + b)
    cost = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred), reduction_indices=1))
    return x, y, W, b, cost


def train_accumulated(batches: list, micro_batches: int, learning_rate: float,
                      out: TextIO) -> tuple:
    """Momentum steps on the mean of the micro-batch gradients, fed through placeholders."""
    with tf.Graph().as_default():
        x, y, W, b, cost = _model()
        opt = tf.train.MomentumOptimizer(learning_rate, MOMENTUM)
        grads_and_vars = opt.compute_gradients(cost, [W, b])
        grads = [g for g, _ in grads_and_vars]
        holders = [tf.placeholder(tf.float32, shape=g.get_shape()) for g in grads]
        train_op = opt.apply_gradients(zip(holders, [v for _, v in grads_and_vars]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step, (bx, by) in enumerate(batches):
                total = [np.zeros(g.get_shape().as_list(), np.float32) for g in grads]
                losses = []
                for mx, my in zip(np.array_split(bx, micro_batches),
                                  np.array_split(by, micro_batches)):
                    *values, c = sess.run(grads + [cost], {x: mx, y: my})
                    total = [t + v for t, v in zip(total, values)]
                    losses.append(c)
                mean = [t / micro_batches for t in total]
                sess.run(train_op, feed_dict=dict(zip(holders, mean)))
                if step % 10 == 0 or step == len(batches) - 1:
                    print("step %3d  batch loss %.6f" % (step, np.mean(losses)), file=out)
            return sess.run([W, b])


def train_full_batch(batches: list, learning_rate: float) -> tuple:
    """The reference: minimize on each whole batch."""
    with tf.Graph().as_default():
        x, y, W, b, cost = _model()
        train_op = tf.train.MomentumOptimizer(learning_rate, MOMENTUM).minimize(cost)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for bx, by in batches:
                sess.run(train_op, {x: bx, y: by})
            return sess.run([W, b])


def run(steps: int = 50, batch_size: int = 100, micro_batches: int = 4,
        learning_rate: float = 0.05, out: TextIO | None = None) -> float:
    """Trains both ways; prints and returns the largest difference between their weights."""
    out = out or sys.stdout
    if batch_size % micro_batches:
        raise ValueError("batch_size (%d) must be a multiple of micro_batches (%d): the mean "
                         "of the micro-batch means is the batch mean only for equal sizes"
                         % (batch_size, micro_batches))
    mnist = input_data.read_data_sets(one_hot=True)
    batches = [mnist.train.next_batch(batch_size, shuffle=False) for _ in range(steps)]
    W1, b1 = train_accumulated(batches, micro_batches, learning_rate, out)
    W2, b2 = train_full_batch(batches, learning_rate)
    diff = float(max(np.abs(W1 - W2).max(), np.abs(b1 - b2).max()))
    print("max |accumulated - full batch| over the weights: %.3g" % diff, file=out)
    return diff


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--steps", type=int, default=50, help="training steps")
    parser.add_argument("--batch-size", type=int, default=100,
                        help="examples per step, split into the micro-batches")
    parser.add_argument("--micro-batches", type=int, default=4,
                        help="micro-batches whose gradients are accumulated per step")
    parser.add_argument("--learning-rate", type=float, default=0.05,
                        help="learning rate of the MomentumOptimizer")
    args = parser.parse_args(argv)
    tf.disable_v2_behavior()
    run(args.steps, args.batch_size, args.micro_batches, args.learning_rate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
