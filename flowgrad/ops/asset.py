"""``tf.saved_model.Asset``: a file that a SavedModel carries in its ``assets/`` directory
(a vocabulary, a tokenizer's model). ``tf.saved_model.save`` copies the file there and
rebinds the functions that read ``asset_path`` to the copy, so the SavedModel keeps working
wherever it is moved; ``tf.saved_model.load`` gives the restored ``Asset`` the path of its
copy. A ``tf.lookup.TextFileInitializer`` wraps its file in an Asset, as TensorFlow does."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor, \
    register_tensor_conversion_function
from flowgrad.framework.trackable import Trackable


class Asset(Trackable):
    """A file tracked by a SavedModel: written to its ``assets/`` directory on save.

    Args:
      path: the file's path (a string or a string scalar tensor), or another Asset.

    Raises:
      ValueError: ``path`` is a tensor of another dtype than string.
    """

    def __new__(cls, path: Any) -> Asset:
        # an Asset of an Asset is that Asset: one file, one node of the SavedModel
        return path if type(path) is cls else super().__new__(cls)

    def __init__(self, path: Any) -> None:
        if path is self:
            return
        if isinstance(path, Asset):
            path = path.asset_path
        if isinstance(path, (str, bytes)) or hasattr(path, "__fspath__"):
            raw = path.__fspath__() if hasattr(path, "__fspath__") else path
            value = np.array(raw.encode() if isinstance(raw, str) else raw, dtype=object)
            # an eager constant, as TensorFlow makes it under init_scope; a TF1 graph holds
            # it as a Const of the graph
            self._path = EagerTensor(value, dtypes.string) if executing_eagerly() \
                else convert_to_tensor(value, dtypes.string, name="asset_path")
        else:
            self._path = convert_to_tensor(path, dtypes.string, name="asset_path")

    @property
    def asset_path(self) -> Any:
        """The file's path: a string scalar tensor."""
        return self._path

    @property
    def _object_identifier(self) -> str:
        return "_generic_user_object"

    def _path_value(self) -> str | None:
        """The path as a Python string, or None where it is not a known constant."""
        value = getattr(self._path, "numpy", None)
        if value is None:
            from flowgrad.ops.manip_ops import get_static_value
            raw = get_static_value(self._path)
        else:
            raw = value()
        if raw is None:
            return None
        raw = np.asarray(raw).item()
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def __repr__(self) -> str:
        return "<tf.saved_model.Asset %r>" % (self._path_value(),)


def _asset_to_tensor(value: Asset, dtype: Any = None, name: str | None = None,
                     as_ref: bool = False) -> Any:
    """An Asset used as a tensor is its path (``tf.io.read_file(asset)``)."""
    if dtype is not None and dtypes.as_dtype(dtype) != dtypes.string:
        raise ValueError("Conversion of an Asset (a string path) to %s is not possible"
                         % dtypes.as_dtype(dtype).name)
    return value.asset_path


register_tensor_conversion_function(Asset, _asset_to_tensor)

__all__ = ["Asset"]
