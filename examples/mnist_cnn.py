"""A TF1 convolutional network on MNIST: ``tf.layers`` + ``tf.data`` + ``tf.Session``.

The classic TF1 CNN (conv 5x5x32 SAME + ReLU + 2x2 max-pool, conv 5x5x64 + ReLU +
max-pool, dense 1024 + ReLU, dropout, dense 10) trained with Adam on softmax
cross-entropy (``tf.losses.sparse_softmax_cross_entropy``). The input pipeline is
``tf.data``: a shuffled, batched training set and the test set behind one reinitializable
iterator (``tf.data.Iterator.from_structure`` + ``make_initializer``), as TF1 programs
switch between them; ``--input feed`` feeds NumPy batches through placeholders instead.
MNIST comes from ``keras.datasets.mnist.load_data()`` (the copy bundled with flowgrad).

    python examples/mnist_cnn.py                     # one epoch: 98.7% test accuracy
    python examples/mnist_cnn.py --epochs 2 --batch-norm
    python examples/mnist_cnn.py --train-size 10000 --conv1 8 --conv2 16 --dense 128
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

import numpy as np

import flowgrad.compat.v1 as tf
from flowgrad.legacy_keras.datasets import mnist

EVAL_BATCH = 250    # test images per evaluation run (bounds the im2col buffers)


def build_model(images: Any, training: Any, args: argparse.Namespace) -> Any:
    """Logits of the CNN for float32 ``images`` of shape (batch, 28, 28)."""
    x = tf.reshape(images, [-1, 28, 28, 1])
    for i, filters in enumerate((args.conv1, args.conv2)):
        x = tf.layers.conv2d(x, filters, args.kernel_size, padding="same", name="conv%d" % (i + 1),
                             use_bias=not args.batch_norm,
                             activation=None if args.batch_norm else tf.nn.relu)
        if args.batch_norm:
            x = tf.nn.relu(tf.layers.batch_normalization(x, training=training,
                                                         name="bn%d" % (i + 1)))
        x = tf.layers.max_pooling2d(x, 2, 2, name="pool%d" % (i + 1))
    x = tf.layers.flatten(x)
    x = tf.layers.dense(x, args.dense, activation=tf.nn.relu, name="fc1")
    x = tf.layers.dropout(x, args.dropout, training=training, seed=args.seed)
    return tf.layers.dense(x, 10, name="logits")


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> float:
    """Trains as ``args`` say, printing progress to ``out``; returns the test accuracy."""
    tf.disable_v2_behavior()
    tf.reset_default_graph()
    tf.set_random_seed(args.seed)
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    x_train = (x_train[:args.train_size] / np.float32(255)).astype(np.float32)
    y_train = y_train[:args.train_size].astype(np.int64)
    x_test = (x_test[:args.test_size] / np.float32(255)).astype(np.float32)
    y_test = y_test[:args.test_size].astype(np.int64)

    training = tf.placeholder_with_default(False, [], name="training")
    if args.input == "data":
        train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(
            len(x_train), seed=args.seed).batch(args.batch_size)
        test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(EVAL_BATCH)
        iterator = tf.data.Iterator.from_structure(tf.data.get_output_types(train_ds),
                                                   tf.data.get_output_shapes(train_ds))
        images, labels = iterator.get_next()
        train_init, test_init = iterator.make_initializer(train_ds), \
            iterator.make_initializer(test_ds)
    else:
        images = tf.placeholder(tf.float32, [None, 28, 28], name="images")
        labels = tf.placeholder(tf.int64, [None], name="labels")
    logits = build_model(images, training, args)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.int32))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.AdamOptimizer(args.lr).minimize(loss)

    n_params = sum(int(np.prod(v.shape.as_list())) for v in tf.trainable_variables())
    print("CNN with %d parameters; %d training and %d test images, batch %d, input=%s"
          % (n_params, len(x_train), len(x_test), args.batch_size, args.input), file=out)
    rng = np.random.RandomState(args.seed)

    def evaluate(sess: Any) -> float:
        hits = 0
        if args.input == "data":
            sess.run(test_init)
            while True:
                try:
                    hits += sess.run(correct)
                except tf.errors.OutOfRangeError:
                    break
        else:
            for i in range(0, len(x_test), EVAL_BATCH):
                hits += sess.run(correct, {images: x_test[i:i + EVAL_BATCH],
                                           labels: y_test[i:i + EVAL_BATCH]})
        return hits / len(x_test)

    def train_batches(sess: Any) -> Any:
        """Yields the feed of each training step of one epoch (until the data runs out)."""
        if args.input == "data":
            sess.run(train_init)
            while True:
                yield {training: True}
        order = rng.permutation(len(x_train))
        for i in range(0, len(order), args.batch_size):
            idx = order[i:i + args.batch_size]
            yield {images: x_train[idx], labels: y_train[idx], training: True}

    start = time.perf_counter()
    step = 0
    acc = 0.0
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(1, args.epochs + 1):
            for feed in train_batches(sess):
                try:
                    _, batch_loss = sess.run([train_op, loss], feed)
                except tf.errors.OutOfRangeError:
                    break
                step += 1
                if step % args.log_every == 0:
                    elapsed = time.perf_counter() - start
                    print("epoch %d step %5d  loss %.4f  %.1f s (%.3f s/step)"
                          % (epoch, step, batch_loss, elapsed, elapsed / step), file=out)
                    out.flush()
            acc = evaluate(sess)
            print("epoch %d done: test accuracy %.4f (%.1f s)"
                  % (epoch, acc, time.perf_counter() - start), file=out)
            out.flush()
    return acc


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--epochs", type=int, default=1, help="passes over the training set")
    p.add_argument("--batch-size", type=int, default=64, help="training batch size")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    p.add_argument("--seed", type=int, default=0, help="graph-level random seed")
    p.add_argument("--train-size", type=int, default=60000, help="training images used")
    p.add_argument("--test-size", type=int, default=10000, help="test images evaluated")
    p.add_argument("--conv1", type=int, default=32, help="filters of the first conv layer")
    p.add_argument("--conv2", type=int, default=64, help="filters of the second conv layer")
    p.add_argument("--kernel-size", type=int, default=5, help="size of the square conv kernels")
    p.add_argument("--dense", type=int, default=1024, help="units of the hidden dense layer")
    p.add_argument("--dropout", type=float, default=0.4, help="dropout rate while training")
    p.add_argument("--batch-norm", action="store_true",
                   help="batch normalization after each conv (updates via UPDATE_OPS)")
    p.add_argument("--input", choices=("data", "feed"), default="data",
                   help="tf.data iterators, or NumPy batches through feed_dict")
    p.add_argument("--log-every", type=int, default=100, help="steps between progress lines")
    p.add_argument("--min-accuracy", type=float, default=0.0,
                   help="exit with status 1 if the final test accuracy is lower")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    acc = run(args)
    return 0 if acc >= args.min_accuracy else 1


if __name__ == "__main__":
    sys.exit(main())
