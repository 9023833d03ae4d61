"""tf.data transformations that choose or regroup elements without a state the user sees:
``Dataset.unique``, ``take_while``, ``ignore_errors`` and ``rebatch``."""
from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from typing import Any
import numpy as np

from flowgrad import nest
from flowgrad.data import structure
from flowgrad.data.dataset_ops import (INFINITE, TRANSFORMS, UNKNOWN, Dataset, _batched_spec,
                                       _positive, _predicate, _stack, _UnbatchDataset)
from flowgrad.data.structure import IterationContext
from flowgrad.framework import dtypes, errors
from flowgrad.framework.tensor import EagerTensor
from flowgrad.runtime.function import TensorSpec

_UNIQUE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.string)


class _UniqueDataset(Dataset):
    def __init__(self, input_ds: Dataset):
        spec = input_ds.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype not in _UNIQUE_DTYPES:
            raise TypeError("`tf.data.Dataset.unique` does not support type %s -- only "
                            "`tf.int32`, `tf.int64`, and `tf.string` are supported."
                            % (getattr(spec, "dtype", spec),))
        super().__init__(spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        seen: set = set()
        for flat in self._inputs[0]._iterate(ctx):
            value = np.asarray(flat[0])
            key = (value.shape, value.tobytes() if value.dtype.kind != "O" else
                   tuple(value.reshape(-1).tolist()))
            if key not in seen:
                seen.add(key)
                yield flat

    def _cardinality(self) -> int:
        return UNKNOWN


class _TakeWhileDataset(Dataset):
    def __init__(self, input_ds: Dataset, predicate: Callable):
        self._fn = _predicate(predicate, input_ds.element_spec)
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        for flat in self._inputs[0]._iterate(ctx):
            if not bool(self._fn(flat)[0]):
                return
            yield flat

    def _cardinality(self) -> int:
        return UNKNOWN


class _IgnoreErrorsDataset(Dataset):
    """The elements of its input, less those whose making raised an op error (in a ``map``
    or ``filter`` function, as TensorFlow's ``ignore_errors`` drops them)."""

    def __init__(self, input_ds: Dataset, log_warning: bool):
        self._log = bool(log_warning)
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        inner = IterationContext(ctx.bindings)
        inner.on_error = self._skip
        return self._inputs[0]._iterate(inner)

    def _skip(self, error: errors.OpError) -> None:
        if self._log:
            logging.getLogger("tensorflow").warning(
                "Error raised with error message %s", error.message)

    def _cardinality(self) -> int:
        return UNKNOWN


class _RebatchDataset(Dataset):
    def __init__(self, input_ds: Dataset, sizes: list, drop_remainder: bool):
        spec = input_ds.element_spec
        for s in structure.flat_specs(spec):
            if s.shape.rank == 0:
                raise ValueError("Cannot rebatch a dataset with scalar components: rebatch "
                                 "needs batched elements.")
        self._rows = _UnbatchDataset(input_ds)
        self._sizes, self._drop = sizes, bool(drop_remainder)
        lead = sizes[0] if drop_remainder and len(set(sizes)) == 1 else None
        super().__init__(nest.map_structure(lambda s: _batched_spec(s, lead),
                                            self._rows.element_spec), (self._rows,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        rows = self._rows._iterate(ctx)
        spec = self._rows.element_spec
        for size in itertools.cycle(self._sizes):
            batch = list(itertools.islice(rows, size))
            if not batch or (len(batch) < size and self._drop):
                return
            yield _stack(batch, spec)

    def _cardinality(self) -> int:
        return INFINITE if self._inputs[0]._cardinality() == INFINITE else UNKNOWN


class _DenseToSparseBatchDataset(Dataset):
    """Batches of a dense component as SparseTensors whose rows have ``row_shape`` (every
    entry of an element is a value; a -1 dimension is the batch's largest)."""

    def __init__(self, input_ds: Dataset, batch_size: int, row_shape: list):
        spec = input_ds.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError("sparse_batch needs elements of one dense tensor, got %s" % (spec,))
        if spec.shape.rank is not None and spec.shape.rank != len(row_shape):
            raise ValueError("row_shape %s must have the rank of the elements, %s"
                             % (row_shape, spec.shape))
        self._size, self._row = _positive(batch_size, "batch_size"), row_shape
        super().__init__(structure.SparseTensorSpec(
            [None] + [None if d < 0 else d for d in row_shape], spec.dtype), (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        rows = self._inputs[0]._iterate(ctx)
        while True:
            batch = [np.asarray(flat[0]) for flat in itertools.islice(rows, self._size)]
            if not batch:
                return
            yield self._sparse(batch)

    def _sparse(self, batch: list) -> list:
        dims = []
        for i, want in enumerate(self._row):
            have = max(a.shape[i] for a in batch)
            if 0 <= want < have:
                raise errors.InvalidArgumentError(
                    None, None, "Input element had shape %s that is larger than the row shape "
                    "%s." % (list(max(batch, key=lambda a: a.shape[i]).shape), self._row))
            dims.append(have if want < 0 else want)
        indices = [np.concatenate([np.full((a.size, 1), b, np.int64),
                                   np.argwhere(np.ones(a.shape, bool)).astype(np.int64)], 1)
                   for b, a in enumerate(batch)]
        return [np.concatenate(indices).reshape(-1, len(dims) + 1),
                np.concatenate([a.reshape(-1) for a in batch]),
                np.asarray([len(batch)] + dims, np.int64)]


def sparse_batch(dataset: Dataset, batch_size: int, row_shape: Any) -> Dataset:
    """``dataset.sparse_batch(batch_size, row_shape)``: batches of dense elements as
    SparseTensors of dense shape ``[batch, *row_shape]``."""
    dims = row_shape.as_list() if hasattr(row_shape, "as_list") else list(
        np.asarray(row_shape).reshape(-1))
    return _DenseToSparseBatchDataset(dataset, batch_size,
                                      [-1 if d is None else int(d) for d in dims])


def unique(dataset: Dataset) -> Dataset:
    """``dataset.unique()``: each element once, at its first occurrence."""
    return _UniqueDataset(dataset)


def take_while(dataset: Dataset, predicate: Callable) -> Dataset:
    """``dataset.take_while(predicate)``: the elements before the first for which
    ``predicate`` is False."""
    return _TakeWhileDataset(dataset, predicate)


def ignore_errors(dataset: Dataset, log_warning: bool = False) -> Dataset:
    """``dataset.ignore_errors()``: the elements whose making raised no error."""
    return _IgnoreErrorsDataset(dataset, log_warning)


def rebatch(dataset: Dataset, batch_size: Any, drop_remainder: bool = False) -> Dataset:
    """``dataset.rebatch(batch_size)``: the rows of the (batched) elements in batches of
    ``batch_size``, or of the sizes of a list of them in turn."""
    if isinstance(batch_size, EagerTensor):
        batch_size = batch_size.numpy()
    sizes = [int(s) for s in np.asarray(batch_size).reshape(-1)]
    if not sizes:
        raise errors.InvalidArgumentError(None, None, "batch_sizes must not be empty")
    for s in sizes:
        _positive(s, "batch_size")
    return _RebatchDataset(dataset, sizes, drop_remainder)


TRANSFORMS.update(sparse_batch=sparse_batch, unique=unique, take_while=take_while,
                  ignore_errors=ignore_errors, rebatch=rebatch)

__all__ = ["unique", "take_while", "ignore_errors", "rebatch", "sparse_batch"]
