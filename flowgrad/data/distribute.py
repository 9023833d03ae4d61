"""``tensorflow.python.data.experimental.ops.distribute``'s ``compute_batch_size``: the
batch size of a tf.data pipeline, which Keras 3's ``distribution_lib`` reads to shard a
dataset across processes."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.data import caching, sampling
from flowgrad.data.dataset_ops import (Dataset, _BatchDataset, _ConcatenateDataset,
                                       _FilterDataset, _PassThroughDataset, _RepeatDataset,
                                       _ShardDataset, _ShuffleDataset, _SkipDataset,
                                       _TakeDataset, _ZipDataset)
from flowgrad.data.structure import RaggedTensorSpec, SparseTensorSpec
from flowgrad.framework.tensor import Tensor, constant
from flowgrad.runtime.function import TensorSpec

#: Transformations that keep their input's batches whole (TensorFlow's pass-through ops:
#: Filter, Shuffle, Repeat, Take, Skip, Shard, AssertCardinality, Prefetch, Options, Cache).
_PASS_THROUGH = (_FilterDataset, _ShuffleDataset, _RepeatDataset, _TakeDataset, _SkipDataset,
                 _ShardDataset, sampling._AssertCardinalityDataset, _PassThroughDataset,
                 caching.CacheDataset)


def _static_batch_dim(spec: Any) -> int | None:
    """The first dimension of a component's shape (None: unknown, or not a tensor's spec).

    Raises:
      IndexError: the component is a scalar (TensorFlow indexes its empty shape).
    """
    if not isinstance(spec, (TensorSpec, SparseTensorSpec, RaggedTensorSpec)) or \
            spec.shape.rank is None:
        return None
    if spec.shape.rank == 0:
        raise IndexError("list index out of range")
    return spec.shape.as_list()[0]


def _walked_batch_size(dataset: Dataset) -> int:
    """The batch size of the last batching transformation, through pass-through ones; -1
    where another transformation may change it or inputs disagree."""
    if isinstance(dataset, _BatchDataset):
        return dataset._size
    if isinstance(dataset, _PASS_THROUGH):
        return _walked_batch_size(dataset._inputs[0])
    if isinstance(dataset, (_ZipDataset, _ConcatenateDataset)):
        sizes = {_walked_batch_size(d) for d in dataset._inputs}
        return sizes.pop() if len(sizes) == 1 else -1
    return -1


def compute_batch_size(dataset: Dataset) -> Tensor:
    """The batch size of ``dataset``, not counting a partial last batch.

    As TensorFlow's: the first dimension of every component when all are known and equal
    (-1 when they differ); else the batch size of the last ``batch``/``padded_batch``, walking
    up through transformations that keep batches whole (filter, shuffle, repeat, take, skip,
    shard, prefetch, cache); -1 when another transformation (map, rebatch, ...) follows it,
    when zipped or concatenated batches differ, or when there is no batching.

    Args:
      dataset: A ``tf.data.Dataset``.

    Returns:
      An int64 scalar tensor.

    Raises:
      IndexError: a component of the elements is a scalar.
    """
    dims = [_static_batch_dim(s) for s in nest.flatten(dataset.element_spec)]
    if all(d is not None for d in dims):
        size = dims[0] if all(d == dims[0] for d in dims) else -1
    else:
        size = _walked_batch_size(dataset)
    return constant(np.int64(size), name="static_batch_size")


__all__ = ["compute_batch_size"]
