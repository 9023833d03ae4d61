"""Where Keras keeps downloaded datasets (``$KERAS_HOME/datasets`` or ``~/.keras/datasets``),
fetching a file into it with checksum verification, and the error when that fails."""
from __future__ import annotations

import http.client
import os
from collections.abc import Callable
from pathlib import Path

from flowgrad.datasets.download import OFFLINE_ENV_VAR, download


class DatasetDownloadRequiredError(OSError):
    """A dataset is not in the Keras cache directory and could not be downloaded."""


def cache_dir() -> Path:
    """Keras's dataset cache directory: ``$KERAS_HOME/datasets``, else ``~/.keras/datasets``."""
    base = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    return Path(base) / "datasets"


def cached(name: str) -> Path:
    """The cache path of ``name`` (an absolute ``name`` is used as it is).

    Args:
        name: A file name under the cache folder, or an absolute path.

    Returns:
        The path (it need not exist).
    """
    return cache_dir() / name


def fetch(name: str, urls: list[str], check: Callable[[bytes, str], object]) -> Path:
    """``cached(name)``, downloaded from the first of ``urls`` that works when it is absent
    (each download is checked by ``check`` before it is kept).

    Args:
        name: The file's name in the cache.
        urls: Where to download it from, tried in order.
        check: ``check(data, url)`` raises ValueError when a download is not the file.

    Returns:
        The cached file's path.

    Raises:
        OSError: no URL gave the file (naming every URL tried and why it failed).
    """
    dest = cached(name)
    if dest.is_file():
        return dest
    errors = []
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OSError(f"cannot create {dest.parent}: {exc}") from exc
    for url in urls:
        try:
            download(url, dest, check)
            return dest
        except (OSError, http.client.HTTPException, ValueError) as exc:
            errors.append(f"{url}: {exc}")
    raise OSError("; ".join(errors))


def download_required(dataset: str, files: list, origin: str,
                      reason: str) -> DatasetDownloadRequiredError:
    """The error to raise when a dataset's files are not cached and cannot be downloaded.

    Args:
        dataset: The dataset's name (``mnist``, ``cifar10``, ...).
        files: The files it needs, by cache name.
        origin: Where Keras downloads them from.
        reason: Why the download failed.

    Returns:
        The error, naming where to put the files.
    """
    where = ", ".join(str(cached(f)) for f in files)
    return DatasetDownloadRequiredError(
        "keras.datasets.%s.load_data() needs %s, which Keras downloads from %s; the download "
        "failed (%s). Copy the file(s) there from a machine that has them (Keras keeps them "
        "in ~/.keras/datasets) and call load_data() again, or retry with a network "
        "(unset $%s if it is set)." % (dataset, where, origin, reason, OFFLINE_ENV_VAR))


__all__ = ["DatasetDownloadRequiredError", "cache_dir", "cached", "download_required", "fetch"]
