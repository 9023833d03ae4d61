"""compute_gradients -> clip_by_global_norm -> apply_gradients (the TF1 gradient-clipping recipe).

A linear regression whose first gradients are large (the inputs have a large scale and
the weights start far from the solution). Each step computes the gradients, rescales
them together so that their global norm is at most ``--clip-norm``, and applies the
clipped gradients. The table shows the loss and the global norm before and after
clipping: early steps are clipped, later ones pass unchanged.

    python examples/clip_and_apply.py [--steps 40] [--clip-norm 5.0] [--learning-rate 0.05]
"""
from __future__ import annotations

import argparse
import sys
from typing import TextIO

import numpy as np

import flowgrad.compat.v1 as tf

TRUE_W = np.array([[2.0], [-3.0], [1.0]], np.float32)
TRUE_B = 0.5


def make_data(n: int = 200, seed: int = 0) -> tuple:
    rng = np.random.RandomState(seed)
    x = (3.0 * rng.randn(n, 3)).astype(np.float32)
    y = (x @ TRUE_W + TRUE_B + 0.1 * rng.randn(n, 1)).astype(np.float32)
    return x, y


def train(steps: int = 40, clip_norm: float = 5.0, learning_rate: float = 0.05,
          out: TextIO | None = None) -> dict:
    """Runs the clipped training loop; returns losses, norms before and after clipping,
    and the final weights."""
    out = out or sys.stdout
    x_data, y_data = make_data()
    history: dict = {"loss": [], "norm": [], "clipped_norm": []}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        w = tf.Variable(tf.zeros([3, 1]), name="w")
        b = tf.Variable(0.0, name="b")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))

        opt = tf.train.GradientDescentOptimizer(learning_rate)
        grads_and_vars = opt.compute_gradients(loss)
        grads, variables = zip(*grads_and_vars)
        clipped, norm = tf.clip_by_global_norm(grads, clip_norm)
        clipped_norm = tf.global_norm(clipped)
        train_op = opt.apply_gradients(zip(clipped, variables))

        feed = {x: x_data, y: y_data}
        print("step      loss   global norm   after clipping", file=out)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(steps):
                loss_v, norm_v, clipped_v, _ = sess.run([loss, norm, clipped_norm, train_op],
                                                        feed)
                history["loss"].append(float(loss_v))
                history["norm"].append(float(norm_v))
                history["clipped_norm"].append(float(clipped_v))
                print("%4d %9.4f %13.4f %16.4f" % (step, loss_v, norm_v, clipped_v), file=out)
            history["w"], history["b"] = sess.run([w, b])
    print("learned w =", history["w"].ravel(), "b =", history["b"], file=out)
    print("true    w =", TRUE_W.ravel(), "b =", TRUE_B, file=out)
    return history


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--steps", type=int, default=40, help="training steps")
    parser.add_argument("--clip-norm", type=float, default=5.0,
                        help="clip_norm of tf.clip_by_global_norm")
    parser.add_argument("--learning-rate", type=float, default=0.05,
                        help="learning rate of the GradientDescentOptimizer")
    args = parser.parse_args(argv)
    tf.disable_v2_behavior()
    train(args.steps, args.clip_norm, args.learning_rate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
