"""Records TensorFlow's type-based dispatch on TensorFlow 2.21 (``/path/to/tf-venv/bin/python
tools/tf_reference/dispatch_reference.py``) into tests/data/dispatch/tf_2_21.json: the Python
operators and ``tf.math`` ops between dense tensors and RaggedTensors (``dense + ragged``),
the unary ops of SparseTensors. tests/test_dispatch.py runs the same ``program`` with
flowgrad as ``tf`` and compares case by case."""
import json
import os


def value(x):
    """A result as plain JSON: nested lists (bytes decoded), with its kind."""
    kind = type(x).__name__
    if hasattr(x, "to_list"):
        x = x.to_list()
    elif hasattr(x, "indices") and hasattr(x, "dense_shape"):
        x = {"indices": x.indices.numpy().tolist(), "values": x.values.numpy().tolist(),
             "dense_shape": x.dense_shape.numpy().tolist()}
    elif hasattr(x, "numpy"):
        x = x.numpy().tolist()
    kind = {"EagerTensor": "Tensor", "_EagerTensorBase": "Tensor"}.get(kind, kind)
    return [kind, json.loads(json.dumps(x, default=lambda b: b.decode()))]


def run(cases: dict) -> dict:
    """{case: value(result)} or {case: ["error", class name]}."""
    out = {}
    for name, f in cases.items():
        try:
            out[name] = value(f())
        except Exception as e:  # noqa: BLE001 - the error class is the recorded result
            out[name] = ["error", type(e).__name__]
    return out


def ragged_cases(tf) -> dict:
    """Dense and ragged operands through the operators and the ops."""
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    d = tf.constant([[10.0], [20.0]])
    return {
        "dense+ragged": lambda: d + rt,
        "ragged+dense": lambda: rt + d,
        "dense-ragged": lambda: d - rt,
        "dense*ragged": lambda: d * rt,
        "dense/ragged": lambda: d / rt,
        "dense//ragged": lambda: d // rt,
        "dense%ragged": lambda: d % rt,
        "dense**ragged": lambda: d ** rt,
        "dense<ragged": lambda: d < rt,
        "dense>=ragged": lambda: d >= rt,
        "scalar_tensor+ragged": lambda: tf.constant(1.0) + rt,
        "1+ragged": lambda: 1.0 + rt,
        "ragged*2": lambda: rt * 2.0,
        "-ragged": lambda: -rt,
        "abs(ragged)": lambda: abs(-rt),
        "tf.add(dense, ragged)": lambda: tf.add(d, rt),
        "tf.add(x=, y=)": lambda: tf.add(x=rt, y=rt),
        "tf.maximum(ragged, 2)": lambda: tf.maximum(rt, 2.0),
        "tf.math.exp": lambda: tf.math.exp(rt),
        "tf.cast": lambda: tf.cast(rt, tf.int32),
        "tf.ones_like(dtype)": lambda: tf.ones_like(rt, dtype=tf.int64),
        "tf.clip_by_value": lambda: tf.clip_by_value(rt, 1.5, 2.5),
        "tf.nn.relu": lambda: tf.nn.relu(rt - 2.0),
        "tf.math.sigmoid": lambda: tf.math.sigmoid(rt),
        "tf.where": lambda: tf.where(rt > 1.5, rt, tf.zeros_like(rt)),
        "tf.reduce_sum axis=1": lambda: tf.reduce_sum(rt, axis=1),
        "tf.reduce_max axis=0": lambda: tf.reduce_max(rt, axis=0),
        "tf.reduce_mean": lambda: tf.reduce_mean(rt),
        "tf.concat axis=0": lambda: tf.concat([rt, rt], axis=0),
        "tf.concat axis=1": lambda: tf.concat([rt, rt], axis=1),
        "tf.strings.upper": lambda: tf.strings.upper(tf.ragged.constant([["a", "b"], ["c"]])),
        "tf.math.logical_not": lambda: tf.math.logical_not(rt > 1.5),
        "tf.math.special.bessel_j0": lambda: tf.math.special.bessel_j0(rt),
        "tf.math.bessel_i0e": lambda: tf.math.bessel_i0e(rt),
        "logical_and operator": lambda: (rt > 1.5) & (rt < 2.5),
    }


def sparse_cases(tf) -> dict:
    """The unary ops TensorFlow maps over a SparseTensor's values."""
    sp = tf.sparse.SparseTensor([[0, 0], [1, 2]], [-1.0, 4.0], [2, 3])
    return {
        "sparse abs": lambda: tf.abs(sp),
        "sparse negative": lambda: tf.math.negative(sp),
        "sparse square": lambda: tf.math.square(sp),
        "sparse sign": lambda: tf.math.sign(sp),
        "sparse sqrt": lambda: tf.math.sqrt(tf.abs(sp)),
        "sparse tanh": lambda: tf.math.tanh(sp),
        "sparse exp": lambda: tf.math.exp(sp),
    }


def program(tf) -> dict:
    """{case: result}."""
    return run({**ragged_cases(tf), **sparse_cases(tf)})


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "dispatch",
                        "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
