"""``Dataset.cache``: elements computed once, then read back, as TensorFlow's ``CacheDataset``.

In memory (``filename=""``), the cache belongs to the dataset object: the first iterator that
reads the input to its end fills it, and every later iterator (of this dataset or of one built
on it) reads the stored elements, so random ``map`` draws made before the cache are made once.
An iterator dropped before the end leaves the cache empty (TensorFlow discards a partial
cache), and the next one computes again.

With a ``filename``, the elements are written as a tensor bundle ``<filename>.index`` /
``<filename>.data-00000-of-00001`` with TensorFlow's keys (``"%7d_%Nd"``: element index,
component index padded to the width of the number of components), once the input has been
read to its end; while the bundle exists, iterating reads it instead of the input, in this
and in later runs, and TensorFlow's cache files are read as well."""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import numpy as np

from flowgrad.data.dataset_ops import TRANSFORMS, Dataset
from flowgrad.data.structure import IterationContext, flat_specs
from flowgrad.framework import errors

_MAX_ITEMS_WIDTH = 7        # len(str(kMaxItems - 1)), kMaxItems = 10**7 in TensorFlow


def _key(item: int, component: int, width: int) -> str:
    return "%*d_%*d" % (_MAX_ITEMS_WIDTH, item, width, component)


class CacheDataset(Dataset):
    """The elements of ``input_ds``, computed by the first complete pass and then read from
    memory or from the bundle at ``filename``."""

    def __init__(self, input_ds: Dataset, filename: str):
        self._filename = os.fspath(filename)
        self._elements: list | None = None
        self._lock = threading.Lock()
        super().__init__(input_ds.element_spec, (input_ds,))

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        if self._filename:
            return self._iterate_file(ctx)
        return self._iterate_memory(ctx)

    def _iterate_memory(self, ctx: IterationContext) -> Iterator[list]:
        with self._lock:
            cached = self._elements
        if cached is not None:
            yield from (list(flat) for flat in cached)
            return
        seen: list = []
        for flat in self._inputs[0]._iterate(ctx):
            seen.append(flat)
            yield list(flat)
        with self._lock:
            if self._elements is None:
                self._elements = seen

    def _iterate_file(self, ctx: IterationContext) -> Iterator[list]:
        from flowgrad.train import tensor_bundle
        prefix = self._filename
        if os.path.exists(prefix + ".index"):
            yield from self._read_bundle(tensor_bundle.BundleReader(prefix))
            return
        directory = os.path.dirname(prefix)
        if directory and not os.path.isdir(directory):
            raise errors.NotFoundError(None, None, "%s_0.lockfile; No such file or directory"
                                       % prefix)
        width = len(str(max(len(flat_specs(self.element_spec)) - 1, 0)))
        tensors: dict = {}
        count = 0
        for flat in self._inputs[0]._iterate(ctx):
            for i, value in enumerate(flat):
                tensors[_key(count, i, width)] = np.asarray(value)
            count += 1
            yield flat
        if not os.path.exists(prefix + ".index"):
            tensor_bundle.write_bundle(prefix, tensors)
            if not tensors:         # TensorFlow leaves no data file for no elements
                os.remove(tensor_bundle.data_path(prefix))

    def _read_bundle(self, reader: object) -> Iterator[list]:
        n = len(flat_specs(self.element_spec))
        width = len(str(max(n - 1, 0)))
        item = 0
        while reader.has_tensor(_key(item, 0, width)):
            yield [reader.get_tensor(_key(item, i, width)) for i in range(n)]
            item += 1


def cache(dataset: Dataset, filename: str = "") -> Dataset:
    """``dataset.cache(filename)``: see the module docstring."""
    return CacheDataset(dataset, filename)


TRANSFORMS["cache"] = cache

__all__ = ["CacheDataset", "cache"]
