"""``tf.lookup``: static key-to-value tables (StaticHashTable, StaticVocabularyTable) and
their initializers (KeyValueTensorInitializer, TextFileInitializer).

A table is immutable once made, so flowgrad reads its initializer when the table is built
(TensorFlow runs an init op; ``tf.compat.v1.tables_initializer()`` is then a no-op that
programs may still run). A lookup is built from ops -- a comparison of each key with the
table's keys, ``argmax`` and ``gather`` -- so it runs in eager and graph mode and in
``tf.function``; its cost grows with the number of keys times the table's size, which suits
the vocabularies of feature columns and preprocessing, not tables of millions of keys.
Out-of-vocabulary buckets hash with TensorFlow's ``Fingerprint64`` (FarmHash), so ids match
TensorFlow's."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, name_scope
from flowgrad.framework.trackable import Trackable
from flowgrad.framework.trackable_resource import TrackableResource
from flowgrad.ops.asset import Asset
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor, is_tensor
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import equal, not_equal
from flowgrad.ops.comparison_ops import where as where_v2
from flowgrad.ops.control_flow_ops import no_op
from flowgrad.ops.file_io import GFile
from flowgrad.ops.fill_ops import fill
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.manip_ops import get_static_value
from flowgrad.ops.reduction_ops import argmax, reduce_any
from flowgrad.ops.shape_ops import reshape, shape
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.string_ops import as_string, to_hash_bucket_fast
from flowgrad.framework.type_hints import TensorLike
from collections.abc import Callable
from flowgrad.framework.type_hints import DTypeLike


class TextFileIndex:
    """Which part of a line a TextFileInitializer takes: ``WHOLE_LINE`` or ``LINE_NUMBER``
    (a column number otherwise)."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


def _static(x: Any, dtype: Any, what: str) -> np.ndarray:
    value = convert_to_tensor(x, dtype, name=what)
    got = value.numpy() if hasattr(value, "numpy") else None
    if got is None:
        got = get_static_value(value)
    if got is None:
        raise errors.InvalidArgumentError(
            None, None, "tf.lookup: the table's %s must be known when the table is made "
            "(flowgrad's tables are static); got %s" % (what, value))
    return np.asarray(got).reshape(-1), value.dtype.base_dtype


class KeyValueTensorInitializer(Trackable):
    """A table's contents from two tensors of the same length.

    Args:
      keys: the keys (1-D).
      values: the values, one per key.
      key_dtype: the keys' dtype (inferred if None).
      value_dtype: the values' dtype (inferred if None).
      name: the name scope.

    Raises:
      ValueError: ``keys`` and ``values`` differ in length.
    """

    def __init__(self, keys: Any, values: TensorLike, key_dtype: DTypeLike | None = None,
                 value_dtype: DTypeLike | None = None, name: str | None = None) -> None:
        self._keys, self.key_dtype = _static(keys, key_dtype, "keys")
        self._values, self.value_dtype = _static(values, value_dtype, "values")
        if len(self._keys) != len(self._values):
            raise ValueError("KeyValueTensorInitializer: keys and values differ in length "
                             "(%d and %d)" % (len(self._keys), len(self._values)))

    def _contents(self) -> tuple:
        if "_keys" not in vars(self):
            # a subclass that does not call __init__ (Keras's NullInitializer, which a
            # restored layer fills later): an empty table
            return tuple(np.array([], object if d == dtypes.string else d.as_numpy_dtype)
                         for d in map(dtypes.as_dtype, (self.key_dtype, self.value_dtype)))
        return self._keys, self._values


class TextFileInitializer(Trackable):
    """A table's contents from a text file: one entry per line, key and value each the
    whole line, the line number or a column of ``delimiter``-separated fields.

    Args:
      filename: the file: a path, a string scalar tensor or a ``tf.saved_model.Asset``
        (a path is wrapped in an Asset, so ``tf.saved_model.save`` writes the file into the
        SavedModel's ``assets/``).
      key_dtype: ``tf.string`` or an integer dtype.
      key_index: a column, or :class:`TextFileIndex` ``WHOLE_LINE`` / ``LINE_NUMBER``.
      value_dtype: ``tf.string``, an integer or a float dtype.
      value_index: as ``key_index``.
      vocab_size: how many lines to read (all if None).
      delimiter: the field separator.
      name: the name scope.
      value_index_offset: added to line numbers used as values.

    Raises:
      NotFoundError: the file does not exist.
      InvalidArgumentError: a line lacks the column, or a field does not parse.
    """

    def __init__(self, filename: str, key_dtype: DTypeLike, key_index: int, value_dtype: DTypeLike,
                 value_index: int, vocab_size: int | None = None, delimiter: str = "\t",
                 name: str | None = None, value_index_offset: int = 0) -> None:
        self._filename = self._track_trackable(Asset(filename), "_filename")
        path = self._filename._path_value()
        if path is None:
            raise errors.InvalidArgumentError(
                None, None, "tf.lookup.TextFileInitializer: the file's name must be known when "
                "the table is made (flowgrad's tables are static); got %s" % (filename,))
        path_tensor = self._filename.asset_path
        if not executing_eagerly() and not isinstance(path_tensor, EagerTensor):
            # a TF1 graph: what SavedModelBuilder's assets_collection copies to assets/
            path_tensor.graph.add_to_collection(GraphKeys.ASSET_FILEPATHS, path_tensor)
        with GFile(path, "rb") as f:
            lines = f.read().decode("utf-8").splitlines()
        if vocab_size is not None:
            if len(lines) < vocab_size:
                raise errors.InvalidArgumentError(
                    None, None, "Invalid vocab_size in %s: expected %d lines, found %d"
                    % (path, vocab_size, len(lines)))
            lines = lines[:vocab_size]
        self._path, self._delimiter = path, delimiter
        self.key_dtype = dtypes.as_dtype(key_dtype)
        self.value_dtype = dtypes.as_dtype(value_dtype)
        self._keys = self._column(lines, key_index, self.key_dtype, 0)
        self._values = self._column(lines, value_index, self.value_dtype, value_index_offset)

    def _column(self, lines: list, index: int, dtype: dtypes.DType, offset: int) -> np.ndarray:
        if index == TextFileIndex.LINE_NUMBER:
            return np.arange(len(lines), dtype=np.int64) + offset
        out = []
        for n, line in enumerate(lines):
            field = line
            if index != TextFileIndex.WHOLE_LINE:
                fields = line.split(self._delimiter)
                if index >= len(fields):
                    raise errors.InvalidArgumentError(
                        None, None, "Invalid number of columns in %s line %d (%s) for "
                        "column %d" % (self._path, n, line, index))
                field = fields[index]
            try:
                out.append(field.encode("utf-8") if dtype == dtypes.string
                           else dtype.as_numpy_dtype(field))
            except ValueError as e:
                raise errors.InvalidArgumentError(
                    None, None, "Field %r in %s line %d is not a valid %s"
                    % (field, self._path, n, dtype.name)) from e
        return np.array(out, dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)

    def _contents(self) -> tuple:
        return self._keys, self._values


def _map_values(keys: Any, fn: Any) -> Any:
    """``fn`` applied to the values of a SparseTensor or RaggedTensor, or to a tensor."""
    if isinstance(keys, SparseTensor):
        return SparseTensor(keys.indices, fn(keys.values), keys.dense_shape)
    if isinstance(keys, RaggedTensor):
        return keys.with_flat_values(fn(keys.flat_values))
    return fn(keys)


def _as_keys(keys: Any) -> Any:
    if isinstance(keys, (SparseTensor, RaggedTensor)) or is_tensor(keys):
        return keys
    return convert_to_tensor(keys)


class StaticHashTable(TrackableResource):
    """An immutable table from keys to values.

    Args:
      initializer: a KeyValueTensorInitializer or TextFileInitializer.
      default_value: the value of a missing key.
      name: the table's name.
      experimental_is_anonymous: accepted, as in TensorFlow.
    """

    def __init__(self, initializer: Callable | TensorLike | None, default_value: TensorLike,
                 name: str | None = None, experimental_is_anonymous: bool = False) -> None:
        super().__init__()
        self._initializer = initializer          # a dependency, as in TensorFlow
        self._keys, self._values = initializer._contents()
        self.key_dtype = dtypes.as_dtype(initializer.key_dtype)
        self.value_dtype = dtypes.as_dtype(initializer.value_dtype)
        self._default = np.asarray(default_value,
                                   object if self.value_dtype == dtypes.string
                                   else self.value_dtype.as_numpy_dtype)
        self._name = name or "hash_table"

    @property
    def name(self) -> str:
        return self._name

    @property
    def initializer(self) -> Any:
        """The table's init op: none is needed (the table is filled when made)."""
        return no_op(name="table_init")

    @property
    def default_value(self) -> Any:
        return convert_to_tensor(self._default, self.value_dtype)

    def size(self, name: str | None = None) -> Any:
        """The number of entries (int64)."""
        return convert_to_tensor(np.int64(len(self._keys)), dtypes.int64, name=name or "Size")

    def export(self, name: str | None = None) -> tuple:
        """The keys and values."""
        return (convert_to_tensor(self._keys, self.key_dtype),
                convert_to_tensor(self._values, self.value_dtype))

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The value of each key, ``default_value`` where a key is missing.

        Args:
          keys: a Tensor, SparseTensor or RaggedTensor of the table's key dtype.
          name: the name scope.

        Returns:
          The values, of the same kind and shape as ``keys``.

        Raises:
          TypeError: ``keys`` has another dtype than the table's keys.
        """
        keys = _as_keys(keys)
        if keys.dtype.base_dtype != self.key_dtype:
            raise TypeError("Dtype of argument `keys` must be %s, received: %s"
                            % (self.key_dtype, keys.dtype))
        with name_scope(name, "%s_Lookup" % self._name):
            return _map_values(keys, self._find)

    __getitem__ = lookup

    def _find(self, keys: Any) -> Any:
        flat = reshape(keys, [-1])
        default = convert_to_tensor(self._default, self.value_dtype)
        if len(self._keys) == 0:
            found = fill(shape(flat), default)
        else:
            hits = equal(flat[:, None], convert_to_tensor(self._keys, self.key_dtype)[None, :])
            values = gather(convert_to_tensor(self._values, self.value_dtype),
                            argmax(cast(hits, dtypes.int32), axis=1))
            found = where_v2(reduce_any(hits, axis=1), values, default)
        return reshape(found, shape(keys))


class StaticVocabularyTable(TrackableResource):
    """Ids of a vocabulary, and ``vocab_size + hash(key) % num_oov_buckets`` for the keys
    not in it (TensorFlow's Fingerprint64 hash, so the ids are TensorFlow's).

    Args:
      initializer: the vocabulary: keys (string or int64) to int64 ids; None for hash
        buckets only.
      num_oov_buckets: how many buckets the other keys hash into (at least 1).
      lookup_key_dtype: the dtype of the keys looked up (the initializer's by default).
      name: the table's name.
      experimental_is_anonymous: accepted, as in TensorFlow.

    Raises:
      ValueError: ``num_oov_buckets`` is below 1.
      TypeError: the initializer's keys are not string or int64, or its values not int64.
    """

    def __init__(self, initializer: Callable | TensorLike | None, num_oov_buckets: int,
                 lookup_key_dtype: Any = None, name: str | None = None,
                 experimental_is_anonymous: bool = False) -> None:
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        super().__init__()
        self._table = None
        if initializer is not None:
            if initializer.key_dtype not in (dtypes.int64, dtypes.string):
                raise TypeError("Invalid `key_dtype`, expected one of (tf.int64, tf.string), "
                                "but got %s." % (initializer.key_dtype,))
            if initializer.value_dtype != dtypes.int64:
                raise TypeError("Invalid `value_dtype`, expected %s but got %s."
                                % (dtypes.int64, initializer.value_dtype))
            self._table = StaticHashTable(initializer, -1, name=name)
        self.key_dtype = dtypes.as_dtype(lookup_key_dtype) if lookup_key_dtype is not None \
            else (initializer.key_dtype if initializer is not None else dtypes.string)
        self.value_dtype = dtypes.int64
        self._num_oov_buckets = int(num_oov_buckets)
        self._name = name or "hash_bucket"

    @property
    def name(self) -> str:
        return self._name

    @property
    def initializer(self) -> Any:
        """The table's init op: none is needed (the table is filled when made)."""
        return no_op(name="table_init")

    def size(self, name: str | None = None) -> Any:
        """The vocabulary's size plus the number of OOV buckets (int64)."""
        n = 0 if self._table is None else len(self._table._keys)
        return convert_to_tensor(np.int64(n + self._num_oov_buckets), dtypes.int64,
                                 name=name or "Size")

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The id of each key.

        Args:
          keys: a Tensor, SparseTensor or RaggedTensor of ``lookup_key_dtype``.
          name: the name scope.

        Returns:
          int64 ids, of the same kind and shape as ``keys``.

        Raises:
          TypeError: ``keys`` has another dtype.
        """
        keys = _as_keys(keys)
        if keys.dtype.base_dtype != self.key_dtype:
            raise TypeError("Dtype of argument `keys` must be %s, received: %s"
                            % (self.key_dtype, keys.dtype))
        with name_scope(name, "%s_Lookup" % self._name):
            return _map_values(keys, self._ids)

    __getitem__ = lookup

    def _ids(self, values: Any) -> Any:
        if self._table is not None and self._table.key_dtype == dtypes.int64:
            values = cast(values, dtypes.int64)
        text = values if values.dtype == dtypes.string else as_string(values)
        buckets = to_hash_bucket_fast(text, self._num_oov_buckets)
        if self._table is None:
            return buckets
        ids = self._table._find(values)
        buckets = buckets + np.int64(len(self._table._keys))
        return where_v2(not_equal(ids, np.int64(-1)), ids, buckets)


def tables_initializer(name: str = "init_all_tables") -> Any:
    """``tf.compat.v1.tables_initializer``: flowgrad's tables are filled when made, so this
    is an op that does nothing (programs run it as in TensorFlow).

    Args:
      name: The op's name.

    Returns:
      An op that does nothing.
    """
    return no_op(name=name)


__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "tables_initializer"]
