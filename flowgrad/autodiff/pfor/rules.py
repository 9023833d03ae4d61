"""Batching rules: each op type applied to inputs that carry a leading batch dimension.

A rule is ``rule(op, inputs, batched, n) -> outputs``: ``inputs`` are the op's inputs
with the batched ones replaced by their stacked versions (leading dimension ``n``),
``batched`` says which; it returns one entry per output, the batched output or None
where the output is the same for every example (the op's own output serves). A rule
returns NotImplemented where it cannot batch this instance (unknown ranks, dynamic
attributes): the op then runs in a loop (``vectorize.py``).

Most ops get their rule from the batching kind of their registration (``defop(...,
batching="elementwise")``; the kinds are ``KINDS`` below); ops whose rule is their own
(MatMul, Reshape, ...) register it here with ``register_batch_rule``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import get_op_def, op_defs
from flowgrad.framework.shape_rules import constant_value
from flowgrad.ops import array_ops, math_ops

_rules: dict[str, Callable] = {}


def register_batch_rule(op_types: Any, fn: Callable) -> None:
    """Registers ``fn`` as the batching rule of each op type in ``op_types``."""
    for t in ([op_types] if isinstance(op_types, str) else op_types):
        _rules[t] = fn


def batch_rule(op_type: str) -> Callable | None:
    """The batching rule of an op type: its own, else that of its registration's batching
    kind; None if it has neither."""
    rule = _rules.get(op_type)
    if rule is not None:
        return rule
    try:
        kind = get_op_def(op_type).batching
    except KeyError:
        return None
    if kind is None:
        return None
    if kind not in KINDS:
        raise KeyError("Op type %r has the batching kind %r; the kinds are %s"
                       % (op_type, kind, ", ".join(sorted(KINDS))))
    return KINDS[kind]


def batch_rule_types() -> tuple:
    """The op types that have a batching rule."""
    return tuple(sorted(set(_rules) | {d.type for d in op_defs() if d.batching is not None}))


def _rank(t: Any) -> int | None:
    return t.shape.rank


def _dims(t: Any) -> tuple | None:
    d = t.shape.as_tuple()
    return None if d is None or None in d else tuple(d)


def _attrs(op: Any, **changes: Any) -> dict:
    a = dict(op._attrs)
    a.update(changes)
    return a


def _stacked(x: Any, n: int) -> Any:
    """An unbatched tensor repeated ``n`` times along a new leading dimension."""
    d = _dims(x)
    if d is None:               # the shape is known at run time only
        if _rank(x) is None:
            return NotImplemented
        shape = array_ops.concat([[n], array_ops.shape(x)], 0)
        return array_ops.broadcast_to(array_ops.expand_dims(x, 0), shape)
    return array_ops.broadcast_to(array_ops.expand_dims(x, 0), (n,) + d)


def _all_batched(inputs: list, batched: list, n: int) -> list | None:
    out = []
    for x, b in zip(inputs, batched):
        s = x if b else _stacked(x, n)
        if s is NotImplemented:
            return None
        out.append(s)
    return out


# -- elementwise -----------------------------------------------------------------------

def _same(op: Any, inputs: list, batched: list, n: int) -> Any:
    """Ops that act on each element (or each last-axis row) independently."""
    return [apply_op(op.type, inputs, dict(op._attrs))]



def _aligned(inputs: list, batched: list) -> list | None:
    """Batched inputs reshaped so that NumPy broadcasting lines up their example dims."""
    ranks = [_rank(x) - 1 if b else _rank(x) for x, b in zip(inputs, batched)
             if _rank(x) is not None]
    if len(ranks) != len(inputs):
        return None
    top = max(ranks)
    out = []
    for x, b in zip(inputs, batched):
        r = _rank(x) - 1 if b else _rank(x)
        if b and r < top:
            d = _dims(x)
            if d is None:
                return None
            x = array_ops.reshape(x, (d[0],) + (1,) * (top - r) + d[1:])
        out.append(x)
    return out


def _broadcasting(op: Any, inputs: list, batched: list, n: int) -> Any:
    xs = _aligned(inputs, batched)
    if xs is None:
        return NotImplemented
    return [apply_op(op.type, xs, dict(op._attrs))]



def _strict(op: Any, inputs: list, batched: list, n: int) -> Any:
    """Elementwise ops whose inputs must have one shape: unbatched ones are repeated."""
    xs = _all_batched(inputs, batched, n)
    if xs is None:
        return NotImplemented
    return [apply_op(op.type, xs, dict(op._attrs))]


_scale_rules: dict[str, Callable] = {}


def scale_rule(op_type: str) -> Callable | None:
    """``f(op, batched) -> (k, factor)`` where the op's output is input k times an
    unbatched ``factor`` whenever only input k is batched (None where it is not so): the
    rule registered for the op type, else that of an op registered ``linear_in=k``."""
    rule = _scale_rules.get(op_type)
    if rule is None:
        try:
            if get_op_def(op_type).linear_in is not None:
                return _linear_factor
        except KeyError:
            pass
    return rule


def _linear_factor(op: Any, batched: list) -> Any:
    """An elementwise op linear in input k (a fused activation gradient f(.., dy, ..) =
    dy * f(.., 1, ..)) with only that input batched: the factor once per example."""
    k = get_op_def(op.type).linear_in
    if any(b for i, b in enumerate(batched) if i != k):
        return None
    other = op.inputs[1 - k]        # unbatched, of input k's shape
    ones = array_ops.ones_like(other)
    return k, apply_op(op.type, [ones if i == k else t for i, t in enumerate(op.inputs)],
                       dict(op._attrs))


def _mul_factor(op: Any, batched: list) -> Any:
    if batched[0] == batched[1]:
        return None
    k = 0 if batched[0] else 1
    return k, op.inputs[1 - k]


_scale_rules["Mul"] = _mul_factor


def _add_n(op: Any, inputs: list, batched: list, n: int) -> Any:
    xs = _aligned(inputs, batched)
    if xs is None:
        return NotImplemented
    total = xs[0]
    for x in xs[1:]:
        total = math_ops.add(total, x)
    return [total]


register_batch_rule("AddN", _add_n)


def _last_axis(op: Any, inputs: list, batched: list, n: int) -> Any:
    axis = op._attrs.get("axis", -1)
    return [apply_op(op.type, inputs, _attrs(op, axis=axis + 1 if axis >= 0 else axis))]




# -- matrix products -------------------------------------------------------------------

def _matmul(op: Any, inputs: list, batched: list, n: int) -> Any:
    a, b = inputs
    ta, tb = op._attrs.get("transpose_a", False), op._attrs.get("transpose_b", False)
    if batched[0] and not batched[1] and not ta:
        d = _dims(a)
        if d is not None:           # one GEMM: the batch folded into the rows
            flat = apply_op("MatMul", [array_ops.reshape(a, (d[0] * d[1], d[2])), b],
                            dict(op._attrs))
            return [array_ops.reshape(flat, (d[0], d[1], -1))]
    return [apply_op("BatchMatMulV2", [a, b], {"adj_x": ta, "adj_y": tb})]


def _batch_matmul(op: Any, inputs: list, batched: list, n: int) -> Any:
    xs = _aligned(inputs, batched)
    if xs is None:
        return NotImplemented
    return [apply_op(op.type, xs, dict(op._attrs))]


register_batch_rule("MatMul", _matmul)
register_batch_rule("BatchMatMulV2", _batch_matmul)


# -- ops with axis attributes ----------------------------------------------------------

def _shift(axis: int, rank: int) -> int:
    """An example's axis as an axis of the batched tensor."""
    return (axis % rank if rank else axis) + 1


def _only_first(fn: Callable) -> Callable:
    """A rule for ops whose only batched input is input 0 (with static attributes)."""
    def rule(op: Any, inputs: list, batched: list, n: int) -> Any:
        if any(batched[1:]) or len(inputs) > _static_arity.get(op.type, 1):
            return NotImplemented
        r = _rank(inputs[0])
        if r is None:
            return NotImplemented
        return fn(op, inputs, r - 1)
    return rule


_static_arity = {"GatherV2": 2, "BiasAdd": 2, "UnsortedSegmentSum": 2}


def _reduce(op: Any, inputs: list, r: int) -> Any:
    axis = op._attrs.get("axis")
    axes = tuple(range(r)) if axis is None else tuple(axis)
    return [apply_op(op.type, inputs, _attrs(op, axis=tuple(_shift(a, r) for a in axes)))]


def _reshape(op: Any, inputs: list, r: int) -> Any:
    shape = op._attrs.get("shape")
    if shape is None:
        return NotImplemented
    n = _dims(inputs[0])
    lead = -1 if n is None else n[0]
    return [array_ops.reshape(inputs[0], (lead,) + tuple(shape))]


def _transpose(op: Any, inputs: list, r: int) -> Any:
    perm = op._attrs.get("perm")
    if perm is None:
        return NotImplemented
    return [apply_op("Transpose", inputs, _attrs(op, perm=(0,) + tuple(p + 1 for p in perm)))]


def _expand_dims(op: Any, inputs: list, r: int) -> Any:
    a = op._attrs.get("axis")
    if a is None:
        return NotImplemented
    return [apply_op("ExpandDims", inputs, _attrs(op, axis=a + 1 if a >= 0 else a))]


def _squeeze(op: Any, inputs: list, r: int) -> Any:
    dims = op._attrs.get("squeeze_dims") or ()
    if not dims:
        d = _dims(inputs[0])
        if d is None:
            return NotImplemented
        dims = tuple(i for i, s in enumerate(d[1:]) if s == 1)
    return [apply_op("Squeeze", inputs, _attrs(op, squeeze_dims=tuple(_shift(a, r)
                                                                      for a in dims)))]


def _axis_attr(op: Any, inputs: list, r: int) -> Any:
    a = op._attrs.get("axis")
    if a is None:
        return NotImplemented
    if isinstance(a, (tuple, list)):
        out = apply_op(op.type, inputs, _attrs(op, axis=tuple(_shift(x, r) for x in a)))
    else:
        out = apply_op(op.type, inputs, _attrs(op, axis=_shift(a, r)))
    return out if isinstance(out, list) else [out]


def _prepend(key: str, first: Any) -> Callable:
    def fn(op: Any, inputs: list, r: int) -> Any:
        v = op._attrs.get(key)
        if v is None:
            return NotImplemented
        return [apply_op(op.type, inputs, _attrs(op, **{key: (first,) + tuple(v)}))]
    return fn


def _strided_slice(op: Any, inputs: list, r: int) -> Any:
    a = op._attrs
    if any(a.get(k) is None for k in ("begin", "end", "strides")):
        return NotImplemented
    shifted = {k: (a[k] << 1) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                        "new_axis_mask", "shrink_axis_mask")}
    shifted["begin_mask"] |= 1
    shifted["end_mask"] |= 1
    return [apply_op("StridedSlice", inputs, _attrs(
        op, begin=(0,) + tuple(a["begin"]), end=(0,) + tuple(a["end"]),
        strides=(1,) + tuple(a["strides"]), **shifted))]


def _broadcast_to(op: Any, inputs: list, r: int) -> Any:
    shape = op._attrs.get("shape")
    d = _dims(inputs[0])
    if shape is None or d is None:
        return NotImplemented
    x = array_ops.reshape(inputs[0], (d[0],) + (1,) * (len(shape) - r) + d[1:])
    return [array_ops.broadcast_to(x, (d[0],) + tuple(shape))]


def _gather(op: Any, inputs: list, r: int) -> Any:
    a = op._attrs.get("axis")
    if a is None or op._attrs.get("batch_dims", 0):
        return NotImplemented
    return [apply_op("GatherV2", inputs, _attrs(op, axis=_shift(a, r)))]


def _bias_add(op: Any, inputs: list, r: int) -> Any:
    if op._attrs.get("data_format", "NHWC") not in ("NHWC", "N...C", None):
        return NotImplemented
    return [apply_op("BiasAdd", inputs, dict(op._attrs))]


def _bias_add_grad(op: Any, inputs: list, r: int) -> Any:
    if op._attrs.get("data_format", "NHWC") not in ("NHWC", "N...C", None):
        return NotImplemented
    return [math_ops.reduce_sum(inputs[0], list(range(1, r)))]


def _segment_sum(op: Any, inputs: list, r: int) -> Any:
    data, ids = inputs
    k = _rank(ids)
    if k is None:
        return NotImplemented
    perm = list(range(1, k + 1)) + [0] + list(range(k + 1, r + 1))
    moved = array_ops.transpose(data, perm)          # the batch after the segmented dims
    s = apply_op(op.type, [moved, ids], dict(op._attrs))
    back = [1, 0] + list(range(2, r - k + 2))
    return [array_ops.transpose(s, back)]


for _types, _fn in (
        ("Reshape", _reshape), ("Transpose", _transpose), ("ExpandDims", _expand_dims),
        ("Squeeze", _squeeze),
        ("Tile", _prepend("multiples", 1)),
        ("Pad", _prepend("paddings", (0, 0))), ("MirrorPad", _prepend("paddings", (0, 0))),
        ("StridedSlice", _strided_slice), ("BroadcastTo", _broadcast_to),
        ("GatherV2", _gather), ("BiasAddGrad", _bias_add_grad),
        ("UnsortedSegmentSum", _segment_sum)):
    register_batch_rule(_types, _only_first(_fn))


def _slice(op: Any, inputs: list, r: int) -> Any:
    a = op._attrs
    if a.get("begin") is None or a.get("size") is None:
        return NotImplemented
    return [apply_op("Slice", inputs, _attrs(op, begin=(0,) + tuple(a["begin"]),
                                             size=(-1,) + tuple(a["size"])))]


register_batch_rule("Slice", _only_first(_slice))


def _bias_add_any(op: Any, inputs: list, batched: list, n: int) -> Any:
    if not batched[1]:
        return _only_first(_bias_add)(op, inputs, batched, n)
    x, b = inputs
    r = _rank(x) - (1 if batched[0] else 0)
    if op._attrs.get("data_format", "NHWC") not in ("NHWC", "N...C", None) or r is None:
        return NotImplemented
    if not batched[0]:
        x = array_ops.expand_dims(x, 0)
    d = _dims(b)
    if d is None:
        return NotImplemented
    return [math_ops.add(x, array_ops.reshape(b, (d[0],) + (1,) * (r - 1) + (d[1],)))]


register_batch_rule("BiasAdd", _bias_add_any)


def _join(op: Any, inputs: list, batched: list, n: int) -> Any:
    """Pack / ConcatV2: unbatched values are repeated, the axis moves by one."""
    a = op._attrs.get("axis")
    count = op._attrs.get("N", len(inputs))
    if a is None and len(inputs) == count + 1 and not batched[-1]:
        a = constant_value(inputs[-1])      # ConcatV2's axis given as a tensor
        inputs, batched = inputs[:-1], batched[:-1]
    if a is None or len(inputs) != count:
        return NotImplemented
    a = int(a)
    xs = _all_batched(inputs, batched, n)
    r = _rank(xs[0]) if xs is not None else None
    if r is None:
        return NotImplemented
    r -= 1
    axis = _shift(a, r + 1 if op.type == "Pack" else r)
    return [apply_op(op.type, xs, _attrs(op, axis=axis))]


register_batch_rule(("Pack", "ConcatV2"), _join)


def _shape_like(op: Any, inputs: list, batched: list, n: int) -> Any:
    """Shape, Size, Rank: the same for every example (the op's own output)."""
    return [None]




def _fill(op: Any, inputs: list, batched: list, n: int) -> Any:
    shape = op._attrs.get("shape")
    if shape is None or len(inputs) != 1:
        return NotImplemented
    v = array_ops.reshape(inputs[0], (n,) + (1,) * len(shape))
    return [array_ops.broadcast_to(v, (n,) + tuple(shape))]


register_batch_rule("Fill", _fill)


def _matrix_batch(op: Any, inputs: list, batched: list, n: int) -> Any:
    """Ops on the innermost matrices (any leading batch dims): unbatched inputs repeated."""
    xs = _all_batched(inputs, batched, n)
    if xs is None:
        return NotImplemented
    out = apply_op(op.type, xs, dict(op._attrs))
    return out if isinstance(out, list) else [out]




def _einsum(op: Any, inputs: list, batched: list, n: int) -> Any:
    """A fresh subscript for the batch, on the batched operands and the output."""
    eq = (op._attrs.get("equation") or "").replace(" ", "")
    if "->" not in eq:
        return NotImplemented
    lhs, out = eq.split("->")
    free = next(c for c in "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA"
                if c not in eq)
    specs = [free + s if b else s for s, b in zip(lhs.split(","), batched)]
    return [apply_op("Einsum", inputs, _attrs(op, equation=",".join(specs) + "->" + free + out))]


register_batch_rule("Einsum", _einsum)


def _fold_into_images(op: Any, inputs: list, batched: list, n: int) -> Any:
    """NHWC image ops: the vectorized batch folded into the image batch and back."""
    d = _dims(inputs[0])
    if any(batched[1:]) or d is None or op._attrs.get("data_format", "NHWC") != "NHWC":
        return NotImplemented
    y = apply_op(op.type, [array_ops.reshape(inputs[0], (d[0] * d[1],) + d[2:])]
                 + list(inputs[1:]), dict(op._attrs))
    yd = _dims(y)
    if yd is None:
        return NotImplemented
    return [array_ops.reshape(y, (d[0], d[1]) + yd[1:])]


# The rules of the batching kinds an op's registration names (``batching=``).
KINDS: dict[str, Callable] = {
    "elementwise": _same,               # each element on its own (unary)
    "broadcasting": _broadcasting,      # elementwise with NumPy broadcasting of its inputs
    "strict": _strict,                  # elementwise, inputs of one shape
    "last_axis": _last_axis,            # each row along the ``axis`` attribute (-1)
    "reduction": _only_first(_reduce),  # reduces input 0 over the ``axis`` attribute
    "axis": _only_first(_axis_attr),    # acts along the ``axis`` attribute of input 0
    "matrix": _matrix_batch,            # on the innermost matrices, any leading dims
    "images": _fold_into_images,        # NHWC images: the batch folds into the image batch
    "shape": _shape_like,               # the same value for every example (Shape, Rank)
}
