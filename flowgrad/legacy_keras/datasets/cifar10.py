"""``keras.datasets.cifar10``: read from Keras's cache directory, downloaded into it (with
SHA-256 verification) and unpacked when it is not there."""
from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import tarfile
import tempfile
from pathlib import Path

import numpy as np

from flowgrad.datasets.download import digest_check
from flowgrad.legacy_keras.datasets._cache import cached, download_required, fetch

_DIR = "cifar-10-batches-py"
_ARCHIVE = "cifar-10-python.tar.gz"
_ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
#: The archive's SHA-256 (the one Keras checks).
SHA256 = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"
_NAMES = ["data_batch_%d" % i for i in range(1, 6)] + ["test_batch"]


def _load_batch(path: Path) -> tuple:
    with open(path, "rb") as f:
        d = pickle.load(f, encoding="bytes")
    x = np.asarray(d[b"data"], np.uint8).reshape(-1, 3, 32, 32)
    y = np.asarray(d[b"labels"], np.uint8).reshape(-1, 1)
    return x, y


def _unpack(archive: Path, target: Path) -> None:
    """Unpack the archive's batch files into ``target``; each file appears whole or not at
    all."""
    tmp = Path(tempfile.mkdtemp(prefix=".cifar-", dir=target.parent))
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = [m for m in tar.getmembers()
                       if m.isfile() and m.name.startswith(_DIR + "/") and ".." not in m.name]
            for m in members:
                with tar.extractfile(m) as src, open(tmp / Path(m.name).name, "wb") as out:
                    shutil.copyfileobj(src, out)
        target.mkdir(exist_ok=True)
        for f in tmp.iterdir():
            os.replace(f, target / f.name)
    finally:
        with contextlib.suppress(OSError):
            shutil.rmtree(tmp)


def load_data() -> tuple:
    """``(x_train, y_train), (x_test, y_test)``: uint8 (50000, 32, 32, 3), (50000, 1), ...
    from ``~/.keras/datasets/cifar-10-batches-py/`` (downloaded and unpacked there when
    absent); DatasetDownloadRequiredError when it is absent and cannot be downloaded."""
    target = cached(_DIR)
    paths = [target / n for n in _NAMES]
    if not all(p.is_file() for p in paths):
        try:
            archive = fetch(_ARCHIVE, [_ORIGIN], digest_check(SHA256))
            _unpack(archive, target)
        except (OSError, tarfile.TarError) as exc:
            raise download_required("cifar10", [_DIR + "/" + n for n in _NAMES], _ORIGIN,
                                    str(exc)) from exc
    parts = [_load_batch(p) for p in paths]
    x_train = np.concatenate([x for x, _ in parts[:5]]).transpose(0, 2, 3, 1)
    y_train = np.concatenate([y for _, y in parts[:5]])
    x_test, y_test = parts[5]
    return (x_train, y_train), (x_test.transpose(0, 2, 3, 1), y_test)


__all__ = ["load_data"]
