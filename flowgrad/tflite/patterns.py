"""Subgraphs that TensorFlow Lite runs as one builtin operator (TensorFlow's converter fuses
the same ones): the exact and the tanh-approximated GELU.

A pattern is ``f(lowering, op) -> (lower, covered) | None`` keyed by the type of the op that
ends the subgraph: ``lower(lowering)`` writes the operator for that op's output, and the ops
in ``covered`` (read by nothing else) are not lowered on their own."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.tflite.graph_lowering import GraphLowering


def _split_const(L: GraphLowering, op: Any, value: float) -> Any:
    """The non-constant input of binary ``op`` whose other input is the scalar ``value``."""
    if op is None or len(op.inputs) != 2:
        return None
    for a, b in ((0, 1), (1, 0)):
        c = L.const(op.inputs[a])
        if c is not None and c.size == 1 and np.isclose(float(c.reshape(-1)[0]), value,
                                                         rtol=1e-6):
            return op.inputs[b]
    return None


def _private(L: GraphLowering, ops: list) -> bool:
    """Whether each op's outputs are read only inside the pattern (and are no outputs)."""
    inside = set(ops)
    for op in ops[:-1]:
        for t in op.outputs:
            if t in L._output_set or any(u not in inside for u in L.consumers.get(t, [])):
                return False
    return True


def _gelu_op(x: Any, out: Any, approximate: bool) -> Callable:
    def lower(L: GraphLowering) -> None:
        o = L.s.GeluOptionsT()
        o.approximate = approximate
        L.b.add_operator("GELU", [L.tensor(x)], [L.output(out)], o)
    return lower


def _gelu(L: GraphLowering, op: Any) -> tuple | None:
    """``Mul(Mul(0.5, x), Erfc(Mul(Neg(x), 1/sqrt(2))))`` (``tf.nn.gelu``), or the tanh form
    ``Mul(Mul(0.5, x), Add(1, Tanh(Mul(c, Add(x, Mul(0.044715, Mul(x, Square(x))))))))``."""
    if op.type != "Mul":
        return None
    for half_i in (0, 1):
        half = op.inputs[half_i].op
        x = _split_const(L, half, 0.5) if half.type == "Mul" else None
        if x is None:
            continue
        other = op.inputs[1 - half_i].op
        if other.type == "Erfc":
            inner = other.inputs[0].op
            neg = _split_const(L, inner, 0.7071067811865476) if inner.type == "Mul" else None
            if neg is not None and neg.op.type == "Neg" and neg.op.inputs[0] is x:
                ops = [half, neg.op, inner, other, op]
                if _private(L, ops):
                    return _gelu_op(x, op.outputs[0], False), ops[:-1]
        if other.type in ("Add", "AddV2"):
            tanh = _split_const(L, other, 1.0)
            if tanh is None or tanh.op.type != "Tanh":
                continue
            scaled = tanh.op.inputs[0].op
            s = _split_const(L, scaled, 0.7978845608028654) if scaled.type == "Mul" else None
            if s is None or s.op.type not in ("Add", "AddV2"):
                continue
            a, b = s.op.inputs
            cube_t = b if a is x else a if b is x else None
            cube = cube_t.op if cube_t is not None else None
            xc = _split_const(L, cube, 0.044715) if cube is not None and cube.type == "Mul" \
                else None
            if xc is None or xc.op.type != "Mul":
                continue
            p, q = xc.op.inputs
            sq = q if p is x else p if q is x else None
            if sq is None or sq.op.type != "Square" or sq.op.inputs[0] is not x:
                continue
            ops = [half, sq.op, xc.op, cube, s.op, scaled, tanh.op, other, op]
            if _private(L, ops):
                return _gelu_op(x, op.outputs[0], True), ops[:-1]
    return None


def _const_operand(L: GraphLowering, op: Any, n: int) -> tuple | None:
    """(the other input, the constant) of binary ``op`` with a constant of size 1 or ``n``
    along the last axis, else None."""
    for a, b in ((0, 1), (1, 0)):
        c = L.const(op.inputs[a])
        if c is not None and c.ndim <= 1 and c.size in (1, n) and L.const(op.inputs[b]) is None:
            return op.inputs[b], np.broadcast_to(c.reshape(-1), [n])
    return None


def _affine_into_matmul(L: GraphLowering, op: Any) -> tuple | None:
    """``MatMul(x * a + b, W)`` with constant ``a``, ``b`` (one of them may be absent) and
    ``W``: one FULLY_CONNECTED of ``x`` with weights ``a[:, None] * W`` and bias ``b @ W``,
    as TensorFlow's converter folds a Rescaling or a normalization into the next layer."""
    from flowgrad.tflite.op_lowerings import fully_connected
    if op._attrs.get("transpose_a") or L.const(op.inputs[0]) is not None:
        return None
    w = L.const(op.inputs[1])
    if w is None or w.ndim != 2 or op.inputs[0].shape.rank != 2:
        return None
    if op._attrs.get("transpose_b"):
        w = w.T
    n = w.shape[0]
    x, ops = op.inputs[0], []
    shift = scale = None
    if x.op.type in ("Add", "AddV2"):
        found = _const_operand(L, x.op, n)
        if found is not None:
            ops.append(x.op)
            x, shift = found
    if x.op.type == "Mul":
        found = _const_operand(L, x.op, n)
        if found is not None:
            ops.append(x.op)
            x, scale = found
    if not ops or not _private(L, ops[::-1] + [op]):
        return None
    folded = w if scale is None else (scale[:, None] * w).astype(w.dtype)
    extra = None if shift is None else (shift @ w).astype(w.dtype)
    return (lambda lowering: fully_connected(lowering, op, x, folded, False, extra)), ops


PATTERNS: dict = {"Mul": [_gelu], "MatMul": [_affine_into_matmul]}
