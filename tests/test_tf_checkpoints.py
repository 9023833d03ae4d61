"""Checkpoints TensorFlow 2.21 wrote (tests/data/tf_checkpoints, made by
tools/tf_reference/make_checkpoints.py) restore into programs built with flowgrad and give
TensorFlow's values: TF1 Saver checkpoints (dtypes, a partitioned variable, Adam's slots),
TF2 Checkpoint/CheckpointManager directories (a Keras model with its optimizer, a
tf.Module); flowgrad writes the same object graphs; a restore that matches nothing fails
where TensorFlow's fails."""
from __future__ import annotations

import json
import os
import pathlib
import shutil

import numpy as np
import pytest

pytest.importorskip("google_crc32c")
pytest.importorskip("tensorboard")

import flowgrad as tf  # noqa: E402
import flowgrad.compat.v1 as tf1  # noqa: E402
from flowgrad.framework import errors  # noqa: E402
from flowgrad.framework.context import state  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data" / "tf_checkpoints"
EXPECTED = json.loads((DATA / "expected.json").read_text())


def decode(v: dict) -> np.ndarray:
    if v["dtype"] == "string":
        return np.array([bytes.fromhex(x) for x in v["strings"]], dtype=object
                        ).reshape(v["shape"])
    if v["dtype"] == "bfloat16":
        import ml_dtypes
        return np.frombuffer(bytes.fromhex(v["hex"]), ml_dtypes.bfloat16).reshape(v["shape"])
    return np.frombuffer(bytes.fromhex(v["hex"]), np.dtype(v["dtype"])).reshape(v["shape"])


def expected(name: str) -> dict:
    values = EXPECTED[name]["values"] if "values" in EXPECTED[name] else EXPECTED[name]
    return {k: decode(v) for k, v in values.items()}


@pytest.fixture
def eager():
    """Eager mode inside the test (conftest starts every test in graph mode)."""
    saved = state.eager
    state.eager = True
    yield
    state.eager = saved


@pytest.fixture
def copy_of(tmp_path):
    """A writable copy of one fixture directory."""
    def copy(name):
        shutil.copytree(DATA / name, tmp_path / name)
        return str(tmp_path / name)
    return copy


# --------------------------------------------------------------------------------------
# Reading without a program


def test_list_variables_and_load_variable_as_tensorflow():
    want = expected("tf1")
    listed = tf.train.list_variables(str(DATA / "tf1"))
    assert listed == sorted((k, list(v.shape)) for k, v in want.items())
    assert tf.train.latest_checkpoint(str(DATA / "tf1")) == str(DATA / "tf1" / "model.ckpt-2")
    part = tf.train.load_variable(str(DATA / "tf1"), "part")      # assembled from 2 slices
    np.testing.assert_array_equal(part, want["part"])
    reader = tf1.train.NewCheckpointReader(str(DATA / "tf1" / "model.ckpt-2"))
    assert reader.get_variable_to_dtype_map()["bf16"] == tf.bfloat16
    assert reader.get_tensor("names").tolist() == [b"a", b"bc"]
    with pytest.raises(errors.NotFoundError):
        tf1.train.NewCheckpointReader(str(DATA / "tf1" / "model.ckpt-1"))


def test_manager_directory_state_with_timestamps_is_read():
    d = str(DATA / "keras")
    state_ = tf.train.get_checkpoint_state(d)
    assert state_.all_model_checkpoint_paths == [os.path.join(d, p)
                                                 for p in EXPECTED["keras"]["checkpoints"]]
    assert len(state_.all_model_checkpoint_timestamps) == 2
    assert tf.train.latest_checkpoint(d) == os.path.join(d, EXPECTED["keras"]["latest"])


# --------------------------------------------------------------------------------------
# TF1: tf.compat.v1.train.Saver


def build_tf1_model():
    """The TF1 program of make_checkpoints.py, built with flowgrad (``part`` whole)."""
    w = tf1.get_variable("dense/kernel", initializer=np.zeros((3, 2), np.float32))
    b = tf1.get_variable("dense/bias", initializer=np.zeros(2, np.float32))
    part = tf1.get_variable("part", initializer=np.zeros((5, 3), np.float32))
    for name, value in [("f64", np.zeros(2)), ("f16", np.zeros(2, np.float16)),
                        ("i64", np.zeros(2, np.int64)), ("i32", np.int32(0)),
                        ("flag", np.zeros(2, bool))]:
        tf1.get_variable(name, initializer=value, trainable=False)
    tf1.get_variable("bf16", initializer=tf.zeros([2], tf.bfloat16), trainable=False)
    tf1.get_variable("names", initializer=tf.constant([b"", b""]), trainable=False)
    step = tf1.train.get_or_create_global_step()
    x = tf.constant([[1.0, 2.0, 3.0]])
    loss = tf.reduce_sum(tf.matmul(x, w) + b) + tf.reduce_sum(tf.square(part))
    return tf1.train.AdamOptimizer(0.1).minimize(loss, global_step=step)


def test_saver_restores_tensorflows_checkpoint_into_the_same_program():
    build_tf1_model()
    want = expected("tf1")
    names = sorted(v.name[:-2] for v in tf1.global_variables())
    assert names == sorted(want)                 # flowgrad names every variable as TF does
    with tf1.Session() as sess:
        tf1.train.Saver().restore(sess, tf1.train.latest_checkpoint(str(DATA / "tf1")))
        for v in tf1.global_variables():
            got = sess.run(v)
            value = want[v.name[:-2]]
            if value.dtype == object:
                assert list(got) == list(value), v.name
            else:
                assert np.asarray(got).tobytes() == value.tobytes(), v.name


def test_saver_var_list_dict_remaps_names():
    kernel = tf1.Variable(np.zeros((3, 2), np.float32), name="my_kernel")
    slot = tf1.Variable(np.zeros((5, 3), np.float32), name="s")
    saver = tf1.train.Saver({"dense/kernel": kernel, "part/Adam_1": slot})
    with tf1.Session() as sess:
        saver.restore(sess, str(DATA / "tf1" / "model.ckpt-2"))
        np.testing.assert_array_equal(sess.run(kernel), expected("tf1")["dense/kernel"])
        np.testing.assert_array_equal(sess.run(slot), expected("tf1")["part/Adam_1"])


def test_init_from_checkpoint_maps_scopes_and_variables():
    with tf1.variable_scope("new"):
        k = tf1.get_variable("kernel", shape=[3, 2])
        b = tf1.get_variable("bias", shape=[2])
    p = tf1.get_variable("p", shape=[5, 3])
    tf1.train.init_from_checkpoint(str(DATA / "tf1"), {"dense/": "new/", "part": p})
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(k), expected("tf1")["dense/kernel"])
        np.testing.assert_array_equal(sess.run(b), expected("tf1")["dense/bias"])
        np.testing.assert_array_equal(sess.run(p), expected("tf1")["part"])
    with pytest.raises(ValueError, match="Tensor nothere is not found"):
        tf1.train.init_from_checkpoint(str(DATA / "tf1"), {"nothere": p})
    with pytest.raises(ValueError, match="doesn't match with shape"):
        tf1.train.init_from_checkpoint(str(DATA / "tf1"), {"dense/bias": p})


# --------------------------------------------------------------------------------------
# TF2: tf.train.Checkpoint of a tf.Module


class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(0.0, name="scale")


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.zeros((2, 2)), name="w")
        self.steps = tf.Variable(np.int64(0), trainable=False)
        self.inner = Inner()
        self.table = [tf.Variable([0, 0, 0], dtype=tf.int32), tf.Variable(False)]


def test_module_restores_tensorflows_checkpoint(eager):
    m = Outer()
    ckpt = tf.train.Checkpoint(module=m)
    ckpt.restore(tf.train.latest_checkpoint(str(DATA / "module"))).assert_consumed()
    want = expected("module")
    np.testing.assert_array_equal(m.w.numpy(), want["module/w/.ATTRIBUTES/VARIABLE_VALUE"])
    assert int(m.steps.numpy()) == 42
    assert float(m.inner.scale.numpy()) == 2.5
    assert m.table[0].numpy().tolist() == [1, 2, 3] and bool(m.table[1].numpy())
    assert int(ckpt.save_counter.numpy()) == 1


def test_module_checkpoint_written_by_flowgrad_has_tensorflows_keys(eager, tmp_path):
    m = Outer()
    path = tf.train.Checkpoint(module=m).save(str(tmp_path / "ckpt"))
    assert path == str(tmp_path / "ckpt-1")
    keys = [k for k, _ in tf.train.list_variables(str(tmp_path))]
    assert keys == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + sorted(expected("module"))


def test_tf1_optimizer_slots_in_a_checkpoint_have_tensorflows_keys(eager, tmp_path):
    # Recorded from TensorFlow 2.21: tf.train.Checkpoint(m=<Module with w>, opt=<TF1 Adam>)
    m = tf.Module()
    m.w = tf.Variable([1.0, -2.0], name="w")
    opt = tf1.train.AdamOptimizer(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(m.w))
    opt.apply_gradients([(tape.gradient(loss, m.w), m.w)])
    path = tf.train.Checkpoint(m=m, opt=opt).save(str(tmp_path / "c"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "m/w/.ATTRIBUTES/VARIABLE_VALUE",
        "m/w/.OPTIMIZER_SLOT/opt/m/.ATTRIBUTES/VARIABLE_VALUE",
        "m/w/.OPTIMIZER_SLOT/opt/v/.ATTRIBUTES/VARIABLE_VALUE",
        "opt/beta1_power/.ATTRIBUTES/VARIABLE_VALUE",
        "opt/beta2_power/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]


# --------------------------------------------------------------------------------------
# TF2: a Keras model and its optimizer, from a CheckpointManager directory


def keras_model_and_optimizer():
    keras = tf.compat.v1.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(2)])
    return model, keras.optimizers.Adam(0.01)


def test_keras_model_and_adam_restore_tensorflows_checkpoint(eager):
    model, opt = keras_model_and_optimizer()                    # opt has no slots yet
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    manager = tf.train.CheckpointManager(ckpt, str(DATA / "keras"), max_to_keep=2)
    status = ckpt.restore(manager.latest_checkpoint)
    status.assert_consumed()
    x = decode(EXPECTED["keras"]["input"])
    np.testing.assert_allclose(model(x).numpy(), decode(EXPECTED["keras"]["output"]),
                               rtol=1e-6, atol=1e-6)
    want = expected("keras")
    assert int(opt.iterations.numpy()) == 3
    for i, v in enumerate(opt.variables):
        key = "optimizer/_variables/%d/.ATTRIBUTES/VARIABLE_VALUE" % i
        if key in want:                            # the slots, in Keras's order
            np.testing.assert_array_equal(v.numpy(), want[key])
    assert int(ckpt.save_counter.numpy()) == 3


def test_keras_checkpoint_written_by_flowgrad_has_tensorflows_object_graph(eager, tmp_path):
    model, opt = keras_model_and_optimizer()
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    ckpt.restore(tf.train.latest_checkpoint(str(DATA / "keras"))).assert_consumed()
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    path = manager.save()
    assert os.path.basename(path) == "ckpt-4"
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert keys == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + sorted(expected("keras"))
    reader = tf.train.load_checkpoint(path)
    for key, value in expected("keras").items():
        if not key.startswith("save_counter"):
            np.testing.assert_array_equal(reader.get_tensor(key), value)


def functional_model():
    inp = tf.compat.v1.keras.Input((3,))
    h = tf.compat.v1.keras.layers.Dense(4, activation="relu")(inp)
    return tf.compat.v1.keras.Model(inp, tf.compat.v1.keras.layers.Dense(2)(h))


class Subclassed(tf.compat.v1.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.compat.v1.keras.layers.Dense(4)
        self.bn = tf.compat.v1.keras.layers.BatchNormalization()
        self.emb = tf.compat.v1.keras.layers.Embedding(5, 3)

    def call(self, x):
        return self.bn(self.d1(x) + tf.reduce_sum(self.emb(tf.constant([1, 2]))))


@pytest.mark.parametrize("name,make", [("functional", functional_model),
                                       ("subclassed", Subclassed)])
@pytest.mark.parametrize("built", [True, False])
def test_functional_and_subclassed_keras_models_restore(eager, tmp_path, name, make, built):
    model = make()
    x = decode(EXPECTED["keras"]["input"])
    if built:
        model(x)
    status = tf.train.Checkpoint(model=model).restore(tf.train.latest_checkpoint(
        str(DATA / name)))
    out = model(x)                   # an unbuilt model gets its values as its layers build
    status.assert_consumed()
    np.testing.assert_allclose(out.numpy(), decode(EXPECTED[name]["output"]), rtol=1e-5,
                               atol=1e-6)
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "c"))
    assert [k for k, _ in tf.train.list_variables(path)] == \
        ["_CHECKPOINTABLE_OBJECT_GRAPH"] + sorted(expected(name))


# --------------------------------------------------------------------------------------
# No silent restore (what TensorFlow 2.21 does, see the module docstring)


def test_restore_that_matches_nothing_fails_the_assertions(eager):
    other = tf.Module()
    other.v = tf.Variable(1.0)
    status = tf.train.Checkpoint(net=other).restore(str(DATA / "module" / "ckpt-1"))
    with pytest.raises(AssertionError, match="not bound to checkpointed values"):
        status.assert_consumed()
    with pytest.raises(AssertionError, match="not bound to checkpointed values"):
        status.assert_existing_objects_matched()
    assert float(other.v.numpy()) == 1.0


def test_restore_of_a_path_without_a_checkpoint_is_an_error(eager, tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    with pytest.raises(errors.NotFoundError, match="Failed to find any matching files for"):
        ckpt.restore(str(tmp_path / "ckpt-1"))
    with pytest.raises(errors.DataLossError, match="Is a directory"):
        ckpt.restore(str(DATA / "module"))
    status = ckpt.restore(tf.train.latest_checkpoint(str(tmp_path)))     # None: nothing saved
    with pytest.raises(AssertionError, match="No checkpoint specified"):
        status.assert_consumed()


def test_damaged_tensorflow_checkpoint_is_a_data_loss_error(eager, copy_of):
    d = copy_of("module")
    data = pathlib.Path(d, "ckpt-1.data-00000-of-00001")
    raw = bytearray(data.read_bytes())
    raw[-1] ^= 1
    data.write_bytes(bytes(raw))
    m = Outer()
    with pytest.raises(errors.DataLossError, match="ckpt-1.data-00000-of-00001"):
        tf.train.Checkpoint(module=m).restore(tf.train.latest_checkpoint(d))
    assert float(m.inner.scale.numpy()) == 0.0         # nothing was assigned


# --------------------------------------------------------------------------------------
# flowgrad 0.1.0's files stay readable


def test_flowgrad_0_1_checkpoints_stay_readable(eager, tmp_path):
    from flowgrad.train.checkpoint_reader import write_npz
    m = tf.Module()
    m.w = tf.Variable([0.0, 0.0])
    graph = {"nodes": [{"children": {"m": 1}}, {"children": {"w": 2}},
                       {"children": {}, "key": "m/w/.ATTRIBUTES/VARIABLE_VALUE"}]}
    arrays = {"m/w/.ATTRIBUTES/VARIABLE_VALUE": np.array([1.5, 2.5], np.float32),
              "_CHECKPOINTABLE_OBJECT_GRAPH": np.frombuffer(json.dumps(graph).encode(),
                                                            np.uint8)}
    with open(tmp_path / "old-1.npz", "wb") as f:
        write_npz(f, arrays)
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "old-1"\n')
    status = tf.train.Checkpoint(m=m).restore(tf.train.latest_checkpoint(str(tmp_path)))
    status.assert_existing_objects_matched()
    assert m.w.numpy().tolist() == [1.5, 2.5]
    assert tf.train.list_variables(str(tmp_path))[1] == ("m/w/.ATTRIBUTES/VARIABLE_VALUE", [2])


def test_files_are_made_with_the_umask_not_0600(eager, tmp_path):
    old = os.umask(0o022)
    try:
        path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(str(tmp_path / "c"))
    finally:
        os.umask(old)
    for name in (path + ".index", path + ".data-00000-of-00001", str(tmp_path / "checkpoint")):
        assert os.stat(name).st_mode & 0o777 == 0o644, name


def test_checkpoints_iterator_yields_each_new_checkpoint_then_times_out(eager, tmp_path):
    v = tf.Variable(1.0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path), None)
    first = manager.save()
    seen = []
    for path in tf.train.checkpoints_iterator(str(tmp_path), timeout=0.5):
        seen.append(path)
        if len(seen) == 1:
            manager.save()
    assert seen == [first, str(tmp_path / "ckpt-2")]
    calls = []
    stop = lambda: calls.append(1) or len(calls) == 2     # noqa: E731
    assert list(tf.train.checkpoints_iterator(str(tmp_path / "none"), timeout=0.1,
                                              timeout_fn=stop)) == []
    assert len(calls) == 2
