"""Why is a gradient None? ``explain_gradient(ys, xs)`` names the reason for every x.

The analysis follows the rules of the backward pass (flowgrad/autodiff/backprop.py):
a gradient flows from ys back to x along a chain of ops only if every tensor on
the chain has a differentiable (floating or complex) dtype and every op on it has
a gradient function and is not an entry of ``stop_gradients``. For each x it
reports: no data path at all, a path through control dependencies only, x in
another graph, or every path blocked (naming each blocking op and the user line
that created it), plus the shortest path from x to ys, op by op."""
from __future__ import annotations

import collections
import difflib
from typing import Any

import numpy as np

from flowgrad.debug._where import created_at, where
from flowgrad.framework import dtypes, hooks
from flowgrad.framework.graph_walk import ancestors
from flowgrad.framework.registry import gradient_function
from flowgrad.framework.type_hints import TensorLike

# Kinds of explanation (GradientExplanation.kind).
CONNECTED = "connected"        # the gradient is not None
NO_PATH = "no_path"            # ys do not depend on x at all
CONTROL_ONLY = "control_only"  # ys depend on x only through control dependencies
OTHER_GRAPH = "other_graph"    # x and ys belong to different graphs
BLOCKED = "blocked"            # paths exist, but each one is blocked (see blockers)
UNWATCHED = "unwatched"        # eager: the tape did not watch x
LEFT_TAPE = "left_tape"        # eager: the value left the tape (e.g. through .numpy())

# Kinds of blocker (Blocker.kind).
INTEGER = "integer"                    # a tensor whose dtype carries no gradient
STOP_GRADIENT = "stop_gradient"        # a StopGradient op
STOP_GRADIENTS = "stop_gradients"      # an entry of the stop_gradients argument
NOT_DIFFERENTIABLE = "not_differentiable"  # an op type registered without gradient
NO_GRADIENT_FUNCTION = "no_gradient_function"  # no gradient registered: gradients raises


class Blocker:
    """One place where gradient flow from x towards ys stops.

    Args:
        kind: Why it stops: one of the module's kind constants (``INTEGER``,
            ``STOP_GRADIENT``, ``STOP_GRADIENTS``, ``NOT_DIFFERENTIABLE``, ...).
        op: The blocking op (for ``INTEGER``: the op that makes ``tensor``).
        tensor: The non-differentiable tensor (``INTEGER`` only).
    """

    __slots__ = ("kind", "op", "tensor")

    def __init__(self, kind: str, op: Any, tensor: TensorLike | None = None):
        self.kind = kind
        self.op = op           # the blocking op (for INTEGER: the producer of ``tensor``)
        self.tensor = tensor   # the non-differentiable tensor (INTEGER only)

    def reason(self) -> str:
        """One sentence saying why no gradient passes here."""
        op = self.op
        if self.kind == INTEGER:
            t = self.tensor
            return ("tensor %s has dtype %s; gradients only flow through floating-point and "
                    "complex tensors (cast to float before the op if it should be "
                    "differentiable)" % (_name(t), t.dtype.base_dtype.name))
        if self.kind == STOP_GRADIENT:
            return "op '%s' is a tf.stop_gradient: no gradient flows back through it" % op.name
        if self.kind == STOP_GRADIENTS:
            return ("op '%s' (%s) produces a tensor listed in stop_gradients: gradients stop "
                    "there" % (op.name, op.type))
        if self.kind == NO_GRADIENT_FUNCTION:
            return ("op '%s' has type %s, for which no gradient is registered: tf.gradients "
                    "raises LookupError when it reaches this op (register one with "
                    "@tf.RegisterGradient(%r))" % (op.name, op.type, op.type))
        override = getattr(op, "_grad_type", None)
        if override:
            return ("op '%s' (%s) uses gradient_override_map's %r, which is registered as not "
                    "differentiable" % (op.name, op.type, override))
        text = ("op '%s' has type %s, which is registered as not differentiable "
                "(NotDifferentiable)" % (op.name, op.type))
        if op.type in ("PyFunc", "PyFuncStateless", "EagerPyFunc"):
            text += ("; a py_func has no gradient unless you register one with "
                     "tf.RegisterGradient and map it with gradient_override_map")
        return text

    def __str__(self) -> str:
        return "%s\n      (%s)" % (self.reason(), created_at(self.op))

    def __repr__(self) -> str:
        return "<Blocker %s at %r>" % (self.kind, getattr(self.op, "name", self.op))


class GradientExplanation:
    """Why the gradient of ``ys`` with respect to ``x`` is (or is not) None.

    ``kind`` is one of the module's kind constants; ``blockers`` lists the first
    blocking point on each path (kind BLOCKED); ``path`` is the shortest chain of
    ops from x to ys as (op, blocked-here Blocker or None) pairs. ``str()`` gives
    the readable report.

    Args:
        x: The source (a tensor or variable) the gradient is taken with respect to.
        ys: The targets.
        kind: The verdict, one of the module's kind constants.
        blockers: The first blocking point on each path (kind ``BLOCKED``).
        path: The shortest chain of ops from ``x`` to ``ys``.
        notes: Further sentences for the report.
    """

    def __init__(self, x: Any, ys: list, kind: str, blockers: list | None = None,
                 path: list | None = None, notes: list | None = None):
        self.x = x
        self.ys = ys
        self.kind = kind
        self.blockers = blockers or []
        self.path = path or []
        self.notes = notes or []

    @property
    def gradient_is_none(self) -> bool:
        """True when tf.gradients (or the tape) gives None for this x."""
        return self.kind != CONNECTED and not any(
            b.kind == NO_GRADIENT_FUNCTION for b in self.blockers)

    def summary(self) -> str:
        """The first line of the report."""
        xs, ys = _name(self.x), ", ".join(_name(y) for y in self.ys)
        head = "The gradient of %s with respect to %s" % (ys, xs)
        if self.kind == CONNECTED:
            return head + " is not None: it flows along the path below."
        if self.kind == NO_PATH:
            return head + (" is None: %s does not depend on %s at all (no chain of ops leads "
                           "from %s to %s)." % (ys, xs, xs, ys))
        if self.kind == CONTROL_ONLY:
            return head + (" is None: %s depends on %s only through control dependencies "
                           "(tf.control_dependencies / tf.group), which carry no gradient."
                           % (ys, xs))
        if self.kind == OTHER_GRAPH:
            return head + (" is None: %s belongs to a different graph than %s (was the graph "
                           "reset or rebuilt after %s was created?)." % (xs, ys, xs))
        if self.kind == UNWATCHED:
            return head + (" is None: the tape did not watch %s. Constants and plain tensors "
                           "are not watched automatically; call tape.watch(x) before using "
                           "it, or make it a tf.Variable." % xs)
        if self.kind == LEFT_TAPE:
            return head + (" is None: the tape has no recorded link from %s to %s; the chain "
                           "was cut on the way (see below)." % (xs, ys))
        if any(b.kind == NO_GRADIENT_FUNCTION for b in self.blockers):
            return head + " cannot be computed: an op on the path has no gradient function."
        return head + " is None: every path from %s to %s is blocked." % (xs, ys)

    def __str__(self) -> str:
        lines = [self.summary()]
        if self.blockers:
            lines.append("  Blocked at:")
            for b in self.blockers:
                lines.append("    - " + str(b))
        lines.extend("  " + n for n in self.notes)
        if self.path:
            lines.append("  Shortest path from %s to %s, op by op:"
                         % (_name(self.x), ", ".join(_name(y) for y in self.ys)))
            lines.append("      %s" % _name(self.x))
            for op, blocker in self.path:
                mark = "X>" if blocker is not None else "->"
                tail = "   BLOCKED: %s" % _short_reason(blocker) if blocker is not None else ""
                where_ = ", " + created_at(op) if getattr(op, "traceback", None) else ""
                lines.append("   %s %s (%s)%s%s" % (mark, op.name, op.type, where_, tail))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return "<GradientExplanation %s: %s>" % (self.kind, self.summary())


def _short_reason(b: Blocker) -> str:
    return {INTEGER: "%s is %s" % (_name(b.tensor), b.tensor.dtype.base_dtype.name
                                   if b.tensor is not None else ""),
            STOP_GRADIENT: "stop_gradient",
            STOP_GRADIENTS: "listed in stop_gradients",
            NO_GRADIENT_FUNCTION: "no gradient registered for %s" % b.op.type,
            }.get(b.kind, "%s is not differentiable" % b.op.type)


def _name(t: Any) -> str:
    if t is None:
        return "None"
    try:
        return t.name
    except (AttributeError, ValueError):
        return repr(t)


# --------------------------------------------------------------------------------------
# Graph mode


def _trainable(t: Any) -> bool:
    return dtypes.is_differentiable(t.dtype)


def _as_list(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _tensor_of(x: Any) -> Any:
    from flowgrad.autodiff.backprop import _x_tensor
    return _x_tensor(x)


def _op_block(op: Any, stops: set) -> str | None:
    """The blocker kind of an op the gradient would have to pass through, or None."""
    if op in stops:
        return STOP_GRADIENTS
    try:
        fn = gradient_function(op)
    except LookupError:
        return NO_GRADIENT_FUNCTION
    if fn is None:
        return STOP_GRADIENT if op.type == "StopGradient" and not op._grad_type \
            else NOT_DIFFERENTIABLE
    return None


def _ancestors(ys: list) -> tuple[set, set]:
    """(ops, tensors) from which some y can be reached along data edges (ys included)."""
    ops = ancestors(ys, control=False)
    return ops, set(ys).union(*(op.inputs for op in ops))


def _shortest_path(x: Any, y_set: set, anc_tensors: set, passes: Any) -> list | None:
    """Shortest list of (op, out_tensor) steps from x to a y over edges ``passes`` allows."""
    parent: dict = {x: None}
    queue = collections.deque([x])
    while queue:
        t = queue.popleft()
        if t in y_set:
            steps = []
            while parent[t] is not None:
                prev, op = parent[t]
                steps.append((op, t))
                t = prev
            return steps[::-1]
        for op in t._consumers:
            for o in op.outputs:
                if o in anc_tensors and o not in parent and passes(t, op, o):
                    parent[o] = (t, op)
                    queue.append(o)
    return None


def _reaches_by_control(x: Any, y_ops: set) -> bool:
    seen: set = set()
    stack = list(x._consumers) + list(x.op._control_outputs)
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        if op in y_ops:
            return True
        seen.add(op)
        for o in op.outputs:
            stack.extend(o._consumers)
        stack.extend(op._control_outputs)
    return False


def _explain_graph(ys: list, x_in: Any, stops: set) -> GradientExplanation:
    x = _tensor_of(x_in)
    if x.graph is not ys[0].graph:
        return GradientExplanation(x, ys, OTHER_GRAPH)
    y_set = set(ys)
    anc_ops, anc_tensors = _ancestors(ys)
    if x not in anc_tensors:
        if _reaches_by_control(x, {y.op for y in ys}):
            return GradientExplanation(x, ys, CONTROL_ONLY)
        return GradientExplanation(x, ys, NO_PATH, notes=_source_hints(x, anc_ops))

    def flows(t: Any, op: Any, o: Any) -> bool:
        return _trainable(o) and _op_block(op, stops) is None

    if _trainable(x):
        flow_path = _shortest_path(x, y_set, anc_tensors, flows)
        if flow_path is not None:
            return GradientExplanation(x, ys, CONNECTED, path=[(op, None) for op, _ in flow_path],
                                       notes=_custom_gradient_notes(op for op, _ in flow_path))
    blockers = _frontier(x, anc_ops, anc_tensors, stops)
    path = _shortest_path(x, y_set, anc_tensors, lambda t, op, o: True) or []
    marked = []
    for op, o in path:
        kind = _op_block(op, stops)
        if kind is not None:
            marked.append((op, Blocker(kind, op)))
        elif not _trainable(o):
            marked.append((op, Blocker(INTEGER, op, o)))
        else:
            marked.append((op, None))
    return GradientExplanation(x, ys, BLOCKED, blockers=blockers, path=marked)


def _frontier(x: Any, anc_ops: set, anc_tensors: set, stops: set) -> list:
    """The first blocking point on every path from x to ys."""
    if not _trainable(x):
        return [Blocker(INTEGER, x.op, x)]
    found: dict = {}
    seen = {x}
    queue = collections.deque([x])
    while queue:
        t = queue.popleft()
        for op in t._consumers:
            if op not in anc_ops:
                continue
            kind = _op_block(op, stops)
            if kind is not None:
                found.setdefault((op, None), Blocker(kind, op))
                continue
            for o in op.outputs:
                if o not in anc_tensors or o in seen:
                    continue
                if not _trainable(o):
                    found.setdefault((op, o), Blocker(INTEGER, op, o))
                    continue
                seen.add(o)
                queue.append(o)
    return sorted(found.values(), key=lambda b: b.op._id)


def _custom_gradient_notes(ops: Any) -> list:
    """Notes naming user-registered gradient functions on a path (they may return None)."""
    from flowgrad.framework.registry import _gradient_origin
    notes = []
    for op in ops:
        key = op._grad_type or op.type
        origin = _gradient_origin.get(key)
        if origin is not None:
            notes.append("op '%s' uses the gradient %r registered at %s; if the gradient is "
                         "None after all, that function returned None for this input."
                         % (op.name, key, where(origin)))
    return notes


_SOURCE_TYPES = ("Placeholder", "PlaceholderWithDefault", "VariableV2")


def _source_hints(x: Any, anc_ops: set) -> list:
    """Notes for the no-path case: what ys do depend on, and a close variable name."""
    sources = sorted((op for op in anc_ops if op.type in _SOURCE_TYPES), key=lambda o: o._id)
    if not sources:
        return ["ys depend on no placeholder or variable (only on constants)."]
    names = [op.name for op in sources]
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    notes = ["ys depend on these placeholders and variables: %s." % shown]
    close = difflib.get_close_matches(x.op.name, names, n=1, cutoff=0.6)
    if close and close[0] != x.op.name:
        notes.append("Did you mean %r? (x is %r, %s)" % (close[0], x.op.name, created_at(x.op)))
    return notes


# --------------------------------------------------------------------------------------
# Eager mode: a GradientTape's records


class _Named:
    """A label standing in for an eager tensor or variable in reports (they have no names)."""

    def __init__(self, name: str, dtype: Any):
        self.name = name
        self.dtype = dtype


def _eager_label(t: Any, what: str) -> _Named:
    if hasattr(t, "_as_tensor"):            # a variable
        return _Named("variable '%s'" % t.name, t.dtype)
    return _Named("%s (shape %s, %s)" % (what, t.shape, t.dtype.base_dtype.name), t.dtype)


def _tape_keys(tape: Any, s: Any) -> tuple:
    """(ids under which ``s`` is on the tape, whether the tape watches it)."""
    if hasattr(s, "_as_tensor"):            # a variable: its reads under the tape
        keys = [id(t) for t in tape._reads.get(id(s), ())] + [id(s)]
        return keys, id(s) in tape._variables
    return [id(s)], id(s) in tape._tensors


def _downstream(tape: Any, keys: list) -> set:
    """Ids of the tensors computed on the tape from ``keys``."""
    reach = set(keys)
    for rec in tape._records:
        if any(id(t) in reach for t in rec.inputs):
            reach.update(id(o) for o in rec.outputs)
    return reach


def _tape_path(tape: Any, keys: list, target: Any) -> list | None:
    """Shortest chain of records from a source key to the target, or None."""
    parent: dict = {k: None for k in keys}
    queue = collections.deque(keys)
    consumers: dict = collections.defaultdict(list)
    for rec in tape._records:
        for t in rec.inputs:
            consumers[id(t)].append(rec)
    while queue:
        k = queue.popleft()
        if k == id(target):
            path = []
            while parent[k] is not None:
                k, rec = parent[k]
                path.append(rec)
            return path[::-1]
        for rec in consumers.get(k, ()):
            for o in rec.outputs:
                if id(o) not in parent and tape._producer.get(id(o)) is rec:
                    parent[id(o)] = (k, rec)
                    queue.append(id(o))
    return None


def _cut_inputs(tape: Any, target: Any) -> list:
    """(record, input) pairs in the target's recorded history whose input came from
    outside the tape (a constant, a value that left it, a stopped or integer tensor)."""
    out, seen = [], set()
    stack = [target]
    while stack:
        t = stack.pop()
        rec = tape._producer.get(id(t))
        if rec is None or id(rec) in seen:
            continue
        seen.add(id(rec))
        for x in rec.inputs:
            if id(x) in tape._producer:
                stack.append(x)
            elif id(x) not in tape._tensors:
                out.append((rec, x))
    return out


def _explain_tape(tape: Any, target: Any, source: Any) -> GradientExplanation:
    x_label = _eager_label(source, "source")
    y_label = _eager_label(target, "target")
    keys, watched = _tape_keys(tape, source)
    if not _trainable(source):
        return GradientExplanation(x_label, [y_label], BLOCKED,
                                   notes=["The source has dtype %s; gradients only flow to "
                                          "floating-point and complex tensors."
                                          % source.dtype.base_dtype.name])
    if not watched:
        kind = UNWATCHED
        notes = []
        if hasattr(source, "_as_tensor"):
            notes.append("The variable was not read inside the tape's block, or it is not "
                         "trainable, or the tape has watch_accessed_variables=False.")
        return GradientExplanation(x_label, [y_label], kind, notes=notes)
    path = _tape_path(tape, keys, target)
    if path is not None or id(target) in keys:
        return GradientExplanation(x_label, [y_label], CONNECTED,
                                   path=[(rec, None) for rec in path or ()])
    if id(target) not in tape._tensors:
        return GradientExplanation(x_label, [y_label], LEFT_TAPE, notes=[
            "The target itself has no record on the tape: it was computed outside the "
            "tape's block, inside tape.stop_recording(), through tf.stop_gradient or integer "
            "ops, or from NumPy values."])
    reach = _downstream(tape, keys)
    values = [tape._tensors[k] for k in reach if k in tape._tensors]
    notes = []
    for rec, x in _cut_inputs(tape, target):
        if not _trainable(x):
            notes.append("Input of recorded op %s is an %s tensor: gradients do not flow "
                         "through integer or bool tensors." % (rec.type, x.dtype.base_dtype.name))
        elif any(_same_value(x, v) for v in values):
            notes.append("Input of recorded op %s has the value of a tensor computed from the "
                         "source on this tape, but no recorded link to it: the value left the "
                         "tape through .numpy() (or np.asarray, float()) and came back as a new "
                         "tensor, or went through tf.stop_gradient or an integer cast."
                         % rec.type)
    if notes:
        return GradientExplanation(x_label, [y_label], LEFT_TAPE, notes=notes)
    return GradientExplanation(x_label, [y_label], NO_PATH, notes=[
        "If a value computed from the source was converted to NumPy (.numpy(), np.asarray, "
        "float()) and turned back into a tensor, the tape lost the link there."])


def _same_value(a: Any, b: Any) -> bool:
    va, vb = getattr(a, "_value", None), getattr(b, "_value", None)
    if va is None or vb is None or np.shape(va) != np.shape(vb):
        return False
    return va is vb or bool(np.array_equal(va, vb))


# --------------------------------------------------------------------------------------
# Public API


def explain_gradient(ys: TensorLike, xs: TensorLike, stop_gradients: TensorLike | None = None,
                     tape: Any = None) -> list:
    """For each x, a GradientExplanation of why d(sum ys)/dx is or is not None.

    Graph mode: ``ys`` and ``xs`` as for ``tf.gradients`` (tensors or variables),
    ``stop_gradients`` as there. Eager mode: pass the GradientTape that recorded
    ``ys`` (a persistent one, or before calling its ``gradient``, which releases
    the records). ``str()`` of an explanation is a readable report: the reason,
    each blocking op with the user line that created it, and the shortest path
    from x to ys, op by op.

    Args:
        ys: The tensor (or list) differentiated.
        xs: The tensor or variable whose gradient is None.
        stop_gradients: The tensors ``tf.gradients`` was told to stop at.
        tape: The ``GradientTape`` that recorded the computation (eager mode).
    """
    from flowgrad.framework.tensor import Tensor, convert_to_tensor
    ys_list = [y for y in _as_list(ys) if y is not None]
    if not ys_list:
        raise ValueError("explain_gradient needs at least one y")
    symbolic = any(isinstance(y, Tensor) for y in ys_list)
    if tape is not None and not symbolic:
        if getattr(tape, "_consumed", False):
            raise ValueError("This GradientTape was not persistent and has computed its "
                             "gradients, which released its records. Use "
                             "tf.GradientTape(persistent=True), or call explain_gradient "
                             "before tape.gradient.")
        return [_explain_tape(tape, ys_list[0], x) for x in _as_list(xs)] \
            if len(ys_list) == 1 else [_explain_tape_any(tape, ys_list, x)
                                       for x in _as_list(xs)]
    if not symbolic:
        raise ValueError("explain_gradient in eager mode needs the tape that recorded ys: "
                         "explain_gradient(target, sources, tape=tape)")
    ys_t = [convert_to_tensor(y) for y in ys_list]
    stops = {convert_to_tensor(t).op for t in
             (_as_list(stop_gradients) if stop_gradients is not None else [])}
    out = []
    for x in _as_list(xs):
        if tape is not None and not tape._graph_watches(x):
            out.append(GradientExplanation(_tensor_of(x), ys_t, UNWATCHED))
        else:
            out.append(_explain_graph(ys_t, x, stops))
    return out


def _explain_tape_any(tape: Any, ys: list, x: Any) -> GradientExplanation:
    """The explanation for several targets: connected if any target is."""
    explanations = [_explain_tape(tape, y, x) for y in ys]
    return next((e for e in explanations if e.kind == CONNECTED), explanations[0])


def explain_no_gradients(loss: Any, var_list: Any, stop_gradients: TensorLike | None = None) -> str:
    """The explanations for an optimizer's "No gradients provided" error, one per variable.

    Meant to be appended to that ValueError's message (TensorFlow's text stays the
    first line); '' when ``loss`` is not a graph tensor (nothing to analyse).

    Args:
        loss: The loss the optimizer minimized.
        var_list: The variables it was to update.
        stop_gradients: The tensors the gradients stopped at.
    """
    from flowgrad.framework.tensor import Tensor
    if not isinstance(loss, Tensor):
        return ""
    explanations = explain_gradient(loss, var_list, stop_gradients)
    return "\n".join(str(e) for e in explanations if e.kind != CONNECTED)


hooks.register(explain_gradient=explain_gradient)

__all__ = ["explain_gradient", "explain_no_gradients", "GradientExplanation", "Blocker"]
