"""``tf.while_loop``: the functional While op.

The loop condition and body are traced into sub-graphs; the While op's inputs are
the loop variables, *sliced inputs* (tensors whose row ``t`` the body sees at
iteration ``t``, as ``tf.scan``/``tf.map_fn`` need), every tensor the condition
or body captured, and the maximum number of iterations (-1: none). Its outputs
are the final loop variables, the *extras* (per-iteration body outputs, stacked
along a new first axis), the iteration count, and the history of the loop
variables (their value at the start of each iteration; recorded only once a
gradient asked for it), and the values of the body its gradient reads, recorded
at every iteration (``save_intermediates``). The kernel runs the compiled
condition and body plans in a plain Python loop: no per-iteration cost beyond
the body itself.

The gradient (``flowgrad.autodiff.control_flow_grad``) is another While op that walks the
history and the recorded values backwards, applying the body's gradient; being
ordinary ops again, it can itself be differentiated (to any order).

Eagerly, ``while_loop`` runs the Python loop (as TensorFlow does); the tape records
each iteration's ops.

How this differs from TensorFlow. TF1 builds a loop from Enter/Merge/Switch/
NextIteration/Exit ops in a "frame" that the executor runs with per-iteration
tags; its gradient pushes every intermediate the gradient needs onto stacks
during the forward pass and pops them in a mirrored gradient frame, and a
gradient of that gradient needs frames of frames. TF2's functional While (which
flowgrad follows) keeps the loop as one op whose attributes are the condition and
body functions; its gradient rewrites the forward op to output accumulators of
the body's intermediates (TensorLists) and builds a gradient While. flowgrad
differs from TF2 in four ways: the forward op records the loop variables, the
samples of random ops and the values the gradient ops read (an object array of
the iterations' arrays, not a TensorList), and the records are outputs of the
op like any other, so the gradient is again a pure function of its inputs and
every order works the same way; they are recorded only once a gradient of the
loop has been built; per-iteration inputs and outputs (scan, map_fn, RNNs) are
sliced and stacked by the op itself instead of by TensorArrays; and the
condition is fused into the body's compiled plan, so an iteration is one call of
one generated function."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly, graph_scope
from flowgrad.framework.graph_walk import ancestors
from flowgrad.framework.graph import control_dependencies, get_default_graph
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import register_op
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.v2_compat import v2_behavior_enabled
from flowgrad.ops.array_ops import identity, stop_gradient
from flowgrad.ops.subgraph import (DONATED, DONATING_OPS, SIDE_EFFECTS, HistoryFlag,
                                   TracedFunction, as_output, inline, random_outputs,
                                   register_random_outputs, trace)


def _scalar_pred(go: Any, where: str) -> Any:
    """The loop condition's value; InvalidArgumentError (TensorFlow's LoopCond) unless it is
    a scalar (its shape can be unknown while the graph is built)."""
    if getattr(go, "ndim", 0):
        raise errors.InvalidArgumentError(None, None, "%s: the loop condition must be a "
                                          "scalar, but it has shape %s" % (where,
                                                                           list(go.shape)))
    return go


def _saved_start(attrs: dict) -> int:
    """Where the body's saved intermediates start among its outputs (after the loop
    variables, the extras and the fused condition of the next iteration)."""
    return len(attrs["shapes"]) + len(attrs["extras"]) + (attrs["cond"] is not None)


def _saved_specs(attrs: dict) -> list:
    """(dtype, per-iteration shape) of each intermediate the op records for its gradient."""
    start = _saved_start(attrs)
    body = attrs["body"].outputs
    return [(t.dtype.base_dtype, t.shape) for t in
            body[start:start + attrs.get("num_saved", 0)]]


def _while_infer(ins: list, attrs: dict) -> list:
    n_static = attrs["static_n"]
    finals = [(t.dtype.base_dtype, s) for t, s in zip(ins, attrs["shapes"])]
    extras = [(dt, TensorShape([n_static]).concatenate(s)) for dt, s in attrs["extras"]]
    hist = [(dt, TensorShape([n_static]).concatenate(s)) for dt, s in finals]
    saved = [(dt, TensorShape([n_static]).concatenate(s)) for dt, s in _saved_specs(attrs)]
    return finals + extras + [(dtypes.int32, TensorShape([]))] + hist + saved


def _stack(values: list, dt: Any, shape: TensorShape, first: Any, what: str,
           ragged: bool = False) -> np.ndarray:
    """``values`` stacked along a new first axis. With ``ragged`` (the history of a loop
    variable whose shape varies, as ``shape_invariants`` allow), values of different shapes
    are kept as a one-dimensional object array of them, which only the gradient loop reads
    (row by row)."""
    if not values:
        dims = shape.as_tuple() if shape.rank is not None else None
        if first is not None:
            dims = np.shape(first)
        return np.zeros((0,) + tuple(d or 0 for d in (dims or ())), dt.np)
    try:
        return np.stack(values).astype(dt.np, copy=False)
    except ValueError as e:
        if not ragged:
            raise errors.InvalidArgumentError(None, None, "cannot stack the %s of a while "
                                              "loop: its shape changed between iterations (%s)"
                                              % (what, e)) from None
    rows = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        rows[i] = np.asarray(v, dt.np)
    return rows


def _rows(values: list, dt: Any) -> np.ndarray:
    """``values`` as a one-dimensional object array of arrays: the history and the recorded
    intermediates, which only the gradient loop reads (row by row), are not copied into
    one stacked array."""
    rows = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        # (a row that is itself a record of an inner loop stays an object array)
        rows[i] = v if type(v) is np.ndarray and v.dtype in (dt, object) else \
            np.asarray(v, dt)
    return rows


def _donatable(body: TracedFunction, n: int) -> list:
    """The loop variables whose only reader in the body is an op of DONATING_OPS (its first
    input) that also makes the variable's next value: the loop may give that op the array
    of the previous iteration to write into."""
    out = []
    for k in range(n):
        users = body.inputs[k]._consumers
        if len(users) == 1 and users[0].type in DONATING_OPS and \
                users[0]._inputs[0] is body.inputs[k] and \
                sum(t is body.inputs[k] for t in users[0]._inputs) == 1 and \
                body.outputs[k] is users[0].outputs[0]:
            out.append(k)
    return out


def _owned(out: tuple, k: int, before: list, given: bool) -> bool:
    """Whether ``out[k]``, a loop variable's next value, is an array only the loop holds
    (not another output or a view of one, nor a value the iteration received other than
    the array it was ``given`` for that variable)."""
    a = out[k]
    if type(a) is not np.ndarray or a.base is not None:
        return False
    return not any((o is a or getattr(o, "base", None) is a) for j, o in enumerate(out)
                   if j != k) and not any(v is a for j, v in enumerate(before)
                                          if j != k or not given)


def _live_body(attrs: dict, live: frozenset) -> tuple | None:
    """For a While whose plan reads only its outputs ``live``: (a body computing only what
    those need, the loop variables it computes, the body outputs it computes), or None
    where that is all of them.

    A loop variable is live when the plan reads its final value or its history, or a live
    value of the body depends on it; the body's other outputs (a gradient loop's gradients
    of inputs nobody asked for, as a TensorArray's flow or a dynamic_rnn's inputs) are not
    computed, and a dead loop variable keeps its first value. The random samples and the
    body's side effects always run."""
    body_f = attrs["body"]
    n, e = len(attrs["shapes"]), len(attrs["extras"])
    s0 = _saved_start(attrs)
    n_saved = attrs.get("num_saved", 0)
    hist0 = n + e + 1
    saved0 = hist0 + n
    vars_ = {k for k in range(n) if k in live or hist0 + k in live}
    keep = {n + k for k in range(e) if n + k in live or k >= e - attrs["num_random"]}
    if attrs["cond"] is not None:
        keep.add(n + e)
    keep |= {s0 + j for j in range(n_saved) if saved0 + j in live}
    placeholder = {body_f.inputs[k].op: k for k in range(n)}
    while True:
        found = ancestors([body_f.outputs[i] for i in sorted(keep | vars_)] +
                          list(body_f.control_outputs))
        more = {placeholder[op] for op in found if op in placeholder} - vars_
        if not more:
            break
        vars_ |= more
    if len(vars_) == n and len(keep) == len(body_f.outputs) - n:
        return None
    kept = sorted(vars_ | keep)
    live_f = TracedFunction(body_f.graph, body_f.inputs, [body_f.outputs[i] for i in kept],
                            body_f.control_outputs)
    width = len(body_f.outputs)
    dead = [k for k in range(n) if k not in vars_]

    def run_body(vals: list) -> list:
        out = [None] * width
        for i, v in zip(kept, live_f.compiled()(vals)):
            out[i] = v
        for k in dead:
            out[k] = vals[k]
        return out
    run_body.traced = live_f        # for the error messages of its ops
    return run_body, frozenset(vars_), frozenset(kept)


def _while_specialize(attrs: dict) -> Callable:
    cond_f, body_f = attrs["cond"], attrs["body"]
    n, ns, e = len(attrs["shapes"]), attrs["num_sliced"], len(attrs["extras"])
    flag = attrs["keep_history"]
    extras_spec = attrs["extras"]
    where = body_f.graph.name[:-len("_body")]
    ragged = attrs.get("ragged", False)
    n_random = attrs["num_random"]
    bounded = attrs.get("bounded", True)
    s0 = _saved_start(attrs)
    saved_specs = _saved_specs(attrs)
    n_saved = len(saved_specs)
    donatable = _donatable(body_f, n)
    pruned = _live_body(attrs, attrs["live_outputs"]) if "live_outputs" in attrs else None
    errors_of = body_f if pruned is None else pruned[0].traced
    ext_on, saved_on = list(range(e)), list(range(n_saved))
    if pruned is not None:
        donatable = [k for k in donatable if k in pruned[1]]
        ext_on = [k for k in ext_on if n + k in pruned[2]]
        saved_on = [k for k in saved_on if s0 + k in pruned[2]]

    def run(*args: Any) -> tuple:
        vals = list(args[:-1])      # loop variables, (rows of) sliced inputs, captures
        sliced = args[n:n + ns]
        if getattr(args[-1], "ndim", 0):
            raise errors.InvalidArgumentError(None, None, "%s: maximum_iterations must be a "
                                              "scalar, but it has shape %s"
                                              % (where, list(args[-1].shape)))
        # a negative maximum_iterations runs no iteration, as in TensorFlow
        limit = max(int(args[-1]), 0) if bounded else 1 << 62
        for s in sliced:
            limit = min(limit, len(s))
        b = body_f.compiled() if pruned is None else pruned[0]
        go = True
        if cond_f is not None:      # the body computes the next condition itself
            go = _scalar_pred(cond_f.compiled()(vals[:n] + vals[n + ns:])[0], where)
        keep = flag.keep
        hist: list = [[] for _ in range(n)]
        ext: list = [[] for _ in range(e)]
        saved: list = [[] for _ in range(n_saved)]
        donate: list = []           # the first iteration's values are the caller's
        may_donate = donatable and not keep
        t = 0
        while go and t < limit:
            if keep:
                for k in range(n):
                    hist[k].append(vals[k])
            for j in range(ns):
                vals[n + j] = sliced[j][t]
            if donate:
                gift = [id(vals[k]) for k in donate]
                DONATED.update(gift)
            try:
                out = b(vals)
            except Exception as exc:
                raise errors_of.runtime_error(exc, "the body of while loop %s" % where) from exc
            finally:
                if donate:
                    DONATED.difference_update(gift)
            if may_donate:      # no history kept: a TensorArray write reuses its flow
                donate = [k for k in donatable if _owned(out, k, vals, k in donate)]
            vals[:n] = out[:n]
            for k in ext_on:
                ext[k].append(out[n + k])
            for k in saved_on:
                saved[k].append(out[s0 + k])
            if cond_f is not None:
                go = _scalar_pred(out[n + e], where)
            t += 1
        xs = vals[:n]
        first = args[:n]
        stacked_ext = [_stack(ext[k], dt, s, None, "per-iteration output %d" % k,
                              ragged or k >= e - n_random) if k in ext_on else None
                       for k, (dt, s) in enumerate(extras_spec)]
        stacked_hist = [_rows(hist[k], np.asarray(first[k]).dtype) if keep
                        else np.zeros((0,), np.asarray(first[k]).dtype) for k in range(n)]
        stacked_saved = [_rows(saved[k], dt.np) if k in saved_on else None
                         for k, (dt, _) in enumerate(saved_specs)]
        return tuple(xs) + tuple(stacked_ext) + (np.int32(t),) + tuple(stacked_hist) + \
            tuple(stacked_saved)
    return run


def _while_kernel(*args: Any, **attrs: Any) -> tuple:
    return _while_specialize(attrs)(*args)


register_op("While", _while_kernel, _while_infer, specialize=_while_specialize, foldable=False,
            live_outputs=True,
            num_outputs=lambda attrs: 2 * len(attrs["shapes"]) + len(attrs["extras"]) + 1 +
            attrs.get("num_saved", 0),
            input_names=("input",))


def _less_specific_or_equal(out: TensorShape, inv: TensorShape) -> bool:
    """Whether ``inv`` allows ``out`` (same rank, and equal wherever ``inv`` is known)."""
    if inv.rank is None:
        return True
    if out.rank != inv.rank:
        return False
    return all(i is None or o == i for o, i in zip(out.as_tuple(), inv.as_tuple()))


def _check_body_outputs(name: str, loop_vars: list, shapes: list, outs: list) -> None:
    for x, inv, o in zip(loop_vars, shapes, outs):
        if o.dtype.base_dtype is not x.dtype.base_dtype:
            raise TypeError("%s: loop variable %s enters the loop with dtype %s, but the body "
                            "returns dtype %s for it" % (name, x.name, x.dtype.name,
                                                         o.dtype.name))
        if not _less_specific_or_equal(o.shape, inv):
            raise ValueError("%s: Input tensor '%s' enters the loop with shape %s, but has shape "
                             "%s after one iteration. To allow the shape to vary across "
                             "iterations, use the `shape_invariants` argument of tf.while_loop "
                             "to specify a less-specific shape." % (name, x.name, inv, o.shape))


def build_while(cond_fn: Callable | None, body_fn: Callable, loop_vars: list, shapes: list,
                sliced: list = (), max_iter: Any = None, name: str = "while",
                static_n: int | None = None, ragged: bool = False,
                late_sliced: list | None = None) -> tuple[list, list, Tensor, list]:
    """Builds a While op; returns (final loop vars, stacked extras, count, history).

    ``cond_fn(*loop_vars)`` gives a boolean scalar (None: loop until ``max_iter`` or the
    sliced inputs run out); ``body_fn(*loop_vars, *slices)`` returns (new loop vars,
    extras). All arguments are tensors of the default graph. With ``ragged`` (gradient
    loops), extras whose shape varies between iterations are kept as object arrays.
    ``late_sliced``, a list ``body_fn`` may fill while it is traced with (placeholder of
    the body, tensor of the enclosing graph) pairs, adds sliced inputs found only while
    tracing (a gradient loop's stored intermediates of its forward loop)."""
    specs = [(x.dtype.base_dtype, s) for x, s in zip(loop_vars, shapes)]
    slice_specs = [(s.dtype.base_dtype, s.shape[1:] if s.shape.rank else TensorShape(None))
                   for s in sliced]
    f_cond = None
    cond_caps: list = []
    if cond_fn is not None:
        g_c, args_c, res = trace(name + "_cond", cond_fn, specs)
        res = as_output(g_c, res)
        if res.dtype.base_dtype is not dtypes.bool:
            raise TypeError("%s: cond must return a boolean scalar tensor, got dtype %s"
                            % (name, res.dtype.name))
        if res.shape.rank not in (None, 0):
            raise ValueError("%s: cond must return a boolean scalar tensor, got shape %s"
                             % (name, res.shape))
        f_cond = TracedFunction(g_c, args_c, [res], g_c.side_effects)
        cond_caps = g_c.capture_list
    g_b, args_b, res = trace(name + "_body", body_fn, specs + slice_specs)
    new_vars, extras = res
    if late_sliced:
        args_b = args_b + [p for p, _ in late_sliced]
        sliced = list(sliced) + [t for _, t in late_sliced]
    if len(new_vars) != len(loop_vars):
        raise ValueError("%s: body returned %d loop variables, expected %d"
                         % (name, len(new_vars), len(loop_vars)))
    outs = [as_output(g_b, v) for v in list(new_vars) + list(extras)]
    _check_body_outputs(name, loop_vars, shapes, outs[:len(loop_vars)])
    n_user = len(loop_vars)
    # variables the body assigns become loop variables, written back after the loop; the
    # variables it (or the condition) only reads are captured
    written = [k for k, slot in g_b.var_slots.items() if slot.written is not None]
    if f_cond is not None and any(sl.written is not None for sl in f_cond.graph.var_slots.values()):
        raise TypeError("%s: the loop condition must not assign variables" % name)
    w_slots = [g_b.var_slots[k] for k in written]
    loop_vars = list(loop_vars) + [g_b.outer_value(sl) for sl in w_slots]
    shapes = list(shapes) + [sl.placeholder.shape for sl in w_slots]
    args_b = args_b[:n_user] + [sl.placeholder for sl in w_slots] + args_b[n_user:]
    outs = outs[:n_user] + [sl.written for sl in w_slots] + outs[n_user:]
    g_b.bind_variable_reads([k for k in g_b.var_slots if k not in written])
    if f_cond is not None:
        g_c = f_cond.graph
        f_cond.inputs += [g_c._slot(sl.key, sl.var, sl.ref).placeholder for sl in w_slots]
        g_c.bind_variable_reads([k for k in g_c.var_slots if k not in written])
        cond_caps = g_c.capture_list
    n = len(loop_vars)
    f_body = TracedFunction(g_b, args_b, outs, g_b.side_effects)
    randoms = random_outputs(f_body)    # recorded per iteration, reused by the gradient
    f_body.outputs += randoms
    caps = list(cond_caps) + [t for t in g_b.capture_list if f_cond is None or
                              t not in f_cond.graph._captures]
    if f_cond is not None:       # fuse the condition of the next iteration into the body
        f_cond.bind_captures(caps)
        with graph_scope(g_b):
            go = inline(f_cond, f_body.outputs[:n] + [g_b.capture(t) for t in caps])
        f_body.outputs.append(go[0])
    f_body.bind_captures(caps)
    bounded = max_iter is not None
    try:
        max_iter = convert_to_tensor(max_iter if bounded else -1, dtypes.int32,
                                     name="maximum_iterations")
    except TypeError:
        raise TypeError("%s: maximum_iterations: Expected int32, but got %r of type %r."
                        % (name, max_iter, type(max_iter).__name__)) from None
    if max_iter.shape.rank not in (None, 0):
        raise ValueError("%s: maximum_iterations must be a scalar, got shape %s"
                         % (name, max_iter.shape))
    attrs = {"cond": f_cond, "body": f_body, "shapes": shapes, "num_sliced": len(sliced),
             "extras": [(t.dtype.base_dtype, t.shape) for t in outs[n:] + randoms],
             "num_random": len(randoms), "keep_history": HistoryFlag(), "static_n": static_n,
             "ragged": ragged, "bounded": bounded}
    out = apply_op("While", loop_vars + list(sliced) + caps + [max_iter], attrs, name=name)
    if g_b.side_effects or f_cond is not None and f_cond.graph.side_effects:
        get_default_graph().add_to_collection(SIDE_EFFECTS, out[0].op)   # the body prints
    e = len(extras) + len(randoms)
    finals = out[:n_user]
    writes = [g_b.write_back(sl, v) for sl, v in zip(w_slots, out[n_user:n])]
    writes = [w for w in writes if w is not None]
    if writes:                  # the loop's results are available once the writes are done
        with control_dependencies(writes):
            finals = [identity(t) for t in finals]
    return finals, out[n:n + len(extras)], out[n + e], out[n + e + 1:n + e + 1 + n_user]


def save_intermediates(op: Any, tensors: list) -> list:
    """Makes the While ``op`` record ``tensors`` (of its body's graph) at every iteration, as
    TensorFlow's while_v2 gradient makes its forward loop accumulate them; returns the
    op's outputs holding them stacked along a new first axis (one row per iteration).

    The body outputs them after its other outputs; ``op`` (and every copy of it sharing
    the body) records the first ``num_saved`` of those, so outputs added here are appended
    to ``op.outputs`` and earlier plans, which ask for fewer, stay valid."""
    attrs = op._attrs
    body = attrs["body"]
    start = _saved_start(attrs)
    have = body.outputs[start:]
    where = {id(t): k for k, t in enumerate(have)}
    for t in tensors:
        if id(t) not in where:
            where[id(t)] = len(have)
            have.append(t)
            body.outputs.append(t)
            body._fn = None             # compiled again, with the new outputs
    first = 2 * len(attrs["shapes"]) + len(attrs["extras"]) + 1
    want = max([where[id(t)] + 1 for t in tensors] + [attrs.get("num_saved", 0)])
    n_static = attrs["static_n"]
    for k in range(attrs.get("num_saved", 0), want):
        t = have[k]
        op.outputs.append(Tensor(op, first + k, t.dtype.base_dtype,
                                 TensorShape([n_static]).concatenate(t.shape)))
    attrs["num_saved"] = want
    attrs["keep_history"].keep = True
    return [op.outputs[first + where[id(t)]] for t in tensors]


def _while_random_outputs(op: Any) -> list:
    n, e = len(op._attrs["shapes"]), len(op._attrs["extras"])
    return op.outputs[n + e - op._attrs["num_random"]:n + e]


def _while_with_samples(op: Any, ins: list, samples: dict) -> list:
    """A copy of the While ``op`` on ``ins`` whose body reads the recorded ``samples`` (by
    output index) of its random ops instead of drawing again; returns outputs standing for
    all of ``op``'s outputs."""
    attrs = op._attrs
    n, ns, e, r = len(attrs["shapes"]), attrs["num_sliced"], len(attrs["extras"]), \
        attrs["num_random"]
    cond_f, body_f = attrs["cond"], attrs["body"]
    caps = ins[n + ns:-1]
    drawn = list(range(n + e - r, n + e))

    def cond_fn(*xs: Any) -> Any:
        g = get_default_graph()
        return inline(cond_f, list(xs) + [g.capture(c) for c in caps])[0]

    def body_fn(*args: Any) -> tuple:
        g = get_default_graph()
        rows = dict(zip([body_f.outputs[k] for k in drawn], args[n + ns:]))
        outs = inline(body_f, list(args[:n + ns]) + [g.capture(c) for c in caps], rows)
        return outs[:n], outs[n:n + e - r]
    finals, extras, count, hist = build_while(
        cond_fn if cond_f is not None else None, body_fn, list(ins[:n]), attrs["shapes"],
        sliced=list(ins[n:n + ns]) + [samples[k] for k in drawn],
        max_iter=ins[-1] if attrs.get("bounded", True) else None,
        name=op.name.rsplit("/", 1)[-1], static_n=attrs["static_n"],
        ragged=attrs.get("ragged", False))
    return list(finals) + list(extras) + [samples[k] for k in drawn] + [count] + list(hist)


register_random_outputs("While", _while_random_outputs, _while_with_samples)


def _as_loop_tensor(x: Any) -> Any:
    if isinstance(x, TensorBase):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x)


def _as_eager_loop_var(x: Any) -> Any:
    if hasattr(x, "_from_flow") or nest._composite_parts(x) is not None:   # an ExtensionType
        return x
    return _as_loop_tensor(x)


def _pack_loop_vars(structure: Any, flat: Any) -> Any:
    """``structure`` with its leaves replaced by ``flat``; a TensorArray leaf (which entered
    the loop as its flow tensor, as in TensorFlow) is rebuilt around its new flow."""
    packed = nest.pack_sequence_as(structure, list(flat), expand_composites=True)
    return nest.map_structure(lambda s, x: s._from_flow(x) if hasattr(s, "_from_flow") else x,
                              structure, packed)


def _loop_structure_matches(a: Any, b: Any) -> bool:
    if nest.is_nested(a) != nest.is_nested(b):
        return False
    if not nest.is_nested(a):
        return True
    ca, cb = nest._children(a), nest._children(b)
    return len(ca) == len(cb) and all(_loop_structure_matches(x, y) for x, y in zip(ca, cb))


def _body_result(name: str, loop_vars: Any, result: Any) -> Any:
    if len(loop_vars) == 1 and not isinstance(result, (list, tuple)):
        result = type(loop_vars)([result]) if not hasattr(loop_vars, "_fields") else (result,)
    if not _loop_structure_matches(list(loop_vars), list(result)
                                   if isinstance(result, (list, tuple)) else result):
        raise ValueError("%s: body must return the structure of loop_vars. The two structures "
                         "don't have the same nested structure.\n\nloop_vars: %r\n\nbody "
                         "returned: %r" % (name, loop_vars, result))
    return result


def _eager_while(cond: Callable, body: Callable, loop_vars: Any, maximum_iterations: Any,
                 name: str) -> Any:
    limit = None if maximum_iterations is None else int(convert_to_tensor(maximum_iterations))
    i = 0
    # the loop variables stay as the body returns them (a Python int counter stays an int, as
    # in TensorFlow's eager while_loop: Keras's fori_loop adds it to a float64 tensor) and
    # become tensors at the end
    while limit is None or i < limit:
        c = cond(*loop_vars)
        if isinstance(c, EagerTensor) and c.dtype.base_dtype is not dtypes.bool:
            raise TypeError("%s: cond must return a boolean scalar tensor, got dtype %s"
                            % (name, c.dtype.name))
        if not bool(c):
            break
        loop_vars = _body_result(name, loop_vars, body(*loop_vars))
        i += 1
    return nest.map_structure(_as_eager_loop_var, loop_vars)


def _invariants(name: str, flat: list, shape_invariants: Any) -> list:
    if shape_invariants is None:
        return [x.shape for x in flat]
    flat_inv = nest.flatten(shape_invariants)
    if len(flat_inv) != len(flat):
        raise ValueError("%s: shape_invariants has %d entries but loop_vars has %d"
                         % (name, len(flat_inv), len(flat)))
    out = []
    for x, s in zip(flat, flat_inv):
        s = as_shape(s)
        if not _less_specific_or_equal(x.shape, s):
            raise ValueError("%s: The shape invariant specified for %s is not compatible with "
                             "the initial shape of the loop variable. It enters the loop with "
                             "shape %s, but the specified shape invariant is %s."
                             % (name, x.name, x.shape, s))
        out.append(s)
    return out


def check_parallel_iterations(parallel_iterations: Any) -> None:
    """Raises TensorFlow's TypeError unless ``parallel_iterations`` is at least 1."""
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")


def _while_loop(cond: Callable, body: Callable, loop_vars: Any, shape_invariants: Any,
                back_prop: bool, name: str | None, maximum_iterations: Any,
                return_same_structure: bool, body_container: bool = False) -> Any:
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if loop_vars is None or (nest.is_nested(loop_vars) and not nest.flatten(loop_vars)):
        raise ValueError("'loop_vars' must be provided.")
    wrapped = not isinstance(loop_vars, (list, tuple))
    if wrapped:
        loop_vars = (loop_vars,)
    name = name or "while"
    if executing_eagerly():
        result = _eager_while(cond, body, loop_vars, maximum_iterations, name)
        return result[0] if wrapped else result
    op_name = name
    structure = loop_vars
    flat = [_as_loop_tensor(x) for x in nest.flatten(structure, expand_composites=True)]
    shapes = _invariants(op_name, flat, shape_invariants)

    def cond_fn(*xs: Any) -> Any:
        return cond(*_pack_loop_vars(structure, xs))

    returned: list = []         # the body's own result, whose container TF1 returns

    def body_fn(*xs: Any) -> tuple:
        returned[:] = [body(*_pack_loop_vars(structure, xs))]
        res = _body_result(op_name, structure, returned[0])
        return [_as_loop_tensor(x) for x in nest.flatten(res, expand_composites=True)], []
    finals, _, _, _ = build_while(cond_fn, body_fn, flat, shapes, max_iter=maximum_iterations,
                                  name=op_name)
    if not back_prop:
        finals = [stop_gradient(t) for t in finals]
    result = _pack_loop_vars(structure, finals)
    if wrapped:
        return result[0]
    if body_container and type(returned[0]) in (list, tuple):
        result = type(returned[0])(result)
    if not return_same_structure and len(finals) == 1:
        return finals[0]
    return result


def while_loop_v1(cond: Callable, body: Callable, loop_vars: Any, shape_invariants: Any = None,
                  parallel_iterations: int = 10, back_prop: bool = True,
                  swap_memory: bool = False, name: str | None = None,
                  maximum_iterations: Any = None, return_same_structure: bool = False) -> Any:
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (TF1 signature).

    With one loop variable and ``return_same_structure=False`` the result is that
    tensor itself. ``maximum_iterations`` bounds the number of iterations.

    Args:
        cond: A callable returning a bool scalar from the loop variables: whether to run ``body``
            again.
        body: A callable returning the loop variables' next values (the same structure).
        loop_vars: The loop variables' first values: a tensor or a nest of tensors.
        shape_invariants: The shapes the loop variables may take (a nest of TensorShape); their
            first shapes when None.
        parallel_iterations: Accepted for TensorFlow's signature (iterations run in order).
        back_prop: Whether gradients flow through the loop.
        swap_memory: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
        maximum_iterations: The most iterations to run; no limit when None.
        return_same_structure: Whether a single loop variable comes back in its list (TensorFlow 2's
            behaviour).
    """
    check_parallel_iterations(parallel_iterations)
    # TF1's control flow (v1, on after disable_v2_behavior) returns the list or tuple the
    # body returned; TF2's (while_v2) the loop_vars' one
    return _while_loop(cond, body, loop_vars, shape_invariants, back_prop, name,
                       maximum_iterations, return_same_structure,
                       body_container=not v2_behavior_enabled())


def while_loop(cond: Callable, body: Callable, loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations: Any = None, name: str | None = None) -> Any:
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (TF2 signature:
    the result has the structure of ``loop_vars``).

    Args:
        cond: A callable returning a bool scalar from the loop variables: whether to run ``body``
            again.
        body: A callable returning the loop variables' next values (the same structure).
        loop_vars: The loop variables' first values: a tensor or a nest of tensors.
        shape_invariants: The shapes the loop variables may take (a nest of TensorShape); their
            first shapes when None.
        parallel_iterations: Accepted for TensorFlow's signature (iterations run in order).
        back_prop: Whether gradients flow through the loop.
        swap_memory: Accepted for TensorFlow's signature.
        maximum_iterations: The most iterations to run; no limit when None.
        name: A name for the operation (optional).
    """
    check_parallel_iterations(parallel_iterations)
    return _while_loop(cond, body, loop_vars, shape_invariants, back_prop, name,
                       maximum_iterations, True)


__all__ = ["while_loop", "while_loop_v1"]
