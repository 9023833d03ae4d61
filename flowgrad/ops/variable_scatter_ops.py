"""Sparse updates of variables: TensorFlow 1's ``tf.scatter_update/add/sub/mul/div/min/max``,
``tf.scatter_nd_update/add/sub``, ``tf.batch_scatter_update`` and ``tf.count_up_to``, which
the ``Variable.scatter_*`` methods call.

On a TF1 graph variable they are TensorFlow's ref ops (ScatterUpdate, ScatterMul, ...,
ScatterNdUpdate, CountUpTo): the kernel computes the new value and the Session commits it
(``updates=``), as the optimizers' update ops in flowgrad/ops/training_ops.py (where
ScatterAdd and ScatterSub are registered). On an eager variable the same kernels run at once
and the variable is assigned (TensorFlow's ResourceScatter* ops); inside a ``tf.function`` the
new value is built from the tensor scatter and segment ops and assigned. None of them has a
gradient, as in TensorFlow."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import InvalidArgumentError, OutOfRangeError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.arithmetic_ops import multiply, realdiv, subtract
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import ones_like
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.scatter_nd_ops import gather_nd, tensor_scatter_nd_add, tensor_scatter_nd_update
from flowgrad.ops.segment_ops import unsorted_segment_prod
from flowgrad.ops.shape_ops import broadcast_to, expand_dims, reshape, shape
from flowgrad.ops.tensor_scatter_ops import (
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
)
from flowgrad.ops.training_ops import _scatter_infer
from flowgrad.framework.type_hints import TensorLike

# --------------------------------------------------------------------------------------
# Kernels


def _trunc_divide(a: np.ndarray, b: Any) -> np.ndarray:
    """a / b as TensorFlow's integer kernels divide (C++'s ``/``: rounded toward zero)."""
    if np.issubdtype(a.dtype, np.integer):
        q = np.abs(a) // np.abs(b)
        return (np.sign(a) * np.sign(b) * q).astype(a.dtype)
    return np.divide(a, b, dtype=a.dtype)


#: How each ref op combines a row with its update, in index order (duplicate indices combine
#: one after another, as TensorFlow's CPU kernels loop).
_COMBINE: dict[str, Callable | None] = {
    "ScatterUpdate": None, "ScatterMul": np.multiply, "ScatterDiv": _trunc_divide,
    "ScatterMin": np.minimum, "ScatterMax": np.maximum,
}


def _scatter_rows(op_type: str, ref: Any, indices: Any, updates: Any) -> np.ndarray:
    """The new value of ``ref`` after ``op_type`` of ``updates`` into its rows ``indices``."""
    idx = np.asarray(indices)
    n = np.shape(ref)[0] if np.ndim(ref) else 0
    flat = idx.ravel()
    bad = np.flatnonzero((flat < 0) | (flat >= n))
    if bad.size:
        i = int(bad[0])
        raise InvalidArgumentError(None, None, "indices[%d] = %d is not in [0, %d)"
                                   % (i, int(flat[i]), n))
    rows = np.shape(ref)[1:]
    upd = np.asarray(updates)
    if upd.ndim and upd.shape[:idx.ndim] != idx.shape:
        raise InvalidArgumentError(None, None, "The shape of indices (%s) must be a prefix of "
                                   "the shape of updates (%s)" % (_dims(idx.shape),
                                                                  _dims(upd.shape)))
    if upd.ndim and upd.shape != idx.shape + rows:
        raise InvalidArgumentError(None, None, "%s: updates must have shape indices.shape + "
                                   "ref.shape[1:] = %s or be a scalar, got %s"
                                   % (op_type, list(idx.shape + rows), list(upd.shape)))
    out = np.array(ref, copy=True)
    upd = np.broadcast_to(upd, idx.shape + rows).reshape((flat.size,) + rows)
    combine = _COMBINE[op_type]
    if combine is None:
        out[flat] = upd
    else:
        for j, row in enumerate(flat):
            out[row] = combine(out[row], upd[j])
    return out


def _dims(shape: tuple) -> str:
    return "[%s]" % ",".join(str(d) for d in shape)


def _scatter_nd(op_type: str, ref: Any, indices: Any, updates: Any) -> np.ndarray:
    """The new value of ``ref`` after ``op_type`` of ``updates`` at the N-d ``indices``."""
    idx = np.asarray(indices)
    target = np.shape(ref)
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim == 0 or k > len(target):
        raise InvalidArgumentError(None, None, "%s: indices must have rank >= 1 and a last "
                                   "dimension <= the rank of ref (%d), got shape %s"
                                   % (op_type, len(target), _dims(idx.shape)))
    bound = np.array(target[:k], np.int64)
    bad = np.any((idx < 0) | (idx >= bound), axis=-1).ravel()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidArgumentError(None, None, "indices[%d] = [%s] does not index into shape %s"
                                   % (i, ", ".join(str(int(d)) for d in
                                                   idx.reshape(-1, k)[i]), _dims(target)))
    want = idx.shape[:-1] + tuple(target[k:])
    upd = np.asarray(updates)
    if upd.ndim and upd.shape != want:
        raise InvalidArgumentError(None, None, "%s: updates must have shape indices.shape[:-1] "
                                   "+ ref.shape[indices.shape[-1]:] = %s, got %s"
                                   % (op_type, _dims(want), _dims(upd.shape)))
    out = np.array(ref, copy=True)
    where = tuple(np.moveaxis(idx, -1, 0))
    upd = np.broadcast_to(upd, want)
    if op_type == "ScatterNdUpdate":
        out[where] = upd
    elif op_type == "ScatterNdAdd":
        np.add.at(out, where, upd)
    else:
        np.subtract.at(out, where, upd)
    return out


def _scatter_nd_infer(ins: list, attrs: dict) -> tuple:
    ref, indices, updates = ins
    dt = ref.dtype.base_dtype
    if updates.dtype.base_dtype is not dt:
        raise TypeError("Input 'updates' has type %s that does not match type %s of argument "
                        "'ref'." % (updates.dtype.base_dtype.name, dt.name))
    if not indices.dtype.is_integer:
        raise TypeError("Input 'indices' must be int32 or int64, got %s" % indices.dtype.name)
    if indices.shape.rank is not None and ref.shape.rank is not None:
        k = indices.shape.as_list()[-1] if indices.shape.rank else None
        if k is not None:
            if k > ref.shape.rank:
                raise ValueError("The last dimension of indices (%d) must be <= the rank of "
                                 "ref (%d)" % (k, ref.shape.rank))
            want = TensorShape(indices.shape.as_list()[:-1] + ref.shape.as_list()[k:])
            if updates.shape.rank not in (None, 0) and not want.is_compatible_with(
                    updates.shape):
                raise ValueError("updates must have shape indices.shape[:-1] + "
                                 "ref.shape[indices.shape[-1]:] = %s, got %s"
                                 % (want, updates.shape))
    return dt._as_ref(), ref.shape


# TensorFlow declares ScatterMul and ScatterDiv not differentiable and registers nothing for
# ScatterUpdate, ScatterMin and ScatterMax (tf.gradients through them is a LookupError).
for _type in _COMBINE:
    register_op(_type, lambda ref, i, u, _t=_type: _scatter_rows(_t, ref, i, u),
                _scatter_infer(_type),
                grad=_NO_GRADIENT if _type in ("ScatterMul", "ScatterDiv") else None,
                stateful=True, updates=(0,), input_names=("ref", "indices", "updates"))
for _type in ("ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"):
    register_op(_type, lambda ref, i, u, _t=_type: _scatter_nd(_t, ref, i, u),
                _scatter_nd_infer, grad=_NO_GRADIENT, stateful=True, updates=(0,),
                input_names=("ref", "indices", "updates"))


def _count_up_to(ref: Any, *, limit: int) -> np.ndarray:
    """The incremented value (the Session commits it)."""
    if int(ref) >= limit:
        raise OutOfRangeError(None, None, "Reached limit of %d" % limit)
    return np.asarray(ref + 1, np.asarray(ref).dtype)


def _count_up_to_infer(ins: list, attrs: dict) -> tuple:
    ref = ins[0]
    if ref.shape.rank not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d for 'CountUpTo'" % ref.shape.rank)
    return ref.dtype.base_dtype._as_ref(), TensorShape([])


# Like every update op, CountUpTo outputs the variable's new value; count_up_to returns the
# value before the increment (TensorFlow's output) as that minus one.
register_op("CountUpTo", _count_up_to, _count_up_to_infer, grad=_NO_GRADIENT, stateful=True,
            updates=(0,), input_names=("ref",))


# --------------------------------------------------------------------------------------
# The updates of eager variables (TensorFlow's ResourceScatter* ops)

_RESOURCE_KERNELS: dict[str, Callable] = {
    **{t: (lambda ref, i, u, _t=t: _scatter_rows(_t, ref, i, u))
       for t in ("ScatterUpdate", "ScatterMul", "ScatterDiv", "ScatterMin", "ScatterMax")},
    "ScatterAdd": lambda ref, i, u: _add_rows(ref, i, u, 1),
    "ScatterSub": lambda ref, i, u: _add_rows(ref, i, u, -1),
    **{t: (lambda ref, i, u, _t=t: _scatter_nd(_t, ref, i, u))
       for t in ("ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub")},
}


def _add_rows(ref: Any, indices: Any, updates: Any, sign: int) -> np.ndarray:
    """ScatterAdd (sign 1) / ScatterSub (sign -1) with ResourceScatterAdd's checks."""
    _scatter_rows("ScatterUpdate", ref, indices, updates)       # the checks only
    idx = np.asarray(indices)
    out = np.array(ref, copy=True)
    upd = np.broadcast_to(np.asarray(updates), idx.shape + np.shape(ref)[1:])
    (np.add if sign > 0 else np.subtract).at(out, idx, upd)
    return out


def _rows_index(indices: Any) -> Any:
    return expand_dims(indices, -1)


def _traced_update(op_type: str, value: Any, indices: Any, updates: Any) -> Any:
    """The new value of a variable read as ``value`` inside a tf.function, built from ops."""
    if op_type.startswith("ScatterNd"):
        fn = {"ScatterNdUpdate": tensor_scatter_nd_update, "ScatterNdAdd": tensor_scatter_nd_add,
              "ScatterNdSub": tensor_scatter_nd_sub}[op_type]
        return fn(value, indices, updates)
    full = broadcast_to(updates, concat([shape(indices), shape(value)[1:]], 0))
    if op_type in ("ScatterMul", "ScatterDiv"):
        factor = unsorted_segment_prod(full, indices, shape(value)[0])
        return multiply(value, factor) if op_type == "ScatterMul" else realdiv(value, factor)
    fn = {"ScatterUpdate": tensor_scatter_nd_update, "ScatterAdd": tensor_scatter_nd_add,
          "ScatterSub": tensor_scatter_nd_sub, "ScatterMin": tensor_scatter_nd_min,
          "ScatterMax": tensor_scatter_nd_max}[op_type]
    return fn(value, _rows_index(indices), full)


def graph_scatter(op_type: str, ref: TensorLike, indices: TensorLike, updates: TensorLike,
                  name: str | None) -> Any:
    """The ref op ``op_type`` on the variable tensor ``ref`` of a TF1 graph."""
    i = convert_to_tensor(indices, name="indices")
    return apply_op(op_type, [ref, i, updates], name=name, dtype=ref.dtype.base_dtype)


def eager_scatter(op_type: str, var: Any, indices: TensorLike, updates: TensorLike,
                  name: str | None) -> Any:
    """``op_type`` on the eager variable ``var``: the kernel at once when executing eagerly,
    an assignment of ops inside a tf.function; returns what ``var.assign`` returns."""
    if executing_eagerly():
        i = convert_to_tensor(indices, name="indices")
        u = convert_to_tensor(updates, var.dtype)
        new = _RESOURCE_KERNELS[op_type](var._value, i._value, u._value)
        return var.assign(new, name=name)
    with name_scope(name, op_type, [indices, updates]):
        i = convert_to_tensor(indices, name="indices")
        u = convert_to_tensor(updates, var.dtype, name="updates")
        return var.assign(_traced_update(op_type, var.value(), i, u))


def _scatter(op_type: str, ref: Any, indices: Any, updates: Any, name: str | None) -> Any:
    """``op_type`` on a variable (its own ``_scatter_op``) or on a TF1 variable tensor."""
    if isinstance(ref, ScatterMethods):
        return ref._scatter_op(op_type, indices, updates, name)
    return graph_scatter(op_type, ref, indices, updates, name)


class ScatterMethods:
    """The ``Variable`` methods of the sparse updates (``tf.Variable`` inherits them; a
    variable class defines ``_scatter_op(op_type, indices, updates, name)``)."""

    def _scatter_op(self, op_type: str, indices: Any, updates: Any, name: str | None) -> Any:
        raise NotImplementedError

    def _scatter(self, fn: str, sparse_delta: Any, use_locking: bool, name: str | None) -> Any:
        delta = sparse_delta_check(sparse_delta)
        return globals()[fn](self, delta.indices, delta.values, use_locking=use_locking,
                             name=name)

    def _scatter_nd(self, fn: str, indices: Any, updates: Any, name: str | None) -> Any:
        return globals()[fn](self, indices, updates, name=name)


    def scatter_update(self, sparse_delta: Any, use_locking: bool = False,
                       name: str | None = None) -> Any:
        """Writes ``sparse_delta.values`` into the rows ``sparse_delta.indices``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_update", sparse_delta, use_locking, name)

    def scatter_add(self, sparse_delta: Any, use_locking: bool = False,
                    name: str | None = None) -> Any:
        """Adds ``sparse_delta.values`` to the rows ``sparse_delta.indices``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_add", sparse_delta, use_locking, name)

    def scatter_sub(self, sparse_delta: Any, use_locking: bool = False,
                    name: str | None = None) -> Any:
        """Subtracts ``sparse_delta.values`` from the rows ``sparse_delta.indices``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_sub", sparse_delta, use_locking, name)

    def scatter_mul(self, sparse_delta: Any, use_locking: bool = False,
                    name: str | None = None) -> Any:
        """Multiplies the rows ``sparse_delta.indices`` by ``sparse_delta.values``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_mul", sparse_delta, use_locking, name)

    def scatter_div(self, sparse_delta: Any, use_locking: bool = False,
                    name: str | None = None) -> Any:
        """Divides the rows ``sparse_delta.indices`` by ``sparse_delta.values``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_div", sparse_delta, use_locking, name)

    def scatter_min(self, sparse_delta: Any, use_locking: bool = False,
                    name: str | None = None) -> Any:
        """The rows ``sparse_delta.indices`` become their minimum with ``sparse_delta.values``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_min", sparse_delta, use_locking, name)

    def scatter_max(self, sparse_delta: Any, use_locking: bool = False,
                    name: str | None = None) -> Any:
        """The rows ``sparse_delta.indices`` become their maximum with ``sparse_delta.values``.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("scatter_max", sparse_delta, use_locking, name)

    def batch_scatter_update(self, sparse_delta: Any, use_locking: bool = False,
                             name: str | None = None) -> Any:
        """``tf.compat.v1.batch_scatter_update`` of ``sparse_delta``'s values at its indices.

        Args:
            sparse_delta: A ``tf.IndexedSlices`` (TypeError otherwise).
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operation (optional).
        """
        return self._scatter("batch_scatter_update", sparse_delta, use_locking, name)

    def scatter_nd_update(self, indices: TensorLike, updates: TensorLike,
                          name: str | None = None) -> Any:
        """Writes ``updates`` at the N-d ``indices``.

        Args:
            indices: An int tensor [..., K] of indices into the first K dimensions.
            updates: The values: ``indices.shape[:-1] + shape[K:]``.
            name: A name for the operation (optional).
        """
        return self._scatter_nd("scatter_nd_update", indices, updates, name)

    def scatter_nd_add(self, indices: TensorLike, updates: TensorLike,
                       name: str | None = None) -> Any:
        """Adds ``updates`` at the N-d ``indices``.

        Args:
            indices: An int tensor [..., K] of indices into the first K dimensions.
            updates: The values: ``indices.shape[:-1] + shape[K:]``.
            name: A name for the operation (optional).
        """
        return self._scatter_nd("scatter_nd_add", indices, updates, name)

    def scatter_nd_sub(self, indices: TensorLike, updates: TensorLike,
                       name: str | None = None) -> Any:
        """Subtracts ``updates`` at the N-d ``indices``.

        Args:
            indices: An int tensor [..., K] of indices into the first K dimensions.
            updates: The values: ``indices.shape[:-1] + shape[K:]``.
            name: A name for the operation (optional).
        """
        return self._scatter_nd("scatter_nd_sub", indices, updates, name)

    def sparse_read(self, indices: TensorLike, name: str | None = None) -> Any:
        """The rows ``indices`` of the variable's value (a gather).

        Args:
            indices: An int tensor of row indices.
            name: A name for the operation (optional).
        """
        return gather(self, indices, name=name)

    def gather_nd(self, indices: TensorLike, name: str | None = None) -> Any:
        """The slices of the variable's value at the N-d ``indices``.

        Args:
            indices: An int tensor [..., K] of indices into the first K dimensions.
            name: A name for the operation (optional).
        """
        return gather_nd(self, indices, name=name)


# --------------------------------------------------------------------------------------
# Public functions (tf.compat.v1)


def _doc(op: str, what: str) -> Callable:
    def decorate(fn: Callable) -> Callable:
        fn.__doc__ = """%s

    Args:
        ref: The variable to update (a TF1 variable or a ``tf.Variable``).
        indices: An int32/int64 tensor of indices into ``ref``%s.
        updates: The values: %s, or a scalar.
        use_locking: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).

    Returns:
        ``ref`` after the update (in a TF1 graph: a tensor that holds it once run).

    Raises:
        InvalidArgumentError: if an index is out of range or the shapes do not fit.
    """ % (what, "'s first dimension" if "Nd" not in op else " ([..., K]: K leading "
           "dimensions)", "``indices.shape + ref.shape[1:]``" if "Nd" not in op else
           "``indices.shape[:-1] + ref.shape[K:]``")
        return fn
    return decorate


@_doc("ScatterUpdate", "ref[indices] = updates (with duplicate indices, the last one wins).")
def scatter_update(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103 - documented by _doc
                   use_locking: bool = True, name: str | None = None) -> Any:
    return _scatter("ScatterUpdate", ref, indices, updates, name)


@_doc("ScatterAdd", "ref[indices] += updates (duplicate indices add up).")
def scatter_add(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterAdd", ref, indices, updates, name)


@_doc("ScatterSub", "ref[indices] -= updates (duplicate indices add up).")
def scatter_sub(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterSub", ref, indices, updates, name)


@_doc("ScatterMul", "ref[indices] *= updates (duplicate indices multiply).")
def scatter_mul(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterMul", ref, indices, updates, name)


@_doc("ScatterDiv", "ref[indices] /= updates (duplicate indices divide in turn).")
def scatter_div(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterDiv", ref, indices, updates, name)


@_doc("ScatterMin", "ref[indices] = minimum(ref[indices], updates).")
def scatter_min(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterMin", ref, indices, updates, name)


@_doc("ScatterMax", "ref[indices] = maximum(ref[indices], updates).")
def scatter_max(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterMax", ref, indices, updates, name)


@_doc("ScatterNdUpdate", "ref[indices] = updates at N-d indices.")
def scatter_nd_update(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                      use_locking: bool = True, name: str | None = None) -> Any:
    return _scatter("ScatterNdUpdate", ref, indices, updates, name)


@_doc("ScatterNdAdd", "ref[indices] += updates at N-d indices (duplicates add up).")
def scatter_nd_add(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                   use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterNdAdd", ref, indices, updates, name)


@_doc("ScatterNdSub", "ref[indices] -= updates at N-d indices (duplicates add up).")
def scatter_nd_sub(ref: TensorLike, indices: TensorLike, updates: TensorLike,  # noqa: D103
                   use_locking: bool = False, name: str | None = None) -> Any:
    return _scatter("ScatterNdSub", ref, indices, updates, name)


def batch_scatter_update(ref: TensorLike, indices: TensorLike, updates: TensorLike,
                         use_locking: bool = True, name: str | None = None) -> Any:
    """``ref[i_1, ..., i_n, indices[i_1, ..., i_n, j]] = updates[i_1, ..., i_n, j]``: a
    scatter_update along the axis after ``indices``' batch axes (a ScatterNdUpdate).

    Args:
        ref: The variable to update.
        indices: An int tensor [B_1, ..., B_n, J] of indices into axis n of ``ref``.
        updates: The values: [B_1, ..., B_n, J] + ref.shape[n + 1:].
        use_locking: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).

    Returns:
        ``ref`` after the update.

    Raises:
        ValueError: if ``indices`` has an unknown rank.
    """
    with name_scope(name):
        indices = convert_to_tensor(indices, name="indices")
        rank = indices.shape.rank
        if rank is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        nd = expand_dims(indices, -1)
        dims = shape(indices)
        parts = []
        for axis in range(rank - 1):
            # the batch coordinate of axis ``axis``, broadcast over the others
            grid = reshape(range_op(0, dims[axis], 1), concat(
                [np.ones(axis, np.int32), dims[axis:axis + 1], np.ones(rank - axis, np.int32)],
                0))
            if grid.dtype != nd.dtype:
                grid = cast(grid, nd.dtype)
            parts.append(multiply(grid, ones_like(nd)))
        parts.append(nd)
        final = concat(parts, -1)
        return scatter_nd_update(ref, final, updates, use_locking=use_locking)


def count_up_to(ref: TensorLike, limit: int, name: str | None = None) -> Any:
    """Increments the integer variable ``ref`` until it reaches ``limit``; returns the value
    before the increment.

    Args:
        ref: A scalar int32/int64 variable.
        limit: When ``ref`` is ``limit``, running the op raises OutOfRangeError.
        name: A name for the operation (optional).

    Returns:
        A tensor: ``ref``'s value before this increment.

    Raises:
        OutOfRangeError: (when run) if ``ref`` has reached ``limit``.
    """
    ref = getattr(ref, "_variable", ref)        # a TF1 graph variable's ref tensor
    if ref.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'ref' has DataType %s not in list of allowed "
                        "values: int32, int64" % ref.dtype.base_dtype.name)
    if isinstance(ref, ScatterMethods):       # an eager variable
        if not executing_eagerly():
            raise NotImplementedError("count_up_to of a tf.Variable inside a tf.function")
        old = ref.read_value()
        ref.assign(_count_up_to(ref._value, limit=int(limit)))
        return old
    new = apply_op("CountUpTo", [ref], {"limit": int(limit)}, name=name)
    return subtract(new, np.asarray(1, ref.dtype.base_dtype.as_numpy_dtype))


def sparse_delta_check(sparse_delta: Any) -> IndexedSlices:
    """``sparse_delta`` of a ``Variable.scatter_*`` method, which must be IndexedSlices."""
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                        f"{sparse_delta}")
    return sparse_delta


__all__ = ["scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
           "scatter_min", "scatter_max", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub",
           "batch_scatter_update", "count_up_to"]
