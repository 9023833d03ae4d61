"""Records TensorFlow 2.21's 3-D convolution and pooling and grouped convolutions for
tests/test_conv3d_ops.py:

    /work/venv-tf/bin/python tools/tf_reference/conv3d_reference.py

writes ``tests/data/conv3d/tensorflow_2.21.json``: for each case the float32 inputs, the
output, and the gradients of ``sum(output * dy)`` (a fixed random ``dy``) with respect to
each input. ``tf.nn.conv3d``, ``conv3d_transpose``, ``max_pool3d`` and ``avg_pool3d`` (NDHWC,
SAME and VALID, strides) run on TensorFlow's CPU kernels; grouped convolutions (input depth
a multiple of the filter's, as Keras's ``groups``) and NCDHW run under
``tf.function(jit_compile=True)``, since TensorFlow runs them through XLA on CPU (as Keras
does)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import tensorflow as tf

OUT = (Path(__file__).resolve().parents[2] / "tests" / "data" / "conv3d"
       / "tensorflow_2.21.json")


def _list(v: np.ndarray) -> list:
    """A float32 array as nested lists of floats of 8 significant digits (exact in float32)."""
    return np.vectorize(lambda f: float("%.8g" % f), otypes=[object])(np.asarray(v)).tolist()


def _case(fn, inputs: list, seed: int, xla: bool = False) -> dict:
    xs = [tf.constant(v) for v in inputs]

    def run(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = fn(*xs)
            dy = tf.constant(np.random.default_rng(seed).normal(size=y.shape).astype(np.float32))
            loss = tf.reduce_sum(y * dy)
        return y, tape.gradient(loss, xs)

    y, grads = (tf.function(run, jit_compile=True) if xla else run)(*xs)
    return {"inputs": [_list(v) for v in inputs], "output": _list(y.numpy()),
            "grads": [_list(g.numpy()) for g in grads]}


def main() -> None:
    """Computes every case and writes OUT."""
    rng = np.random.default_rng(0)

    def a(*shape):
        return rng.normal(size=shape).astype(np.float32)

    x, w = a(2, 4, 5, 3, 2), a(2, 3, 2, 2, 3)
    nn = tf.nn
    rec = {
        "conv3d_same": _case(lambda x, w: nn.conv3d(x, w, [1] * 5, "SAME"), [x, w], 1),
        "conv3d_valid_strides": _case(lambda x, w: nn.conv3d(x, w, [1, 2, 1, 2, 1], "VALID"),
                                      [x, w], 2),
        "conv3d_ncdhw": _case(lambda x, w: nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME",
                                                     data_format="NCDHW"),
                              [np.ascontiguousarray(np.moveaxis(x, 4, 1)), w], 3, xla=True),
        "conv3d_transpose": _case(lambda dy, w: nn.conv3d_transpose(
            dy, w, [2, 4, 5, 3, 2], [1, 2, 2, 1, 1], "SAME"), [a(2, 2, 3, 3, 3), w], 4),
        "conv3d_grouped": _case(lambda x, w: nn.conv3d(x, w, [1] * 5, "VALID"),
                                [a(1, 3, 4, 3, 4), a(2, 2, 2, 2, 6)], 5, xla=True),
        "conv2d_grouped": _case(lambda x, w: nn.conv2d(x, w, [1, 2, 1, 1], "SAME"),
                                [a(2, 5, 4, 6), a(3, 2, 2, 9)], 6, xla=True),
        "conv2d_grouped_dilated": _case(lambda x, w: nn.conv2d(x, w, 1, "VALID", dilations=2),
                                        [a(1, 6, 6, 4), a(2, 2, 1, 8)], 7, xla=True),
    }
    xp = a(2, 5, 4, 5, 3)
    for name, fn in (("max", nn.max_pool3d), ("avg", nn.avg_pool3d)):
        for k, s, p in ((2, 2, "VALID"), (3, 2, "SAME"), ([2, 3, 1], 1, "SAME")):
            key = "%s_pool3d_%s_%s_%s" % (name, "x".join(map(str, np.ravel(k))), s, p)
            rec[key] = _case(lambda x, fn=fn, k=k, s=s, p=p: fn(x, k, s, p), [xp], 8)
            rec[key]["args"] = [k, s, p]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rec))


if __name__ == "__main__":
    main()
