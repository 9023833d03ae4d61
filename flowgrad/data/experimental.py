"""``tf.data.experimental``: AUTOTUNE and cardinality constants."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.data.dataset_ops import AUTOTUNE, INFINITE, UNKNOWN
from flowgrad.framework import dtypes
from flowgrad.data.readers import CsvDataset, TFRecordWriter, make_csv_dataset
from flowgrad.data.sampling import (_RandomDataset, assert_cardinality,
                                    choose_from_datasets, sample_from_datasets)
from flowgrad.data.sampling import counter as Counter  # noqa: N812 - TensorFlow's name
from flowgrad.data.options import (AutoShardPolicy, DistributeOptions,  # noqa: F401
                                   ExternalStatePolicy, OptimizationOptions, ThreadingOptions)
from flowgrad.framework.type_hints import DTypeLike

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


def dense_to_ragged_batch(batch_size: int, drop_remainder: bool = False,
                          row_splits_dtype: DTypeLike = dtypes.int64) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.ragged_batch(...)``.

    Args:
        batch_size: elements per batch.
        drop_remainder: whether to drop a last, smaller batch.
        row_splits_dtype: int64 or int32, the dtype of the batches' row_splits.

    Returns:
        A function from a dataset to its ragged batches.
    """
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


class RandomDataset(_RandomDataset):
    """``tf.data.experimental.RandomDataset(seed)``: an endless dataset of pseudorandom
    int64 scalars (``tf.data.Dataset.random``).

    Args:
        seed: The op seed.
        rerandomize_each_iteration: Whether each iteration gives a new sequence.
        name: Accepted for TensorFlow's signature.
    """

    def __init__(self, seed: int | None = None, rerandomize_each_iteration: Any = None,
                 name: str | None = None):
        super().__init__(seed, rerandomize_each_iteration)


def unbatch() -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.unbatch()``.

    Returns:
        A function from a dataset to its unbatched elements.
    """
    return lambda dataset: dataset.unbatch()


def shuffle_and_repeat(buffer_size: int, count: int | None = None,
                       seed: int | None = None) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.shuffle(buffer_size, seed)
    .repeat(count)``.

    Args:
        buffer_size: The shuffle buffer's size.
        count: How many times to repeat (None or -1: forever).
        seed: The shuffle's op seed.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def cardinality(dataset: Any) -> Any:
    """The number of elements of ``dataset`` (-1 infinite, -2 unknown), an int64 tensor.

    Args:
        dataset: A ``tf.data.Dataset``.
    """
    return dataset.cardinality()


def get_next_as_optional(iterator: Any) -> Any:
    """``iterator.get_next_as_optional()``: the next element as a
    ``tf.experimental.Optional``, empty at the end of the data.

    Args:
        iterator: A ``tf.data`` iterator.
    """
    return iterator.get_next_as_optional()


__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality",
           "CsvDataset", "make_csv_dataset",
           "AutoShardPolicy", "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ThreadingOptions", "TFRecordWriter", "dense_to_ragged_batch", "get_next_as_optional",
           "Counter", "RandomDataset", "assert_cardinality", "choose_from_datasets",
           "sample_from_datasets", "shuffle_and_repeat", "unbatch"]
