"""Parsing serialized ``tf.train.Example`` protos: ``tf.io.parse_example`` and
``parse_single_example`` (the ParseExampleV2 op) with ``FixedLenFeature`` (dense, with
defaults), ``VarLenFeature`` (a SparseTensor), ``FixedLenSequenceFeature`` (padded, with
``allow_missing``) and ``RaggedFeature`` (rows without partitions); and
``parse_single_sequence_example``. TensorFlow's error messages; not differentiable."""
from __future__ import annotations

import collections
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor, to_numpy
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.ops import example_protos
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of a fixed number of values: a dense tensor of ``shape``.

    Args:
        shape: The shape of the feature's values in one Example.
        dtype: float32, int64 or string.
        default_value: The value of an Example that lacks the feature; None makes it required.
    """

    def __new__(cls, shape: Any, dtype: Any, default_value: Any = None) -> FixedLenFeature:
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature holding any number of ``shape`` values: padded to the longest.

    Args:
        shape: The shape of each of the feature's values.
        dtype: float32, int64 or string.
        allow_missing: Whether an Example may lack the feature (must be True in ``parse_example``).
        default_value: The value the rows are padded with.
    """

    def __new__(cls, shape: Any, dtype: Any, allow_missing: bool = False,
                default_value: Any = None) -> FixedLenSequenceFeature:
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values: a SparseTensor.

    Args:
        dtype: float32, int64 or string.
    """


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature of any number of values: a RaggedTensor (no partitions supported).

    Args:
        dtype: float32, int64 or string.
        value_key: The feature's key in the Example; the dict key if None.
        partitions: Accepted for TensorFlow's signature; only ``()`` is supported.
        row_splits_dtype: int32 or int64: the dtype of the row splits.
        validate: Accepted for TensorFlow's signature.
    """

    def __new__(cls, dtype: Any, value_key: str | None = None, partitions: tuple = (),
                row_splits_dtype: Any = dtypes.int32, validate: bool = False) -> RaggedFeature:
        if partitions:
            raise NotImplementedError("RaggedFeature partitions are not supported yet")
        return super().__new__(cls, dtype, value_key, partitions, row_splits_dtype, validate)


_ALLOWED = (dtypes.float32, dtypes.int64, dtypes.string)
_KIND_NAMES = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}
_LIST_OF = {dtypes.float32: "float_list", dtypes.int64: "int64_list",
            dtypes.string: "bytes_list"}


def _parse(serialized: bytes) -> Any:
    try:
        return example_protos.pb().Example.FromString(serialized)
    except Exception:   # noqa: BLE001 - protobuf's DecodeError
        raise errors.InvalidArgumentError(None, None, "Could not parse example input, value: "
                                          "'%s'" % serialized.decode("utf-8", "replace")) \
            from None


def _where(key: str, index: int, batched: bool) -> str:
    """How TensorFlow's messages name a feature: of one Example, or of one in a batch."""
    return "Name: <unknown>, Key: %s, Index: %d." % (key, index) if batched else \
        "Key: %s." % key


def _values(example: Any, key: str, dt: dtypes.DType, where: str = "") -> np.ndarray | None:
    """The values of feature ``key`` (None when absent), checked against ``dt``."""
    feats = example.features.feature
    if key not in feats:
        return None
    f = feats[key]
    kind = f.WhichOneof("kind")
    if kind is None:
        return np.zeros(0, dt.np) if dt is not dtypes.string else np.empty(0, object)
    if kind != _LIST_OF[dt]:
        raise errors.InvalidArgumentError(
            None, None, "%s  Data types don't match. Data type: %s but expected type: %s"
            % (where or "Key: %s." % key, _KIND_NAMES[kind],
               "float" if dt is dtypes.float32 else dt.name))
    vals = list(getattr(f, kind).value)
    if dt is dtypes.string:
        out = np.empty(len(vals), dtype=object)
        out[:] = vals
        return out
    return np.array(vals, dtype=dt.np)


def _parse_example_kernel(serialized: Any, names: Any, sparse_keys: Any, dense_keys: Any,
                          ragged_keys: Any, *dense_defaults: Any, Tdense: tuple,
                          num_sparse: int, sparse_types: tuple, ragged_value_types: tuple,
                          ragged_split_types: tuple, dense_shapes: tuple,
                          dense_sequence: tuple) -> tuple:
    ser = np.asarray(serialized, dtype=object)
    batch_shape = ser.shape
    examples = [_parse(b) for b in ser.reshape(-1)]
    keys = [[k.decode() for k in np.asarray(x, dtype=object).reshape(-1)]
            for x in (sparse_keys, dense_keys, ragged_keys)]
    out_idx, out_vals, out_shapes, out_dense, out_rv, out_rs = [], [], [], [], [], []
    for key, dt in zip(keys[0], sparse_types):
        rows = [_values(e, key, dt) for e in examples]
        rows = [r if r is not None else np.zeros(0, dt.np) for r in rows]
        idx = [(i, j) for i, r in enumerate(rows) for j in range(len(r))]
        width = max((len(r) for r in rows), default=0)
        if batch_shape:
            out_idx.append(np.array(idx, np.int64).reshape(-1, 2))
            out_shapes.append(np.array([len(rows), width], np.int64))
        else:
            out_idx.append(np.array([[j] for _, j in idx], np.int64).reshape(-1, 1))
            out_shapes.append(np.array([width], np.int64))
        out_vals.append(np.concatenate(rows) if rows else np.zeros(0, dt.np))
    for key, dt, shape, default, seq in zip(keys[1], Tdense, dense_shapes, dense_defaults,
                                            dense_sequence):
        inner = tuple(shape)
        size = int(np.prod(inner, dtype=np.int64))
        default = np.asarray(default, dtype=object if dt is dtypes.string else dt.np)
        rows = []
        for index, e in enumerate(examples):
            where = _where(key, index, bool(batch_shape))
            v = _values(e, key, dt, where)
            if seq:
                v = np.zeros(0, dt.np) if v is None else v
                if size and len(v) % size:
                    raise errors.InvalidArgumentError(
                        None, None, "%s  Number of %s values is not a multiple of stride "
                        "length. Saw %d values but output shape is: %s"
                        % (where, _KIND_NAMES[_LIST_OF[dt]], len(v), list(inner)))
                rows.append(v.reshape((-1,) + inner))
                continue
            if v is None:
                if default.size == 0:
                    raise errors.InvalidArgumentError(
                        None, None, "Feature: %s (data type: %s) is required but could not be "
                        "found." % (key, dt.name))
                rows.append(default.reshape(inner))
            elif v.size != size:
                raise errors.InvalidArgumentError(
                    None, None, "%s  Can't parse serialized Example%s" % (where, (
                        ": Some %s slice was not parsed." % _LIST_OF[dt]) if not batch_shape
                        else "."))
            else:
                rows.append(v.reshape(inner))
        if seq:
            n = max((len(r) for r in rows), default=0)
            pad = default if default.size else np.asarray(
                b"" if dt is dtypes.string else 0, dtype=default.dtype)
            out = np.empty((len(rows), n) + inner, dtype=default.dtype)
            out[...] = pad
            for i, r in enumerate(rows):
                out[i, :len(r)] = r
        else:
            out = np.stack(rows) if rows else np.zeros((0,) + inner, default.dtype)
        out_dense.append(out.reshape(batch_shape + out.shape[1:]))
    for key, dt, st in zip(keys[2], ragged_value_types, ragged_split_types):
        rows = [_values(e, key, dt) for e in examples]
        rows = [r if r is not None else np.zeros(0, dt.np) for r in rows]
        out_rv.append(np.concatenate(rows) if rows else np.zeros(0, dt.np))
        out_rs.append(np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(st.np))
    outs = out_idx + out_vals + out_shapes + out_dense + out_rv + out_rs
    return outs[0] if len(outs) == 1 else tuple(outs)


def _n_outputs(attrs: dict) -> int:
    return 3 * attrs["num_sparse"] + len(attrs["Tdense"]) + 2 * len(attrs["ragged_value_types"])


def _parse_example_rule(ins: list, attrs: dict) -> list:
    batch = ins[0].shape.as_tuple()
    brank = None if batch is None else len(batch)
    out = [(dtypes.int64, TensorShape([None, None if brank is None else brank + 1]))
           for _ in range(attrs["num_sparse"])]
    out += [(dt, TensorShape([None])) for dt in attrs["sparse_types"]]
    out += [(dtypes.int64, TensorShape([None if brank is None else brank + 1]))
            for _ in range(attrs["num_sparse"])]
    for dt, shape, seq in zip(attrs["Tdense"], attrs["dense_shapes"], attrs["dense_sequence"]):
        out.append((dt, unknown_shape() if batch is None else
                    TensorShape(list(batch) + ([None] if seq else []) + list(shape))))
    out += [(dt, TensorShape([None])) for dt in attrs["ragged_value_types"]]
    out += [(dt, TensorShape([None])) for dt in attrs["ragged_split_types"]]
    return out


register_op("ParseExampleV2", _parse_example_kernel, _parse_example_rule,
            num_outputs=_n_outputs,
            input_names=("serialized", "names", "sparse_keys", "dense_keys", "ragged_keys"))
NotDifferentiable("ParseExampleV2")


def _dtype(feature: Any, key: str) -> dtypes.DType:
    dt = dtypes.as_dtype(feature.dtype)
    if dt not in _ALLOWED:
        raise errors.InvalidArgumentError(None, None, "Value for attr 'Tdense' of %s is not in "
                                          "the list of allowed values: float, int64, string"
                                          % dt.name)
    return dt


def _dense_default(feature: Any, dt: dtypes.DType, key: str) -> Any:
    shape = [int(d) for d in TensorShape(feature.shape).as_list()]
    if feature.default_value is None:
        return np.zeros(0, dtype=object if dt is dtypes.string else dt.np)
    value = to_numpy(feature.default_value, dt)
    if value.size != int(np.prod(shape, dtype=np.int64)) and \
            not isinstance(feature, FixedLenSequenceFeature):
        raise errors.InvalidArgumentError(None, None, "Input to reshape is a tensor with %d "
                                          "values, but the requested shape has %d"
                                          % (value.size, int(np.prod(shape, dtype=np.int64))))
    return value


def parse_example(serialized: TensorLike, features: dict, example_names: Any = None,
                  name: str | None = None) -> dict:
    """Parses a vector (or scalar) of serialized Examples into a dict of tensors:
    FixedLenFeature -> dense [batch] + shape; FixedLenSequenceFeature -> dense, padded;
    VarLenFeature -> SparseTensor; RaggedFeature -> RaggedTensor.

    Args:
        serialized: A string vector (or scalar) of serialized ``tf.train.Example`` protos.
        features: A dict mapping feature keys to ``FixedLenFeature``, ``FixedLenSequenceFeature``,
            ``VarLenFeature`` or ``RaggedFeature``.
        example_names: Names of the Examples for the error messages (optional).
        name: A name for the operation (optional).

    Raises:
        ValueError: no features, or a FixedLenSequenceFeature without allow_missing.
        InvalidArgumentError: (when run) a required feature is missing, has another type or
            another number of values.
    """
    if not features:
        raise ValueError("Must provide at least one feature key.")
    sparse, dense, ragged = [], [], []
    for key in sorted(features):
        f = features[key]
        if isinstance(f, VarLenFeature):
            sparse.append((key, _dtype(f, key)))
        elif isinstance(f, RaggedFeature):
            ragged.append((key, _dtype(f, key), f))
        elif isinstance(f, (FixedLenFeature, FixedLenSequenceFeature)):
            if isinstance(f, FixedLenSequenceFeature) and not f.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing "
                                 "to be True.")
            dense.append((key, _dtype(f, key), f))
        else:
            raise ValueError("Unsupported %s %s." % (type(f).__name__, f))
    ser = convert_to_tensor(serialized, dtypes.string)
    keys = [convert_to_tensor(np.array([k.encode() for k in ks], dtype=object).reshape(-1),
                              dtypes.string)
            for ks in ([k for k, _ in sparse], [k for k, _, _ in dense],
                       [(f.value_key or k) for k, _, f in ragged])]
    defaults = [convert_to_tensor(_dense_default(f, dt, k), dt) for k, dt, f in dense]
    attrs = {"Tdense": tuple(dt for _, dt, _ in dense), "num_sparse": len(sparse),
             "sparse_types": tuple(dt for _, dt in sparse),
             "ragged_value_types": tuple(dt for _, dt, _ in ragged),
             "ragged_split_types": tuple(dtypes.as_dtype(f.row_splits_dtype)
                                         for _, _, f in ragged),
             "dense_shapes": tuple(tuple(int(d) for d in TensorShape(f.shape).as_list())
                                   for _, _, f in dense),
             "dense_sequence": tuple(isinstance(f, FixedLenSequenceFeature)
                                     for _, _, f in dense)}
    names = convert_to_tensor(np.empty(0, dtype=object), dtypes.string)
    outs = apply_op("ParseExampleV2", [ser, names] + keys + defaults, attrs,
                    name=name or "ParseExampleV2")
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    n = len(sparse)
    result = {}
    for i, (key, _) in enumerate(sparse):
        result[key] = SparseTensor(outs[i], outs[n + i], outs[2 * n + i])
    for i, (key, _, _) in enumerate(dense):
        result[key] = outs[3 * n + i]
    base, r = 3 * n + len(dense), len(ragged)
    for i, (key, _, _) in enumerate(ragged):
        values, splits = outs[base + i], outs[base + r + i]
        result[key] = values if ser.shape.rank == 0 else RaggedTensor.from_row_splits(
            values, splits, validate=False)
    return result


def parse_single_example(serialized: TensorLike, features: dict, example_names: Any = None,
                         name: str | None = None) -> dict:
    """``parse_example`` of one serialized Example (a string scalar): no batch dimension.

    Args:
        serialized: A string scalar: one serialized ``tf.train.Example``.
        features: A dict mapping feature keys to the feature configurations, as in
            ``parse_example``.
        example_names: A name of the Example for the error messages (optional).
        name: A name for the operation (optional).
    """
    ser = convert_to_tensor(serialized, dtypes.string)
    if ser.shape.rank not in (0, None):
        raise ValueError("Input serialized must be a scalar, got shape %s" % ser.shape)
    return parse_example(ser, features, name=name)


# -- SequenceExample -------------------------------------------------------------------

def _parse_sequence(serialized: bytes) -> Any:
    try:
        return example_protos.pb().SequenceExample.FromString(serialized)
    except Exception:   # noqa: BLE001 - protobuf's DecodeError
        raise errors.InvalidArgumentError(None, None, "Could not parse example input, value: "
                                          "'%s'" % serialized.decode("utf-8", "replace")) \
            from None


def _sparse_outputs(rows: list) -> tuple:
    """(indices, values, shape) of rows of values (one row per step)."""
    idx = [(i, j) for i, r in enumerate(rows) for j in range(len(r))]
    width = max((len(r) for r in rows), default=0)
    vals = np.concatenate(rows) if rows else np.zeros(0)
    return (np.array(idx, np.int64).reshape(-1, 2), vals,
            np.array([len(rows), width], np.int64))


def _parse_sequence_kernel(serialized: Any, *context_defaults: Any, context_sparse: tuple,
                           context_dense: tuple, sequence_sparse: tuple,
                           sequence_dense: tuple) -> Any:
    seq = _parse_sequence(np.asarray(serialized, dtype=object).item())
    ctx = collections.namedtuple("Context", "features")(seq.context)
    outs: list = []
    ctx_idx, ctx_vals, ctx_shapes = [], [], []
    for key, dt in context_sparse:
        v = _values(ctx, key, dt)
        v = np.zeros(0, dt.np) if v is None else v
        ctx_idx.append(np.arange(len(v), dtype=np.int64).reshape(-1, 1))
        ctx_vals.append(v)
        ctx_shapes.append(np.array([len(v)], np.int64))
    outs += ctx_idx + ctx_vals + ctx_shapes
    for (key, dt, shape), default in zip(context_dense, context_defaults):
        v = _values(ctx, key, dt)
        default = np.asarray(default, dtype=object if dt is dtypes.string else dt.np)
        if v is None:
            if default.size == 0:
                raise errors.InvalidArgumentError(
                    None, None, "Inconsistent max number of elements for feature %s: expected "
                    "%d, but found 0" % (key, int(np.prod(shape, dtype=np.int64))))
            v = default
        if v.size != int(np.prod(shape, dtype=np.int64)):
            raise errors.InvalidArgumentError(
                None, None, "Name: <unknown>, Key: %s, Index: 0.  Number of %s values != "
                "expected.  values size: %d but output shape: %s"
                % (key, _KIND_NAMES[_LIST_OF[dt]], v.size, list(shape)))
        outs.append(v.reshape(shape))
    lists = seq.feature_lists.feature_list
    sp_idx, sp_vals, sp_shapes = [], [], []
    for key, dt in sequence_sparse:
        steps = lists[key].feature if key in lists else []
        rows = [_step_values(f, key, dt) for f in steps]
        i, v, s = _sparse_outputs(rows)
        sp_idx.append(i)
        sp_vals.append(v.astype(object if dt is dtypes.string else dt.np))
        sp_shapes.append(s)
    outs += sp_idx + sp_vals + sp_shapes
    for key, dt, shape, allow_missing in sequence_dense:
        if key not in lists and not allow_missing:
            raise errors.InvalidArgumentError(
                None, None, "Name: <unknown>, Feature list '%s' is required but could not be "
                "found.  Did you mean to include it in feature_list_dense_missing_assumed_empty"
                " or feature_list_dense_defaults?" % key)
        steps = lists[key].feature if key in lists else []
        size = int(np.prod(shape, dtype=np.int64))
        flat = [_step_values(f, key, dt) for f in steps]
        flat = np.concatenate(flat) if flat else np.zeros(0, object if dt is dtypes.string
                                                            else dt.np)
        if size and flat.size % size:
            raise errors.InvalidArgumentError(
                None, None, "Feature list '%s' has an unexpected number of values.  Total "
                "values size: %d is not consistent with output shape: [%s]"
                % (key, flat.size, ",".join(["?"] + [str(d) for d in shape])))
        outs.append(flat.reshape((-1,) + tuple(shape)))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _step_values(feature: Any, key: str, dt: dtypes.DType) -> np.ndarray:
    """The values of one step (a Feature) of feature list ``key``."""
    holder = collections.namedtuple("Step", "features")(
        collections.namedtuple("Features", "feature")({key: feature}))
    v = _values(holder, key, dt, "Name: <unknown>, Key: %s." % key)
    return np.zeros(0, dt.np) if v is None else v


def _parse_sequence_rule(ins: list, attrs: dict) -> list:
    n_cs, n_ss = len(attrs["context_sparse"]), len(attrs["sequence_sparse"])
    out = [(dtypes.int64, TensorShape([None, 1]))] * n_cs
    out += [(dt, TensorShape([None])) for _, dt in attrs["context_sparse"]]
    out += [(dtypes.int64, TensorShape([1]))] * n_cs
    out += [(dt, TensorShape(list(shape))) for _, dt, shape in attrs["context_dense"]]
    out += [(dtypes.int64, TensorShape([None, 2]))] * n_ss
    out += [(dt, TensorShape([None])) for _, dt in attrs["sequence_sparse"]]
    out += [(dtypes.int64, TensorShape([2]))] * n_ss
    out += [(dt, TensorShape([None] + list(shape))) for _, dt, shape, _ in
            attrs["sequence_dense"]]
    return out


register_op("ParseSingleSequenceExample", _parse_sequence_kernel, _parse_sequence_rule,
            num_outputs=lambda a: 3 * len(a["context_sparse"]) + len(a["context_dense"]) +
            3 * len(a["sequence_sparse"]) + len(a["sequence_dense"]),
            input_names=("serialized",))
NotDifferentiable("ParseSingleSequenceExample")


def parse_single_sequence_example(serialized: TensorLike, context_features: dict | None = None,
                                  sequence_features: dict | None = None,
                                  example_name: Any = None, name: str | None = None) -> tuple:
    """Parses one serialized ``tf.train.SequenceExample``.

    Args:
        serialized: a string scalar.
        context_features: FixedLenFeature / VarLenFeature per context key.
        sequence_features: FixedLenSequenceFeature ([steps] + shape) / VarLenFeature
            (a SparseTensor [steps, longest]) per feature list key.
        example_name: accepted for TensorFlow's signature.
        name: the op's name.

    Returns:
        (context dict, feature list dict).

    Raises:
        ValueError: no features, or a feature kind that is not supported here.
        InvalidArgumentError: (when run) missing or miscounted features.
    """
    context_features = context_features or {}
    sequence_features = sequence_features or {}
    if not context_features and not sequence_features:
        raise ValueError("Missing features.")
    c_sparse, c_dense, s_sparse, s_dense, defaults = [], [], [], [], []
    for key in sorted(context_features):
        f = context_features[key]
        if isinstance(f, VarLenFeature):
            c_sparse.append((key, _dtype(f, key)))
        elif isinstance(f, FixedLenFeature):
            dt = _dtype(f, key)
            c_dense.append((key, dt, tuple(int(d) for d in TensorShape(f.shape).as_list())))
            defaults.append(convert_to_tensor(_dense_default(f, dt, key), dt))
        else:
            raise ValueError("Unsupported context feature %s for key %s" % (f, key))
    for key in sorted(sequence_features):
        f = sequence_features[key]
        if isinstance(f, VarLenFeature):
            s_sparse.append((key, _dtype(f, key)))
        elif isinstance(f, FixedLenSequenceFeature):
            s_dense.append((key, _dtype(f, key),
                            tuple(int(d) for d in TensorShape(f.shape).as_list()),
                            bool(f.allow_missing)))
        else:
            raise ValueError("Unsupported sequence feature %s for key %s" % (f, key))
    ser = convert_to_tensor(serialized, dtypes.string)
    attrs = {"context_sparse": tuple(c_sparse), "context_dense": tuple(c_dense),
             "sequence_sparse": tuple(s_sparse), "sequence_dense": tuple(s_dense)}
    outs = apply_op("ParseSingleSequenceExample", [ser] + defaults, attrs,
                    name=name or "ParseSingleSequenceExample")
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    n = len(c_sparse)
    context = {k: SparseTensor(outs[i], outs[n + i], outs[2 * n + i])
               for i, (k, _) in enumerate(c_sparse)}
    pos = 3 * n
    for key, _, _ in c_dense:
        context[key] = outs[pos]
        pos += 1
    m = len(s_sparse)
    sequence = {k: SparseTensor(outs[pos + i], outs[pos + m + i], outs[pos + 2 * m + i])
                for i, (k, _) in enumerate(s_sparse)}
    pos += 3 * m
    for key, _, _, _ in s_dense:
        sequence[key] = outs[pos]
        pos += 1
    return context, sequence
