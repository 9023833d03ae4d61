"""tf.print's formats: dense, ragged and sparse tensors, Python structures (pprint's layout),
``summarize``, ``sep``/``end``, and tf.print inside tf.function. Run on TensorFlow 2.21 it
wrote tests/data/reprs/tf_print.txt, which tests/test_function_reprs.py compares with this
program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/tf_print_formats.py > tests/data/reprs/tf_print.txt
"""
import collections
import functools
import sys

import numpy as np
import tensorflow as tf

P = functools.partial(tf.print, output_stream=sys.stdout)
P(tf.constant([[1.5, 2.25], [3.0, 4.0]]))
P("loss:", tf.constant(0.123456789), "step", 3)
P(tf.range(100))
P(tf.range(100), summarize=-1)
P(tf.reshape(tf.range(24), [2, 3, 4]))
P({"a": tf.constant(1), "b": [tf.constant(2.5), "x"]})
P(tf.constant(["ab", "cd"]))
P(tf.constant(True))
P(tf.constant([1e-10, 1e10, np.nan, np.inf]))
P("a", "b", sep="|", end="!\n")
P(tf.zeros([0, 2]))
P(tf.ragged.constant([[1, 2], [3]]))
P(tf.sparse.SparseTensor([[0, 1]], [2.0], [2, 3]))
@tf.function
def f(x):
    print("trace", x)
    P("run", x)
    return x + 1
f(tf.constant([1.0, 2.0]))
f(tf.constant([3.0, 4.0]))
P(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7], [3], []]))
P(tf.ragged.constant([[[1.5, 2.0], [3.0]], [[4.0]]]))
P(tf.ragged.constant([["a", "b"], ["c"]]))
P("r:", tf.ragged.constant([[1], [2, 3]]), summarize=-1)
P(tf.sparse.SparseTensor([[0, 1], [1, 2]], [2.5, 3.0], [2, 3]))
P({"s": tf.sparse.SparseTensor([[0, 1]], [2], [2, 3]), "x": 1})
P({"k%d" % i: tf.constant(i) for i in range(12)})
P(collections.OrderedDict([("b", tf.constant(1)), ("a", 2)]))
P([tf.constant([1.0, 2.0]), "text", 3, None, (4, tf.constant("s"))])
P(("tuple", tf.constant(1)))
P("x" * 70, {"a": "y" * 30, "b": tf.constant([1, 2])})
P(tf.constant([1, 2]), [tf.constant(3)], sep=", ")
P()
