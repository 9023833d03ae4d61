"""Shape-polymorphic gradient helpers: undo or redo broadcasting using a tensor's run-time shape.

Gradients of broadcasting and reducing ops need the forward input's shape. When it is
known when the graph is built they use static reductions and reshapes; when it is not
(a placeholder's batch dimension, say) they use these fused ops, which read the shape
of a "like" tensor at run time instead of materialising Shape/BroadcastGradientArgs ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, TensorLike

_reduce_axes_cache: dict = {}


def _reduce_axes(gs: tuple, ls: tuple) -> tuple:
    key = (gs, ls)
    axes = _reduce_axes_cache.get(key)
    if axes is None:
        lead = len(gs) - len(ls)
        if lead < 0:
            raise ValueError("cannot sum a gradient of shape %s to shape %s" % (gs, ls))
        axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(ls)
                                          if d == 1 and gs[lead + i] != 1)
        _reduce_axes_cache[key] = axes
    return axes


def _reduce_to_shape_of(g: Any, like: Any) -> Any:
    gs, ls = np.shape(g), np.shape(like)
    if gs == ls:
        return g
    axes = _reduce_axes(gs, ls)
    r = np.add.reduce(g, axis=axes) if axes else g
    return np.reshape(r, ls)


@defop("ReduceToShapeOf", _reduce_to_shape_of,
       lambda ins, attrs: (ins[0].dtype.base_dtype, ins[1].shape), view=True,
       input_names=("grad", "like"), shape_only=(1,))
def _reduce_to_shape_of_grad(op: Any, grad: Any) -> Any:
    return broadcast_to_shape_of(grad, op.inputs[0]), None


def reduce_to_shape_of(grad: TensorLike, like: Any) -> Any:
    """``grad`` summed over the axes along which ``like`` was broadcast (shape of ``like``)."""
    return apply_op("ReduceToShapeOf", [grad, like])


def _broadcast_to_shape_of(g: Any, like: Any, axes: Any = None) -> Any:
    shape = np.shape(like)
    if axes and shape:
        kept = {a % len(shape) for a in axes}     # negative axes: the rank was unknown
        g = np.reshape(g, [1 if i in kept else d for i, d in enumerate(shape)])
    out = np.empty(shape, g.dtype)
    out[...] = g
    return out


@defop("BroadcastToShapeOf", _broadcast_to_shape_of,
       lambda ins, attrs: (ins[0].dtype.base_dtype, ins[1].shape),
       input_names=("input", "like"))
def _broadcast_to_shape_of_grad(op: Any, grad: Any) -> Any:
    axes = op.get_attr("axes")
    g = hooks.reduce_sum(grad, axes) if axes else grad
    return hooks.sum_to(g, op.inputs[0]), None


def broadcast_to_shape_of(x: TensorLike, like: Any, axes: tuple | None = None) -> Any:
    """``x`` (with size-1 axes ``axes`` re-inserted first) broadcast to the shape of ``like``."""
    return apply_op("BroadcastToShapeOf", [x, like], {"axes": axes})


def _reduced_size(x: Any, *, axes: Any, dtype: Any) -> Any:
    s = np.shape(x)
    if axes is not None:    # negative or repeated axes: the rank was unknown when built
        s = [s[a] for a in {a % len(s) for a in axes}] if s else []
    n = 1
    for d in s:
        n *= d
    return dtype.np.type(n)


register_op("ReducedSize", _reduced_size,
            lambda ins, attrs: (attrs["dtype"], TensorShape(())), grad=_NO_GRADIENT,
            input_names=("input",))


def reduced_size(x: TensorLike, axes: tuple | None, dtype: DTypeLike) -> Any:
    """The number of elements of ``x`` along ``axes`` (all if None), as a ``dtype`` scalar."""
    return apply_op("ReducedSize", [x], {"axes": axes, "dtype": dtypes.as_dtype(dtype)})
