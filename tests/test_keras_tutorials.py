"""The three Keras tutorial programs of examples/keras_tutorials (a Sequential CNN trained
with ``fit``, a subclassed model with a custom ``train_step``, a functional model saved to
``.keras`` and loaded back) run unchanged with ``python -m flowgrad`` and reach TensorFlow's
test accuracy within noise. TensorFlow 2.21's accuracies (three seeds each, the MNIST sample
that ships with flowgrad) come from tools/tf_reference/keras_tutorials.py."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from flowgrad.datasets import mnist

if importlib.util.find_spec("keras") is None or importlib.util.find_spec("optree") is None:
    pytest.skip("needs the keras extra: pip install flowgrad[keras]", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "flowgrad" / "datasets" / "data" / "mnist-sample"
RECORD = json.loads((ROOT / "tests" / "data" / "keras_tutorials" / "tensorflow_2.21.json")
                    .read_text())

#: How far flowgrad's test accuracy may be from TensorFlow's mean over its seeds: about two
#: and a half binomial standard errors of 300 test images at 85% accuracy (0.02 each); TF's
#: own seeds spread over up to 0.03.
TOLERANCE = 0.05


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mnist") / "mnist_sample.npz"
    np.savez(path, x_train=mnist.extract_images(SAMPLE / "train-images-idx3-ubyte.gz")[..., 0],
             y_train=mnist.extract_labels(SAMPLE / "train-labels-idx1-ubyte.gz"),
             x_test=mnist.extract_images(SAMPLE / "t10k-images-idx3-ubyte.gz")[..., 0],
             y_test=mnist.extract_labels(SAMPLE / "t10k-labels-idx1-ubyte.gz"))
    return path


def run_tutorial(program: str, data: Path, cwd: Path) -> str:
    """stdout of ``python -m flowgrad`` on the program, with the recorded arguments."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND="tensorflow")
    env.pop("FLOWGRAD_TF_KERAS", None)
    cmd = [sys.executable, "-m", "flowgrad", str(ROOT / "examples" / "keras_tutorials" / program),
           "--data", str(data), "--seed", "1", *RECORD[program]["args"]]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=1200)
    assert out.returncode == 0, out.stderr[-4000:]
    return out.stdout


def accuracy(out: str, label: str = "Test accuracy") -> float:
    return float(re.search(r"^%s: ([0-9.]+)$" % label, out, re.M).group(1))


@pytest.mark.parametrize("program", ["mnist_convnet.py", "custom_train_step.py",
                                     "functional_save_load.py"])
def test_tutorial_reaches_tensorflows_accuracy(program, data, tmp_path):
    out = run_tutorial(program, data, tmp_path)
    tf_accuracy = RECORD[program]["accuracy"]
    assert abs(accuracy(out) - np.mean(tf_accuracy)) <= TOLERANCE, (accuracy(out), tf_accuracy)
    if program == "functional_save_load.py":
        # the model loaded back from its .keras file scores exactly as the one saved
        assert (tmp_path / "my_model.keras").exists()
        assert accuracy(out, "Loaded model test accuracy") == accuracy(out)
