"""The examples: the seed's MNIST softmax regression (TensorFlow's numbers, both variants),
clipping with compute_gradients/apply_gradients, and gradient accumulation."""
import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# TensorFlow 2.21's output for the seed's settings, batches in file order
# (shared/seed-snippets/01_mnist_softmax_optimizer.expected.txt).
TF_EPOCH_COSTS = [1.182139039, 0.664710164, 0.552598774, 0.498582602, 0.465486556,
                  0.442599922, 0.425566763, 0.412248313, 0.401458025, 0.392480284]
TF_ACCURACY = 0.874


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mnist_softmax_gradients_variant_prints_tensorflows_numbers():
    out = io.StringIO()
    result = load("mnist_softmax").train("gradients", epochs=10, progress=False, out=out)
    np.testing.assert_allclose(result["costs"], TF_EPOCH_COSTS, rtol=1e-5)
    assert result["accuracy"] == pytest.approx(TF_ACCURACY, abs=1e-6)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Epoch: 0001 cost= 1.18213")
    assert lines[10:] == ["Optimization Finished!", "Accuracy: 0.874"]


# One BLAS thread for the command runs: these small matrix products gain nothing from
# threads, and a threaded BLAS on a machine busy with other processes (parallel tests) can
# be many times slower, which would measure the machine rather than flowgrad.
SINGLE_THREAD = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                     MKL_NUM_THREADS="1")


def run_mnist_softmax(*args):
    """Runs the example; returns the process and the CPU seconds it used.

    CPU time rather than wall time: on a machine shared with other processes the wall
    time measures the machine's load."""
    before = os.times()
    proc = subprocess.run([sys.executable, str(EXAMPLES / "mnist_softmax.py"), *args],
                          capture_output=True, text=True, env=SINGLE_THREAD, timeout=600)
    after = os.times()
    cpu = (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)
    return proc, cpu


def test_mnist_softmax_command_reaches_the_seeds_accuracy_in_under_30_s():
    proc, took = run_mnist_softmax("--no-progress")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 12
    costs = [float(line.split("cost=")[1]) for line in lines[:10]]
    assert [line.split(" cost=")[0] for line in lines[:10]] == [
        "Epoch: %04d" % i for i in range(1, 11)]
    np.testing.assert_allclose(costs, TF_EPOCH_COSTS, rtol=1e-5)
    assert lines[10] == "Optimization Finished!"
    accuracy = float(lines[11].split()[1])
    assert accuracy >= 0.87 and accuracy == pytest.approx(TF_ACCURACY, abs=1e-6)
    assert 0 < took < 30, "the seed's 10 epochs took %.1f s of CPU time" % took


def test_mnist_softmax_command_line_options():
    proc, _ = run_mnist_softmax("--epochs", "1", "--shuffle", "--no-progress")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Epoch: 0001 cost= 1.1")
    assert lines[0] != "Epoch: 0001 cost= 1.182139039"       # shuffled batches
    assert lines[1] == "Optimization Finished!" and lines[2].startswith("Accuracy: 0.8")
    proc, _ = run_mnist_softmax("--variant", "adam")
    assert proc.returncode == 2 and "invalid choice: 'adam'" in proc.stderr


def test_mnist_softmax_progress_bar_uses_tqdm_when_installed(monkeypatch):
    import types
    bars = []

    class FakeTqdm:
        def __init__(self, total, **kwargs):
            self.total, self.n = total, 0
            bars.append(self)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n=1):
            self.n += n
    progress_bar = load("mnist_softmax").progress_bar
    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    with progress_bar(7, enabled=True) as bar:
        bar.update()
    assert bars[0].total == 7 and bars[0].n == 1
    with progress_bar(7, enabled=False) as bar:
        assert bar is None
    monkeypatch.setitem(sys.modules, "tqdm", None)        # not installed: no bar, no error
    with progress_bar(7, enabled=True) as bar:
        assert bar is None


def test_clip_and_apply_clips_early_steps_and_converges():
    history = load("clip_and_apply").train(steps=40, clip_norm=5.0, out=io.StringIO())
    norms, clipped = np.array(history["norm"]), np.array(history["clipped_norm"])
    assert norms[0] > 5.0 and clipped[0] == pytest.approx(5.0, rel=1e-5)
    assert np.all(clipped <= 5.0 * (1 + 1e-5))
    small = norms < 5.0
    assert small.any()
    np.testing.assert_allclose(clipped[small], norms[small], rtol=1e-5)
    assert history["loss"][-1] < 0.05 < history["loss"][0]
    np.testing.assert_allclose(history["w"].ravel(), [2.0, -3.0, 1.0], atol=0.05)


def test_gradient_accumulation_matches_full_batch_training():
    out = io.StringIO()
    diff = load("gradient_accumulation").run(steps=20, batch_size=100, micro_batches=4,
                                              out=out)
    assert diff < 1e-6
    assert "max |accumulated - full batch|" in out.getvalue()
    with pytest.raises(ValueError, match="must be a multiple of micro_batches"):
        load("gradient_accumulation").run(batch_size=10, micro_batches=3)
