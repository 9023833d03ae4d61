"""tf.train.Checkpoint of the real Keras 3's model and optimizer, as TensorFlow writes and
reads it: the same keys (Keras 3's object graph, e.g. optimizer/_trainable_variables/0) and
values, restoring TensorFlow's files into fresh objects (Adam's slots and iterations too,
created when the optimizer is restored), and TensorFlow's numbers afterwards.

tools/tf_reference/keras_checkpoint_program.py is the program; TensorFlow 2.21 + Keras wrote
tests/data/keras/checkpoint_keras3/ (the checkpoint and what it printed)."""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                reason="needs the keras extra")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "keras", "checkpoint_keras3")
PROGRAM = os.path.join(ROOT, "tools", "tf_reference", "keras_checkpoint_program.py")


def _run(mode, folder):
    out = subprocess.run([sys.executable, "-m", "flowgrad", PROGRAM, mode, folder],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT, "KERAS_BACKEND": "tensorflow"})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_saving_writes_tensorflows_keys_and_values_and_restoring_gives_its_numbers(tmp_path):
    assert _run("save", str(tmp_path)) == open(os.path.join(DATA, "save_tf_2_21.txt")).read()
    assert _run("load", str(tmp_path)) == open(os.path.join(DATA, "load_tf_2_21.txt")).read()


def test_restoring_tensorflows_checkpoint(tmp_path):
    for name in ("checkpoint", "ck-1.index", "ck-1.data-00000-of-00001"):
        shutil.copy(os.path.join(DATA, name), tmp_path)
    assert _run("load", str(tmp_path)) == open(os.path.join(DATA, "load_tf_2_21.txt")).read()
