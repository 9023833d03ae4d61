"""``tf.TensorArray``: a list of same-shaped tensors, in graphs and eagerly.

In a graph (TF1, or a ``tf.function`` trace) a TensorArray has value semantics: its
state is its *flow*, one dense tensor of shape ``[size, *element]`` holding every
element (rows not written yet are zeros). ``write`` and ``scatter`` return a new
TensorArray around a new flow made by the ``TensorArrayScatter`` op; ``read``,
``gather`` and ``stack`` are gathers and identities of the flow. Because the flow is an
ordinary tensor, a TensorArray is a loop variable of the functional While op like any
tensor (``tf.while_loop`` and AutoGraph pass the flow and rebuild the TensorArray in
the body), and gradients flow through every method to any order. An element shape not
given is learned from the first write; ``dynamic_size=True`` grows the array on writes
past its end; ``concat`` needs elements of one shape.

Created eagerly it is an ``EagerTensorArray``, as TensorFlow's: a Python list of
tensors written in place (``write`` returns the array itself), whose ``stack`` /
``unstack`` / ``gather`` are ordinary eager ops the tape records. There, as in
TensorFlow, ``clear_after_read=True`` (the default) makes a second read of an element
raise, indices out of range raise OutOfRangeError, and elements of another shape
ValueError."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import name_scope
from flowgrad.framework.indexed_slices import IndexedSlices, to_dense
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import Dimension, TensorShape, as_shape, unknown_shape
from flowgrad.ops.array_ops import concat as _concat
from flowgrad.ops.array_ops import expand_dims, identity, reshape, zeros_like
from flowgrad.ops.array_ops import gather as _gather
from flowgrad.ops.array_ops import range as _range
from flowgrad.ops.array_ops import shape as _shape
from flowgrad.ops.array_ops import split as _split
from flowgrad.ops.array_ops import stack as _stack
from flowgrad.ops.array_ops import unstack as _unstack
from flowgrad.ops.array_ops import zeros as _zeros
from flowgrad.ops.subgraph import DONATED
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def _element_shape(flow_shape: TensorShape) -> TensorShape:
    return flow_shape[1:] if flow_shape.rank is not None else unknown_shape()


# --------------------------------------------------------------------------------------
# Ops


def _zeros_kernel(size: Any, *, dtype: dtypes.DType, element_shape: Any,
                  dynamic_size: bool) -> np.ndarray:
    dims = element_shape.as_tuple() if element_shape.rank is not None else (0,)
    return np.zeros((int(size),) + tuple(d or 0 for d in dims), dtype.np)


def _zeros_infer(ins: list, attrs: dict) -> tuple:
    n = constant_value(ins[0])
    first = TensorShape([None if n is None or attrs["dynamic_size"] else int(n)])
    elem = attrs["element_shape"]
    return attrs["dtype"], first.concatenate(elem) if elem.rank is not None else unknown_shape()


register_op("TensorArrayZeros", _zeros_kernel, _zeros_infer, grad=_NO_GRADIENT,
            input_names=("size",))


def _ragged_scatter(flow: np.ndarray, indices: np.ndarray, value: np.ndarray,
                    top: int) -> np.ndarray:
    """A write into a list whose elements differ in shape (TensorFlow's TensorList of an
    unknown element shape, as a loop's accumulator of a growing value): a one-dimensional
    object array of the elements."""
    rows = list(flow) if flow.dtype == object else [flow[i] for i in range(len(flow))]
    rows += [np.zeros(value.shape[1:], value.dtype)] * max(top - len(rows), 0)
    for k, i in enumerate(indices):
        rows[i] = value[k]
    out = np.empty(len(rows), dtype=object)
    for i, r in enumerate(rows):
        out[i] = r
    return out


def _scatter_kernel(flow: np.ndarray, indices: Any, value: np.ndarray, *,
                    dynamic_size: bool, rows: int | None = None,
                    ragged: bool = False) -> np.ndarray:
    indices = np.asarray(indices).reshape(-1)
    value = np.asarray(value)
    n = flow.shape[0]
    elem = value.shape[1:]
    if len(indices) and indices.min() < 0:
        raise errors.InvalidArgumentError(None, None, "TensorArray: index %d is negative"
                                          % indices.min())
    top = int(indices.max()) + 1 if len(indices) else 0
    if ragged and (flow.dtype == object or flow.size and flow.shape[1:] != elem):
        return _ragged_scatter(flow, indices, value, top)
    if top > n and not dynamic_size:
        raise errors.InvalidArgumentError(
            None, None, "Tried to write to index %d but array is not resizeable and size is: %d"
            % (top - 1, n))
    if flow.shape[1:] != elem:
        if flow.size:
            raise errors.InvalidArgumentError(
                None, None, "Could not write to TensorArray index %d because the value shape is "
                "%s which is incompatible with the TensorArray's inferred element shape: %s"
                % (indices[0] if len(indices) else 0, list(elem), list(flow.shape[1:])))
        flow = np.zeros((n,) + elem, value.dtype)       # no element yet: take the new shape
    if top <= n and id(flow) in DONATED:
        out = flow                      # a loop's own flow, read by this write only
    elif top <= n:
        out = flow.copy()               # one pass (zeros, then a copy into them, were two)
    else:
        out = np.zeros((top,) + elem, flow.dtype)
        out[:n] = flow
    if len(indices) == 1 and len(value) == 1:
        out[indices[0]] = value[0]      # a write: basic indexing, no fancy-index machinery
    else:
        out[indices] = value
    return out


def _scatter_infer(ins: list, attrs: dict) -> tuple:
    flow, _, value = ins
    elem = _element_shape(flow.shape)
    velem = _element_shape(value.shape)
    if elem.rank is not None and velem.rank is not None and not elem.is_compatible_with(velem):
        if attrs.get("ragged"):     # a list of elements of different shapes
            return flow.dtype.base_dtype, unknown_shape()
        raise ValueError("Could not write to TensorArray: the value's element shape %s is "
                         "incompatible with the TensorArray's element shape %s" % (velem, elem))
    merged = velem if elem.rank is None else (elem if velem.rank is None
                                              else elem.merge_with(velem))
    if attrs["dynamic_size"]:
        first = TensorShape([None])
    else:
        first = flow.shape[:1] if flow.shape.rank is not None else TensorShape([attrs["rows"]])
    return flow.dtype.base_dtype, first.concatenate(merged) if merged.rank is not None \
        else unknown_shape()


@defop("TensorArrayScatter", _scatter_kernel, _scatter_infer,
       input_names=("flow", "indices", "value"))
def _scatter_grad(op: Any, grad: Any) -> list:
    flow, indices, value = op.inputs
    grad = _dense(grad)
    d_value = _gather(grad, indices)
    cleared = apply_op("TensorArrayScatter", [grad, indices, zeros_like(d_value)],
                       {"dynamic_size": False, "rows": None})
    return [_pad_rows(cleared, flow), None, d_value]


def _pad_rows_kernel(x: np.ndarray, like: np.ndarray) -> np.ndarray:
    if x.shape[1:] != like.shape[1:]:                     # ``like`` held no element yet
        return np.zeros(like.shape, x.dtype)
    n = like.shape[0]
    if x.shape[0] >= n:
        return x[:n]
    out = np.zeros(like.shape, x.dtype)
    out[:x.shape[0]] = x
    return out


@defop("TensorArrayPadRows", _pad_rows_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, ins[1].shape), input_names=("x", "like"))
def _pad_rows_grad(op: Any, grad: Any) -> list:
    return [_pad_rows(_dense(grad), op.inputs[0]), None]


def _dense(grad: Any) -> Any:
    """A gradient as a dense tensor (gathers' gradients arrive as IndexedSlices)."""
    return to_dense(grad) if isinstance(grad, IndexedSlices) else grad


def _pad_rows(x: Any, like: Any) -> Any:
    """``x`` cut or zero-padded to the number of rows of ``like`` (zeros if it held none)."""
    return apply_op("TensorArrayPadRows", [x, like])


# --------------------------------------------------------------------------------------
# TensorArray


def _initial_size(size: Any, dynamic_size: bool) -> Any:
    """``size``, or 0 for a dynamic-size array given none (ValueError for a fixed-size one)."""
    if size is None:
        if not dynamic_size:
            raise ValueError("Size must be provided if dynamic_size is False")
        return 0
    return size


class TensorArray:
    """A list of tensors written and read by index (``tf.TensorArray``); see the module doc.

    Created eagerly it is an ``EagerTensorArray`` (a Python list, as TensorFlow's).

    Args:
        dtype: The dtype of the elements.
        size: The number of elements (an int or a scalar int tensor).
        dynamic_size: Whether writes past ``size`` grow the array.
        clear_after_read: Whether a read clears the element (TF1's default: True).
        tensor_array_name: A name for the array (TF1).
        handle: Accepted for TensorFlow's signature (flowgrad's arrays have no handle).
        flow: The flow tensor of an existing array, to wrap it (as TensorFlow's ``flow=``).
        infer_shape: Whether all elements must have the first written element's shape.
        element_shape: The shape each element has, where known.
        colocate_with_first_write_call: Accepted, as TensorFlow's (no devices here).
        name: A name for the operation (optional).
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is TensorArray and executing_eagerly() and kwargs.get("flow") is None and \
                (len(args) < 7 or args[6] is None):
            cls = EagerTensorArray
        return object.__new__(cls)

    def __init__(self, dtype: DTypeLike, size: TensorLike | None = None,
                 dynamic_size: bool | None = None, clear_after_read: bool | None = None,
                 tensor_array_name: str | None = None, handle: Any = None, flow: Any = None,
                 infer_shape: bool = True, element_shape: Any = None,
                 colocate_with_first_write_call: bool = True, name: str | None = None):
        self._set_options(dtype, dynamic_size, clear_after_read, infer_shape)
        self._name = name or tensor_array_name or "TensorArray"
        self._rows = None          # the static size (None: dynamic_size, or known at run time)
        if flow is not None:
            self._flow = convert_to_tensor(flow, self._dtype)
            self._known = [_element_shape(self._flow.shape)]
            return
        size = _initial_size(size, self._dynamic_size)
        if isinstance(size, Dimension):
            size = size.value
        if not self._dynamic_size and isinstance(size, (int, np.integer)):
            self._rows = int(size)
        elem = as_shape(element_shape) if element_shape is not None else unknown_shape()
        # The element shape known so far, one cell shared by every array made from this one
        # (a loop's body and its result too), as TensorFlow's: a write inside a while loop
        # tells the array after the loop its element shape.
        self._known = [elem]
        with name_scope(name, "TensorArray"):
            self._flow = apply_op("TensorArrayZeros", [convert_to_tensor(size, dtypes.int32)],
                                  {"dtype": self._dtype, "element_shape": elem,
                                   "dynamic_size": self._dynamic_size})

    def _set_options(self, dtype: Any, dynamic_size: bool | None,
                     clear_after_read: bool | None, infer_shape: bool) -> None:
        """Stores the options that graph and eager TensorArrays both keep."""
        self._dtype = dtypes.as_dtype(dtype).base_dtype
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._infer_shape = infer_shape

    def _from_flow(self, flow: Any) -> TensorArray:
        """A TensorArray like this one around ``flow`` (tf.while_loop rebuilds loop vars so)."""
        ta = object.__new__(TensorArray)              # a flow-backed array, also eagerly
        ta.__dict__.update(self.__dict__)
        ta._flow = flow
        return ta

    # -- properties -------------------------------------------------------------------
    @property
    def flow(self) -> Any:
        """The tensor holding the elements (``[size, *element_shape]``)."""
        return self._flow

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        return self._with_known(_element_shape(self._flow.shape))

    def _with_known(self, elem: TensorShape) -> TensorShape:
        """``elem`` completed by the element shape the writes so far have shown."""
        known = self._known[0]
        return elem.merge_with(known) if elem.is_compatible_with(known) else elem

    def _shaped(self, t: Any, lead: list | None) -> Any:
        """``t`` (dims ``lead`` then an element) with the element shape known so far."""
        known = self._known[0]
        if lead is not None and known.rank is not None and t.shape.rank is None:
            t.set_shape(TensorShape(lead).concatenate(known))
        return t

    @property
    def handle(self) -> Any:
        return self._flow

    def _as_tensor(self) -> Any:
        return self._flow

    # -- reading ----------------------------------------------------------------------
    def size(self, name: str | None = None) -> Any:
        """The number of elements (an int32 scalar)."""
        n = _rows(self._flow)
        if n is not None and not self._dynamic_size:
            return convert_to_tensor(int(n), dtypes.int32)
        return _gather(_shape(self._flow), 0, name=name)

    def read(self, index: Any, name: str | None = None) -> Any:
        """The element at ``index``."""
        return self._shaped(_gather(self._flow, index, name=name), [])

    def stack(self, name: str | None = None) -> Any:
        """All elements stacked along a new first axis."""
        return self._shaped(identity(self._flow, name=name), [None])

    def gather(self, indices: TensorLike, name: str | None = None) -> Any:
        """The elements at ``indices``, stacked."""
        indices = convert_to_tensor(indices, dtypes.int32)
        return self._shaped(_gather(self._flow, indices, name=name),
                            indices.shape.as_list() if indices.shape.rank is not None else None)

    def concat(self, name: str | None = None) -> Any:
        """The elements concatenated along their first axis (elements of one shape)."""
        s = _shape(self._flow)
        return reshape(self._flow, _concat([[-1], s[2:]], 0), name=name)

    # -- writing (each returns a new TensorArray) ---------------------------------------
    def write(self, index: Any, value: TensorLike, name: str | None = None) -> TensorArray:
        """A TensorArray with ``value`` at ``index``."""
        value = convert_to_tensor(value, self._dtype)
        idx = expand_dims(convert_to_tensor(index, dtypes.int32), 0)
        return self._scatter(idx, expand_dims(value, 0), name)

    def scatter(self, indices: TensorLike, value: TensorLike,
                name: str | None = None) -> TensorArray:
        """A TensorArray with row ``k`` of ``value`` at ``indices[k]``."""
        return self._scatter(convert_to_tensor(indices, dtypes.int32),
                             convert_to_tensor(value, self._dtype), name)

    def unstack(self, value: TensorLike, name: str | None = None) -> TensorArray:
        """A TensorArray holding the rows of ``value``."""
        value = convert_to_tensor(value, self._dtype)
        if value.shape.rank == 0:
            raise ValueError("TensorArray.unstack needs a value of rank >= 1, got a scalar")
        n, m = _rows(self._flow), _rows(value)
        if not self._dynamic_size and n is not None and m is not None and m > n:
            raise ValueError("Tried to unstack %d elements into a TensorArray of size %d"
                             % (m, n))
        if n == 0 or (n is not None and n == m):
            return self._from_flow(identity(value, name=name))
        return self._scatter(_range_like(value), value, name)

    def split(self, value: TensorLike, lengths: Any, name: str | None = None) -> TensorArray:
        """A TensorArray of ``value`` split along its first axis into pieces of ``lengths``
        (pieces of one length only)."""
        lengths = np.asarray(lengths).reshape(-1)
        if len(set(lengths.tolist())) > 1:
            raise ValueError("flowgrad's TensorArray.split needs pieces of one length, got %s"
                             % lengths.tolist())
        value = convert_to_tensor(value, self._dtype)
        k = len(lengths)
        piece = reshape(value, _concat([[k, -1], _shape(value)[1:]], 0))
        return self.unstack(piece, name=name)

    def _scatter(self, indices: Any, value: Any, name: str | None) -> TensorArray:
        flow = apply_op("TensorArrayScatter", [self._flow, indices, value],
                        {"dynamic_size": self._dynamic_size, "rows": self._rows}, name=name)
        elem = _element_shape(value.shape)
        if self._infer_shape and self._known[0].is_compatible_with(elem):
            self._known[0] = self._known[0].merge_with(elem)
        return self._from_flow(flow)

    # -- no-ops kept for TensorFlow's API ---------------------------------------------
    def identity(self) -> TensorArray:
        return self._from_flow(identity(self._flow))

    def close(self, name: str | None = None) -> None:
        """Does nothing (a TensorArray holds no resources)."""

    def mark_used(self) -> None:
        """Does nothing."""

    def __repr__(self) -> str:
        return "<TensorArray dtype=%s element_shape=%s dynamic_size=%s>" % (
            self._dtype.name, self.element_shape, self._dynamic_size)


class EagerTensorArray(TensorArray):
    """An eagerly created TensorArray: a Python list of tensors, written in place (``write``
    returns the array itself), as TensorFlow's eager TensorArray. Its ops are ordinary
    eager ops (``stack`` is a Pack, ``unstack`` an Unpack), so tapes differentiate it."""

    def __init__(self, dtype: DTypeLike, size: TensorLike | None = None,
                 dynamic_size: bool | None = None, clear_after_read: bool | None = None,
                 tensor_array_name: str | None = None, handle: Any = None, flow: Any = None,
                 infer_shape: bool = True, element_shape: Any = None,
                 colocate_with_first_write_call: bool = True, name: str | None = None):
        self._set_options(dtype, dynamic_size, clear_after_read, infer_shape)
        self._element_shape = as_shape(element_shape) if element_shape is not None \
            else unknown_shape()
        size = _initial_size(size, self._dynamic_size)
        self._items: list = [None] * int(convert_to_tensor(size))
        self._previously_read: set = set()
        self._flow = convert_to_tensor(0, dtypes.int32)

    @property
    def element_shape(self) -> TensorShape:
        return self._element_shape

    def _as_tensor(self) -> Any:
        return self.stack()

    def size(self, name: str | None = None) -> Any:
        return convert_to_tensor(len(self._items), dtypes.int32)

    def _index(self, index: Any, what: str) -> int:
        i = int(convert_to_tensor(index))
        if i < 0:
            raise errors.OutOfRangeError(None, None, "%s negative indices (index %d) is not "
                                         "allowed." % (what, i))
        return i

    def _maybe_zero(self, i: int) -> Any:
        v = self._items[i]
        if v is None:
            if not self._element_shape.is_fully_defined():
                raise errors.InvalidArgumentError(
                    None, None, "Could not read from TensorArray index %d: it has not been "
                    "written to and the element shape %s is not fully defined"
                    % (i, self._element_shape))
            v = self._items[i] = _zeros(self._element_shape.as_list(), self._dtype)
        return v

    def read(self, index: Any, name: str | None = None) -> Any:
        i = self._index(index, "Reading from")
        if i >= len(self._items):
            raise errors.OutOfRangeError(None, None, "Tried to read from index %d but array "
                                         "size is: %d" % (i, len(self._items)))
        if self._items[i] is None and i in self._previously_read:
            raise errors.InvalidArgumentError(
                None, None, "Could not read index %d twice because it was cleared after a "
                "previous read (perhaps try setting clear_after_read = false?)" % i)
        value = self._maybe_zero(i)
        if self._clear_after_read:
            self._items[i] = None
            self._previously_read.add(i)
        return value

    def _write(self, index: Any, value: Any) -> None:
        i = self._index(index, "Writing to")
        if i >= len(self._items):
            if not self._dynamic_size:
                raise errors.OutOfRangeError(
                    None, None, "Tried to write to index %d but array is not resizeable and "
                    "size is: %d" % (i, len(self._items)))
            self._items.extend([None] * (i + 1 - len(self._items)))
        value = convert_to_tensor(value, self._dtype)
        if not self._element_shape.is_compatible_with(value.shape):
            raise ValueError("Incompatible shape for value (%s), expected (%s)"
                             % (value.shape, self._element_shape))
        if self._infer_shape:
            self._element_shape = self._element_shape.merge_with(value.shape)
        self._items[i] = value

    def write(self, index: Any, value: TensorLike, name: str | None = None) -> EagerTensorArray:
        self._write(index, value)
        return self

    def stack(self, name: str | None = None) -> Any:
        items = [self._maybe_zero(i) for i in range(len(self._items))]
        if items:
            return _stack(items)
        dims = self._element_shape.as_list() if self._element_shape.is_fully_defined() else []
        return _zeros([0] + dims, self._dtype)

    def gather(self, indices: TensorLike, name: str | None = None) -> Any:
        idx = np.asarray(convert_to_tensor(indices)).reshape(-1)
        return _stack([self._maybe_zero(int(i)) for i in idx])

    def concat(self, name: str | None = None) -> Any:
        return _concat([self._maybe_zero(i) for i in range(len(self._items))], 0)

    def unstack(self, value: TensorLike, name: str | None = None) -> EagerTensorArray:
        rows = _unstack(convert_to_tensor(value, self._dtype))
        if len(rows) > len(self._items) and not self._dynamic_size:
            raise ValueError("Cannot unstack %d tensors into a TensorArray of static size %d"
                             % (len(rows), len(self._items)))
        self._items = list(rows)
        return self

    def scatter(self, indices: TensorLike, value: TensorLike,
                name: str | None = None) -> EagerTensorArray:
        idx = np.asarray(convert_to_tensor(indices)).reshape(-1)
        for i, row in zip(idx, _unstack(convert_to_tensor(value, self._dtype))):
            self._write(int(i), row)
        return self

    def split(self, value: TensorLike, lengths: Any, name: str | None = None) -> EagerTensorArray:
        value = convert_to_tensor(value, self._dtype)
        lengths = [int(n) for n in np.asarray(convert_to_tensor(lengths)).reshape(-1)]
        if value.shape.rank == 0 or sum(lengths) != value.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, "Expected sum of lengths to be equal to values.shape[0], but sum "
                "of lengths is %d and value's shape is: %s " % (sum(lengths), value.shape))
        if not self._dynamic_size and len(lengths) != len(self._items):
            raise errors.InvalidArgumentError(
                None, None, "TensorArray's size is not equal to the size of lengths (%d vs. "
                "%d), and the TensorArray is not marked as dynamically resizeable"
                % (len(self._items), len(lengths)))
        self._items = list(_split(value, lengths))
        return self

    def identity(self) -> EagerTensorArray:
        return self

    def close(self, name: str | None = None) -> None:
        del self._items[:]

    def __repr__(self) -> str:
        return "<TensorArray dtype=%s size=%d element_shape=%s dynamic_size=%s>" % (
            self._dtype.name, len(self._items), self._element_shape, self._dynamic_size)


def _rows(t: Any) -> int | None:
    """The static number of rows of ``t`` (None if unknown)."""
    dims = t.shape.as_tuple()
    return dims[0] if dims else None


def _range_like(value: Any) -> Any:
    """0, 1, ..., rows(value) - 1 as int32."""
    return _range(_gather(_shape(value), 0))


__all__ = ["TensorArray", "EagerTensorArray"]
