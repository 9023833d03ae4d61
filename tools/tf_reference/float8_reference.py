"""Records tf.dtypes.experimental.float8_e4m3fn / float8_e5m2 on TensorFlow (casts to and
from them, their limits) with ``/path/to/tf-venv/bin/python
tools/tf_reference/float8_reference.py`` into tests/data/float8/tf_2_21.json;
tests/test_float8.py runs the same ``program`` with flowgrad as ``tf``."""
import json
import math
import os


def program(tf) -> dict:
    """{dtype name: its facts and cast results} (NaN written as the string "nan")."""
    def clean(values):
        return ["nan" if isinstance(v, float) and math.isnan(v) else v for v in values]
    x = tf.constant([1.7, -300.0, 1e-3, 500.0, 1e5, -0.0, 3.14159, 2.0 ** -10, 448.0,
                     464.0, 57344.0, 6e4])
    out = {}
    for name in ("float8_e4m3fn", "float8_e5m2"):
        d = getattr(tf.dtypes.experimental, name)
        y = tf.cast(x, d)
        out[name] = {
            "name": d.name, "is_floating": d.is_floating, "min": float(d.min),
            "max": float(d.max), "size": d.size, "as_dtype": tf.as_dtype(name) == d,
            "to_float32": clean(tf.cast(y, tf.float32).numpy().tolist()),
            "to_float64": clean(tf.cast(y, tf.float64).numpy().tolist()),
            "to_float16": clean(tf.cast(y, tf.float16).numpy().astype(float).tolist()),
            "numpy_dtype": y.numpy().dtype.name,
        }
        for other in ("int32", "int64", "bool", "float8_e4m3fn", "float8_e5m2"):
            for key, a, b in (("to_" + other, d, other), ("from_" + other, other, d)):
                if a == b:
                    continue
                try:
                    tf.cast(tf.cast(tf.constant([1.0, 2.0]), a), b)
                    out[name][key] = None
                except Exception as e:  # noqa: BLE001 - the class is the record
                    out[name][key] = type(e).__name__
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "float8",
                        "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1)


if __name__ == "__main__":
    main()
