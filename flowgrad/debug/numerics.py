"""Check-numerics mode: the first NaN or Inf, forward or backward, raises with its origin.

``with flowgrad.debug.check_numerics_mode():`` (or ``tf.debugging.enable_check_numerics()``,
or ``Session(check_numerics=True)``) checks every floating-point value an op
produces, in Session plans and in eager execution. The first non-finite value
raises InvalidArgumentError naming the op, the user line that created it, the
input values at the first bad element and the likely cause; for an op of a
gradient, also the forward op it differentiates and which factor went
non-finite (an incoming gradient of 0 times an infinite local derivative, say).

Normal Session plans are untouched: a checked plan is compiled separately by
``NumericsPlanCompiler``, which appends one test after each op (and does not fold
constants, so that every op is checked)."""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad.debug._where import created_at, source_line, where
from flowgrad.framework import errors, hooks
from flowgrad.framework.context import state, user_frame
from flowgrad.runtime.plan import PlanCompiler

# --------------------------------------------------------------------------------------
# Switching the mode on and off


@contextlib.contextmanager
def check_numerics_mode(enabled: bool = True) -> Iterator[None]:
    """Inside the block, every op's floating-point output is checked (Session and eager);
    the first NaN or Inf raises InvalidArgumentError explaining where it came from.

    Args:
        enabled: Whether every op's outputs are checked for NaN and Inf.
    """
    saved = state.check_numerics
    state.check_numerics = bool(enabled)
    try:
        yield
    finally:
        state.check_numerics = saved


def enable_check_numerics(stack_height_limit: int = 30, path_length_limit: int = 50) -> None:
    """Turns check-numerics mode on globally (``tf.debugging.enable_check_numerics``).

    Args:
        stack_height_limit: Accepted for TensorFlow's signature (the error shows where the op was
            made).
        path_length_limit: Accepted for TensorFlow's signature.
    """
    state.check_numerics = True


def disable_check_numerics() -> None:
    """Turns check-numerics mode off (``tf.debugging.disable_check_numerics``)."""
    state.check_numerics = False


# --------------------------------------------------------------------------------------
# What is known about the first non-finite value


class GradientContext:
    """The forward op whose gradient a failing op computes, with the values around it."""

    def __init__(self, op: Any, inputs: list, incoming: list, roles: list | None):
        self.op = op                # the forward op (graph Operation or tape record)
        self.inputs = inputs        # [(label, value or None)] of the forward op's inputs
        self.incoming = incoming    # values (or None) of the gradients flowing into it
        self.roles = roles          # per input of the failing op: 'incoming gradient' | ...


class Site:
    """The failing op, its outputs and inputs (label, value, note) and gradient context."""

    def __init__(self, op_type: str, op_name: str, created: str, outputs: list, inputs: list,
                 grad: GradientContext | None, producers: list | None = None):
        self.op_type = op_type
        self.op_name = op_name
        self.created = created
        self.outputs = outputs
        self.inputs = inputs
        self.grad = grad
        self.producers = producers or [None] * len(inputs)   # graph ops producing inputs


def _finite(v: Any) -> bool:
    return bool(np.isfinite(v).all())


def _fmt(v: Any) -> str:
    if v is None:
        return "(not available)"
    v = np.asarray(v)
    if v.ndim:
        return "array of shape %s" % (v.shape,)
    return repr(v.item()) if v.dtype.kind in "fiub" else str(v.item())


def _at(v: Any, idx: tuple, shape: tuple) -> Any:
    """The element of ``v`` that meets output index ``idx`` under broadcasting, else None."""
    if v is None:
        return None
    a = np.asarray(v)
    if a.ndim == 0:
        return a[()]
    try:
        return np.broadcast_to(a, shape)[idx]
    except ValueError:
        return None


def _kind(x: Any) -> str:
    if np.isnan(x):
        return "nan"
    return "inf" if np.iscomplexobj(x) or x > 0 else "-inf"


def _real(values: list) -> bool:
    """Whether every known value is a real number (the domain rules assume reals)."""
    return all(v is None or not np.iscomplexobj(v) for v in values)


# local derivatives of ops with singular points: op type -> [(formula, f(*inputs))] per input
_LOCAL = {
    "Sqrt": [("0.5 / sqrt(x)", lambda x: 0.5 / np.sqrt(x))],
    "Rsqrt": [("-0.5 * x ** -1.5", lambda x: -0.5 * x ** -1.5)],
    "Log": [("1 / x", lambda x: 1.0 / x)],
    "Log1p": [("1 / (1 + x)", lambda x: 1.0 / (1.0 + x))],
    "Reciprocal": [("-1 / x ** 2", lambda x: -1.0 / (x * x))],
    "Inv": [("-1 / x ** 2", lambda x: -1.0 / (x * x))],
    "RealDiv": [("1 / y", lambda x, y: 1.0 / y), ("-x / y ** 2", lambda x, y: -x / (y * y))],
    "Div": [("1 / y", lambda x, y: 1.0 / y), ("-x / y ** 2", lambda x, y: -x / (y * y))],
    "Pow": [("y * x ** (y - 1)", lambda x, y: y * np.power(x, y - 1.0)),
            ("x ** y * log(x)", lambda x, y: np.power(x, y) * np.log(x))],
    "Acos": [("-1 / sqrt(1 - x ** 2)", lambda x: -1.0 / np.sqrt(1.0 - x * x))],
    "Asin": [("1 / sqrt(1 - x ** 2)", lambda x: 1.0 / np.sqrt(1.0 - x * x))],
    "Atanh": [("1 / (1 - x ** 2)", lambda x: 1.0 / (1.0 - x * x))],
}
_LOG_TYPES = ("Log", "Log1p")
_DIV_TYPES = ("RealDiv", "Div", "TrueDiv", "FloorDiv", "Reciprocal", "Inv", "Rsqrt")
_UNDERFLOWING = {"Softmax": "tf.nn.log_softmax(logits), or "
                            "tf.nn.softmax_cross_entropy_with_logits_v2(labels, logits)",
                 "Sigmoid": "tf.math.log_sigmoid(x), or "
                            "tf.nn.sigmoid_cross_entropy_with_logits(labels, logits)"}


def describe(site: Site) -> str:
    """The error message for a non-finite output of ``site``.

    Args:
        site: The op (and, for a gradient op, its forward op) whose output is not finite.

    Returns:
        The message, naming the op, where it was created and its inputs.
    """
    k, out = next((i, np.asarray(o)) for i, o in enumerate(site.outputs) if not _finite(o))
    bad = ~np.isfinite(out)
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if out.ndim else ()
    val = out[idx]
    lines = ["check_numerics: op '%s' (%s) produced %s%s at index %s (%d NaN and %d Inf among "
             "%d values)" % (site.op_name, site.op_type, _kind(val),
                             " in output %d" % k if len(site.outputs) > 1 else "", list(idx),
                             int(np.isnan(out).sum()), int(np.isinf(out).sum()), out.size),
             "  " + site.created]
    if site.grad is not None:
        f = site.grad.op
        lines.append("  It computes part of the gradient of op '%s' (%s), %s"
                     % (getattr(f, "name", f.type), f.type, created_at(f)))
    if site.inputs:
        lines.append("  Its inputs at that index:")
        for i, (label, v, note) in enumerate(site.inputs):
            role = site.grad.roles[i] if site.grad is not None and site.grad.roles else None
            extra = "  [%s]" % role if role else ""
            lines.append("    %s = %s%s%s" % (label, _fmt(_at(v, idx, out.shape)), extra, note))
    lines.extend("  " + c for c in _causes(site, idx, out.shape, val))
    return "\n".join(lines)


def _causes(site: Site, idx: tuple, shape: tuple, val: Any) -> list:
    vals = [_at(v, idx, shape) for _, v, _ in site.inputs]
    for (label, _, note), x in zip(site.inputs, vals):
        if x is not None and not np.all(np.isfinite(x)):
            return ["Cause: input %s is already %s%s; it was not produced by a checked op "
                    "(a fed value, a variable or a constant)." % (label, _fmt(x), note)]
    if site.grad is not None:
        return _gradient_causes(site.grad, idx, shape)
    return _forward_causes(site, vals, val)


def _gradient_causes(g: GradientContext, idx: tuple, shape: tuple) -> list:
    f = g.op
    xs = [_at(v, idx, shape) for _, v in g.inputs]
    incoming = next((_at(v, idx, shape) for v in g.incoming if v is not None), None)
    out = []
    rules = _LOCAL.get(f.type)
    if rules and all(x is not None for x in xs) and _real(xs + [incoming]):
        at = ", ".join("%s = %s" % (lbl, _fmt(x)) for (lbl, _), x in zip(g.inputs, xs))
        for formula, fn in rules:
            with np.errstate(all="ignore"):
                d = fn(*[np.float64(x) for x in xs])
            if np.isfinite(d):
                continue
            if incoming is not None:
                with np.errstate(all="ignore"):
                    prod = np.float64(incoming) * d
                out.append("Cause: incoming gradient %s times local derivative %s = %s of %s "
                           "at %s gives %s." % (_fmt(incoming), formula, _fmt(d), f.type, at,
                                                _fmt(prod)))
            else:
                out.append("Cause: the local derivative %s = %s of %s at %s is not finite."
                           % (formula, _fmt(d), f.type, at))
            if incoming is not None and incoming == 0:
                out.append("The incoming gradient is 0 here (a tf.where masked this element, "
                           "or it does not affect the loss), yet 0 * inf = NaN. Keep the "
                           "input of %s out of its singular point on the masked side, with the "
                           "double-where rewrite: safe = tf.where(mask, x, tf.ones_like(x)); "
                           "tf.where(mask, tf.%s(safe), 0.)." % (f.type, f.type.lower()))
            else:
                out.append("The derivative of %s is infinite at this input; keep the input "
                           "away from it (e.g. tf.maximum(x, 1e-12)) or guard it with "
                           "tf.where." % f.type)
            return out
    if incoming is not None:
        out.append("The incoming gradient of %s at this index is %s." % (f.type, _fmt(incoming)))
    out.append("Cause: the gradient function of %s produced a non-finite value from finite "
               "inputs (an overflow, or 0 * inf / 0 / 0 inside it)." % f.type)
    return out


def _forward_causes(site: Site, xs: list, val: Any) -> list:
    t = site.op_type
    if not _real(xs + [val]):
        return ["Cause: a complex operation produced a non-finite value from finite inputs."]
    x = xs[0] if xs else None
    y = xs[1] if len(xs) > 1 else None
    if t in _LOG_TYPES and x is not None:
        arg = x + 1 if t == "Log1p" else x
        cause = ["Cause: %s of %s is %s." % (t, _fmt(x), _kind(val)) if arg != 0 else
                 "Cause: %s of %s: the logarithm of 0 is -inf." % (t, _fmt(x))]
        prod = _underflowing_producer(site.producers[0])
        if prod is not None and arg == 0:
            cause.append("Its input came from %s '%s' (%s) and underflowed to 0. Compute "
                         "log-probabilities directly with %s instead of tf.log(%s(...))."
                         % (prod.type, prod.name, created_at(prod), _UNDERFLOWING[prod.type],
                            prod.type.lower()))
        elif arg == 0:
            cause.append("Keep its input positive, e.g. tf.log(tf.maximum(x, 1e-12)).")
        return cause
    if t == "Sqrt" and x is not None and x < 0:
        return ["Cause: the square root of a negative number (%s) is NaN." % _fmt(x)]
    if t in _DIV_TYPES:
        den = x if t in ("Reciprocal", "Inv", "Rsqrt") else y
        if den is not None and den == 0:
            if t not in ("Reciprocal", "Inv", "Rsqrt") and x == 0:
                return ["Cause: 0 / 0 is NaN."]
            return ["Cause: division by zero (the denominator is 0)."]
    if t == "Pow" and x is not None and y is not None:
        if x == 0 and y < 0:
            return ["Cause: 0 raised to a negative power (%s) is inf." % _fmt(y)]
        if x < 0 and y != np.round(y):
            return ["Cause: a negative base (%s) raised to a fractional power (%s) is NaN."
                    % (_fmt(x), _fmt(y))]
    if np.isinf(val):
        dt = np.asarray(site.outputs[0]).dtype
        limit = np.finfo(dt).max if dt.kind == "f" else None
        return ["Cause: overflow: the result exceeds the largest %s%s." % (
            dt.name, " (%g)" % limit if limit is not None else "")]
    return ["Cause: all inputs are finite, so the op itself produced NaN (an undefined "
            "operation such as 0 * inf, inf - inf or 0 / 0)."]


def _underflowing_producer(op: Any) -> Any:
    """A Softmax/Sigmoid op feeding ``op``'s value, seen through Identity-like ops."""
    for _ in range(4):
        if op is None:
            return None
        if op.type in _UNDERFLOWING:
            return op
        if op.type not in ("Identity", "CheckNumerics", "Snapshot") or not op.inputs:
            return None
        op = op.inputs[0].op
    return None


# --------------------------------------------------------------------------------------
# Session plans


class NumericsPlanCompiler(PlanCompiler):
    """A PlanCompiler whose plans test every floating-point output right after its op.

    Args:
        state_ref: The mapping variable op -> value the plan reads and commits.
        rng_for: ``rng_for(op)`` gives the random generator of a random op.
        owned: Variable op -> the array of its value the runner owns (updated in place).
        parallel: Whether big kernels run on the worker thread beside other work.
    """

    fold_constants = False

    def compile(self, leaves: list, fed: list, build_result: Callable) -> Any:
        self._names: dict = {}          # tensor -> generated name of its value
        self._fed = set(fed)
        return super().compile(leaves, fed, build_result)

    def after_op(self, op: Any, args: list, outs: list, gname: Callable) -> str | None:
        for t, a in zip(op._inputs, args):
            self._names[t] = a
        for t, o in zip(op.outputs, outs):
            self._names[t] = o
        checked = [o for t, o in zip(op.outputs, outs) if t.dtype.base_dtype.np.kind in "fc"]
        if not checked:
            return None
        fin = gname("fin", _finite)
        cond = " and ".join("%s(%s)" % (fin, o) for o in checked)
        return "if not (%s): %s(%s, %s, (%s,), (%s))" % (
            cond, gname("nonfinite", self._raise), gname("K", op), gname("M", self._names),
            ", ".join(outs), "".join(a + ", " for a in args))

    def _raise(self, op: Any, names: dict, outs: tuple, ins: tuple) -> None:
        frame = sys._getframe(1)

        def value(t: Any) -> Any:
            n = names.get(t)
            if n is None:
                return None
            return frame.f_locals[n] if n in frame.f_locals else frame.f_globals.get(n)
        raise errors.InvalidArgumentError(None, op, describe(_graph_site(op, outs, ins, value,
                                                                         self._fed)))


def _graph_site(op: Any, outs: tuple, ins: tuple, value: Callable, fed: set) -> Site:
    from flowgrad.autodiff.backprop import gradient_origin
    inputs = []
    for t, v in zip(op.inputs, ins):
        src = "fed" if t in fed else "output of %s '%s'" % (t.op.type, t.op.name)
        inputs.append((t.name, v, "   (%s)" % src))
    grad = None
    origin = gradient_origin(op)
    if origin is not None and origin[0] is not None:
        f, incoming = origin
        roles = [_role(t, f, incoming) for t in op.inputs]
        grad = GradientContext(f, [(t.name, value(t)) for t in f.inputs],
                               [value(g) for g in incoming], roles)
    return Site(op.type, op.name, created_at(op), list(outs), inputs, grad,
                [t.op for t in op.inputs])


def _role(t: Any, f: Any, incoming: tuple) -> str:
    """Whether input ``t`` of an op in f's gradient carries the incoming gradient."""
    from flowgrad.autodiff.backprop import gradient_origin
    stack, seen = [t], set()
    while stack:
        u = stack.pop()
        if any(u is g for g in incoming):
            return "incoming gradient"
        if u in seen:
            continue
        seen.add(u)
        origin = gradient_origin(u.op)
        if origin is not None and origin[0] is f:
            stack.extend(u.op.inputs)
    return "forward value"


# --------------------------------------------------------------------------------------
# Eager execution


def check_eager(opdef: Any, tensors: list, outs: list) -> None:
    """Raises InvalidArgumentError if an eager op's floating-point output is not finite.

    Args:
        opdef: The op's registry record (its type names the op in the error).
        tensors: The op's inputs.
        outs: The op's outputs, NumPy arrays.
    """
    for o in outs:
        if o._dtype.base_dtype.np.kind in "fc" and not _finite(o._value):
            break
    else:
        return
    frame = user_frame()
    code = source_line(frame)
    created = "run at %s%s" % (where(frame), ":  " + code if code else "")
    inputs = [("input %d" % i if i >= len(opdef.input_names) else opdef.input_names[i],
               t._value, "") for i, t in enumerate(tensors)]
    site = Site(opdef.type, opdef.type, created, [o._value for o in outs], inputs,
                _eager_gradient_context())
    raise errors.InvalidArgumentError(None, None, describe(site))


def _eager_gradient_context() -> GradientContext | None:
    """The innermost running gradient function on the Python stack, as a context."""
    from flowgrad.framework.registry import _gradients
    codes = {getattr(fn, "__code__", None) for fn in _gradients.values() if fn is not None}
    f = sys._getframe(1)
    while f is not None:
        if f.f_code in codes:
            co = f.f_code
            names = co.co_varnames[:co.co_argcount]
            op = f.f_locals.get(names[0]) if names else None
            grads = [f.f_locals.get(n) for n in names[1:]]
            if co.co_flags & 0x04:      # *grads
                grads.extend(f.f_locals.get(co.co_varnames[co.co_argcount], ()))
            if op is None or not hasattr(op, "type"):
                return None
            fins = [(_label(i, t), getattr(t, "_value", None))
                    for i, t in enumerate(getattr(op, "inputs", ()))]
            return GradientContext(op, fins, [getattr(g, "_value", None) for g in grads], None)
        f = f.f_back
    return None


def _label(i: int, t: Any) -> str:
    return "x" if i == 0 else ("y" if i == 1 else "input %d" % i)


hooks.register(check_eager_numerics=check_eager, numerics_plan_compiler=NumericsPlanCompiler)

__all__ = ["check_numerics_mode", "enable_check_numerics", "disable_check_numerics",
           "NumericsPlanCompiler"]
