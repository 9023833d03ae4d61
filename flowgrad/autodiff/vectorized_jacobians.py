"""Vectorized Jacobians of a GradientTape, and ``tf.vectorized_map``.

``GradientTape.jacobian``/``batch_jacobian`` with ``experimental_use_pfor=True`` (the
default) run the backward pass once with a dummy cotangent, then rerun the ops that
depend on it once for all rows of the Jacobian (``flowgrad.autodiff.pfor``). Eagerly, those
ops are the records of a second tape that watches the dummy cotangent; in a graph,
the ops that the backward pass added."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.autodiff.forward_mode import dummy
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.runtime.function import function
from flowgrad.autodiff.backprop import UnconnectedGradients
from flowgrad.ops import array_ops
from flowgrad.autodiff.pfor.vectorize import (Batch, batch_seeds, batched_gradients, seeds,
                                     vectorize_ops, warn_looped)
from flowgrad.framework.type_hints import TensorLike


def static_dims(t: Any, what: str) -> tuple:
    """``t``'s fully known shape; ValueError naming ``what`` otherwise."""
    dims = t.shape.as_tuple()
    if dims is None or None in dims:
        raise ValueError("%s needs a fully known shape, got %s" % (what, t.shape))
    return dims


def _vectorized_gradients(tape: Any, target: Any, sources: list, t_shape: tuple,
                          u_seeds: tuple, what: str) -> list:
    """The gradients of ``target`` for each of the n stacked cotangents: [n] + source shape.
    (``tape`` is a GradientTape; the eager recorder is a second tape of its class.)"""
    n, seed = u_seeds
    u = dummy(target)
    if isinstance(target, Tensor):
        g = get_default_graph()
        start = len(g._ops)
        grads = _dense(tape._gradients([target], sources, [u], UnconnectedGradients.NONE))
        ops = list(g._ops[start:])
    else:
        recorder = type(tape)(persistent=True)
        with recorder:
            recorder.watch(u)
            grads = _dense(tape._gradients([target], sources, [u], UnconnectedGradients.NONE))
        ops = recorder._records
    batch = Batch(n)
    batch.set(u, seed)
    vectorize_ops(ops, batch)
    warn_looped(batch, what)
    return batched_gradients(grads, batch)


def _dense(grads: list) -> list:
    return [None if g is None else convert_to_tensor(g) for g in grads]


def _finish(g: Any, source: Any, shape: tuple, unconnected: UnconnectedGradients) -> Any:
    if g is None:
        if unconnected is UnconnectedGradients.NONE:
            return None
        return array_ops.zeros(shape, source.dtype.base_dtype)
    return array_ops.reshape(g, shape)


def jacobian(tape: Any, target: Any, sources: list,
             unconnected: UnconnectedGradients) -> list:
    """Vectorized ``tape.jacobian``: target.shape + source.shape per source."""
    t_shape = static_dims(target, "jacobian target")
    u_seeds = seeds(t_shape, target.dtype.base_dtype)
    grads = _vectorized_gradients(tape, target, sources, t_shape, u_seeds, "jacobian")
    return [_finish(g, s, t_shape + static_dims(s, "jacobian source"), unconnected)
            for g, s in zip(grads, sources)]


def batch_jacobian(tape: Any, target: Any, source: Any,
                   unconnected: UnconnectedGradients) -> Any:
    """Vectorized ``tape.batch_jacobian``: [b] + target.shape[1:] + source.shape[1:]."""
    t_shape = static_dims(target, "batch_jacobian target")
    s_shape = static_dims(source, "batch_jacobian source")
    if not t_shape or not s_shape or t_shape[0] != s_shape[0]:
        raise ValueError("Need first dimension of target shape (%s) and source shape (%s) to "
                         "match." % (list(t_shape), list(s_shape)))
    u_seeds = batch_seeds(t_shape, target.dtype.base_dtype)
    (g,) = _vectorized_gradients(tape, target, [source], t_shape, u_seeds, "batch_jacobian")
    if g is not None:               # [m, b, ...] -> [b, m, ...]
        g = array_ops.transpose(g, [1, 0] + list(range(2, len(s_shape) + 1)))
    return _finish(g, source, (t_shape[0],) + t_shape[1:] + s_shape[1:], unconnected)


def vectorized_map(fn: Callable, elems: TensorLike, fallback_to_while_loop: bool = True,
                   warn: bool = True) -> Any:
    """``fn`` applied to each slice of ``elems`` along axis 0, run once for the whole batch.

    Ops without a vectorization rule run in a loop (with a warning when ``warn``);
    with ``fallback_to_while_loop=False`` they raise ValueError instead.

    Args:
        fn: A function of one element (the nest of ``elems`` sliced along the first axis).
        elems: A tensor (or nest of tensors) unpacked along its first dimension.
        fallback_to_while_loop: Whether to fall back to a loop for ops it cannot vectorize.
        warn: Whether to warn when it falls back.
    """
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if executing_eagerly():
        def traced(*xs: Any) -> Any:
            return _graph_map(fn, nest.pack_sequence_as(elems, list(xs)), fallback_to_while_loop,
                              warn)
        return function(traced, autograph=False)(*flat)
    return _graph_map(fn, elems, fallback_to_while_loop, warn)


def _graph_map(fn: Callable, elems: Any, fallback: bool, warn: bool) -> Any:
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    sizes = {e.shape.as_tuple()[0] if e.shape.rank else None for e in flat}
    if len(sizes) != 1 or None in sizes:
        raise ValueError("vectorized_map needs elems with one statically known leading "
                         "dimension, got shapes %s" % [str(e.shape) for e in flat])
    (n,) = sizes
    firsts = [e[0] for e in flat]
    g = get_default_graph()
    start = len(g._ops)
    out = fn(nest.pack_sequence_as(elems, firsts))
    flat_out = [convert_to_tensor(o) for o in nest.flatten(out)]
    batch = Batch(n)
    for f, e in zip(firsts, flat):
        batch.set(f, e)
    vectorize_ops(list(g._ops[start:]), batch)
    if batch.looped and not fallback:
        raise ValueError("vectorized_map: no vectorization rule for op type(s) %s and "
                         "fallback_to_while_loop=False" % ", ".join(sorted(batch.looped)))
    if warn:
        warn_looped(batch, "vectorized_map")
    return nest.pack_sequence_as(out, [batch.stacked(o) for o in flat_out])


__all__ = ["jacobian", "batch_jacobian", "vectorized_map"]
