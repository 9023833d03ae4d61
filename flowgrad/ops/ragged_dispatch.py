"""TensorFlow's ragged dispatch (``tensorflow/python/ops/ragged/ragged_dispatch.py`` and the
``dispatch_for_api`` registrations of its ragged ops): the element-wise APIs (``tf.math``'s,
``tf.cast``, ``tf.ones_like``, ``tf.nn.relu``, ``tf.clip_by_value`` & co.) applied to
RaggedTensors work on their flat values (the row partitions are kept), ``tf.reduce_*``
reduce along ragged axes, ``tf.where`` selects row-wise, ``tf.concat`` joins ragged rows and
``tf.gather`` picks them.

Everything is registered through flowgrad/framework/dispatch.py, as a user's
``tf.experimental.dispatch_for_*`` is: the op functions themselves are untouched, so the
Python operators (``dense + ragged``) and every other caller dispatch too. RaggedTensor's own
operators (``rt + 1``, ``-rt``, ``rt < 2``) are installed at the end, as TensorFlow's
``ragged_operators.py`` does."""
from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dispatch, dtypes
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.ops import (arithmetic_ops, comparison_ops, concat_ops, elementwise_ops,
                          fill_ops, indexing_ops, ragged_ops, reduction_ops, shape_ops, sum_ops)
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.state_ops import Variable

dispatch.register_dispatchable_type(RaggedTensor)

#: A dense value a ragged op accepts (TensorFlow's ``core_types.TensorLike``).
TensorLikeTypes = typing.Union[TensorBase, Variable, int, float, bool, str, bytes, complex,
                               tuple, list, np.ndarray, np.generic]
#: A RaggedTensor or a dense value (TensorFlow's ``ragged_tensor.RaggedOrDense``).
RaggedOrDense = typing.Union[RaggedTensor, TensorLikeTypes]


def _flat_operand(x: Any, like: RaggedTensor) -> Any:
    """``x`` aligned with ``like``'s flat values: a RaggedTensor's flat values, a scalar or a
    tensor of the inner dimensions as it is, a dense ``[nrows, 1, ...]`` row-wise."""
    if isinstance(x, RaggedTensor):
        return x.flat_values
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        return x
    t = convert_to_tensor(x) if not isinstance(x, TensorBase) else x
    rank = t.shape.rank
    flat_rank = like.flat_values.shape.rank
    if rank is None or rank <= flat_rank - 1:
        return t
    if like.ragged_rank == 1 and rank == like.shape.rank and t.shape.as_list()[1] == 1:
        from flowgrad.ops.indexing_ops import gather_v2
        from flowgrad.ops.shape_ops import squeeze
        return gather_v2(squeeze(t, [1]), ragged_ops.value_rowids(like))
    raise ValueError("A dense tensor of shape %s does not broadcast against a RaggedTensor "
                     "of shape %s" % (t.shape, like.shape))


@dispatch.dispatch_for_unary_elementwise_apis(RaggedTensor)
def ragged_unary_elementwise_op(op: Callable, x: RaggedTensor) -> RaggedTensor:
    """A unary element-wise API applied to a RaggedTensor's flat values."""
    return x.with_flat_values(op(x.flat_values))


@dispatch.dispatch_for_binary_elementwise_apis(RaggedOrDense, RaggedOrDense)
def ragged_binary_elementwise_op(op: Callable, x: Any, y: Any) -> Any:
    """A binary element-wise API of a RaggedTensor and a RaggedTensor or dense value
    (broadcast row-wise) applied to the flat values."""
    like = x if isinstance(x, RaggedTensor) else y
    return like.with_flat_values(op(_flat_operand(x, like), _flat_operand(y, like)))


def _bound(api: Callable, args: tuple, kwargs: dict) -> inspect.BoundArguments:
    bound = inspect.signature(api).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound


def _register_reduction(api: Callable, kind: str) -> None:
    @dispatch.dispatch_for_api(api, {"input_tensor": RaggedTensor})
    def ragged_reduce(*args: Any, **kwargs: Any) -> Any:
        a = _bound(api, args, kwargs).arguments
        return ragged_ops.reduce(kind, a["input_tensor"], a["axis"], bool(a["keepdims"]))
    ragged_reduce.__name__ = ragged_reduce.__qualname__ = "ragged_" + api.__name__


for _api, _kind in ((sum_ops.reduce_sum, "sum"), (reduction_ops.reduce_mean, "mean"),
                    (reduction_ops.reduce_max, "max"), (reduction_ops.reduce_min, "min"),
                    (reduction_ops.reduce_prod, "prod"), (reduction_ops.reduce_any, "any"),
                    (reduction_ops.reduce_all, "all"), (reduction_ops.reduce_std, "std"),
                    (reduction_ops.reduce_variance, "variance")):
    _register_reduction(_api, _kind)


@dispatch.dispatch_for_api(comparison_ops.where, {"condition": RaggedTensor})
def ragged_where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """``tf.where`` of a ragged condition: selects between ``x`` and ``y`` (ragged like it,
    or dense broadcast row-wise) element by element."""
    where = comparison_ops.where.__wrapped__
    if x is None:
        return where(condition, x, y, name=name)
    return condition.with_flat_values(where(condition.flat_values, _flat_operand(x, condition),
                                            _flat_operand(y, condition), name=name))


dispatch.DISPATCH_FRAMES.add(ragged_where.__code__)


@dispatch.dispatch_for_api(concat_ops.concat, {"values": list[RaggedOrDense]})
def ragged_concat(values: list, axis: Any, name: str = "concat") -> Any:
    """``tf.concat`` of RaggedTensors (and dense tensors) along axis 0 or 1."""
    rank = next(v for v in values if isinstance(v, RaggedTensor)).shape.rank
    ax = int(axis) + rank if int(axis) < 0 else int(axis)
    if ax == 0:
        return ragged_ops.concat_rows(list(values))
    if ax == 1:
        return ragged_ops.merge_dims(ragged_ops.stack(list(values), axis=1), 1, 2)
    raise NotImplementedError("flowgrad concatenates RaggedTensors along axis 0 or 1")


@dispatch.dispatch_for_api(indexing_ops.gather_v2, {"params": RaggedTensor},
                           {"indices": RaggedTensor})
def ragged_gather(params: Any, indices: Any, validate_indices: Any = None, axis: Any = None,
                  batch_dims: int = 0, name: str | None = None) -> Any:
    """``tf.gather`` of a RaggedTensor's rows (axis 0) at dense ``indices``: a scalar index
    gives one row, a vector the rows in its order, more index dimensions uniform rows; and
    ``tf.gather`` at RaggedTensor ``indices`` (TensorFlow's ``ragged_gather_ops``): the
    result has the indices' ragged rows where the gathered axis was."""
    if isinstance(indices, RaggedTensor):
        return _gather_at_ragged(params, indices, axis, batch_dims)
    if axis not in (None, 0) or batch_dims != 0:
        raise NotImplementedError("flowgrad gathers a RaggedTensor's rows (axis=0, "
                                  "batch_dims=0); got axis=%r, batch_dims=%r"
                                  % (axis, batch_dims))
    indices = convert_to_tensor(indices) if not isinstance(indices, TensorBase) else indices
    if indices.shape.rank == 0:
        return params[indices]
    if indices.shape.rank != 1:
        flat = ragged_gather(params, shape_ops.reshape(indices, [-1]))
        for width in reversed(indices.shape.as_list()[1:]):
            flat = RaggedTensor.from_uniform_row_length(flat, width)
        return flat
    splits = params.row_splits
    starts = indexing_ops.gather_v2(splits[:-1], indices)
    limits = indexing_ops.gather_v2(splits[1:], indices)
    kind = splits.dtype.base_dtype
    new_splits = concat_ops.concat([fill_ops.zeros([1], kind),
                                    reduction_ops.cumsum(limits - starts)], 0)
    rowids = ragged_ops.row_splits_to_segment_ids(new_splits)
    one = convert_to_tensor(1, kind)
    positions = fill_ops.range(convert_to_tensor(0, kind), new_splits[-1], one, dtype=kind) + \
        indexing_ops.gather_v2(starts - new_splits[:-1], rowids)
    return RaggedTensor.from_row_splits(indexing_ops.gather_v2(params.values, positions),
                                        new_splits, validate=False)


dispatch.DISPATCH_FRAMES.add(ragged_gather.__code__)


@dispatch.dispatch_for_api(indexing_ops.embedding_lookup, {"ids": RaggedTensor})
def ragged_embedding_lookup(params: Any, ids: RaggedTensor, partition_strategy: str = "mod",
                            name: str | None = None, validate_indices: bool = True,
                            max_norm: Any = None) -> RaggedTensor:
    """``tf.compat.v1.nn.embedding_lookup`` of RaggedTensor ``ids``: the ids' rows of the
    looked-up rows (TensorFlow's ``embedding_lookup_ragged``)."""
    return _embedding_lookup_ragged(params, ids, partition_strategy, max_norm)


@dispatch.dispatch_for_api(indexing_ops.embedding_lookup_v2, {"ids": RaggedTensor})
def ragged_embedding_lookup_v2(params: Any, ids: RaggedTensor, max_norm: Any = None,
                               name: str | None = None) -> RaggedTensor:
    """``tf.nn.embedding_lookup`` of RaggedTensor ``ids`` (TensorFlow's
    ``embedding_lookup_ragged`` with the ``div`` strategy)."""
    return _embedding_lookup_ragged(params, ids, "div", max_norm)


def _embedding_lookup_ragged(params: Any, ids: RaggedTensor, partition_strategy: str,
                             max_norm: Any) -> RaggedTensor:
    if ids.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("The values contained by the inputs have type %s and cannot be "
                         "processed. All values should be indices, either of type `int32` or "
                         "`int64`." % ids.dtype.name)
    return ids.with_flat_values(indexing_ops.embedding_lookup(
        params, ids.flat_values, partition_strategy=partition_strategy, max_norm=max_norm))


def _gather_at_ragged(params: Any, indices: RaggedTensor, axis: Any, batch_dims: int) -> Any:
    """``tf.gather(params, indices, axis)`` of RaggedTensor ``indices`` as TensorFlow's
    ``ragged_gather_ops._gather``: at axis 0 the indices' rows hold the gathered slices; at
    axis 1 of a dense ``params`` every row of ``params`` is gathered at the indices (offset to
    the flattened first two dimensions); deeper axes recurse on the rows."""
    if indices.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'indices' has DataType %s not in list of "
                        "allowed values: int32, int64" % indices.dtype.name)
    if batch_dims != 0:
        raise NotImplementedError("flowgrad gathers at RaggedTensor indices with "
                                  "batch_dims=0; got batch_dims=%r" % (batch_dims,))
    if not isinstance(params, RaggedTensor):
        params = convert_to_tensor(params)
    rank = params.shape.rank
    axis = 0 if axis is None else int(axis)
    if rank is not None and not -rank <= axis < rank:
        raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -rank, rank))
    if axis < 0:
        axis += rank
    if axis == 0:
        return indices.with_values(indexing_ops.gather_v2(params, indices.values))
    if isinstance(params, RaggedTensor):
        raise NotImplementedError("flowgrad gathers a RaggedTensor at RaggedTensor indices "
                                  "along axis 0; got axis=%d" % axis)
    dims = params.shape.as_list()
    if axis > 1:        # the rows of params (uniform), each gathered one axis lower
        inner = _gather_at_ragged(shape_ops.reshape(params, [-1] + dims[2:]), indices,
                                  axis - 1, 0)
        return RaggedTensor.from_uniform_row_length(inner, dims[1], validate=False)
    nrows = indices.shape.as_list()[0]
    if dims[0] is None or dims[1] is None or nrows is None:
        raise ValueError("tf.gather at RaggedTensor indices along axis 1 needs params' first "
                         "two dimensions and the indices' rows known, got params of shape %s "
                         "and indices of shape %s" % (params.shape, indices.shape))
    flat_params = shape_ops.reshape(params, [-1] + dims[2:])
    kind = indices.dtype.base_dtype
    rows = indices.nrows()
    # the indices' rows once per row of params, each copy offset to that row's slice
    copies = ragged_gather(indices, shape_ops.reshape(
        concat_ops.tile(shape_ops.expand_dims(fill_ops.range(rows), 0), [dims[0], 1]), [-1]))
    flat = copies.flat_values
    per_copy = shape_ops.size(indices.flat_values, out_type=kind)
    offsets = (fill_ops.range(shape_ops.size(flat, out_type=kind)) //
               arithmetic_ops.maximum(per_copy, convert_to_tensor(1, kind))) * dims[1]
    gathered = copies.with_flat_values(indexing_ops.gather_v2(flat_params, flat + offsets))
    return RaggedTensor.from_uniform_row_length(gathered, nrows, nrows=dims[0], validate=False)


def _operator(fn: Callable, reflected: bool = False) -> Callable:
    def op(self: RaggedTensor, other: Any) -> Any:
        return fn(other, self) if reflected else fn(self, other)
    return op


for _dunder, _fn in {
        "add": arithmetic_ops.add, "sub": arithmetic_ops.subtract,
        "mul": arithmetic_ops.multiply, "truediv": arithmetic_ops.truediv,
        "floordiv": arithmetic_ops.floordiv, "mod": arithmetic_ops.floormod,
        "pow": elementwise_ops.pow, "and": comparison_ops.logical_and,
        "or": comparison_ops.logical_or, "xor": comparison_ops.logical_xor}.items():
    setattr(RaggedTensor, "__%s__" % _dunder, _operator(_fn))
    setattr(RaggedTensor, "__r%s__" % _dunder, _operator(_fn, reflected=True))
for _dunder, _fn in {"lt": comparison_ops.less, "le": comparison_ops.less_equal,
                     "gt": comparison_ops.greater, "ge": comparison_ops.greater_equal}.items():
    setattr(RaggedTensor, "__%s__" % _dunder, _operator(_fn))
RaggedTensor.__neg__ = lambda self: arithmetic_ops.negative(self)
RaggedTensor.__abs__ = lambda self: elementwise_ops.abs(self)
RaggedTensor.__invert__ = lambda self: comparison_ops.logical_not(self)
