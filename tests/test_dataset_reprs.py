"""tf.data pipelines print as TensorFlow 2.21's (``<_MapDataset element_spec=...>``: the class
of each transformation, ``CacheDataset``, ``TFRecordDatasetV2``...), ``shard`` knows its
cardinality, and ``tf.data.Options`` are TensorFlow's: typed, with TF's defaults, merged along
a pipeline, immutable where a dataset reports them. Pinned against
tools/tf_reference/dataset_reprs.py's output on TensorFlow 2.21 (tests/data/tf_data/reprs.txt)."""
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.data.distribute import compute_batch_size

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_results_are_tensorflows():
    assert flowgrad_stdout("dataset_reprs.py") == recorded_text("tf_data/reprs.txt")


def test_pass_through_datasets_keep_the_batch_size():
    ds = tf.data.Dataset.range(10).batch(4).prefetch(2).cache().with_options(tf.data.Options())
    assert int(compute_batch_size(ds)) == 4
    assert list(ds.as_numpy_iterator())[-1].tolist() == [8, 9]


def test_with_options_needs_options():
    with pytest.raises(TypeError, match="tf.data.Options"):
        tf.data.Dataset.range(2).with_options({"deterministic": False})
