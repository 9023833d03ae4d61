"""N-d gathers and scatters: GatherNd, ScatterNd, TensorScatterUpdate, TensorScatterAdd.

``indices`` has shape [..., K]: each row indexes the first K dimensions of the
(params / output) tensor, selecting a slice of shape ``shape[K:]``. Out-of-range
indices are an InvalidArgumentError naming the index, as in TensorFlow on CPU.
The gradients are again gathers and scatters, so they differentiate to any order."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.errors import InvalidArgumentError, dims_text
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_op_util import _as_value, _static_int_list
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.shape_ops import reshape, shape, stack, transpose
from flowgrad.framework.type_hints import ShapeLike, TensorLike


def _index_tuple(indices: np.ndarray, target_shape: tuple, op_type: str) -> tuple:
    """``indices`` [..., K] as a NumPy fancy-index tuple; InvalidArgumentError if any row
    falls outside ``target_shape``."""
    indices = np.asarray(indices)
    k = indices.shape[-1] if indices.ndim else 0
    if indices.ndim == 0 or k > len(target_shape):
        raise InvalidArgumentError(None, None, "%s: indices must have rank >= 1 and a last "
                                   "dimension <= the rank of the indexed tensor (%d), got "
                                   "shape %s" % (op_type, len(target_shape),
                                                 list(indices.shape)))
    bound = np.array(target_shape[:k], np.int64)
    bad = np.any((indices < 0) | (indices >= bound), axis=-1)
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InvalidArgumentError(      # TensorFlow's kernel messages
            None, None, "indices[%s] = %s does not index into %s"
            % (",".join(str(i) for i in where), indices[where].tolist(),
               "param shape %s, node name: %s" % (dims_text(target_shape), op_type)
               if op_type == "GatherNd" else "shape %s" % dims_text(target_shape)))
    return tuple(np.moveaxis(indices, -1, 0))


def _slices_shape(indices: TensorShape, target: TensorShape) -> TensorShape:
    """indices.shape[:-1] + target[K:] (unknown where it cannot be told)."""
    if indices.rank is None:
        return TensorShape(None)
    k = indices.as_list()[-1]
    if k is None or target.rank is None:
        return TensorShape(None)
    if k > target.rank:
        raise ValueError("indices.shape[-1] must be <= the rank of the indexed tensor: "
                         "indices shape %s, tensor shape %s" % (indices, target))
    return TensorShape(indices.as_list()[:-1] + target.as_list()[k:])


def _check_indices_dtype(t: Any, op_type: str) -> None:
    if t.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise argument_error("Value for attr 'Tindices' of %s is not in the list of allowed "
                             "values: int32, int64 (indices of %s)" % (t.dtype.name, op_type),
                             TypeError)


# --------------------------------------------------------------------------------------
# GatherNd


def _gather_nd_kernel(params: Any, indices: Any) -> Any:
    return np.asarray(params)[_index_tuple(indices, np.shape(params), "GatherNd")]


@defop("GatherNd", _gather_nd_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, _slices_shape(ins[1].shape, ins[0].shape)),
       input_names=("params", "indices"))
def _gather_nd_grad(op: Any, grad: Any) -> Any:
    params, indices = op.inputs
    return scatter_nd(indices, grad, shape(params, out_type=indices.dtype.base_dtype)), None


def gather_nd(params: TensorLike, indices: TensorLike, name: str | None = None,
              batch_dims: int = 0) -> Any:
    """Slices of ``params`` at the index rows of ``indices`` (shape [..., K])."""
    if batch_dims != 0:
        raise NotImplementedError("gather_nd: batch_dims > 0 is not supported by flowgrad")
    p = convert_to_tensor(_as_value(params))
    i = convert_to_tensor(_as_value(indices))
    _check_indices_dtype(i, "GatherNd")
    return apply_op("GatherNd", [p, i], name=name)


# --------------------------------------------------------------------------------------
# ScatterNd


def _scatter_nd_kernel(indices: Any, updates: Any, shape_in: Any = None, *,
                       shape: Any = None) -> Any:
    target = tuple(int(d) for d in (shape if shape_in is None else shape_in))
    updates = np.asarray(updates)
    out = np.zeros(target, updates.dtype)
    np.add.at(out, _index_tuple(indices, target, "ScatterNd"), updates)
    return out


def _scatter_nd_infer(ins: list, attrs: dict) -> tuple:
    target = TensorShape(attrs["shape"]) if attrs.get("shape") is not None else \
        shape_from_value(ins[2])
    want = _slices_shape(ins[0].shape, target)
    if not want.is_compatible_with(ins[1].shape):
        raise ValueError("ScatterNd: updates must have shape indices.shape[:-1] + "
                         "shape[indices.shape[-1]:] = %s, got %s" % (want, ins[1].shape))
    return ins[1].dtype.base_dtype, target


@defop("ScatterNd", _scatter_nd_kernel, _scatter_nd_infer,
       input_names=("indices", "updates", "shape"))
def _scatter_nd_grad(op: Any, grad: Any) -> Any:
    return [None, gather_nd(grad, op.inputs[0]), None][:len(op.inputs)]


def scatter_nd(indices: TensorLike, updates: TensorLike, shape: ShapeLike | TensorLike,
               name: str | None = None) -> Any:
    """A zero tensor of ``shape`` with ``updates`` added at the index rows of ``indices``
    (duplicates add up).

    Args:
        indices: An int tensor of indices into the output: [..., index depth].
        updates: The values to scatter: ``indices``' shape without the last axis, plus the rest of
            the target's.
        shape: The output's shape (a 1-D int tensor).
        name: A name for the operation (optional).
    """
    i = convert_to_tensor(_as_value(indices))
    _check_indices_dtype(i, "ScatterNd")
    u = convert_to_tensor(_as_value(updates))
    static = _static_int_list(shape)
    if static is not None:
        return apply_op("ScatterNd", [i, u], {"shape": tuple(static)}, name=name)
    return apply_op("ScatterNd", [i, u, convert_to_tensor(shape, i.dtype.base_dtype)],
                    {"shape": None}, name=name)


# --------------------------------------------------------------------------------------
# TensorScatterUpdate, TensorScatterAdd


def _tensor_scatter_kernel(tensor: Any, indices: Any, updates: Any, *, add: bool) -> Any:
    out = np.array(tensor, copy=True)
    idx = _index_tuple(indices, out.shape, "TensorScatterAdd" if add else "TensorScatterUpdate")
    if add:
        np.add.at(out, idx, updates)
    else:
        out[idx] = updates
    return out


def _tensor_scatter_infer(ins: list, attrs: dict) -> tuple:
    want = _slices_shape(ins[1].shape, ins[0].shape)
    if not want.is_compatible_with(ins[2].shape):
        raise ValueError("tensor_scatter: updates must have shape indices.shape[:-1] + "
                         "tensor.shape[indices.shape[-1]:] = %s, got %s" % (want, ins[2].shape))
    return ins[0].dtype.base_dtype, ins[0].shape


@defop("TensorScatterUpdate", lambda t, i, u: _tensor_scatter_kernel(t, i, u, add=False),
       _tensor_scatter_infer, same_dtype=False, input_names=("tensor", "indices", "updates"))
def _tensor_scatter_update_grad(op: Any, grad: Any) -> Any:
    _, indices, updates = op.inputs
    return (tensor_scatter_nd_update(grad, indices, zeros_like(updates)), None,
            gather_nd(grad, indices))


@defop("TensorScatterAdd", lambda t, i, u: _tensor_scatter_kernel(t, i, u, add=True),
       _tensor_scatter_infer, input_names=("tensor", "indices", "updates"))
def _tensor_scatter_add_grad(op: Any, grad: Any) -> Any:
    return grad, None, gather_nd(grad, op.inputs[1])


def _tensor_scatter(op_type: str, tensor: Any, indices: Any, updates: Any,
                    name: str | None) -> Any:
    t = convert_to_tensor(_as_value(tensor))
    i = convert_to_tensor(_as_value(indices))
    _check_indices_dtype(i, op_type)
    u = convert_to_tensor(_as_value(updates), t.dtype.base_dtype)
    return apply_op(op_type, [t, i, u], name=name)


def tensor_scatter_nd_update(tensor: TensorLike, indices: TensorLike, updates: TensorLike,
                             name: str | None = None) -> Any:
    """A copy of ``tensor`` with the slices at ``indices`` replaced by ``updates``.

    Args:
        tensor: The tensor to update.
        indices: An int tensor of indices into ``tensor``'s first dimensions: [..., index depth].
        updates: The values to scatter: ``indices``' shape without the last axis, plus the rest of
            the target's.
        name: A name for the operation (optional).
    """
    return _tensor_scatter("TensorScatterUpdate", tensor, indices, updates, name)


def tensor_scatter_nd_add(tensor: TensorLike, indices: TensorLike, updates: TensorLike,
                          name: str | None = None) -> Any:
    """A copy of ``tensor`` with ``updates`` added to the slices at ``indices``.

    Args:
        tensor: The tensor to update.
        indices: An int tensor of indices into ``tensor``'s first dimensions: [..., index depth].
        updates: The values to scatter: ``indices``' shape without the last axis, plus the rest of
            the target's.
        name: A name for the operation (optional).
    """
    return _tensor_scatter("TensorScatterAdd", tensor, indices, updates, name)


# --------------------------------------------------------------------------------------
# gather with batch_dims (a GatherNd over batch coordinates)


def batch_gather(params: TensorLike, indices: TensorLike, axis: int, batch_dims: int,
                 name: str | None = None) -> Any:
    """``tf.gather(params, indices, axis=axis, batch_dims=batch_dims)``: for each index of
    the first ``batch_dims`` dimensions (shared by params and indices), a gather along
    ``axis``. Built from transposes and a GatherNd, so gradients of any order follow."""
    p = convert_to_tensor(_as_value(params))
    i = convert_to_tensor(_as_value(indices))
    _check_indices_dtype(i, "GatherV2")
    pr, ir = p.shape.rank, i.shape.rank
    if pr is None or ir is None:
        raise ValueError("gather with batch_dims needs params and indices of known rank")
    b = batch_dims % ir if batch_dims < 0 else batch_dims
    a = axis % pr if axis < 0 else axis
    if not b <= ir or not b <= a < pr:
        raise ValueError("gather: batch_dims (%d) must be <= rank(indices) (%d) and <= axis "
                         "(%d) < rank(params) (%d)" % (batch_dims, ir, axis, pr))
    if not TensorShape(p.shape.as_list()[:b]).is_compatible_with(
            TensorShape(i.shape.as_list()[:b])):
        raise ValueError("gather: the first batch_dims=%d dimensions of params %s and indices "
                         "%s must be equal" % (b, p.shape, i.shape))
    perm = list(range(b)) + [a] + [d for d in range(b, pr) if d != a]
    moved = transpose(p, perm) if perm != list(range(pr)) else p
    coords = []
    for j in range(b):
        n = shape(i)[j]
        dims = [1] * ir
        dims[j] = -1
        coords.append(hooks.add(reshape(hooks.cast(range_op(n), i.dtype.base_dtype), dims),
                            zeros_like(i)))
    idx = stack(coords + [i], axis=-1)
    out = gather_nd(moved, idx, name=name if perm == list(range(pr)) else None)
    if perm == list(range(pr)):
        return out
    # out: batch + indices' own dims + params' dims after axis (moved) -> put the params
    # dims that stood between batch and axis back in front of the indices' dims.
    k = ir - b                      # the indices' own dims
    between = a - b                 # params dims between the batch dims and axis
    rank_out = b + k + (pr - b - 1)
    back = list(range(b)) + list(range(b + k, b + k + between)) + \
        list(range(b, b + k)) + list(range(b + k + between, rank_out))
    return transpose(out, back, name=name or "transpose")


__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_nd_add", "tensor_scatter_nd_update"]
