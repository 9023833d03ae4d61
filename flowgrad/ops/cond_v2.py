"""``tf.cond``, ``tf.case``, ``tf.switch_case``: the functional If op.

In a graph each branch is traced into a sub-graph (``flowgrad.ops.subgraph``);
the If op takes the predicate and every tensor either branch captured, and its
kernel runs only the taken branch's compiled plan. Its gradient (registered in
``flowgrad.autodiff.control_flow_grad``) is another If op over the branches' gradient
sub-graphs, so only the taken branch runs backwards too, and gradients of any
order follow. Eagerly, ``cond`` simply calls the taken branch (as TensorFlow
does) and the tape records its ops.

Unlike TF1's Switch/Merge (where both branches are in the graph and dead tensors
flow through the untaken one) the branches are separate sub-graphs, as in TF2's
If op. Unlike TF2, whose If op outputs the intermediates its gradient needs, the
gradient branches recompute the forward branch from its inputs; only the samples
of random ops (dropout masks) are output and reused."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly, graph_scope
from flowgrad.framework.graph import (Operation, control_dependencies, get_default_graph,
                                      name_scope)
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import register_op
from flowgrad.framework.tensor import TensorBase, constant, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import identity
from flowgrad.ops.math_ops import equal
from flowgrad.ops.script_ops import py_func
from flowgrad.ops.subgraph import (SIDE_EFFECTS, TracedFunction, as_output, inline,
                                   random_outputs, register_random_outputs, trace)
from flowgrad.framework.type_hints import TensorLike


def _if_infer(ins: list, attrs: dict) -> list:
    return [(dt, s) for dt, s in zip(attrs["Tout"], attrs["output_shapes"])]


def _if_specialize(attrs: dict) -> Callable:
    then_f, else_f = attrs["then_branch"], attrs["else_branch"]
    single = len(attrs["Tout"]) == 1

    def run(pred: Any, *args: Any) -> Any:
        if getattr(pred, "ndim", 0):
            raise errors.InvalidArgumentError(None, None, "The second input must be a scalar, "
                                              "but it has shape %s" % list(pred.shape))
        f = then_f if pred else else_f
        try:
            out = f.compiled()(args)
        except Exception as e:
            raise f.runtime_error(e, "branch %s" % f.graph.name) from e
        return out[0] if single else out
    return run


def _if_kernel(pred: Any, *args: Any, **attrs: Any) -> Any:
    return _if_specialize(attrs)(pred, *args)


register_op("If", _if_kernel, _if_infer, specialize=_if_specialize, foldable=False,
            num_outputs=lambda attrs: len(attrs["Tout"]), input_names=("cond", "input"))


def merge_shapes(a: TensorShape, b: TensorShape) -> TensorShape:
    """The most specific shape compatible with both (unknown where they differ)."""
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_tuple(), b.as_tuple())])


def check_predicate(pred: TensorLike, op_name: str, what: str = "pred") -> Any:
    """``pred`` as a boolean scalar tensor; TypeError/ValueError naming the op otherwise."""
    if isinstance(pred, bool):
        raise TypeError("%s: %s must not be a Python bool" % (op_name, what))
    p = convert_to_tensor(pred)
    if p.dtype.base_dtype is not dtypes.bool:
        raise TypeError("%s: %s must be a boolean tensor, got dtype %s (%s)"
                        % (op_name, what, p.dtype.name, getattr(p, "name", p)))
    if p.shape.rank not in (None, 0):
        raise ValueError("%s: %s must be a scalar, got shape %s" % (op_name, what, p.shape))
    return p


def _structure_str(x: Any) -> str:
    return repr(nest.map_structure(
        lambda t: "%s%s" % (t.dtype.name, t.shape) if isinstance(t, TensorBase) else t, x)) \
        if nest.is_nested(x) else repr(x)


def _same_structure(a: Any, b: Any, composites: bool = True) -> bool:
    if nest.is_nested(a) != nest.is_nested(b):
        return False
    if not nest.is_nested(a):
        parts_a, parts_b = nest._composite_parts(a), nest._composite_parts(b)
        if not composites or parts_a is None and parts_b is None:
            return True
        return type(a) is type(b) and _same_structure(parts_a, parts_b)   # ExtensionTypes
    if isinstance(a, dict) != isinstance(b, dict):
        return False
    if isinstance(a, dict) and sorted(a) != sorted(b):
        return False
    ca, cb = nest._children(a), nest._children(b)
    return len(ca) == len(cb) and all(_same_structure(x, y, composites)
                                      for x, y in zip(ca, cb))


def _unpack_singleton(x: Any) -> Any:
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields") and len(x) == 1:
        return x[0]
    return x


def _is_op(x: Any) -> bool:
    return isinstance(x, Operation) or x is None


def build_cond(pred: TensorLike, true_fn: Callable, false_fn: Callable, name: str,
               strict: bool = True) -> Any:
    """Builds an If op (graph mode) and returns the branches' structure of outputs."""
    g_t, _, res_t = trace(name + "_true", true_fn, [])
    g_f, _, res_f = trace(name + "_false", false_fn, [])
    if not strict:
        res_t, res_f = _unpack_singleton(res_t), _unpack_singleton(res_f)
    if not _same_structure(res_t, res_f):
        # Composites of different types (ExtensionTypes) are TensorFlow's TypeError.
        error = TypeError if _same_structure(res_t, res_f, composites=False) else ValueError
        raise error("%s: true_fn and false_fn arguments to tf.cond must have the same "
                         "number, type, and overall structure of return values.\n\ntrue_fn "
                         "output: %s\nfalse_fn output: %s" % (name, _structure_str(res_t),
                                                              _structure_str(res_f)))
    flat_t = nest.flatten(res_t, expand_composites=True)
    flat_f = nest.flatten(res_f, expand_composites=True)
    outs_t, outs_f, ctrl_t, ctrl_f, kinds = [], [], [], [], []
    for i, (a, b) in enumerate(zip(flat_t, flat_f)):
        if _is_op(a) or _is_op(b):
            if not (_is_op(a) and _is_op(b)):
                raise ValueError("%s: output %d is an operation in one branch and a tensor in "
                                 "the other (true_fn: %r, false_fn: %r)" % (name, i, a, b))
            ctrl_t.extend([a] if a is not None and a.graph is g_t else [])
            ctrl_f.extend([b] if b is not None and b.graph is g_f else [])
            kinds.append(None if a is None and b is None else "op")
            continue
        ta, tb = as_output(g_t, a), as_output(g_f, b)
        if ta.dtype.base_dtype is not tb.dtype.base_dtype:
            raise TypeError("%s: true_fn and false_fn arguments to tf.cond must have the same "
                            "number, type, and overall structure of return values; output %d "
                            "has dtype %s in true_fn but %s in false_fn"
                            % (name, i, ta.dtype.name, tb.dtype.name))
        outs_t.append(ta)
        outs_f.append(tb)
        kinds.append("tensor")
    # variables assigned in a branch are outputs (the other branch passes their value
    # through), written back after the op; every variable read is a captured input
    n_user = len(outs_t)
    written = [k for g in (g_t, g_f) for k, sl in g.var_slots.items() if sl.written is not None]
    written = list(dict.fromkeys(written))
    for key in written:
        sl = g_t.var_slots.get(key) or g_f.var_slots[key]
        for g, outs in ((g_t, outs_t), (g_f, outs_f)):
            outs.append(g._slot_value(g._slot(key, sl.var, sl.ref)))
    g_t.bind_variable_reads()
    g_f.bind_variable_reads()
    f_t = TracedFunction(g_t, [], outs_t, ctrl_t + g_t.side_effects)
    f_f = TracedFunction(g_f, [], outs_f, ctrl_f + g_f.side_effects)
    # the samples of random ops are outputs too: the gradient reuses them (see random_outputs)
    n_out = len(outs_t)
    r_t, r_f = random_outputs(f_t), random_outputs(f_f)
    f_t.outputs += r_t + [_empty_like(g_t, x) for x in r_f]
    f_f.outputs += [_empty_like(g_f, x) for x in r_t] + r_f
    caps = list(g_t.capture_list)
    caps += [t for t in g_f.capture_list if t not in g_t._captures]
    f_t.bind_captures(caps)
    f_f.bind_captures(caps)
    attrs = {"then_branch": f_t, "else_branch": f_f,
             "Tout": [t.dtype.base_dtype for t in f_t.outputs],
             "output_shapes": [merge_shapes(a.shape, b.shape)
                               for a, b in zip(f_t.outputs, f_f.outputs)],
             "random_outputs": (n_out, len(r_t), len(r_f))}
    out = apply_op("If", [pred] + caps, attrs, name=name)
    if g_t.side_effects or g_f.side_effects:    # a branch prints or writes a summary
        get_default_graph().add_to_collection(
            SIDE_EFFECTS, out if isinstance(out, Operation) else nest.flatten(out)[0].op)
    if isinstance(out, Operation):
        op, tensors = out, []
    else:
        all_out = out if isinstance(out, list) else [out]
        op, tensors = all_out[0].op, all_out[:n_user]
        writes = [g_t.write_back(g_t.var_slots.get(k) or g_f.var_slots[k], v)
                  for k, v in zip(written, all_out[n_user:n_out])]
        writes = [w for w in writes if w is not None]
        if writes:              # the results are available once the writes are done
            with control_dependencies(writes):
                tensors = [identity(t) for t in tensors]
            if not tensors:
                with control_dependencies(writes):
                    op = apply_op("NoOp", [], name=name + "_writes")
    it = iter(tensors)
    flat = [next(it) if k == "tensor" else (op if k == "op" else None) for k in kinds]
    return nest.pack_sequence_as(res_t, flat, expand_composites=True)


def _empty_like(g: Any, t: Any) -> Any:
    """An empty tensor of ``t``'s dtype and rank in graph ``g`` (an unused output slot)."""
    rank = t.shape.rank if t.shape.rank is not None else 1
    with graph_scope(g):
        return constant(np.zeros((0,) * rank, t.dtype.base_dtype.np))


def _if_random_outputs(op: Operation) -> list:
    n_out, r_t, r_f = op.get_attr("random_outputs")
    return op.outputs[n_out:n_out + r_t + r_f]


def _if_with_samples(op: Operation, ins: list, samples: dict) -> list:
    """A copy of the If ``op`` on ``ins`` whose branches use ``samples`` (by output index)
    instead of drawing again; returns outputs standing for all of ``op``'s outputs."""
    then_f, else_f = op.get_attr("then_branch"), op.get_attr("else_branch")
    n_out, r_t, r_f = op.get_attr("random_outputs")
    pred, caps = ins[0], ins[1:]

    def branch(f: TracedFunction, first: int, count: int) -> Callable:
        def fn() -> list:
            g = get_default_graph()
            drawn = {f.outputs[k]: g.capture(samples[k]) for k in range(first, first + count)
                     if k in samples}
            return inline(f, [g.capture(c) for c in caps], drawn)[:n_out]
        return fn
    outs = build_cond(pred, branch(then_f, n_out, r_t), branch(else_f, n_out + r_t, r_f),
                      op.name.rsplit("/", 1)[-1])
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return outs + [samples.get(k) for k in range(n_out, len(op.outputs))]


register_random_outputs("If", _if_random_outputs, _if_with_samples)


def _check_callables(true_fn: Any, false_fn: Any) -> None:
    if not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if not callable(false_fn):
        raise TypeError("false_fn must be callable.")


def cond_v1(pred: TensorLike, true_fn: Callable | None = None, false_fn: Callable | None = None,
            strict: bool = False, name: str | None = None, fn1: Callable | None = None,
            fn2: Callable | None = None) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()``; in a graph only the taken branch runs.

    TF1 signature: ``fn1``/``fn2`` are the old names of ``true_fn``/``false_fn``; unless
    ``strict``, a branch result that is a one-element list or tuple is unpacked.

    Args:
        pred: A bool scalar.
        true_fn: The callable run when ``pred`` is true.
        false_fn: The callable run when it is false.
        strict: Whether to keep single-element results as lists.
        name: A name for the operation (optional).
        fn1: TF1's deprecated name for ``true_fn``.
        fn2: TF1's deprecated name for ``false_fn``.
    """
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
        false_fn = fn2
    _check_callables(true_fn, false_fn)
    if executing_eagerly():         # as TensorFlow: any value with a truth value, bools too
        res = true_fn() if bool(pred if isinstance(pred, bool) else convert_to_tensor(pred)) \
            else false_fn()
        return res if strict else _unpack_singleton(res)
    name = name or "cond"
    return build_cond(check_predicate(pred, name), true_fn, false_fn, name, strict)


def cond(pred: TensorLike, true_fn: Callable | None = None, false_fn: Callable | None = None,
         name: str | None = None) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()`` (TF2 signature: branch results kept as
    returned).

    Args:
        pred: A bool scalar.
        true_fn: The callable run when ``pred`` is true.
        false_fn: The callable run when it is false.
        name: A name for the operation (optional).
    """
    return cond_v1(pred, true_fn, false_fn, strict=True, name=name)


def _pairs(pred_fn_pairs: Any, what: str) -> list:
    items = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else \
        list(pred_fn_pairs)
    for p in items:
        if not (isinstance(p, tuple) and len(p) == 2):
            raise TypeError("%s: each entry of pred_fn_pairs must be a (predicate, callable) "
                            "pair, got %r" % (what, p))
        if not callable(p[1]):
            raise TypeError("%s: fn for pred %s must be callable." % (what, getattr(p[0], "name",
                                                                                  p[0])))
    return items


def case(pred_fn_pairs: Any, default: Callable | None = None, exclusive: bool = False,
         strict: bool = False, name: str = "case") -> Any:
    """The result of the first callable whose predicate is true (else ``default``).

    Without ``default`` the last pair's callable is the default. With ``exclusive``, it
    is an InvalidArgumentError (at run time) for more than one predicate to be true.

    Args:
        pred_fn_pairs: A list of (bool scalar, callable) pairs.
        default: The callable run when no predicate holds.
        exclusive: Whether to check that at most one predicate holds.
        strict: Whether to keep single-element results as lists (TF1's ``strict``).
        name: A name for the operation (optional).
    """
    pairs = _pairs(pred_fn_pairs, name)
    if not pairs:
        if default is None:
            raise ValueError("%s: pred_fn_pairs must not be empty" % name)
        return default()
    last_pred = None
    if default is None:
        last_pred, default = pairs[-1]
        pairs = pairs[:-1]
    if executing_eagerly():
        preds = [bool(p if isinstance(p, bool) else convert_to_tensor(p)) for p, _ in pairs]
        if exclusive and sum(preds) > 1:
            _more_than_one_true(name, [p for p, _ in pairs])
        for taken, (_, fn) in zip(preds, pairs):
            if taken:
                return fn()
        if last_pred is not None and not bool(last_pred if isinstance(last_pred, bool)
                                              else convert_to_tensor(last_pred)):
            _none_true(name)
        return default()
    with name_scope(name, "case") as scope:
        preds = [check_predicate(p, scope[:-1]) for p, _ in pairs]
        if exclusive and len(preds) > 1:
            preds = _exclusive_check(preds, scope[:-1])
        if last_pred is not None:
            default = _asserting_default(check_predicate(last_pred, scope[:-1]), default,
                                         scope[:-1])

        def chain(i: int) -> Callable:
            if i == len(pairs):
                return default
            return lambda: cond_v1(preds[i], pairs[i][1], chain(i + 1), strict=strict)
        return chain(0)()


def _more_than_one_true(name: str, preds: list) -> None:
    raise errors.InvalidArgumentError(None, None, "%s: more than one condition evaluated as "
                                      "True but exclusive=True; conditions: %s"
                                      % (name, [getattr(p, "name", p) for p in preds]))


def _none_true(name: str) -> None:
    raise errors.InvalidArgumentError(None, None, "%s: None of conditions evaluated as True"
                                      % name)


def _asserting_default(pred: Any, fn: Callable, name: str) -> Callable:
    """``fn`` run after a check that ``pred`` (the last pair's predicate) is true."""

    def check(value: Any) -> Any:
        if not value:
            _none_true(name)
        return value

    def run() -> Any:
        ok = py_func(check, [pred], dtypes.bool, stateful=False, name="default_check")
        with control_dependencies([ok]):
            return nest.map_structure(
                lambda t: identity(t) if isinstance(t, TensorBase) else t, fn())
    return run


def _exclusive_check(preds: list, name: str) -> list:
    """``preds`` gated by a run-time check that at most one of them is true."""

    def check(*values: Any) -> Any:
        if int(np.sum(values)) > 1:
            _more_than_one_true(name, preds)
        return np.bool_(True)
    ok = py_func(check, preds, dtypes.bool, stateful=False, name="exclusive_check")
    with control_dependencies([ok]):
        return [identity(p) for p in preds]


def switch_case(branch_index: Any, branch_fns: Any, default: Callable | None = None,
                name: str = "switch_case") -> Any:
    """``branch_fns[branch_index]()``; an index out of range runs ``default`` (else the
    last branch).

    Args:
        branch_index: An int32 scalar: which branch to run.
        branch_fns: A list of callables, or a dict from ints to callables.
        default: The callable run for an index outside the branches; the last branch when None.
        name: A name for the operation (optional).
    """
    if isinstance(branch_fns, dict):
        items = sorted(branch_fns.items())
    else:
        items = list(branch_fns)
        if items and not isinstance(items[0], tuple):
            items = list(enumerate(items))
    if not items:
        raise ValueError("%s: branch_fns must not be empty" % name)
    keys = [k for k, _ in items]
    if keys != list(range(len(items))):
        raise ValueError("%s: branch indices must be the integers 0..%d, got %s"
                         % (name, len(items) - 1, keys))
    fns = [f for _, f in items]
    for i, f in enumerate(fns):
        if not callable(f):
            raise TypeError("%s: branch_fns[%d] must be callable." % (name, i))
    if default is not None:
        fns.append(default)
    if executing_eagerly():
        i = int(convert_to_tensor(branch_index))
        return fns[i if 0 <= i < len(fns) else -1]()
    with name_scope(name, "switch_case") as scope:
        idx = convert_to_tensor(branch_index)
        if not idx.dtype.is_integer:
            raise TypeError("%s: branch_index must be an integer tensor, got dtype %s"
                            % (scope[:-1], idx.dtype.name))
        if idx.shape.rank not in (None, 0):
            raise ValueError("%s: branch_index must be a scalar, got shape %s"
                             % (scope[:-1], idx.shape))

        def chain(i: int) -> Callable:
            if i == len(fns) - 1:
                return fns[i]
            return lambda: cond(equal(idx, i), fns[i], chain(i + 1))
        return chain(0)()


__all__ = ["cond", "cond_v1", "case", "switch_case"]
