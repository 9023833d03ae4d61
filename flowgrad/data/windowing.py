"""tf.data transformations whose elements are datasets: ``Dataset.window``,
``Dataset.group_by_window`` and ``Dataset.bucket_by_sequence_length``.

A window is an element of type ``tf.data.DatasetSpec``: inside a pipeline it travels as one
component holding its elements (see ``structure.DatasetSpec``), and a function given a window
(``flat_map(lambda w: w.batch(3))``, a ``reduce_func``) sees a dataset that reads them when it
is iterated."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.data import structure
from flowgrad.data.dataset_ops import (INFINITE, TRANSFORMS, UNKNOWN, Dataset, _DatasetFunction,
                                       _positive, _TracedFunction)
from flowgrad.data.structure import (DatasetSpec, IterationContext, register_windows,
                                     window_component)
from flowgrad.framework import dtypes, errors
from flowgrad.framework.tensor import EagerTensor, Tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.runtime.function import TensorSpec


class _VariantDataset(Dataset):
    """A dataset of given elements (flat lists of arrays): a window's, ``from_list``'s, a
    bucket's; or read, when it is iterated, from the component that carries a window (a
    traced function's input)."""

    def __init__(self, element_spec: Any, elements: list | None, carrier: Any = None):
        super().__init__(element_spec)
        self._elements = elements
        self._carrier = carrier
        self._captured = [carrier] if carrier is not None else []

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        if self._elements is not None:
            return iter(self._elements)
        return iter(np.asarray(ctx.value(self._carrier), object)[()].elements)

    def _cardinality(self) -> int:
        return UNKNOWN if self._elements is None else len(self._elements)


def window_dataset(element_spec: Any, component: Any) -> Dataset:
    """The dataset of the window ``component`` carries (an array, an EagerTensor, or a graph
    tensor whose value arrives when the dataset is iterated)."""
    if isinstance(component, Tensor):
        return _VariantDataset(element_spec, None, component)
    if isinstance(component, EagerTensor):
        component = component._value
    return _VariantDataset(element_spec, np.asarray(component, object)[()].elements)


def from_list(elements: list, name: str | None = None) -> Dataset:
    """``tf.data.experimental.from_list``: a dataset of the given elements (nested
    structures of one kind; a dimension that differs between them is None in the spec).

    Args:
        elements: The elements.
        name: Accepted for TensorFlow's signature.

    Returns:
        The dataset.

    Raises:
        ValueError: ``elements`` is empty or its elements differ in structure or dtype.
    """
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    norms = [structure.normalize(e) for e in elements]
    flats = [[structure.to_array(x) for x in structure.flatten(n)] for n in norms]
    specs = [structure.spec_of(a) for a in flats[0]]
    for n, flat in zip(norms, flats):
        if not structure.same_structure(norms[0], n) or len(flat) != len(specs) or any(
                structure.spec_of(a).dtype != s.dtype for a, s in zip(flat, specs)):
            raise ValueError("Invalid `elements`. All elements must have the same structure "
                             "and dtypes; %r differs from %r." % (n, norms[0]))
        specs = [TensorSpec(structure.most_specific_compatible(s.shape, TensorShape(a.shape)),
                            s.dtype) for s, a in zip(specs, flat)]
    return _VariantDataset(nest.pack_sequence_as(norms[0], specs), flats)


def _windows_of(spec: Any, elements: list) -> list:
    """One window component per leaf of ``spec`` for the flat ``elements``."""
    per_element = [structure.group(spec, flat) for flat in elements]
    return [window_component([parts[i] for parts in per_element])
            for i in range(len(nest.flatten(spec)))]


class _WindowDataset(Dataset):
    def __init__(self, input_ds: Dataset, size: int, shift: int, stride: int,
                 drop_remainder: bool):
        self._size, self._shift, self._stride = size, shift, stride
        self._drop = bool(drop_remainder)
        spec = nest.map_structure(DatasetSpec, input_ds.element_spec)
        super().__init__(spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        source = self._inputs[0]._iterate(ctx)
        kept: list = []                 # elements from index `base` on
        base = start = 0
        done = False
        spec = self._inputs[0].element_spec
        while True:
            last = start + (self._size - 1) * self._stride
            while not done and base + len(kept) <= last:
                flat = next(source, None)
                if flat is None:
                    done = True
                else:
                    kept.append(flat)
            seen = base + len(kept)
            if start >= seen:
                return
            picks = [kept[i - base] for i in range(start, min(last + 1, seen), self._stride)]
            if len(picks) < self._size and self._drop:
                return
            yield _windows_of(spec, picks)
            start += self._shift
            if start > base:
                del kept[:start - base]
                base = start

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        if self._drop:
            span = (self._size - 1) * self._stride + 1
            return 0 if n < span else (n - span) // self._shift + 1
        return -(-n // self._shift)


def window(dataset: Dataset, size: int, shift: int | None = None, stride: int = 1,
           drop_remainder: bool = False) -> Dataset:
    """``dataset.window(...)``: windows of ``size`` elements (every ``stride``-th), one
    starting every ``shift`` elements; each window is a (nested structure of) dataset."""
    size = _positive(size, "size")
    shift = size if shift is None else _positive(shift, "shift")
    return _WindowDataset(dataset, size, shift, _positive(stride, "stride"),
                                 drop_remainder)


class _GroupByWindowDataset(Dataset):
    """Elements grouped by an int key (``key_of(element)``); a group of its window size (or,
    at the end, any group left, in ascending key order) is handed to ``reduce(key,
    elements)``, whose elements are the output."""

    def __init__(self, input_ds: Dataset, key_of: Callable, size_of: Callable,
                 reduce: Callable, output_spec: Any):
        self._key_of, self._size_of, self._reduce = key_of, size_of, reduce
        super().__init__(output_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        groups: dict = {}
        sizes: dict = {}
        for flat in self._inputs[0]._iterate(ctx):
            key = self._key_of(flat)
            if key not in groups:
                groups[key], sizes[key] = [], self._size_of(key)
            groups[key].append(flat)
            if len(groups[key]) == sizes[key]:
                yield from self._reduce(key, groups.pop(key))
        for key in sorted(groups):
            yield from self._reduce(key, groups[key])

    def _cardinality(self) -> int:
        return INFINITE if self._inputs[0]._cardinality() == INFINITE else UNKNOWN


def _scalar_function(func: Callable, in_spec: Any, what: str, dtype: Any) -> _TracedFunction:
    """``func`` traced over ``in_spec``; ValueError unless it returns a ``dtype`` scalar."""
    fn = _TracedFunction(func, in_spec, what)
    spec = fn.output_spec
    if not isinstance(spec, TensorSpec) or spec.dtype != dtype or \
            spec.shape.rank not in (0, None):
        raise ValueError("`%s` must return a single %s scalar tensor. Got type=%s and shape=%s"
                         % (what, dtype, getattr(spec, "dtype", spec),
                            getattr(spec, "shape", None)))
    return fn


def group_by_window(dataset: Dataset, key_func: Callable, reduce_func: Callable,
                    window_size: int | None = None,
                    window_size_func: Callable | None = None) -> Dataset:
    """``dataset.group_by_window(...)``: the elements of ``reduce_func(key, window)`` for
    each window of up to ``window_size`` (or ``window_size_func(key)``) elements of one
    ``key_func`` key."""
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` "
                         "argument must be specified.")
    key_fn = _scalar_function(key_func, dataset.element_spec, "key_func", dtypes.int64)
    if window_size is not None:
        size = _positive(window_size, "window_size")

        def size_of(key: int) -> int:
            return size
    else:
        size_fn = _scalar_function(window_size_func, TensorSpec([], dtypes.int64),
                                   "window_size_func", dtypes.int64)

        def size_of(key: int) -> int:
            n = int(size_fn([np.asarray(key, np.int64)])[0])
            if n <= 0:
                raise errors.InvalidArgumentError(None, None, "Window size must be greater "
                                                  "than zero, but got %d." % n)
            return n
    reduce_fn = _DatasetFunction(reduce_func, (TensorSpec([], dtypes.int64),
                                               DatasetSpec(dataset.element_spec)))
    return _GroupByWindowDataset(
        dataset, lambda flat: int(key_fn(flat)[0]), size_of,
        lambda key, elements: reduce_fn([np.asarray(key, np.int64),
                                         window_component(elements)]),
        reduce_fn.dataset.element_spec)


def bucket_by_sequence_length(dataset: Dataset, element_length_func: Callable,
                              bucket_boundaries: list, bucket_batch_sizes: list,
                              padded_shapes: Any = None, padding_values: Any = None,
                              pad_to_bucket_boundary: bool = False, no_padding: bool = False,
                              drop_remainder: bool = False) -> Dataset:
    """``dataset.bucket_by_sequence_length(...)``: elements batched (padded) with others of
    a similar length, as TensorFlow's: bucket ``i`` holds lengths in ``[boundaries[i-1],
    boundaries[i])`` and batches ``bucket_batch_sizes[i]`` of them."""
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError("len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 but "
                         "len(bucket_batch_sizes)=%d and len(bucket_boundaries)=%d"
                         % (len(sizes), len(boundaries)))
    if boundaries != sorted(boundaries):
        raise ValueError("bucket_boundaries must be a sorted list of integers")
    length_fn = _TracedFunction(element_length_func, dataset.element_spec,
                                "element_length_func")
    lows = [np.iinfo(np.int32).min] + boundaries
    highs = boundaries + [np.iinfo(np.int32).max]

    def key_of(flat: list) -> int:
        n = int(length_fn(flat)[0])
        return next(i for i, (lo, hi) in enumerate(zip(lows, highs)) if lo <= n < hi)

    spec = dataset.element_spec
    shapes = padded_shapes if padded_shapes is not None else nest.map_structure(
        lambda s: s.shape, spec)

    def batches(key: int, elements: list) -> Iterator[list]:
        ds = _VariantDataset(spec, elements)
        if no_padding:
            return ds.batch(sizes[key], drop_remainder)._iterate(IterationContext())
        filler = None
        if pad_to_bucket_boundary:
            if key == len(sizes) - 1:
                raise errors.InvalidArgumentError(
                    None, None, "When pad_to_bucket_boundary=True, elements must have length "
                    "< max(bucket_boundaries).")
            filler = boundaries[key] - 1
        padded = nest.map_structure(lambda s: _with_first(s, filler), shapes)
        return ds.padded_batch(sizes[key], padded, padding_values,
                               drop_remainder)._iterate(IterationContext())

    # the batch size and the padded length depend on the bucket: TensorFlow's spec has them
    # open
    out_spec = structure.with_shapes(
        _VariantDataset(spec, []).batch(1).element_spec if no_padding else
        _VariantDataset(spec, []).padded_batch(1, shapes, padding_values).element_spec,
        lambda s: s if s.rank is None else type(s)(
            [None, None if pad_to_bucket_boundary else s.as_tuple()[1]] + list(
                s.as_tuple()[2:]) if s.rank > 1 else [None]))
    return _GroupByWindowDataset(dataset, key_of, lambda key: sizes[key], batches, out_spec)


def _with_first(shape: Any, filler: int | None) -> Any:
    """A padded shape with its first dimension ``filler`` where it is open."""
    dims = shape.as_list() if hasattr(shape, "as_list") and shape.rank is not None else \
        (None if hasattr(shape, "as_list") else list(shape))
    if dims is None or not dims or filler is None:
        return shape
    return [filler if dims[0] in (None, -1) else dims[0]] + dims[1:]


register_windows(Dataset, window_dataset)
TRANSFORMS.update(window=window, group_by_window=group_by_window,
                  bucket_by_sequence_length=bucket_by_sequence_length)

__all__ = ["from_list", "window", "window_dataset", "group_by_window", "bucket_by_sequence_length"]
