"""Gradient checks and behaviour of the core math ops defined so far."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from gradcheck import check_gradients

R = np.random.RandomState(42)
A23 = R.uniform(0.5, 2.0, (2, 3))
B3 = R.uniform(0.5, 2.0, (3,))
B13 = R.uniform(0.5, 2.0, (1, 3))
C21 = R.uniform(0.5, 2.0, (2, 1))

CASES = [
    ("add", lambda x, y: x + y, [A23, B3]),
    ("sub", lambda x, y: x - y, [A23, C21]),
    ("mul", lambda x, y: x * y, [A23, B13]),
    ("realdiv", lambda x, y: tf.realdiv(x, y), [A23, B3]),
    ("pow", lambda x, y: tf.pow(x, y), [A23, B3]),
    ("neg", lambda x: -x, [A23]),
    ("square", tf.square, [A23]),
    ("exp", tf.exp, [A23]),
    ("log", tf.log, [A23]),
    ("reciprocal", tf.reciprocal, [A23]),
    ("matmul", lambda a, b: tf.matmul(a, b), [A23, A23.T.copy()]),
    ("matmul_ta", lambda a, b: tf.matmul(a, b, transpose_a=True), [A23, A23]),
    ("matmul_tb", lambda a, b: tf.matmul(a, b, transpose_b=True), [A23, A23]),
    ("matmul_tab", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
     [A23, A23.T.copy()]),
    ("sum_all", lambda x: tf.reduce_sum(x * x), [A23]),
    ("sum_axis", lambda x: tf.reduce_sum(x * x, axis=1), [A23]),
    ("sum_keep", lambda x: tf.reduce_sum(x * x, axis=0, keepdims=True), [A23]),
    ("mean", lambda x: tf.reduce_mean(x * x, axis=-1), [A23]),
    ("add_n", lambda x, y: tf.add_n([x, y, x * y]), [A23, A23 + 1]),
    ("where", lambda x, y: tf.where(x > y, x * x, y), [A23, A23[::-1].copy()]),
]


@pytest.mark.parametrize("name,fn,inputs", CASES, ids=[c[0] for c in CASES])
def test_gradients_first_and_second_order(name, fn, inputs):
    check_gradients(fn, inputs, order=2)


@pytest.mark.parametrize("name,fn,inputs", [c for c in CASES if c[0] in
                                             ("mul", "pow", "exp", "matmul", "mean")],
                         ids=["mul", "pow", "exp", "matmul", "mean"])
def test_gradients_third_order(name, fn, inputs):
    check_gradients(fn, inputs, order=3)


def test_mixed_dtype_binary_op_is_a_clear_error():
    x = tf.constant([1.0, 2.0])
    y = tf.constant([1.0, 2.0], dtype=tf.float64)
    with pytest.raises(TypeError, match="Input 'y' of 'Mul' Op has type float64 that does not "
                                        "match type float32 of argument 'x'"):
        tf.multiply(x, y)
