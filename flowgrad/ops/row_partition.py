"""``tf.experimental.RowPartition``: how a ragged dimension splits a flat list of values into
rows, held as row splits (row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``), with the
other encodings (row lengths, value row ids, row starts and limits) computed from them.
Keras 3's data adapters build one to slice a ``tf.SparseTensor`` by rows."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.tensor import EagerTensor, TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.ops import concat_ops, fill_ops, indexing_ops, reduction_ops
from flowgrad.ops.arithmetic_ops import floordiv, maximum
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.ragged_ops import row_splits_to_segment_ids


def _as_index_tensor(value: TensorLike, dtype: DTypeLike | None, dtype_hint: DTypeLike | None,
                     what: str) -> TensorBase:
    """``value`` as an int32 or int64 tensor: ``dtype`` if given, else a tensor's own, else
    ``dtype_hint`` (int64 by default), as TensorFlow's ``_convert_row_partition``."""
    if isinstance(value, np.ndarray) and value.dtype == np.int32 and dtype is None:
        dtype = dtypes.int32
    if not isinstance(value, TensorBase):
        value = convert_to_tensor(value, dtype or dtype_hint or dtypes.int64)
    if value.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("%s must have dtype int32 or int64" % what)
    if dtype is not None and value.dtype.base_dtype != dtypes.as_dtype(dtype):
        raise ValueError("dtype mismatch: %s (%s) vs %s" % (what, value.dtype.name,
                                                            dtypes.as_dtype(dtype).name))
    return value


class RowPartition:
    """A ragged dimension's partition of ``nvals`` values into ``nrows`` rows
    (``tf.experimental.RowPartition``). Build one with the ``from_*`` class methods.

    Args:
      row_splits: A 1-D int32 or int64 tensor: where each row starts, then the end.
      uniform_row_length: The rows' common length, for a uniform partition (else None).
      nrows: The number of rows (a uniform partition's; else from ``row_splits``).
      internal: Must be True (the constructor is private, as TensorFlow's).

    Raises:
      ValueError: Called without ``internal``.
    """

    def __init__(self, row_splits: TensorBase, uniform_row_length: Any = None,
                 nrows: Any = None, internal: bool = False):
        if not internal:
            raise ValueError("RowPartition constructor is private; please use one of the "
                             "factory methods instead (e.g., RowPartition.from_row_lengths())")
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length
        self._nrows = nrows

    # -- factories ---------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, row_splits: TensorLike, validate: bool = True,
                        dtype: DTypeLike | None = None,
                        dtype_hint: DTypeLike | None = None) -> RowPartition:
        """Row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``.

        Args:
          row_splits: A 1-D integer vector starting at 0, non-decreasing.
          validate: Whether to check the splits (eagerly).
          dtype: The row partition's dtype (int32 or int64).
          dtype_hint: The dtype for a value that is not a tensor yet.

        Returns:
          A RowPartition.

        Raises:
          InvalidArgumentError: (eager, ``validate``) splits that do not start at 0 or
            decrease.
        """
        splits = _as_index_tensor(row_splits, dtype, dtype_hint, "row_splits")
        if splits.shape.rank not in (None, 1):
            raise ValueError("Shape %s must have rank 1" % splits.shape)
        if validate and isinstance(splits, EagerTensor):
            s = np.asarray(splits.numpy())
            if s.size == 0 or s[0] != 0:
                raise errors.InvalidArgumentError(
                    None, None, "Arguments to _from_row_partition do not form a valid "
                    "RaggedTensor: First element of row_splits must be zero")
            if np.any(np.diff(s) < 0):
                raise errors.InvalidArgumentError(
                    None, None, "Arguments to _from_row_partition do not form a valid "
                    "RaggedTensor: row_splits must be sorted in ascending order")
        return cls(splits, internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths: TensorLike, validate: bool = True,
                         dtype: DTypeLike | None = None,
                         dtype_hint: DTypeLike | None = None) -> RowPartition:
        """Row ``i`` has ``row_lengths[i]`` values.

        Args:
          row_lengths: A 1-D integer vector of non-negative lengths.
          validate: Whether to check the lengths (eagerly).
          dtype: The row partition's dtype (int32 or int64).
          dtype_hint: The dtype for a value that is not a tensor yet.

        Returns:
          A RowPartition.

        Raises:
          InvalidArgumentError: (eager, ``validate``) a negative length.
        """
        lengths = _as_index_tensor(row_lengths, dtype, dtype_hint, "row_lengths")
        if validate and isinstance(lengths, EagerTensor) and np.any(lengths.numpy() < 0):
            raise errors.InvalidArgumentError(
                None, None, "Arguments to _from_row_partition do not form a valid "
                "RaggedTensor: Each row_length must be >= 0")
        zero = fill_ops.zeros([1], lengths.dtype.base_dtype)
        return cls(concat_ops.concat([zero, reduction_ops.cumsum(lengths)], 0), internal=True)

    @classmethod
    def from_value_rowids(cls, value_rowids: TensorLike, nrows: TensorLike | None = None,
                          validate: bool = True, dtype: DTypeLike | None = None,
                          dtype_hint: DTypeLike | None = None) -> RowPartition:
        """``values[j]`` belongs to row ``value_rowids[j]`` (sorted ascending).

        Args:
          value_rowids: A 1-D integer vector, sorted.
          nrows: The number of rows (``value_rowids[-1] + 1``, or 0, by default).
          validate: Whether to check the row ids (eagerly).
          dtype: The row partition's dtype (int32 or int64).
          dtype_hint: The dtype for a value that is not a tensor yet.

        Returns:
          A RowPartition.

        Raises:
          InvalidArgumentError: (eager, ``validate``) row ids that decrease, or are negative or
            not below ``nrows``.
        """
        rowids = _as_index_tensor(value_rowids, dtype, dtype_hint, "value_rowids")
        kind = rowids.dtype.base_dtype
        if nrows is None:
            last = reduction_ops.reduce_max(concat_ops.concat(
                [fill_ops.fill([1], convert_to_tensor(-1, kind)), rowids], 0))
            nrows = last + convert_to_tensor(1, kind)
        else:
            nrows = cast(convert_to_tensor(nrows), kind)
        if validate and isinstance(rowids, EagerTensor) and isinstance(nrows, EagerTensor):
            ids, n = np.asarray(rowids.numpy()), int(nrows.numpy())
            if np.any(np.diff(ids) < 0) or (ids.size and (ids[0] < 0 or ids[-1] >= n)):
                raise errors.InvalidArgumentError(
                    None, None, "Arguments to _from_row_partition do not form a valid "
                    "RaggedTensor: value_rowids must be sorted, in [0, nrows)")
        lengths = indexing_ops.unsorted_segment_sum(fill_ops.ones_like(rowids), rowids, nrows)
        zero = fill_ops.zeros([1], kind)
        return cls(concat_ops.concat([zero, reduction_ops.cumsum(lengths)], 0), internal=True)

    @classmethod
    def from_row_starts(cls, row_starts: TensorLike, nvals: TensorLike, validate: bool = True,
                        dtype: DTypeLike | None = None,
                        dtype_hint: DTypeLike | None = None) -> RowPartition:
        """Row ``i`` starts at ``row_starts[i]`` and ends where the next starts (the last at
        ``nvals``).

        Args:
          row_starts: A 1-D integer vector starting at 0, non-decreasing.
          nvals: The number of values.
          validate: Whether to check the splits (eagerly).
          dtype: The row partition's dtype (int32 or int64).
          dtype_hint: The dtype for a value that is not a tensor yet.

        Returns:
          A RowPartition.
        """
        starts = _as_index_tensor(row_starts, dtype, dtype_hint, "row_starts")
        end = cast(convert_to_tensor(nvals), starts.dtype.base_dtype)
        return cls.from_row_splits(concat_ops.concat([starts, fill_ops.fill([1], end)], 0),
                                   validate=validate)

    @classmethod
    def from_row_limits(cls, row_limits: TensorLike, validate: bool = True,
                        dtype: DTypeLike | None = None,
                        dtype_hint: DTypeLike | None = None) -> RowPartition:
        """Row ``i`` ends at ``row_limits[i]`` and starts where the previous ends.

        Args:
          row_limits: A 1-D integer vector, non-decreasing.
          validate: Whether to check the splits (eagerly).
          dtype: The row partition's dtype (int32 or int64).
          dtype_hint: The dtype for a value that is not a tensor yet.

        Returns:
          A RowPartition.
        """
        limits = _as_index_tensor(row_limits, dtype, dtype_hint, "row_limits")
        zero = fill_ops.zeros([1], limits.dtype.base_dtype)
        return cls.from_row_splits(concat_ops.concat([zero, limits], 0), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length: TensorLike,
                                nvals: TensorLike | None = None,
                                nrows: TensorLike | None = None, validate: bool = True,
                                dtype: DTypeLike | None = None,
                                dtype_hint: DTypeLike | None = None) -> RowPartition:
        """Rows of ``uniform_row_length`` values each.

        Args:
          uniform_row_length: The rows' length (a scalar).
          nvals: The number of values (``nrows * uniform_row_length``).
          nrows: The number of rows (``nvals // uniform_row_length`` by default).
          validate: Whether to check the arguments (eagerly).
          dtype: The row partition's dtype (int32 or int64).
          dtype_hint: The dtype for a value that is not a tensor yet.

        Returns:
          A RowPartition.

        Raises:
          ValueError: Neither ``nvals`` nor ``nrows``.
        """
        if nvals is None and nrows is None:
            raise ValueError("uniform_row_length is %r: one of nvals or nrows must be given"
                             % (uniform_row_length,))
        length = _as_index_tensor(uniform_row_length, dtype, dtype_hint, "uniform_row_length")
        kind = length.dtype.base_dtype
        if nrows is None:
            one = convert_to_tensor(1, kind)
            nrows = floordiv(cast(convert_to_tensor(nvals), kind), maximum(length, one))
        else:
            nrows = cast(convert_to_tensor(nrows), kind)
        splits = fill_ops.range(convert_to_tensor(0, kind), nrows + convert_to_tensor(1, kind),
                                convert_to_tensor(1, kind), dtype=kind) * length
        return cls(splits, uniform_row_length=length, nrows=nrows, internal=True)

    # -- encodings -----------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        """The dtype of the row partition's tensors (int32 or int64)."""
        return self._row_splits.dtype.base_dtype

    def row_splits(self) -> TensorBase:
        """Where each row starts in the values, then the end: ``[nrows + 1]``."""
        return self._row_splits

    def value_rowids(self) -> TensorBase:
        """The row of each value: ``[nvals]``."""
        return row_splits_to_segment_ids(self._row_splits)

    def nvals(self) -> TensorBase:
        """The number of values (a scalar)."""
        return self._row_splits[-1]

    def nrows(self) -> TensorBase:
        """The number of rows (a scalar)."""
        if self._nrows is not None:
            return self._nrows
        n = self._row_splits.shape.as_list()[0] if self._row_splits.shape.rank else None
        if n is not None:
            return convert_to_tensor(n - 1, self.dtype)
        from flowgrad.ops.shape_ops import shape
        return shape(self._row_splits, out_type=self.dtype)[0] - convert_to_tensor(1, self.dtype)

    def uniform_row_length(self) -> TensorBase | None:
        """The rows' common length, for a uniform partition (else None)."""
        return self._uniform_row_length

    def row_starts(self) -> TensorBase:
        """Where each row starts: ``row_splits[:-1]``."""
        return self._row_splits[:-1]

    def row_limits(self) -> TensorBase:
        """Where each row ends: ``row_splits[1:]``."""
        return self._row_splits[1:]

    def row_lengths(self) -> TensorBase:
        """Each row's length: ``row_splits[1:] - row_splits[:-1]``."""
        return self._row_splits[1:] - self._row_splits[:-1]

    def is_uniform(self) -> bool:
        """Whether the partition was built with a uniform row length."""
        return self._uniform_row_length is not None

    @property
    def static_nrows(self) -> int | None:
        """The number of rows if known statically (else None)."""
        n = self._row_splits.shape.as_list()[0] if self._row_splits.shape.rank else None
        return None if n is None else n - 1

    def with_dtype(self, dtype: DTypeLike) -> RowPartition:
        """This partition with its tensors cast to ``dtype`` (int32 or int64)."""
        dtype = dtypes.as_dtype(dtype)
        if dtype == self.dtype:
            return self
        return RowPartition(cast(self._row_splits, dtype),
                            None if self._uniform_row_length is None else
                            cast(self._uniform_row_length, dtype),
                            None if self._nrows is None else cast(self._nrows, dtype),
                            internal=True)

    def __repr__(self) -> str:
        if self._uniform_row_length is not None:
            return (f"tf.RowPartition(nrows={self._nrows}, "
                    f"uniform_row_length={self._uniform_row_length})")
        return f"tf.RowPartition(row_splits={self._row_splits})"
