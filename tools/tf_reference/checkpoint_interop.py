"""TensorFlow restores the checkpoints flowgrad wrote: TF1 ``Saver`` checkpoints (every dtype
a checkpoint holds, Adam's slots, a ``var_list`` dict, a partitioned variable's slices),
``tf.train.Checkpoint`` of a ``tf.Module`` (also with a TF1 optimizer's slots) and
``CheckpointManager`` directories of a Keras model with its Adam optimizer.

Two halves, run by two interpreters (the CI's interop job runs both, after the GraphDef and
SavedModel checks of graphdef_interop.py):

    python tools/tf_reference/checkpoint_interop.py write DIR      # flowgrad's python
    /path/to/tf-venv/bin/python tools/tf_reference/checkpoint_interop.py check DIR

``write`` saves with flowgrad into DIR and records the values it saved (``expected.json``);
``check`` restores each checkpoint with TensorFlow 2.21 into the same program built with
TensorFlow and fails, naming the checkpoint and the key, unless TensorFlow gets flowgrad's
values. To add a check: a ``write_<name>(dir) -> dict`` and a ``check_<name>(dir, expected)``
pair, listed in CASES."""
import json
import os
import sys
import traceback

import numpy as np

# flowgrad from this checkout (the script runs from tools/tf_reference/)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

X = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)


def enc(v):
    """A JSON-able form of an array (strings as hex)."""
    v = np.asarray(v)
    if v.dtype.kind in "OS":
        return {"dtype": "string", "shape": list(v.shape),
                "strings": [bytes(x).hex() for x in v.ravel()]}
    return {"dtype": v.dtype.name, "shape": list(v.shape),
            "hex": np.ascontiguousarray(v).tobytes().hex()}


def dec(v):
    """The array ``enc`` encoded (bfloat16 through TensorFlow's own NumPy type)."""
    if v["dtype"] == "string":
        return np.array([bytes.fromhex(x) for x in v["strings"]], dtype=object
                        ).reshape(v["shape"])
    if v["dtype"] == "bfloat16":
        import ml_dtypes
        dt = np.dtype(ml_dtypes.bfloat16)
    else:
        dt = np.dtype(v["dtype"])
    return np.frombuffer(bytes.fromhex(v["hex"]), dt).reshape(v["shape"])


def same(got, want, what):
    got = np.asarray(got)
    if want.dtype == object:
        ok = [bytes(x) for x in got.ravel()] == list(want.ravel())
    else:
        ok = got.dtype == want.dtype and got.shape == want.shape and \
            got.tobytes() == want.tobytes()
    if not ok:
        raise AssertionError("%s: TensorFlow read %r (%s), flowgrad saved %r (%s)"
                             % (what, got, got.dtype, want, want.dtype))


# --------------------------------------------------------------------------------------
# TF1 Saver


TF1_VALUES = {
    "f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
    "f64": np.array([1.5, -2.25]),
    "f16": np.array([0.5, -1, 65504], np.float16),
    "i8": np.array([-128, 127], np.int8),
    "i16": np.array([-3, 4], np.int16),
    "i32": np.array(7, np.int32),
    "i64": np.array([2**40, -1], np.int64),
    "u8": np.array([0, 255], np.uint8),
    "flag": np.array([True, False]),
    "c64": np.array([1 + 2j], np.complex64),
    "c128": np.array([[0.5 - 1j]]),
    "names": np.array([b"", b"hello", bytes(range(200))], dtype=object),
}


def write_tf1(d):
    import flowgrad.compat.v1 as tf
    with tf.Graph().as_default():
        variables = {n: tf.get_variable(n, initializer=v, trainable=False)
                     for n, v in TF1_VALUES.items()}
        bf16 = tf.get_variable("bf16", initializer=tf.constant([1.5, -2.0], tf.bfloat16),
                               trainable=False)
        w = tf.get_variable("dense/kernel", initializer=np.arange(6, dtype=np.float32)
                            .reshape(3, 2) / 10)
        step = tf.train.get_or_create_global_step()
        loss = tf.reduce_sum(tf.square(tf.matmul(tf.constant(X), w)))
        train = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=step)
        saver = tf.train.Saver(max_to_keep=2)
        remap = tf.train.Saver({"remapped/kernel": w, "remapped/names": variables["names"]})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
                saver.save(sess, os.path.join(d, "model.ckpt"), global_step=step)
            remap.save(sess, os.path.join(d, "remap"), write_state=False)
            values = {v.name[:-2]: sess.run(v) for v in tf.global_variables()}
            values["bf16"] = sess.run(bf16)
    return {"values": {k: enc(v) for k, v in values.items()}, "latest": "model.ckpt-3",
            "kept": ["model.ckpt-2", "model.ckpt-3"]}


def check_tf1(d, expected):
    import tensorflow as tf
    latest = tf.train.latest_checkpoint(d)
    assert latest == os.path.join(d, expected["latest"]), latest
    state = tf.train.get_checkpoint_state(d)
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == expected["kept"]
    want = {k: dec(v) for k, v in expected["values"].items()}
    listed = dict(tf.train.list_variables(latest))
    assert sorted(listed) == sorted(want), sorted(listed)
    for key, value in want.items():
        same(tf.train.load_variable(latest, key), value, "%s: %s" % (latest, key))
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        made = {k: v1.get_variable(k, initializer=np.zeros_like(v) if v.dtype != object
                                   else np.array([b""] * v.size, dtype=object).reshape(v.shape),
                                   dtype=tf.as_dtype("string" if v.dtype == object
                                                     else v.dtype))
                for k, v in want.items()}
        with v1.Session() as sess:
            v1.train.Saver().restore(sess, latest)
            for key, var in made.items():
                same(sess.run(var), want[key], "Saver.restore %s: %s" % (latest, key))
    remap = os.path.join(d, "remap")
    same(tf.train.load_variable(remap, "remapped/kernel"), want["dense/kernel"], remap)
    same(tf.train.load_variable(remap, "remapped/names"), want["names"], remap)


# --------------------------------------------------------------------------------------
# A partitioned variable's slices (flowgrad's bundle writer, as SavedModels use it)


def write_slices(d):
    from flowgrad.train.tensor_bundle import write_bundle
    full = np.arange(15, dtype=np.float32).reshape(5, 3)
    write_bundle(os.path.join(d, "sliced"), {"whole": np.float64(3.0)},
                 slices={"part": ([5, 3], [([0, 0], full[:3]), ([3, 0], full[3:])])})
    return {"part": enc(full)}


def check_slices(d, expected):
    import tensorflow as tf
    prefix = os.path.join(d, "sliced")
    same(tf.train.load_variable(prefix, "part"), dec(expected["part"]), prefix + ": part")
    with tf.Graph().as_default():
        v1 = tf.compat.v1
        part = v1.get_variable("part", shape=[5, 3], partitioner=v1.fixed_size_partitioner(2))
        with v1.Session() as sess:
            v1.train.Saver([part]).restore(sess, prefix)
            same(sess.run(tf.concat(list(part), 0)), dec(expected["part"]),
                 "a partitioned variable restored from %s" % prefix)


# Partitioned variables flowgrad created (get_variable(partitioner=...)), saved by its Saver


def write_partitioned(d):
    import flowgrad.compat.v1 as v1
    emb_val = np.arange(21, dtype=np.float32).reshape(7, 3) / 4
    cols_val = np.arange(10, dtype=np.float64).reshape(2, 5) - 3
    with v1.Graph().as_default():
        emb = v1.get_variable("emb", initializer=v1.constant(emb_val),
                              partitioner=v1.fixed_size_partitioner(3))
        v1.get_variable("scope/cols", initializer=v1.constant(cols_val),
                        partitioner=v1.fixed_size_partitioner(2, axis=1))
        rows = v1.nn.embedding_lookup(emb, [0, 3, 6, 2])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            v1.train.Saver().save(sess, os.path.join(d, "model"), write_meta_graph=False)
            return {"emb": enc(emb_val), "cols": enc(cols_val), "rows": enc(sess.run(rows))}


def check_partitioned(d, expected):
    import tensorflow as tf
    v1 = tf.compat.v1
    prefix = os.path.join(d, "model")
    emb_val, cols_val = dec(expected["emb"]), dec(expected["cols"])
    for parts in (3, 2, 1):             # the same partitioning, another one, a whole variable
        with tf.Graph().as_default():
            emb = v1.get_variable("emb", shape=[7, 3], partitioner=v1.fixed_size_partitioner(
                parts))
            cols = v1.get_variable("scope/cols", shape=[2, 5], dtype=tf.float64,
                                   partitioner=v1.fixed_size_partitioner(2, axis=1))
            rows = v1.nn.embedding_lookup(emb, [0, 3, 6, 2])       # "mod"
            with v1.Session() as sess:
                v1.train.Saver().restore(sess, prefix)
                same(sess.run(emb.as_tensor()), emb_val, "emb in %d parts" % parts)
                same(sess.run(cols.as_tensor()), cols_val, "scope/cols")
                if parts == 3:
                    same(sess.run(rows), dec(expected["rows"]), "embedding_lookup (mod)")


# --------------------------------------------------------------------------------------
# TF2: tf.train.Checkpoint of a tf.Module


def module_class(tf):
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            self.scale = tf.Variable(0.0)

    class Outer(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.zeros((2, 2)))
            self.steps = tf.Variable(np.int64(0))
            self.inner = Inner()
            self.table = [tf.Variable([0, 0, 0]), tf.Variable(False)]
    return Outer


def write_module(d):
    import flowgrad as tf
    m = module_class(tf)()
    m.w.assign([[1.0, 2.0], [3.0, 4.0]])
    m.steps.assign(41)
    m.inner.scale.assign(2.5)
    m.table[0].assign([1, 2, 3])
    m.table[1].assign(True)
    ckpt = tf.train.Checkpoint(module=m)
    ckpt.save(os.path.join(d, "ckpt"))
    path = ckpt.save(os.path.join(d, "ckpt"))
    return {"path": os.path.basename(path), "w": enc(m.w.numpy())}


def check_module(d, expected):
    import tensorflow as tf
    m = module_class(tf)()
    ckpt = tf.train.Checkpoint(module=m)
    latest = tf.train.latest_checkpoint(d)
    assert latest == os.path.join(d, expected["path"]), latest
    ckpt.restore(latest).assert_consumed()
    same(m.w.numpy(), dec(expected["w"]), latest + ": module.w")
    assert int(m.steps.numpy()) == 41 and float(m.inner.scale.numpy()) == 2.5
    assert m.table[0].numpy().tolist() == [1, 2, 3] and bool(m.table[1].numpy())
    assert int(ckpt.save_counter.numpy()) == 2


# --------------------------------------------------------------------------------------
# TF2: a TF1 optimizer's slots (.OPTIMIZER_SLOT) in a tf.train.Checkpoint


def v1_adam_step(tf, m, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(m.w) * [1.0, 3.0])
    opt.apply_gradients([(tape.gradient(loss, m.w), m.w)])


def write_v1_optimizer(d):
    import flowgrad as tf
    m = tf.Module()
    m.w = tf.Variable([1.0, -2.0])
    opt = tf.compat.v1.train.AdamOptimizer(0.1)
    for _ in range(2):
        v1_adam_step(tf, m, opt)
    tf.train.Checkpoint(m=m, opt=opt).save(os.path.join(d, "ckpt"))
    v1_adam_step(tf, m, opt)                     # what TensorFlow's next step must give
    return {"w_after": enc(m.w.numpy())}


def check_v1_optimizer(d, expected):
    import tensorflow as tf
    m = tf.Module()
    m.w = tf.Variable([0.0, 0.0])
    opt = tf.compat.v1.train.AdamOptimizer(0.1)
    status = tf.train.Checkpoint(m=m, opt=opt).restore(tf.train.latest_checkpoint(d))
    v1_adam_step(tf, m, opt)                     # slots are restored as they are made
    status.assert_consumed()
    np.testing.assert_allclose(m.w.numpy(), dec(expected["w_after"]), rtol=1e-6,
                               err_msg="Adam's step after restoring flowgrad's slots")


# --------------------------------------------------------------------------------------
# TF2: a Keras model and Adam through a CheckpointManager


def keras_model(tf):
    tf.keras.utils.set_random_seed(1) if hasattr(tf.keras.utils, "set_random_seed") else None
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4,
                                activation="relu"), tf.keras.layers.Dense(2)])


def write_keras(d):
    import flowgrad as tf
    model = keras_model(tf)
    opt = tf.keras.optimizers.Adam(0.01)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=opt), d,
                                         max_to_keep=2)
    y = np.ones((5, 2), np.float32)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(X) - y))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        manager.save()
    return {"output": enc(model(X).numpy()), "variables": [enc(v.numpy())
                                                            for v in opt.variables],
            "checkpoints": [os.path.basename(p) for p in manager.checkpoints]}


def check_keras(d, expected):
    import tensorflow as tf
    model = keras_model(tf)
    opt = tf.keras.optimizers.Adam(0.01)
    opt.build(model.trainable_variables)      # Keras 3 restores slots into a built optimizer
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
    assert [os.path.basename(p) for p in manager.checkpoints] == expected["checkpoints"]
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
    where = manager.latest_checkpoint
    np.testing.assert_allclose(model(X).numpy(), dec(expected["output"]), rtol=1e-6,
                               atol=1e-6, err_msg=where + ": the restored model's output")
    assert len(opt.variables) == len(expected["variables"])
    for i, (v, want) in enumerate(zip(opt.variables, expected["variables"])):
        same(v.numpy(), dec(want), "%s: optimizer variable %d (%s)" % (where, i, v.path))


CASES = ["tf1", "slices", "partitioned", "module", "v1_optimizer", "keras"]


def main(argv):
    if len(argv) != 3 or argv[1] not in ("write", "check"):
        raise SystemExit("usage: %s write|check DIR" % argv[0])
    out = argv[2]
    expected_path = os.path.join(out, "expected.json")
    if argv[1] == "write":
        expected = {}
        for name in CASES:
            d = os.path.join(out, name)
            os.makedirs(d, exist_ok=True)
            expected[name] = globals()["write_" + name](d)
        with open(expected_path, "w") as f:
            json.dump(expected, f, indent=1)
        print("flowgrad wrote %d checkpoint cases into %s" % (len(CASES), out))
        return
    with open(expected_path) as f:
        expected = json.load(f)
    failed = []
    for name in CASES:
        try:
            globals()["check_" + name](os.path.join(out, name), expected[name])
            print("ok   TensorFlow restores flowgrad's %s checkpoint" % name)
        except Exception:       # noqa: BLE001 - report every case, then fail
            failed.append(name)
            print("FAIL TensorFlow does not restore flowgrad's %s checkpoint:" % name)
            traceback.print_exc(file=sys.stdout)
    if failed:
        raise SystemExit("checkpoint interop failed: %s" % ", ".join(failed))


if __name__ == "__main__":
    main(sys.argv)
