"""Partitioned variables created by flowgrad (``get_variable(partitioner=...)``), against
TensorFlow 2.21's (tests/data/tf_partitioned/, written by
tools/tf_reference/make_partitioned.py): the partitioners' results and the parts' names,
shapes and slice specs, ``PartitionedVariable``, ``embedding_lookup`` over the parts with
both partition strategies, and checkpoints: flowgrad restores TensorFlow's into any
partitioning and saves TensorFlow's slices (TensorFlow restoring them is checked by
tools/tf_reference/checkpoint_interop.py in the CI's interop job)."""
import json
import os

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.ops.partitioned_variables import PartitionedVariable
from flowgrad.train.tensor_bundle import BundleReader

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_partitioned")
CASES = json.load(open(os.path.join(DATA, "partitions.json")))
VALUES = np.load(os.path.join(DATA, "values.npz"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s%s-%s-%s" % (
    c["partitioner"], sorted(c["args"].items()), c["shape"], c["dtype"]))
def test_partitioners_and_parts_match_tensorflow(case):
    make = getattr(tf, case["partitioner"])
    shape, dtype = tf.TensorShape(case["shape"]), tf.as_dtype(case["dtype"])
    assert make(**case["args"])(shape=shape, dtype=dtype) == case["partitions"]
    init = tf.zeros_initializer() if case["dtype"] != "string" else None
    pv = tf.get_variable("v", shape=case["shape"], dtype=dtype, initializer=init,
                         partitioner=make(**case["args"]))
    assert isinstance(pv, PartitionedVariable)
    got = [[v.op.name, v.shape.as_list(), v._save_slice_info.spec] for v in pv]
    assert got == case["parts"]
    assert pv.get_shape().as_list() == case["shape"] and pv.dtype == dtype


def test_partitioner_errors_are_tensorflows():
    with pytest.raises(ValueError, match="must be positive"):
        tf.variable_axis_size_partitioner(0)
    with pytest.raises(ValueError, match="along one dimension"):
        tf.get_variable("v", shape=[4, 4], partitioner=lambda shape, dtype: [2, 2])
    with pytest.raises(ValueError, match="fully defined"):
        tf.get_variable("u", shape=[None, 4], partitioner=tf.fixed_size_partitioner(2))
    tf.get_variable("plain", shape=[4])
    with pytest.raises(ValueError, match="unpartitioned version"):
        tf.get_variable("plain", shape=[4], partitioner=tf.fixed_size_partitioner(2))


def test_reuse_returns_the_partitioned_variable():
    part = tf.fixed_size_partitioner(2)
    with tf.variable_scope("s"):
        a = tf.get_variable("e", shape=[5, 2], partitioner=part)
    with tf.variable_scope("s", reuse=True):
        assert tf.get_variable("e", shape=[5, 2], partitioner=part) is a
        with pytest.raises(ValueError, match="specified partitions"):
            tf.get_variable("e", shape=[5, 2], partitioner=tf.fixed_size_partitioner(3))
    with pytest.raises(ValueError, match="already exists"):
        with tf.variable_scope("s"):
            tf.get_variable("e", shape=[5, 2], partitioner=part)
    assert [v.op.name for v in tf.global_variables()] == ["s/e/part_0", "s/e/part_1"]


def _model():
    emb = tf.get_variable("emb", initializer=tf.constant(VALUES["emb"]),
                          partitioner=tf.fixed_size_partitioner(3))
    cols = tf.get_variable("scope/cols", initializer=tf.constant(VALUES["cols"]),
                           partitioner=tf.fixed_size_partitioner(2, axis=1))
    return emb, cols


def test_partitioned_variable_is_tensorflows_container():
    emb, cols = _model()
    assert len(emb) == 3 and [v.shape.as_list() for v in emb] == [[3, 3], [2, 3], [2, 3]]
    assert list(VALUES["parts"]) == [v.op.name for v in list(emb) + list(cols)]
    full = tf.convert_to_tensor(emb)
    assert full.op.name == "emb" and full.shape.as_list() == [7, 3]
    assigned = emb.assign(np.ones((7, 3), np.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(full), VALUES["emb"])
        np.testing.assert_array_equal(sess.run(cols.as_tensor()), VALUES["cols"])
        sess.run(assigned)
        np.testing.assert_array_equal(sess.run(list(emb)[1]), np.ones((2, 3)))


def test_embedding_lookup_over_the_parts_matches_tensorflow():
    emb, _ = _model()
    ids = VALUES["ids"]
    mod = tf.nn.embedding_lookup(emb, ids)                    # TF1: "mod"
    div = tf.nn.embedding_lookup(emb, ids, partition_strategy="div")
    v2 = tf2.nn.embedding_lookup(emb, ids)                    # TF2: "div"
    loss = tf.reduce_sum(mod * np.arange(6, dtype=np.float32)[:, None])
    grads = tf.gradients(loss, list(emb))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got_mod, got_div, got_v2, got_grads = sess.run([mod, div, v2, grads])
    np.testing.assert_array_equal(got_mod, VALUES["mod"])
    np.testing.assert_array_equal(got_div, VALUES["div"])
    np.testing.assert_array_equal(got_v2, VALUES["div"])
    want = np.zeros((7, 3))         # row id i lives in part i % 3 at row i // 3 ("mod")
    starts = [0, 3, 5]
    for k, i in enumerate(ids):
        want[starts[i % 3] + i // 3] += k
    np.testing.assert_array_equal(np.concatenate([np.asarray(g) for g in got_grads]), want)


@pytest.mark.parametrize("parts", [3, 2, 1])
def test_tensorflows_partitioned_checkpoint_restores_into_any_partitioning(parts):
    emb = tf.get_variable("emb", shape=[7, 3], partitioner=tf.fixed_size_partitioner(parts))
    cols = tf.get_variable("scope/cols", shape=[2, 5], dtype=tf.float64,
                           partitioner=tf.fixed_size_partitioner(2, axis=1))
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, tf.train.latest_checkpoint(DATA))
        np.testing.assert_array_equal(sess.run(emb.as_tensor()), VALUES["emb"])
        np.testing.assert_array_equal(sess.run(cols.as_tensor()), VALUES["cols"])


def test_saver_writes_tensorflows_slices(tmp_path):
    _model()
    tf.get_variable("whole", initializer=np.float32(2.5))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "model"))
    assert sorted(tf.train.list_variables(path)) == [("emb", [7, 3]), ("scope/cols", [2, 5]),
                                                     ("whole", [])]
    reader = BundleReader(path)
    assert len(reader._entry("emb").slices) == 3 and not reader._entry("whole").slices
    np.testing.assert_array_equal(tf.train.load_variable(path, "emb"), VALUES["emb"])
    np.testing.assert_array_equal(tf.train.load_variable(path, "scope/cols"), VALUES["cols"])
    with tf.Graph().as_default():       # into whole variables, and a Saver of one part list
        e = tf.get_variable("emb", shape=[7, 3])
        c = tf.get_variable("scope/cols", shape=[2, 5], dtype=tf.float64,
                            partitioner=tf.fixed_size_partitioner(5, axis=1))
        with tf.Session() as sess:
            tf.train.Saver({"emb": e, "scope/cols": c}).restore(sess, path)
            np.testing.assert_array_equal(sess.run(e), VALUES["emb"])
            np.testing.assert_array_equal(sess.run(c.as_tensor()), VALUES["cols"])


def test_a_wrong_full_shape_changes_no_part(tmp_path):
    _model()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "model"))
    with tf.Graph().as_default():
        emb = tf.get_variable("emb", shape=[8, 3], partitioner=tf.fixed_size_partitioner(2),
                              initializer=tf.zeros_initializer())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="emb"):
                tf.train.Saver(list(emb)).restore(sess, path)
            assert not sess.run(emb.as_tensor()).any()


def test_meta_graph_keeps_the_parts_slice_info(tmp_path):
    emb, _ = _model()
    y = tf.identity(tf.nn.embedding_lookup(emb, [0, 3, 6]), name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "model"))    # and model.meta
        want = sess.run(y)
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(path + ".meta")
        specs = [v._save_slice_info.spec for v in tf.global_variables()][:3]
        assert specs == ["7 3 0,3:0,3", "7 3 3,2:0,3", "7 3 5,2:0,3"]      # TF's, as recorded
        with tf.Session() as sess:
            saver.restore(sess, path)
            np.testing.assert_array_equal(sess.run("y:0"), want)


def test_eager_partitioned_variable_from_a_tensor():
    tf.enable_v2_behavior()
    try:
        pv = tf.get_variable("e", initializer=tf.constant(VALUES["emb"]),
                             partitioner=tf.fixed_size_partitioner(2))
        np.testing.assert_array_equal(tf.convert_to_tensor(pv).numpy(), VALUES["emb"])
        assert [v.shape.as_list() for v in pv] == [[4, 3], [3, 3]]
    finally:
        tf.disable_v2_behavior()
