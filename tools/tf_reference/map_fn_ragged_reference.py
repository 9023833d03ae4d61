"""Records tf.map_fn over RaggedTensor elements on TensorFlow (``/path/to/tf-venv/bin/python
tools/tf_reference/map_fn_ragged_reference.py``) into tests/data/ragged/map_fn_tf_2_21.json;
tests/test_map_fn_ragged.py runs the same ``program`` with flowgrad as ``tf``."""
import json
import os


def program(tf) -> dict:
    """{case: the result as nested lists}."""
    def value(x):
        x = x.to_list() if hasattr(x, "to_list") else x.numpy().tolist()
        return json.loads(json.dumps(x, default=lambda b: b.decode()))
    words = tf.ragged.constant([["a", "b", "a"], ["c"], []])
    nums = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])
    return {
        "unique": value(tf.map_fn(lambda x: tf.unique(x)[0], words)),
        "size": value(tf.map_fn(tf.size, words, fn_output_signature=tf.int32)),
        "square": value(tf.map_fn(tf.square, nums)),
        "sum": value(tf.map_fn(tf.reduce_sum, nums, fn_output_signature=tf.float32)),
        "ragged_spec": value(tf.map_fn(
            lambda x: x * 2.0, nums,
            fn_output_signature=tf.RaggedTensorSpec([None], tf.float32))),
    }


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "ragged",
                        "map_fn_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1)


if __name__ == "__main__":
    main()
