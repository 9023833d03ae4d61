"""Synchronous data-parallel MNIST softmax regression on Ray (flowgrad.distribute).

Each step, the batch of ``--replicas`` x ``--batch-size`` images is split among the
replicas (Ray actors, each with its own graph and Session); each computes the gradients
of the tutorials' softmax regression on its shard, the parameter servers apply their mean
with ``GradientDescentOptimizer``, and every replica starts the next step from the same
values: the same steps as one process training on the whole batch.

    python examples/distributed_mnist.py [--replicas 2] [--ps 1] [--steps 200]
                                         [--batch-size 50] [--address HOST:PORT]

Needs Ray (``pip install flowgrad[distributed]``); without ``--address`` it starts a local
Ray instance with this machine's CPUs.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

import numpy as np

import flowgrad.compat.v1 as tf
from flowgrad.datasets import mnist as input_data


def model_fn() -> dict:
    """The tutorials' softmax regression; the strategy calls it in every process."""
    x = tf.placeholder(tf.float32, [None, 784], name="x")
    y = tf.placeholder(tf.float32, [None, 10], name="y")
    W = tf.Variable(tf.zeros([784, 10]), name="W")
    b = tf.Variable(tf.zeros([10]), name="b")
    logits = tf.matmul(x, W) + b
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return {"loss": loss, "x": x, "y": y}


def optimizer_fn(learning_rate: float = 0.5) -> tf.train.Optimizer:
    return tf.train.GradientDescentOptimizer(learning_rate)


def accuracy(values: dict, images: np.ndarray, labels: np.ndarray) -> float:
    logits = images @ values["W"] + values["b"]
    return float(np.mean(np.argmax(logits, 1) == np.argmax(labels, 1)))


def run(replicas: int = 2, num_ps: int = 1, steps: int = 200, batch_size: int = 50,
        address: str | None = None, out: TextIO | None = None) -> float:
    """Trains; prints progress and returns the test accuracy."""
    from flowgrad.distribute import ParameterServerStrategy
    out = out or sys.stdout
    mnist = input_data.read_data_sets(one_hot=True)
    strategy = ParameterServerStrategy(num_replicas=replicas, num_ps=num_ps, address=address)
    global_batch = replicas * batch_size
    print("%d replicas x %d images per step, %d parameter server(s)"
          % (replicas, batch_size, num_ps), file=out)
    with strategy.synchronous(model_fn, optimizer_fn) as trainer:
        start = time.perf_counter()
        for step in range(steps):
            bx, by = mnist.train.next_batch(global_batch)
            loss = trainer.step({"x": bx, "y": by})
            if step % 20 == 0 or step == steps - 1:
                rate = (step + 1) * global_batch / (time.perf_counter() - start)
                print("step %4d  loss %.4f  %7.0f images/s  communication %2.0f%% of a step"
                      % (step, loss, rate, 100 * trainer.last_stats["comm_share"]), file=out)
        acc = accuracy(trainer.variables(), mnist.test.images, mnist.test.labels)
    print("test accuracy %.4f" % acc, file=out)
    return acc


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--replicas", type=int, default=2, help="replica actors")
    parser.add_argument("--ps", type=int, default=1, help="parameter server actors")
    parser.add_argument("--steps", type=int, default=200, help="synchronous training steps")
    parser.add_argument("--batch-size", type=int, default=50, help="images per replica")
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address; None starts a local Ray instance")
    args = parser.parse_args(argv)
    tf.disable_v2_behavior()
    run(args.replicas, args.ps, args.steps, args.batch_size, args.address)
    return 0


if __name__ == "__main__":
    sys.exit(main())
