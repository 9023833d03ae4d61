"""Embeddings of sparse ids: ``tf.nn.embedding_lookup_sparse``,
``tf.nn.safe_embedding_lookup_sparse`` (TF2 and TF1 signatures) and the
``tf.sparse.fill_empty_rows`` they use (TensorFlow's ``SparseFillEmptyRows``, whose values
and default value are differentiable, as TensorFlow's ``SparseFillEmptyRowsGrad`` makes them).

As in TensorFlow's ``embedding_ops.py``: the rows of ``sp_ids`` are combined with
``"sum"``, ``"mean"`` (weighted, ``div_no_nan`` by the weights' sum) or ``"sqrtn"``; the safe
variant flattens the leading dimensions, drops negative ids (and non-positive weights unless
summing), fills empty rows with ``default_id`` (zeros when None) and reshapes back."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.arithmetic_ops import div_no_nan
from flowgrad.ops.array_ops import (concat, expand_dims, gather, ones, rank, reshape, shape,
                                    size, slice as slice_, tile, zeros_like)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import where
from flowgrad.ops.indexing_ops import embedding_lookup
from flowgrad.ops.manip_ops import unique
from flowgrad.ops.math_ops import greater, greater_equal, reduce_prod, reduce_sum, sqrt
from flowgrad.ops.segment_ops import segment_sum
from flowgrad.ops.sparse_manip import reshape as sparse_reshape
from flowgrad.ops.sparse_manip import retain
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike

_COMBINERS = ("mean", "sqrtn", "sum")


def _fill_kernel(indices: Any, values: Any, dense_shape: Any, default_value: Any) -> tuple:
    indices = np.asarray(indices, np.int64).reshape(-1, np.asarray(dense_shape).size)
    values = np.asarray(values)
    dense_shape = np.asarray(dense_shape, np.int64).reshape(-1)
    if dense_shape.size == 0 or dense_shape[0] < 0:
        raise errors.InvalidArgumentError(None, None, "Dense shape must be a vector of "
                                          "non-negative values")
    n_rows = int(dense_shape[0])
    if len(indices) and (indices[:, 0].min() < 0 or indices[:, 0].max() >= n_rows):
        bad = int(np.argmax((indices[:, 0] < 0) | (indices[:, 0] >= n_rows)))
        raise errors.InvalidArgumentError(
            None, None, "indices(%d, 0) is invalid: %d >= %d" % (bad, indices[bad, 0], n_rows))
    counts = np.bincount(indices[:, 0], minlength=n_rows) if len(indices) else \
        np.zeros(n_rows, np.int64)
    empty = counts == 0
    order = np.argsort(indices[:, 0], kind="stable") if len(indices) else np.zeros(0, np.int64)
    filled_rows = np.nonzero(empty)[0]
    fill_idx = np.zeros((len(filled_rows), indices.shape[1]), np.int64)
    fill_idx[:, 0] = filled_rows
    all_idx = np.concatenate([indices[order], fill_idx])
    all_val = np.concatenate([values[order], np.full(len(filled_rows), default_value,
                                                     values.dtype)])
    out_order = np.argsort(all_idx[:, 0], kind="stable")
    position = np.empty(len(out_order), np.int64)
    position[out_order] = np.arange(len(out_order))
    reverse = np.empty(len(indices), np.int64)
    reverse[order] = position[:len(indices)]
    return all_idx[out_order], all_val[out_order], empty, reverse


def _fill_infer(ins: list, attrs: dict) -> list:
    indices, values = ins[0], ins[1]
    return [(dtypes.int64, TensorShape([None, indices.shape[1] if indices.shape.rank == 2
                                        else None])),
            (values.dtype.base_dtype, TensorShape([None])),
            (dtypes.bool, TensorShape([None])), (dtypes.int64, indices.shape[:1]
                                                  if indices.shape.rank else TensorShape([None]))]


@defop("SparseFillEmptyRows", _fill_kernel, _fill_infer, num_outputs=4,
       input_names=("indices", "values", "dense_shape", "default_value"))
def _fill_grad(op: Any, _: Any, grad_values: Any, *unused: Any) -> tuple:
    # TensorFlow's SparseFillEmptyRowsGrad: each input value's gradient is its output's;
    # the default value gets the rest
    d_values = gather(grad_values, op.outputs[3])
    d_default = reduce_sum(grad_values) - reduce_sum(d_values)
    return None, d_values, None, d_default


def fill_empty_rows(sp_input: SparseTensor, default_value: TensorLike,
                    name: str | None = None) -> tuple:
    """``tf.sparse.fill_empty_rows``: one entry ``[row, 0, ...] = default_value`` for each
    row without entries; the entries come out in row order.

    Args:
      sp_input: the SparseTensor.
      default_value: the value of the added entries (the values' dtype).
      name: the name scope.

    Returns:
      (the filled SparseTensor, a bool vector: which rows were empty).

    Raises:
      TypeError: ``sp_input`` is not a SparseTensor.
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    with name_scope(name, "SparseFillEmptyRows"):
        default_value = convert_to_tensor(default_value, sp_input.values.dtype)
        idx, vals, empty, _ = apply_op("SparseFillEmptyRows", [
            sp_input.indices, sp_input.values, sp_input.dense_shape, default_value])
        return SparseTensor(idx, vals, sp_input.dense_shape), empty


def embedding_lookup_sparse(params: TensorLike, sp_ids: SparseTensor, sp_weights: TensorLike,
                            partition_strategy: str = "mod", name: str | None = None,
                            combiner: str | None = None, max_norm: Any = None,
                            allow_fast_lookup: bool = False) -> Any:
    """``tf.compat.v1.nn.embedding_lookup_sparse``: the embeddings of each row's ids,
    combined.

    Args:
      params: the embedding table, or a list of its shards.
      sp_ids: int ids, a SparseTensor ``[batch, ...]`` (rows are ``indices[:, 0]``).
      sp_weights: a SparseTensor of weights like ``sp_ids``, or None (weight 1).
      partition_strategy: ``"mod"`` or ``"div"`` for sharded tables.
      name: the name scope.
      combiner: ``"mean"`` (default), ``"sqrtn"`` or ``"sum"``.
      max_norm: rows with a larger L2 norm are scaled down to it.
      allow_fast_lookup: accepted, as in TensorFlow.

    Returns:
      ``[rows, dim]`` embeddings (rows up to the largest row id present).

    Raises:
      ValueError: an unknown combiner.
      TypeError: ``sp_ids`` or ``sp_weights`` is not a SparseTensor.
    """
    combiner = "mean" if combiner is None else combiner
    if combiner not in _COMBINERS:
        raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum', got %s" % combiner)
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError("sp_ids must be SparseTensor, got %s" % type(sp_ids))
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError("sp_weights must be either None or SparseTensor,got %s"
                        % type(sp_weights))
    with name_scope(name, "embedding_lookup_sparse"):
        segment_ids = cast(sp_ids.indices[:, 0], dtypes.int32)
        ids, idx = unique(sp_ids.values)
        embeddings = gather(embedding_lookup(params, ids, partition_strategy=partition_strategy,
                                             max_norm=max_norm), idx)
        original = embeddings.dtype
        if original in (dtypes.float16, dtypes.bfloat16):
            embeddings = cast(embeddings, dtypes.float32)
        if sp_weights is None:
            weights = ones(shape(segment_ids), embeddings.dtype)
        else:
            weights = cast(sp_weights.values, embeddings.dtype)
        weights = reshape(weights, concat([shape(weights), ones(
            expand_dims(rank(embeddings) - 1, 0), dtypes.int32)], 0))
        total = segment_sum(embeddings * weights, segment_ids)
        if combiner == "mean":
            total = div_no_nan(total, segment_sum(weights, segment_ids))
        elif combiner == "sqrtn":
            total = div_no_nan(total, sqrt(segment_sum(weights * weights, segment_ids)))
        return cast(total, original) if total.dtype != original else total


def embedding_lookup_sparse_v2(params: TensorLike, sp_ids: SparseTensor, sp_weights: TensorLike,
                               combiner: str | None = None, max_norm: Any = None,
                               name: str | None = None,
                               allow_fast_lookup: bool = False) -> Any:
    """``tf.nn.embedding_lookup_sparse`` (TensorFlow 2: ``"div"`` partitioning).

    Args:
      params: the embedding table, or a list of its shards.
      sp_ids: int ids, a SparseTensor ``[batch, ...]``.
      sp_weights: a SparseTensor of weights like ``sp_ids``, or None.
      combiner: ``"mean"`` (default), ``"sqrtn"`` or ``"sum"``.
      max_norm: rows with a larger L2 norm are scaled down to it.
      name: the name scope.
      allow_fast_lookup: accepted, as in TensorFlow.

    Returns:
      ``[rows, dim]`` embeddings.
    """
    return embedding_lookup_sparse(params, sp_ids, sp_weights, "div", name, combiner,
                                   max_norm, allow_fast_lookup)


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: SparseTensor,
                                 sparse_weights: Any = None, combiner: str = "mean",
                                 default_id: int | None = None, name: str | None = None,
                                 partition_strategy: str = "div", max_norm: Any = None,
                                 allow_fast_lookup: bool = False) -> Any:
    """``tf.compat.v1.nn.safe_embedding_lookup_sparse``: embeddings of ``sparse_ids`` of any
    rank, with invalid ids (negative) and weights (not positive, unless summing) dropped and
    empty rows given ``default_id``'s embedding (zeros when None).

    Args:
      embedding_weights: the embedding table, or a list of its shards.
      sparse_ids: int ids, a SparseTensor ``[d0, ..., dn-1, k]``.
      sparse_weights: float weights like ``sparse_ids``, or None.
      combiner: ``"mean"``, ``"sqrtn"`` or ``"sum"``.
      default_id: the id embedded for empty rows; None gives zeros.
      name: the name scope.
      partition_strategy: ``"div"`` or ``"mod"`` for sharded tables.
      max_norm: rows with a larger L2 norm are scaled down to it.
      allow_fast_lookup: accepted, as in TensorFlow.

    Returns:
      ``[d0, ..., dn-1, dim]`` embeddings.

    Raises:
      ValueError: no embedding weights.
    """
    if embedding_weights is None:
        raise ValueError("Missing embedding_weights %s." % embedding_weights)
    weights_list = list(embedding_weights) if isinstance(embedding_weights, (list, tuple)) \
        else [embedding_weights]
    if not weights_list:
        raise ValueError("Missing embedding_weights %s." % embedding_weights)
    with name_scope(name, "embedding_lookup"):
        original_shape = sparse_ids.dense_shape
        original_rank = size(original_shape)
        static_rank = original_shape.shape.num_elements()
        sparse_ids = sparse_reshape(sparse_ids, [
            reduce_prod(slice_(original_shape, [0], expand_dims(original_rank - 1, 0))),
            gather(original_shape, original_rank - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values,
                                          sparse_ids.dense_shape)
        keep = greater_equal(sparse_ids.values, 0)
        sparse_ids = retain(sparse_ids, keep)
        if sparse_weights is not None:
            sparse_weights = retain(sparse_weights, keep)
            if combiner != "sum":
                positive = greater(sparse_weights.values, 0)
                sparse_ids = retain(sparse_ids, positive)
                sparse_weights = retain(sparse_weights, positive)
        sparse_ids, is_row_empty = fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(weights_list, sparse_ids, sparse_weights,
                                         partition_strategy=partition_strategy,
                                         combiner=combiner, max_norm=max_norm)
        if default_id is None:
            empty = tile(reshape(is_row_empty, [-1, 1]), [1, shape(result)[1]])
            result = where(empty, zeros_like(result), result)
        final = reshape(result, concat([
            slice_(cast(original_shape, dtypes.int32), [0], expand_dims(original_rank - 1, 0)),
            slice_(shape(result), [1], [-1])], 0))
        if static_rank is not None:
            final.set_shape(TensorShape([None] * (static_rank - 1)).concatenate(
                result.shape[1:]))
        return final


def safe_embedding_lookup_sparse_v2(embedding_weights: Any, sparse_ids: SparseTensor,
                                    sparse_weights: Any = None, combiner: str = "mean",
                                    default_id: int | None = None, max_norm: Any = None,
                                    name: str | None = None,
                                    allow_fast_lookup: bool = False) -> Any:
    """``tf.nn.safe_embedding_lookup_sparse`` (TensorFlow 2: ``"div"`` partitioning).

    Args:
      embedding_weights: the embedding table, or a list of its shards.
      sparse_ids: int ids, a SparseTensor ``[d0, ..., dn-1, k]``.
      sparse_weights: float weights like ``sparse_ids``, or None.
      combiner: ``"mean"``, ``"sqrtn"`` or ``"sum"``.
      default_id: the id embedded for empty rows; None gives zeros.
      max_norm: rows with a larger L2 norm are scaled down to it.
      name: the name scope.
      allow_fast_lookup: accepted, as in TensorFlow.

    Returns:
      ``[d0, ..., dn-1, dim]`` embeddings.
    """
    return safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights,
                                        combiner=combiner, default_id=default_id, name=name,
                                        partition_strategy="div", max_norm=max_norm,
                                        allow_fast_lookup=allow_fast_lookup)


__all__ = ["embedding_lookup_sparse", "embedding_lookup_sparse_v2", "fill_empty_rows",
           "safe_embedding_lookup_sparse", "safe_embedding_lookup_sparse_v2"]
