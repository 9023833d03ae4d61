"""Records Python's ``&``, ``|``, ``^`` and ``~`` on TensorFlow tensors (logical for bool,
bitwise for integers), and lists holding tensors packed into another dtype (cast), with
``/path/to/tf-venv/bin/python tools/tf_reference/tensor_operators_reference.py`` into
tests/data/kernel_messages/operators_tf_2_21.json; tests/test_tensor_operators.py runs the
same ``program`` with flowgrad as ``tf``."""
import json
import os


def program(tf) -> dict:
    """{case: [values, dtype name]} or the error class."""
    a = tf.constant([6, 3, -2])
    u = tf.constant([6, 3, 250], tf.uint8)
    b = tf.constant([True, False, True])
    cases = {"or": lambda: a | 1, "ror": lambda: 1 | a, "and": lambda: a & 2,
             "xor": lambda: a ^ 5, "invert": lambda: ~a, "uint8_invert": lambda: ~u,
             "uint8_or": lambda: u | 1, "bool_or": lambda: b | False,
             "bool_and": lambda: b & tf.constant([True, True, False]),
             "bool_xor": lambda: b ^ True, "bool_invert": lambda: ~b,
             "float_or": lambda: tf.constant([1.5]) | 1,
             "variable_or": lambda: tf.Variable([1, 2]) | 4,
             "pack_float_as_int": lambda: tf.convert_to_tensor(
                 (tf.constant(-2.7), tf.constant(3.9), 1), dtype=tf.int32),
             "pack_bool_as_int": lambda: tf.convert_to_tensor((tf.constant(True), 1),
                                                              dtype=tf.int32),
             "pack_int_as_float": lambda: tf.convert_to_tensor((tf.constant(2), 1.5),
                                                               dtype=tf.float32),
             "pack_python_float_as_int": lambda: tf.convert_to_tensor((tf.constant(2), 1.5),
                                                                      dtype=tf.int32),
             "reshape_float_dims": lambda: tf.shape(tf.reshape(
                 tf.ones([6]), (tf.constant(2.0), tf.constant(3.0), 1)))}
    out = {}
    for name, fn in cases.items():
        try:
            y = fn()
            out[name] = [y.numpy().tolist(), y.dtype.name]
        except Exception as e:  # noqa: BLE001 - the class is the record
            out[name] = type(e).__name__
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "kernel_messages", "operators_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1)


if __name__ == "__main__":
    main()
