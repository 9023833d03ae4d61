"""Prints what Dataset.cache() does on TensorFlow 2.21: a random map before an in-memory cache
is drawn once (every epoch reads the stored elements), a random map after it again every epoch
(its stream starts again with each iterator under a global seed, so the epochs agree), a
partially read cache, a cache on disk (the files TF writes, their keys, a second dataset
reading them instead of its input), and reading the cache files TensorFlow wrote under
tests/data/tf_data/tf_cache/. Run on TensorFlow 2.21 it wrote tests/data/tf_data/cache.txt,
which tests/test_dataset_cache.py compares with this program's output under
``python -m flowgrad``.

Run from the repository root (``--write-fixture`` first writes the TF cache files):
    /work/venv-tf/bin/python tools/tf_reference/dataset_cache.py --write-fixture
    /work/venv-tf/bin/python tools/tf_reference/dataset_cache.py > tests/data/tf_data/cache.txt
"""
import os
import sys
import tempfile

import tensorflow as tf

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                       "tf_data", "tf_cache", "pairs")


def fixture_dataset():
    return tf.data.Dataset.from_tensor_slices(
        ({"id": [1, 2, 3], "name": ["a", "bb", "ccc"]}, [[1.5, 2.0], [3.0, 4.0], [5.0, 6.5]]))


def ints(ds):
    return [int(x) for x in ds]


if "--write-fixture" in sys.argv:
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    list(fixture_dataset().cache(FIXTURE))
    sys.exit(0)

tf.random.set_seed(1)
drawn = tf.data.Dataset.range(4).map(lambda x: tf.random.uniform([], 0, 100, dtype=tf.int32))
print("no cache, two epochs", ints(drawn), ints(drawn))
cached = drawn.cache()
print("cached, two epochs", ints(cached), ints(cached))
after = cached.map(lambda x: x + tf.random.uniform([], 0, 1000, dtype=tf.int32))
print("random map after the cache", ints(after), ints(after))
tf.random.set_seed(2)
normal = tf.data.Dataset.range(3).map(lambda x: tf.random.normal([2], seed=4))
print("op seed", [x.numpy().round(4).tolist() for x in normal])
print("filter", ints(tf.data.Dataset.range(8).filter(lambda x: tf.random.uniform([]) < 0.5)))
print("cardinality", int(cached.cardinality()), int(tf.data.Dataset.range(5).repeat().cache()
                                                    .cardinality()))

calls = []


def counted():
    for i in range(4):
        calls.append(i)
        yield i * 10


partial = tf.data.Dataset.from_generator(
    counted, output_signature=tf.TensorSpec([], tf.int64)).cache()
it = iter(partial)
print("partial read", int(next(it)), int(next(it)))
del it
calls.clear()
print("then whole", ints(partial), len(calls))
print("then cached", ints(partial), len(calls))
print("take before repeat", ints(partial.take(2).repeat(2)), len(calls))

with tempfile.TemporaryDirectory() as tmp:
    prefix = os.path.join(tmp, "cache")
    calls.clear()
    on_disk = tf.data.Dataset.from_generator(
        counted, output_signature=tf.TensorSpec([], tf.int64)).cache(prefix)
    print("file, first pass", ints(on_disk), len(calls), sorted(os.listdir(tmp)))
    print("file, second pass", ints(on_disk), len(calls))
    again = tf.data.Dataset.from_generator(
        counted, output_signature=tf.TensorSpec([], tf.int64)).cache(prefix)
    print("file, another dataset", ints(again), len(calls))
    reader = tf.train.load_checkpoint(prefix)
    print("keys", sorted(reader.get_variable_to_shape_map()))
    calls.clear()
    half = tf.data.Dataset.from_generator(
        counted, output_signature=tf.TensorSpec([], tf.int64)).cache(os.path.join(tmp, "half"))
    it = iter(half)
    next(it)
    del it
    print("file, partial read leaves", sorted(os.listdir(tmp)))
    spec_ds = fixture_dataset().cache(os.path.join(tmp, "pairs"))
    list(spec_ds)
    reader = tf.train.load_checkpoint(os.path.join(tmp, "pairs"))
    print("keys", sorted(reader.get_variable_to_shape_map()))
    empty = tf.data.Dataset.range(0).cache(os.path.join(tmp, "empty"))
    print("empty", ints(empty), sorted(f for f in os.listdir(tmp) if f.startswith("empty")))

read_back = tf.data.Dataset.from_tensor_slices(
    ({"id": [0], "name": ["unused"]}, [[0.0, 0.0]])).cache(FIXTURE)
for features, values in read_back:
    print("TF's cache file", features["id"].numpy(), features["name"].numpy(), values.numpy())
