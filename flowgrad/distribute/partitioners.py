"""``tf.distribute.experimental.partitioners``: how many shards a variable created under a
``ParameterServerStrategy`` is split into along its first axis (TensorFlow's formulas)."""
from __future__ import annotations

import math
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.type_hints import DTypeLike


def _element_size(dtype: Any, bytes_per_string: int) -> int:
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string if dtype.base_dtype == dtypes.string else dtype.size


class Partitioner:
    """A callable ``partitioner(shape, dtype, axis=0)`` returning the number of shards
    on each axis (``tf.distribute.experimental.partitioners.Partitioner``)."""

    def __call__(self, shape: TensorShape, dtype: DTypeLike, axis: int = 0) -> list:
        raise NotImplementedError


class FixedShardsPartitioner(Partitioner):
    """``num_shards`` shards (at most one per row).

    Args:
      num_shards: the number of shards.
    """

    def __init__(self, num_shards: int):
        if not isinstance(num_shards, int) or num_shards < 1:
            raise ValueError("`num_shards` must be a positive integer. Received %r."
                             % (num_shards,))
        self._num_shards = num_shards

    def __call__(self, shape: TensorShape, dtype: DTypeLike, axis: int = 0) -> list:
        shape = as_shape(shape)
        result = [1] * len(shape)
        result[axis] = min(self._num_shards, shape.as_list()[axis])
        return result


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least ``min_shard_bytes``, at most ``max_shards``.

    Args:
      min_shard_bytes: the least bytes of a shard (default 256 KiB).
      max_shards: the most shards.
      bytes_per_string: the size assumed for a string element.
    """

    def __init__(self, min_shard_bytes: int = 256 << 10, max_shards: int = 1,
                 bytes_per_string: int = 16):
        if min_shard_bytes < 1:
            raise ValueError("Argument `min_shard_bytes` must be positive. Received: %r"
                             % (min_shard_bytes,))
        if max_shards < 1:
            raise ValueError("Argument `max_shards` must be positive. Received: %r"
                             % (max_shards,))
        if bytes_per_string < 1:
            raise ValueError("Argument `bytes_per_string` must be positive. Received: %r"
                             % (bytes_per_string,))
        self._min_shard_bytes = min_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape: TensorShape, dtype: DTypeLike, axis: int = 0) -> list:
        shape = as_shape(shape)
        if axis >= len(shape):
            raise ValueError("Cannot partition variable along axis %d when shape is only %s"
                             % (axis, shape))
        total = shape.num_elements() * _element_size(dtype, self._bytes_per_string)
        result = [1] * len(shape)
        result[axis] = max(1, min(shape.as_list()[axis], self._max_shards,
                                  int(math.ceil(total / self._min_shard_bytes))))
        return result


class MaxSizePartitioner(Partitioner):
    """As few shards as keep each at most ``max_shard_bytes`` (at most ``max_shards``).

    Args:
      max_shard_bytes: the most bytes of a shard.
      max_shards: the most shards (None: no limit).
      bytes_per_string: the size assumed for a string element.
    """

    def __init__(self, max_shard_bytes: int, max_shards: int | None = None,
                 bytes_per_string: int = 16):
        if max_shard_bytes < 1 or bytes_per_string < 1:
            raise ValueError("Both max_shard_bytes and bytes_per_string must be positive. "
                             "Currently, max_shard_bytes is %r and bytes_per_string is %r"
                             % (max_shard_bytes, bytes_per_string))
        if max_shards is not None and max_shards < 1:
            raise ValueError("max_shards must be positive.")
        self._max_shard_bytes = max_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape: TensorShape, dtype: DTypeLike, axis: int = 0) -> list:
        shape = as_shape(shape)
        if not shape.is_fully_defined():
            raise ValueError("shape is not fully defined: %s" % (shape,))
        rows = shape.as_list()[axis]
        per_slice = shape.num_elements() / rows * _element_size(dtype, self._bytes_per_string)
        slices_per_shard = max(1, math.floor(self._max_shard_bytes / per_slice))
        shards = int(math.ceil(rows / slices_per_shard))
        if self._max_shards:
            shards = min(self._max_shards, shards)
        result = [1] * len(shape)
        result[axis] = shards
        return result


def row_ranges(rows: int, shards: int) -> list:
    """TensorFlow's split of ``rows`` into ``shards``: the first ``rows % shards`` shards
    get one row more.

    Args:
      rows: the variable's first dimension.
      shards: the number of shards.

    Returns:
      ``[(start, stop), ...]``, one per shard.
    """
    size, extra = divmod(rows, shards)
    out, start = [], 0
    for i in range(shards):
        stop = start + size + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


__all__ = ["FixedShardsPartitioner", "MaxSizePartitioner", "MinSizePartitioner",
           "Partitioner"]
