"""The checkpoints a flowgrad ``tf.estimator.Estimator`` writes, read by TensorFlow 2.21.

TensorFlow 2.21 has no ``tf.estimator`` (2.16 removed it), so the Estimator's side runs on
flowgrad and TensorFlow checks what it wrote: its variable names, shapes and values, and
that ``tf.compat.v1.train.Saver`` restores them into the same model built by hand.

Two steps:

1. ``python tools/tf_reference/estimator_checkpoint.py write`` (flowgrad, from the project
   root): trains :func:`model_fn` for :data:`STEPS` steps with an Estimator and copies its
   last checkpoint (``checkpoint``, ``model.ckpt-<STEPS>.{index,data-00000-of-00001}``) to
   ``tests/data/estimator/model_dir/``.
2. ``/work/venv-tf/bin/python tools/tf_reference/estimator_checkpoint.py record``:
   TensorFlow lists that checkpoint (``tf.train.list_variables``), builds :func:`model_fn`'s
   PREDICT graph in ``tf.compat.v1`` graph mode, restores it with a ``Saver`` and records the
   variables and the predictions of :data:`PREDICT_X` to
   ``tests/data/estimator/tf_2_21.json``.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "estimator"
STEPS = 30
SEED = 7


def data() -> tuple:
    """The training data: 4 features, a linear target plus noise (float32)."""
    rng = np.random.RandomState(0)
    x = rng.randn(64, 4).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], np.float32) + 0.25
         + 0.01 * rng.randn(64, 1)).astype(np.float32)
    return x, y


#: The inputs whose predictions TensorFlow records.
PREDICT_X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)


def dense(tf, x, units, name):
    """``tf.compat.v1.layers.dense``'s variables (``<name>/kernel``, ``<name>/bias``) built
    with ``get_variable`` (TensorFlow 2.21 with Keras 3 has no ``tf.compat.v1.layers``)."""
    v1 = tf.compat.v1
    with v1.variable_scope(name):
        kernel = v1.get_variable("kernel", [x.shape[-1], units],
                                 initializer=v1.glorot_uniform_initializer())
        bias = v1.get_variable("bias", [units], initializer=v1.zeros_initializer())
    return tf.matmul(x, kernel) + bias


def model_fn(tf, features, labels, mode):
    """A two-layer regression model: ``hidden`` (relu, 5 units) then ``out`` (1 unit),
    trained by Adam (its slots are checkpointed too)."""
    hidden = tf.nn.relu(dense(tf, features["x"], 5, "hidden"))
    pred = dense(tf, hidden, 1, "out")
    if mode == "infer":
        return pred, None, None
    loss = tf.compat.v1.losses.mean_squared_error(labels, pred)
    train_op = tf.compat.v1.train.AdamOptimizer(0.05).minimize(
        loss, global_step=tf.compat.v1.train.get_global_step())
    return pred, loss, train_op


def write() -> None:
    """Trains with flowgrad's Estimator and copies the last checkpoint under tests/data."""
    sys.path.insert(0, str(ROOT))
    import flowgrad as tf

    def estimator_model_fn(features, labels, mode):
        pred, loss, train_op = model_fn(tf, features, labels, mode)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions=pred)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    x, y = data()
    model_dir = tempfile.mkdtemp()
    config = tf.estimator.RunConfig(tf_random_seed=SEED, keep_checkpoint_max=1)
    est = tf.estimator.Estimator(estimator_model_fn, model_dir=model_dir, config=config)
    est.train(lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(16),
              steps=STEPS)
    if DATA.joinpath("model_dir").exists():
        shutil.rmtree(DATA / "model_dir")
    (DATA / "model_dir").mkdir(parents=True)
    prefix = "model.ckpt-%d" % STEPS
    for name in (prefix + ".index", prefix + ".data-00000-of-00001"):
        shutil.copyfile(os.path.join(model_dir, name), DATA / "model_dir" / name)
    (DATA / "model_dir" / "checkpoint").write_text(
        'model_checkpoint_path: "%s"\nall_model_checkpoint_paths: "%s"\n' % (prefix, prefix))
    shutil.rmtree(model_dir)


def record() -> None:
    """TensorFlow reads and restores the committed checkpoint; writes tf_2_21.json."""
    import tensorflow as tf

    model_dir = str(DATA / "model_dir")
    listed = {name: list(shape) for name, shape in tf.train.list_variables(model_dir)}
    reader = tf.train.load_checkpoint(model_dir)
    values = {name: reader.get_tensor(name).tolist() for name in listed}
    with tf.Graph().as_default():
        tf.compat.v1.train.get_or_create_global_step()
        x = tf.compat.v1.placeholder(tf.float32, [None, 4])
        pred, _, _ = model_fn(tf, {"x": x}, None, "infer")
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session() as sess:
            saver.restore(sess, tf.train.latest_checkpoint(model_dir))
            restored = {v.op.name: sess.run(v).tolist()
                        for v in tf.compat.v1.global_variables()}
            predictions = sess.run(pred, {x: PREDICT_X}).tolist()
    out = {"tensorflow": tf.__version__, "latest": os.path.basename(
        tf.train.latest_checkpoint(model_dir)), "variables": listed, "values": values,
        "restored": restored, "predictions": predictions}
    (DATA / "tf_2_21.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    {"write": write, "record": record}[sys.argv[1]]()
