"""What a ``ClusterCoordinator`` hands to scheduled functions for each worker to resolve
on its own: per-worker values, datasets and iterators."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any
from flowgrad.framework.type_hints import TensorLike


class PerWorkerValues:
    """One value per worker (``tf.distribute.experimental.coordinator.PerWorkerValues``);
    a scheduled function receives its worker's.

    Args:
      values: the values, in the workers' order.
    """

    def __init__(self, values: Any):
        self._values = tuple(values)


class PerWorkerDataset:
    """A dataset made on every worker by ``create_per_worker_dataset``.

    Args:
      coordinator: the ClusterCoordinator.
      key: its number among the coordinator's datasets.
      ref: the Ray reference of the pickled ``dataset_fn``.
      dataset_fn: the function that makes the dataset.
    """

    def __init__(self, coordinator: Any, key: int, ref: TensorLike,
                 dataset_fn: Callable):
        self._coordinator = coordinator
        self._key = key
        self._ref = ref
        self._fn = dataset_fn
        self._iterators = itertools.count()

    def __iter__(self) -> PerWorkerDatasetIterator:
        return PerWorkerDatasetIterator(self, next(self._iterators))


class PerWorkerDatasetIterator:
    """Every worker's iterator over its copy of a ``PerWorkerDataset``; pass it to a
    scheduled function, which takes ``next(iterator)`` on the worker that runs it.

    Args:
      dataset: the per-worker dataset.
      key: its number among the dataset's iterators.
    """

    def __init__(self, dataset: PerWorkerDataset, key: int):
        self._dataset = dataset
        self._key = key

    def __iter__(self) -> PerWorkerDatasetIterator:
        return self

    def __next__(self) -> Any:
        raise TypeError("A per-worker iterator has its elements on the workers: pass it to "
                        "a function that coordinator.schedule runs, and take next(iterator) "
                        "there")
