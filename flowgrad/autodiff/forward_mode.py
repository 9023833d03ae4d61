"""Forward-mode differentiation: the JVP of one op, and of a span of graph ops.

An op type's JVP comes from its registered rule (``registry.register_jvp``, next to
the op's gradient where the op is defined) or, without one, from its gradient by
the double-VJP trick: the gradient ``u -> J^T u`` is linear in the dummy cotangent
``u``, so differentiating it with respect to ``u`` against the input tangent gives
``J t``. ``jvp_rule_kinds()`` says which op types use which."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.registry import _gradients, _ops, gradient_function, jvp_function
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.autodiff.backprop import gradients
from flowgrad.ops.array_ops import ones_like, placeholder_with_default

DIRECT = "direct rule"
DERIVED = "derived from the gradient (double VJP)"


def jvp_rule_kinds() -> dict:
    """{op type: DIRECT or DERIVED} for every differentiable registered op type."""
    return {t: DIRECT if jvp_function(t) else DERIVED
            for t in sorted(_ops) if _gradients.get(t) is not None}


def differentiable(t: Any) -> bool:
    return dtypes.is_differentiable(t.dtype)


def op_jvp(op: Any, tangents: list, derived: Callable) -> list:
    """The output tangents of ``op`` (None: zero) given one tangent (or None) per input.

    ``derived(op, tangents)`` computes the JVP from the gradient where the op type has
    no rule (or its gradient is overridden or custom)."""
    rule = None
    if getattr(op, "grad_fn", None) is None and op._grad_type is None:
        rule = jvp_function(op.type)
    out = rule(op, *tangents) if rule is not None else derived(op, tangents)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    return [t if t is None or differentiable(o) else None for o, t in zip(op.outputs, outs)]


def dummy(like: Any) -> Any:
    """A stand-in value the gradient is linear in: ones, not zeros (gradient functions skip
    cotangents known to be zero), and not a graph constant (nor folded as one)."""
    if isinstance(like, Tensor):
        return placeholder_with_default(ones_like(like), like.shape)
    return ones_like(like)


def dummy_cotangents(op: Any) -> list:
    """Stand-in cotangents for the op's differentiable outputs (None for the others)."""
    return [dummy(o) if differentiable(o) else None for o in op.outputs]


def linear_pairs(op: Any, dxs: Any, tangents: list) -> tuple[list, list]:
    """(input gradients, input tangents) for the inputs that have both."""
    dxs = list(dxs) if isinstance(dxs, (list, tuple)) else [dxs]
    if len(dxs) != len(op.inputs):
        raise ValueError("Num gradients %d generated for op %s do not match num inputs %d"
                         % (len(dxs), op.type, len(op.inputs)))
    pairs = [(convert_to_tensor(g), t) for g, t in zip(dxs, tangents)
             if g is not None and t is not None]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def graph_derived_jvp(op: Any, tangents: list) -> list:
    """The double-VJP JVP of a graph op, with ``tf.gradients``."""
    fn = gradient_function(op)
    us = dummy_cotangents(op)
    dxs, ts = linear_pairs(op, fn(op, *us), tangents)
    live = [u for u in us if u is not None]
    if not dxs or not live:
        return [None] * len(op.outputs)
    gs = iter(gradients(dxs, live, grad_ys=ts))
    return dense_tangents(us, gs)


def dense_tangents(us: list, gs: Any) -> list:
    """One tangent per output: the gradients with respect to its dummy cotangent, dense."""
    out = []
    for u in us:
        g = None if u is None else next(gs)
        out.append(None if g is None else convert_to_tensor(g))
    return out


def graph_jvp(ops: list, tangents: dict) -> None:
    """Extends ``tangents`` ({tensor: tangent}) through graph ``ops`` (in creation order)."""
    for op in ops:
        tins = [tangents.get(t) for t in op.inputs]
        if all(t is None for t in tins) or _gradients.get(op._grad_type or op.type, 0) is None:
            continue
        for o, t in zip(op.outputs, op_jvp(op, tins, graph_derived_jvp)):
            if t is not None:
                tangents[o] = t


__all__ = ["jvp_rule_kinds", "op_jvp", "graph_jvp"]
