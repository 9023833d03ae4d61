"""Dataset.save / Dataset.load in TensorFlow 2.21's directory format (snapshot.metadata,
dataset_spec.pb, <run id>/<shard>.shard/00000000.snapshot TFRecords of TensorProtos): a round
trip with GZIP, shard_func and reader_func, and the datasets TensorFlow saved
(tests/data/tf_data/tf_saved/, string tensors as TF's tensor_content) read back. Pinned against
tools/tf_reference/dataset_save_load.py's output on TensorFlow 2.21
(tests/data/tf_data/save_load.txt); TensorFlow 2.21 loads flowgrad's saves (checked by hand
when this was written)."""
import os

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
    assert flowgrad_stdout("dataset_save_load.py") == recorded_text("tf_data/save_load.txt")


def test_unknown_compression_is_refused(tmp_path):
    with pytest.raises(errors.InvalidArgumentError, match="compression"):
        D.range(2).save(str(tmp_path / "x"), compression="SNAPPYISH")
    assert not (tmp_path / "x").exists()


def test_ragged_elements_are_refused_by_name(tmp_path):
    ds = D.from_tensor_slices(tf.ragged.constant([[1], [2, 3]]))
    with pytest.raises(errors.UnimplementedError, match="RaggedTensorSpec"):
        ds.save(str(tmp_path / "r"))


def test_save_writes_tensorflows_layout(tmp_path):
    D.range(5).save(str(tmp_path / "s"), shard_func=lambda x: x % 2)
    names = sorted(os.listdir(tmp_path / "s"))
    assert names[-2:] == ["dataset_spec.pb", "snapshot.metadata"]
    run = tmp_path / "s" / names[0]
    assert sorted(os.listdir(run)) == ["00000000.shard", "00000001.shard"]
    loaded = D.load(str(tmp_path / "s"), reader_func=lambda ds: ds.flat_map(lambda d: d))
    assert list(loaded.as_numpy_iterator()) == [0, 2, 4, 1, 3]
    assert int(loaded.cardinality()) == 5
