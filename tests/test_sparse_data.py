"""tf.data elements that are SparseTensors or RaggedTensors (element_spec, map, batch,
ragged_batch, eager and graph iteration), against TensorFlow 2.21's recorded elements
(tools/tf_reference/sparse_data_reference.py ran the same pipelines)."""
import importlib.util
import json
import os

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework import errors

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "sparse_data_reference", os.path.join(ROOT, "tools", "tf_reference",
                                          "sparse_data_reference.py"))
ref_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref_module)
with open(os.path.join(ROOT, "tests", "data", "sparse", "data_reference.json")) as f:
    REFERENCE = json.load(f)["cases"]


@pytest.fixture(autouse=True)
def eager():
    tf.compat.v1.enable_v2_behavior()


@pytest.mark.parametrize("name", sorted(ref_module.CASES))
def test_pipeline_matches_tensorflow(name):
    got = json.loads(json.dumps(ref_module.record(tf)[name]))
    want = REFERENCE[name]
    assert got["element_spec"] == want["element_spec"]
    assert got["eager"] == want["eager"]
    assert got["graph"] == want["graph"]


def test_spec_classes_and_numpy_iterator():
    ds = ref_module.CASES["sparse_batch"](tf)
    spec = ds.element_spec
    assert isinstance(spec, tf.SparseTensorSpec)
    assert spec == tf.SparseTensorSpec([None, 1, 3], tf.int32)
    assert repr(spec) == "SparseTensorSpec(TensorShape([None, 1, 3]), tf.int32)"
    first = next(ds.as_numpy_iterator())      # TensorFlow gives the dense array
    np.testing.assert_array_equal(first, [[[1, 2, 0]], [[3, 0, 0]], [[4, 5, 6]]])
    rspec = ref_module.CASES["ragged_batch"](tf).element_spec
    assert rspec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert tf.RaggedTensorSpec([None, None, 2], tf.float32).ragged_rank == 2


def test_session_feeds_sparse_tensor_value():
    with tf.Graph().as_default():
        sp = tf.compat.v1.sparse_placeholder(tf.float32)
        dense = tf.sparse.to_dense(sp)
        with tf.compat.v1.Session() as sess:
            value = tf.compat.v1.SparseTensorValue([[0, 1], [1, 0]], [2.0, 3.0], [2, 3])
            np.testing.assert_array_equal(sess.run(dense, {sp: value}),
                                          [[0, 2, 0], [3, 0, 0]])
            got = sess.run(sp, {sp: value})
            assert isinstance(got, tf.compat.v1.SparseTensorValue)
            np.testing.assert_array_equal(got.dense_shape, [2, 3])
            with pytest.raises(TypeError, match="SparseTensorValue"):
                sess.run(dense, {sp: np.zeros(3)})


def test_sparse_batch_of_different_ranks_fails():
    ds = tf.data.Dataset.range(2).map(
        lambda x: tf.sparse.from_dense(tf.reshape(x, tf.concat(
            [tf.ones(tf.cast(x, tf.int32) + 1, tf.int32)], 0))))
    with pytest.raises((errors.InvalidArgumentError, ValueError)):
        list(ds.batch(2))
