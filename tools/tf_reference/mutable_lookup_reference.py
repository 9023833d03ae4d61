"""Records tf.lookup.experimental.MutableHashTable / DenseHashTable on TensorFlow
(``/path/to/tf-venv/bin/python tools/tf_reference/mutable_lookup_reference.py``): the values
a program of inserts, lookups and removes sees, eagerly and in a tf.function, and the errors,
into tests/data/lookup/mutable_tf_2_21.json (tests/test_mutable_lookup.py replays it)."""
import json
import os

import numpy as np
import tensorflow as tf


def _v(x):
    x = x.numpy() if hasattr(x, "numpy") else np.asarray(x)
    if x.dtype == object:
        return [b.decode() for b in x.reshape(-1)], list(x.shape)
    return x.tolist()


def _export(t):
    keys, values = t.export()
    order = np.argsort(keys.numpy(), kind="stable")
    return [_v(tf.gather(keys, order)), _v(tf.gather(values, order))]


def program():
    """The steps; each result is recorded."""
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
    errors = {}
    for name, fn in [
            ("wrong_value_shape", lambda: t.insert([1, 2], [[1.0, 2.0]])),
            ("empty_key", lambda: d.insert([0], [1])),
            ("deleted_key", lambda: d.insert([-1], [1])),
            ("wrong_key_dtype", lambda: s.insert(tf.constant([1], tf.int64),
                                                 tf.constant([1], tf.int64)))]:
        try:
            fn()
            errors[name] = None
        except Exception as e:  # noqa: BLE001 - the class is the record
            errors[name] = type(e).__name__
    out["errors"] = errors
    return out


def main() -> None:
    """Writes the record."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "lookup",
                        "mutable_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(), f, indent=1)


if __name__ == "__main__":
    main()
