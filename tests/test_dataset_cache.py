"""Dataset.cache() as TensorFlow 2.21's CacheDataset: elements computed once (random maps
before a cache drawn once, after it every epoch with the stream started again per iterator), a
partially read cache discarded, a cache on disk written as TF's tensor bundle with TF's keys and
read back (TF-written cache files too). Pinned against tools/tf_reference/dataset_cache.py's
output on TensorFlow 2.21 (tests/data/tf_data/cache.txt)."""
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors

from tf_reference_program import flowgrad_stdout, recorded_text

D = tf.data.Dataset


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_results_are_tensorflows():
    assert flowgrad_stdout("dataset_cache.py") == recorded_text("tf_data/cache.txt")


def test_repr_and_spec():
    ds = D.range(3).cache()
    assert repr(ds) == ("<CacheDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, "
                        "name=None)>")
    assert int(ds.cardinality()) == 3


def test_cache_feeds_a_tf1_iterator_once():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)

    with tf.Graph().as_default():
        ds = D.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64)).cache()
        it = tf1.data.make_initializable_iterator(ds)
        nxt = it.get_next()
        with tf1.Session() as sess:
            for _ in range(2):
                sess.run(it.initializer)
                assert [sess.run(nxt) for _ in range(3)] == [0, 1, 2]
                with pytest.raises(errors.OutOfRangeError):
                    sess.run(nxt)
    assert len(calls) == 1


def test_file_cache_strings_and_shapes(tmp_path):
    prefix = str(tmp_path / "c")
    ds = D.from_tensor_slices((["a", "bcd"], np.arange(6.0).reshape(2, 3))).cache(prefix)
    first = list(ds.as_numpy_iterator())
    again = D.from_tensor_slices((["x", "y"], np.zeros((2, 3)))).cache(prefix)
    second = list(again.as_numpy_iterator())
    assert [(a, b.tolist()) for a, b in second] == [(a, b.tolist()) for a, b in first]
    assert sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]


def test_file_cache_in_a_missing_directory_is_not_found(tmp_path):
    ds = D.range(2).cache(str(tmp_path / "no" / "c"))
    with pytest.raises(errors.NotFoundError, match="c_0.lockfile"):
        list(ds)
    assert not (tmp_path / "no").exists()
