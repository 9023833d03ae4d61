"""Records TensorFlow 2.21's saturate_cast, unsorted_segment_sqrt_n and tf.data cardinality
constants for tests/test_math_gaps.py.

Run with the TensorFlow venv from the repository root:
``/work/venv-tf/bin/python tools/tf_reference/math_gaps_reference.py``; writes
``tests/data/math_gaps/reference.json``.
"""
import json
import pathlib

import numpy as np
import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "math_gaps"

SATURATE = [  # (values, input dtype, output dtype)
    ([-3.0, 0.5, 254.7, 300.0, float("inf"), float("-inf"), float("nan")], "float32", "uint8"),
    ([1e10, -1e10, 12.9, -12.9], "float32", "int32"),
    ([1e30, -1e30, 3.0], "float64", "int64"),
    ([70000, -70000, 5], "int64", "int16"),
    ([300, -1, 7], "int32", "uint8"),
    ([200, 100], "uint8", "int8"),
    ([1e300, -1e300, 1.5], "float64", "float32"),
    ([70000.0, -1e9, 2.5], "float32", "float16"),
    ([3, 4], "int32", "float16"),
    ([-5, 2**31 - 1], "int32", "uint32"),
]

SEGMENTS = [  # (data, segment_ids, num_segments)
    ([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], [0, 0, 2, -1], 3),
    ([1.5, 2.5, 3.5, 4.5, 5.5], [1, 1, 1, 0, 3], 5),
    ([[1.0, 2.0], [3.0, 4.0]], [[0, 1], [1, 1]], 2),
]


def main():
    record = {"saturate_cast": [], "unsorted_segment_sqrt_n": [],
              "cardinality": {"INFINITE": int(tf.data.INFINITE_CARDINALITY),
                              "UNKNOWN": int(tf.data.UNKNOWN_CARDINALITY)}}
    for values, src, dst in SATURATE:
        got = tf.dtypes.saturate_cast(tf.constant(values, dtype=src), dst).numpy()
        record["saturate_cast"].append({"values": values, "src": src, "dst": dst,
                                        "out": [float(v) for v in got.astype(np.float64)]})
    for data, ids, n in SEGMENTS:
        got = tf.math.unsorted_segment_sqrt_n(tf.constant(data, tf.float64), ids, n).numpy()
        record["unsorted_segment_sqrt_n"].append({"data": data, "ids": ids, "n": n,
                                                  "out": got.tolist()})
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "reference.json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
