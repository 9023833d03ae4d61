"""Patterns of real TF2 programs (tools/program_corpus.py) that stopped on flowgrad and run
on TensorFlow 2.21, each as a small program run unchanged under ``python -m flowgrad``, or
in this process printing what TensorFlow 2.21 prints (tests/data/programs/patterns.json, made
by tools/tf_reference/program_patterns.py): ``pretty_printed_concrete_signatures``, nested
``input_signature`` (``dataset.element_spec``), a ``tf.random.Generator`` in a checkpoint and
a ``tf.Module``, Python outputs of a tf.function becoming tensors, MirroredStrategy over GPU
names on a machine without GPUs, NumPy behaviour's boolean and separated array indices,
Keras's fit and predict on a SparseTensor (RowPartition, tf.gather of RaggedTensors)."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import linecache
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.autograph.conversion import converted_call

ROOT = Path(__file__).resolve().parents[1]
REF = json.loads((ROOT / "tests" / "data" / "programs" / "patterns.json").read_text())


def _branchy(x):
    if x:
        return 1
    return 2


def _library_function(module: str) -> types.FunctionType:
    """A copy of ``_branchy`` (whose source AutoGraph can read) claiming to be ``module``'s."""
    f = types.FunctionType(_branchy.__code__, _branchy.__globals__, "_branchy")
    f.__module__ = module
    return f


@pytest.mark.parametrize("module", ["keras.src.saving.serialization_lib", "tf_keras.layers",
                                    "matplotlib.pyplot", "pandas.core", "PIL.Image",
                                    "tensorflow_probability.distributions", "absl.logging"])
def test_autograph_leaves_tensorflows_do_not_convert_libraries_alone(module):
    """TensorFlow's DoNotConvert list: Keras's own code (an optimizer building its slots in
    the first train step, deserializing its initializers) runs as written in a tf.function."""
    f = _library_function(module)
    assert converted_call(f) is f


def test_autograph_still_converts_user_code():
    f = _library_function("my_training_script")
    assert converted_call(f) is not f


def _run(tmp_path: Path, code: str) -> str:
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(code))
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND="tensorflow")
    out = subprocess.run([sys.executable, "-m", "flowgrad", str(program)], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-4000:]
    return out.stdout


@pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                    reason="needs the keras extra: pip install flowgrad[keras]")
def test_custom_training_step_builds_the_keras_optimizer_inside_the_function(tmp_path):
    """dragen1860's fc_train.py / the TF quickstart 'advanced': the first
    ``optimizer.apply_gradients`` runs inside a tf.function and creates the Adam slots."""
    out = _run(tmp_path, """
        import numpy as np
        import tensorflow as tf
        from tensorflow import keras

        rng = np.random.default_rng(0)
        x = rng.normal(size=(64, 8)).astype("float32")
        y = (x.sum(1) > 0).astype("int64")
        model = keras.Sequential([keras.layers.Dense(16, activation="relu"),
                                  keras.layers.Dense(2)])
        optimizer = keras.optimizers.Adam(0.05)
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        losses = [float(train_step(x, y)) for _ in range(30)]
        print(losses[0] > 2 * losses[-1], int(optimizer.iterations))
        """)
    assert out.split() == ["True", "30"]


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


@pytest.mark.parametrize("name", sorted(n for n in REF if not REF[n].get("alone")))
def test_program_prints_what_tensorflow_prints(eager, name):
    source = REF[name]["source"]
    filename = "<%s>" % name          # AutoGraph reads the functions' source from here
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, filename, "exec"), {"tf": tf, "__name__": "__main__"})
    assert out.getvalue() == REF[name]["stdout"]


@pytest.mark.parametrize("name", sorted(n for n in REF if REF[n].get("alone")))
def test_program_alone_prints_what_tensorflow_prints(tmp_path, name):
    """Programs that change TensorFlow for the rest of the process (NumPy behaviour) or need
    Keras run unchanged under ``python -m flowgrad``, each in a Python of its own."""
    if "tf.keras" in REF[name]["source"] and importlib.util.find_spec("keras") is None:
        pytest.skip("needs the keras extra: pip install flowgrad[keras]")
    assert _run(tmp_path, REF[name]["source"]) == REF[name]["stdout"]


def test_sparse_serialization_round_trips_in_a_graph():
    """The same ops in graph mode: static shapes as TensorFlow's, values after a Session run."""
    st = tf1.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, -2.0, 4.0], [3, 4])
    rows = tf1.io.serialize_many_sparse(st)
    back = tf1.io.deserialize_many_sparse(rows, tf1.float32, rank=2)
    assert rows.shape.as_list() == [None, 3]
    assert back.indices.shape.as_list() == [None, 2]
    with tf1.Session() as sess:
        indices, values, shape = sess.run([back.indices, back.values, back.dense_shape])
    assert indices.tolist() == [[0, 1], [2, 0], [2, 3]]
    assert values.tolist() == [1.5, -2.0, 4.0] and shape.tolist() == [3, 4]


def test_sparse_tensor_pickles_by_flowgrads_module(eager):
    """SparseTensor's module path is TensorFlow's (Keras 3's data adapters recognise it by
    that); pickle rebuilds one through flowgrad's module all the same."""
    import pickle
    st = tf.sparse.SparseTensor([[0, 1], [1, 2]], [2.0, 3.0], [2, 3])
    assert type(st).__module__ == "tensorflow.python.framework.sparse_tensor"
    back = pickle.loads(pickle.dumps(st))
    assert back.indices.numpy().tolist() == [[0, 1], [1, 2]]
    assert back.values.numpy().tolist() == [2.0, 3.0]
    assert back.dense_shape.numpy().tolist() == [2, 3]
