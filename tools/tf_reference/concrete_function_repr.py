"""Prints ConcreteFunction reprs and strs, as tutorials print them. Run on TensorFlow 2.21 it
wrote tests/data/reprs/concrete_function.txt, which tests/test_function_reprs.py compares with
this program's output under ``python -m flowgrad``. Addresses and capture ids are masked.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/concrete_function_repr.py \
        > tests/data/reprs/concrete_function.txt
"""
import re
import tensorflow as tf
v = tf.Variable(2.0, name="scale")
@tf.function
def f(x):
    return x * 2.0
@tf.function
def g(a, b=3, *, c=None):
    return {"s": a + 1, "t": (a, a * 2)}
@tf.function
def h(x):
    return x * v
@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float64), tf.TensorSpec([], tf.int32)])
def k(x, n):
    return
@tf.function
def m(x, y):
    return [x, y], None, 3
for c in [f.get_concrete_function(tf.TensorSpec([3], tf.float32, name="x")),
          f.get_concrete_function(tf.constant(1.0)),
          g.get_concrete_function(tf.constant([1.0, 2.0])),
          h.get_concrete_function(tf.TensorSpec(None, tf.float32)),
          k.get_concrete_function(),
          m.get_concrete_function(tf.constant(1.0), 2)]:
    print(re.sub(r"0x[0-9a-fA-F]+", "0xADDR", repr(c)))
    print(re.sub(r"0x[0-9a-fA-F]+|\d{10,}", "N", str(c)))
    print("----")
print(f.pretty_printed_concrete_signatures())
