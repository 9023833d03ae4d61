"""A tf.data iterator in a tf.train.Checkpoint (the TF data guide's "Iterator checkpointing"):
saved under TensorFlow's key (iterator/.ATTRIBUTES/ITERATOR_STATE, a variant tensor) and
restored, in another process, to the position it had: the elements that follow are those
TensorFlow 2.21 gives (tools/tf_reference/iterator_checkpoint.py, recorded in
tests/data/iterator_checkpoint/). TensorFlow's own serialized iterator state is refused with a
clear error."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.train.tensor_bundle import VARIANT, BundleReader, VariantArray, write_bundle

pytest.importorskip("tensorboard.compat.proto.trackable_object_graph_pb2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "iterator_checkpoint")
PROGRAM = os.path.join(ROOT, "tools", "tf_reference", "iterator_checkpoint.py")
KEY = "iterator/.ATTRIBUTES/ITERATOR_STATE"


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


def _run(*args):
    out = subprocess.run([sys.executable, "-m", "flowgrad", PROGRAM, *args],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def _recorded(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def test_a_restored_iterator_goes_on_as_tensorflows_in_another_process(tmp_path):
    assert _run("save", str(tmp_path)) == _recorded("save_tf_2_21.txt")
    assert _run("load", str(tmp_path)) == _recorded("load_tf_2_21.txt")


def test_restoring_rewinds_the_same_iterator_and_checks_the_dataset(tmp_path):
    ds = tf.data.Dataset.range(10).shuffle(10).batch(3).repeat(2)
    it = iter(ds)
    next(it)
    ckpt = tf.train.Checkpoint(iterator=it)
    path = ckpt.write(str(tmp_path / "ck"))
    following = [x.numpy().tolist() for x in it]
    ckpt.read(path).assert_consumed()
    assert [x.numpy().tolist() for x in it] == following
    reader = tf.train.load_checkpoint(path)
    assert reader.get_variable_to_dtype_map()[KEY] is VARIANT
    assert reader.get_variable_to_shape_map()[KEY] == [1]
    other = iter(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32)))
    with pytest.raises(errors.InvalidArgumentError, match="iterator/.ATTRIBUTES/ITERATOR_STATE"):
        tf.train.Checkpoint(iterator=other).read(path)
    assert next(other).numpy() == 0.0        # nothing was restored


def test_tensorflows_serialized_iterator_state_is_refused_naming_the_checkpoint(tmp_path):
    for name in os.listdir(DATA):
        if name.startswith(("tf_iterator", "checkpoint")):
            shutil.copy(os.path.join(DATA, name), tmp_path)
    step = tf.Variable(0)
    it = iter(tf.data.Dataset.range(10).map(lambda x: x * 2).shuffle(5, seed=1).batch(2)
              .repeat(2))
    path = tf.train.latest_checkpoint(str(tmp_path))
    with pytest.raises(errors.UnimplementedError, match="TensorFlow's serialized tf.data "
                       "iterator state .*Iterator::Root"):
        tf.train.Checkpoint(iterator=it, step=step).restore(path)
    assert next(it).numpy().tolist() == [0, 10]      # the iterator is untouched


def test_variant_tensors_are_written_byte_for_byte_as_tensorflows(tmp_path):
    prefix = os.path.join(DATA, "tf_iterator-1")
    theirs = BundleReader(prefix)
    value = theirs.get_tensor(KEY)
    assert theirs.dtype(KEY) is VARIANT and value.shape == (15,)
    write_bundle(str(tmp_path / "x"), {KEY: VariantArray(value)})
    ours = BundleReader(str(tmp_path / "x"))
    assert ours._entry(KEY).crc32c == theirs._entry(KEY).crc32c
    assert [bytes(x) for x in ours.get_tensor(KEY)] == [bytes(x) for x in value]
    with open(prefix + ".data-00000-of-00001", "rb") as f:
        entry = theirs._entry(KEY)
        f.seek(entry.offset)
        want = f.read(entry.size)
    with open(str(tmp_path / "x.data-00000-of-00001"), "rb") as f:
        assert f.read() == want
    assert np.asarray(value).dtype == object
