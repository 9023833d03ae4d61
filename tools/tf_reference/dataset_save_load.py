"""Prints what Dataset.save / Dataset.load give on TensorFlow 2.21: the files save writes, a
round trip (dicts of ints, floats and strings; GZIP; a shard_func spreading elements over
shards, read back by the default reader and by a flat_map reader_func), the loaded spec,
cardinality and repr, bad input, and the datasets TensorFlow saved under
tests/data/tf_data/tf_saved/. Run on TensorFlow 2.21 it wrote tests/data/tf_data/save_load.txt,
which tests/test_dataset_save_load.py compares with this program's output under
``python -m flowgrad``.

Run from the repository root (``--write-fixture`` first writes TF's saved datasets):
    /work/venv-tf/bin/python tools/tf_reference/dataset_save_load.py --write-fixture
    /work/venv-tf/bin/python tools/tf_reference/dataset_save_load.py \
        > tests/data/tf_data/save_load.txt
"""
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                        "tf_data", "tf_saved")


def records():
    return tf.data.Dataset.from_tensor_slices(
        {"id": [1, 2, 3, 4], "name": ["a", "bb", "", "dddd"],
         "x": [[1.5, 2.0], [3.0, 4.0], [5.0, 6.5], [-1.0, 0.0]]})


def show(ds):
    return [{k: np.asarray(v).tolist() for k, v in sorted(e.items())} if isinstance(e, dict)
            else np.asarray(e).tolist() for e in ds.as_numpy_iterator()]


def flat_reader(datasets):
    return datasets.flat_map(lambda d: d)


if "--write-fixture" in sys.argv:
    records().save(os.path.join(FIXTURES, "plain"))
    records().save(os.path.join(FIXTURES, "gzip"), compression="GZIP")
    tf.data.Dataset.range(10).save(os.path.join(FIXTURES, "sharded"),
                                   shard_func=lambda x: x % 3)
    sys.exit(0)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "saved")
    records().save(path)
    run = [d for d in os.listdir(path) if d not in ("dataset_spec.pb", "snapshot.metadata")]
    print("files", sorted(os.listdir(path))[-2:], len(run),
          sorted(os.listdir(os.path.join(path, run[0]))))
    loaded = tf.data.Dataset.load(path)
    print(sorted(loaded.element_spec.items()), int(loaded.cardinality()))
    print(repr(loaded).split(" ")[0])
    print(show(loaded))
    gz = os.path.join(tmp, "gz")
    records().save(gz, compression="GZIP")
    print("gzip", show(tf.data.Dataset.load(gz, compression="GZIP")))
    sharded = os.path.join(tmp, "sharded")
    tf.data.Dataset.range(10).save(sharded, shard_func=lambda x: x % 3)
    run = [d for d in os.listdir(sharded) if d not in ("dataset_spec.pb", "snapshot.metadata")]
    print("shards", sorted(os.listdir(os.path.join(sharded, run[0]))))
    print("flat_map reader", show(tf.data.Dataset.load(sharded, reader_func=flat_reader)))
    print("given spec", show(tf.data.Dataset.load(
        sharded, element_spec=tf.TensorSpec([], tf.int64), reader_func=flat_reader)))
    batched = os.path.join(tmp, "batched")
    tf.data.Dataset.range(7).batch(3).map(lambda b: (b, tf.strings.as_string(b))).save(batched)
    again = tf.data.Dataset.load(batched)
    print("batched", again.element_spec, show(again.map(lambda a, b: a)))
    try:
        tf.data.Dataset.range(3).save(os.path.join(tmp, "bad"), shard_func=lambda x: 1.5)
    except Exception as e:  # noqa: BLE001 - the error class is what is printed
        print(type(e).__name__, e.message.split("}} ")[-1].split(" [Op:")[0])
    try:
        tf.data.Dataset.load(os.path.join(tmp, "none"))
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__, str(e).replace(tmp, "TMP"))

print("TF plain", show(tf.data.Dataset.load(os.path.join(FIXTURES, "plain"))))
print("TF gzip", show(tf.data.Dataset.load(os.path.join(FIXTURES, "gzip"), compression="GZIP")))
print("TF sharded", show(tf.data.Dataset.load(os.path.join(FIXTURES, "sharded"),
                                               reader_func=flat_reader)))
