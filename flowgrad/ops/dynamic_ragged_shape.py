"""``tf.experimental.DynamicRaggedShape``: the shape of a RaggedTensor (or of a dense tensor),
as row partitions for the ragged dimensions and an inner (dense) shape, as TensorFlow 2.21's
``dynamic_ragged_shape``; ``tf.shape`` of a RaggedTensor gives one, and ``tf.reshape``,
``tf.broadcast_to``, ``tf.zeros``/``tf.ones`` and ``tf.broadcast_dynamic_shape`` take one.

Dimension ``0`` is the number of rows of the first partition (or the inner shape's first
entry); dimension ``k`` for ``k <= num_row_partitions`` is ragged unless its partition is
uniform; the inner shape's entries after the first are the uniform dimensions below.
Broadcasting follows TensorFlow's rules (a dimension of size 1 stretches, uniform or ragged);
it needs the lengths statically (always so when executing eagerly)."""
from __future__ import annotations

import typing
from typing import Any

import numpy as np

from flowgrad.framework import dispatch, dtypes, errors
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.ops import fill_ops, manip_ops, shape_ops
from flowgrad.ops.array_ops import reshape as dense_reshape
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.scatter_nd_ops import gather_nd
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.row_partition import RowPartition


def _lengths_value(x: Any) -> np.ndarray | None:
    v = x if isinstance(x, np.ndarray) else constant_value(x)
    return None if v is None else np.asarray(v)


class DynamicRaggedShape:
    """The shape of a (possibly ragged) tensor: ``row_partitions`` and ``inner_shape``.

    Args:
        row_partitions: The RowPartitions of the ragged (or partitioned) dimensions, outer
            first; each one's ``nvals`` is the next one's ``nrows``.
        inner_shape: A 1-D int tensor: the shape of the flat values.
        dtype: int32 or int64 (default: the partitions' or the inner shape's).
        validate: Accepted for TensorFlow's signature.
        static_inner_shape: Accepted for TensorFlow's signature.

    Raises:
        ValueError: partitions of different dtypes, or an inner shape that is not a vector.
    """

    def __init__(self, row_partitions: Any, inner_shape: TensorLike,
                 dtype: DTypeLike | None = None, validate: bool = False,
                 static_inner_shape: Any = None):
        row_partitions = tuple(row_partitions)
        if dtype is None:
            dtype = row_partitions[0].dtype if row_partitions else (
                inner_shape.dtype if isinstance(inner_shape, TensorBase) else dtypes.int64)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_partitions = tuple(rp.with_dtype(self._dtype) for rp in row_partitions)
        self._inner_shape = convert_to_tensor(inner_shape, self._dtype) if not isinstance(
            inner_shape, TensorBase) else cast(inner_shape, self._dtype)
        if self._inner_shape.shape.rank != 1:
            raise ValueError("inner_shape must be a vector, got shape %s"
                             % self._inner_shape.shape)

    # -- factories ---------------------------------------------------------------------
    @classmethod
    def from_tensor(cls, t: Any, dtype: DTypeLike | None = None) -> DynamicRaggedShape:
        """The shape of a tensor or RaggedTensor.

        Args:
            t: A tensor or a RaggedTensor.
            dtype: int32 or int64 (default: the ragged tensor's row splits' dtype, else
                int32, as ``tf.shape``).

        Returns:
            Its DynamicRaggedShape.
        """
        if isinstance(t, RaggedTensor):
            dt = dtypes.as_dtype(dtype) if dtype is not None else t.row_splits_dtype
            parts = [RowPartition.from_row_splits(s, validate=False)
                     for s in t.nested_row_splits]
            return cls(parts, shape_ops.shape(t.flat_values, out_type=dt), dtype=dt)
        dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.int32
        return cls([], shape_ops.shape(convert_to_tensor(t), out_type=dt), dtype=dt)

    @classmethod
    def from_lengths(cls, lengths: Any, num_row_partitions: int | None = None,
                     dtype: DTypeLike = dtypes.int64) -> DynamicRaggedShape:
        """A shape from its lengths: an int per uniform dimension, a tuple of row lengths per
        ragged one (``[3, (2, 0, 1), 2]``).

        Args:
            lengths: The lengths, outer first (the first must be an int).
            num_row_partitions: How many partitions to make (default: through the last
                ragged dimension).
            dtype: int32 or int64.

        Returns:
            The DynamicRaggedShape.

        Raises:
            ValueError: A ragged first dimension, or row lengths that do not fit the rows.
        """
        lengths = list(lengths)
        if lengths and not isinstance(lengths[0], (int, np.integer)):
            raise ValueError("First element of lengths must be an int: %r" % (lengths[0],))
        ragged = [i for i, x in enumerate(lengths) if not isinstance(x, (int, np.integer))]
        n = (ragged[-1] if ragged else 0) if num_row_partitions is None else num_row_partitions
        parts, nrows = [], int(lengths[0]) if lengths else 1
        for axis in range(1, n + 1):
            x = lengths[axis]
            if isinstance(x, (int, np.integer)):
                parts.append(RowPartition.from_uniform_row_length(int(x), nrows=nrows,
                                                                  dtype=dtype))
                nrows *= int(x)
            else:
                if len(x) != nrows:
                    raise ValueError("Lengths %r at axis %d do not match the %d rows of the "
                                     "dimension above" % (tuple(x), axis, nrows))
                parts.append(RowPartition.from_row_lengths(np.asarray(x, np.int64),
                                                           dtype=dtype))
                nrows = int(np.sum(x))
        inner = [nrows] + [int(x) for x in lengths[n + 1:]]
        return cls(parts, np.asarray(inner, dtypes.as_dtype(dtype).as_numpy_dtype),
                   dtype=dtype)

    # -- properties --------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        """The dtype of the lengths (int32 or int64)."""
        return self._dtype

    @property
    def row_partitions(self) -> tuple:
        """The RowPartitions, outer first."""
        return self._row_partitions

    @property
    def num_row_partitions(self) -> int:
        """How many row partitions the shape has."""
        return len(self._row_partitions)

    @property
    def inner_shape(self) -> Any:
        """The shape of the flat values (a 1-D int tensor)."""
        return self._inner_shape

    @property
    def inner_rank(self) -> int:
        """The rank of the flat values."""
        return int(self._inner_shape.shape.as_list()[0])

    @property
    def rank(self) -> int:
        """The number of dimensions."""
        return self.num_row_partitions + self.inner_rank

    def with_dtype(self, dtype: DTypeLike) -> DynamicRaggedShape:
        """The same shape with lengths of ``dtype``.

        Args:
            dtype: int32 or int64.

        Returns:
            The DynamicRaggedShape.
        """
        return DynamicRaggedShape(self._row_partitions, self._inner_shape, dtype=dtype)

    def is_uniform(self, axis: int) -> bool:
        """Whether dimension ``axis`` has one length.

        Args:
            axis: The dimension.

        Returns:
            True for the outer dimension, a uniform partition's and the inner ones.

        Raises:
            IndexError: ``axis`` out of range.
        """
        axis = self._axis(axis)
        if axis == 0 or axis > self.num_row_partitions:
            return True
        return self._row_partitions[axis - 1].is_uniform()

    def _axis(self, axis: int) -> int:
        if not -self.rank <= axis < self.rank:
            raise IndexError("Expected axis=%d < rank=%d" % (axis, self.rank))
        return axis + self.rank if axis < 0 else axis

    def _dimension(self, axis: int) -> Any:
        """The length of a uniform dimension, a scalar tensor."""
        axis = self._axis(axis)
        if axis == 0:
            return (self._row_partitions[0].nrows() if self._row_partitions
                    else self._inner_shape[0])
        if axis <= self.num_row_partitions:
            rp = self._row_partitions[axis - 1]
            if not rp.is_uniform():
                raise ValueError("Index %d is not uniform" % axis)
            return rp.uniform_row_length()
        return self._inner_shape[axis - self.num_row_partitions]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            if index.step not in (None, 1) or index.start not in (None, 0):
                raise ValueError("Only prefix slices [:k] of a DynamicRaggedShape are "
                                 "supported")
            stop = self.rank if index.stop is None else self._axis_stop(index.stop)
            return self._prefix(stop)
        return self._dimension(index)

    def _axis_stop(self, stop: int) -> int:
        return max(0, min(self.rank, stop + self.rank if stop < 0 else stop))

    def _prefix(self, k: int) -> DynamicRaggedShape:
        if k >= self.rank:
            return self
        if k <= self.num_row_partitions:
            parts = self._row_partitions[:max(k - 1, 0)]
            nvals = parts[-1].nvals() if parts else (
                self._row_partitions[0].nrows() if self._row_partitions
                else self._inner_shape[0])
            # TensorFlow builds the rank-1 prefix of a ragged shape from its row count alone,
            # in its default dtype (int64)
            dtype = dtypes.int64 if k <= 1 and self._row_partitions else self._dtype
            return DynamicRaggedShape(parts, shape_ops.reshape(cast(nvals, dtype), [1]),
                                      dtype=dtype)
        return DynamicRaggedShape(self._row_partitions,
                                  self._inner_shape[:k - self.num_row_partitions],
                                  dtype=self._dtype)

    def static_lengths(self, ragged_lengths: bool = True) -> list | None:
        """The lengths, as ``from_lengths`` takes them, where known statically.

        Args:
            ragged_lengths: Give a ragged dimension's row lengths (else None for it).

        Returns:
            The lengths (None entries where unknown), or None when the rank is unknown.
        """
        out: list = []
        first = _lengths_value(self._dimension(0))
        out.append(None if first is None else int(first))
        for rp in self._row_partitions:
            if rp.is_uniform():
                v = _lengths_value(rp.uniform_row_length())
                out.append(None if v is None else int(v))
            elif ragged_lengths:
                v = _lengths_value(rp.row_lengths())
                out.append(None if v is None else tuple(int(x) for x in v))
            else:
                out.append(None)
        inner = _lengths_value(self._inner_shape)
        rest = [None] * (self.inner_rank - 1) if inner is None else \
            [int(x) for x in inner[1:]]
        return out + rest

    def __repr__(self) -> str:
        lengths = self.static_lengths()
        text = "[" + ", ".join("None" if x is None else
                               "(%s)" % ", ".join(map(str, x)) if isinstance(x, tuple)
                               else str(x) for x in lengths) + "]"
        return "<DynamicRaggedShape lengths=%s num_row_partitions=%d>" % (
            text.replace(",)", ")"), self.num_row_partitions)

    # -- building values ---------------------------------------------------------------
    def _with_flat_values(self, flat_values: Any) -> Any:
        if not self._row_partitions:
            return flat_values
        return RaggedTensor.from_nested_row_splits(
            flat_values, [rp.row_splits() for rp in self._row_partitions], validate=False)


dispatch.register_dispatchable_type(DynamicRaggedShape)


def _static(shape: DynamicRaggedShape, what: str) -> list:
    lengths = shape.static_lengths()
    if lengths is None or any(x is None for x in lengths):
        raise ValueError("%s needs the lengths of %r statically" % (what, shape))
    return lengths


def _as_ragged_shape(x: Any) -> DynamicRaggedShape:
    if isinstance(x, DynamicRaggedShape):
        return x
    value = _lengths_value(convert_to_tensor(x))
    if value is None:
        raise ValueError("A shape broadcast with a DynamicRaggedShape must be known "
                         "statically")
    return DynamicRaggedShape.from_lengths([int(v) for v in value] or [1])[:len(value)] \
        if len(value) else DynamicRaggedShape([], np.zeros(0, np.int64))


def _broadcast_lengths(a: list, b: list) -> list:
    """TensorFlow's ragged broadcasting of two length lists (aligned at the right; a length of
    1, uniform or in a row, stretches)."""
    if len(a) < len(b):
        a, b = b, a
    b = [1] * (len(a) - len(b)) + list(b)
    out: list = []
    rows = 1
    for axis, (x, y) in enumerate(zip(a, b)):
        if not isinstance(x, tuple) and not isinstance(y, tuple):
            if x != y and 1 not in (x, y):
                raise errors.InvalidArgumentError(
                    None, None, "Incompatible shapes: dimension %d has %d and %d" % (axis, x, y))
            out.append(y if x == 1 else x)
            rows *= out[-1]
            continue
        xs = x if isinstance(x, tuple) else (x,) * rows
        ys = y if isinstance(y, tuple) else (y,) * rows
        if len(xs) != rows or len(ys) != rows:
            raise ValueError("Broadcasting a ragged dimension under a stretched one is not "
                             "supported: %r and %r" % (a, b))
        row = []
        for p, q in zip(xs, ys):
            if p != q and 1 not in (p, q):
                raise errors.InvalidArgumentError(
                    None, None, "Incompatible shapes: dimension %d has rows of %d and %d"
                    % (axis, p, q))
            row.append(q if p == 1 else p)
        out.append(tuple(row))
        rows = sum(row)
    return out


@dispatch.dispatch_for_api(manip_ops.broadcast_dynamic_shape,
                           {"shape_x": DynamicRaggedShape})
def _broadcast_dynamic_shape_x(shape_x: Any, shape_y: Any) -> DynamicRaggedShape:
    return _broadcast_shapes(shape_x, shape_y)


@dispatch.dispatch_for_api(manip_ops.broadcast_dynamic_shape,
                           {"shape_x": typing.Union[TensorBase, list, tuple, np.ndarray],
                            "shape_y": DynamicRaggedShape})
def _broadcast_dynamic_shape_y(shape_x: Any, shape_y: Any) -> DynamicRaggedShape:
    return _broadcast_shapes(shape_x, shape_y)


def _broadcast_shapes(shape_x: Any, shape_y: Any) -> DynamicRaggedShape:
    x, y = _as_ragged_shape(shape_x), _as_ragged_shape(shape_y)
    lengths = _broadcast_lengths(_static(x, "broadcast_dynamic_shape"),
                                 _static(y, "broadcast_dynamic_shape"))
    ragged = [i for i, v in enumerate(lengths) if isinstance(v, tuple)]
    parts = max([x.num_row_partitions, y.num_row_partitions] + [r for r in ragged[-1:]])
    return DynamicRaggedShape.from_lengths(lengths, num_row_partitions=parts,
                                           dtype=x.dtype if isinstance(shape_x,
                                                                       DynamicRaggedShape)
                                           else y.dtype)


def _coordinates(shape: DynamicRaggedShape) -> list:
    """For each flat value of ``shape`` (its row-partitioned part), its index along each
    dimension down to the last partition (NumPy int64 arrays)."""
    lengths = _static(shape, "broadcast_to")
    coords = [np.arange(int(lengths[0]))]
    for rp in shape.row_partitions:
        splits = np.asarray(_lengths_value(rp.row_splits()), np.int64)
        rowids = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
        coords = [c[rowids] for c in coords] + [np.arange(splits[-1]) - splits[rowids]]
    return coords


def _concat(parts: list) -> Any:
    return concat([convert_to_tensor(p) for p in parts], 0)


@dispatch.dispatch_for_api(shape_ops.broadcast_to, {"shape": DynamicRaggedShape})
def _broadcast_to(input: Any, shape: DynamicRaggedShape, name: str | None = None) -> Any:  # noqa: A002
    if isinstance(input, RaggedTensor):
        if input.row_splits_dtype != shape.dtype:
            raise ValueError("Cannot coerce row_splits.dtype (%s) to the shape's dtype (%s)"
                             % (input.row_splits_dtype.name, shape.dtype.name))
        src = DynamicRaggedShape.from_tensor(input)
        if src.static_lengths()[:src.num_row_partitions + 1] != \
                shape.static_lengths()[:src.num_row_partitions + 1]:
            raise ValueError("Broadcasting a RaggedTensor to a DynamicRaggedShape needs its "
                             "ragged dimensions to match: %r to %r" % (src, shape))
        inner = shape.inner_shape[1:]
        flat = input.flat_values
        target = _concat([shape_ops.shape(flat, out_type=shape.dtype)[:1], inner])
        return shape._with_flat_values(shape_ops.broadcast_to(flat, target))
    x = convert_to_tensor(input)
    rank = shape.rank
    if x.shape.rank is None or x.shape.rank > rank:
        raise ValueError("Cannot broadcast a tensor of rank %s to %r" % (x.shape.rank, shape))
    x = dense_reshape(x, [1] * (rank - x.shape.rank) + x.shape.as_list()) \
        if x.shape.rank < rank else x
    k = shape.num_row_partitions
    coords = _coordinates(shape)
    dims = x.shape.as_list()
    index = np.stack([c if dims[i] != 1 else np.zeros_like(c)
                      for i, c in enumerate(coords)], axis=-1)
    gathered = gather_nd(x, index)
    flat_shape = _concat([np.asarray([len(coords[0])], shape.dtype.as_numpy_dtype),
                                   shape.inner_shape[1:]])
    flat = shape_ops.broadcast_to(gathered, flat_shape) if rank > k + 1 else gathered
    return shape._with_flat_values(flat)


@dispatch.dispatch_for_api(shape_ops.reshape, {"shape": DynamicRaggedShape})
def _reshape(tensor: Any, shape: DynamicRaggedShape, name: str | None = None) -> Any:
    flat = tensor.flat_values if isinstance(tensor, RaggedTensor) else convert_to_tensor(tensor)
    return shape._with_flat_values(dense_reshape(flat, shape.inner_shape))


@dispatch.dispatch_for_api(shape_ops.shape, {"input": RaggedTensor})
def _ragged_shape(input: Any, name: str | None = None,  # noqa: A002
                  out_type: DTypeLike = dtypes.int32) -> DynamicRaggedShape:
    return DynamicRaggedShape.from_tensor(input, dtype=out_type)


@dispatch.dispatch_for_api(fill_ops.zeros, {"shape": DynamicRaggedShape})
def _zeros(shape: DynamicRaggedShape, dtype: DTypeLike = dtypes.float32,
           name: str | None = None) -> Any:
    return shape._with_flat_values(fill_ops.zeros(shape.inner_shape, dtype))


@dispatch.dispatch_for_api(fill_ops.ones, {"shape": DynamicRaggedShape})
def _ones(shape: DynamicRaggedShape, dtype: DTypeLike = dtypes.float32,
          name: str | None = None) -> Any:
    return shape._with_flat_values(fill_ops.ones(shape.inner_shape, dtype))


__all__ = ["DynamicRaggedShape"]
