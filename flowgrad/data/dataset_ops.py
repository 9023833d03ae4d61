"""``tf.data.Dataset``: input pipelines over NumPy arrays, iterated eagerly or by a graph op.

A dataset is a recipe: each transformation wraps its input, and iterating
runs the chain of Python generators, one element (a flat list of NumPy
arrays) at a time. ``map`` and ``filter`` functions are traced once into a
graph (as TensorFlow traces them) and run by its compiled plan per element.
Graph tensors given to ``from_tensor_slices``/``from_tensors`` (placeholders,
for instance) are captured and take their values when the iterator is
initialized (``sess.run(iterator.initializer, feed_dict=...)``)."""
from __future__ import annotations

import copy

import itertools
import numbers
import os
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.data import structure
from flowgrad.data.iterator_ops import (OwnedIterator, make_initializable_iterator,
                                         make_one_shot_iterator)
from flowgrad.data.structure import IterationContext, SeedStream, flat_specs, pack
from flowgrad.framework import dtypes, errors
from flowgrad.framework.composite_tensor import TypeSpec
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.philox import PhiloxWords, seeded_key_counter
from flowgrad.framework.tensor import EagerTensor, Tensor, constant, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.runtime.function import ConcreteFunction, FuncGraph, TensorSpec
from flowgrad.ops.array_ops import identity, placeholder
from flowgrad.ops import file_io
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.random_ops import get_seed, global_seed
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import DTypeLike, TensorLike

AUTOTUNE = -1
#: The transformations defined beside this module (flowgrad.data.folding, selection and
#: windowing, which import it), by method name; filled when they are imported.
TRANSFORMS: dict = {}
INFINITE = -1       # cardinality of an infinite dataset
UNKNOWN = -2        # cardinality that cannot be known without iterating


class DatasetV2:
    """The name and module path by which libraries written for TensorFlow recognise a
    ``tf.data.Dataset`` (Keras 3's data adapters look for a base class ``DatasetV2`` from
    ``tensorflow.python.``): a marker base of :class:`Dataset`, with nothing of its own."""

    __slots__ = ()


DatasetV2.__module__ = "tensorflow.python.data.ops.dataset_ops"


class Dataset(structure.ElementStructure, DatasetV2):
    """A sequence of elements (nested tuples/dicts of tensors) with one ``element_spec``.

    Args:
        element_spec: The nested structure of ``tf.TypeSpec`` of each element.
        inputs: The datasets this one reads from (subclasses' upstream).
    """

    def __init__(self, element_spec: Any, inputs: tuple = ()):
        self._element_spec = element_spec
        self._inputs = inputs
        self._captured: list = []      # graph tensors this dataset itself reads

    # -- what subclasses provide ---------------------------------------------------------
    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        raise NotImplementedError

    def _cardinality(self) -> int:
        return UNKNOWN

    def _all_captures(self) -> list:
        """Captured graph tensors of this dataset and its inputs (each once, in order)."""
        seen: dict = {}
        for t in self._captured:
            seen.setdefault(id(t), t)
        for d in self._inputs:
            for t in d._all_captures():
                seen.setdefault(id(t), t)
        return list(seen.values())

    # -- iteration -------------------------------------------------------------------------
    def __iter__(self) -> Any:
        if not executing_eagerly():
            raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in eager "
                               "mode or within tf.function.")
        return OwnedIterator(self)

    def as_numpy_iterator(self) -> Iterator[Any]:
        """Iterates the elements as NumPy values (eager mode)."""
        if not executing_eagerly():
            raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in "
                               "eager mode.")
        spec = self._element_spec
        return (structure.to_numpy_element(spec, flat)
                for flat in self._iterate(IterationContext()))

    def make_one_shot_iterator(self) -> Any:
        """A graph-mode iterator that needs no initialization (TF1)."""
        return make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name: str | None = None) -> Any:
        """A graph-mode iterator to be started with ``sess.run(iterator.initializer)`` (TF1)."""
        return make_initializable_iterator(self, shared_name)

    def cardinality(self) -> Any:
        """The number of elements (-1 infinite, -2 unknown) as an int64 tensor."""
        return constant(self._cardinality(), dtypes.int64)

    def __len__(self) -> int:
        if not executing_eagerly():
            raise TypeError("`tf.data.Dataset` only supports `len` in eager mode. Use "
                            "`tf.data.Dataset.cardinality()` instead.")
        n = self._cardinality()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "<%s element_spec=%s>" % (getattr(self, "_tf_name", type(self).__name__),
                                         self._element_spec)

    # -- sources ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors: TensorLike, name: str | None = None) -> Dataset:
        """One element per index of the components' (shared) first dimension.

        Example:

            >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4.0, 5.0, 6.0]))
            >>> [(int(a), float(b)) for a, b in ds]
            [(1, 4.0), (2, 5.0), (3, 6.0)]
        """
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors: TensorLike, name: str | None = None) -> Dataset:
        """A dataset of the single element ``tensors``."""
        return _TensorDataset(tensors)

    @staticmethod
    def list_files(file_pattern: Any, shuffle: bool | None = None, seed: int | None = None,
                   name: str | None = None) -> Dataset:
        """The file names matching ``file_pattern`` (a glob or a list of them), sorted, then
        shuffled each epoch unless ``shuffle=False``.

        Raises:
            InvalidArgumentError: no file matches.
        """
        patterns = file_pattern.numpy() if isinstance(file_pattern, EagerTensor) \
            else file_pattern
        patterns = [patterns] if isinstance(patterns, (str, bytes)) else \
            list(np.asarray(patterns, dtype=object).reshape(-1))
        names = file_io.glob(patterns)
        if not names:
            raise errors.InvalidArgumentError(
                None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                "Summarized data: b'No files matched pattern: %s'"
                % ", ".join(file_io._path(p) for p in patterns))
        ds = Dataset.from_tensor_slices(names)
        return ds.shuffle(len(names), seed) if shuffle is None or shuffle else ds

    @staticmethod
    def range(*args: Any, output_type: DTypeLike = dtypes.int64,
              name: str | None = None) -> Dataset:
        """``range(stop)``, ``range(start, stop[, step])`` as scalars of ``output_type``."""
        return _RangeDataset(args, output_type)

    @staticmethod
    def from_generator(generator: Callable, output_types: Any = None, output_shapes: Any = None,
                       args: Any = None, output_signature: Any = None,
                       name: str | None = None) -> Dataset:
        """Elements from ``generator(*args)``, checked against the declared types/shapes."""
        return _GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*args: Any, datasets: Any = None, name: str | None = None) -> Dataset:
        """Elements of several datasets side by side (stops at the shortest)."""
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else tuple(args)
        elif args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        return _ZipDataset(datasets)

    # -- transformations -------------------------------------------------------------------
    def map(self, map_func: Callable, num_parallel_calls: int | None = None,
            deterministic: Any = None, name: str | None = None) -> Dataset:
        """``map_func`` applied to each element (traced once into a graph)."""
        if num_parallel_calls is not None:
            return _ParallelMapDataset(self, map_func)
        return _MapDataset(self, map_func)

    def flat_map(self, map_func: Callable, name: str | None = None) -> Dataset:
        """The elements of the datasets ``map_func`` makes of each element, one after another."""
        return _FlatMapDataset(self, map_func, 1, 1)

    def interleave(self, map_func: Callable, cycle_length: int | None = None,
                   block_length: int | None = None, num_parallel_calls: int | None = None,
                   deterministic: Any = None, name: str | None = None) -> Dataset:
        """The datasets ``map_func`` makes of ``cycle_length`` elements at a time, taken
        ``block_length`` elements from each in turn (a finished one is replaced by the next)."""
        if cycle_length is None or cycle_length == AUTOTUNE:
            cycle_length = os.cpu_count() or 1
        cls = _InterleaveDataset if num_parallel_calls is None else _ParallelInterleaveDataset
        return cls(self, map_func, _positive(cycle_length, "cycle_length"),
                   _positive(1 if block_length is None else block_length, "block_length"))

    def filter(self, predicate: Callable, name: str | None = None) -> Dataset:
        """The elements for which ``predicate`` gives True."""
        return _FilterDataset(self, predicate)

    def batch(self, batch_size: int, drop_remainder: bool = False,
              num_parallel_calls: int | None = None, deterministic: Any = None,
              name: str | None = None) -> Dataset:
        """Consecutive elements stacked into batches (the last one smaller unless dropped)."""
        if num_parallel_calls is not None:
            return _ParallelBatchDataset(self, batch_size, drop_remainder)
        return _BatchDataset(self, batch_size, drop_remainder)

    def ragged_batch(self, batch_size: int, drop_remainder: bool = False,
                     row_splits_dtype: DTypeLike = dtypes.int64,
                     name: str | None = None) -> Dataset:
        """Batches in which elements of rank >= 1 (of any first dimension) become
        RaggedTensors (``tf.data.experimental.dense_to_ragged_batch``)."""
        return _RaggedBatchDataset(self, batch_size, drop_remainder, row_splits_dtype)

    def padded_batch(self, batch_size: int, padded_shapes: Any = None,
                     padding_values: Any = None, drop_remainder: bool = False,
                     name: str | None = None) -> Dataset:
        """Batches whose components are padded (at the end of each dimension) to
        ``padded_shapes`` (None or -1: the longest in the batch) with ``padding_values``."""
        return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                   drop_remainder)

    def unbatch(self, name: str | None = None) -> Dataset:
        """Splits each element's components along their first dimension."""
        return _UnbatchDataset(self)

    def shuffle(self, buffer_size: int, seed: int | None = None,
                reshuffle_each_iteration: bool = True, name: str | None = None) -> Dataset:
        """Elements drawn at random from a buffer of ``buffer_size`` upcoming elements."""
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count: int | None = None, name: str | None = None) -> Dataset:
        """The dataset ``count`` times (forever for None or -1)."""
        return _RepeatDataset(self, count)

    def take(self, count: int, name: str | None = None) -> Dataset:
        """The first ``count`` elements (all for -1)."""
        return _TakeDataset(self, _count(count, "take"))

    def skip(self, count: int, name: str | None = None) -> Dataset:
        """All but the first ``count`` elements (none for -1)."""
        return _SkipDataset(self, _count(count, "skip"))

    def concatenate(self, dataset: Dataset, name: str | None = None) -> Dataset:
        """The elements of this dataset, then those of ``dataset``."""
        return _ConcatenateDataset(self, dataset)

    def enumerate(self, start: int = 0, name: str | None = None) -> Dataset:
        """Elements as ``(index, element)`` pairs (int64 index)."""
        return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), self))

    def shard(self, num_shards: int, index: int, name: str | None = None) -> Dataset:
        """Every ``num_shards``-th element, starting at ``index``."""
        if not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(None, None, "Index must be between 0 and %d "
                                              "(currently index = %d)." % (num_shards - 1, index))
        return _ShardDataset(self, index, num_shards)

    def prefetch(self, buffer_size: int | None, name: str | None = None) -> Dataset:
        """The same elements (TensorFlow's ``_PrefetchDataset``; produced on demand here)."""
        return _PrefetchDataset(self)

    def save(self, path: str, compression: str | None = None, shard_func: Callable | None = None,
             checkpoint_args: Any = None) -> None:
        """Writes the elements to the directory ``path`` in TensorFlow's format (read back by
        ``tf.data.Dataset.load``, flowgrad's or TensorFlow's; flowgrad/data/saving.py).

        Args:
            path: The directory.
            compression: None or ``"GZIP"``.
            shard_func: ``element -> int64 scalar``: the shard file an element goes to.
            checkpoint_args: Accepted for TensorFlow's signature.
        """
        TRANSFORMS["save"](self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path: str, element_spec: Any = None, compression: str | None = None,
             reader_func: Callable | None = None, wait: bool = False) -> Dataset:
        """A dataset that ``Dataset.save`` wrote (flowgrad's or TensorFlow's).

        Args:
            path: The directory.
            element_spec: The element spec (default: the saved one).
            compression: None or ``"GZIP"``, as saved.
            reader_func: ``dataset of shard datasets -> dataset``.
            wait: Accepted for TensorFlow's signature.

        Returns:
            The loaded dataset.
        """
        return TRANSFORMS["load"](path, element_spec, compression, reader_func, wait)

    def rejection_resample(self, class_func: Callable, target_dist: Any,
                           initial_dist: Any = None, seed: int | None = None,
                           name: str | None = None) -> Dataset:
        """Elements kept or dropped by class to reach ``target_dist``, as ``(class,
        element)`` pairs (TensorFlow's construction: flowgrad/data/resampling.py).

        Args:
            class_func: ``element -> int32 scalar`` class.
            target_dist: The target class probabilities.
            initial_dist: The class probabilities of this dataset (default: estimated).
            seed: The random seed.
            name: Accepted for TensorFlow's signature.

        Returns:
            The resampled dataset.
        """
        return TRANSFORMS["rejection_resample"](self, class_func, target_dist, initial_dist,
                                                seed)

    def cache(self, filename: str = "", name: str | None = None) -> Dataset:
        """The elements, computed by the first complete pass and then read back from memory
        (``filename=""``) or from the tensor bundle ``filename`` (also in later runs), as
        TensorFlow caches them (flowgrad/data/caching.py).

        Args:
            filename: A file path prefix for a cache on disk, or ``""`` for one in memory.
            name: Accepted for TensorFlow's signature.

        Returns:
            A ``CacheDataset``.
        """
        return TRANSFORMS["cache"](self, filename)

    def with_options(self, options: Any, name: str | None = None) -> Dataset:
        """This dataset with ``options`` merged into its options (kept, see
        flowgrad/data/options.py)."""
        return _OptionsDataset(self, options)

    def options(self) -> Any:
        """The options set with ``with_options`` on this dataset and the ones it reads
        (merged as TensorFlow merges them: the later setting wins), a ``tf.data.Options``."""
        from flowgrad.data.options import Options
        merged = getattr(self, "_merged_options", None)
        if merged is None:
            merged = Options()
            for d in self._inputs:
                merged = merged.merge(d._merged())
            self._merged_options = merged
        out = merged.merge(Options())       # a copy the caller cannot change
        out._set_mutable(False)
        return out

    def _merged(self) -> Any:
        """The merged options of this dataset (computed once; not a copy)."""
        self.options()
        return self._merged_options

    def reduce(self, initial_state: Any, reduce_func: Callable, name: str | None = None) -> Any:
        """The state after ``reduce_func(state, element)`` has seen every element (run at
        once eagerly; in a graph, each time the result is computed).

        Args:
            initial_state: The first state (a nested structure of tensors).
            reduce_func: ``(state, element) -> new state`` of the same structure and dtypes.
            name: Accepted for TensorFlow's signature.

        Returns:
            The final state.
        """
        return TRANSFORMS["reduce"](self, initial_state, reduce_func)

    def scan(self, initial_state: Any, scan_func: Callable, name: str | None = None) -> Dataset:
        """The outputs of ``scan_func(state, element) -> (new_state, output)``, the state
        carried from each element to the next.

        Args:
            initial_state: The first state (a nested structure of tensors).
            scan_func: ``(state, element) -> (new state, output element)``.
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset of outputs.
        """
        return TRANSFORMS["scan"](self, initial_state, scan_func)

    def get_single_element(self, name: str | None = None) -> Any:
        """The dataset's only element.

        Args:
            name: Accepted for TensorFlow's signature.

        Returns:
            The element.

        Raises:
            InvalidArgumentError: the dataset is empty or has more than one element.
        """
        return TRANSFORMS["get_single_element"](self)

    def unique(self, name: str | None = None) -> Dataset:
        """Each element once, at its first occurrence (int32, int64 or string elements).

        Args:
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset without repeats.
        """
        return TRANSFORMS["unique"](self)

    def take_while(self, predicate: Callable, name: str | None = None) -> Dataset:
        """The elements before the first for which ``predicate`` is False.

        Args:
            predicate: ``element -> tf.bool`` scalar.
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset.
        """
        return TRANSFORMS["take_while"](self, predicate)

    def ignore_errors(self, log_warning: bool = False, name: str | None = None) -> Dataset:
        """The elements whose ``map``/``filter`` functions raised no op error.

        Args:
            log_warning: Whether to log each error dropped (TensorFlow's logger).
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset.
        """
        return TRANSFORMS["ignore_errors"](self, log_warning)

    def rebatch(self, batch_size: Any, drop_remainder: bool = False,
                name: str | None = None) -> Dataset:
        """The rows of this (batched) dataset in batches of ``batch_size`` (or of a list of
        sizes, in turn).

        Args:
            batch_size: A batch size, or a list of them used in turn.
            drop_remainder: Whether to drop a last, smaller batch.
            name: Accepted for TensorFlow's signature.

        Returns:
            The rebatched dataset.
        """
        return TRANSFORMS["rebatch"](self, batch_size, drop_remainder)

    def sparse_batch(self, batch_size: int, row_shape: Any, name: str | None = None) -> Dataset:
        """Batches of the (dense) elements as SparseTensors of dense shape
        ``[batch, *row_shape]``: every entry of an element is a value.

        Args:
            batch_size: Elements per batch.
            row_shape: The dense shape of each row (-1: the batch's largest).
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset of SparseTensors.
        """
        return TRANSFORMS["sparse_batch"](self, batch_size, row_shape)

    def window(self, size: int, shift: int | None = None, stride: int = 1,
               drop_remainder: bool = False, name: str | None = None) -> Dataset:
        """Windows of ``size`` elements (every ``stride``-th), one starting every ``shift``
        elements; each window is a (nested structure of) ``tf.data.Dataset``.

        Args:
            size: Elements per window.
            shift: Elements from one window's start to the next (default ``size``).
            stride: Elements from one element of a window to the next.
            drop_remainder: Whether to drop windows shorter than ``size`` at the end.
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset of windows.
        """
        return TRANSFORMS["window"](self, size, shift, stride, drop_remainder)

    def group_by_window(self, key_func: Callable, reduce_func: Callable,
                        window_size: int | None = None, window_size_func: Callable | None = None,
                        name: str | None = None) -> Dataset:
        """Elements grouped by ``key_func``; each window of up to ``window_size`` (or
        ``window_size_func(key)``) elements of one key becomes the elements of
        ``reduce_func(key, window)``.

        Args:
            key_func: ``element -> tf.int64`` scalar key.
            reduce_func: ``(key, window dataset) -> dataset``.
            window_size: Elements per window.
            window_size_func: ``key -> tf.int64`` window size, instead of ``window_size``.
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset.
        """
        return TRANSFORMS["group_by_window"](self, key_func, reduce_func, window_size,
                                             window_size_func)

    def bucket_by_sequence_length(self, element_length_func: Callable,
                                  bucket_boundaries: list, bucket_batch_sizes: list,
                                  padded_shapes: Any = None, padding_values: Any = None,
                                  pad_to_bucket_boundary: bool = False,
                                  no_padding: bool = False, drop_remainder: bool = False,
                                  name: str | None = None) -> Dataset:
        """Elements batched, padded, with others of a similar length: bucket ``i`` holds
        lengths in ``[bucket_boundaries[i-1], bucket_boundaries[i])``.

        Args:
            element_length_func: ``element -> tf.int32`` length.
            bucket_boundaries: The sorted upper length bounds of the buckets.
            bucket_batch_sizes: One batch size per bucket (one more than the boundaries).
            padded_shapes: As ``padded_batch`` (default: each component's shape).
            padding_values: As ``padded_batch``.
            pad_to_bucket_boundary: Pad the length to the bucket's boundary minus one.
            no_padding: Batch without padding (elements of one shape).
            drop_remainder: Whether to drop each bucket's last, smaller batch.
            name: Accepted for TensorFlow's signature.

        Returns:
            The dataset of batches.
        """
        return TRANSFORMS["bucket_by_sequence_length"](
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def apply(self, transformation_func: Callable) -> Dataset:
        """``transformation_func(self)``, which must return a Dataset."""
        ds = transformation_func(self)
        if not isinstance(ds, Dataset):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. Got "
                            "%r." % (ds,))
        return ds


DatasetV2 = Dataset


def _count(count: Any, what: str) -> int:
    if isinstance(count, EagerTensor):
        count = count.numpy()
    if not isinstance(count, (numbers.Integral, np.integer)):
        raise TypeError("%s(count): count must be a Python or NumPy integer, got %r"
                        % (what, count))
    return int(count)


# -- sources -------------------------------------------------------------------------------


def _component(value: Any) -> Any:
    """A component as a NumPy array, or a graph tensor to be captured."""
    if hasattr(value, "_as_tensor") and not isinstance(value, (Tensor, EagerTensor)):
        value = value._as_tensor()
    if isinstance(value, Tensor):
        if executing_eagerly():
            raise ValueError("Graph tensor %s cannot be used in an eager tf.data pipeline"
                             % value.name)
        return value
    return structure.to_array(value)


def _spec_of_component(c: Any) -> TensorSpec:
    if isinstance(c, Tensor):
        return TensorSpec(c.shape, c.dtype.base_dtype)
    return structure.spec_of(c)


def _is_composite_value(x: Any) -> bool:
    """A SparseTensor, RaggedTensor, ExtensionType or None (a leaf of several components, or
    of none)."""
    return x is None or isinstance(x, (SparseTensor, RaggedTensor)) or structure.is_composite(
        getattr(x, "_type_spec", None))


class _TensorDataset(Dataset):
    def __init__(self, tensors: Any):
        norm = structure.normalize(tensors)
        self._components, leaf_specs = [], []
        for x in structure.flatten(norm):
            if _is_composite_value(x):
                self._components.extend(_component(c) for c in structure.components_of(x))
                leaf_specs.append(structure.spec_of_value(x))
            else:
                self._components.append(_component(x))
                leaf_specs.append(_spec_of_component(self._components[-1]))
        spec = pack(norm, leaf_specs)
        super().__init__(spec)
        self._captured = [c for c in self._components if isinstance(c, Tensor)]

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        yield [ctx.value(c) for c in self._components]

    def _cardinality(self) -> int:
        return 1


class _TensorSliceDataset(Dataset):
    def __init__(self, tensors: Any):
        norm = structure.normalize(tensors)
        comps, unbatched = [], []       # unbatched: an ExtensionType leaf's element spec
        rows = []                       # per leaf: the spec whose first dimension is its rows
        self._kinds = []                # per leaf: "dense", "sparse" or "ragged"
        for x in structure.flatten(norm):
            if isinstance(x, (SparseTensor, RaggedTensor)):
                # sliced by rows: the element is the SparseTensor's or RaggedTensor's row
                spec = structure.spec_of_value(x)
                parts = [_component(c) for c in structure.components_of(x)]
                comps.extend(parts)
                unbatched.append((_unbatched_composite_spec(spec), len(parts)))
                rows.append(TensorSpec(spec.shape, spec.dtype))
                self._kinds.append("sparse" if isinstance(x, SparseTensor) else "ragged")
            elif _is_composite_value(x) and hasattr(getattr(x, "_type_spec", None), "_unbatch"):
                parts = [_component(c) for c in structure.components_of(x)]
                comps.extend(parts)
                unbatched.append((x._type_spec._unbatch(), len(parts)))
                rows.extend(_spec_of_component(c) for c in parts)
                self._kinds.append("dense")
            else:
                comps.append(_component(x))
                unbatched.append((None, 1))
                rows.append(_spec_of_component(comps[-1]))
                self._kinds.append("dense")
        specs = [_spec_of_component(c) for c in comps]
        first = None
        for i, s in enumerate(rows):
            if s.shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1: "
                                 "component %d of from_tensor_slices is a scalar." % i)
            n = s.shape.as_tuple()[0] if s.shape.rank is not None else None
            if n is None:
                continue
            if first is None:
                first = (i, n)
            elif n != first[1]:
                raise ValueError("Dimensions %d and %d are not compatible: from_tensor_slices "
                                 "needs every component to have the same size in its first "
                                 "dimension, but component %d has %d and component %d has %d."
                                 % (first[1], n, first[0], first[1], i, n))
        self._components = comps
        self._sizes = [n for _, n in unbatched]
        self._n = first[1] if first is not None and all(
            s.shape.rank is not None and s.shape.as_tuple()[0] is not None for s in rows) \
            else None
        leaf_specs, i = [], 0
        for element_spec, n in unbatched:
            leaf_specs.append(element_spec if element_spec is not None else
                              TensorSpec(_drop_first(specs[i].shape), specs[i].dtype))
            i += n
        spec = pack(norm, leaf_specs)
        super().__init__(spec)
        self._captured = [c for c in comps if isinstance(c, Tensor)]

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        values = [np.asarray(ctx.value(c)) for c in self._components]
        leaves, at = [], 0
        for kind, n in zip(self._kinds, self._sizes):
            leaves.append((kind, values[at:at + n]))
            at += n
        sizes = {_rows_of(kind, parts, j) for kind, parts in leaves
                 for j in range(len(parts) if kind == "dense" else 1)}
        if len(sizes) > 1:
            raise errors.InvalidArgumentError(
                None, None, "All components must have the same size in the 0th dimension: "
                "got sizes %s." % sorted(sizes))
        n = sizes.pop() if sizes else 0
        for i in range(n):      # v[i, ...]: a string element stays a 0-d object array
            element = []
            for kind, parts in leaves:
                if kind == "sparse":
                    element.extend(_sparse_row(parts, i))
                elif kind == "ragged":
                    element.extend(_ragged_row(parts, i))
                else:
                    element.extend(v[i, ...] if v.dtype.kind == "O" else v[i] for v in parts)
            yield element

    def _cardinality(self) -> int:
        return UNKNOWN if self._n is None else self._n


def _unbatched_composite_spec(spec: Any) -> Any:
    """The spec of one row of a SparseTensor's or RaggedTensor's ``spec``."""
    shape = _drop_first(spec.shape)
    if isinstance(spec, structure.SparseTensorSpec):
        return structure.SparseTensorSpec(shape, spec.dtype)
    return structure.RaggedTensorSpec(shape, spec.dtype, spec.ragged_rank - 1,
                                      spec.row_splits_dtype)


def _rows_of(kind: str, parts: list, j: int) -> int:
    """The number of rows of a leaf (its ``j``-th component's, for a dense one)."""
    if kind == "sparse":
        return int(parts[2][0])
    if kind == "ragged":
        return len(parts[1]) - 1
    return parts[j].shape[0]


def _sparse_row(parts: list, i: int) -> list:
    """Row ``i`` of a SparseTensor's (indices, values, dense_shape), as the same three."""
    indices, values, dense_shape = parts
    mine = indices[:, 0] == i
    return [indices[mine][:, 1:], values[mine], dense_shape[1:]]


def _ragged_row(parts: list, i: int) -> list:
    """Row ``i`` of a RaggedTensor's (flat_values, *nested_row_splits): the components of a
    RaggedTensor of one ragged rank less (the flat values alone for ragged rank 1)."""
    flat, splits = parts[0], parts[1:]
    start, stop = int(splits[0][i]), int(splits[0][i + 1])
    inner = []
    for level in splits[1:]:
        inner.append(level[start:stop + 1] - level[start])
        start, stop = int(level[start]), int(level[stop])
    return [flat[start:stop]] + inner


def _drop_first(shape: TensorShape) -> TensorShape:
    return TensorShape(None) if shape.rank is None else TensorShape(shape.as_tuple()[1:])


class _RangeDataset(Dataset):
    def __init__(self, args: tuple, output_type: Any):
        if not 1 <= len(args) <= 3:
            raise TypeError("range() takes 1 to 3 positional arguments (start, stop, step), "
                            "got %d" % len(args))
        vals = [_component(a) for a in args]
        if len(vals) == 1:
            vals = [np.asarray(0)] + vals
        self._args = (vals + [np.asarray(1)])[:3]
        self._captured = [v for v in self._args if isinstance(v, Tensor)]
        if not self._captured and int(self._args[2]) == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        self._dtype = dtypes.as_dtype(output_type)
        super().__init__(TensorSpec([], self._dtype))
        self._captured = [v for v in self._args if isinstance(v, Tensor)]

    def _range(self, ctx: IterationContext) -> range:
        start, stop, step = (int(ctx.value(v)) for v in self._args)
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        return range(start, stop, step)

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        np_type = self._dtype.np
        for i in self._range(ctx):
            yield [np.asarray(i, np_type)]

    def _cardinality(self) -> int:
        return UNKNOWN if self._captured else len(self._range(IterationContext()))


def _py_error(e: Exception) -> errors.OpError:
    """An exception of a generator as TensorFlow's PyFunc reports it: ValueError and
    TypeError are InvalidArgumentError, NotImplementedError UnimplementedError, the others
    UnknownError; the message names the Python exception."""
    cls = errors.InvalidArgumentError if isinstance(e, (ValueError, TypeError)) else \
        errors.UnimplementedError if isinstance(e, NotImplementedError) else errors.UnknownError
    return cls(None, None, "%s: %s" % (type(e).__name__, e))


class _GeneratorDataset(Dataset):
    _tf_name = "_FlatMapDataset"    # TensorFlow flat-maps a py_func over a range

    def __init__(self, generator: Callable, output_types: Any, output_shapes: Any, args: Any,
                 output_signature: Any):
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            if output_types is not None or output_shapes is not None:
                raise TypeError("The `output_types` and `output_shapes` arguments cannot be used "
                                "together with the `output_signature` argument.")
            spec = nest.map_structure(lambda s: _as_spec(s), output_signature)
        else:
            if output_types is None:
                raise TypeError("To specify the output signature you need to provide either the "
                                "`output_signature` argument or the `output_types` argument.")
            spec = structure.spec_from_types(output_types, output_shapes)
        self._generator = generator
        self._args = [structure.to_array(a) for a in args] if args is not None else []
        super().__init__(spec)

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        specs = flat_specs(self._element_spec)
        args = [a if a.ndim else a[()] for a in self._args]
        values = iter(self._generator(*args))
        while True:
            try:
                value = next(values)
            except StopIteration:
                return
            except errors.OpError:
                raise
            except Exception as e:
                raise _py_error(e) from e
            yield self._check(value, specs)

    def _check(self, value: Any, specs: list) -> list:
        if not nest.is_nested(self._element_spec):
            flat = [value]
        else:
            try:
                flat = _flatten_like(self._element_spec, value)
            except (TypeError, ValueError) as e:
                raise errors.InvalidArgumentError(
                    None, None, "TypeError: `generator` yielded an element that did not match "
                    "the expected structure. The expected structure was %s, but the yielded "
                    "element was %r. (%s)" % (self.output_types, value, e)) from None
        flat = [part for v, s in zip(flat, nest.flatten(self._element_spec))
                for part in (_composite_parts(v, s) if structure.is_composite(s) else [v])]
        out = []
        for v, s in zip(flat, specs):
            try:
                arr = structure.to_array(v, s.dtype)
            except (TypeError, ValueError):
                raise errors.InvalidArgumentError(
                    None, None, "TypeError: `generator` yielded an element that could not be "
                    "converted to the expected type. The expected type was %s, but the yielded "
                    "element was %r." % (s.dtype.name, v)) from None
            if not s.shape.is_compatible_with(TensorShape(arr.shape)):
                raise errors.InvalidArgumentError(
                    None, None, "`generator` yielded an element of shape %s where an element "
                    "of shape %s was expected." % (TensorShape(arr.shape), s.shape))
            out.append(arr)
        return out


def _composite_parts(value: Any, spec: Any) -> list:
    """The component tensors of a generator's composite ``value`` (a SparseTensor, an
    Optional, ...) that ``spec`` describes.

    Raises:
      InvalidArgumentError: ``value`` is not of ``spec``'s kind (TensorFlow's message).
    """
    if not isinstance(value, spec.value_type):
        try:
            got = structure.spec_of_value(convert_to_tensor(value))
        except (TypeError, ValueError):
            got = type(value).__name__
        raise errors.InvalidArgumentError(
            None, None, "TypeError: `generator` yielded an element of %r where an element "
            "of %r was expected." % (got, spec))
    return list(spec._to_components(value))


def _as_spec(s: Any) -> TypeSpec:
    if not isinstance(s, TypeSpec):
        raise TypeError("output_signature must contain objects that are subclass of "
                        "`tf.TypeSpec` but found %s which is not." % type(s))
    return s


def _flatten_like(spec: Any, value: Any) -> list:
    """``value`` flattened as deep as ``spec`` goes (lists count as tuples here)."""
    if not nest.is_nested(spec):
        return [value]
    if isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise ValueError("expected a dict with keys %s" % sorted(spec))
        return [x for k in sorted(spec) for x in _flatten_like(spec[k], value[k])]
    if not isinstance(value, (tuple, list)) or len(value) != len(spec):
        raise ValueError("expected a sequence of %d components" % len(spec))
    return [x for s, v in zip(spec, value) for x in _flatten_like(s, v)]


# -- traced functions ----------------------------------------------------------------------


class _TracedFunction:
    """A user function of one element, traced once into a graph and run by its plan."""

    def __init__(self, func: Callable, in_spec: Any, what: str):
        if not callable(func):
            raise TypeError("`%s` function must be callable, got %r" % (what, func))
        self._what = what
        g = FuncGraph(getattr(func, "__name__", what))
        g.seed = global_seed()         # random ops traced here take TF's seeds from it
        with g.as_default():
            phs = [placeholder(s.dtype, s.shape, name="args_%d" % i)
                   for i, s in enumerate(flat_specs(in_spec))]
            element = pack(in_spec, phs)
            out = func(*element) if type(element) is tuple else func(element)
            out = self._normalize(out)
            self.output_spec = nest.map_structure(structure.spec_of_value, out)
            flat = [identity(t) if t.op.type == "Placeholder" else t
                    for leaf in nest.flatten(out) for t in structure.components_of(leaf)]
        self._fn = ConcreteFunction(g, phs, flat)
        self._trace = (g, phs, flat)
        self._stateful = any(op._def.rng for op in g.get_operations())

    def for_iteration(self) -> _TracedFunction:
        """The function for one iterator: as TensorFlow instantiates a dataset function per
        iterator, its random ops start their streams again (the same numbers every epoch
        under a seed); self where the function draws no random numbers."""
        if not self._stateful:
            return self
        fresh = copy.copy(self)
        fresh._fn = ConcreteFunction(*self._trace)
        return fresh

    def _normalize(self, out: Any, top: bool = True) -> Any:
        if isinstance(out, list):
            out = tuple(out)
        if isinstance(out, dict):
            return type(out)((k, self._normalize(v, False)) for k, v in out.items())
        if isinstance(out, tuple):
            children = [self._normalize(v, False) for v in out]
            return type(out)(*children) if hasattr(out, "_fields") else tuple(children)
        if out is None:
            if top:
                raise TypeError("The `%s` function returned None; it must return tensors." %
                                self._what)
            return out              # a None beside tensors: a NoneTensorSpec leaf
        if isinstance(out, (RaggedTensor, SparseTensor)) or structure.is_composite(
                getattr(out, "_type_spec", None)):
            return out
        t = out._as_tensor() if hasattr(out, "_as_tensor") else out
        return convert_to_tensor(t)

    def __call__(self, flat: list) -> list:
        out = self._fn._call_flat(flat)
        return [np.asarray(t._value) for t in nest.flatten(out)]


class _MapDataset(Dataset):
    def __init__(self, input_ds: Dataset, func: Callable):
        self._fn = _TracedFunction(func, input_ds.element_spec, "map")
        super().__init__(self._fn.output_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        fn = self._fn.for_iteration()
        for flat in self._inputs[0]._iterate(ctx):
            out = _guarded(fn, flat, ctx)
            if out is not None:
                yield out

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()


class _ParallelMapDataset(_MapDataset):
    """``map`` with ``num_parallel_calls`` (run one element at a time here)."""


def _guarded(fn: Any, flat: list, ctx: IterationContext) -> list | None:
    """``fn(flat)``; None where it raised an op error that ``ctx`` drops elements for."""
    if ctx.on_error is None:
        return fn(flat)
    try:
        return fn(flat)
    except errors.OpError as e:
        ctx.on_error(e)
        return None


def _predicate(predicate: Callable, spec: Any) -> _TracedFunction:
    """``predicate`` traced over elements of ``spec``; ValueError unless it gives a bool
    scalar (``filter``, ``take_while``)."""
    fn = _TracedFunction(predicate, spec, "predicate")
    out = fn.output_spec
    if not isinstance(out, TensorSpec) or out.dtype is not dtypes.bool or \
            out.shape.rank not in (0, None):
        raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                         "tensor, but its return type was %s." % (out,))
    return fn


class _FilterDataset(Dataset):
    def __init__(self, input_ds: Dataset, predicate: Callable):
        self._fn = _predicate(predicate, input_ds.element_spec)
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        fn = self._fn.for_iteration()
        for flat in self._inputs[0]._iterate(ctx):
            keep = _guarded(fn, flat, ctx)
            if keep is not None and bool(keep[0]):
                yield flat


class _DatasetFunction:
    """A user function from an element to a Dataset, traced once. The returned dataset's
    captured tensors are computed from the element by the trace's compiled plan."""

    def __init__(self, func: Callable, in_spec: Any):
        if not callable(func):
            raise TypeError("`map_func` must be callable, got %r" % (func,))
        g = FuncGraph(getattr(func, "__name__", "flat_map"))
        with g.as_default():
            phs = [placeholder(s.dtype, s.shape, name="args_%d" % i)
                   for i, s in enumerate(flat_specs(in_spec))]
            element = pack(in_spec, phs)
            ds = func(*element) if type(element) is tuple else func(element)
            if not isinstance(ds, Dataset):
                raise TypeError("The `map_func` argument must return a `Dataset` object. Got "
                                "%r." % (ds,))
            where = {id(p): i for i, p in enumerate(phs)}
            captured = ds._all_captures()
            # the element's own components are bound as they are (a window's carrier among
            # them); the plan computes the rest
            self._direct = [(t, where[id(t)]) for t in captured if id(t) in where]
            self._captured = [t for t in captured if id(t) not in where]
        self.dataset = ds
        self._fn = ConcreteFunction(g, phs, self._captured) if self._captured else None

    def __call__(self, flat: list) -> Iterator[list]:
        bindings = {id(t): flat[i] for t, i in self._direct}
        if self._fn is not None:
            values = self._fn._call_flat(flat)
            bindings.update((id(t), np.asarray(v._value)) for t, v in zip(self._captured, values))
        return self.dataset._iterate(IterationContext(bindings))


class _InterleaveDataset(Dataset):
    def __init__(self, input_ds: Dataset, func: Callable, cycle_length: int,
                 block_length: int):
        self._fn = _DatasetFunction(func, input_ds.element_spec)
        self._cycle, self._block = cycle_length, block_length
        super().__init__(self._fn.dataset.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        source = self._inputs[0]._iterate(ctx)
        open_ = [self._fn(flat) for flat in itertools.islice(source, self._cycle)]
        while open_:
            i = 0
            while i < len(open_):
                block = list(itertools.islice(open_[i], self._block))
                yield from block
                if len(block) < self._block:        # finished: the next element takes its
                    nxt = next(source, None)        # slot, producing from the next turn on
                    if nxt is None:
                        del open_[i]
                        continue
                    open_[i] = self._fn(nxt)
                i += 1


# -- reshaping transformations -------------------------------------------------------------


def _positive(value: Any, what: str) -> int:
    if isinstance(value, EagerTensor):
        value = value.numpy()
    if not isinstance(value, (numbers.Integral, np.integer)) or value <= 0:
        raise errors.InvalidArgumentError(None, None, "%s must be greater than zero, got %r."
                                          % (what, value))
    return int(value)


def _stack(batch: list, spec: Any = None) -> list:
    """One batch of flat elements: dense components stacked, SparseTensor and RaggedTensor
    components batched as TensorFlow does."""
    if spec is not None and any(structure.is_composite(s) for s in nest.flatten(spec)):
        per_leaf = [structure.group(spec, flat) for flat in batch]
        out = []
        for i, leaf in enumerate(nest.flatten(spec)):
            parts = [p[i] for p in per_leaf]
            if isinstance(leaf, structure.SparseTensorSpec):
                out.extend(_batch_sparse(parts))
            elif isinstance(leaf, structure.RaggedTensorSpec) and leaf.ragged_rank == 0:
                out.extend(_ragged_rows(parts, leaf.row_splits_dtype))   # a row of a ragged
            elif isinstance(leaf, structure.RaggedTensorSpec):
                out.extend(_batch_ragged(parts))
            else:
                out.extend(_stack([p for p in parts]))
        return out
    out = []
    for i, comps in enumerate(zip(*batch)):
        first = comps[0].shape
        for j, c in enumerate(comps[1:], 1):
            if c.shape != first:
                raise errors.InvalidArgumentError(
                    None, None, "Cannot batch tensors with different shapes in component %d. "
                    "First element had shape %s and element %d had shape %s."
                    % (i, list(first), j, list(c.shape)))
        out.append(np.stack(comps))
    return out


def _batch_sparse(parts: list) -> list:
    """SparseTensors (indices, values, dense_shape) batched along a new first dimension; the
    dense shape is the largest of each dimension (TensorFlow's rule)."""
    ranks = {len(p[2]) for p in parts}
    if len(ranks) != 1:
        raise errors.InvalidArgumentError(None, None, "Cannot batch SparseTensors of different "
                                          "ranks: %s" % sorted(ranks))
    rank = ranks.pop()
    indices = [np.concatenate([np.full((len(p[0]), 1), b, np.int64),
                               np.asarray(p[0], np.int64).reshape(-1, rank)], axis=1)
               for b, p in enumerate(parts)]
    shape = np.max(np.stack([np.asarray(p[2], np.int64) for p in parts]), axis=0) if rank \
        else np.zeros([0], np.int64)
    return [np.concatenate(indices).reshape(-1, rank + 1),
            np.concatenate([np.asarray(p[1]) for p in parts]),
            np.concatenate([[len(parts)], shape]).astype(np.int64)]


def _batch_ragged(parts: list) -> list:
    """RaggedTensors (flat_values, *nested_row_splits) batched into one with a new outer
    ragged dimension (each element's rows become one row)."""
    nrows = [len(p[1]) - 1 for p in parts]
    dt = np.asarray(parts[0][1]).dtype
    outer = np.concatenate([[0], np.cumsum(nrows)]).astype(dt)
    splits = []
    for k in range(1, len(parts[0])):
        offset, pieces = 0, []
        for j, p in enumerate(parts):
            s = np.asarray(p[k])
            pieces.append(s[(1 if j else 0):] + offset)
            offset += int(s[-1])
        splits.append(np.concatenate(pieces).astype(dt))
    flat = np.concatenate([np.asarray(p[0]) for p in parts])
    return [flat, outer] + splits


def _ragged_rows(parts: list, row_splits_dtype: Any) -> list:
    """Dense elements of rank >= 1 as one RaggedTensor batch (ragged_rank 1)."""
    arrs = [np.asarray(p[0]) for p in parts]
    inner = {a.shape[1:] for a in arrs}
    if len(inner) != 1:
        raise errors.InvalidArgumentError(
            None, None, "Cannot batch tensors into a ragged batch: the dimensions after the "
                        "first differ: %s" % sorted(inner))
    splits = np.concatenate([[0], np.cumsum([len(a) for a in arrs])])
    return [np.concatenate(arrs), splits.astype(row_splits_dtype.np)]


class _FlatMapDataset(_InterleaveDataset):
    """``flat_map``: an interleave of one dataset at a time."""


class _ParallelInterleaveDataset(_InterleaveDataset):
    """``interleave`` with ``num_parallel_calls`` (opened one at a time, in the same order
    as the sequential one: TensorFlow's deterministic order)."""


class _BatchDataset(Dataset):
    def __init__(self, input_ds: Dataset, batch_size: int, drop_remainder: bool):
        self._size = _positive(batch_size, "batch_size")
        self._drop = bool(drop_remainder)
        lead = self._size if self._drop else None
        spec = nest.map_structure(
            lambda s: _batched_spec(s, lead), input_ds.element_spec)
        super().__init__(spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        buf: list = []
        for flat in self._inputs[0]._iterate(ctx):
            buf.append(flat)
            if len(buf) == self._size:
                yield _stack(buf, self._inputs[0].element_spec)
                buf = []
        if buf and not self._drop:
            yield _stack(buf, self._inputs[0].element_spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        return n // self._size if self._drop else -(-n // self._size)


def _batched_spec(s: Any, lead: int | None) -> Any:
    if structure.is_composite(s) and not isinstance(s, (structure.RaggedTensorSpec,
                                                          structure.SparseTensorSpec)):
        return s._batch(lead)      # an ExtensionType's: AttributeError if not batchable
    shape = TensorShape(None) if s.shape.rank is None else TensorShape([lead] + s.shape.as_list())
    if isinstance(s, structure.RaggedTensorSpec):
        return structure.RaggedTensorSpec(shape, s.dtype, s.ragged_rank + 1,
                                          s.row_splits_dtype)
    if isinstance(s, structure.SparseTensorSpec):
        return structure.SparseTensorSpec(shape, s.dtype)
    return TensorSpec(shape, s.dtype)


class _ParallelBatchDataset(_BatchDataset):
    """``batch`` with ``num_parallel_calls`` (stacked one batch at a time here)."""


class _RaggedBatchDataset(_BatchDataset):
    """``ragged_batch``: dense elements of rank >= 1 batched into RaggedTensors (the first
    dimension ragged), scalars stacked, RaggedTensors batched as ``batch`` does."""

    _tf_name = "_BatchDataset"      # TensorFlow batches a map to ragged tensors

    def __init__(self, input_ds: Dataset, batch_size: int, drop_remainder: bool,
                 row_splits_dtype: Any):
        super().__init__(input_ds, batch_size, drop_remainder)
        self._splits_dtype = dtypes.as_dtype(row_splits_dtype)
        lead = self._size if self._drop else None
        self._element_spec = nest.map_structure(
            lambda s: self._spec(s, lead), input_ds.element_spec)

    def _spec(self, s: Any, lead: int | None) -> Any:
        if type(s) is TensorSpec and s.shape.rank != 0:
            if s.shape.rank is None:
                raise ValueError("ragged_batch needs elements of known rank, got %s" % (s,))
            return structure.RaggedTensorSpec([lead] + s.shape.as_list(), s.dtype, 1,
                                              self._splits_dtype)
        return _batched_spec(s, lead)

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        spec = self._inputs[0].element_spec
        buf: list = []
        for flat in self._inputs[0]._iterate(ctx):
            buf.append(flat)
            if len(buf) == self._size:
                yield self._batch(buf, spec)
                buf = []
        if buf and not self._drop:
            yield self._batch(buf, spec)

    def _batch(self, buf: list, spec: Any) -> list:
        per_leaf = [structure.group(spec, flat) for flat in buf]
        out = []
        for i, leaf in enumerate(nest.flatten(spec)):
            parts = [p[i] for p in per_leaf]
            if type(leaf) is TensorSpec and leaf.shape.rank != 0:
                out.extend(_ragged_rows(parts, self._splits_dtype))
            else:
                leaf_spec = leaf if structure.is_composite(leaf) else None
                out.extend(_stack([p for p in parts], leaf_spec))
        return out


def _per_component(spec: Any, value: Any, default: Any, what: str) -> list:
    """``value`` given for the whole element (a leaf) or per component (a structure)."""
    specs = flat_specs(spec)
    if value is None:
        return [default(s) for s in specs]
    if nest.is_nested(spec) and nest.is_nested(value):
        try:
            return structure._flatten_up_to(structure.normalize(spec), value)
        except ValueError as e:
            raise ValueError("The structure of `%s` does not match the elements: %s"
                             % (what, e)) from None
    if nest.is_nested(spec) and what == "padded_shapes":
        raise ValueError("`padded_shapes` must match the structure of the elements %s"
                         % (spec,))
    return [value] * len(specs)


def _padded_dims(shape: Any, i: int) -> list:
    """A padded shape as a list (-1 and None: pad to the longest in the batch)."""
    if isinstance(shape, (list, tuple)):
        shape = [None if isinstance(x, numbers.Integral) and x < 0 else x for x in shape]
    shape = as_shape(shape)
    if shape.rank is None:
        raise ValueError("padded_batch needs the rank of component %d: give its padded shape "
                         "in `padded_shapes`." % i)
    return shape.as_list()


def _padding_value(value: Any, spec: Any) -> np.ndarray:
    """A component's padding value: its dtype's zero (or b"") by default; a given one is
    converted as TensorFlow converts it (a Python int is int32) and must match the
    component's dtype and be a scalar."""
    if value is None:
        return np.asarray(b"" if spec.dtype.name == "string" else 0, spec.dtype.np)
    from flowgrad.framework.tensor_util import constant_value
    t = value if isinstance(value, (EagerTensor, Tensor)) else convert_to_tensor(value)
    if t.dtype.base_dtype != spec.dtype.base_dtype:
        raise TypeError("Invalid `padding_values`. `padding_values` values type %s does not "
                        "match type %s of the corresponding input component."
                        % (t.dtype, spec.dtype))
    if t.shape.rank != 0:
        raise ValueError("Invalid `padding_values`. `padding_values` values should be "
                         "scalars, but got %s." % t.shape)
    v = t._value if isinstance(t, EagerTensor) else constant_value(t)
    if v is None:
        raise ValueError("Invalid `padding_values`: %s has no constant value." % t.name)
    return np.asarray(v, spec.dtype.np)


class _PaddedBatchDataset(_BatchDataset):
    def __init__(self, input_ds: Dataset, batch_size: int, padded_shapes: Any,
                 padding_values: Any, drop_remainder: bool):
        spec = input_ds.element_spec
        shapes = _per_component(spec, padded_shapes, lambda s: s.shape, "padded_shapes")
        self._shapes = []
        for i, (s, shape) in enumerate(zip(flat_specs(spec), shapes)):
            dims = _padded_dims(shape, i)
            if s.shape.rank is not None and len(dims) != s.shape.rank:
                raise ValueError("The padded shape %s of component %d does not have the rank "
                                 "(%d) of its elements %s" % (dims, i, s.shape.rank, s.shape))
            if s.shape.rank is not None and any(
                    d is not None and e is not None and e > d
                    for d, e in zip(dims, s.shape.as_list())):
                raise ValueError("The padded shape %s is not compatible with the shape %s of "
                                 "the corresponding input component." % (tuple(dims),
                                                                         s.shape))
            self._shapes.append(dims)
        values = _per_component(spec, padding_values, lambda s: None, "padding_values")
        self._values = [_padding_value(v, s) for v, s in zip(values, flat_specs(spec))]
        super().__init__(input_ds, batch_size, drop_remainder)
        lead = self._size if self._drop else None
        self._element_spec = pack(spec, [TensorSpec([lead] + d, s.dtype) for d, s in
                                         zip(self._shapes, flat_specs(spec))])

    def _pad(self, comps: tuple, i: int) -> np.ndarray:
        dims = self._shapes[i]
        target = [d if d is not None else max(c.shape[k] for c in comps)
                  for k, d in enumerate(dims)]
        out = np.full([len(comps)] + target, self._values[i], comps[0].dtype)
        for j, c in enumerate(comps):
            if any(a > b for a, b in zip(c.shape, target)):
                raise errors.DataLossError(
                    None, None, "Attempted to pad to a smaller size than the input element.")
            out[(j,) + tuple(slice(0, n) for n in c.shape)] = c
        return out

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        buf: list = []
        for flat in self._inputs[0]._iterate(ctx):
            buf.append(flat)
            if len(buf) == self._size:
                yield [self._pad(comps, i) for i, comps in enumerate(zip(*buf))]
                buf = []
        if buf and not self._drop:
            yield [self._pad(comps, i) for i, comps in enumerate(zip(*buf))]


class _UnbatchDataset(Dataset):
    def __init__(self, input_ds: Dataset):
        spec = input_ds.element_spec
        for s in flat_specs(spec):
            if s.shape.rank == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")
        leaves = nest.flatten(spec)
        # SparseTensors and RaggedTensors unbatch by rows; the others' components by index
        self._kinds = ["sparse" if isinstance(s, structure.SparseTensorSpec) else "ragged"
                       if isinstance(s, structure.RaggedTensorSpec) else "dense" for s in leaves]
        super().__init__(nest.pack_sequence_as(spec, [
            _unbatched_composite_spec(s) if kind != "dense" else
            structure.with_shapes(s, _drop_first) for s, kind in zip(leaves, self._kinds)]),
            (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        spec = self._inputs[0].element_spec
        for flat in self._inputs[0]._iterate(ctx):
            leaves = list(zip(self._kinds, structure.group(spec, flat)))
            sizes = [_rows_of(kind, parts, j) for kind, parts in leaves
                     for j in range(len(parts) if kind == "dense" else 1)]
            if len(set(sizes)) > 1:
                raise errors.InvalidArgumentError(
                    None, None, "Input element must have the same batch size in each "
                    "component. Component 0 had size %d but another had %d."
                    % (sizes[0], max(set(sizes) - {sizes[0]})))
            for i in range(sizes[0] if sizes else 0):
                element = []
                for kind, parts in leaves:
                    if kind == "sparse":
                        element.extend(_sparse_row(parts, i))
                    elif kind == "ragged":
                        element.extend(_ragged_row(parts, i))
                    else:
                        element.extend(c[i] for c in parts)
                yield element


class _ShuffleDataset(Dataset):
    """TensorFlow's ``ShuffleDataset``: a ring buffer of ``buffer_size`` elements; each
    output is the element at a random offset from the buffer's oldest slot, which then takes
    the oldest element's place, and the next input element fills the buffer again.

    The numbers are TensorFlow's: the iterator's Philox stream is keyed by the seed pair of
    ``get_seed(seed)`` (both 0: random seeds); with ``reshuffle_each_iteration`` each
    iterator takes a fresh pair of words from a generator keyed by that pair."""

    def __init__(self, input_ds: Dataset, buffer_size: int, seed: int | None, reshuffle: bool):
        self._buffer = _positive(buffer_size, "buffer_size")
        s1, s2 = get_seed(seed)
        s1, s2 = s1 or 0, s2 or 0
        if not s1 and not s2:
            s1, s2 = secrets.randbits(63), secrets.randbits(63)
        self._seeds = (s1, s2)
        self._seed_stream = SeedStream(self._seeds, bool(reshuffle))
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        words = PhiloxWords(*seeded_key_counter(*ctx.draw_seeds(self._seed_stream)))
        size = self._buffer
        buf: list = [None] * size
        start = end = 0
        for flat in self._inputs[0]._iterate(ctx):
            buf[end % size] = flat
            end += 1
            if end - start < size:
                continue
            yield self._take(buf, start, end, words)
            start += 1
        while start < end:
            yield self._take(buf, start, end, words)
            start += 1

    @staticmethod
    def _take(buf: list, start: int, end: int, words: PhiloxWords) -> list:
        size = len(buf)
        index = (start + words.next() % (end - start)) % size
        out = buf[index]
        buf[index], buf[start % size] = buf[start % size], None
        return out

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()


class _RepeatDataset(Dataset):
    def __init__(self, input_ds: Dataset, count: Any):
        self._count = -1 if count is None else _count(count, "repeat")
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        epochs = itertools.count() if self._count < 0 else range(self._count)
        for _ in epochs:
            empty = True
            for flat in self._inputs[0]._iterate(ctx):
                empty = False
                yield flat
            if empty:
                return

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if self._count < 0:
            return 0 if n == 0 else INFINITE
        return n * self._count if n >= 0 else n


class _TakeDataset(Dataset):
    def __init__(self, input_ds: Dataset, count: int):
        self._count = count
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        source = self._inputs[0]._iterate(ctx)
        return source if self._count < 0 else itertools.islice(source, self._count)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if self._count < 0:
            return n
        if n == INFINITE:
            return self._count
        return min(n, self._count) if n >= 0 else UNKNOWN


class _SkipDataset(Dataset):
    def __init__(self, input_ds: Dataset, count: int):
        self._count = count
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        source = self._inputs[0]._iterate(ctx)
        if self._count < 0:
            for _ in source:
                pass
            return iter(())
        return itertools.islice(source, self._count, None)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        return 0 if self._count < 0 else max(n - self._count, 0)


class _ShardDataset(Dataset):
    def __init__(self, input_ds: Dataset, start: int, step: int):
        self._start, self._step = start, step
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        return itertools.islice(self._inputs[0]._iterate(ctx), self._start, None, self._step)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        return n // self._step + (1 if self._start < n % self._step else 0)


class _PassThroughDataset(Dataset):
    """The elements of its input, unchanged (TensorFlow's prefetch and options datasets)."""

    def __init__(self, input_ds: Dataset):
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        return self._inputs[0]._iterate(ctx)

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()


class _PrefetchDataset(_PassThroughDataset):
    """``dataset.prefetch(n)``: elements are produced on demand here."""


class _OptionsDataset(_PassThroughDataset):
    """``dataset.with_options(options)``: the options apply to this dataset and the ones
    built on it."""

    def __init__(self, input_ds: Dataset, options: Any):
        from flowgrad.data.options import Options
        if not isinstance(options, Options):
            raise TypeError("`options` must be a `tf.data.Options`, got %r" % (options,))
        super().__init__(input_ds)
        self._merged_options = input_ds._merged().merge(options)


class _ZipDataset(Dataset):
    def __init__(self, datasets: Any):
        flat = nest.flatten(datasets)
        for d in flat:
            if not isinstance(d, Dataset):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) "
                                "structures of `tf.data.Dataset` objects. Python `list` is not "
                                "supported and you should use `tuple` instead; got %r." % (d,))
        self._structure = datasets
        super().__init__(nest.pack_sequence_as(datasets, [d.element_spec for d in flat]),
                         tuple(flat))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        for parts in zip(*[d._iterate(ctx) for d in self._inputs]):
            yield [c for p in parts for c in p]

    def _cardinality(self) -> int:
        ns = [d._cardinality() for d in self._inputs]
        finite = [n for n in ns if n >= 0]
        if finite:
            return min(finite) if UNKNOWN not in ns or min(finite) == 0 else UNKNOWN
        return UNKNOWN if UNKNOWN in ns else INFINITE


class _ConcatenateDataset(Dataset):
    def __init__(self, first: Dataset, second: Dataset):
        a, b = first.element_spec, second.element_spec
        if not structure.same_structure(a, b) or any(
                x.dtype != y.dtype for x, y in zip(flat_specs(a), flat_specs(b))):
            raise TypeError("Incompatible dataset elements:\n  %s vs.   %s" % (a, b))
        spec = nest.pack_sequence_as(a, [
            TensorSpec(structure.most_specific_compatible(x.shape, y.shape), x.dtype)
            for x, y in zip(flat_specs(a), flat_specs(b))])
        super().__init__(spec, (first, second))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        yield from self._inputs[0]._iterate(ctx)
        yield from self._inputs[1]._iterate(ctx)

    def _cardinality(self) -> int:
        a, b = (d._cardinality() for d in self._inputs)
        if INFINITE in (a, b):
            return INFINITE
        return UNKNOWN if UNKNOWN in (a, b) else a + b


__all__ = ["Dataset", "DatasetV2", "AUTOTUNE", "INFINITE", "UNKNOWN"]
