"""``tf.compat.v1.estimator.inputs``: ``input_fn``\\ s over NumPy arrays and pandas frames.

TensorFlow fed these through queues; flowgrad yields the same batches from a
``tf.data.Dataset.from_generator`` (the arrays stay in Python, out of the graph): rows in
order (or a fresh permutation each epoch when ``shuffle``), epochs one after the other,
``batch_size`` rows a batch and a smaller last one when ``num_epochs`` is set."""
from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad.data.dataset_ops import Dataset
from flowgrad.data.iterator_ops import make_one_shot_iterator
from flowgrad.framework import dtypes
from flowgrad.framework.graph import get_default_graph
from flowgrad.runtime.function import TensorSpec

_TARGET_KEY = "__target_key__"


def _check_shuffle(shuffle: Any) -> None:
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is "
                         f"recommended to set it as True for training); got {shuffle}")


def _rows(length: int, num_epochs: int | None, shuffle: bool, batch_size: int,
          seed: int | None) -> Iterator:
    """The row indices of each batch."""
    rng = np.random.default_rng(seed)
    pending: list = []
    epoch = 0
    while num_epochs is None or epoch < num_epochs:
        order = rng.permutation(length) if shuffle else np.arange(length)
        pending.extend(order.tolist())
        epoch += 1
        while len(pending) >= batch_size:
            yield np.asarray(pending[:batch_size])
            del pending[:batch_size]
    if pending:
        yield np.asarray(pending)


def _spec_of(array: np.ndarray) -> TensorSpec:
    if array.dtype.kind in "USO":
        dtype = dtypes.string
    else:
        dtype = dtypes.as_dtype(array.dtype)
    return TensorSpec([None] + list(array.shape[1:]), dtype)


def _batches(columns: collections.OrderedDict, batch_size: int, num_epochs: int | None,
             shuffle: bool) -> Any:
    """The ``(tensors...)`` of the next batch of ``columns``' rows (a one-shot iterator's)."""
    keys = list(columns)
    arrays = [np.asarray(columns[k]) for k in keys]
    arrays = [a.astype(object) if a.dtype.kind == "U" else a for a in arrays]
    length = arrays[0].shape[0]
    seed = get_default_graph().seed      # the graph-level seed makes the shuffles repeatable

    def generate() -> Iterator:
        for rows in _rows(length, num_epochs, shuffle, batch_size, seed):
            yield tuple(a[rows] for a in arrays)

    dataset = Dataset.from_generator(generate, output_signature=tuple(
        _spec_of(a) for a in arrays))
    return dict(zip(keys, make_one_shot_iterator(dataset).get_next()))


def _check_batching(batch_size: int, num_epochs: int | None) -> None:
    if not isinstance(batch_size, (int, np.integer)) or batch_size <= 0:
        raise ValueError(f"batch_size must be a positive integer; got {batch_size}")
    if num_epochs is not None and num_epochs <= 0:
        raise ValueError(f"num_epochs must be None or positive; got {num_epochs}")


def numpy_input_fn(x: Any, y: Any = None, batch_size: int = 128, num_epochs: int | None = 1,
                   shuffle: bool | None = None, queue_capacity: int = 1000,
                   num_threads: int = 1) -> Callable:
    """An ``input_fn`` giving batches of NumPy arrays: ``features`` (a dict with ``x``'s
    keys, or one tensor when ``x`` is an array) and ``y``'s targets.

    Args:
      x: A NumPy array or a dict of arrays (the features).
      y: A NumPy array or a dict of arrays (the targets), or None.
      batch_size: Rows per batch.
      num_epochs: Passes over the data (None: forever).
      shuffle: Whether to shuffle the rows (must be given).
      queue_capacity: Accepted for TensorFlow's signature.
      num_threads: Accepted for TensorFlow's signature.

    Returns:
      The ``input_fn``: returns ``features`` or ``(features, targets)`` tensors.

    Raises:
      ValueError: ``shuffle`` not a bool; at call time an empty ``x`` or ``y``, keys in both,
        arrays of different lengths.
      TypeError: at call time, an ``x`` that is neither an array nor a dict.
    """
    _check_shuffle(shuffle)
    _check_batching(batch_size, num_epochs)

    def input_fn() -> Any:
        if isinstance(x, dict):
            if not x:
                raise ValueError("x cannot be an empty dict")
            data = collections.OrderedDict(sorted(x.items(), key=lambda t: t[0]))
        elif isinstance(x, np.ndarray):
            if x.size == 0:
                raise ValueError("x cannot be an empty array")
            data = collections.OrderedDict({"__direct_np_input__": x})
        else:
            raise TypeError(f"x must be a dict or array; got {type(x).__name__}")
        feature_keys = list(data)
        if y is None:
            target_keys = None
        elif isinstance(y, dict):
            if not y:
                raise ValueError("y cannot be empty dict, use None instead.")
            ordered_y = collections.OrderedDict(sorted(y.items(), key=lambda t: t[0]))
            target_keys = list(ordered_y)
            duplicate = set(feature_keys) & set(target_keys)
            if duplicate:
                raise ValueError(f"{len(duplicate)} duplicate keys are found in both x and y: "
                                 f"{duplicate}")
            data.update(ordered_y)
        else:
            target_keys = _TARGET_KEY
            while target_keys in data:
                target_keys += "_n"
            data[target_keys] = y
        data = collections.OrderedDict((k, np.asarray(v)) for k, v in data.items())
        if len({v.shape[0] for v in data.values()}) != 1:
            shape_of_y = (None if target_keys is None else
                          np.shape(y) if isinstance(target_keys, str) else
                          {k: data[k].shape for k in target_keys})
            raise ValueError("Length of tensors in x and y is mismatched. All elements in x "
                             "and y must have the same length.\nShapes in x: "
                             f"{({k: data[k].shape for k in feature_keys})}\nShapes in "
                             f"y: {shape_of_y}\n")
        batch = _batches(data, batch_size, num_epochs, shuffle)
        if isinstance(x, np.ndarray):
            features = batch["__direct_np_input__"]
        else:
            features = {k: batch[k] for k in feature_keys}
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, batch[target_keys]
        return features, {k: batch[k] for k in target_keys}

    return input_fn


def pandas_input_fn(x: Any, y: Any = None, batch_size: int = 128, num_epochs: int | None = 1,
                    shuffle: bool | None = None, queue_capacity: int = 1000,
                    num_threads: int = 1, target_column: str = "target") -> Callable:
    """An ``input_fn`` giving batches of a pandas DataFrame's columns (a dict of tensors)
    and the targets of ``y`` (a Series, or a DataFrame: a dict).

    Args:
      x: A pandas DataFrame (the features).
      y: A pandas Series or DataFrame (the targets), or None.
      batch_size: Rows per batch.
      num_epochs: Passes over the data (None: forever).
      shuffle: Whether to shuffle the rows (must be given).
      queue_capacity: Accepted for TensorFlow's signature.
      num_threads: Accepted for TensorFlow's signature.
      target_column: The key the Series target is packed under (must not be a column of
        ``x``).

    Returns:
      The ``input_fn``.

    Raises:
      ValueError: ``shuffle`` not a bool, ``target_column`` already a column of ``x``,
        ``x`` and ``y`` indexed differently.
      TypeError: ``x`` is not a DataFrame.
    """
    _check_shuffle(shuffle)
    _check_batching(batch_size, num_epochs)
    if not (hasattr(x, "columns") and hasattr(x, "index")):
        raise TypeError(f"x must be a pandas DataFrame; got {type(x).__name__}")
    if y is not None:
        if hasattr(y, "columns"):
            clash = set(x.columns) & set(y.columns)
            if clash:
                raise ValueError(f"y and x have shared columns: {sorted(clash)}")
        elif target_column in x:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame "
                             "already has a "
                             f"column with that name: {x.columns}")
        if not np.array_equal(np.asarray(x.index), np.asarray(y.index)):
            raise ValueError(f"Index for x and y are mismatched.\nIndex for x: {x.index}\n"
                             "Index for "
                             f"y: {y.index}\n")

    def input_fn() -> Any:
        data = collections.OrderedDict((str(c), x[c].values) for c in x.columns)
        if y is not None and hasattr(y, "columns"):
            data.update((str(c), y[c].values) for c in y.columns)
        elif y is not None:
            data[target_column] = np.asarray(y.values)
        batch = _batches(data, batch_size, num_epochs, shuffle)
        features = {str(c): batch[str(c)] for c in x.columns}
        if y is None:
            return features
        if hasattr(y, "columns"):
            return features, {str(c): batch[str(c)] for c in y.columns}
        return features, batch[target_column]

    return input_fn
