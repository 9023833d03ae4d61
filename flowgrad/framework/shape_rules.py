"""Shape/dtype rules shared by many ops, and static (build-time) tensor values."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import ShapeRuleError
from flowgrad.framework.op_call import argument_error
from flowgrad.framework.tensor import EagerTensor, Tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes, unknown_shape
from flowgrad.framework.type_hints import AxisLike


def unary(ins: list, attrs: dict) -> tuple:
    """Output like input 0."""
    return ins[0].dtype.base_dtype, ins[0].shape


def binary(ins: list, attrs: dict) -> tuple:
    """NumPy broadcasting of two inputs of one dtype."""
    return ins[0].dtype.base_dtype, broadcast_shapes(ins[0].shape, ins[1].shape)


def comparison(ins: list, attrs: dict) -> tuple:
    """Broadcasting, bool result."""
    return dtypes.bool, broadcast_shapes(ins[0].shape, ins[1].shape)


def of_dtype(dtype: dtypes.DType, rule: Any) -> Any:
    """A rule giving ``rule``'s shape with a fixed dtype."""
    def infer(ins: list, attrs: dict) -> tuple:
        return dtype, rule(ins, attrs)[1]
    return infer


def normalize_axis(axis: AxisLike, rank: int | None) -> tuple | None:
    """A sorted tuple of axes (None = all), non-negative where the rank is known (with an
    unknown rank, negative axes stay negative and are resolved when the op runs)."""
    if axis is None or type(axis) is int or type(axis) is tuple:
        key = (axis, rank)
        ax = _axis_cache.get(key)
        if ax is None:
            ax = _axis_cache[key] = _normalize_axis(axis, rank)
        return ax
    return _normalize_axis(axis, rank)


_axis_cache: dict = {}


def _normalize_axis(axis: Any, rank: int | None) -> tuple | None:
    if axis is None:
        return None
    axes = [int(a) for a in np.ravel(axis)]
    if rank is None:
        return tuple(sorted(set(axes)))
    out = set()
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise ShapeRuleError("Invalid reduction dimension %d for input with %d dimensions."
                                 % (a, rank), "Invalid reduction dimension (%d for input with "
                                 "%d dimension(s)" % (a, rank))
        out.add(a % rank if rank else 0)
    return tuple(sorted(out))


def reduced_shape(shape: TensorShape, axis: tuple | None, keepdims: bool) -> TensorShape:
    """Static shape after reducing ``axis`` (None = all)."""
    if shape.rank is None:
        return TensorShape(None) if axis is not None or keepdims else TensorShape(())
    dims = shape.as_list()
    if axis is None:
        return TensorShape([1] * len(dims) if keepdims else [])
    if keepdims:
        return TensorShape([1 if i in axis else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in axis])


def check_gradient_shapes(grads_and_vars: Any) -> None:
    """Raises unless every gradient has its variable's shape (an IndexedSlices: its rows'
    shape), naming the variable; optimizers call it before they write any variable."""
    for g, v in grads_and_vars:
        if g is None:
            continue
        want = v.shape
        if hasattr(g, "indices") and hasattr(g, "values"):     # IndexedSlices
            got = _shape_of(g.values)
            if got.rank is None or want.rank is None or \
                    got[1:].is_compatible_with(want[1:]):
                continue
            what = "gradient rows of shape %s" % got[1:]
        else:
            got = _shape_of(g)
            if got.is_compatible_with(want):
                continue
            what = "a gradient of shape %s" % got
        raise argument_error("Cannot update variable %s of shape %s with %s"
                             % (v.name, want, what))


def _shape_of(x: Any) -> TensorShape:
    s = getattr(x, "shape", None)
    return s if isinstance(s, TensorShape) else TensorShape(np.shape(x))


def constant_value(t: Any) -> Any:
    """The value of ``t`` if it is known when the graph is built, else None."""
    if isinstance(t, EagerTensor):
        return t._value
    if not isinstance(t, Tensor):
        return None
    op = t.op
    typ = op.type
    if typ == "Const":
        return op._attrs["value"]
    if typ == "Shape":
        s = op.inputs[0].shape
        if s.is_fully_defined():
            return np.array(s.as_list(), dtype=t.dtype.np)
    elif typ == "Size":
        n = op.inputs[0].shape.num_elements()
        if n is not None:
            return np.array(n, dtype=t.dtype.np)
    elif typ == "Rank":
        r = op.inputs[0].shape.rank
        if r is not None:
            return np.array(r, dtype=np.int32)
    elif typ in ("Identity", "StopGradient"):
        return constant_value(op.inputs[0])
    elif typ == "Cast":
        v = constant_value(op.inputs[0])
        return None if v is None else np.asarray(v).astype(t.dtype.np)
    elif typ == "Pack":
        vals = [constant_value(x) for x in op.inputs]
        if all(v is not None for v in vals):
            return np.stack(vals, axis=op._attrs.get("axis", 0))
    return None


def shape_from_value(t: Any) -> TensorShape:
    """A static shape from a shape-valued tensor (partially known if possible)."""
    v = constant_value(t)
    if v is not None:
        return TensorShape([None if d < 0 else int(d) for d in np.ravel(v)])
    if isinstance(t, Tensor) and t.op.type == "Pack":
        return TensorShape([_dim(x) for x in t.op.inputs])
    if isinstance(t, Tensor) and t.op.type == "Shape":
        return t.op.inputs[0].shape
    if isinstance(t, Tensor) and t.op.type == "StridedSlice" and len(t.op.inputs) == 1 \
            and t.op.inputs[0].op.type == "Shape":
        return _sliced_shape(t.op)
    if isinstance(t, Tensor) and t.op.type == "ConcatV2" and "axis" in t.op._attrs:
        parts = [shape_from_value(x) for x in t.op.inputs]
        if all(p.rank is not None for p in parts):
            return TensorShape([d for p in parts for d in p.as_tuple()])
    if isinstance(t, Tensor) and t.shape.rank == 1 and t.shape.as_tuple()[0] is not None:
        return unknown_shape(t.shape.as_tuple()[0])
    return TensorShape(None)


def _sliced_shape(op: Any) -> TensorShape:
    """``tf.shape(x)[b:e:s]`` as a partial shape (unknown where the slice is not plain)."""
    a = op._attrs
    dims = op.inputs[0].op.inputs[0].shape
    if (dims.rank is None or a.get("shrink_axis_mask") or a.get("new_axis_mask")
            or a.get("ellipsis_mask") or len(a.get("begin", ())) != 1):
        return TensorShape(None)
    begin = None if a.get("begin_mask", 0) & 1 else int(a["begin"][0])
    end = None if a.get("end_mask", 0) & 1 else int(a["end"][0])
    return TensorShape(list(dims.as_tuple()[begin:end:int(a["strides"][0])]))


def _dim(x: Any) -> int | None:
    v = _scalar_dim(x)
    return None if v is None or int(v) < 0 else int(v)


_DIM_ARITHMETIC = {"Mul": lambda a, b: a * b, "AddV2": lambda a, b: a + b,
                   "Add": lambda a, b: a + b, "Sub": lambda a, b: a - b,
                   "FloorDiv": lambda a, b: a // b}


def _scalar_dim(x: Any) -> int | None:
    """A scalar shape entry known when the graph is built, as TF's shape inference finds it.

    Beyond ``constant_value``: ``tf.shape(x)[i]`` where dimension ``i`` of ``x`` is known, and
    integer arithmetic of such entries (TensorFlow evaluates these small subgraphs, so
    ``tf.stack([tf.shape(x)[0], 10])`` as a shape keeps a known batch size).
    """
    v = constant_value(x)
    if v is not None:
        return int(v) if np.ndim(v) == 0 else None
    if not isinstance(x, Tensor) or x.shape.rank != 0:
        return None
    op = x.op
    if op.type == "StridedSlice" and op.inputs[0].op.type == "Shape":
        begin = (constant_value(op.inputs[1]) if len(op.inputs) > 1
                 else op._attrs.get("begin"))
        if begin is None or np.size(begin) != 1 or not op._attrs.get("shrink_axis_mask", 0) & 1:
            return None
        dims = op.inputs[0].op.inputs[0].shape
        if dims.rank is None or not -dims.rank <= int(np.ravel(begin)[0]) < dims.rank:
            return None
        return dims.as_tuple()[int(np.ravel(begin)[0])]
    if op.type in _DIM_ARITHMETIC and x.dtype.is_integer:
        a, b = (_scalar_dim(i) for i in op.inputs)
        if a is None or b is None or (op.type == "FloorDiv" and b == 0):
            return None
        return int(_DIM_ARITHMETIC[op.type](a, b))
    return None
