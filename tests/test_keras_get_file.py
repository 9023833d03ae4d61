"""tf.compat.v1.keras.utils.get_file (flowgrad/legacy_keras/data_utils.py): downloads into
Keras's cache once, checks hashes, extracts archives, fails with Keras's message."""
from __future__ import annotations

import hashlib
import io
import tarfile
import urllib.error
import urllib.request

import pytest

import flowgrad.compat.v1 as v1

URL = "https://example.org/data/train.csv"
DATA = b"a,b\n1,2\n"


def _serve(monkeypatch, files, calls):
    def urlopen(url, *args, **kwargs):
        calls.append(url)
        if url not in files:
            raise urllib.error.URLError("no route to %s" % url)
        return io.BytesIO(files[url])
    monkeypatch.setattr(urllib.request, "urlopen", urlopen)


def test_downloads_once_into_the_cache_and_checks_the_hash(tmp_path, monkeypatch):
    calls = []
    _serve(monkeypatch, {URL: DATA}, calls)
    sha = hashlib.sha256(DATA).hexdigest()
    path = v1.keras.utils.get_file(origin=URL, cache_dir=str(tmp_path), file_hash=sha)
    assert path == str(tmp_path / "datasets" / "train.csv")
    assert open(path, "rb").read() == DATA
    assert v1.keras.utils.get_file("train.csv", URL, cache_dir=str(tmp_path)) == path
    assert calls == [URL]                         # cached: no second download
    md5 = hashlib.md5(DATA).hexdigest()  # noqa: S324
    v1.keras.utils.get_file("train.csv", URL, cache_dir=str(tmp_path), md5_hash=md5)
    assert calls == [URL]
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected"):
        v1.keras.utils.get_file("other.csv", URL, cache_dir=str(tmp_path), file_hash="0" * 64)
    assert not (tmp_path / "datasets" / "other.csv").exists()   # nothing half-written
    with pytest.raises(Exception, match="URL fetch failure on https://example.org/missing"):
        v1.keras.utils.get_file("m", "https://example.org/missing", cache_dir=str(tmp_path))
    with pytest.raises(ValueError, match='Please specify the "origin" argument'):
        v1.keras.utils.get_file("x")


def test_extracts_tar_archives(tmp_path, monkeypatch):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        info = tarfile.TarInfo("flowers/a.txt")
        info.size = len(DATA)
        archive.addfile(info, io.BytesIO(DATA))
    url = "https://example.org/flowers.tgz"
    _serve(monkeypatch, {url: buffer.getvalue()}, [])
    path = v1.keras.utils.get_file("flowers", url, untar=True, cache_dir=str(tmp_path))
    assert path == str(tmp_path / "datasets" / "flowers")
    assert (tmp_path / "datasets" / "flowers" / "a.txt").read_bytes() == DATA
    v1.keras.utils.get_file("flowers.tgz", url, extract=True, cache_dir=str(tmp_path / "b"))
    assert (tmp_path / "b" / "datasets" / "flowers" / "a.txt").read_bytes() == DATA
