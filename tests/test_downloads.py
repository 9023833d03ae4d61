"""Dataset downloads (keras.datasets, flowgrad.datasets.download): checksum-verified, atomic,
never half-written, and forbidden by $FLOWGRAD_OFFLINE. Every test serves its own bytes."""
from __future__ import annotations

import hashlib
import io
import pickle
import tarfile
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from flowgrad.datasets import download as dl
from flowgrad.datasets import mnist as idx
from flowgrad.legacy_keras.datasets import DatasetDownloadRequiredError, cifar10, fashion_mnist
from flowgrad.legacy_keras.datasets import mnist as keras_mnist

SAMPLE = idx.SAMPLE_DIR


def _serve(monkeypatch, files: dict[str, bytes], calls: list | None = None) -> None:
    """urlopen serves ``files`` by URL (a missing URL fails like a dead host)."""
    def urlopen(url, *args, **kwargs):
        if calls is not None:
            calls.append(url)
        if url not in files:
            raise urllib.error.URLError(f"no route to {url}")
        return io.BytesIO(files[url])
    monkeypatch.setattr(urllib.request, "urlopen", urlopen)


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """An empty Keras cache and no full MNIST set anywhere."""
    for var in ("MNIST_DIR", "FLOWGRAD_DATA", dl.OFFLINE_ENV_VAR):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras"))
    monkeypatch.setattr(idx, "REPO_DIR", tmp_path / "no_repo")
    return tmp_path / "keras" / "datasets"


def _npz_bytes() -> bytes:
    (x, y), (xt, yt) = idx.load_arrays(sample=True)
    buf = io.BytesIO()
    np.savez(buf, x_train=x, y_train=y, x_test=xt, y_test=yt)
    return buf.getvalue()


def test_digest_check_names_the_source_and_both_digests():
    data = b"abc"
    dl.digest_check(hashlib.sha256(data).hexdigest())(data, "here")
    with pytest.raises(ValueError, match="SHA256 checksum mismatch for here: expected 00, got "
                       + hashlib.sha256(data).hexdigest()):
        dl.digest_check("00")(data, "here")
    with pytest.raises(ValueError, match="MD5 checksum mismatch"):
        dl.digest_check("00", "md5")(data, "here")


def test_keras_mnist_is_downloaded_into_the_cache_when_absent(keras_home, monkeypatch):
    data = _npz_bytes()
    monkeypatch.setattr(keras_mnist, "SHA256", hashlib.sha256(data).hexdigest())
    calls = []
    _serve(monkeypatch, {keras_mnist.ORIGIN: data}, calls)
    (x, y), (xt, yt) = keras_mnist.load_data()
    assert calls == [keras_mnist.ORIGIN]
    assert (keras_home / "mnist.npz").read_bytes() == data
    assert sorted(p.name for p in keras_home.iterdir()) == ["mnist.npz"]
    (sx, sy), _ = idx.load_arrays(sample=True)
    np.testing.assert_array_equal(x, sx)
    np.testing.assert_array_equal(y, sy)
    keras_mnist.load_data()                      # the cached copy: no second download
    assert calls == [keras_mnist.ORIGIN]


def test_keras_mnist_rejects_a_download_with_the_wrong_checksum(keras_home, monkeypatch):
    _serve(monkeypatch, {keras_mnist.ORIGIN: b"not the Keras file"})
    with pytest.warns(UserWarning, match="downloading it failed .*SHA256 checksum mismatch.*"
                      "using the sample"):
        (x, _), _ = keras_mnist.load_data()
    assert x.shape == (1200, 28, 28)
    assert list(keras_home.iterdir()) == []       # nothing half-written or unverified is kept


def test_offline_mode_never_opens_a_connection(keras_home, monkeypatch):
    calls = []
    _serve(monkeypatch, {}, calls)
    monkeypatch.setenv(dl.OFFLINE_ENV_VAR, "1")
    with pytest.warns(UserWarning, match="FLOWGRAD_OFFLINE is set"):
        keras_mnist.load_data()
    with pytest.raises(DatasetDownloadRequiredError, match="FLOWGRAD_OFFLINE"):
        fashion_mnist.load_data()
    with pytest.raises(idx.MnistNotFoundError, match="FLOWGRAD_OFFLINE"):
        idx.read_data_sets(keras_home.parent / "MNIST_data")
    assert calls == []


def test_fashion_mnist_download_falls_back_to_the_mirror(keras_home, monkeypatch):
    files, md5 = {}, {}
    for name in fashion_mnist.MD5:
        raw = (SAMPLE / name).read_bytes()        # MNIST's sample stands in for the files
        md5[name] = hashlib.md5(raw).hexdigest()
        files[fashion_mnist._MIRROR + name] = raw
    files[fashion_mnist._ORIGIN + "t10k-images-idx3-ubyte.gz"] = b"corrupt"
    monkeypatch.setattr(fashion_mnist, "MD5", md5)
    calls = []
    _serve(monkeypatch, files, calls)
    (x, y), (xt, yt) = fashion_mnist.load_data()
    assert len(calls) == 8                        # every file: origin first, then the mirror
    (sx, sy), (stx, sty) = idx.load_arrays(sample=True)
    np.testing.assert_array_equal(x, sx)
    np.testing.assert_array_equal(yt, sty)
    assert sorted(p.name for p in (keras_home / "fashion-mnist").iterdir()) == sorted(md5)


def _cifar_archive() -> tuple[bytes, dict]:
    rng = np.random.RandomState(0)
    batches = {}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name in cifar10._NAMES:
            batch = {b"data": rng.randint(0, 256, (4, 3072)).astype(np.uint8),
                     b"labels": list(rng.randint(0, 10, 4))}
            batches[name] = batch
            blob = pickle.dumps(batch)
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
    return buf.getvalue(), batches


def test_cifar10_is_downloaded_verified_and_unpacked(keras_home, monkeypatch):
    archive, batches = _cifar_archive()
    monkeypatch.setattr(cifar10, "SHA256", hashlib.sha256(archive).hexdigest())
    _serve(monkeypatch, {cifar10._ORIGIN: archive})
    (x, y), (xt, yt) = cifar10.load_data()
    assert x.shape == (20, 32, 32, 3) and y.shape == (20, 1) and xt.shape == (4, 32, 32, 3)
    first = batches["data_batch_1"][b"data"][0].reshape(3, 32, 32).transpose(1, 2, 0)
    np.testing.assert_array_equal(x[0], first)
    assert yt[:, 0].tolist() == batches["test_batch"][b"labels"]
    assert sorted(p.name for p in keras_home.iterdir()) == ["cifar-10-batches-py",
                                                            "cifar-10-python.tar.gz"]


def test_cifar10_with_a_bad_archive_leaves_nothing(keras_home, monkeypatch):
    archive, _ = _cifar_archive()
    _serve(monkeypatch, {cifar10._ORIGIN: archive})   # the real SHA-256 does not match
    with pytest.raises(DatasetDownloadRequiredError, match="SHA256 checksum mismatch"):
        cifar10.load_data()
    assert list(keras_home.iterdir()) == []


def test_a_failed_transfer_leaves_no_part_file(tmp_path, monkeypatch):
    class Broken(io.BytesIO):
        def read(self, n=-1):
            raise OSError("connection reset")
    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **k: Broken())
    dest = tmp_path / "f.bin"
    with pytest.raises(OSError, match="connection reset"):
        dl.download("https://example.invalid/f.bin", dest, dl.digest_check("00"))
    assert list(tmp_path.iterdir()) == []


def test_the_mnist_gzip_fetch_still_checks_content(tmp_path, monkeypatch):
    raw = (SAMPLE / idx.TEST_LABELS).read_bytes()   # a valid gzip, but not the full set's file
    _serve(monkeypatch, {m + idx.TEST_LABELS: raw for m in idx.MIRRORS})
    with pytest.raises(idx.MnistNotFoundError, match="checksum mismatch"):
        idx._download_missing(tmp_path, [idx.TEST_LABELS], None, True)
    assert list(Path(tmp_path).iterdir()) == []
