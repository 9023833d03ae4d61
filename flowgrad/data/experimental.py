"""``tf.data.experimental``: AUTOTUNE and cardinality constants."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.data.dataset_ops import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from flowgrad.data.folding import Reducer, group_by_reducer
from flowgrad.data.windowing import from_list
from flowgrad.framework import dtypes
from flowgrad.data.readers import CsvDataset, TFRecordWriter, make_csv_dataset
from flowgrad.data.sampling import (_RandomDataset, assert_cardinality,
                                    choose_from_datasets, sample_from_datasets)
from flowgrad.data.sampling import counter as Counter  # noqa: N812 - TensorFlow's name
from flowgrad.data.options import (AutoShardPolicy, AutotuneAlgorithm,  # noqa: F401
                                   AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                                   OptimizationOptions, ServiceOptions, ThreadingOptions)
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


def scan(initial_state: Any, scan_func: Callable) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.scan(initial_state, scan_func)``.

    Args:
        initial_state: The first state (a nested structure of tensors).
        scan_func: ``(state, element) -> (new state, output element)``.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.scan(initial_state, scan_func)


def group_by_window(key_func: Callable, reduce_func: Callable, window_size: int | None = None,
                    window_size_func: Callable | None = None) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.group_by_window(...)``.

    Args:
        key_func: ``element -> tf.int64`` scalar key.
        reduce_func: ``(key, window dataset) -> dataset``.
        window_size: Elements per window.
        window_size_func: ``key -> tf.int64`` window size, instead of ``window_size``.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


def bucket_by_sequence_length(element_length_func: Callable, bucket_boundaries: list,
                              bucket_batch_sizes: list, padded_shapes: Any = None,
                              padding_values: Any = None, pad_to_bucket_boundary: bool = False,
                              no_padding: bool = False,
                              drop_remainder: bool = False) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.bucket_by_sequence_length(...)``.

    Args:
        element_length_func: ``element -> tf.int32`` length.
        bucket_boundaries: The sorted upper length bounds of the buckets.
        bucket_batch_sizes: One batch size per bucket (one more than the boundaries).
        padded_shapes: As ``padded_batch``.
        padding_values: As ``padded_batch``.
        pad_to_bucket_boundary: Pad the length to the bucket's boundary minus one.
        no_padding: Batch without padding.
        drop_remainder: Whether to drop each bucket's last, smaller batch.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def unique() -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.unique()``.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.unique()


def take_while(predicate: Callable) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.take_while(predicate)``.

    Args:
        predicate: ``element -> tf.bool`` scalar.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.take_while(predicate)


def ignore_errors(log_warning: bool = False) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.ignore_errors(log_warning)``.

    Args:
        log_warning: Whether to log each error dropped.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.ignore_errors(log_warning)


def enumerate_dataset(start: int = 0) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.enumerate(start)``.

    Args:
        start: The first index.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.enumerate(start)


def dense_to_sparse_batch(batch_size: int, row_shape: Any) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.sparse_batch(batch_size,
    row_shape)``.

    Args:
        batch_size: Elements per batch.
        row_shape: The dense shape of each row (-1: the batch's largest).

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)


def get_single_element(dataset: Any) -> Any:
    """``dataset.get_single_element()``: the dataset's only element.

    Args:
        dataset: A ``tf.data.Dataset``.

    Returns:
        The element.

    Raises:
        InvalidArgumentError: the dataset is empty or has more than one element.
    """
    return dataset.get_single_element()


def map_and_batch(map_func: Callable, batch_size: int, num_parallel_batches: int | None = None,
                  drop_remainder: bool = False,
                  num_parallel_calls: int | None = None) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.map(map_func).batch(batch_size,
    drop_remainder)``.

    Args:
        map_func: The function applied to each element.
        batch_size: Elements per batch.
        num_parallel_batches: Accepted for TensorFlow's signature.
        drop_remainder: Whether to drop a last, smaller batch.
        num_parallel_calls: Accepted for TensorFlow's signature.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def parallel_interleave(map_func: Callable, cycle_length: int, block_length: int = 1,
                        sloppy: bool | None = False, buffer_output_elements: int | None = None,
                        prefetch_input_elements: int | None = None) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.interleave(map_func, cycle_length,
    block_length)`` (elements in the deterministic order, as with ``sloppy=False``).

    Args:
        map_func: ``element -> dataset``.
        cycle_length: Datasets read at a time.
        block_length: Elements taken from each in turn.
        sloppy: Accepted; the order is always the deterministic one.
        buffer_output_elements: Accepted for TensorFlow's signature.
        prefetch_input_elements: Accepted for TensorFlow's signature.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def rejection_resample(class_func: Callable, target_dist: Any, initial_dist: Any = None,
                       seed: int | None = None) -> Callable:
    """A transformation for ``Dataset.apply``: ``dataset.rejection_resample(...)``.

    Args:
        class_func: ``element -> int32 scalar`` class.
        target_dist: The target class probabilities.
        initial_dist: The dataset's class probabilities (default: estimated).
        seed: The random seed.

    Returns:
        A function from a dataset to a dataset of ``(class, element)``.
    """
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist,
                                                      seed)


def save(dataset: Any, path: str, compression: str | None = None,
         shard_func: Callable | None = None, checkpoint_args: Any = None) -> None:
    """``tf.data.experimental.save``: ``dataset.save(path, ...)`` (TensorFlow's format).

    Args:
        dataset: The dataset to write.
        path: The directory.
        compression: None or ``"GZIP"``.
        shard_func: ``element -> int64 scalar``: the shard an element goes to.
        checkpoint_args: Accepted for TensorFlow's signature.
    """
    dataset.save(path, compression, shard_func, checkpoint_args)


def load(path: str, element_spec: Any = None, compression: str | None = None,
         reader_func: Callable | None = None) -> Any:
    """``tf.data.experimental.load``: ``tf.data.Dataset.load(path, ...)``.

    Args:
        path: The directory ``save`` wrote.
        element_spec: The element spec (default: the saved one).
        compression: None or ``"GZIP"``, as saved.
        reader_func: ``dataset of shard datasets -> dataset``.

    Returns:
        The loaded dataset.
    """
    return Dataset.load(path, element_spec, compression, reader_func)


__all__ = ["AUTOTUNE", "save", "load", "rejection_resample", "INFINITE_CARDINALITY",
           "UNKNOWN_CARDINALITY", "cardinality",
           "CsvDataset", "make_csv_dataset",
           "AutoShardPolicy", "AutotuneAlgorithm", "AutotuneOptions", "ServiceOptions",
           "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ThreadingOptions", "TFRecordWriter", "dense_to_ragged_batch", "get_next_as_optional",
           "Counter", "RandomDataset", "assert_cardinality", "choose_from_datasets",
           "sample_from_datasets", "shuffle_and_repeat", "unbatch", "scan", "group_by_window",
           "bucket_by_sequence_length", "unique", "take_while", "ignore_errors",
           "enumerate_dataset", "get_single_element", "map_and_batch", "parallel_interleave",
           "Reducer", "group_by_reducer", "from_list", "dense_to_sparse_batch"]
