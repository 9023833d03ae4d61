"""Synchronous data-parallel MNIST softmax regression on Ray: a TF1 program written for
``tf.train.SyncReplicasOptimizer`` that every worker of a ``flowgrad.distribute.WorkerGroup``
runs.

Each worker builds the tutorials' softmax regression in its own graph, wraps
``GradientDescentOptimizer`` in ``SyncReplicasOptimizer`` and trains in a
``MonitoredTrainingSession`` with the optimizer's hook, as TensorFlow's TF1 distributed
programs do; it learns its index from ``TF_CONFIG`` (which the group sets, as a TensorFlow
cluster manager would). Each step every worker computes the gradients of its
``--batch-size`` images, the workers average them by an all-reduce among themselves, and
each applies the mean: the same steps as one process on the combined batch.

    python examples/distributed_mnist.py [--workers 2] [--steps 200] [--batch-size 50]
                                         [--address HOST:PORT]

Needs Ray (``pip install flowgrad[distributed]``); without ``--address`` it starts a local
Ray instance with this machine's CPUs.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TextIO

import numpy as np


def train(steps: int, batch_size: int, learning_rate: float = 0.5) -> dict:
    """The TF1 program every worker runs; returns its losses, test accuracy and speed."""
    import flowgrad.compat.v1 as tf
    from flowgrad.datasets import mnist as input_data

    tf.disable_v2_behavior()
    config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    num_workers = len(config.get("cluster", {}).get("worker", [None]))
    task_index = config.get("task", {}).get("index", 0)
    np.random.seed(0)                 # every worker draws the same global batches ...
    mnist = input_data.read_data_sets(one_hot=True)
    rows = slice(task_index * batch_size, (task_index + 1) * batch_size)   # ... its part
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 784], name="x")
        y = tf.placeholder(tf.float32, [None, 10], name="y")
        W = tf.Variable(tf.zeros([784, 10]), name="W")
        b = tf.Variable(tf.zeros([10]), name="b")
        logits = tf.matmul(x, W) + b
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y,
                                                                         logits=logits))
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1)),
                                          tf.float32))
        global_step = tf.train.get_or_create_global_step()
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(learning_rate),
                                             replicas_to_aggregate=num_workers,
                                             total_num_replicas=num_workers)
        train_op = opt.minimize(loss, global_step=global_step)
        hooks = [opt.make_session_run_hook(is_chief=task_index == 0)]
        losses = []
        start = time.perf_counter()
        with tf.train.MonitoredTrainingSession(is_chief=task_index == 0, hooks=hooks) as sess:
            for _ in range(steps):
                bx, by = mnist.train.next_batch(batch_size * num_workers)
                out, _ = sess.run([loss, train_op], {x: bx[rows], y: by[rows]})
                losses.append(float(out))
            seconds = time.perf_counter() - start
            test_accuracy = float(sess.run(accuracy, {x: mnist.test.images,
                                                      y: mnist.test.labels}))
    return {"losses": losses, "accuracy": test_accuracy, "steps_per_second": steps / seconds}


def run(workers: int = 2, steps: int = 200, batch_size: int = 50, address: str | None = None,
        out: TextIO | None = None) -> float:
    """Trains on ``workers`` Ray workers; prints progress and returns the test accuracy."""
    from flowgrad.distribute import WorkerGroup
    out = out or sys.stdout
    print("%d workers x %d images per step" % (workers, batch_size), file=out)
    with WorkerGroup(workers, address=address) as group:
        results = group.run(train, steps, batch_size)
    chief = results[0]
    for step in range(0, len(chief["losses"]), 20):
        print("step %4d  loss (worker 0's part) %.4f" % (step, chief["losses"][step]), file=out)
    print("test accuracy %.4f (every worker: %s); %.1f steps/s"
          % (chief["accuracy"], ", ".join("%.4f" % r["accuracy"] for r in results),
             chief["steps_per_second"]), file=out)
    return chief["accuracy"]


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="worker actors")
    parser.add_argument("--steps", type=int, default=200, help="synchronous training steps")
    parser.add_argument("--batch-size", type=int, default=50, help="images per worker")
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address; None starts a local Ray instance")
    args = parser.parse_args(argv)
    run(args.workers, args.steps, args.batch_size, args.address)
    return 0


if __name__ == "__main__":
    sys.exit(main())
