"""tf.sparse.bincount, tf.sparse.cross and tf.sparse.cross_hashed (Keras's sparse
CategoryEncoding and HashedCrossing) against TensorFlow 2.21: the program of
tools/tf_reference/sparse_count_cross_reference.py run with flowgrad as ``tf``, compared with
its recording tests/data/sparse/count_cross_tf_2_21.json; and the ops in a graph."""
import importlib.util
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state

_HERE = os.path.dirname(__file__)
with open(os.path.join(_HERE, "data", "sparse", "count_cross_tf_2_21.json")) as _f:
    REF = json.load(_f)
_spec = importlib.util.spec_from_file_location(
    "sparse_count_cross_reference",
    os.path.join(_HERE, "..", "tools", "tf_reference", "sparse_count_cross_reference.py"))
PROGRAM = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PROGRAM)


@pytest.fixture
def eager():
    state.eager = True
    yield
    state.eager = True


def test_the_recorded_program_gives_tensorflows_values(eager):
    pytest.importorskip("farmhash")
    got = PROGRAM.program(tf)
    assert got == REF


def test_in_a_graph():
    values = tf1.placeholder(tf1.int64, [None, 3])
    counts = tf.sparse.bincount(values, axis=-1, minlength=4)
    assert counts.indices.op.type == "DenseCountSparseOutput"
    words = tf1.placeholder(tf1.string, [None, 1])
    cross = tf.sparse.cross([words, values])
    with tf1.Session() as sess:
        c, x = sess.run([counts, cross], {values: [[1, 1, 2]], words: [[b"a"]]})
    np.testing.assert_array_equal(c.indices, [[0, 1], [0, 2]])
    np.testing.assert_array_equal(c.values, [2, 1])
    np.testing.assert_array_equal(c.dense_shape, [1, 4])
    assert x.values.tolist() == [b"a_X_1", b"a_X_1", b"a_X_2"]
