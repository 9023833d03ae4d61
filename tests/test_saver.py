"""tf.train.Saver: round trip, the checkpoint state file, max_to_keep, atomic saves, and
every restore error (after which no variable has changed)."""
import os

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.train import checkpoint_management as cm
from flowgrad.train.tensor_bundle import BundleReader

DATA = ".data-00000-of-00001"


def files(prefix):
    """The files TensorFlow's TF1 Saver writes for a checkpoint: the bundle and the meta graph."""
    return [prefix + DATA, prefix + ".index", prefix + ".meta"]

W0 = np.arange(6, dtype=np.float32).reshape(2, 3)


def make_vars():
    w = tf.Variable(W0, name="w")
    with tf.name_scope("layer"):
        b = tf.Variable(np.array([1, 2], np.int64), name="b")
    return w, b


def state_file(directory):
    with open(os.path.join(directory, "checkpoint"), encoding="utf-8") as f:
        return f.read()


def test_round_trip_restores_every_variable(tmp_path):
    w, b = make_vars()
    saver = tf.train.Saver()
    prefix = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert saver.save(sess, prefix) == prefix
        sess.run([w.assign(W0 * 10), b.assign([7, 7])])
        saver.restore(sess, prefix)
        w_v, b_v = sess.run([w, b])
    np.testing.assert_array_equal(w_v, W0)
    np.testing.assert_array_equal(b_v, [1, 2])
    assert b_v.dtype == np.int64
    assert BundleReader(prefix).keys() == ["layer/b", "w"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == prefix
    assert state_file(tmp_path) == ('model_checkpoint_path: "%s"\n'      # as TF: as given
                                    'all_model_checkpoint_paths: "%s"\n' % (prefix, prefix))


def test_restore_into_a_fresh_session_and_graph(tmp_path):
    w, _ = make_vars()
    prefix = str(tmp_path / "m")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(w.assign(W0 + 1))
        tf.train.Saver().save(sess, prefix)
    with tf.Graph().as_default():
        w2, _ = make_vars()
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)      # no initializer needed
            np.testing.assert_array_equal(sess.run(w2), W0 + 1)


def test_var_list_as_dict_and_scalars(tmp_path):
    v = tf.Variable(3.5)
    saver = tf.train.Saver({"my/scalar": v})
    prefix = str(tmp_path / "s")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, prefix)
        sess.run(v.assign(0.0))
        saver.restore(sess, prefix)
        out = sess.run(v)
    assert out == np.float32(3.5) and type(out) is np.float32
    assert BundleReader(prefix).keys() == ["my/scalar"]


def test_saver_constructor_errors():
    v = tf.Variable(1.0, name="v")
    with pytest.raises(ValueError, match="At least two variables have the same name: v"):
        tf.train.Saver([v, v])
    with pytest.raises(TypeError, match="Variable to save is not a Variable"):
        tf.train.Saver([tf.constant(1.0)])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to save"):
            tf.train.Saver()
        assert tf.train.Saver(allow_empty=True).last_checkpoints == []


def test_global_step_suffix_max_to_keep_and_state_file(tmp_path):
    v = tf.Variable(0.0)
    step = tf.train.get_or_create_global_step()
    saver = tf.train.Saver(max_to_keep=2)
    prefix = str(tmp_path / "model")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        paths = []
        for i in range(1, 5):
            sess.run([v.assign(float(i)), step.assign(i * 10)])
            paths.append(saver.save(sess, prefix, global_step=step))
        assert saver.save(sess, prefix, global_step=99) == prefix + "-99"
    assert paths == [prefix + "-10", prefix + "-20", prefix + "-30", prefix + "-40"]
    assert saver.last_checkpoints == [prefix + "-40", prefix + "-99"]
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + files("model-40") + files("model-99")
    assert state_file(tmp_path) == ('model_checkpoint_path: "%s-99"\n'
                                    'all_model_checkpoint_paths: "%s-40"\n'
                                    'all_model_checkpoint_paths: "%s-99"\n' % ((prefix,) * 3))
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == prefix + "-99"
    assert state.all_model_checkpoint_paths == [prefix + "-40", prefix + "-99"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.train.Saver(save_relative_paths=True).save(sess, prefix, global_step=100)
    assert state_file(tmp_path) == ('model_checkpoint_path: "model-100"\n'
                                    'all_model_checkpoint_paths: "model-100"\n')


def test_max_to_keep_none_keeps_everything(tmp_path):
    tf.Variable(0.0)
    saver = tf.train.Saver(max_to_keep=None)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(4):
            saver.save(sess, str(tmp_path / "m"), global_step=i)
    assert len([f for f in os.listdir(tmp_path) if f.endswith(".index")]) == 4
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "m-3")


def test_keep_checkpoint_every_n_hours_spares_one_per_period(tmp_path, monkeypatch):
    from flowgrad.train import saver as saver_module
    now = [0.0]
    monkeypatch.setattr(saver_module.time, "time", lambda: now[0])
    tf.Variable(0.0)
    saver = tf.train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step, t in enumerate([100.0, 4000.0, 4100.0, 8000.0]):
            now[0] = t
            saver.save(sess, str(tmp_path / "m"), global_step=step)
    # m-1 (saved 4000 s in, after the first hour) is kept; m-0 and m-2 are deleted
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + files("m-1") + files("m-3")
    assert saver.last_checkpoints == [str(tmp_path / "m-3")]


def test_a_crash_mid_save_leaves_the_previous_checkpoint_usable(tmp_path, monkeypatch):
    w, b = make_vars()
    saver = tf.train.Saver()
    prefix = str(tmp_path / "model")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, prefix, global_step=1)
        before = state_file(tmp_path)
        sess.run(w.assign(W0 * 5))

        real_fsync = os.fsync
        calls = []

        def crashing_fsync(fd):      # the data file is written, the index is not
            calls.append(1)
            if len(calls) == 2:
                raise OSError("disk full (simulated)")
            return real_fsync(fd)
        monkeypatch.setattr(cm.os, "fsync", crashing_fsync)
        with pytest.raises(OSError, match="simulated"):
            saver.save(sess, prefix, global_step=2)
        # the same prefix: the old file must survive a failed overwrite too
        calls.clear()
        with pytest.raises(OSError, match="simulated"):
            saver.save(sess, prefix, global_step=1)
        monkeypatch.undo()

        assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + files("model-1")
        assert state_file(tmp_path) == before
        latest = tf.train.latest_checkpoint(str(tmp_path))
        assert latest == prefix + "-1"
        saver.restore(sess, latest)
        np.testing.assert_array_equal(sess.run(w), W0)


@pytest.fixture
def saved(tmp_path):
    """A checkpoint of w (2x3 float32) and layer/b (int64), and a session holding other
    values, so that a failed restore can be seen to change nothing."""
    w, b = make_vars()
    prefix = str(tmp_path / "model")
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    tf.train.Saver().save(sess, prefix)
    sess.run([w.assign(W0 * 3), b.assign([5, 5])])
    yield prefix, sess, w, b
    sess.close()


def assert_unchanged(sess, w, b):
    w_v, b_v = sess.run([w, b])
    np.testing.assert_array_equal(w_v, W0 * 3)
    np.testing.assert_array_equal(b_v, [5, 5])


def test_restore_of_a_missing_checkpoint(saved):
    prefix, sess, w, b = saved
    with pytest.raises(ValueError, match="The passed save_path is not a valid checkpoint: "
                                         ".*nothere"):
        tf.train.Saver().restore(sess, prefix + "nothere")
    with pytest.raises(ValueError, match="Can't load save_path when it is None"):
        tf.train.Saver().restore(sess, None)
    with pytest.raises(errors.DataLossError, match="Is a directory"):     # TF 2.21's class
        tf.train.Saver().restore(sess, os.path.dirname(prefix))
    with pytest.raises(OSError, match="File does not exist. Received: .*nothere.meta"):
        tf.train.import_meta_graph(prefix + "nothere.meta")
    assert_unchanged(sess, w, b)


def test_restore_with_missing_variables_names_them(saved):
    prefix, sess, w, b = saved
    extra = tf.Variable(1.0, name="extra")
    other = tf.Variable(1.0, name="other")
    sess.run([extra.initializer, other.initializer])
    with pytest.raises(errors.NotFoundError, match="Keys extra, other not found in checkpoint "
                                                   ".*model"):
        tf.train.Saver([w, b, extra, other]).restore(sess, prefix)
    assert_unchanged(sess, w, b)


def test_restore_with_a_shape_mismatch_names_the_variable(saved):
    prefix, sess, w, b = saved
    with tf.Graph().as_default():
        w2 = tf.Variable(np.zeros((3, 2), np.float32), name="w")
        b2 = tf.Variable(np.array([1, 2], np.int64), name="layer/b")
        with tf.Session() as s2:
            s2.run(tf.global_variables_initializer())
            with pytest.raises(errors.InvalidArgumentError) as e:
                tf.train.Saver([b2, w2]).restore(s2, prefix)
            np.testing.assert_array_equal(s2.run(b2), [1, 2])     # b2 matched, unchanged too
    assert "tensor_name = w; shape of the variable (3, 2) does not match the shape stored in " \
           "checkpoint: [2, 3]" in str(e.value)
    assert "no variable was changed" in str(e.value)


def test_restore_with_a_dtype_mismatch_names_the_variable(saved):
    prefix, sess, w, b = saved
    with tf.Graph().as_default():
        w2 = tf.Variable(W0.astype(np.float64), name="w")
        with tf.Session() as s2:
            s2.run(tf.global_variables_initializer())
            with pytest.raises(errors.InvalidArgumentError,
                               match="tensor_name = w; expected dtype float64 does not equal "
                                     "original dtype float32"):
                tf.train.Saver([w2]).restore(s2, prefix)


@pytest.mark.parametrize("suffix", [DATA, ".index"])
@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_restore_of_a_corrupted_checkpoint_is_a_data_loss_error(saved, damage, suffix):
    prefix, sess, w, b = saved
    path = prefix + suffix
    data = bytearray(open(path, "rb").read())
    if damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "flip":
        data[10] ^= 0xFF        # inside the first array or block: its CRC no longer matches
    else:
        data = bytearray(b"not a checkpoint at all")
    with open(path, "wb") as f:
        f.write(bytes(data))
    with pytest.raises(errors.DataLossError, match="Unable to read .*model" + suffix):
        tf.train.Saver().restore(sess, prefix)
    assert_unchanged(sess, w, b)


def test_save_into_a_missing_directory_is_an_error(tmp_path):
    tf.Variable(1.0)
    with tf.Session() as sess:       # as TensorFlow 2.21: one missing level is made
        sess.run(tf.global_variables_initializer())
        with pytest.raises(ValueError, match="Parent directory of .* doesn't exist"):
            tf.train.Saver().save(sess, str(tmp_path / "nope" / "deeper" / "model"))
        assert not (tmp_path / "nope").exists()
        path = tf.train.Saver().save(sess, str(tmp_path / "made" / "model"))
        assert path == str(tmp_path / "made" / "model")
        assert tf.train.latest_checkpoint(str(tmp_path / "made")) == path


def test_latest_checkpoint_without_or_with_a_broken_state_file(tmp_path):
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    (tmp_path / "checkpoint").write_text("model_checkpoint_path: unquoted\n")
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "gone"\n')
    assert tf.train.get_checkpoint_state(str(tmp_path)).model_checkpoint_path == \
        str(tmp_path / "gone")
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    assert not tf.train.checkpoint_exists(str(tmp_path / "gone"))


def test_eager_save_and_restore(tmp_path):
    tf.enable_v2_behavior()
    v = tf.Variable(np.array([1.0, 2.0], np.float32), name="v")
    with pytest.raises(RuntimeError, match="`var_list` must specify"):
        tf.train.Saver()
    saver = tf.train.Saver([v])
    prefix = saver.save(None, str(tmp_path / "eager"))
    v.assign([0.0, 0.0])
    saver.restore(None, prefix)
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
