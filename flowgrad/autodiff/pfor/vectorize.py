"""Runs a sequence of ops once for a whole batch of examples (pfor-style vectorization).

``vectorize_ops`` walks ops (graph Operations, or an eager tape's records) in order;
an op with a batched input is replaced by its batching rule (``rules.py``) or, without
one, by a loop over the examples, with a warning naming such op types. The Jacobian
helpers here seed a gradient computation with a dummy cotangent and vectorize the
ops that depend on it over the rows of an identity matrix."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from flowgrad.framework.graph import get_default_graph, name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.autodiff.forward_mode import dummy
from flowgrad.autodiff.backprop import _as_list, _x_tensor, gradients
from flowgrad.ops import array_ops, math_ops
from flowgrad.autodiff.pfor.rules import batch_rule, scale_rule
from flowgrad.framework.type_hints import DTypeLike, TensorLike


class Scaled:
    """A batched tensor kept as ``base * factor``, ``factor`` unbatched: chains of scalings
    by per-example tensors multiply the small factors, not the batch."""

    __slots__ = ("base", "factor", "dense")

    def __init__(self, base: Any, factor: Any):
        self.base = base
        self.factor = factor
        self.dense = None

    def materialize(self) -> Any:
        if self.dense is None:
            self.dense = math_ops.multiply(self.base, self.factor)
        return self.dense


def _dense(v: Any) -> Any:
    return v.materialize() if type(v) is Scaled else v


def _fits(factor: Any, base: Any) -> bool:
    """Whether ``factor`` broadcasts into one example of ``base`` without enlarging it."""
    f, b = factor.shape.as_tuple(), base.shape.as_tuple()
    if f is None or b is None or None in f or None in b or len(f) > len(b) - 1:
        return False
    try:
        return np.broadcast_shapes(f, b[1:]) == tuple(b[1:])
    except ValueError:
        return False


def _scaled(op: Any, flags: list, batch: Batch) -> Any:
    """The op's output as a Scaled, where it scales its one batched input; else None."""
    rule = scale_rule(op.type)
    if rule is None or sum(flags) != 1 or getattr(op, "grad_fn", None) is not None:
        return None
    found = rule(op, flags)
    if found is None:
        return None
    k, factor = found
    v = batch.values[id(op.inputs[k])]
    base, old = (v.base, v.factor) if type(v) is Scaled else (v, None)
    if factor.dtype.base_dtype is not base.dtype.base_dtype or not _fits(factor, base):
        return None
    return Scaled(base, factor if old is None else math_ops.multiply(old, factor))


class Batch:
    """Batched stand-ins for tensors: tensor id -> the stacked tensor (leading dim n)."""

    def __init__(self, n: int):
        self.n = n
        self.values: dict = {}
        self._keep: list = []           # the originals, so that their ids stay unique
        self.looped: set = set()        # op types that ran in a loop

    def set(self, t: Any, stacked: Any) -> None:
        self.values[id(t)] = stacked
        self._keep.append(t)

    def get(self, t: Any) -> Any:
        return self.values.get(id(t))

    def stacked(self, t: Any) -> Any:
        """``t``'s batched version: the stored one, or ``t`` repeated n times."""
        b = self.values.get(id(t))
        if b is not None:
            return _dense(b)
        t = convert_to_tensor(t)
        return array_ops.broadcast_to(array_ops.expand_dims(t, 0),
                                      array_ops.concat([[self.n], array_ops.shape(t)], 0))


def vectorize_ops(ops: list, batch: Batch) -> None:
    """Adds to ``batch`` the batched outputs of every op in ``ops`` with a batched input."""
    for op in ops:
        flags = [id(x) in batch.values for x in op.inputs]
        if not any(flags):
            continue
        scaled = _scaled(op, flags, batch)
        if scaled is not None:
            batch.set(op.outputs[0], scaled)
            continue
        inputs = [_dense(batch.values[id(x)]) if f else x for x, f in zip(op.inputs, flags)]
        rule = batch_rule(op.type) if getattr(op, "grad_fn", None) is None else None
        outs = NotImplemented if rule is None else rule(op, inputs, flags, batch.n)
        if outs is NotImplemented:
            outs = _loop(op, inputs, flags, batch.n)
            batch.looped.add(op.type)
        for o, b in zip(op.outputs, outs):
            if b is not None:
                batch.set(o, b)


def _loop(op: Any, inputs: list, flags: list, n: int) -> list:
    """The op run once per example (the fallback for op types without a rule)."""
    if getattr(op, "grad_fn", None) is not None:
        raise ValueError("Cannot vectorize the custom-gradient op %s" % op.type)
    rows = []
    for i in range(n):
        ins = [x[i] if f else x for x, f in zip(inputs, flags)]
        out = apply_op(op.type, ins, dict(op._attrs))
        rows.append(out if isinstance(out, list) else [out])
    return [array_ops.stack([r[k] for r in rows]) for k in range(len(op.outputs))]


def warn_looped(batch: Batch, what: str) -> None:
    if batch.looped:
        warnings.warn("%s: no vectorization rule for op type(s) %s; they run in a loop over "
                      "the batch" % (what, ", ".join(sorted(batch.looped))), stacklevel=3)


def seeds(t_shape: tuple, dtype: DTypeLike) -> Any:
    """The rows of an identity matrix, shaped as n cotangents of a target of ``t_shape``."""
    n = int(np.prod(t_shape))
    return n, convert_to_tensor(np.eye(n, dtype=dtype.np).reshape((n,) + tuple(t_shape)))


def batch_seeds(t_shape: tuple, dtype: DTypeLike) -> Any:
    """batch_jacobian's cotangents: seed j is one at [b, j] for every example b."""
    b, m = t_shape[0], int(np.prod(t_shape[1:]))
    e = np.broadcast_to(np.eye(m, dtype=dtype.np)[:, None, :], (m, b, m))
    return m, convert_to_tensor(np.ascontiguousarray(e).reshape((m,) + tuple(t_shape)))


def batched_gradients(grads: list, batch: Batch) -> list:
    """The batched version of each gradient (None stays None)."""
    return [None if g is None else batch.stacked(g) for g in grads]


def graph_jacobian(ys: TensorLike, xs: list, t_shape: tuple, u_seeds: tuple, what: str) -> list:
    """Vectorized d ys / d x for each x in a graph: [n] + x.shape per x (None: unconnected).

    ``u_seeds`` is (n, the n stacked cotangents of ys)."""
    g = get_default_graph()
    n, seed = u_seeds
    u = dummy(ys)
    start = len(g._ops)
    grads = [None if d is None else convert_to_tensor(d)
             for d in gradients(ys, xs, grad_ys=u)]
    ops = list(g._ops[start:])
    batch = Batch(n)
    batch.set(u, seed)
    vectorize_ops(ops, batch)
    warn_looped(batch, what)
    return batched_gradients(grads, batch)


def hessians(ys: TensorLike, xs: TensorLike, name: str = "hessians",
             colocate_gradients_with_ops: bool = False, gate_gradients: bool = False,
             aggregation_method: Any = None) -> list:
    """The Hessian of sum(ys) with respect to each x (shape x.shape + x.shape), tf.hessians.

    ValueError, as in TensorFlow, where ys or their gradient do not depend on an x.
    The rows are computed together: the second backward pass is vectorized over the
    rows of an identity matrix.

    Args:
        ys: The tensor (or list of tensors) to differentiate.
        xs: The tensor, variable (or list of them) to differentiate with respect to.
        name: A name for the operation (optional).
        colocate_gradients_with_ops: Accepted for TensorFlow's signature (no devices).
        gate_gradients: Accepted for TensorFlow's signature.
        aggregation_method: Accepted for TensorFlow's signature (gradients are summed with AddN).
    """
    xs = _as_list(xs)
    out = []
    with name_scope(name, "hessians"):
        for grad, x in zip(gradients(ys, xs), xs):
            x_t = _x_tensor(x)
            if grad is None:        # TensorFlow reshapes the None gradient: ValueError
                raise ValueError("hessians: ys do not depend on %s, so its gradient is None "
                                 "(None values not supported.)" % x_t.name)
            dims = x_t.shape.as_tuple()
            if dims is None or None in dims:
                raise ValueError("hessians needs a statically known shape for %s" % x_t.name)
            grad = convert_to_tensor(grad)
            (h,) = graph_jacobian(grad, [x], dims, seeds(dims, grad.dtype.base_dtype),
                                  "tf.hessians")
            if h is None:           # as TensorFlow, whose loop writes the None row
                raise ValueError("hessians: the gradient of ys with respect to %s does not "
                                 "depend on %s (None values not supported.)"
                                 % (x_t.name, x_t.name))
            out.append(h if h.shape.as_tuple() == dims + dims else
                       array_ops.reshape(h, dims + dims))
    return out


def hessians_v2(ys: TensorLike, xs: TensorLike, gate_gradients: bool = False,
                aggregation_method: Any = None, name: str = "hessians") -> list:
    """``tf.hessians`` of TensorFlow 2 (in a tf.function, as there): the Hessian of sum(ys)
    with respect to each x.

    Args:
        ys: The tensor (or list of tensors) to differentiate.
        xs: The tensor, variable (or list of them) to differentiate with respect to.
        gate_gradients: Accepted for TensorFlow's signature.
        aggregation_method: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    return hessians(ys, xs, name, False, gate_gradients, aggregation_method)
