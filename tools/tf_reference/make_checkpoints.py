"""Writes small checkpoints with TensorFlow 2.21 for flowgrad's checkpoint interop tests.

Run with the separate TensorFlow environment (tests never need TensorFlow):

    /work/venv-tf/bin/python tools/tf_reference/make_checkpoints.py

Writes into tests/data/tf_checkpoints/:
- ``raw/bundle``: one tensor bundle written by the ``SaveV2`` op with sorted keys, one tensor
  per dtype TensorFlow checkpoints (flowgrad's writer must produce the same bytes);
- ``tf1/``: a ``tf.compat.v1.train.Saver`` checkpoint (graph mode) of variables of several
  dtypes, a variable partitioned in two slices, Adam's slots and the global step;
- ``keras/``: a ``CheckpointManager`` directory (``max_to_keep=2``, three saves) of
  ``tf.train.Checkpoint(model=<Sequential of two Dense>, optimizer=<Keras Adam>)`` after
  training steps;
- ``module/``: ``tf.train.Checkpoint(module=<tf.Module>)`` saved with ``save``;
- ``functional/``, ``subclassed/``: ``tf.train.Checkpoint(model=...)`` of a functional and
  a subclassed Keras model (Dense, BatchNormalization, Embedding) with set values;
- ``expected.json``: every key of every checkpoint with TensorFlow's dtype, shape and value
  (``tf.train.load_checkpoint``), the object graphs' node listing, and the Keras model's
  output on a fixed input.

Arrays are ``{"dtype", "shape", "hex"}`` (the little-endian bytes), strings as hex lists.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tf_checkpoints"


def enc(v: np.ndarray) -> dict:
    """A JSON-able form of an array."""
    v = np.asarray(v)
    if v.dtype.kind in "OS":
        return {"dtype": "string", "shape": list(v.shape),
                "strings": [bytes(x).hex() for x in v.ravel()]}
    name = "bfloat16" if v.dtype.name == "bfloat16" else v.dtype.name
    return {"dtype": name, "shape": list(v.shape),
            "hex": np.ascontiguousarray(v).tobytes().hex()}


def dump(prefix: str) -> dict:
    """{key: encoded value} of every entry of a checkpoint, as TensorFlow reads it."""
    reader = tf.train.load_checkpoint(prefix)
    out = {}
    for key in sorted(reader.get_variable_to_shape_map()):
        if key == "_CHECKPOINTABLE_OBJECT_GRAPH":
            continue
        out[key] = enc(reader.get_tensor(key))
    return out


RAW = {
    "a_float32": np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
    "b_float64": np.array([1.5, -2.25, np.pi]),
    "c_float16": np.array([0.5, -1, 65504], np.float16),
    "d_bfloat16": tf.constant([1.0, -2.5, 3.140625], tf.bfloat16).numpy(),
    "e_int8": np.array([-128, 0, 127], np.int8),
    "f_int16": np.array([-3, 4], np.int16),
    "g_int32": np.array([[1, -2], [3, 2**31 - 1]], np.int32),
    "h_int64": np.array(-(2**40), np.int64),
    "i_uint8": np.array([0, 255], np.uint8),
    "j_uint16": np.array([65535], np.uint16),
    "k_bool": np.array([True, False, True]),
    "l_complex64": np.array([1 + 2j, -3j], np.complex64),
    "m_complex128": np.array([[0.5 - 1j]], np.complex128),
    "n_string": np.array([b"", b"hello", bytes(range(200))], dtype=object),
    "o_scalar_string": np.array(b"flowgrad", dtype=object),
    "p_empty": np.zeros((0, 3), np.float32),
}


def write_raw() -> None:
    d = OUT / "raw"
    d.mkdir(parents=True)
    names = sorted(RAW)
    tf.raw_ops.SaveV2(prefix=str(d / "bundle"), tensor_names=names,
                      shape_and_slices=[""] * len(names),
                      tensors=[tf.constant(RAW[n]) for n in names])


def write_tf1() -> dict:
    d = OUT / "tf1"
    d.mkdir(parents=True)
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        v1.set_random_seed(1)
        w = v1.get_variable("dense/kernel", initializer=np.arange(6, dtype=np.float32)
                            .reshape(3, 2) / 10)
        b = v1.get_variable("dense/bias", initializer=np.array([0.1, -0.2], np.float32))
        part = v1.get_variable("part", shape=[5, 3],
                               initializer=v1.random_normal_initializer(seed=2),
                               partitioner=v1.fixed_size_partitioner(2))
        v1.get_variable("f64", initializer=np.array([1.25, -2.5]), trainable=False)
        v1.get_variable("f16", initializer=np.array([0.5, 3], np.float16), trainable=False)
        v1.get_variable("bf16", initializer=tf.constant([1.5, -2.0], tf.bfloat16),
                        trainable=False)
        v1.get_variable("i64", initializer=np.array([2**40, -1], np.int64), trainable=False)
        v1.get_variable("i32", initializer=np.array(7, np.int32), trainable=False)
        v1.get_variable("flag", initializer=np.array([True, False]), trainable=False)
        v1.get_variable("names", initializer=tf.constant([b"a", b"bc"]), trainable=False)
        step = v1.train.get_or_create_global_step()
        x = tf.constant([[1.0, 2.0, 3.0]])
        loss = tf.reduce_sum(tf.matmul(x, w) + b) + tf.reduce_sum(tf.square(part))
        train = v1.train.AdamOptimizer(0.1).minimize(loss, global_step=step)
        saver = v1.train.Saver(max_to_keep=3, save_relative_paths=True)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(2):
                sess.run(train)
            saver.save(sess, str(d / "model.ckpt"), global_step=step)
    return dump(str(d / "model.ckpt-2"))


def write_keras() -> dict:
    d = OUT / "keras"
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4,
                                 activation="relu"), tf.keras.layers.Dense(2)])
    opt = tf.keras.optimizers.Adam(0.01)
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    manager = tf.train.CheckpointManager(ckpt, str(d), max_to_keep=2)
    x = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)
    y = np.ones((5, 2), np.float32)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        manager.save()
    return {"values": dump(manager.latest_checkpoint), "input": enc(x),
            "output": enc(model(x).numpy()), "latest": os.path.basename(
                manager.latest_checkpoint), "checkpoints": [os.path.basename(p)
                                                           for p in manager.checkpoints]}


def functional_model():
    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, activation="relu")(inp)
    return tf.keras.Model(inp, tf.keras.layers.Dense(2)(h))


class Subclassed(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(4)
        self.bn = tf.keras.layers.BatchNormalization()
        self.emb = tf.keras.layers.Embedding(5, 3)

    def call(self, x):
        return self.bn(self.d1(x) + tf.reduce_sum(self.emb(tf.constant([1, 2]))))


def write_keras_kinds() -> dict:
    """A functional and a subclassed Keras model (Dense, BatchNormalization, Embedding),
    their variables set to 0.1, 0.2, ... and saved; with their outputs."""
    out = {}
    x = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)
    for name, make in (("functional", functional_model), ("subclassed", Subclassed)):
        model = make()
        model(x)
        for i, v in enumerate(model.variables):
            v.assign(np.linspace(0.1, 1.0, int(np.prod(v.shape)), dtype=np.float32)
                     .reshape(v.shape) * (i + 1))
        prefix = tf.train.Checkpoint(model=model).save(str(OUT / name / "ckpt"))
        out[name] = {"values": dump(prefix), "output": enc(model(x).numpy())}
    return out


class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.5, name="scale")


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.arange(4, dtype=np.float64).reshape(2, 2), name="w")
        self.steps = tf.Variable(np.int64(41), trainable=False)
        self.inner = Inner()
        self.table = [tf.Variable([1, 2, 3], dtype=tf.int32), tf.Variable(True)]


def write_module() -> dict:
    d = OUT / "module"
    m = Outer()
    m.steps.assign_add(1)
    prefix = tf.train.Checkpoint(module=m).save(str(d / "ckpt"))
    return dump(prefix)


def object_graph(prefix: str) -> list:
    """[(node id, children, attributes' checkpoint keys, slot variables)] of a checkpoint."""
    from tensorflow.core.protobuf import trackable_object_graph_pb2
    g = trackable_object_graph_pb2.TrackableObjectGraph()
    g.ParseFromString(tf.train.load_checkpoint(prefix).get_tensor(
        "_CHECKPOINTABLE_OBJECT_GRAPH"))
    return [[i, {c.local_name: c.node_id for c in n.children},
             [a.checkpoint_key for a in n.attributes],
             [[s.original_variable_node_id, s.slot_name, s.slot_variable_node_id]
              for s in n.slot_variables]] for i, n in enumerate(g.nodes)]


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    write_raw()
    expected = {"raw": dump(str(OUT / "raw" / "bundle")), "tf1": write_tf1(),
                "keras": write_keras(), "module": write_module()}
    expected.update(write_keras_kinds())
    expected["object_graphs"] = {
        "keras": object_graph(str(OUT / "keras" / expected["keras"]["latest"])),
        "module": object_graph(str(OUT / "module" / "ckpt-1"))}
    for meta in (OUT / "tf1").glob("*.meta"):
        meta.unlink()                  # the MetaGraph is the graphdef tests' business
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
