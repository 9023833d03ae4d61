"""Prints how padded_batch / bucket_by_sequence_length treat padding values and too-small
padded shapes on TensorFlow 2.21: a Python int is an int32 padding value (a TypeError for an
int64 component), NumPy scalars and tensors keep their dtype, a non-scalar is a ValueError,
padding below an element's size is a DataLossError when iterated. Run there it wrote
tests/data/tf_data/padding.txt, which tests/test_data.py compares with this program's output
under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/dataset_padding.py > tests/data/tf_data/padding.txt
"""
import numpy as np
import tensorflow as tf

ints = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
floats = ints.map(lambda x: tf.cast(x, tf.float32) / 2)
words = tf.data.Dataset.from_tensor_slices(["a b", "c", "d e f"]).map(tf.strings.split)


def show(ds):
    return [np.asarray(b).tolist() for b in ds.as_numpy_iterator()]


def attempt(make):
    try:
        print(show(make()))
    except Exception as e:  # noqa: BLE001 - the error class is what is printed
        print(type(e).__name__, str(getattr(e, "message", e)).split("}} ")[-1].split(" [Op:")[0])


attempt(lambda: ints.padded_batch(2, padding_values=-1))
attempt(lambda: ints.padded_batch(2, padding_values=np.int64(-1)))
attempt(lambda: ints.padded_batch(2, padding_values=tf.constant(-7, tf.int64)))
attempt(lambda: ints.padded_batch(2, padding_values=tf.constant([1, 2], tf.int64)))
attempt(lambda: floats.padded_batch(3, padding_values=-0.5))
attempt(lambda: floats.padded_batch(3, padding_values=1))
attempt(lambda: words.padded_batch(2, padding_values="<pad>"))
attempt(lambda: ints.padded_batch(2, padded_shapes=[2]))
attempt(lambda: ints.padded_batch(2, padded_shapes=[6], padding_values=np.int64(9)))
attempt(lambda: ints.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2],
                                               padding_values=np.int64(-1)))
attempt(lambda: ints.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2],
                                               padding_values=-1))
