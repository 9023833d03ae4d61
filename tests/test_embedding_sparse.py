"""tf.nn.embedding_lookup_sparse, tf.nn.safe_embedding_lookup_sparse (TF2 and TF1) and
tf.sparse.fill_empty_rows against TensorFlow 2.21: the program of
tools/tf_reference/embedding_sparse_reference.py run with flowgrad as ``tf`` against its
recording (values and gradients); errors; SparseFillEmptyRows's gradient checks are op_db's."""
import importlib.util
import json
import os

import pytest

import flowgrad as tf
from flowgrad.framework.context import state

_HERE = os.path.dirname(__file__)
with open(os.path.join(_HERE, "data", "sparse", "embedding_sparse_tf_2_21.json")) as _f:
    REF = json.load(_f)
_spec = importlib.util.spec_from_file_location(
    "embedding_sparse_reference",
    os.path.join(_HERE, "..", "tools", "tf_reference", "embedding_sparse_reference.py"))
PROGRAM = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PROGRAM)


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def _assert_close(got, want, where):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_close(g, w, "%s[%d]" % (where, i))
    else:
        assert abs(got - want) <= 1e-12 + 1e-10 * abs(want), (where, got, want)


def test_the_recorded_program_gives_tensorflows_values():
    got = PROGRAM.program(tf)
    assert sorted(got) == sorted(REF)
    for key in REF:
        _assert_close(got[key], REF[key], key)


def test_errors_are_tensorflows():
    ids = tf.SparseTensor([[0, 0]], tf.constant([1], tf.int64), [1, 1])
    with pytest.raises(ValueError, match="combiner"):
        tf.nn.embedding_lookup_sparse(tf.ones([3, 2]), ids, None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids must be SparseTensor"):
        tf.nn.embedding_lookup_sparse(tf.ones([3, 2]), tf.constant([[1]]), None)
    with pytest.raises(ValueError, match="Missing embedding_weights"):
        tf.nn.safe_embedding_lookup_sparse(None, ids)
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.sparse.fill_empty_rows(tf.constant([[1]]), 0)
