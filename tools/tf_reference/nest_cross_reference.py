"""Records tf.nest.assert_same_structure (which pairs pass, which raise what) and
tf.ragged.cross / cross_hashed on TensorFlow 2.21 to tests/data/nest_cross/reference.json,
which tests/test_nest_cross.py replays.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/nest_cross_reference.py``.
"""
from __future__ import annotations

import collections
import json
import pathlib

import numpy as np

SETUP = """
Point = collections.namedtuple("Point", "x y")
Other = collections.namedtuple("Other", "x y")
a = tf.ragged.constant([["a", "b"], ["c"]])
b = tf.ragged.constant([["d"], ["e", "f"]])
n = tf.ragged.constant([[1, 2], [3]], dtype=tf.int64)
d = tf.constant([["x"], ["y"]])
"""

CASES = [
    "tf.nest.assert_same_structure([1, (2, 3)], [4, (5, 6)])",
    "tf.nest.assert_same_structure([1, (2, 3)], [4, [5, 6]])",
    "tf.nest.assert_same_structure([1, (2, 3)], [4, [5, 6]], check_types=False)",
    "tf.nest.assert_same_structure([1, 2], [1, 2, 3])",
    "tf.nest.assert_same_structure({'a': 1, 'b': 2}, {'b': 3, 'a': 4})",
    "tf.nest.assert_same_structure({'a': 1}, {'c': 1})",
    "tf.nest.assert_same_structure(1, [1])",
    "tf.nest.assert_same_structure(1, 'x')",
    "tf.nest.assert_same_structure(Point(1, 2), Point(3, 4))",
    "tf.nest.assert_same_structure(Point(1, 2), Other(3, 4))",
    "tf.nest.assert_same_structure(Point(1, 2), (3, 4))",
    "tf.nest.assert_same_structure(Point(1, 2), (3, 4), check_types=False)",
    "tf.nest.assert_same_structure([None], [tf.constant(1)])",
    "tf.ragged.cross([a, b]).to_list()", "tf.ragged.cross([a, b, d]).to_list()",
    "tf.ragged.cross([a, n]).to_list()",
    "tf.ragged.cross_hashed([a, b], num_buckets=10).to_list()",
    "tf.ragged.cross_hashed([a, n]).to_list()",
    "tf.ragged.cross([a, b]).row_splits.dtype.name",
]


def main() -> None:
    import tensorflow as tf
    ns = {"tf": tf, "np": np, "collections": collections}
    exec(SETUP, ns)  # noqa: S102 - our own set-up
    out = {}
    for expr in CASES:
        try:
            value = eval(expr, ns)  # noqa: S307 - our own expressions
            out[expr] = {"value": json.loads(json.dumps(
                value, default=lambda v: v.decode() if isinstance(v, bytes) else str(v)))}
        except Exception as exc:  # noqa: BLE001 - the class is what is recorded
            out[expr] = {"error": type(exc).__name__}
    path = pathlib.Path(__file__).resolve().parents[2] / "tests/data/nest_cross/reference.json"
    path.write_text(json.dumps({"setup": SETUP, "cases": out}, indent=0, sort_keys=True) + "\n")
    print("wrote", path, len(out))


if __name__ == "__main__":
    main()
