"""The TF checkpoint guide's delayed restoration with the real Keras 3: a model and Adam
restored from a CheckpointManager's latest checkpoint before they are built get the kernel,
bias, ``iterations`` and Adam's slots when Keras creates them (TensorFlow's restore on
creation: ``_deferred_dependencies``, an optimizer's ``_variables`` list tracked as it grows).

tools/tf_reference/keras_deferred_restore.py is the program; TensorFlow 2.21 + Keras 3.15.1
wrote tests/data/keras/deferred_restore/ (its checkpoints and what it printed)."""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                reason="needs the keras extra")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "keras", "deferred_restore")
PROGRAM = os.path.join(ROOT, "tools", "tf_reference", "keras_deferred_restore.py")


def _run(*args):
    out = subprocess.run([sys.executable, "-m", "flowgrad", PROGRAM, *args],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT, "KERAS_BACKEND": "tensorflow"})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def _recorded(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


@pytest.mark.parametrize("model_class", ["Net", "BuiltNet"])
def test_restoring_tensorflows_checkpoint_before_the_model_is_built(tmp_path, model_class):
    # the guide's Net is built by its first call; TF 2.21's Keras loses its kernel there (a
    # restore failing inside a symbolic trace), flowgrad restores it as TF does for BuiltNet
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    assert _run("load", str(tmp_path), model_class) == _recorded("load_BuiltNet_tf_2_21.txt")


def test_saving_as_tensorflow_then_restoring_before_the_build(tmp_path):
    assert _run("save", str(tmp_path)) == _recorded("save_tf_2_21.txt")
    assert _run("load", str(tmp_path), "Net") == _recorded("load_BuiltNet_tf_2_21.txt")


def test_the_guides_checkpoint_with_its_iterator_goes_on_with_the_next_elements(tmp_path):
    # Checkpoint(step=, optimizer=, net=, iterator=) as in the guide: the restored run reads
    # the elements after the saved position (TensorFlow's numbers, from its own checkpoints)
    assert _run("save", str(tmp_path), "iterator") == _recorded("save_iterator_tf_2_21.txt")
    assert _run("load", str(tmp_path), "Net", "iterator") == \
        _recorded("load_BuiltNet_iterator_tf_2_21.txt")
