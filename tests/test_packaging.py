"""Packaging: the wheel carries only the MNIST sample and TensorFlow's op definitions, the sdist
what the tests need."""
from __future__ import annotations

import fnmatch
from pathlib import Path


from flowgrad.datasets import mnist
from pyproject_toml import pyproject

REPO = Path(__file__).resolve().parents[1]


def test_the_package_holds_only_the_small_mnist_sample():
    package_files = [p for p in (REPO / "flowgrad").rglob("*") if p.is_file()
                     and "__pycache__" not in p.parts]
    data = [p for p in package_files if p.suffix not in (".py", ".pyi", ".typed")]
    assert sum(p.stat().st_size for p in data) < 500_000, sorted(map(str, data))
    assert sorted(p.name for p in mnist.SAMPLE_DIR.iterdir()) == sorted(
        [*mnist.FILENAMES, "SHA256SUMS"])
    package_data = pyproject()["tool"]["setuptools"]["package-data"]
    assert package_data == {"flowgrad.datasets": ["data/mnist-sample/*"],
                            # PEP 561's marker; the tensorflow package python -m
                            # flowgrad serves to its child processes
                            "flowgrad": ["py.typed", "dropin_site/tensorflow/__init__.py"],
                            # TensorFlow's op definitions, for writing its GraphDefs
                            "flowgrad.saved_model": ["tf_op_defs.pb.gz"]}


def test_the_wheel_ships_the_pep_561_marker():
    # PEP 561: without py.typed in the installed package, type checkers ignore its hints.
    package_data = pyproject()["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["flowgrad"]
    assert (REPO / "flowgrad" / "py.typed").is_file()


def test_the_full_set_is_in_the_repository_outside_the_package():
    assert mnist.REPO_DIR == REPO / "data" / "mnist"
    sums = (REPO / "data" / "mnist" / "SHA256SUMS").read_text().split()
    assert dict(zip(sums[1::2], sums[0::2])) == mnist.SHA256
    for name in mnist.FILENAMES:
        assert (REPO / "data" / "mnist" / name).stat().st_size > 4000


def test_the_sdist_manifest_carries_tests_examples_benchmarks_and_data():
    rules = [line.split() for line in (REPO / "MANIFEST.in").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    included = set()
    for words in rules:
        if words[0] == "recursive-include":
            included |= {(words[1], pattern) for pattern in words[2:]}
        elif words[0] in ("include", "graft"):
            included |= {(w, "") for w in words[1:]}
    for folder in ("tests", "examples", "benchmarks"):
        assert (folder, "*.py") in included
    for helper in ("tests/conftest.py", "tests/gradcheck.py", "tests/source_lines.py"):
        assert (REPO / helper).is_file()
    wanted = [f"data/mnist/{n}" for n in (*mnist.FILENAMES, "SHA256SUMS")]
    patterns = [w for w, extra in included if not extra]
    for path in wanted:
        assert any(fnmatch.fnmatch(path, p) for p in patterns), path


def test_optional_extras():
    extras = pyproject()["project"]["optional-dependencies"]
    assert any(d.startswith("ml_dtypes") for d in extras["bfloat16"])
    assert any(d.startswith("ml_dtypes") for d in extras["dev"])
    assert pyproject()["project"]["dependencies"] == ["numpy>=2.0"]
