"""TensorFlow's stateful TensorArray ops (``TensorArrayV3``, ``TensorArrayWriteV3``,
``ReadV3``, ``GatherV3``, ``ScatterV3``, ``ConcatV3``, ``SplitV3``, ``SizeV3``, ``CloseV3``,
``TensorArrayGradV3``): the ``tf.TensorArray`` of TensorFlow 1 graphs (control flow v1).

flowgrad's own graph-mode TensorArray keeps its elements in its flow
(``flowgrad.ops.tensor_array_ops``); the graphs TensorFlow 1 wrote keep them in a resource
instead, and flowgrad imports them (``flowgrad.saved_model.control_flow_v1_import``) with
these ops, which behave as TensorFlow's kernels: ``TensorArrayV3`` makes a new array each
time it runs (a handle, a scalar holding it, and a flow, a float scalar whose only use is to
order the ops that write and read the array); writes, reads and the rest act on the array
the handle holds. As in TensorFlow, an array that is not ``dynamic_size`` cannot grow, an
element is written once, ``clear_after_read`` clears it on reading, an element not written
reads as zeros when its shape is known, and ``TensorArrayGradV3`` makes (once per
``source``) the gradient array of an array: of its size and element shapes, where writes to
one index add up. The ops TensorFlow does not differentiate (``TensorArrayV3``,
``SizeV3``, ``CloseV3``, ``GradV3``) are not differentiable; the reads and writes have no
gradient in flowgrad (``tf.gradients`` through them is a LookupError naming the op): the
graphs that need these kernels hold their gradients already (TensorFlow 1's
``tf.gradients`` wrote them), and an array without TensorFlow's gradient is imported as
flowgrad's own, differentiable TensorArray instead."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.ops.stack_ops import handle_value

_SCALAR = TensorShape([])
_UNWRITTEN = object()
_CLEARED = object()


class TensorArray:
    """One array's elements (what a ``TensorArrayV3`` handle holds)."""

    def __init__(self, name: str, dtype: dtypes.DType, size: int, element_shape: TensorShape,
                 dynamic_size: bool, clear_after_read: bool, aggregate: bool = False) -> None:
        self.name, self.dtype = name, dtype
        self.element_shape = element_shape
        self.dynamic_size = dynamic_size
        self.clear_after_read = clear_after_read
        self.aggregate = aggregate            # a gradient array: writes to an index add up
        self.values: list = [_UNWRITTEN] * size
        self.shapes: list = [None] * size     # known shapes of elements not written (grads)
        self.grads: dict = {}
        self.closed = False

    def __repr__(self) -> str:
        return "<TensorArray %s: %d elements>" % (self.name, len(self.values))

    def _index(self, index: Any, what: str) -> int:
        i = int(index)
        if i < 0:
            raise InvalidArgumentError(None, None, "TensorArray %s: Tried to %s index %d but "
                                       "it is negative." % (self.name, what, i))
        return i

    def write(self, index: Any, value: Any) -> None:
        i = self._index(index, "write to")
        v = np.asarray(value, self.dtype.np)
        if i >= len(self.values):
            if not self.dynamic_size:
                raise InvalidArgumentError(
                    None, None, "TensorArray %s: Tried to write to index %d but array is not "
                    "resizeable and size is: %d" % (self.name, i, len(self.values)))
            grow = i + 1 - len(self.values)
            self.values += [_UNWRITTEN] * grow
            self.shapes += [None] * grow
        if not self.element_shape.is_compatible_with(v.shape):
            raise InvalidArgumentError(
                None, None, "TensorArray %s: Could not write to TensorArray index %d because "
                "the value shape is %s which is incompatible with the TensorArray's inferred "
                "element shape: %s (consider setting infer_shape=False)."
                % (self.name, i, _shape_str(TensorShape(v.shape)),
                   _shape_str(self.element_shape)))
        old = self.values[i]
        if old is _CLEARED:
            raise InvalidArgumentError(None, None, "TensorArray %s: Could not write to "
                                       "TensorArray index %d because it has already been read "
                                       "and cleared." % (self.name, i))
        if old is not _UNWRITTEN:
            if not self.aggregate:
                raise InvalidArgumentError(
                    None, None, "TensorArray %s: Could not write to TensorArray index %d "
                    "because it has already been written to." % (self.name, i))
            if old.shape != v.shape:
                raise InvalidArgumentError(
                    None, None, "TensorArray %s: Could not aggregate to TensorArray index %d "
                    "because the existing shape is %s but the new input shape is %s."
                    % (self.name, i, list(old.shape), list(v.shape)))
            v = old + v
        self.values[i] = v

    def read(self, index: Any) -> np.ndarray:
        i = self._index(index, "read from")
        if i >= len(self.values):
            raise InvalidArgumentError(None, None, "Tried to read from index %d but array "
                                       "size is: %d" % (i, len(self.values)))
        v = self.values[i]
        if v is _CLEARED:
            raise InvalidArgumentError(
                None, None, "TensorArray %s: Could not read index %d twice because it was "
                "cleared after a previous read (perhaps try setting clear_after_read = false?)."
                % (self.name, i))
        if v is _UNWRITTEN:
            shape = self.shapes[i] or self.element_shape
            if not shape.is_fully_defined():
                raise InvalidArgumentError(
                    None, None, "TensorArray %s: Could not read from TensorArray index %d.  "
                    "Furthermore, the element shape is not fully defined: %s.  It is possible "
                    "you are working with a resizeable TensorArray and stop_gradients is not "
                    "allowing the gradients to be written.  If you set the full element_shape "
                    "property on the forward TensorArray, the proper all-zeros tensor will be "
                    "returned instead of incurring this error."
                    % (self.name, i, _shape_str(shape)))
            return np.zeros(shape.as_tuple(), self.dtype.np)
        if self.clear_after_read:
            self.values[i] = _CLEARED
        return v

    def stacked(self, indices: Any, element_shape: TensorShape) -> np.ndarray:
        idx = [int(i) for i in np.ravel(indices)]
        if not idx:
            shape = self.element_shape if self.element_shape.rank is not None else element_shape
            if not shape.is_fully_defined():
                raise InvalidArgumentError(
                    None, None, "TensorArray %s: TensorArray has size zero, but element shape "
                    "%s is not fully defined. Currently only static shapes are supported when "
                    "packing zero-size TensorArrays." % (self.name, _shape_str(shape)))
            return np.zeros((0,) + shape.as_tuple(), self.dtype.np)
        values = [self.read(i) for i in idx]
        first = values[0].shape
        for k, v in zip(idx, values):
            if v.shape != first:
                raise InvalidArgumentError(
                    None, None, "TensorArray %s: Could not read from TensorArray index %d: "
                    "its shape %s differs from the first element's %s" % (self.name, k,
                                                                           list(v.shape),
                                                                           list(first)))
        return np.stack(values).reshape((len(idx),) + first)

    def grad(self, source: str) -> TensorArray:
        g = self.grads.get(source)
        if g is None:
            g = TensorArray("%s@%s" % (self.name, source), self.dtype, len(self.values),
                            self.element_shape, False, True, aggregate=True)
            for i, v in enumerate(self.values):
                if isinstance(v, np.ndarray):
                    g.shapes[i] = TensorShape(v.shape)
            self.grads[source] = g
        return g


def _shape_str(shape: TensorShape) -> str:
    """A shape as TensorFlow's messages write it (``[?,3]``, ``<unknown>``)."""
    if shape.rank is None:
        return "<unknown>"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in shape.as_list())


def _array(handle: Any, op: str) -> TensorArray:
    ta = np.asarray(handle, object).reshape(())[()]
    if not isinstance(ta, TensorArray):
        raise InvalidArgumentError(None, None, "%s: the handle does not hold a TensorArray" % op)
    return ta


def _flow() -> np.ndarray:
    return np.zeros((), np.float32)


def _new_kernel(size: Any, *, dtype: dtypes.DType, element_shape: TensorShape = None,
                dynamic_size: bool = False, clear_after_read: bool = True,
                identical_element_shapes: bool = False, tensor_array_name: str = "") -> tuple:
    if int(size) < 0:
        raise InvalidArgumentError(None, None, "TensorArray %s: size must be >= 0, got %d"
                                   % (tensor_array_name, int(size)))
    shape = element_shape if element_shape is not None else unknown_shape()
    return handle_value(TensorArray(tensor_array_name, dtype, int(size), shape, dynamic_size,
                                    clear_after_read)), _flow()


def _write_kernel(handle: Any, index: Any, value: Any, flow_in: Any) -> np.ndarray:
    _array(handle, "TensorArrayWriteV3").write(index, value)
    return _flow()


def _read_kernel(handle: Any, index: Any, flow_in: Any, *, dtype: dtypes.DType) -> np.ndarray:
    return _array(handle, "TensorArrayReadV3").read(index)


def _gather_kernel(handle: Any, indices: Any, flow_in: Any, *, dtype: dtypes.DType,
                   element_shape: TensorShape = None) -> np.ndarray:
    return _array(handle, "TensorArrayGatherV3").stacked(
        indices, element_shape if element_shape is not None else unknown_shape())


def _scatter_kernel(handle: Any, indices: Any, value: Any, flow_in: Any) -> np.ndarray:
    ta = _array(handle, "TensorArrayScatterV3")
    idx = np.ravel(indices)
    v = np.asarray(value)
    if v.ndim == 0 or v.shape[0] != len(idx):
        raise InvalidArgumentError(None, None, "TensorArray %s: Expected len(indices) == "
                                   "values.shape[0], but saw: %d vs. %s"
                                   % (ta.name, len(idx), v.shape[0] if v.ndim else "scalar"))
    for k, i in enumerate(idx):
        ta.write(i, v[k])
    return _flow()


def _concat_kernel(handle: Any, flow_in: Any, *, dtype: dtypes.DType,
                   element_shape_except0: TensorShape = None) -> tuple:
    ta = _array(handle, "TensorArrayConcatV3")
    values = [ta.read(i) for i in range(len(ta.values))]
    lengths = np.array([v.shape[0] if v.ndim else 1 for v in values], np.int64)
    if not values:
        rest = element_shape_except0 if element_shape_except0 is not None else unknown_shape()
        if not rest.is_fully_defined():
            raise InvalidArgumentError(None, None, "TensorArray %s: TensorArray has size zero, "
                                       "but element_shape_except0 %s is not fully defined."
                                       % (ta.name, _shape_str(rest)))
        return np.zeros((0,) + rest.as_tuple(), ta.dtype.np), lengths
    if any(v.ndim == 0 for v in values):
        raise InvalidArgumentError(None, None, "TensorArray %s: Concat saw a scalar shape at "
                                   "index 0 but requires at least vectors." % ta.name)
    return np.concatenate(values), lengths


def _split_kernel(handle: Any, value: Any, lengths: Any, flow_in: Any) -> np.ndarray:
    ta = _array(handle, "TensorArraySplitV3")
    v = np.asarray(value)
    lengths = [int(n) for n in np.ravel(lengths)]
    if v.ndim == 0 or sum(lengths) != v.shape[0]:
        raise InvalidArgumentError(None, None, "TensorArray %s: Expected sum of lengths to be "
                                   "equal to values.shape[0], but sum of lengths is %d and "
                                   "value's shape is: %s" % (ta.name, sum(lengths),
                                                             list(v.shape)))
    start = 0
    for i, n in enumerate(lengths):
        ta.write(i, v[start:start + n])
        start += n
    return _flow()


def _size_kernel(handle: Any, flow_in: Any) -> np.ndarray:
    return np.array(len(_array(handle, "TensorArraySizeV3").values), np.int32)


def _close_kernel(handle: Any) -> None:
    _array(handle, "TensorArrayCloseV3").closed = True


def _grad_kernel(handle: Any, flow_in: Any, *, source: str) -> tuple:
    return handle_value(_array(handle, "TensorArrayGradV3").grad(source)), _flow()


def _elem_shape(a: dict, key: str) -> TensorShape:
    s = a.get(key)
    return s if isinstance(s, TensorShape) else unknown_shape()


def _flow_out(ins: list, a: dict) -> tuple:
    return dtypes.float32, _SCALAR


_H = (dtypes.string, _SCALAR)
_KW = {"grad": _NO_GRADIENT, "stateful": True}    # TensorFlow's NotDifferentiable ones
# reads and writes TensorFlow differentiates (tensor_array_grad.py) and flowgrad does not:
# tf.gradients through them is a LookupError naming the op, never a silent None
_RW = {"stateful": True}
register_op("TensorArrayV3", _new_kernel, lambda ins, a: [_H, (dtypes.float32, _SCALAR)],
            num_outputs=2, input_names=("size",), **_KW)
register_op("TensorArrayWriteV3", _write_kernel, _flow_out,
            input_names=("handle", "index", "value", "flow_in"), **_RW)
register_op("TensorArrayReadV3", _read_kernel,
            lambda ins, a: (a["dtype"], unknown_shape()),
            input_names=("handle", "index", "flow_in"), **_RW)
register_op("TensorArrayGatherV3", _gather_kernel,
            lambda ins, a: (a["dtype"], TensorShape([None]).concatenate(
                _elem_shape(a, "element_shape")) if _elem_shape(a, "element_shape").rank
                is not None else unknown_shape()),
            input_names=("handle", "indices", "flow_in"), **_RW)
register_op("TensorArrayScatterV3", _scatter_kernel, _flow_out,
            input_names=("handle", "indices", "value", "flow_in"), **_RW)
register_op("TensorArrayConcatV3", _concat_kernel,
            lambda ins, a: [(a["dtype"], TensorShape([None]).concatenate(
                _elem_shape(a, "element_shape_except0")) if _elem_shape(
                a, "element_shape_except0").rank is not None else unknown_shape()),
                (dtypes.int64, TensorShape([None]))],
            num_outputs=2, input_names=("handle", "flow_in"), **_RW)
register_op("TensorArraySplitV3", _split_kernel, _flow_out,
            input_names=("handle", "value", "lengths", "flow_in"), **_RW)
register_op("TensorArraySizeV3", _size_kernel, lambda ins, a: (dtypes.int32, _SCALAR),
            input_names=("handle", "flow_in"), **_KW)
register_op("TensorArrayCloseV3", _close_kernel, lambda ins, a: [], num_outputs=0,
            input_names=("handle",), **_KW)
register_op("TensorArrayGradV3", _grad_kernel, lambda ins, a: [_H, (dtypes.float32, _SCALAR)],
            num_outputs=2, input_names=("handle", "flow_in"), **_KW)
