"""Reading a checkpoint whatever wrote it: TensorFlow's tensor bundle (``<prefix>.index`` and
``<prefix>.data-*``, what TensorFlow and flowgrad since 0.2 write) or flowgrad 0.1.0's own
format (``<prefix>.npz``: a zip archive of ``.npy`` entries, the object graph as JSON).

flowgrad 0.1.0's files stay readable (by ``Saver.restore``, ``Checkpoint.restore`` and
``tf.train.load_checkpoint``) through the 0.x releases; nothing writes them any more, except
flowgrad's own SavedModel format, which keeps its ``.npz`` variables."""
from __future__ import annotations

import io
import os
import zipfile
import zlib
from typing import IO, Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.train import tensor_bundle
from flowgrad.train.checkpoint_management import LEGACY_SUFFIX

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def write_npz(f: IO[bytes], arrays: dict) -> None:
    """Writes ``{name: array}`` as a zip of ``.npy`` entries (flowgrad's SavedModel format)."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as zf:
        for name, value in arrays.items():
            with zf.open(name + ".npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asarray(value), allow_pickle=False)


def read_npz(path: str) -> dict:
    """All arrays of the ``.npz`` file ``path``.

    Raises:
        DataLossError: the file cannot be read whole (each entry's CRC-32 is checked).
    """
    arrays = {}
    try:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                if not info.filename.endswith(".npy"):
                    raise ValueError("unexpected entry %r" % info.filename)
                data = zf.read(info)
                arrays[info.filename[:-4]] = np.lib.format.read_array(io.BytesIO(data),
                                                                      allow_pickle=False)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError,
            NotImplementedError, RuntimeError) as e:   # a flipped bit: 'compression method'
        raise errors.DataLossError(None, None, "Unable to read checkpoint file %s: %s. The file "
                                   "is truncated or corrupted." % (path, e)) from e
    return arrays


class CheckpointReader:
    """The saved values of one checkpoint, by key (``tf.train.load_checkpoint``).

    Raises:
        NotFoundError: no checkpoint has this prefix.
        DataLossError: the checkpoint is damaged or truncated.
    """

    def __init__(self, prefix: str):
        self.prefix = os.fspath(prefix)
        self._bundle = None
        self._arrays: dict = {}
        if tensor_bundle.is_bundle(self.prefix):
            self._bundle = tensor_bundle.BundleReader(self.prefix)
        elif os.path.isfile(self.prefix + LEGACY_SUFFIX):
            self._arrays = read_npz(self.prefix + LEGACY_SUFFIX)
        else:
            raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: "
                                       "Failed to find any matching files for %s" % self.prefix)

    @property
    def is_tensorflow_format(self) -> bool:
        """False for a flowgrad 0.1.0 ``.npz`` checkpoint."""
        return self._bundle is not None

    def keys(self) -> list:
        """Every key, sorted."""
        return self._bundle.keys() if self._bundle is not None else sorted(self._arrays)

    def get_variable_to_shape_map(self) -> dict:
        """{key: shape as a list}."""
        if self._bundle is not None:
            return self._bundle.get_variable_to_shape_map()
        return {k: ([] if k == OBJECT_GRAPH_KEY else list(v.shape))
                for k, v in self._arrays.items()}

    def get_variable_to_dtype_map(self) -> dict:
        """{key: DType}."""
        if self._bundle is not None:
            return self._bundle.get_variable_to_dtype_map()
        return {k: (dtypes.string if k == OBJECT_GRAPH_KEY else dtypes.as_dtype(v.dtype))
                for k, v in self._arrays.items()}

    def has_tensor(self, name: str) -> bool:
        if self._bundle is not None:
            return self._bundle.has_tensor(name)
        return name in self._arrays

    def get_tensor(self, name: str) -> Any:
        """The value saved under ``name`` (a scalar string as ``bytes``, as TensorFlow's
        reader returns it).

        Raises:
            NotFoundError: no such key.
            DataLossError: its bytes are damaged.
        """
        if self._bundle is not None:
            value = self._bundle.get_tensor(name)
        elif name not in self._arrays:
            raise errors.NotFoundError(None, None, "Key %s not found in checkpoint %s"
                                       % (name, self.prefix))
        elif name == OBJECT_GRAPH_KEY:
            return self._arrays[name].tobytes()
        else:
            value = np.array(self._arrays[name])
        if value.dtype == object and value.ndim == 0:
            return value.item()
        return value


__all__ = ["CheckpointReader", "read_npz", "write_npz", "OBJECT_GRAPH_KEY"]
