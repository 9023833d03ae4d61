"""Gradients of the functional If and While ops, themselves If and While ops.

The gradient of ``If(pred, captures)`` is ``If(pred, captures, output grads)`` whose
branches recompute the forward branch (the branch sub-graph is inlined) and apply
``tf.gradients`` to it: only the taken branch runs backwards.

The gradient of a While op is a While op running the forward iteration count
backwards. Its sliced inputs are the reversed history of the loop variables (and
the reversed incoming gradients of the history and of the per-iteration outputs,
and the reversed sliced inputs); its loop variables are the adjoints of the
loop variables and accumulators of the captured inputs' gradients. Each
backward iteration inlines the forward body on the recorded loop variables and
applies ``tf.gradients`` to it; then the gradient ops that read a value of the
inlined forward body which changes from iteration to iteration read it instead
from a stored copy: the forward While records those values at every iteration
(``save_intermediates``, as TensorFlow's while_v2 accumulates them) and the
backward loop slices them, so the inlined forward ops are left unused and an
iteration of the backward loop runs only the gradient. Values that are the same
at every iteration (from captured tensors and constants only) are recomputed
from the captures. The per-iteration gradients of sliced inputs are the backward
loop's stacked outputs. Since all of this is ordinary ops again (the stored
values are per-iteration outputs of the forward op, with gradients as any
other), every order of derivative follows from these two rules."""
from __future__ import annotations

import collections
from typing import Any

import numpy as np

from flowgrad.framework.context import graph_scope
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.registry import RegisterGradient
from flowgrad.framework.tensor import Tensor, constant, convert_to_tensor
from flowgrad.autodiff.backprop import gradients, is_trainable
from flowgrad.ops.array_ops import concat, fill, placeholder, reverse, shape_of, zeros_like
from flowgrad.ops.cond_v2 import build_cond
from flowgrad.ops.subgraph import TracedFunction, inline
from flowgrad.ops.while_v2 import build_while, save_intermediates


def _is_zero(g: Any) -> bool:
    """Whether ``g`` is a gradient known to be zero (None, ZerosLike, an all-zero constant)."""
    if g is None:
        return True
    if not isinstance(g, Tensor):
        return False
    if g.op.type == "ZerosLike":
        return True
    return g.op.type == "Const" and not np.any(g.op._attrs["value"])


def _dense(g: Any) -> Any:
    return convert_to_tensor(g) if isinstance(g, IndexedSlices) else g


def _connected(f: TracedFunction, i: int, targets: set) -> bool:
    """Whether output ``targets`` of ``f`` depend on input ``i`` through trainable tensors."""
    start = f.inputs[i]
    wanted = {f.outputs[k] for k in targets}
    if start in wanted:
        return True
    seen: set = set()
    queue = collections.deque([start])
    while queue:
        t = queue.popleft()
        for op in t._consumers:
            if op in seen:
                continue
            seen.add(op)
            for o in op.outputs:
                if is_trainable(o):
                    if o in wanted:
                        return True
                    queue.append(o)
    return False


@RegisterGradient("If")
def _if_grad(op: Any, *grads: Any) -> list:
    then_f, else_f = op.get_attr("then_branch"), op.get_attr("else_branch")
    n_out, r_t, r_f = op.get_attr("random_outputs")
    pred, caps = op.inputs[0], list(op.inputs[1:])
    out_idx = [k for k, g in enumerate(grads[:n_out])
               if is_trainable(op.outputs[k]) and not _is_zero(g)]
    # the samples the forward branch drew (its random ops are not run again)
    samples = {then_f: (then_f.outputs[n_out:n_out + r_t], op.outputs[n_out:n_out + r_t]),
               else_f: (else_f.outputs[n_out + r_t:], op.outputs[n_out + r_t:])}
    conn = [j for j, c in enumerate(caps) if is_trainable(c) and out_idx and (
        _connected(then_f, j, set(out_idx)) or _connected(else_f, j, set(out_idx)))]
    result: list = [None] * len(op.inputs)
    if not conn:
        return result
    grad_ys = [_dense(grads[k]) for k in out_idx]

    def branch(f: TracedFunction) -> Any:
        def fn() -> list:
            g = get_default_graph()
            ins = [g.capture(c) for c in caps]
            inner, drawn = samples[f]
            outs = inline(f, ins, {t: g.capture(v) for t, v in zip(inner, drawn)})
            xs = [ins[j] for j in conn]
            gs = gradients([outs[k] for k in out_idx], xs,
                           grad_ys=[g.capture(gy) for gy in grad_ys])
            return [zeros_like(x) if gr is None else _dense(gr) for gr, x in zip(gs, xs)]
        return fn
    name = op.name.rsplit("/", 1)[-1] + "_grad"
    res = build_cond(pred, branch(then_f), branch(else_f), name)
    for j, g in zip(conn, res):
        result[1 + j] = g
    return result


def _slice_rows(x: Tensor, n: Tensor) -> Tensor:
    """The first ``n`` rows of ``x``."""
    return x[:n]


def _pad_rows(g: Tensor, like: Tensor) -> Tensor:
    """``g`` (the first rows of a tensor like ``like``) padded with zero rows to its length."""
    g_shape = shape_of(g)
    missing = shape_of(like)[:1] - g_shape[:1]
    zero_rows = fill(concat([missing, g_shape[1:]], 0), constant(0, g.dtype.base_dtype))
    return concat([g, zero_rows], 0)


def _storable(t: Tensor) -> bool:
    """Whether a While op can record ``t`` per iteration (numbers and booleans)."""
    return np.dtype(t.dtype.base_dtype.np).kind in "biufc"


def _original(t: Tensor, copies: dict) -> Tensor | None:
    """The tensor of the forward body that ``t``, of its inlined copy, has the value of.

    The history and recorded intermediates of a copied inner While are asked for only once
    its gradient is built: the inner While of the forward body is made to record them too
    (its outputs of those values then stand for the copy's). None where the value has no
    such tensor (it is then computed again in the backward loop)."""
    op = t.op
    if op.type != "While":
        return copies.get(t)
    attrs = op._attrs
    n, e = len(attrs["shapes"]), len(attrs["extras"])
    k = t.value_index
    if k <= n + e:
        return copies.get(t)
    first = copies.get(op.outputs[0])
    if first is None or first.op.type != "While" or first.op._attrs["body"] is not attrs["body"]:
        return None         # a copy made to reuse random samples has another body
    orig = first.op
    if k < 2 * n + e + 1:
        orig._attrs["keep_history"].keep = True
        return orig.outputs[k]
    body = attrs["body"]
    start = n + e + (attrs["cond"] is not None)
    return save_intermediates(orig, [body.outputs[start + k - (2 * n + e + 1)]])[0]


def _read_stored(op: Any, g: Any, lo: int, hi: int, per_iteration: list, mapping: dict,
                 late: list, outer: Any) -> None:
    """Points the gradient ops of the backward body ``g`` (its ops from ``hi`` on) that
    read values of the forward body inlined as ``g``'s ops ``lo`` to ``hi`` (``mapping``:
    forward body tensor -> its copy) at the values the forward While ``op`` recorded.

    Only values that depend on ``per_iteration`` (the loop variables, sliced inputs and
    random samples of an iteration) are recorded; each becomes a sliced input of the
    backward loop (a placeholder of ``g`` and the reversed record in ``outer``, appended
    to ``late``)."""
    inlined = g._ops[lo:hi]
    variant = set(per_iteration)
    for o in inlined:
        if any(t in variant for t in o._inputs):
            variant.update(o.outputs)
    copies = {t2: t for t, t2 in mapping.items()}
    uses: dict = {}
    for o in g._ops[hi:]:
        for i, t in enumerate(o._inputs):
            if t in variant and t.op.graph is g and lo <= t.op._id < hi and _storable(t):
                orig = _original(t, copies)
                if orig is not None:
                    uses.setdefault(t, (orig, []))[1].append((o, i))
    if not uses:
        return
    wanted = list(uses)
    for t, rec in zip(wanted, save_intermediates(op, [uses[t][0] for t in wanted])):
        with graph_scope(outer):
            rows = reverse(rec, [0])
        with g.control_dependencies(None), g.name_scope(None):
            p = placeholder(t.dtype.base_dtype, t.shape, name="stored")
        late.append((p, rows))
        for o, i in uses[t][1]:
            o._inputs[i] = p
            t._consumers.remove(o)
            p._consumers.append(o)


@RegisterGradient("While")
def _while_grad(op: Any, *grads: Any) -> list:
    attrs = op._attrs
    body = attrs["body"]
    n, ns, e = len(attrs["shapes"]), attrs["num_sliced"], len(attrs["extras"])
    n_rand = attrs["num_random"]
    ins, outs = op.inputs, op.outputs
    x0, sliced, caps = ins[:n], ins[n:n + ns], ins[n + ns:-1]
    count, hist, rec = outs[n + e], outs[n + e + 1:2 * n + e + 1], outs[2 * n + e + 1:]
    g_fin, g_ext = grads[:n], grads[n:n + e]
    g_hist, g_rec = grads[n + e + 1:2 * n + e + 1], grads[2 * n + e + 1:]
    dx = [k for k in range(n) if is_trainable(x0[k])]
    de = [k for k in range(e - n_rand) if is_trainable(outs[n + k]) and not _is_zero(g_ext[k])]
    dh = [k for k in dx if not _is_zero(g_hist[k])]
    # the recorded intermediates that got gradients (a gradient of the gradient loop)
    s0 = n + e + (attrs["cond"] is not None)
    dr = [k for k in range(len(g_rec)) if is_trainable(rec[k]) and not _is_zero(g_rec[k])]
    result: list = [None] * len(ins)
    if not de and not dh and not dr and all(_is_zero(g_fin[k]) for k in dx):
        return result
    targets = set(dx) | {n + k for k in de} | {s0 + k for k in dr}
    ds = [j for j in range(ns) if is_trainable(sliced[j]) and _connected(body, n + j, targets)]
    dc = [j for j in range(len(caps)) if is_trainable(caps[j]) and
          _connected(body, n + ns + j, targets)]
    attrs["keep_history"].keep = True
    adj0 = [zeros_like(x0[k]) if g_fin[k] is None else _dense(g_fin[k]) for k in dx]
    acc0 = [zeros_like(caps[j]) for j in dc]
    rows = [_slice_rows(s, count) for s in sliced]
    drawn = outs[n + e - n_rand:n + e]         # the random samples of each iteration
    bw_sliced = [reverse(t, [0]) for t in list(hist) + [_dense(g_hist[k]) for k in dh] +
                 [_dense(g_ext[k]) for k in de] + [_dense(g_rec[k]) for k in dr] +
                 list(drawn) + rows]
    na, nc, nh, ne, nr = len(dx), len(dc), len(dh), len(de), len(dr)
    outer = get_default_graph()
    late: list = []

    def bw_body(*args: Any) -> tuple:
        adj, acc, sl = args[:na], args[na:na + nc], args[na + nc:]
        x_t, gh_t = sl[:n], sl[n:n + nh]
        ge_t, gr_t = sl[n + nh:n + nh + ne], sl[n + nh + ne:n + nh + ne + nr]
        sl = sl[n + nh + ne + nr:]
        r_t, el_t = sl[:n_rand], sl[n_rand:n_rand + len(rows)]
        g = get_default_graph()
        cap_in = [g.capture(c) for c in caps]
        lo = len(g._ops)
        mapping: dict = {}
        outs_t = inline(body, list(x_t) + list(el_t) + cap_in,
                        dict(zip(body.outputs[n + e - n_rand:n + e], r_t)), mapping)
        hi = len(g._ops)
        ys = [outs_t[k] for k in dx] + [outs_t[n + k] for k in de] + \
            [outs_t[s0 + k] for k in dr]
        xs = [x_t[k] for k in dx] + [el_t[j] for j in ds] + [cap_in[j] for j in dc]
        gs = gradients(ys, xs, grad_ys=list(adj) + list(ge_t) + list(gr_t))
        gs = [zeros_like(x) if gr is None else _dense(gr) for gr, x in zip(gs, xs)]
        _read_stored(op, g, lo, hi, list(x_t) + list(el_t) + list(r_t), mapping, late, outer)
        gx, gel, gc = gs[:na], gs[na:na + len(ds)], gs[na + len(ds):]
        for i, k in enumerate(dh):
            gx[dx.index(k)] = gx[dx.index(k)] + gh_t[i]
        return list(gx) + [a + b for a, b in zip(acc, gc)], gel

    shapes = [attrs["shapes"][k] for k in dx] + [caps[j].shape for j in dc]
    name = op.name.rsplit("/", 1)[-1] + "_grad"
    finals, extras, _, _ = build_while(None, bw_body, adj0 + acc0, shapes, sliced=bw_sliced,
                                       max_iter=count, name=name, ragged=True,
                                       late_sliced=late)
    for i, k in enumerate(dx):
        result[k] = finals[i]
    for i, j in enumerate(dc):
        result[n + ns + j] = finals[na + i]
    for i, j in enumerate(ds):
        result[n + j] = _pad_rows(reverse(extras[i], [0]), sliced[j])
    return result
