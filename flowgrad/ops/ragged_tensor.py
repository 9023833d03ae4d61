"""A minimal ``tf.RaggedTensor``: rows of different lengths, held as flat ``values`` and
``row_splits`` (row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``), nested for more
ragged dimensions. Factories (``from_row_splits``/``from_row_lengths``/``from_value_rowids``,
``tf.ragged.constant``), ``to_tensor`` (the RaggedTensorToTensor op, both modes) and, in
eager mode, ``to_list``/``numpy``. Built to be extended (ragged ops, tf.data batching)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor, to_numpy
from flowgrad.framework.tensor import constant as dense_constant
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import ones_like
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.indexing_ops import unsorted_segment_sum
from flowgrad.ops.reduction_ops import cumsum
from flowgrad.ops.shape_ops import shape as shape_of
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike
from collections.abc import Sequence


class RaggedTensor:
    """Rows of different lengths: ``values`` (a tensor or a RaggedTensor) and ``row_splits``
    (an int64 vector, starting at 0, non-decreasing, ending at ``len(values)``).

    Args:
        values: The flat values of all rows (a tensor, or a RaggedTensor for more ragged
            dimensions).
        row_splits: A 1-D int64 (or int32) tensor: where each row starts in ``values``, then the
            end.
        internal: Must be True: build RaggedTensors with the ``from_*`` class methods, as in
            TensorFlow.
    """

    def __init__(self, values: TensorLike, row_splits: TensorLike, internal: bool = False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform_row_length: int | None = None  # every row this long (from_uniform_...)

    # -- factories ---------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values: TensorLike, row_splits: TensorLike, name: str | None = None,
                        validate: bool = True) -> RaggedTensor:
        """Row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``.

        Raises:
            InvalidArgumentError: (eager, ``validate``) the splits do not partition values.
        """
        values = _as_values(values)
        splits = convert_to_tensor(row_splits, dtypes.int64) if not _is_tensor(row_splits) \
            else row_splits
        if splits.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("row_splits must have dtype int32 or int64, got %s"
                             % splits.dtype.name)
        if validate and isinstance(splits, EagerTensor):
            s = np.asarray(splits.numpy())
            n = _nrows_of(values)
            if s.ndim != 1 or s.size == 0 or s[0] != 0 or np.any(np.diff(s) < 0) or \
                    (n is not None and s[-1] != n):
                raise errors.InvalidArgumentError(
                    None, None, "Arguments to from_row_splits do not form a valid "
                    "RaggedTensor: row_splits %s for %s values" % (s.tolist(), n))
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values: TensorLike, row_lengths: Any, name: str | None = None,
                         validate: bool = True) -> RaggedTensor:
        """Row ``i`` has ``row_lengths[i]`` values."""
        lengths = convert_to_tensor(row_lengths, dtypes.int64) if not _is_tensor(row_lengths) \
            else row_lengths
        zero = dense_constant(np.zeros(1, lengths.dtype.base_dtype.np))
        return cls.from_row_splits(values, concat([zero, cumsum(lengths)], 0), validate=validate)

    @classmethod
    def from_value_rowids(cls, values: TensorLike, value_rowids: Any, nrows: Any = None,
                          name: str | None = None, validate: bool = True) -> RaggedTensor:
        """``values[j]`` belongs to row ``value_rowids[j]`` (sorted); ``nrows`` rows."""
        rowids = convert_to_tensor(value_rowids, dtypes.int64) if not _is_tensor(value_rowids) \
            else value_rowids
        if nrows is None:
            if not isinstance(rowids, EagerTensor):
                raise ValueError("from_value_rowids needs nrows for a graph tensor")
            ids = np.asarray(rowids.numpy())
            nrows = int(ids.max()) + 1 if ids.size else 0
        lengths = unsorted_segment_sum(ones_like(rowids), rowids, nrows)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_row_starts(cls, values: TensorLike, row_starts: Any, name: str | None = None,
                        validate: bool = True) -> RaggedTensor:
        """Row ``i`` starts at ``row_starts[i]`` (and ends where the next starts)."""
        starts = convert_to_tensor(row_starts, dtypes.int64) if not _is_tensor(row_starts) \
            else row_starts
        n = shape_of(_as_values(values), out_type=starts.dtype)[:1]
        return cls.from_row_splits(values, concat([starts, n], 0), validate=validate)

    @classmethod
    def from_row_limits(cls, values: TensorLike, row_limits: Any, name: str | None = None,
                        validate: bool = True) -> RaggedTensor:
        """Row ``i`` ends at ``row_limits[i]`` (and starts where the previous ends)."""
        limits = convert_to_tensor(row_limits, dtypes.int64) if not _is_tensor(row_limits) \
            else row_limits
        zero = dense_constant(np.zeros(1, limits.dtype.base_dtype.np))
        return cls.from_row_splits(values, concat([zero, limits], 0), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values: TensorLike, uniform_row_length: int,
                                nrows: Any = None, validate: bool = True,
                                name: str | None = None) -> RaggedTensor:
        """Rows of ``uniform_row_length`` values each (a static length)."""
        values = _as_values(values)
        n = _nrows_of(values)
        k = int(uniform_row_length)
        if n is None and k:         # a graph's values of unknown length: splits computed
            count = values.nrows(out_type=dtypes.int64) if isinstance(values, RaggedTensor) \
                else shape_of(values, out_type=dtypes.int64)[0]
            splits = range_op(dense_constant(np.int64(0)), count + 1, dense_constant(np.int64(k)))
        elif n is None:
            if nrows is None:
                raise ValueError("from_uniform_row_length needs nrows for rows of length 0")
            splits = np.zeros(int(nrows) + 1, np.int64)
        else:
            rows = n // k if k else int(nrows or 0)
            splits = np.arange(rows + 1, dtype=np.int64) * k
        rt = cls.from_row_splits(values, splits, validate=validate)
        rt._uniform_row_length = k
        return rt

    @classmethod
    def from_sparse(cls, st_input: Any, name: str | None = None,
                    row_splits_dtype: DTypeLike = dtypes.int64) -> RaggedTensor:
        """The rows of a 2-D SparseTensor whose values are left-aligned in each row (eager)."""
        idx = np.asarray(st_input.indices.numpy())
        shape = np.asarray(st_input.dense_shape.numpy())
        if idx.ndim != 2 or idx.shape[1] != 2:
            raise ValueError("rank(st_input) must be 2.")
        rows = idx[:, 0]
        expected = np.concatenate([np.arange(c) for c in np.bincount(rows, minlength=shape[0])]) \
            if len(rows) else np.zeros(0, np.int64)
        if not np.array_equal(idx[:, 1], expected):
            raise errors.InvalidArgumentError(None, None, "SparseTensor is not right-ragged")
        return cls.from_value_rowids(st_input.values, rows, nrows=int(shape[0]))

    @classmethod
    def from_nested_row_splits(cls, flat_values: Any, nested_row_splits: Any,
                               name: str | None = None, validate: bool = True) -> RaggedTensor:
        """Several ragged dimensions: ``nested_row_splits`` from the outermost in."""
        result = _as_values(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor: TensorLike, lengths: Any = None,
                    padding: str | Sequence | None = None, ragged_rank: int = 1,
                    name: str | None = None,
                    row_splits_dtype: DTypeLike = dtypes.int64) -> RaggedTensor:
        """The rows of a dense tensor (eager), cut to ``lengths`` or before trailing
        ``padding`` values; ``ragged_rank`` 1."""
        if ragged_rank != 1:
            raise NotImplementedError("RaggedTensor.from_tensor supports ragged_rank=1")
        t = convert_to_tensor(tensor)
        if not isinstance(t, EagerTensor):
            raise ValueError("RaggedTensor.from_tensor needs an eager tensor.")
        arr = np.asarray(t.numpy())
        if arr.ndim < 2:
            raise ValueError("The rank of a RaggedTensor must be greater than 1")
        if lengths is not None and padding is not None:
            raise ValueError("Specify lengths or padding, but not both")
        if lengths is not None:
            lens = np.asarray(convert_to_tensor(lengths).numpy()).astype(np.int64)
        elif padding is not None:
            pad = np.asarray(padding, dtype=arr.dtype)
            is_pad = np.all((arr == pad).reshape(arr.shape[:2] + (-1,)), axis=2)
            keep = ~is_pad[:, ::-1]
            lens = np.where(keep.any(axis=1), arr.shape[1] - np.argmax(keep, axis=1), 0)
        else:
            lens = np.full(arr.shape[0], arr.shape[1], np.int64)
        values = np.concatenate([arr[i, :n] for i, n in enumerate(lens)]) if len(lens) else \
            arr.reshape((0,) + arr.shape[2:])
        dt = dtypes.as_dtype(row_splits_dtype)
        return cls.from_row_lengths(EagerTensor(values, t.dtype),
                                    EagerTensor(lens.astype(dt.np)))

    # -- structure ---------------------------------------------------------------------
    @property
    def values(self) -> Any:
        return self._values

    @property
    def row_splits(self) -> Any:
        return self._row_splits

    @property
    def flat_values(self) -> Any:
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v.values
        return v

    @property
    def nested_row_splits(self) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_splits)
            rt = rt.values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self) -> dtypes.DType:
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self) -> dtypes.DType:
        return self._row_splits.dtype

    @property
    def shape(self) -> TensorShape:
        """[nrows, None (ragged), ..., the flat values' inner dimensions]."""
        n = self._row_splits.shape.as_tuple()
        nrows = None if n is None or n[0] is None else n[0] - 1
        inner = self.flat_values.shape.as_tuple()
        if inner is None:
            return unknown_shape()
        dims, rt = [nrows], self
        while isinstance(rt, RaggedTensor):     # a uniform row length is a known dimension
            dims.append(rt._uniform_row_length)
            rt = rt._values
        return TensorShape(dims + list(inner[1:]))

    def nrows(self, out_type: DTypeLike | None = None, name: str | None = None) -> Any:
        return shape_of(self._row_splits, out_type=out_type or self._row_splits.dtype)[0] - 1

    def row_lengths(self, axis: int = 1, name: str | None = None) -> Any:
        """The length of each row (of the ragged dimension ``axis``)."""
        if axis == 1:
            return self._row_splits[1:] - self._row_splits[:-1]
        return self.with_values(self._values.row_lengths(axis - 1))

    @property
    def uniform_row_length(self) -> Any:
        """The length of every row (a scalar tensor) when they are uniform, else None."""
        if self._uniform_row_length is None:
            return None
        return convert_to_tensor(self._uniform_row_length, self._row_splits.dtype.base_dtype)

    def with_values(self, new_values: Any) -> RaggedTensor:
        rt = RaggedTensor(_as_values(new_values), self._row_splits, internal=True)
        rt._uniform_row_length = self._uniform_row_length
        return rt

    def with_flat_values(self, new_values: Any) -> RaggedTensor:
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    # -- conversion --------------------------------------------------------------------
    def to_tensor(self, default_value: TensorLike | None = None, name: str | None = None,
                  shape: ShapeLike | TensorLike | None = None) -> Any:
        """A dense tensor: rows padded with ``default_value`` (zero/b"") to the longest row
        (or cut or padded to ``shape``)."""
        flat = self.flat_values
        dt = flat.dtype.base_dtype
        if default_value is None:
            default_value = b"" if dt is dtypes.string else np.zeros((), dt.np)
        splits = [s if s.dtype.base_dtype is dtypes.int64 else
                  convert_to_tensor(s) for s in self.nested_row_splits]
        rank = self.ragged_rank + (flat.shape.rank if flat.shape.rank is not None else 1)
        dims = [-1] * rank if shape is None else \
            [-1 if d is None else int(d) for d in TensorShape(shape).as_list()]
        return apply_op("RaggedTensorToTensor",
                        [dense_constant(np.array(dims, np.int64)), flat,
                         convert_to_tensor(default_value, dt)] + splits,
                        {"row_partition_types": ("ROW_SPLITS",) * len(splits)},
                        name=name or "RaggedToTensor")

    def _eager_check(self, what: str) -> None:
        if not executing_eagerly() or not isinstance(self.flat_values, EagerTensor):
            raise ValueError("RaggedTensor.%s() is only supported in eager mode." % what)

    def to_list(self) -> list:
        """The rows as nested Python lists (eager mode)."""
        self._eager_check("to_list")
        return _to_list(np.asarray(self.flat_values.numpy()),
                        [np.asarray(s.numpy()) for s in self.nested_row_splits])

    def numpy(self) -> np.ndarray:
        """The rows as NumPy (eager mode), as TensorFlow gives them: one array stacking the
        rows where they all have the same length, else an object array of the rows."""
        self._eager_check("numpy")
        values = self.values.numpy()
        splits = np.asarray(self.row_splits.numpy())
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        ragged_rows = any(len(row) != len(rows[0]) for row in rows)
        if ragged_rows:     # np.array would broadcast rows of equal shape into one block
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    def __getitem__(self, key: Any) -> Any:
        """A row (``rt[i]``), an element (``rt[i, j]``) or rows (``rt[a:b]``), eager mode."""
        self._eager_check("__getitem__")
        keys = key if isinstance(key, tuple) else (key,)
        first, rest = keys[0], keys[1:]
        n = int(self._row_splits.shape[0]) - 1
        if isinstance(first, slice):
            start, stop, step = first.indices(n)
            if step != 1:
                raise ValueError("Slicing a RaggedTensor's rows supports step 1 only")
            out = _slice_ragged(self, start, max(start, stop))
            return _index_rows(out, rest) if rest else out
        i = int(first)
        if not -n <= i < n:
            raise errors.InvalidArgumentError(None, None, "slice index %d of dimension 0 out "
                                              "of bounds." % i)
        row = _rows(self)[i % n]
        return row[rest if len(rest) > 1 else rest[0]] if rest else row

    def __repr__(self) -> str:
        if executing_eagerly() and isinstance(self.flat_values, EagerTensor):
            with np.printoptions(formatter={"all": _element_text}):
                return "<tf.RaggedTensor %s>" % _element_text(self.numpy())
        return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self._row_splits)

    __str__ = __repr__


class RaggedTensorValue:
    """TF1's ``tf.compat.v1.ragged.RaggedTensorValue``: a RaggedTensor's NumPy arrays, as a
    Session fetches them.

    Args:
        values: the rows' values (an ndarray or another RaggedTensorValue).
        row_splits: an int vector (ndarray).
    """

    def __init__(self, values: TensorLike, row_splits: TensorLike):
        self._values = values
        self._row_splits = np.asarray(row_splits)

    @property
    def values(self) -> Any:
        return self._values

    @property
    def row_splits(self) -> np.ndarray:
        return self._row_splits

    @property
    def flat_values(self) -> np.ndarray:
        v = self._values
        while isinstance(v, RaggedTensorValue):
            v = v.values
        return v

    @property
    def nested_row_splits(self) -> tuple:
        out, v = [self._row_splits], self._values
        while isinstance(v, RaggedTensorValue):
            out.append(v.row_splits)
            v = v.values
        return tuple(out)

    @property
    def dtype(self) -> np.dtype:
        return self.flat_values.dtype

    def to_list(self) -> list:
        """The nested Python list of rows."""
        return _to_list(np.asarray(self.flat_values), list(self.nested_row_splits))

    def __repr__(self) -> str:
        return "tf.RaggedTensorValue(values=%r, row_splits=%r)" % (self._values,
                                                                   self._row_splits)


def ragged_value(flat_values: Any, *nested_row_splits: Any) -> RaggedTensorValue:
    """A RaggedTensorValue from flat values and the row splits, outermost first."""
    out = np.asarray(flat_values)
    for splits in reversed(nested_row_splits):
        out = RaggedTensorValue(out, splits)
    return out


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, np.ndarray)


def _as_values(values: Any) -> Any:
    return values if isinstance(values, RaggedTensor) or _is_tensor(values) \
        else convert_to_tensor(values)


def _nrows_of(values: Any) -> int | None:
    if isinstance(values, RaggedTensor):
        s = values.row_splits
        return int(s.shape[0]) - 1 if s.shape[0] is not None else None
    dims = values.shape.as_tuple()
    return None if not dims else dims[0]


def _index_rows(rt: RaggedTensor, rest: tuple) -> Any:
    """``rt[a:b, *rest]``: each row sliced by ``rest`` (a slice first: an integer cannot
    index a ragged dimension, as in TensorFlow); the rows stay ragged."""
    if not isinstance(rest[0], slice):
        raise ValueError("Cannot index into an inner ragged dimension.")
    key = rest if len(rest) > 1 else rest[0]
    parts = [row[key] for row in _rows(rt)]
    if any(not isinstance(p, EagerTensor) for p in parts):
        raise ValueError("Indexing inner dimensions of sliced rows of a RaggedTensor of "
                         "ragged rank %d is not supported" % rt.ragged_rank)
    lengths = np.asarray([int(p.shape[0]) for p in parts], np.int64)
    values = concat(parts, 0) if parts else rt.flat_values[:0]
    return RaggedTensor.from_row_lengths(values, lengths)


def _element_text(x: Any) -> str:
    """TensorFlow's ragged repr formatter: arrays with ", " between elements."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def _rows(rt: RaggedTensor) -> list:
    s = np.asarray(rt.row_splits.numpy())
    v = rt.values
    if isinstance(v, RaggedTensor):
        return [_slice_ragged(v, int(a), int(b)) for a, b in zip(s[:-1], s[1:])]
    arr = np.asarray(v.numpy())
    return [EagerTensor(arr[a:b]) for a, b in zip(s[:-1], s[1:])]


def _slice_ragged(rt: RaggedTensor, a: int, b: int) -> RaggedTensor:
    s = np.asarray(rt.row_splits.numpy())
    sub = s[a:b + 1]
    inner = rt.values
    lo, hi = int(sub[0]), int(sub[-1])
    vals = _slice_ragged(inner, lo, hi) if isinstance(inner, RaggedTensor) \
        else EagerTensor(np.asarray(inner.numpy())[lo:hi])
    return RaggedTensor(vals, EagerTensor(sub - sub[0]), internal=True)


def _to_list(flat: np.ndarray, splits: list) -> list:
    if not splits:
        return flat.tolist()
    s, rest = splits[0], splits[1:]
    if not rest:
        return [flat[a:b].tolist() for a, b in zip(s[:-1], s[1:])]
    inner = _to_list(flat, rest)
    return [inner[a:b] for a, b in zip(s[:-1], s[1:])]


def _partitions_as_splits(parts: tuple, types: tuple) -> list:
    """Row splits of each ragged level from TensorFlow's row partitions: ``ROW_SPLITS``,
    or ``FIRST_DIM_SIZE`` followed by ``VALUE_ROWIDS`` (what ``tf.strings.split`` makes)."""
    types = [t.decode() if isinstance(t, bytes) else str(t) for t in types]
    if "FIRST_DIM_SIZE" not in types:
        return list(parts)
    out, nrows = [], None
    for kind, p in zip(types, parts):
        p = np.asarray(p)
        if kind == "FIRST_DIM_SIZE":
            nrows = int(p)
        elif kind == "VALUE_ROWIDS":
            counts = np.bincount(p.astype(np.int64), minlength=nrows)[:nrows]
            out.append(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))
            nrows = len(p)
        else:
            out.append(p)
            nrows = int(p[-1])
    return out


def _to_tensor_kernel(shape: Any, values: Any, default_value: Any, *splits: Any,
                      row_partition_types: tuple) -> np.ndarray:
    values = np.asarray(values, dtype=object) if isinstance(values, bytes) else \
        np.asarray(values)
    splits = _partitions_as_splits(splits, row_partition_types)
    nested = _to_list(values, [np.asarray(s) for s in splits]) if splits else values.tolist()
    ragged = len(splits)
    inner = values.shape[1:]
    dims = [int(d) for d in np.asarray(shape)]
    # the longest row at each ragged level
    sizes = [len(nested)] + [0] * ragged
    level = [nested]
    for k in range(1, ragged + 1):
        level = [row for rows in level for row in rows]
        sizes[k] = max((len(r) for r in level), default=0)
    sizes += list(inner)
    sizes = [s if d < 0 else d for s, d in zip(sizes, dims)]
    out = np.empty(sizes, dtype=values.dtype)
    out[...] = np.asarray(default_value, dtype=values.dtype)

    def fill(rows: Any, index: tuple, depth: int) -> None:
        for i, row in enumerate(rows[:sizes[depth]]):
            if depth == ragged:
                out[index + (i,)] = np.asarray(row, dtype=values.dtype)[
                    tuple(slice(0, n) for n in sizes[depth + 1:])] if inner else row
            else:
                fill(row, index + (i,), depth + 1)
    fill(nested, (), 0)
    return out


def _to_tensor_rule(ins: list, attrs: dict) -> tuple:
    dims = constant_value(ins[0])
    shape = unknown_shape() if dims is None else TensorShape(
        [None if d < 0 else int(d) for d in np.asarray(dims).tolist()])
    return ins[1].dtype.base_dtype, shape


register_op("RaggedTensorToTensor", _to_tensor_kernel, _to_tensor_rule,
            input_names=("shape", "values", "default_value", "row_partition_tensors"))
NotDifferentiable("RaggedTensorToTensor")


def constant(pylist: Any, dtype: DTypeLike | None = None, ragged_rank: int | None = None,
             inner_shape: Any = None, name: str | None = None,
             row_splits_dtype: DTypeLike = dtypes.int64) -> Any:
    """``tf.ragged.constant``: a RaggedTensor of nested Python lists (rows of any length).

    Args:
        pylist: nested lists (or tuples) of scalars.
        dtype: the element type (inferred like ``tf.constant`` when None).
        ragged_rank: how many dimensions are ragged (default: all but the values').
        inner_shape: accepted for TensorFlow's signature; the values are scalars.
        name: unused (eager values).
        row_splits_dtype: int64 (default) or int32.

    Returns:
        A RaggedTensor (or a tensor for a list of depth <= 1).
    """
    depth = _depth(pylist)
    rank = depth - 1 if ragged_rank is None else int(ragged_rank)
    split_dt = dtypes.as_dtype(row_splits_dtype)
    if depth <= 1 or rank == 0:
        return _const(pylist, dtype)
    splits = []
    level = list(pylist)
    for _ in range(rank):
        splits.append(np.concatenate([[0], np.cumsum([len(x) for x in level])])
                      .astype(split_dt.np))
        level = [y for x in level for y in x]
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    rt = _const(level, dt) if level else _const(np.zeros(0, (dt or dtypes.float32).np), dt)
    for split in reversed(splits):
        rt = RaggedTensor(rt, _const(split, split_dt), internal=True)
    return rt


def _const(value: Any, dtype: Any) -> Any:
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    if dt is not None and dt is not dtypes.string:
        return dense_constant(np.asarray(to_numpy(value, dt)), dt)
    return dense_constant(value, dt)


def _depth(x: Any) -> int:
    if isinstance(x, (list, tuple)):
        return 1 + max((_depth(y) for y in x), default=0)
    return 0
