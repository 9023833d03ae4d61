"""``tf.compat.v1.keras.utils.get_file``: downloads a file into Keras's cache
(``~/.keras/datasets``) once, checks its hash, and extracts tar and zip archives, as TF 2.15's
Keras did."""
from __future__ import annotations

import hashlib
import os
import tarfile
import urllib.error
import urllib.parse
import zipfile
from pathlib import Path

from flowgrad.datasets.download import download


def _hash_file(path: str, algorithm: str) -> str:
    digest = hashlib.sha256() if algorithm == "sha256" else hashlib.md5()  # noqa: S324
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _algorithm(file_hash: str, hash_algorithm: str) -> str:
    if hash_algorithm == "sha256" or (hash_algorithm == "auto" and len(file_hash) == 64):
        return "sha256"
    return "md5"


def validate_file(fpath: str, file_hash: str, algorithm: str = "auto") -> bool:
    """Whether the file at ``fpath`` has the hash ``file_hash``.

    Args:
      fpath: The file.
      file_hash: The expected sha256 or md5 hex digest.
      algorithm: ``"sha256"``, ``"md5"`` or ``"auto"`` (by the hash's length).

    Returns:
      True when the hashes agree.
    """
    return str(_hash_file(fpath, _algorithm(file_hash, algorithm))) == str(file_hash)


def _extract_archive(file_path: str, path: str, archive_format: str | list | None) -> bool:
    """Extracts a tar or zip archive into ``path``; whether it was one."""
    if archive_format is None:
        return False
    if archive_format == "auto":
        archive_format = ["tar", "zip"]
    if isinstance(archive_format, str):
        archive_format = [archive_format]
    for kind in archive_format:
        if kind == "tar" and tarfile.is_tarfile(file_path):
            with tarfile.open(file_path) as archive:
                archive.extractall(path, filter="data")
            return True
        if kind == "zip" and zipfile.is_zipfile(file_path):
            with zipfile.ZipFile(file_path) as archive:
                archive.extractall(path)
            return True
    return False


def get_file(fname: str | None = None, origin: str | None = None, untar: bool = False,
             md5_hash: str | None = None, file_hash: str | None = None,
             cache_subdir: str = "datasets", hash_algorithm: str = "auto",
             extract: bool = False, archive_format: str | list | None = "auto",
             cache_dir: str | None = None) -> str:
    """Downloads ``origin`` into ``cache_dir/cache_subdir/fname`` unless it is there already
    (with the right hash), and returns its path.

    Args:
      fname: The file's name in the cache (the URL's last component when None).
      origin: The URL.
      untar: Deprecated: ``fname`` is a folder extracted from ``fname + ".tar.gz"``.
      md5_hash: Deprecated: an md5 ``file_hash``.
      file_hash: The expected sha256 or md5 of the file (checked after downloading; a cached
        file that does not match is downloaded again).
      cache_subdir: The folder under ``cache_dir`` (an absolute path is used as is).
      hash_algorithm: ``"md5"``, ``"sha256"`` or ``"auto"``.
      extract: Also extract the file (a tar or zip archive) beside it.
      archive_format: ``"auto"``, ``"tar"``, ``"zip"``, a list of them, or None.
      cache_dir: The cache (``~/.keras``, else ``/tmp/.keras`` when that is not writable).

    Returns:
      The path of the file (of the extracted folder with ``untar``).

    Raises:
      ValueError: no ``origin``, or a downloaded file whose hash does not match.
      Exception: the download failed (Keras's ``URL fetch failure on ...``).
    """
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to '
                         "download).")
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    datadir_base = os.path.expanduser(cache_dir)
    if not os.access(datadir_base, os.W_OK) and os.path.exists(datadir_base):
        datadir_base = os.path.join("/tmp", ".keras")
    datadir = os.path.join(datadir_base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                             "Please specify the `fname` as the input param.")
    fname = os.fspath(fname)
    if untar:
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)
    needed = not os.path.exists(fpath)
    if not needed and file_hash is not None and not validate_file(fpath, file_hash,
                                                                  hash_algorithm):
        print(f"A local file was found, but it seems to be incomplete or outdated because "
              f"the {_algorithm(file_hash, hash_algorithm)} file hash does not match the "
              f"original value of {file_hash} so we will re-download the data.")
        needed = True
    if needed:
        def check(data: bytes, source: str) -> None:
            if file_hash is None:
                return
            algorithm = _algorithm(file_hash, hash_algorithm)
            actual = hashlib.new(algorithm, data).hexdigest()
            if actual != file_hash:
                raise ValueError(f"Incomplete or corrupted file detected. The {algorithm} file "
                                 f"hash does not match the provided value of {file_hash}.")
        try:
            download(origin, Path(fpath), check)
        except urllib.error.HTTPError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.code} -- {e.msg}") from e
        except urllib.error.URLError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.errno} -- {e.reason}") from e
    if untar:
        if not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, archive_format="tar")
        return untar_fpath
    if extract:
        _extract_archive(fpath, datadir, archive_format)
    return fpath
