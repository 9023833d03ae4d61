"""The aims' MLP-in-a-Session row without JAX: it says JAX is not measured, and why,
whether no Python with JAX is configured or the configured one cannot import JAX."""
import argparse
import os
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")


@pytest.fixture
def aims(monkeypatch):
    monkeypatch.syspath_prepend(BENCH)
    import aims
    return aims


def test_jax_python_absent(aims, monkeypatch, tmp_path):
    monkeypatch.setenv("FLOWGRAD_JAX_PYTHON", str(tmp_path / "no-python"))
    assert aims.bench_training.jax_python() is None


@pytest.mark.parametrize("jax", [None, "python-without-jax"])
def test_row_not_measured_without_jax(aims, monkeypatch, jax):
    if jax is not None:
        try:
            import jax as _  # noqa: F401
            pytest.skip("this Python has JAX")
        except ImportError:
            jax = sys.executable                        # its child fails to import JAX
    monkeypatch.setattr(aims.bench_session, "mnist_batches",
                        lambda size, steps, real=aims.bench_session.mnist_batches:
                        real(size, 3))
    rows = aims.mlp_session_row(argparse.Namespace(repeat=1, jax=jax), [1])
    assert len(rows) == 1
    aim, workload, measured, reached = rows[0]
    assert "1 thread" in workload
    assert "NumPy" in measured and "JAX" not in measured
    assert reached.startswith("not measured: JAX is not installed here")
