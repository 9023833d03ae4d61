"""Records real TensorFlow's test accuracy on the three Keras tutorial programs of
``examples/keras_tutorials`` (Sequential CNN with ``fit``, subclassed model with a custom
``train_step``, functional model saved to ``.keras`` and loaded), on the MNIST sample that
ships with flowgrad (1200 training and 300 test images), for several seeds:

    /work/venv-tf/bin/python tools/tf_reference/keras_tutorials.py   # TF 2.21 + Keras 3.15.1

writes ``tests/data/keras_tutorials/tensorflow_2.21.json`` ({program: {"args": [...],
"accuracy": [one per seed]}}), which tests/test_keras_tutorials.py compares flowgrad's
accuracy with (the programs run unchanged under ``python -m flowgrad``)."""
from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "flowgrad" / "datasets" / "data" / "mnist-sample"
OUT = ROOT / "tests" / "data" / "keras_tutorials" / "tensorflow_2.21.json"

#: The programs and their arguments (small, so the test is fast).
PROGRAMS = {"mnist_convnet.py": ["--epochs", "4"],
            "custom_train_step.py": ["--epochs", "4"],
            "functional_save_load.py": ["--epochs", "6"]}
SEEDS = [1, 2, 3]
_ACCURACY = re.compile(r"^Test accuracy: ([0-9.]+)$", re.M)


def _idx(path: Path) -> np.ndarray:
    """The uint8 array of a gzipped IDX file."""
    data = gzip.decompress(path.read_bytes())
    ndim = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def write_sample_npz(path: str) -> None:
    """Writes the MNIST sample as ``keras.datasets.mnist.load_data()``'s four arrays."""
    np.savez(path, x_train=_idx(SAMPLE / "train-images-idx3-ubyte.gz"),
             y_train=_idx(SAMPLE / "train-labels-idx1-ubyte.gz"),
             x_test=_idx(SAMPLE / "t10k-images-idx3-ubyte.gz"),
             y_test=_idx(SAMPLE / "t10k-labels-idx1-ubyte.gz"))


def run(program: str, args: list, data: str, seed: int, prefix: list, cwd: str,
        env: dict | None = None) -> float:
    """Test accuracy printed by one run of ``program`` (``prefix``: the interpreter).

    Raises:
      RuntimeError: the program failed or printed no accuracy.
    """
    cmd = prefix + [str(ROOT / "examples" / "keras_tutorials" / program), "--data", data,
                    "--seed", str(seed), *args]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=1200,
                         env=dict(env or os.environ, KERAS_BACKEND="tensorflow"))
    m = _ACCURACY.search(out.stdout)
    if out.returncode or m is None:
        raise RuntimeError("%s failed:\n%s" % (program, (out.stdout + out.stderr)[-3000:]))
    return float(m.group(1))


def main() -> None:
    """Runs every program for every seed with this interpreter and writes OUT."""
    record = {}
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "mnist_sample.npz")
        write_sample_npz(data)
        for program, args in PROGRAMS.items():
            acc = [run(program, args, data, s, [sys.executable], d) for s in SEEDS]
            record[program] = {"args": args, "seeds": SEEDS, "accuracy": acc}
            print(program, acc, flush=True)
    import tensorflow as tf  # noqa: PLC0415  (the version recorded)
    import keras  # noqa: PLC0415
    record["versions"] = {"tensorflow": tf.__version__, "keras": keras.__version__}
    OUT.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
