"""``Dataset.rejection_resample`` (and ``tf.data.experimental.rejection_resample``): elements
kept or dropped by class so that the classes reach a target distribution, as TensorFlow 2.21
builds it from other transformations: the initial distribution given, or estimated from the
classes seen so far (counts smoothed by 10, re-estimated every 32 elements); per-class
acceptance probabilities ``a_i = (t_i/p_i - m) / (max_i t_i/p_i - m)`` with ``m = min_i
t_i/p_i``, the probability of taking an element from the original dataset instead; a filter
drawing ``random_uniform([], seed=seed) < a_class``; the two sampled with
``sample_from_datasets``. Elements become ``(class, element)`` pairs."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.data.dataset_ops import TRANSFORMS, Dataset
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_util import constant_value
from flowgrad.ops import array_ops, math_ops, random_ops
from flowgrad.ops.fill_ops import one_hot

_ESTIMATION_BATCH = 32
_SMOOTHING = 10


def _acceptance(initial: Any, target: Any) -> tuple:
    """(per-class acceptance probabilities, probability of the original dataset)."""
    ratio = target / (initial + np.finfo(np.float32).tiny)
    low, high = math_ops.reduce_min(ratio), math_ops.reduce_max(ratio)
    return (ratio - low) / (high - low), low


def _estimated_initial(target: Any, classes: Dataset) -> Dataset:
    num_classes = target.shape[0]

    def update(seen: Any, c: Any) -> tuple:
        seen = seen + math_ops.reduce_sum(one_hot(c, num_classes, dtype=dtypes.int64), 0)
        dist = math_ops.cast(math_ops.truediv(seen, math_ops.reduce_sum(seen)), dtypes.float32)
        return seen, array_ops.tile(array_ops.expand_dims(dist, 0), [_ESTIMATION_BATCH, 1])

    start = array_ops.fill([num_classes], np.int64(_SMOOTHING))
    return classes.batch(_ESTIMATION_BATCH).scan(start, update).unbatch()


def rejection_resample(dataset: Dataset, class_func: Callable, target_dist: Any,
                       initial_dist: Any = None, seed: int | None = None) -> Dataset:
    """``dataset.rejection_resample(class_func, target_dist, initial_dist, seed)``.

    Args:
        dataset: The dataset to resample.
        class_func: ``element -> int32 scalar`` class in ``[0, num_classes)``.
        target_dist: The target class probabilities.
        initial_dist: The dataset's class probabilities (default: estimated as it goes).
        seed: The random seed of the acceptance draws and of the mixing.

    Returns:
        A dataset of ``(class, element)``.
    """
    target = math_ops.cast(convert_to_tensor(target_dist, name="target_dist"), dtypes.float32)
    if initial_dist is not None:
        initial = math_ops.cast(convert_to_tensor(initial_dist, name="initial_dist"),
                                dtypes.float32)
        accept, original = _acceptance(initial, target)
        initial_ds = Dataset.from_tensors(initial).repeat()
        accept_ds = Dataset.from_tensors(accept).repeat()
        original_ds = Dataset.from_tensors(original).repeat()
        init_static, target_static = constant_value(initial), constant_value(target)
        static = None if init_static is None or target_static is None else \
            np.min(target_static / init_static)
    else:
        initial_ds = _estimated_initial(target, dataset.map(class_func))
        both = initial_ds.map(lambda initial: _acceptance(initial, target))
        accept_ds = both.map(lambda accept, _: accept)
        original_ds = both.map(lambda _, original: original)
        static = None

    def with_class(accept: Any, data: Any) -> tuple:
        c = class_func(*data) if isinstance(data, tuple) else class_func(data)
        return c, array_ops.gather(accept, c), data

    def keep(c: Any, p: Any, data: Any) -> Any:
        return random_ops.random_uniform([], seed=seed, dtype=p.dtype) < p

    filtered = Dataset.zip((Dataset.zip((accept_ds, initial_ds)).map(lambda a, i: a),
                            dataset)).map(with_class).filter(keep).map(
        lambda c, p, data: (c, data)).prefetch(3)

    def add_class(*x: Any) -> tuple:
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

    if static == 1:
        return dataset.map(add_class)
    if static == 0:
        return filtered
    return Dataset.sample_from_datasets(
        [dataset.map(add_class), filtered],
        weights=original_ds.map(lambda p: [(p, 1.0 - p)]), seed=seed,
        stop_on_empty_dataset=True)


TRANSFORMS["rejection_resample"] = rejection_resample

__all__ = ["rejection_resample"]
