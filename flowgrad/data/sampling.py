"""Datasets that pick among datasets, and the random and counting sources they use:
``Dataset.random``, ``Dataset.counter``, ``Dataset.choose_from_datasets`` and
``Dataset.sample_from_datasets``, as TensorFlow 2.21 builds them.

``sample_from_datasets`` is TensorFlow's own recipe: a ``Dataset.random(seed)`` stream,
batched in pairs, seeds one ``stateless_categorical`` draw over the weights' logits per
element, and the draws steer a directed interleave of the datasets. ``Dataset.random`` gives
the uint32 words of TensorFlow's ``RandomDataset`` (Philox keyed by ``get_seed(seed)``), so
with the same seeds the same elements come out in the same order as on TensorFlow.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import numpy as np

from flowgrad.data.dataset_ops import INFINITE, UNKNOWN, Dataset
from flowgrad.data.structure import IterationContext, SeedStream
from flowgrad.framework import dtypes, errors
from flowgrad.framework.philox import PhiloxWords, seeded_key_counter
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.ops.elementwise_ops import log
from flowgrad.ops.random_ops import get_seed
from flowgrad.ops.shape_ops import expand_dims, squeeze
from flowgrad.ops.stateless_random_ops import stateless_categorical
from flowgrad.runtime.function import TensorSpec
from flowgrad.framework.type_hints import DTypeLike


class _RandomDataset(Dataset):
    """TensorFlow's ``RandomDataset``: an endless stream of int64 scalars, each one uint32
    word of the Philox stream keyed by the seed pair (both 0: random seeds); with
    ``rerandomize_each_iteration`` each iteration takes fresh seeds from a stream keyed by
    that pair."""

    def __init__(self, seed: Any = None, rerandomize_each_iteration: Any = None):
        s1, s2 = get_seed(seed)
        s1, s2 = s1 or 0, s2 or 0
        if not s1 and not s2:
            s1, s2 = secrets.randbits(63), secrets.randbits(63)
        self._seeds = (s1, s2)
        self._seed_stream = SeedStream(self._seeds, bool(rerandomize_each_iteration))
        super().__init__(TensorSpec([], dtypes.int64))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        words = PhiloxWords(*seeded_key_counter(*ctx.draw_seeds(self._seed_stream)))
        while True:
            yield [np.asarray(words.next(), np.int64)]

    def _cardinality(self) -> int:
        return INFINITE


class _CounterDataset(Dataset):
    _tf_name = "_ScanDataset"       # TensorFlow scans a repeated constant

    def __init__(self, start: Any, step: Any, dtype: Any):
        self._dtype = dtypes.as_dtype(dtype)
        self._start = _scalar(start, self._dtype, "start")
        self._step = _scalar(step, self._dtype, "step")
        super().__init__(TensorSpec([], self._dtype))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        value = self._start
        while True:
            yield [value]
            value = (value + self._step).astype(self._dtype.np)

    def _cardinality(self) -> int:
        return INFINITE


def _scalar(value: Any, dtype: Any, what: str) -> np.ndarray:
    t = convert_to_tensor(value, dtype)
    if isinstance(t, Tensor) and not hasattr(t, "numpy"):
        raise TypeError("Dataset.counter(%s): a graph tensor is not supported; pass a number"
                        % what)
    return np.asarray(t.numpy(), dtype.np)


class _DirectedInterleaveDataset(Dataset):
    """TensorFlow's ``DirectedInterleaveDataset``: each selector element (an int64 index)
    says which dataset gives the next element. A finished dataset ends the whole dataset
    when ``stop_on_empty_dataset``, else its selections are skipped until every dataset has
    finished."""

    def __init__(self, selector: Dataset, datasets: list, stop_on_empty_dataset: bool):
        spec = datasets[0].element_spec
        for i, d in enumerate(datasets[1:], 1):
            if not _compatible(spec, d.element_spec):
                raise TypeError("Invalid `datasets`. `datasets` must have compatible element "
                                "specs.\n Dataset 0 element_spec=%s.\nDataset %d element_spec="
                                "%s." % (spec, i, d.element_spec))
        self._stop = bool(stop_on_empty_dataset)
        super().__init__(spec, (selector, *datasets))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        selector, *datasets = self._inputs
        iterators: list = [d._iterate(ctx) for d in datasets]
        active = len(iterators)
        for (index,) in selector._iterate(ctx):
            i = int(index)
            if not 0 <= i < len(iterators):
                raise errors.InvalidArgumentError(
                    None, None, "Selector index out of range: %d >= %d" % (i, len(iterators)))
            if iterators[i] is None:
                continue
            try:
                yield next(iterators[i])
            except StopIteration:
                if self._stop:
                    return
                iterators[i] = None
                active -= 1
                if not active:
                    return

    def _cardinality(self) -> int:
        return UNKNOWN


def _compatible(a: Any, b: Any) -> bool:
    from flowgrad import nest
    try:
        fa, fb = nest.flatten(a), nest.flatten(b)
    except TypeError:
        return False
    return len(fa) == len(fb) and all(
        getattr(x, "dtype", None) == getattr(y, "dtype", None) for x, y in zip(fa, fb))


def random(seed: int | None = None, rerandomize_each_iteration: Any = None,
           name: str | None = None) -> Dataset:
    """An endless dataset of pseudorandom int64 scalars (uint32 values), TensorFlow's
    ``Dataset.random``.

    Args:
        seed: The op seed (with the global seed, as ``tf.random.set_seed`` sets it).
        rerandomize_each_iteration: Whether each iteration gives a new sequence.
        name: Accepted for TensorFlow's signature.

    Returns:
        A ``tf.data.Dataset``.
    """
    return _RandomDataset(seed, rerandomize_each_iteration)


def counter(start: Any = 0, step: Any = 1, dtype: DTypeLike = dtypes.int64,
            name: str | None = None) -> Dataset:
    """An endless dataset counting ``start``, ``start + step``, ... (``tf.data.experimental.
    Counter``, ``Dataset.counter``).

    Args:
        start: The first value.
        step: The increment.
        dtype: The values' dtype.
        name: Accepted for TensorFlow's signature.

    Returns:
        A ``tf.data.Dataset``.
    """
    return _CounterDataset(start, step, dtype)


def choose_from_datasets(datasets: Any, choice_dataset: Any,
                         stop_on_empty_dataset: bool = True) -> Dataset:
    """The element of ``datasets[i]`` for each ``i`` of ``choice_dataset``.

    Args:
        datasets: Datasets of compatible element specs.
        choice_dataset: A dataset of int64 scalars in ``[0, len(datasets))``.
        stop_on_empty_dataset: Whether a finished dataset ends the result (else its choices
            are skipped).

    Returns:
        A ``tf.data.Dataset``.

    Raises:
        ValueError: ``datasets`` is empty.
        TypeError: ``choice_dataset`` is not a dataset of int64 scalars.
    """
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, Dataset):
        raise TypeError("Invalid `choice_dataset`. `choice_dataset` should be a "
                        "`tf.data.Dataset` but is %s." % type(choice_dataset))
    spec = choice_dataset.element_spec
    if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.int64
            and spec.shape.is_compatible_with([])):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                        "`tf.int64` tensors but are %s." % (spec,))
    return _DirectedInterleaveDataset(choice_dataset, datasets, stop_on_empty_dataset)


def sample_from_datasets(datasets: Any, weights: Any = None, seed: int | None = None,
                         stop_on_empty_dataset: bool = False,
                         rerandomize_each_iteration: Any = None) -> Dataset:
    """Elements of ``datasets`` drawn at random with probabilities ``weights``.

    Args:
        datasets: Datasets of compatible element specs.
        weights: One weight per dataset (a list, a float tensor, or a dataset of such lists);
            None: equal weights.
        seed: The op seed of the draws.
        stop_on_empty_dataset: Whether a finished dataset ends the result (else it is no
            longer drawn).
        rerandomize_each_iteration: Whether each iteration draws a new sequence.

    Returns:
        A ``tf.data.Dataset``.

    Raises:
        ValueError: ``datasets`` is empty, or ``weights`` does not have one per dataset.
        TypeError: ``weights`` are not float32 or float64.
    """
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    seeds = random(seed, rerandomize_each_iteration).batch(2)
    if isinstance(weights, Dataset):
        logits_ds = weights.map(lambda *p: log(convert_to_tensor(p)))  # packs [(p, 1 - p)]
        selector = Dataset.zip((logits_ds, seeds)).map(
            lambda logits, s: squeeze(stateless_categorical(logits, 1, s), [0, 1]))
        return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)
    if weights is None:
        logits = convert_to_tensor([[1.0] * len(datasets)])
    else:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError("Invalid `weights`. The shape of `weights` should be "
                                 "compatible with `[len(datasets)]` but is %s." % weights.shape)
        else:
            weights = list(weights)
            if len(weights) != len(datasets):
                raise ValueError("Invalid `weights`. `weights` should have the same length as "
                                 "`datasets` but got `len(weights)=%d` vs. `len(datasets)=%d`."
                                 % (len(weights), len(datasets)))
            kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
            datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept else (
                [datasets[0].take(0)], [1.0])
        weights = convert_to_tensor(weights)
        if weights.dtype.base_dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` or "
                            "`tf.float64` but is %s." % weights.dtype.base_dtype.name)
        logits = expand_dims(log(weights), 0)
    if len(datasets) == 1:
        return datasets[0]
    selector = seeds.map(lambda s: squeeze(stateless_categorical(logits, 1, s), [0, 1]))
    return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)


class _AssertCardinalityDataset(Dataset):
    def __init__(self, input_ds: Dataset, expected: int):
        self._expected = int(np.asarray(getattr(expected, "numpy", lambda: expected)()))
        super().__init__(input_ds.element_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        n = 0
        expected = self._expected
        for flat in self._inputs[0]._iterate(ctx):
            n += 1
            if expected >= 0 and n > expected:
                raise errors.FailedPreconditionError(
                    None, None, "Input dataset was expected to contain %d element%s but "
                    "contained at least %d element%s." % (_plural(expected) + _plural(n)))
            yield flat
        if n != expected:
            raise errors.FailedPreconditionError(
                None, None, "Input dataset was expected to contain %d element%s but contained "
                "only %d element%s." % (_plural(expected) + _plural(n)))

    def _cardinality(self) -> int:
        return self._expected


def _plural(n: int) -> tuple:
    return (n, "" if n == 1 else "s")


def assert_cardinality(expected_cardinality: Any) -> Any:
    """A transformation for ``Dataset.apply``: the dataset, reporting ``expected_cardinality``
    as its cardinality and failing (FailedPreconditionError) when iterating finds more or
    fewer elements.

    Args:
        expected_cardinality: The number of elements (-1: infinite).

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: _AssertCardinalityDataset(dataset, expected_cardinality)


# Dataset's static methods (defined here, above dataset_ops, which must not import this).
Dataset.random = staticmethod(random)
Dataset.counter = staticmethod(counter)
Dataset.choose_from_datasets = staticmethod(choose_from_datasets)
Dataset.sample_from_datasets = staticmethod(sample_from_datasets)

__all__ = ["random", "counter", "choose_from_datasets", "sample_from_datasets",
           "assert_cardinality"]
