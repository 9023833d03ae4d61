"""``keras.datasets.mnist``: MNIST as Keras returns it, offline.

``load_data()`` reads Keras's cache file (``~/.keras/datasets/mnist.npz``, or
under ``$KERAS_HOME``) when a valid copy is there, and otherwise the full set where
``flowgrad.datasets.mnist.find_full_set`` finds it (``$FLOWGRAD_DATA``, ``$MNIST_DIR``, the
repository's ``data/mnist``: the same images and labels, in the same order), else Keras's
``mnist.npz`` downloaded into that cache (SHA-256 checked, as Keras does), else (offline) the
sample that ships with flowgrad (1200 training and 300 test examples), with a warning."""
from __future__ import annotations

import functools
import warnings

import numpy as np

from flowgrad.datasets import mnist as _idx
from flowgrad.datasets.download import digest_check
from flowgrad.legacy_keras.datasets._cache import cached, fetch

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
#: SHA-256 of Keras's ``mnist.npz`` (the hash Keras checks).
SHA256 = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"

_SPLITS = {"x_train": (60000, 28, 28), "y_train": (60000,), "x_test": (10000, 28, 28),
           "y_test": (10000,)}


def _from_npz(path: str) -> tuple | None:
    """The four arrays of a Keras ``mnist.npz``; None (with a warning) when it is not one."""
    try:
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in _SPLITS}
    except (OSError, KeyError, ValueError) as e:
        warnings.warn("Ignoring %s, which is not a Keras MNIST file (%s); using flowgrad's "
                      "copy" % (path, e), stacklevel=3)
        return None
    for k, shape in _SPLITS.items():
        a = arrays[k]
        if a.dtype != np.uint8 or a.ndim != len(shape) or a.shape[1:] != shape[1:]:
            warnings.warn("Ignoring %s: its %s has shape %s and dtype %s, expected %s uint8; "
                          "using flowgrad's copy" % (path, k, a.shape, a.dtype, shape),
                          stacklevel=3)
            return None
    return (arrays["x_train"], arrays["y_train"]), (arrays["x_test"], arrays["y_test"])


@functools.lru_cache(maxsize=2)
def _read(where: object) -> tuple:
    return _idx.load_arrays()


def load_data(path: str = "mnist.npz") -> tuple:
    """``(x_train, y_train), (x_test, y_test)``: uint8 arrays of shapes (60000, 28, 28),
    (60000,), (10000, 28, 28), (10000,) (from the sample: 1200 and 300 examples).

    Args:
        path: The file's name in the Keras cache (``~/.keras/datasets``), or an absolute path.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``.
    """
    file = cached(path)
    if file.is_file():
        found = _from_npz(str(file))
        if found is not None:
            return found
    full = _idx.find_full_set()
    if full is None and not file.is_file():
        try:
            found = _from_npz(str(fetch(path, [ORIGIN], digest_check(SHA256))))
        except OSError as exc:
            warnings.warn(
                f"The full MNIST set was not found (looked in: {_idx.places_looked()}) and "
                f"downloading it failed ({exc}); using the sample that ships with flowgrad: "
                "the first 1200 training and 300 test examples.", UserWarning, stacklevel=2)
            (x_train, y_train), (x_test, y_test) = _idx.load_arrays(sample=True)
            return (x_train, y_train), (x_test, y_test)
        if found is not None:
            return found
    (x_train, y_train), (x_test, y_test) = _read(full)
    return (x_train.copy(), y_train.copy()), (x_test.copy(), y_test.copy())


__all__ = ["load_data"]
