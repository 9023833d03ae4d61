"""``tf.feature_column``'s columns (``tf.feature_column`` and
``tf.compat.v1.feature_column`` in flowgrad/api/exports.py), which turn a dict of raw
features into a dense input (``tf.compat.v1.feature_column.input_layer``) and into a parsing spec
(``make_parse_example_spec``).

Dense columns (numeric, bucketized, indicator, embedding) give ``[batch, width]`` tensors;
categorical columns (vocabulary list or file, identity, hash bucket, crossed, weighted) give
ids that an indicator or embedding column makes dense. A categorical input may be a dense
tensor (``""`` and ``-1`` entries are missing, as in TensorFlow) or a SparseTensor. The
columns are built from ops, so gradients flow to numeric inputs and embedding variables;
ids are TensorFlow's (FarmHash ``Fingerprint64`` buckets, TensorFlow's cross hashing), and
``input_layer`` orders the columns by name and names the embedding variables as TensorFlow
does (``input_layer/<column>/embedding_weights``).

``tf.keras.layers.DenseFeatures`` is not part of TensorFlow 2.21 (Keras 3 dropped it);
``input_layer`` is the way to use columns there and here."""
from __future__ import annotations

import collections
import math
import weakref
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import get_default_graph, name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import greater_equal, less, logical_and, not_equal
from flowgrad.ops.comparison_ops import where as where_v2
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import one_hot
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.init_ops import TruncatedNormal, Zeros
from flowgrad.ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable,
                                     StaticVocabularyTable, TextFileIndex, TextFileInitializer)
from flowgrad.ops.math_ops import add_n, maximum, reduce_sum, sqrt
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.parsing_ops import FixedLenFeature, VarLenFeature
from flowgrad.ops.shape_ops import expand_dims, reshape
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.sparse_tensor import to_dense as sparse_to_dense
from flowgrad.ops.string_ops import as_string, to_hash_bucket_fast
from flowgrad.ops.variable_scope import get_variable, variable_scope
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

#: The key TensorFlow's crossed_column hashes with (``FINGERPRINT_CROSS``'s default).
_CROSS_HASH_KEY = 0xDECAFCAFFE
_MASK64 = (1 << 64) - 1


class _Ids(collections.namedtuple("_Ids", ["ids", "weights", "mask"])):
    """Categorical ids as ``[batch, n]`` int64 ``ids``, float ``weights`` (or None) and a
    boolean ``mask`` of the valid entries."""


def _dense_input(value: Any, missing: Any) -> Any:
    """A categorical feature as a 2-D dense tensor (SparseTensor inputs filled with the
    ``missing`` marker; a 1-D input is one value per example)."""
    if isinstance(value, SparseTensor):
        value = sparse_to_dense(value, default_value=missing)
    value = convert_to_tensor(value)
    if value.shape.rank == 1:
        value = expand_dims(value, -1)
    elif value.shape.rank != 2:
        raise ValueError("Feature %r: a categorical feature must be rank 1 or 2, got shape %s"
                         % (value.name if hasattr(value, "name") else value, value.shape))
    return value


class FeatureColumn:
    """The base of every column: a ``name`` and the parse spec of its raw feature."""

    name: str = ""

    def __lt__(self, other: FeatureColumn) -> bool:
        return self.name < other.name

    @property
    def parse_example_spec(self) -> dict:
        raise NotImplementedError


class DenseColumn(FeatureColumn):
    """A column that gives a ``[batch, variable_shape]`` float tensor."""

    def _dense(self, features: dict, state: dict) -> Any:
        raise NotImplementedError


class CategoricalColumn(FeatureColumn):
    """A column that gives ids in ``[0, num_buckets)``."""

    num_buckets: int = 0

    def _ids(self, features: dict) -> _Ids:
        raise NotImplementedError


class NumericColumn(DenseColumn, collections.namedtuple(
        "NumericColumn", ["key", "shape", "default_value", "dtype", "normalizer_fn"])):
    """``numeric_column``: the feature itself, as float, ``[batch, prod(shape)]``."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

    @property
    def variable_shape(self) -> tuple:
        return self.shape

    def _dense(self, features: dict, state: dict) -> Any:
        value = features[self.key]
        if isinstance(value, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                             "SparseTensor is not supported. key: %s" % self.key)
        value = cast(convert_to_tensor(value), dtypes.float32)
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        return reshape(value, [-1, int(np.prod(self.shape))])


class BucketizedColumn(DenseColumn, CategoricalColumn, collections.namedtuple(
        "BucketizedColumn", ["source_column", "boundaries"])):
    """``bucketized_column``: which bucket of ``boundaries`` each value falls in, one-hot."""

    @property
    def name(self) -> str:
        return "%s_bucketized" % self.source_column.name

    @property
    def parse_example_spec(self) -> dict:
        return self.source_column.parse_example_spec

    @property
    def num_buckets(self) -> int:
        return int(np.prod(self.source_column.shape)) * (len(self.boundaries) + 1)

    def _buckets(self, features: dict) -> Any:
        values = self.source_column._dense(features, {})
        # TensorFlow's Bucketize: the number of boundaries <= the value
        above = greater_equal(expand_dims(values, -1), np.asarray(self.boundaries, np.float32))
        return reduce_sum(cast(above, dtypes.int64), axis=-1)

    def _dense(self, features: dict, state: dict) -> Any:
        hot = one_hot(self._buckets(features), len(self.boundaries) + 1, dtype=dtypes.float32)
        return reshape(hot, [-1, self.num_buckets])

    def _ids(self, features: dict) -> _Ids:
        buckets = self._buckets(features)
        width = int(np.prod(self.source_column.shape))
        offsets = np.arange(width, dtype=np.int64) * (len(self.boundaries) + 1)
        ids = buckets + offsets
        return _Ids(ids, None, greater_equal(ids, np.int64(0)))


class VocabularyListCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn",
        ["key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"])):
    """``categorical_column_with_vocabulary_list``: the index of each value in the list."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: VarLenFeature(self.dtype)}

    @property
    def num_buckets(self) -> int:
        return len(self.vocabulary_list) + self.num_oov_buckets

    def _table(self) -> Any:
        key_dtype = dtypes.string if self.dtype == dtypes.string else dtypes.int64
        init = KeyValueTensorInitializer(
            np.array(self.vocabulary_list, object if key_dtype == dtypes.string else np.int64),
            np.arange(len(self.vocabulary_list), dtype=np.int64), key_dtype, dtypes.int64)
        if self.num_oov_buckets:
            return StaticVocabularyTable(init, self.num_oov_buckets)
        return StaticHashTable(init, self.default_value)

    def _ids(self, features: dict) -> _Ids:
        return _table_ids(features[self.key], self.dtype, self._table())


class VocabularyFileCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "VocabularyFileCategoricalColumn",
        ["key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype",
         "default_value"])):
    """``categorical_column_with_vocabulary_file``: the line number of each value."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: VarLenFeature(self.dtype)}

    @property
    def num_buckets(self) -> int:
        return self.vocabulary_size + self.num_oov_buckets

    def _ids(self, features: dict) -> _Ids:
        key_dtype = dtypes.string if self.dtype == dtypes.string else dtypes.int64
        init = TextFileInitializer(self.vocabulary_file, key_dtype, TextFileIndex.WHOLE_LINE,
                                   dtypes.int64, TextFileIndex.LINE_NUMBER,
                                   vocab_size=self.vocabulary_size)
        table = StaticVocabularyTable(init, self.num_oov_buckets) if self.num_oov_buckets \
            else StaticHashTable(init, self.default_value)
        return _table_ids(features[self.key], self.dtype, table)


def _table_ids(value: Any, dtype: dtypes.DType, table: Any) -> _Ids:
    missing = "" if dtype == dtypes.string else -1
    value = _dense_input(value, missing)
    if dtype != dtypes.string:
        value = cast(value, dtypes.int64)
    ids = table.lookup(value)
    valid = not_equal(value, np.asarray(missing, object if dtype == dtypes.string
                                        else np.int64))
    return _Ids(ids, None, logical_and(valid, greater_equal(ids, np.int64(0))))


class IdentityCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "IdentityCategoricalColumn", ["key", "number_buckets", "default_value"])):
    """``categorical_column_with_identity``: integer values used as ids."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def num_buckets(self) -> int:
        return self.number_buckets

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: VarLenFeature(dtypes.int64)}

    def _ids(self, features: dict) -> _Ids:
        value = cast(_dense_input(features[self.key], -1), dtypes.int64)
        present = not_equal(value, np.int64(-1))
        in_range = logical_and(greater_equal(value, np.int64(0)),
                               less(value, np.int64(self.number_buckets)))
        if self.default_value is None:
            return _Ids(value, None, logical_and(present, in_range))
        ids = where_v2(in_range, value, np.int64(self.default_value))
        return _Ids(ids, None, present)


class HashedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "HashedCategoricalColumn", ["key", "hash_bucket_size", "dtype"])):
    """``categorical_column_with_hash_bucket``: ``Fingerprint64(value) % size``."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def num_buckets(self) -> int:
        return self.hash_bucket_size

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: VarLenFeature(self.dtype)}

    def _ids(self, features: dict) -> _Ids:
        missing = "" if self.dtype == dtypes.string else -1
        value = _dense_input(features[self.key], missing)
        text = value if value.dtype == dtypes.string else as_string(value)
        ids = to_hash_bucket_fast(text, self.hash_bucket_size)
        valid = not_equal(value, np.asarray(missing, object if self.dtype == dtypes.string
                                            else value.dtype.as_numpy_dtype))
        return _Ids(ids, None, valid)


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "WeightedCategoricalColumn", ["categorical_column", "weight_feature_key", "dtype"])):
    """``weighted_categorical_column``: ids with a weight each (another feature)."""

    @property
    def name(self) -> str:
        return "%s_weighted_by_%s" % (self.categorical_column.name, self.weight_feature_key)

    @property
    def num_buckets(self) -> int:
        return self.categorical_column.num_buckets

    @property
    def parse_example_spec(self) -> dict:
        spec = dict(self.categorical_column.parse_example_spec)
        spec[self.weight_feature_key] = VarLenFeature(self.dtype)
        return spec

    def _ids(self, features: dict) -> _Ids:
        ids = self.categorical_column._ids(features)
        weights = cast(_dense_input(features[self.weight_feature_key], 0.0), dtypes.float32)
        return _Ids(ids.ids, weights, ids.mask)


class CrossedColumn(CategoricalColumn, collections.namedtuple(
        "CrossedColumn", ["keys", "hash_bucket_size", "hash_key"])):
    """``crossed_column``: every combination of the crossed features' values of an example,
    hashed as TensorFlow's SparseCrossHashed (FingerprintCat64 of the values' fingerprints).
    The crossed features are dense: one value per example and feature (this flowgrad
    version crosses single-valued features only)."""

    @property
    def name(self) -> str:
        return "_X_".join(sorted(k if isinstance(k, str) else k.name for k in self.keys))

    @property
    def num_buckets(self) -> int:
        return self.hash_bucket_size

    @property
    def parse_example_spec(self) -> dict:
        spec: dict = {}
        for k in self.keys:
            spec.update({k: VarLenFeature(dtypes.string)} if isinstance(k, str)
                        else k.parse_example_spec)
        return spec

    def _ids(self, features: dict) -> _Ids:
        from flowgrad.ops.script_ops import numpy_function
        parts = []
        for k in self.keys:
            if isinstance(k, str):
                parts.append(_dense_input(features[k], ""))
            else:       # a categorical column crosses its ids (-1 out of vocabulary), as TF
                parts.append(k._ids(features).ids)
        hash_key = _CROSS_HASH_KEY if self.hash_key is None else self.hash_key
        size = self.hash_bucket_size

        def cross(*values: np.ndarray) -> np.ndarray:
            return _cross_hash(values, hash_key, size)

        ids = reshape(numpy_function(cross, parts, dtypes.int64, stateful=False), [-1, 1])
        return _Ids(ids, None, greater_equal(ids, np.int64(0)))


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TensorFlow's FingerprintCat64 (tensorflow/core/platform/fingerprint.h)."""
    mul = 0xC6A4A7935BD1E995
    result = fp1 ^ mul
    result ^= (_shift_mix((fp2 * mul) & _MASK64) * mul) & _MASK64
    result = (result * mul) & _MASK64
    result = (_shift_mix(result) * mul) & _MASK64
    return _shift_mix(result)


def _cross_hash(values: tuple, hash_key: int, size: int) -> np.ndarray:
    """SparseCrossHashed of single-valued features: one id per example."""
    from flowgrad.ops.string_ops import _fingerprint64
    out = np.empty(len(values[0]), np.int64)
    for row in range(len(values[0])):
        h = hash_key
        for v in values:
            x = v[row].reshape(-1)[0]
            fp = _fingerprint64(x) if isinstance(x, bytes) else int(x) & _MASK64
            h = _fingerprint_cat64(h, fp)
        out[row] = h % size
    return out


class IndicatorColumn(DenseColumn, collections.namedtuple("IndicatorColumn",
                                                          ["categorical_column"])):
    """``indicator_column``: multi-hot ``[batch, num_buckets]`` of the ids (their weights
    summed for a weighted column)."""

    @property
    def name(self) -> str:
        return "%s_indicator" % self.categorical_column.name

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self) -> tuple:
        return (self.categorical_column.num_buckets,)

    def _dense(self, features: dict, state: dict) -> Any:
        ids = self.categorical_column._ids(features)
        hot = one_hot(where_v2(ids.mask, ids.ids, np.int64(-1)),
                      self.categorical_column.num_buckets, dtype=dtypes.float32)
        if ids.weights is not None:
            hot = hot * expand_dims(ids.weights, -1)
        return reduce_sum(hot, axis=1)


class EmbeddingColumn(DenseColumn, collections.namedtuple(
        "EmbeddingColumn", ["categorical_column", "dimension", "combiner", "initializer",
                            "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm",
                            "trainable"])):
    """``embedding_column``: the ids' rows of an embedding variable, combined per example
    (``sum``, ``mean`` or ``sqrtn``; weights multiply the rows)."""

    @property
    def name(self) -> str:
        return "%s_embedding" % self.categorical_column.name

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self) -> tuple:
        return (self.dimension,)

    def _dense(self, features: dict, state: dict) -> Any:
        table = state.get(self.name)
        if table is None:
            table = get_variable("embedding_weights",
                                 [self.categorical_column.num_buckets, self.dimension],
                                 dtypes.float32, initializer=self.initializer,
                                 trainable=self.trainable)
            state[self.name] = table
        ids = self.categorical_column._ids(features)
        mask = ids.mask
        if ids.weights is not None:    # as safe_embedding_lookup_sparse: weights > 0 only
            mask = logical_and(mask, ids.weights > 0)
        weight = cast(mask, dtypes.float32)
        if ids.weights is not None:
            weight = weight * ids.weights
        rows = gather(table, where_v2(mask, ids.ids, np.int64(0)))
        total = reduce_sum(rows * expand_dims(weight, -1), axis=1)
        if self.combiner == "sum":
            return total
        if self.combiner == "mean":
            norm = reduce_sum(weight, axis=1, keepdims=True)
        else:
            norm = sqrt(reduce_sum(weight * weight, axis=1, keepdims=True))
        return where_v2(norm > 0, total / maximum(norm, 1e-30), 0.0 * total)


# -- the constructors (TensorFlow's signatures and checks) ----------------------------------

def numeric_column(key: str, shape: ShapeLike = (1,), default_value: TensorLike | None = None,
                   dtype: DTypeLike = dtypes.float32, normalizer_fn: Any = None) -> NumericColumn:
    """A real-valued feature.

    Args:
      key: the feature's name.
      shape: the shape of one example's value.
      default_value: the value of a missing feature when parsing.
      dtype: a float or integer dtype.
      normalizer_fn: a function applied to the value.

    Returns:
      A NumericColumn.

    Raises:
      ValueError: a bad shape or dtype.
      TypeError: ``normalizer_fn`` is not callable.
    """
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if any(d < 1 for d in shape):
        raise ValueError("shape dimensions must be greater than 0. shape: %s, key: %s"
                         % (shape, key))
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError("dtype must be convertible to float. dtype: %s, key: %s"
                         % (dtype, key))
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError("normalizer_fn must be a callable. Given: %s" % (normalizer_fn,))
    if default_value is not None:
        default_value = tuple(np.broadcast_to(np.asarray(default_value, dtype.as_numpy_dtype),
                                              shape).reshape(-1).tolist())
    return NumericColumn(key, shape, default_value, dtype, normalizer_fn)


def bucketized_column(source_column: NumericColumn, boundaries: TensorLike) -> BucketizedColumn:
    """Buckets of a numeric column's values.

    Args:
      source_column: a numeric_column.
      boundaries: the sorted bucket boundaries; bucket i holds ``b[i-1] <= v < b[i]``.

    Returns:
      A BucketizedColumn (dense: one-hot; categorical: the bucket ids).

    Raises:
      ValueError: the source is not a numeric column, or the boundaries are not sorted.
    """
    if not isinstance(source_column, NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). "
                         "Given: %s" % (source_column,))
    boundaries = tuple(float(b) for b in boundaries)
    if not boundaries or any(a >= b for a, b in zip(boundaries, boundaries[1:])):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, boundaries)


def categorical_column_with_vocabulary_list(
        key: str, vocabulary_list: Any, dtype: DTypeLike | None = None, default_value: int = -1,
        num_oov_buckets: int = 0) -> VocabularyListCategoricalColumn:
    """Ids of a feature's values in a list.

    Args:
      key: the feature's name.
      vocabulary_list: the values, in id order.
      dtype: ``tf.string`` or an integer dtype (from the list if None).
      default_value: the id of a value not in the list (-1: none).
      num_oov_buckets: hash such values into this many more ids instead.

    Returns:
      A VocabularyListCategoricalColumn.

    Raises:
      ValueError: an empty or repeated vocabulary, or both ``default_value`` and OOV buckets.
    """
    vocab = [v.decode() if isinstance(v, bytes) else v for v in list(vocabulary_list)]
    if not vocab:
        raise ValueError("vocabulary_list %s must be non-empty, column_name: %s"
                         % (vocab, key))
    if len(set(vocab)) != len(vocab):
        raise ValueError("Duplicate keys in vocabulary_list %s, column_name: %s"
                         % (vocab, key))
    if num_oov_buckets and default_value != -1:
        raise ValueError("Can't specify both num_oov_buckets and default_value in %s." % key)
    inferred = dtypes.string if isinstance(vocab[0], str) else dtypes.int64
    dtype = inferred if dtype is None else dtypes.as_dtype(dtype)
    if (dtype == dtypes.string) != (inferred == dtypes.string):
        raise ValueError("dtype %s and vocabulary dtype %s do not match, column_name: %s"
                         % (dtype, inferred, key))
    return VocabularyListCategoricalColumn(key, tuple(vocab), dtype, default_value,
                                           int(num_oov_buckets))


def categorical_column_with_vocabulary_file(key: str, vocabulary_file: str,
                                            vocabulary_size: int | None = None,
                                            num_oov_buckets: int = 0,
                                            default_value: int | None = None,
                                            dtype: DTypeLike = dtypes.string
                                            ) -> VocabularyFileCategoricalColumn:
    """Ids of a feature's values: their line numbers in a vocabulary file.

    Args:
      key: the feature's name.
      vocabulary_file: a file with one value per line.
      vocabulary_size: how many lines to use (all if None).
      num_oov_buckets: hash values not in the file into this many more ids.
      default_value: the id of a value not in the file (-1 if None).
      dtype: ``tf.string`` or an integer dtype.

    Returns:
      A VocabularyFileCategoricalColumn.

    Raises:
      ValueError: a missing file name, or both ``default_value`` and OOV buckets.
    """
    if not vocabulary_file:
        raise ValueError("Missing vocabulary_file in %s." % key)
    if num_oov_buckets and default_value is not None:
        raise ValueError("Can't specify both num_oov_buckets and default_value in %s." % key)
    if vocabulary_size is None:
        from flowgrad.ops.file_io import GFile
        with GFile(vocabulary_file, "rb") as f:
            vocabulary_size = len(f.read().decode("utf-8").splitlines())
    return VocabularyFileCategoricalColumn(
        key, vocabulary_file, int(vocabulary_size), int(num_oov_buckets),
        dtypes.as_dtype(dtype), -1 if default_value is None else default_value)


def categorical_column_with_identity(key: str, num_buckets: int,
                                     default_value: int | None = None
                                     ) -> IdentityCategoricalColumn:
    """Integer feature values as ids in ``[0, num_buckets)``.

    Args:
      key: the feature's name.
      num_buckets: the number of ids.
      default_value: the id of an out-of-range value (None: the value is dropped).

    Returns:
      An IdentityCategoricalColumn.

    Raises:
      ValueError: ``num_buckets`` below 1 or ``default_value`` out of range.
    """
    if num_buckets < 1:
        raise ValueError("num_buckets %s < 1, column_name %s" % (num_buckets, key))
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError("default_value %s not in range [0, %s), column_name %s"
                         % (default_value, num_buckets, key))
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


def categorical_column_with_hash_bucket(
        key: str, hash_bucket_size: int,
        dtype: DTypeLike = dtypes.string) -> HashedCategoricalColumn:
    """Ids as ``Fingerprint64(value) % hash_bucket_size`` (integers hashed as text).

    Args:
      key: the feature's name.
      hash_bucket_size: the number of ids.
      dtype: ``tf.string`` or an integer dtype.

    Returns:
      A HashedCategoricalColumn.

    Raises:
      ValueError: ``hash_bucket_size`` below 2 or a non-string, non-integer dtype.
    """
    if hash_bucket_size is None or hash_bucket_size <= 1:
        raise ValueError("hash_bucket_size must be larger than 1. hash_bucket_size: %s, "
                         "key: %s" % (hash_bucket_size, key))
    dtype = dtypes.as_dtype(dtype)
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError("dtype must be string or integer. dtype: %s, column_name: %s"
                         % (dtype, key))
    return HashedCategoricalColumn(key, int(hash_bucket_size), dtype)


def weighted_categorical_column(categorical_column: CategoricalColumn, weight_feature_key: str,
                                dtype: DTypeLike = dtypes.float32) -> WeightedCategoricalColumn:
    """A categorical column whose ids carry the weights of another feature.

    Args:
      categorical_column: the ids.
      weight_feature_key: the feature holding one weight per id.
      dtype: the weights' float dtype.

    Returns:
      A WeightedCategoricalColumn.

    Raises:
      ValueError: a non-float dtype.
    """
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError("dtype %s is not convertible to float." % dtype)
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


def crossed_column(keys: Any, hash_bucket_size: int,
                   hash_key: int | None = None) -> CrossedColumn:
    """The hashed combinations of several categorical features.

    Args:
      keys: feature names (string features) or categorical / bucketized columns.
      hash_bucket_size: the number of ids.
      hash_key: the hash's seed (TensorFlow's FINGERPRINT_CROSS key if None).

    Returns:
      A CrossedColumn.

    Raises:
      ValueError: fewer than two keys, or ``hash_bucket_size`` below 1.
    """
    keys = tuple(keys)
    if len(keys) < 2:
        raise ValueError("keys must be a list with length > 1. Given: %s" % (keys,))
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError("hash_bucket_size must be > 1. hash_bucket_size: %s"
                         % hash_bucket_size)
    return CrossedColumn(keys, int(hash_bucket_size), hash_key)


def indicator_column(categorical_column: CategoricalColumn) -> IndicatorColumn:
    """A multi-hot representation of a categorical column.

    Args:
      categorical_column: the ids.

    Returns:
      An IndicatorColumn: ``[batch, num_buckets]``, counts (or summed weights) per id.
    """
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column: CategoricalColumn, dimension: int,
                     combiner: str = "mean", initializer: Any = None,
                     ckpt_to_load_from: Any = None, tensor_name_in_ckpt: Any = None,
                     max_norm: Any = None, trainable: bool = True,
                     use_safe_embedding_lookup: bool = True) -> EmbeddingColumn:
    """A dense embedding of a categorical column.

    Args:
      categorical_column: the ids.
      dimension: the embedding size.
      combiner: ``"mean"``, ``"sqrtn"`` or ``"sum"``.
      initializer: the variable's initializer (truncated normal with standard deviation
        ``1/sqrt(dimension)`` by default, as in TensorFlow).
      ckpt_to_load_from: not supported (None).
      tensor_name_in_ckpt: not supported (None).
      max_norm: not supported (None).
      trainable: whether the embedding is trained.
      use_safe_embedding_lookup: accepted (invalid ids are always skipped).

    Returns:
      An EmbeddingColumn.

    Raises:
      ValueError: a bad dimension or combiner, or an option flowgrad does not support.
    """
    if dimension is None or dimension < 1:
        raise ValueError("Invalid dimension %s." % dimension)
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum'")
    if ckpt_to_load_from is not None or tensor_name_in_ckpt is not None or \
            max_norm is not None:
        raise ValueError("embedding_column: ckpt_to_load_from, tensor_name_in_ckpt and "
                         "max_norm are not supported by flowgrad")
    if initializer is None:
        initializer = TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
    return EmbeddingColumn(categorical_column, int(dimension), combiner, initializer, None,
                           None, None, trainable)


def make_parse_example_spec(feature_columns: Any) -> dict:
    """The ``tf.io.parse_example`` spec of the columns' raw features.

    Args:
      feature_columns: the columns.

    Returns:
      A dict from feature name to FixedLenFeature / VarLenFeature.

    Raises:
      ValueError: an argument is not a feature column, or two columns disagree on a key.
    """
    spec: dict = {}
    for column in feature_columns:
        if not isinstance(column, FeatureColumn):
            raise ValueError("All feature_columns must be FeatureColumn instances. Given: %s"
                             % (column,))
        for key, value in column.parse_example_spec.items():
            if key in spec and spec[key] != value:
                raise ValueError("feature_columns contain different parse_spec for key %s. "
                                 "Given %s and %s" % (key, spec[key], value))
            spec[key] = value
    return spec


def input_layer(features: dict, feature_columns: Any, weight_collections: Any = None,
                trainable: bool = True, cols_to_vars: dict | None = None,
                cols_to_output_tensors: dict | None = None) -> Any:
    """``tf.compat.v1.feature_column.input_layer``: the dense columns' tensors, ordered by
    column name and concatenated: ``[batch, sum of widths]``.

    Args:
      features: the raw features by key (tensors or SparseTensors).
      feature_columns: dense columns (numeric, bucketized, indicator, embedding).
      weight_collections: accepted, as in TensorFlow.
      trainable: whether embedding variables are trainable.
      cols_to_vars: if a dict, filled with each column's variables.
      cols_to_output_tensors: if a dict, filled with each column's output.

    Returns:
      A float32 tensor.

    Raises:
      ValueError: no columns, or a column that is not dense.
    """
    columns = list(feature_columns) if not isinstance(feature_columns, FeatureColumn) \
        else [feature_columns]
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    for c in columns:
        if not isinstance(c, DenseColumn):
            raise ValueError("Items of feature_columns must be a DenseColumn. You can wrap a "
                             "categorical column with an embedding_column or "
                             "indicator_column. Given: %s" % (c,))
    outputs = []
    with variable_scope(None, default_name="input_layer"):
        for c in sorted(columns, key=lambda c: c.name):
            with variable_scope(None, default_name=c.name):
                state: dict = {}
                if isinstance(c, EmbeddingColumn) and not trainable:
                    c = c._replace(trainable=False)
                with name_scope(c.name):
                    out = c._dense(features, state)
                if cols_to_vars is not None:
                    cols_to_vars[c] = list(state.values())
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[c] = out
                outputs.append(out)
        return concat(outputs, axis=1)


def linear_logits(features: dict, columns: list, units: int, sparse_combiner: str = "sum",
                  trainable: bool = True, cols_to_vars: dict | None = None,
                  scope_of: Any = None) -> Any:
    """The sum of one ``weights`` matrix per column (in a scope of the column's name, by
    column name) times the column's values, plus ``bias_weights``, made in the current
    variable scope: the body of TensorFlow's ``linear_model`` and of the canned linear
    estimators. A categorical column counts its ids (``sum``), or divides the counts by
    their sum (``mean``) or its square root (``sqrtn``). ``scope_of(name)`` names a
    column's scope (the column's name when None)."""
    if sparse_combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError("sparse_combiner must be one of 'sum', 'mean' or 'sqrtn', got %r"
                         % (sparse_combiner,))
    logits = []
    for column in sorted(columns, key=lambda c: c.name):
        categorical = isinstance(column, CategoricalColumn) and \
            not isinstance(column, DenseColumn)
        with variable_scope(scope_of(column.name) if scope_of else column.name):
            value = input_layer(features, [indicator_column(column) if categorical
                                           else column])
            if categorical and sparse_combiner != "sum":
                total = reduce_sum(value, axis=1, keepdims=True)
                norm = total if sparse_combiner == "mean" else sqrt(total)
                value = value / maximum(norm, 1e-12)
            weights = get_variable("weights", [value.shape[-1], units], initializer=Zeros(),
                                   trainable=trainable)
        if cols_to_vars is not None:
            cols_to_vars[column] = [weights]
        logits.append(matmul(value, weights))
    bias = get_variable("bias_weights", [units], initializer=Zeros(), trainable=trainable)
    if cols_to_vars is not None:
        cols_to_vars["bias"] = [bias]
    return add_n(logits) + bias


def linear_model(features: dict, feature_columns: Any, units: int = 1,
                 sparse_combiner: str = "sum", weight_collections: Any = None,
                 trainable: bool = True, cols_to_vars: dict | None = None) -> Any:
    """``tf.compat.v1.feature_column.linear_model``: a linear prediction from the columns
    (wide models), in a new variable scope ``linear_model``: ``<column>/weights`` per column
    and ``bias_weights``, all zero at first.

    Args:
      features: the raw features by key (tensors or SparseTensors).
      feature_columns: numeric, bucketized, categorical (also crossed) or embedding columns.
      units: the number of outputs.
      sparse_combiner: how a categorical column's ids combine: ``"sum"``, ``"mean"`` or
        ``"sqrtn"``.
      weight_collections: accepted, as in TensorFlow.
      trainable: whether the variables are trainable.
      cols_to_vars: if a dict, filled with each column's variables (and ``"bias"``).

    Returns:
      A float32 tensor ``[batch, units]``.

    Raises:
      ValueError: no columns, or an unknown ``sparse_combiner``.
    """
    del weight_collections
    columns = list(feature_columns) if not isinstance(feature_columns, FeatureColumn) \
        else [feature_columns]
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    with variable_scope(None, default_name="linear_model"):
        return linear_logits(features, columns, units, sparse_combiner, trainable,
                             cols_to_vars, scope_of=_graph_unique_name)


_USED_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _graph_unique_name(name: str) -> str:
    """``name``, then ``name_1``, ``name_2``, ... in one graph: the unique layer names
    TensorFlow gives linear_model's per-column layers (their variables' scopes)."""
    used = _USED_NAMES.setdefault(get_default_graph(), collections.Counter())
    n = used[name]
    used[name] += 1
    return name if n == 0 else "%s_%d" % (name, n)


__all__ = ["bucketized_column", "categorical_column_with_hash_bucket",
       "categorical_column_with_identity", "categorical_column_with_vocabulary_file",
       "categorical_column_with_vocabulary_list", "crossed_column", "embedding_column",
       "indicator_column", "make_parse_example_spec", "numeric_column",
       "weighted_categorical_column", "input_layer", "linear_model"]

