"""Prints what TensorFlow gives for ``tf.IndexedSlices`` where Keras 3's optimizers meet
sparse gradients: ``tf.cast`` of an IndexedSlices (an IndexedSlices of cast values), the
default replica context's ``all_reduce`` of one (kept an IndexedSlices), and each Keras
optimizer applying an IndexedSlices gradient: whether the update of the model variable and of
the optimizer's own variables reaches ``assign``/``assign_add``/``assign_sub`` sparse, and the
variable's values after two steps. Run on TensorFlow 2.21 it wrote
tests/data/keras_suite/indexed_slices_updates.txt, which tests/test_indexed_slices_updates.py
compares with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/indexed_slices_updates.py \
        > tests/data/keras_suite/indexed_slices_updates.txt
"""
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

g = tf.IndexedSlices(tf.constant([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]]), tf.constant([0, 2]),
                     tf.constant([4, 3]))
for dtype in (tf.float64, tf.float16, tf.int32, tf.float32):
    c = tf.cast(g, dtype)
    print("cast", dtype.name, type(c).__name__, c.values.dtype.name, c.values.numpy().tolist(),
          c.indices.numpy().tolist())
ctx = tf.distribute.get_replica_context()
out = ctx.all_reduce(tf.distribute.ReduceOp.SUM, [g, tf.ones(2)])
print("all_reduce", [type(o).__name__ for o in out], out[0].indices.numpy().tolist())
print("all_reduce_mean", type(ctx.all_reduce(tf.distribute.ReduceOp.MEAN, g)).__name__)

OPTIMIZERS = [("SGD", {}), ("SGD", {"momentum": 0.5}), ("Adam", {}), ("AdamW", {}),
              ("Adagrad", {}), ("RMSprop", {}), ("Adadelta", {}), ("Adamax", {}),
              ("Nadam", {}), ("Ftrl", {}), ("Lion", {}), ("Adafactor", {})]
for name, kwargs in OPTIMIZERS:
    optimizer = getattr(keras.optimizers, name)(**kwargs)
    variable = keras.Variable(np.ones((5, 3)), dtype="float32")
    seen = set()
    for method in ("assign", "assign_add", "assign_sub"):
        original = getattr(optimizer, method)

        def spy(var, value, original=original, method=method):
            kind = "model" if var is variable else "slot"
            seen.add("%s:%s:%s" % (kind, method, type(value).__name__))
            return original(var, value)

        setattr(optimizer, method, spy)
    grad = tf.IndexedSlices(tf.constant([[0.5, -1.0, 2.0], [1.0, 0.25, -0.5]]),
                            tf.constant([0, 3]), tf.constant([5, 3]))
    for _ in range(2):
        optimizer.apply([grad], [variable])
    print(name, kwargs, sorted(seen))
    # + 0.0: the sign of a zero from max/min ties depends on TensorFlow's vectorized kernels
    print(" ", (np.round(variable.numpy(), 5) + 0.0).tolist())
