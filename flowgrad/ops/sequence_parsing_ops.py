"""``tf.io.parse_sequence_example``: a batch of serialized ``tf.train.SequenceExample``
protos (the ParseSequenceExampleV2 op), and RaggedFeature in
``parse_single_sequence_example``.

Each example is parsed as ``parse_single_sequence_example`` parses one (the same kernel, so
the same checks and messages); the batch then stacks the context's dense features, pads the
feature lists' dense features to the longest list (with their lengths), gives VarLenFeatures
as SparseTensors of rank 2 (context) and 3 (feature lists) and RaggedFeatures as
RaggedTensors of ragged rank 1 (context) and 2 (feature lists). Not differentiable."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import expand_dims
from flowgrad.ops import parsing_ops, sparse_manip
from flowgrad.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                                      VarLenFeature, _dense_default, _dtype,
                                      _parse_sequence, _parse_sequence_kernel, _step_values,
                                      _values)
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor


def _np_empty(dt: dtypes.DType) -> np.ndarray:
    return np.empty(0, object) if dt is dtypes.string else np.zeros(0, dt.np)


def _batched_sparse(parts: list, dt: dtypes.DType) -> tuple:
    """(indices, values, shape) of per-example SparseTensor parts with a batch index."""
    indices = [np.concatenate([np.full((len(i), 1), b, np.int64), i], 1)
               for b, (i, _, _) in enumerate(parts)]
    rank = 1 + (len(parts[0][2]) if parts else 1)
    width = np.max([s for _, _, s in parts], axis=0) if parts else np.zeros(rank - 1, np.int64)
    values = [v for _, v, _ in parts]
    return (np.concatenate(indices).reshape(-1, rank).astype(np.int64),
            np.concatenate(values).astype(object if dt is dtypes.string else dt.np)
            if values else _np_empty(dt),
            np.concatenate([[len(parts)], width]).astype(np.int64))


def _context_ragged(example: Any, key: str, dt: dtypes.DType) -> np.ndarray:
    v = _values(_Holder(example.context), key, dt)
    return _np_empty(dt) if v is None else v


class _Holder:
    """A SequenceExample's context as the ``features`` of an Example (for ``_values``)."""

    def __init__(self, features: Any):
        self.features = features


def _check_steps(serialized: np.ndarray, key: str, dt: dtypes.DType, size: int,
                 shape: list) -> None:
    """Every step of feature list ``key`` holds ``size`` values (the batched op checks each
    step; the single-example op only the total)."""
    for s in serialized:
        lists = _parse_sequence(s).feature_lists.feature_list
        for step, feature in enumerate(lists[key].feature if key in lists else []):
            n = _step_values(feature, key, dt).size
            if n != size:
                raise errors.InvalidArgumentError(
                    None, None, "Name: <unknown>, Key: %s, Index: %d.  Number of values != "
                    "expected.  values size: %d but output shape: %s" % (key, step, n, shape))


def _parse_sequence_batch_kernel(serialized: Any, *context_defaults: Any, context_sparse: tuple,
                                 context_dense: tuple, context_ragged: tuple,
                                 sequence_sparse: tuple, sequence_dense: tuple,
                                 sequence_ragged: tuple) -> Any:
    ser = np.asarray(serialized, dtype=object).reshape(-1)
    single = {"context_sparse": context_sparse, "context_dense": context_dense,
              "sequence_sparse": sequence_sparse, "sequence_dense": sequence_dense}
    for key, dt, shape, _ in sequence_dense:
        _check_steps(ser, key, dt, int(np.prod(shape, dtype=np.int64)), list(shape))
    per = []
    for s in ser:
        outs = _parse_sequence_kernel(s, *context_defaults, **single) if any(single.values()) \
            else ()
        per.append(list(outs) if isinstance(outs, tuple) else [outs])
    n_cs, n_cd = len(context_sparse), len(context_dense)
    n_ss = len(sequence_sparse)
    result: list = []
    cs = [_batched_sparse([(p[i], p[n_cs + i], p[2 * n_cs + i]) for p in per], dt)
          for i, (_, dt) in enumerate(context_sparse)]
    result += [c[0] for c in cs] + [c[1] for c in cs] + [c[2] for c in cs]
    base = 3 * n_cs
    for i, (_, dt, shape) in enumerate(context_dense):
        rows = [p[base + i] for p in per]
        result.append(np.stack(rows) if rows else np.zeros((0,) + tuple(shape), dt.np))
    base += n_cd
    ss = [_batched_sparse([(p[base + i], p[base + n_ss + i], p[base + 2 * n_ss + i])
                           for p in per], dt)
          for i, (_, dt) in enumerate(sequence_sparse)]
    result += [c[0] for c in ss] + [c[1] for c in ss] + [c[2] for c in ss]
    base += 3 * n_ss
    dense, lengths = [], []
    for i, (_, dt, shape, _) in enumerate(sequence_dense):
        rows = [p[base + i] for p in per]
        steps = max((len(r) for r in rows), default=0)
        out = np.empty((len(rows), steps) + tuple(shape),
                       object if dt is dtypes.string else dt.np)
        out[...] = b"" if dt is dtypes.string else 0
        for b, r in enumerate(rows):
            out[b, :len(r)] = r
        dense.append(out)
        lengths.append(np.array([len(r) for r in rows], np.int64))
    result += dense + lengths
    protos = [_parse_sequence(s) for s in ser] if context_ragged or sequence_ragged else []
    c_values, c_splits = [], []
    for key, dt, split_dt in context_ragged:
        rows = [_context_ragged(e, key, dt) for e in protos]
        c_values.append(np.concatenate(rows) if rows else _np_empty(dt))
        c_splits.append(np.cumsum([0] + [len(r) for r in rows]).astype(split_dt.np))
    result += c_values + c_splits
    s_values, s_outer, s_inner = [], [], []
    for key, dt, split_dt in sequence_ragged:
        steps = [list(e.feature_lists.feature_list[key].feature)
                 if key in e.feature_lists.feature_list else [] for e in protos]
        rows = [[_step_values(f, key, dt) for f in example] for example in steps]
        flat = [r for example in rows for r in example]
        s_values.append(np.concatenate(flat) if flat else _np_empty(dt))
        s_outer.append(np.cumsum([0] + [len(r) for r in rows]).astype(split_dt.np))
        s_inner.append(np.cumsum([0] + [len(r) for r in flat]).astype(split_dt.np))
    result += s_values + s_outer + s_inner
    return result[0] if len(result) == 1 else tuple(result)


def _parse_sequence_batch_rule(ins: list, attrs: dict) -> list:
    batch = ins[0].shape.as_list()[0] if ins[0].shape.rank == 1 else None
    n_cs, n_ss = len(attrs["context_sparse"]), len(attrs["sequence_sparse"])
    out = [(dtypes.int64, TensorShape([None, 2]))] * n_cs
    out += [(dt, TensorShape([None])) for _, dt in attrs["context_sparse"]]
    out += [(dtypes.int64, TensorShape([2]))] * n_cs
    out += [(dt, TensorShape([batch] + list(shape))) for _, dt, shape in attrs["context_dense"]]
    out += [(dtypes.int64, TensorShape([None, 3]))] * n_ss
    out += [(dt, TensorShape([None])) for _, dt in attrs["sequence_sparse"]]
    out += [(dtypes.int64, TensorShape([3]))] * n_ss
    out += [(dt, TensorShape([batch, None] + list(shape)))
            for _, dt, shape, _ in attrs["sequence_dense"]]
    out += [(dtypes.int64, TensorShape([batch]))] * len(attrs["sequence_dense"])
    splits = None if batch is None else batch + 1
    out += [(dt, TensorShape([None])) for _, dt, _ in attrs["context_ragged"]]
    out += [(st, TensorShape([splits])) for _, _, st in attrs["context_ragged"]]
    out += [(dt, TensorShape([None])) for _, dt, _ in attrs["sequence_ragged"]]
    out += [(st, TensorShape([splits])) for _, _, st in attrs["sequence_ragged"]]
    out += [(st, TensorShape([None])) for _, _, st in attrs["sequence_ragged"]]
    return out


def _n_outputs(a: dict) -> int:
    return (3 * len(a["context_sparse"]) + len(a["context_dense"]) +
            3 * len(a["sequence_sparse"]) + 2 * len(a["sequence_dense"]) +
            2 * len(a["context_ragged"]) + 3 * len(a["sequence_ragged"]))


register_op("ParseSequenceExampleV2", _parse_sequence_batch_kernel, _parse_sequence_batch_rule,
            num_outputs=_n_outputs, input_names=("serialized",))
NotDifferentiable("ParseSequenceExampleV2")


def _split_features(context_features: dict, sequence_features: dict) -> tuple:
    """The op's attrs and the context dense defaults of the two feature dicts.

    Raises:
        ValueError: no features, a default for a FixedLenSequenceFeature, or a feature of a
            kind the part does not take (naming the key).
    """
    if not context_features and not sequence_features:
        raise ValueError("Must specify at least one of context_features or sequence_features.")
    attrs: dict = {k: [] for k in ("context_sparse", "context_dense", "context_ragged",
                                   "sequence_sparse", "sequence_dense", "sequence_ragged")}
    defaults = []
    for key in sorted(context_features):
        f = context_features[key]
        if isinstance(f, VarLenFeature):
            attrs["context_sparse"].append((key, _dtype(f, key)))
        elif isinstance(f, RaggedFeature):
            attrs["context_ragged"].append((f.value_key or key, _dtype(f, key),
                                            dtypes.as_dtype(f.row_splits_dtype)))
        elif isinstance(f, FixedLenFeature):
            dt = _dtype(f, key)
            attrs["context_dense"].append(
                (key, dt, tuple(int(d) for d in TensorShape(f.shape).as_list())))
            defaults.append(convert_to_tensor(_dense_default(f, dt, key), dt))
        else:
            raise ValueError("Unsupported context feature %s for key %s" % (f, key))
    for key in sorted(sequence_features):
        f = sequence_features[key]
        if isinstance(f, VarLenFeature):
            attrs["sequence_sparse"].append((key, _dtype(f, key)))
        elif isinstance(f, RaggedFeature):
            attrs["sequence_ragged"].append((f.value_key or key, _dtype(f, key),
                                             dtypes.as_dtype(f.row_splits_dtype)))
        elif isinstance(f, FixedLenSequenceFeature):
            if f.default_value is not None:
                raise ValueError("Value feature_list.dense_defaults[%s] must be None" % key)
            attrs["sequence_dense"].append(
                (key, _dtype(f, key), tuple(int(d) for d in TensorShape(f.shape).as_list()),
                 bool(f.allow_missing)))
        else:
            raise ValueError("Unsupported sequence feature %s for key %s" % (f, key))
    return {k: tuple(v) for k, v in attrs.items()}, defaults


def _ordered_keys(features: dict, kinds: tuple) -> list:
    return [k for k in sorted(features) if isinstance(features[k], kinds)]


def parse_sequence_example(serialized: TensorLike, context_features: dict | None = None,
                           sequence_features: dict | None = None, example_names: Any = None,
                           name: str | None = None) -> tuple:
    """Parses a vector of serialized ``tf.train.SequenceExample`` protos.

    Args:
        serialized: A string vector of serialized SequenceExamples.
        context_features: A dict mapping context keys to FixedLenFeature (dense,
            ``[batch] + shape``), VarLenFeature (a SparseTensor ``[batch, longest]``) or
            RaggedFeature (a RaggedTensor ``[batch, None]``).
        sequence_features: A dict mapping feature-list keys to FixedLenSequenceFeature (dense,
            ``[batch, longest list] + shape``, padded with zeros or empty strings),
            VarLenFeature (a SparseTensor ``[batch, longest list, longest step]``) or
            RaggedFeature (a RaggedTensor ``[batch, None, None]``).
        example_names: Accepted for TensorFlow's signature (names in error messages).
        name: A name for the operation (optional).

    Returns:
        ``(context, feature_lists, feature_list_lengths)``: dicts of the parsed context
        features, the parsed feature lists, and for each FixedLenSequenceFeature the int64
        number of steps of each example.

    Raises:
        ValueError: no features, a FixedLenSequenceFeature with a default value, a feature of
            another kind, or ``serialized`` not a vector.
        InvalidArgumentError: (when run) a required feature or feature list is missing, has
            another type or another number of values.
    """
    context_features = context_features or {}
    sequence_features = sequence_features or {}
    attrs, defaults = _split_features(context_features, sequence_features)
    ser = convert_to_tensor(serialized, dtypes.string)
    if ser.shape.rank not in (1, None):
        raise ValueError("Input serialized must be a vector, got shape %s" % ser.shape)
    outs = apply_op("ParseSequenceExampleV2", [ser] + defaults, attrs,
                    name=name or "ParseSequenceExampleV2")
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    pos = 0

    def take(n: int) -> list:
        nonlocal pos
        pos += n
        return outs[pos - n:pos]

    context, sequence, lengths = {}, {}, {}
    keys = _ordered_keys(context_features, VarLenFeature)
    for key, i, v, s in zip(keys, take(len(keys)), take(len(keys)), take(len(keys))):
        context[key] = SparseTensor(i, v, s)
    for key, t in zip(_ordered_keys(context_features, FixedLenFeature),
                      take(len(attrs["context_dense"]))):
        context[key] = t
    keys = _ordered_keys(sequence_features, VarLenFeature)
    for key, i, v, s in zip(keys, take(len(keys)), take(len(keys)), take(len(keys))):
        sequence[key] = SparseTensor(i, v, s)
    keys = _ordered_keys(sequence_features, FixedLenSequenceFeature)
    for key, t in zip(keys, take(len(keys))):
        sequence[key] = t
    for key, t in zip(keys, take(len(keys))):
        lengths[key] = t
    keys = _ordered_keys(context_features, RaggedFeature)
    for key, v, s in zip(keys, take(len(keys)), take(len(keys))):
        context[key] = RaggedTensor.from_row_splits(v, s, validate=False)
    keys = _ordered_keys(sequence_features, RaggedFeature)
    for key, v, outer, inner in zip(keys, take(len(keys)), take(len(keys)), take(len(keys))):
        sequence[key] = RaggedTensor.from_nested_row_splits(v, [outer, inner], validate=False)
    return context, sequence, lengths


def parse_single_sequence_example(serialized: TensorLike, context_features: dict | None = None,
                                  sequence_features: dict | None = None,
                                  example_name: Any = None, name: str | None = None) -> tuple:
    """Parses one serialized ``tf.train.SequenceExample``.

    With a RaggedFeature among the features this is the batched parse of the one example,
    its batch dimension removed (a context RaggedFeature gives its values, a feature-list one
    a RaggedTensor ``[steps, None]``), as TensorFlow 2 parses it.

    Args:
        serialized: A string scalar: one serialized SequenceExample.
        context_features: FixedLenFeature / VarLenFeature / RaggedFeature per context key.
        sequence_features: FixedLenSequenceFeature ([steps] + shape) / VarLenFeature
            (a SparseTensor [steps, longest]) / RaggedFeature per feature-list key.
        example_name: Accepted for TensorFlow's signature (a name in error messages).
        name: A name for the operation (optional).

    Returns:
        ``(context, feature_lists)``: dicts of the parsed features.

    Raises:
        ValueError: no features, or a feature of a kind the part does not take.
        InvalidArgumentError: (when run) missing or miscounted features.
    """
    context_features = context_features or {}
    sequence_features = sequence_features or {}
    if not any(isinstance(f, RaggedFeature)
               for f in [*context_features.values(), *sequence_features.values()]):
        return parsing_ops.parse_single_sequence_example(serialized, context_features,
                                                         sequence_features, example_name, name)
    ser = expand_dims(convert_to_tensor(serialized, dtypes.string), 0)
    context, sequence, _ = parse_sequence_example(ser, context_features, sequence_features,
                                                  name=name)
    return ({k: _first(v) for k, v in context.items()},
            {k: _first(v) for k, v in sequence.items()})


def _first(x: Any) -> Any:
    """Example 0 of a batch of one, as ``parse_single_sequence_example`` gives it."""
    if isinstance(x, RaggedTensor):
        return x[0]
    if isinstance(x, SparseTensor):
        return sparse_manip.reshape(x, x.dense_shape[1:])
    return x[0]


__all__ = ["parse_sequence_example", "parse_single_sequence_example"]
