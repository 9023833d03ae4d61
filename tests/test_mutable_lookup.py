"""tf.lookup.experimental.MutableHashTable / DenseHashTable (the tables Keras's lookup
layers count tokens in) against TensorFlow 2.21: the program of
tools/tf_reference/mutable_lookup_reference.py, whose results are recorded in
tests/data/lookup/mutable_tf_2_21.json, run on flowgrad; plus graph-mode ordering and the
empty table Keras's restored lookup layers start from."""
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.framework.context import state

with open(os.path.join(os.path.dirname(__file__), "data", "lookup",
                       "mutable_tf_2_21.json")) as _f:
    REF = json.load(_f)


@pytest.fixture
def eager():
    state.eager = True
    yield
    state.eager = True


def _v(x):
    x = x.numpy()
    if x.dtype == object:
        return [b.decode() for b in x.reshape(-1)], list(x.shape)
    return x.tolist()


def _export(t):
    keys, values = t.export()
    order = np.argsort(keys.numpy(), kind="stable")
    return [_v(tf.gather(keys, order)), _v(tf.gather(values, order))]


def test_the_recorded_program_gives_tensorflows_values(eager):
    out = {}
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, -1.0])
    t.insert([3, 1, 2], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    out["vector_lookup"] = _v(t.lookup([[1, 5], [3, 2]]))
    out["dynamic_default"] = _v(t.lookup(tf.constant([1, 9], tf.int64),
                                         dynamic_default_values=[[7.0, 7.0], [8.0, 8.0]]))
    t.remove(tf.constant([1, 42], tf.int64))
    out["size_after_remove"] = _v(t.size())
    out["export_after_remove"] = _export(t)
    s = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)

    @tf.function
    def count(tokens):
        s.insert(tokens, s.lookup(tokens) + 2)
        return s.lookup(tokens)
    out["function_1"] = _v(count(tf.constant(["a", "b", "a"])))
    out["function_2"] = _v(count(tf.constant(["a", "c"])))
    out["string_export"] = _export(s)
    out["string_size"] = _v(s.size())
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                              empty_key=0, deleted_key=-1)
    d.insert([5, 6, 7], [50, 60, 70])
    d.remove(tf.constant([6], tf.int64))
    out["dense_lookup"] = _v(d.lookup([5, 6, 7, 8]))
    out["dense_size"] = _v(d.size())
    errs = {}
    for name, fn in [
            ("wrong_value_shape", lambda: t.insert([1, 2], [[1.0, 2.0]])),
            ("empty_key", lambda: d.insert([0], [1])),
            ("deleted_key", lambda: d.insert([-1], [1])),
            ("wrong_key_dtype", lambda: s.insert(tf.constant([1], tf.int64),
                                                 tf.constant([1], tf.int64)))]:
        try:
            fn()
            errs[name] = None
        except (errors.OpError, ValueError, TypeError) as e:
            errs[name] = type(e).__name__
    out["errors"] = errs
    assert json.loads(json.dumps(out)) == REF


def test_tf1_graph_runs_what_the_session_asks_for():
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0)
    keys = tf1.placeholder(tf1.string, [None])
    ins = t.insert(keys, t.lookup(keys) + 1)
    after = t.lookup(keys)
    assert ins.type == "LookupTableInsertV2" and after.shape.as_list() == [None]
    with tf1.Session() as sess:
        assert sess.run(t.size()) == 0
        sess.run(ins, {keys: ["x", "y"]})
        np.testing.assert_array_equal(sess.run(after, {keys: ["x", "z"]}), [1, 0])


def test_a_static_table_of_an_initializer_without_contents_is_empty(eager):
    class Null(tf.lookup.KeyValueTensorInitializer):       # Keras's NullInitializer
        def __init__(self, key_dtype, value_dtype):
            self._key_dtype, self._value_dtype = key_dtype, value_dtype

        @property
        def key_dtype(self):
            return self._key_dtype

        @property
        def value_dtype(self):
            return self._value_dtype
    table = tf.lookup.StaticHashTable(Null(tf.string, tf.int64), -7)
    assert int(table.size()) == 0
    np.testing.assert_array_equal(table.lookup(tf.constant(["a"])).numpy(), [-7])
