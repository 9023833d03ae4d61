"""TensorFlow 1's dataflow control flow (control flow v1) imported as flowgrad's functional
loops and conditionals.

What TensorFlow 1.x writes for ``tf.while_loop``, ``tf.cond``, ``dynamic_rnn``, ``map_fn``
and ``scan`` -- and TensorFlow 2.x after ``tf.compat.v1.disable_v2_behavior()`` -- are
*frames*: ``Enter`` ops take values into a loop (``is_constant``: the same value at every
iteration), each loop variable runs ``Enter -> Merge -> Switch -> Identity -> body ->
NextIteration -> Merge`` around a cycle while ``LoopCond`` holds, and leaves by ``Exit``; a
conditional ``Switch``es every value its branches read on the predicate and ``Merge``s the
branch that ran. ``tf.gradients`` of a loop adds a mirrored gradient loop whose values come
from stacks (``StackV2``/``StackPushV2``/``StackPopV2``) the forward loop pushes to, and a
``tf.TensorArray`` is a resource (``TensorArrayV3`` and its ops, ``flowgrad.ops.
tensor_array_v3_ops``).

flowgrad functionalizes these graphs as TensorFlow's own ``functionalize_control_flow`` does
(tensorflow/compiler/tf2xla/functionalize_while.cc, functionalize_cond.cc):

- every node gets its frame: an ``Enter`` starts the frame its ``frame_name`` names inside
  the frame of its input, an ``Exit`` leaves it, every other node is in the frame of its
  inputs;
- a frame becomes one flowgrad While op (``flowgrad.ops.while_v2.build_while``): its loop
  variables are the values of its non-constant ``Enter`` nodes, the condition builds what
  ``LoopCond`` reads from the ``Merge`` nodes, the body what the ``NextIteration`` nodes read
  from the ``Switch`` nodes' true outputs (and the stack pushes and other nodes they have
  control edges from, which run at every iteration); constant ``Enter`` nodes are values the
  loop captures; each ``Exit`` node is an identity of the loop's result, under its name;
- inside a frame, ``Switch``/``Merge`` pairs of one predicate become one flowgrad If op
  (``tf.cond``), whose branches build the nodes between them;
- stacks and TensorArrays keep their state as in TensorFlow, so the gradient loop pops what
  the forward loop pushed; a TensorArray no TensorFlow gradient reads (the arrays of a
  frozen ``dynamic_rnn``, ``map_fn``, ...) becomes flowgrad's own TensorArray instead, whose
  flow holds its elements, so ``tf.gradients`` goes through the imported loops.

The nodes of the outermost frame keep their names; the nodes inside a loop or a branch are
built into its function (TensorFlow cannot fetch them either). A frame flowgrad cannot
convert (a loop variable without its Merge, a frame without one LoopCond, a Merge whose
inputs do not come from the two branches of one Switch predicate) is an
``UnimplementedError`` naming the node and the frame."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flowgrad.framework import errors
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import Tensor, TensorBase, constant
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.subgraph import SIDE_EFFECTS

ENTER = frozenset({"Enter", "RefEnter"})
EXIT = frozenset({"Exit", "RefExit"})
MERGE = frozenset({"Merge", "RefMerge"})
SWITCH = frozenset({"Switch", "RefSwitch"})
NEXT = frozenset({"NextIteration", "RefNextIteration"})


def _src(ref: str) -> str:
    return ref.lstrip("^").split(":", 1)[0]


def _port(ref: str) -> int:
    parts = ref.split(":")
    return int(parts[1]) if len(parts) == 2 else 0


def _post_order(roots: list, deps: Callable[[Any], list],
                cycle: Callable[[Any], Exception]) -> list:
    """The units ``roots`` reach through ``deps``, each after the units it depends on
    (an iterative depth-first walk); a unit reached again while on the walk's path raises
    ``cycle(unit)``."""
    order, state = [], {}
    for root in roots:
        stack = [(root, False)]
        while stack:
            u, done = stack.pop()
            if done:
                state[u] = 2
                order.append(u)
                continue
            if state.get(u):
                continue
            state[u] = 1
            stack.append((u, True))
            for d in deps(u):
                if state.get(d) == 1:
                    raise cycle(d)
                if not state.get(d):
                    stack.append((d, False))
    return order


def _unconvertible(node: Any, frame: Frame | None, why: str) -> errors.UnimplementedError:
    where = " in frame '%s'" % frame.name if frame is not None and frame.name else ""
    return errors.UnimplementedError(
        None, None, "Node '%s' (op %s)%s: flowgrad cannot convert this TensorFlow 1 control "
        "flow (control flow v1) into a functional loop or conditional: %s"
        % (node.name, node.op, where, why))


class LoopVar:
    """One loop variable of a frame: its Enter, Merge, Switch, NextIteration and Exit."""

    __slots__ = ("enter", "merge", "switch", "next", "exit")

    def __init__(self, enter: Any) -> None:
        self.enter = enter
        self.merge = self.switch = self.next = self.exit = None


class Frame:
    """A while loop's frame: its Enter nodes, loop variables and LoopCond."""

    def __init__(self, name: str, parent: Frame | None) -> None:
        self.name, self.parent = name, parent
        self.enters: list = []
        self.vars: list[LoopVar] = []
        self.loop_cond: Any = None
        self.children: dict = {}
        self.done = False

    def const_enters(self) -> list:
        return [e for e in self.enters if _is_constant(e)]

    def __repr__(self) -> str:
        return "<Frame %s>" % self.name


def _is_constant(enter: Any) -> bool:
    av = enter.attr.get("is_constant")
    return bool(av.b) if av is not None else False


class Graph:
    """The frames of a GraphDef's nodes and the loop structure of each frame."""

    def __init__(self, nodes: list) -> None:
        self.by_name = {n.name: n for n in nodes}
        self.root = Frame("", None)
        self.frame_of: dict[str, Frame] = {}
        self.consumers: dict[str, list] = {}
        for n in nodes:
            for r in n.input:
                self.consumers.setdefault(_src(r), []).append(n)
        for n in nodes:
            self._assign(n)
        for f in self._frames(self.root):
            if f is not self.root:
                self._structure(f)

    def _frames(self, f: Frame) -> list:
        out = [f]
        for c in f.children.values():
            out.extend(self._frames(c))
        return out

    def _first_input(self, n: Any) -> str | None:
        for r in n.input:
            if _src(r) in self.by_name:
                return _src(r)
        return None

    def _assign(self, node: Any) -> None:
        """Assigns the frame of ``node`` and of the nodes its frame follows from."""
        stack = [node.name]
        visiting = set()
        while stack:
            name = stack[-1]
            if name in self.frame_of:
                stack.pop()
                continue
            n = self.by_name[name]
            src = self._first_input(n)
            if src is not None and src not in self.frame_of:
                if src in visiting:
                    raise _unconvertible(n, None, "its frame cannot be told (a cycle through "
                                         "its first input '%s')" % src)
                visiting.add(name)
                stack.append(src)
                continue
            stack.pop()
            if src is None:
                f = self.root
            else:
                f = self.frame_of[src]
                if self.by_name[src].op in EXIT:
                    if f.parent is None:
                        raise _unconvertible(self.by_name[src], f, "an Exit outside any loop")
                    f = f.parent
            if n.op in ENTER:
                fname = n.attr["frame_name"].s.decode()
                child = f.children.get(fname)
                if child is None:
                    child = f.children[fname] = Frame(fname, f)
                child.enters.append(n)
                f = child
            self.frame_of[name] = f

    def _structure(self, f: Frame) -> None:
        conds = [n for n, fr in self.frame_of.items() if fr is f and
                 self.by_name[n].op == "LoopCond"]
        if len(conds) != 1:
            raise _unconvertible(f.enters[0], f, "the frame has %d LoopCond nodes (one "
                                 "expected)" % len(conds))
        f.loop_cond = self.by_name[conds[0]]
        for e in f.enters:
            if _is_constant(e):
                continue
            v = LoopVar(e)
            merges = [c for c in self.consumers.get(e.name, ()) if c.op in MERGE]
            if len(merges) != 1:
                raise _unconvertible(e, f, "a loop variable's Enter feeds %d Merge nodes "
                                     "(one expected)" % len(merges))
            v.merge = merges[0]
            others = [_src(r) for r in v.merge.input if not r.startswith("^") and
                      _src(r) != e.name]
            if len(others) != 1 or self.by_name[others[0]].op not in NEXT:
                raise _unconvertible(v.merge, f, "a loop variable's Merge does not read one "
                                     "NextIteration")
            v.next = self.by_name[others[0]]
            switches = [c for c in self.consumers.get(v.merge.name, ()) if c.op in SWITCH and
                        _src(c.input[1]) == f.loop_cond.name]
            if len(switches) != 1:
                raise _unconvertible(v.merge, f, "a loop variable's Merge feeds %d Switch "
                                     "nodes on the LoopCond (one expected)" % len(switches))
            v.switch = switches[0]
            exits = [c for c in self.consumers.get(v.switch.name, ()) if c.op in EXIT]
            v.exit = exits[0] if exits else None
            f.vars.append(v)

    def child_frame_of_exit(self, name: str, frame: Frame) -> Frame | None:
        """The loop (a child frame of ``frame``) whose Exit node ``name`` is, else None."""
        n = self.by_name.get(name)
        if n is None or n.op not in EXIT:
            return None
        f = self.frame_of[name]
        return f if f.parent is frame else None


# --------------------------------------------------------------------------------------
# Conditionals: the branch each node of a frame is in


class FrameInfo:
    """The units of one frame (its nodes, each nested loop as one unit, in dependency order),
    the conditional *state* of each -- the (predicate, branch) pairs of the Switches it is
    behind, outermost first -- and its *phase* at each nesting depth: how many times a path to
    it left a branch of that depth. Units behind one predicate at one depth and of one phase
    are one flowgrad If op (a *group*); a group comes after every group of a lower phase, so
    a conditional's gradient (behind the same predicate, after the loss) is another If."""

    def __init__(self, g: Graph, f: Frame) -> None:
        self.g, self.f = g, f
        loop_nodes = {x.name for v in f.vars for x in (v.merge, v.switch, v.next)}
        loop_nodes |= {e.name for e in f.enters}
        if f.loop_cond is not None:
            loop_nodes.add(f.loop_cond.name)
        self.loop_nodes = loop_nodes
        self.exits = [n for n, fr in g.frame_of.items() if fr is f and g.by_name[n].op in EXIT]
        self.exits_set = set(self.exits)
        names = [n for n, fr in g.frame_of.items() if fr is f and n not in loop_nodes and
                 g.by_name[n].op not in EXIT]
        self.units = self._order(names + list(f.children.values()))
        self.state: dict = {}
        self.phase: dict = {}
        self.merge_sides: dict = {}        # cond Merge -> {branch: input ref}
        for u in self.units:
            self._state_of(u)
        depth = max((len(s) for s in self.state.values()), default=0)
        for u in self.units:
            self._phase_of(u, depth)
        self.groups: dict = {}
        for u in self.units:
            st = self.state[u]
            for d in range(len(st)):
                self.groups.setdefault(self.group_key(u, d), []).append(u)
        self.exports = {key: self._exports(key, set(members))
                        for key, members in self.groups.items()}

    # -- structure
    def is_cond_switch(self, name: str) -> bool:
        return self.g.by_name[name].op in SWITCH and name not in self.loop_nodes

    def is_cond_merge(self, name: str) -> bool:
        return self.g.by_name[name].op in MERGE and name not in self.loop_nodes

    def unit_of(self, name: str) -> Any:
        """The unit of this frame making node ``name`` (itself, or a nested loop for one of
        its Exits), None for a loop node of this frame or a node of another frame."""
        f = self.g.frame_of.get(name)
        if f is self.f:
            return None if name in self.loop_nodes or name in self.exits_set else name
        return self.g.child_frame_of_exit(name, self.f)

    def inputs(self, u: Any) -> list:
        """(ref, is_control) of the inputs of unit ``u``."""
        if isinstance(u, Frame):
            return [(r, r.startswith("^")) for e in u.enters for r in e.input]
        return [(r, r.startswith("^")) for r in self.g.by_name[u].input]

    def _order(self, units: list) -> list:
        exits = set(self.exits)

        def deps(u: Any) -> list:
            found = []
            for r, _ in self.inputs(u):
                name = _src(r)
                d = None if name in exits else self.unit_of(name)
                if d is not None:
                    found.append(d)
            return found

        def cycle(d: Any) -> errors.UnimplementedError:
            n = self.g.by_name[d] if isinstance(d, str) else d.enters[0]
            return _unconvertible(n, self.f, "a cycle outside the loop structure "
                                  "(Enter/Merge/Switch/NextIteration/Exit)")
        return _post_order(units, deps, cycle)

    # -- states and phases
    def canonical(self, ref: str) -> str:
        """A predicate's reference, through Identity nodes (``cond/pred_id``)."""
        for _ in range(len(self.g.by_name)):
            n = self.g.by_name.get(_src(ref))
            if n is None or n.op != "Identity" or ref.startswith("^"):
                break
            ref = n.input[0]
        return "%s:%d" % (_src(ref), _port(ref))

    def in_state(self, ref: str) -> tuple:
        """The state of the value ``ref`` reads (a Switch's output: behind its predicate)."""
        name = _src(ref)
        u = self.unit_of(name)
        if u is None:
            return ()
        st = self.state[u]
        if isinstance(u, str) and self.is_cond_switch(u) and not ref.startswith("^"):
            node = self.g.by_name[u]
            return st + ((self.canonical(node.input[1]), _port(ref)),)
        return st

    def _deepest(self, states: list, node: Any) -> tuple:
        out: tuple = ()
        for st in states:
            if len(st) > len(out):
                out, st = st, out
            if out[:len(st)] != st:
                raise _unconvertible(node, self.f, "it reads values of two different "
                                     "branches (%s and %s)" % (_describe(out), _describe(st)))
        return out

    def _state_of(self, u: Any) -> None:
        node = self.g.by_name[u] if isinstance(u, str) else u.enters[0]
        ins = self.inputs(u)
        if isinstance(u, str) and self.is_cond_merge(u):
            data = [r for r, c in ins if not c]
            states = [self.in_state(r) for r in data]
            if len(data) != 2 or any(not s for s in states) or states[0][:-1] != \
                    states[1][:-1] or states[0][-1][0] != states[1][-1][0] or \
                    states[0][-1][1] == states[1][-1][1]:
                raise _unconvertible(node, self.f, "a Merge whose inputs are not the two "
                                     "branches of one Switch predicate (%s)"
                                     % ", ".join(_describe(s) for s in states))
            self.state[u] = states[0][:-1]
            self.merge_sides[u] = {states[k][-1][1]: data[k] for k in range(2)}
            return
        states = [self.in_state(r) for r, _ in ins]
        if node.op == "ControlTrigger" and states:     # runs whichever branch ran
            common = states[0]
            for st in states[1:]:
                k = 0
                while k < min(len(common), len(st)) and common[k] == st[k]:
                    k += 1
                common = common[:k]
            self.state[u] = common
            return
        self.state[u] = self._deepest(states, node)

    def _phase_of(self, u: Any, depth: int) -> None:
        mine = len(self.state[u])
        phase = [0] * depth
        for r, _ in self.inputs(u):
            src = self.unit_of(_src(r))
            if src is None:
                continue
            theirs = len(self.in_state(r))
            for d in range(depth):
                phase[d] = max(phase[d], self.phase[src][d] + (1 if theirs > d >= mine else 0))
        if isinstance(u, str) and self.is_cond_merge(u):
            pred = self.unit_of(_src(self.merge_pred(u)))
            if pred is not None:
                phase = [max(a, b) for a, b in zip(phase, self.phase[pred])]
        self.phase[u] = phase

    def merge_pred(self, name: str) -> str:
        return self.state_pred(self.in_state(self.merge_sides[name][1]), len(self.state[name]))

    @staticmethod
    def state_pred(st: tuple, d: int) -> str:
        return st[d][0]

    def group_key(self, u: Any, d: int) -> tuple:
        st = self.state[u]
        return ("group", d, st[:d], st[d][0], self.phase[u][d])

    # -- what a group's If outputs
    def _consumers(self, u: Any) -> list:
        """(consumer unit, ref) of the values of unit ``u`` read in this frame."""
        names = [e for e in u_exits(self, u)] if isinstance(u, Frame) else [u]
        out = []
        for name in names:
            for c in self.g.consumers.get(name, ()):
                cu = self.unit_of(c.name) if self.g.frame_of.get(c.name) is self.f else \
                    (self.g.frame_of.get(c.name) if c.op in ENTER and
                     self.g.frame_of.get(c.name).parent is self.f else None)
                for r in c.input:
                    if _src(r) == name:
                        out.append((cu, r, c))
        return out

    def _exports(self, key: tuple, members: set) -> tuple[list, list]:
        """The refs of a group's values read outside it (data: [(ref, branch)]) and its
        members other units have control edges from."""
        d = key[1]
        data, control = [], []
        for u in members:
            side = self.state[u][d][1]
            for cu, r, c in self._consumers(u):
                if cu in members:
                    continue
                if c.name in self.loop_nodes and c.op not in NEXT:
                    continue
                if r.startswith("^"):
                    if u not in control:
                        control.append(u if isinstance(u, str) else _src(r))
                elif (r, side) not in data and ("%s:%d" % (_src(r), _port(r)), side) not in data:
                    data.append(("%s:%d" % (_src(r), _port(r)), side))
        return data, control


def u_exits(info: FrameInfo, f: Frame) -> list:
    """The Exit nodes of loop ``f`` (a child frame of ``info``'s)."""
    return [n for n, fr in info.g.frame_of.items() if fr is f and info.g.by_name[n].op in EXIT]


def _describe(state: tuple) -> str:
    return " and ".join("%s of '%s'" % ("true" if b else "false", p) for p, b in state) or \
        "no branch"


def _output_dtype(node: Any, port: int) -> Any:
    """The dtype of output ``port`` of a NodeDef, from TensorFlow's OpDef."""
    from flowgrad.framework import dtypes
    from flowgrad.saved_model import tf_op_defs, tf_protos
    d = tf_op_defs.get(node.op)
    if d is None:
        raise _unconvertible(node, None, "the dtype of its output %d is unknown" % port)
    counts = {k: (v.i if v.WhichOneof("value") == "i" else list(v.list.type))
              for k, v in node.attr.items()}
    arg_name, i = tf_op_defs.output_arg(node.op, port, counts)
    arg = [a for a in d.output_arg if a.name == arg_name][0]
    if arg.type_attr:
        enum = node.attr[arg.type_attr].type
    elif arg.type_list_attr:
        enum = node.attr[arg.type_list_attr].list.type[i]
    else:
        enum = arg.type
    try:
        return tf_protos.as_dtype(enum)
    except TypeError:
        return dtypes.string           # a handle


# --------------------------------------------------------------------------------------
# Building


class Builder:
    """Builds a GraphDef's nodes with v1 control flow into the default graph.

    Args:
      imp: the importer (``graph_import.Importer``) of the outermost frame.
      nodes: the NodeDefs.
      prefix: the name prefix of the outermost frame's nodes.
      skip: the nodes not to build (a MetaGraphDef's saver), or None.
    """

    def __init__(self, imp: Any, nodes: list, prefix: str, skip: Callable | None) -> None:
        self.imp, self.prefix, self.skip = imp, prefix, skip
        self.g = Graph(nodes)
        self._infos: dict = {}
        self.functional_arrays = self._functional_arrays()

    def info(self, f: Frame) -> FrameInfo:
        if f not in self._infos:
            self._infos[f] = FrameInfo(self.g, f)
        return self._infos[f]

    def run(self) -> None:
        g = self.g
        names = [n for n, f in g.frame_of.items() if f is g.root and
                 (self.skip is None or not self.skip(g.by_name[n]))]
        self.imp.cf_state = ()
        self._build_units(self.imp, g.root, names, self.prefix)

    # -- units: the nodes of one frame, each nested loop and each If as one unit
    def _unit(self, name: str, frame: Frame, scope: Any) -> Any:
        """The unit that makes node ``name``'s value in ``scope`` (a function of ``frame`` at
        its conditional state): the node itself, a nested loop (Frame), a group of nodes behind
        one predicate (its key), or None where the value is known to ``scope`` or its
        enclosing scopes."""
        if scope.has_local(name):
            return None
        info = self.info(frame)
        u = info.unit_of(name)
        if u is None:
            return None
        st, here = info.state[u], scope.cf_state
        d = len(here)
        if len(st) <= d:
            return u if st == here else None
        if st[:d] != here:
            return None
        return info.group_key(u, d)

    def _deps(self, unit: Any, frame: Frame, scope: Any) -> list:
        info = self.info(frame)
        if isinstance(unit, tuple):
            members = info.groups[unit]
            refs = [r for m in members for r, _ in info.inputs(m)] + [unit[3]]
        else:
            refs = [r for r, _ in info.inputs(unit)]
            if isinstance(unit, str) and info.is_cond_merge(unit):
                refs.append(info.merge_pred(unit))
        out = []
        for r in refs:
            u = self._unit(_src(r), frame, scope)
            if u is not None and u != unit:
                out.append(u)
        return out

    def _build_units(self, scope: Any, frame: Frame, roots: list, prefix: str) -> None:
        """Builds the units ``roots`` need, in dependency order."""
        units = [u for u in (self._unit(root, frame, scope) for root in roots) if u is not None]

        def cycle(d: Any) -> errors.UnimplementedError:
            n = self.g.by_name[d] if isinstance(d, str) else frame.enters[0]
            return _unconvertible(n, frame, "a cycle between its conditionals")
        order = _post_order(units, lambda u: self._deps(u, frame, scope), cycle)
        info = self.info(frame)
        for u in order:
            if isinstance(u, Frame):
                self._build_loop(scope, u, prefix)
            elif isinstance(u, tuple):
                self._build_group(scope, frame, u, prefix)
            elif info.is_cond_switch(u):     # either output: its input, in that branch
                v = scope.lookup(self.g.by_name[u].input[0])
                scope.values.setdefault(u, [v, v])
            elif info.is_cond_merge(u):
                self._build_merge(scope, frame, u, prefix)
            else:
                node = self.g.by_name[u]
                if node.op in V1_STRUCTURE:
                    raise _unconvertible(node, frame, "it is not part of a loop's "
                                         "Enter/Merge/Switch/NextIteration/Exit structure")
                fn = self._array_fn(node) if node.op in FUNCTIONAL_ARRAY_OPS else None
                scope.build_node(node, prefix, fn)
                self._recorded_shapes(node, scope.values.get(node.name))

    def _child(self, scope: Any, state: tuple) -> Any:
        child = scope.child()
        child.cf_state = state
        return child

    # -- conditionals
    def _build_group(self, scope: Any, frame: Frame, key: tuple, prefix: str) -> None:
        """One If op: the nodes of a group, each branch built from the values its Switches
        pass; its outputs are the values read outside the group (and, where a branch does
        not make one, a zero of its dtype in its place)."""
        from flowgrad.ops.cond_v2 import build_cond
        info = self.info(frame)
        _, d, outer, pred_ref, _phase = key
        members = info.groups[key]
        data, control = info.exports[key]
        pred = scope.lookup(pred_ref)
        switches = {_src(r) for m in members for r, c in info.inputs(m)
                    if not c and info.unit_of(_src(r)) is not None and
                    isinstance(info.unit_of(_src(r)), str) and info.is_cond_switch(_src(r)) and
                    info.state[_src(r)] == outer}
        shapes: dict = {}
        outer_values = {m: scope.values[m] for m in self._read_from_other_groups(info, key)
                        if m in scope.values}

        def branch(b: int) -> Callable:
            def fn() -> list:
                child = self._child(scope, outer + ((pred_ref, b),))
                child.values.update(outer_values)
                for sw in switches:
                    v = scope.lookup(self.g.by_name[sw].input[0])
                    child.values[sw] = [v, v]
                mine = [r for r, side in data if side == b]
                ctrl = [c for c in control if info.state[info.unit_of(c) or c][d][1] == b]
                self._build_units(child, frame, [_src(r) for r in mine] + ctrl, "")
                outs = []
                for r, side in data:
                    if side == b:
                        t = child.lookup(r)
                        shapes[r] = t.shape
                        outs.append(t)
                    else:
                        outs.append(_zero(_output_dtype(self.g.by_name[_src(r)], _port(r))))
                graph = get_default_graph()
                for c in ctrl:
                    op = _op_of(child._local_or_outer(c))
                    if op is not None and op.graph is graph:
                        graph.add_to_collection(SIDE_EFFECTS, op)
                return outs or [_zero(None)]
            return fn
        name = "%scond_v1_%s_%d" % (prefix, _src(pred_ref).replace("/", "_"), _phase)
        out = build_cond(pred, branch(1), branch(0), name=name)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        op = out[0].op
        for (r, _), t in zip(data, out):
            t.set_shape(shapes.get(r, t.shape))
            src, port = _src(r), _port(r)
            vals = scope.values.get(src)
            vals = list(vals) if isinstance(vals, list) else []
            vals += [None] * (port + 1 - len(vals))
            vals[port] = t
            scope.values[src] = vals
        for c in control:
            if c not in scope.values:
                scope.values[c] = op

    def _read_from_other_groups(self, info: FrameInfo, key: tuple) -> list:
        """The nodes of other groups behind the same predicate whose values the members of
        group ``key`` read (outputs of those groups' If ops, captured)."""
        d = key[1]
        members = set(info.groups[key])
        out = []
        for m in members:
            for r, _ in info.inputs(m):
                u = info.unit_of(_src(r))
                if u is None or u in members or len(info.state[u]) <= d:
                    continue
                out.append(_src(r))
        return out

    def _build_merge(self, scope: Any, frame: Frame, name: str, prefix: str) -> None:
        """A Merge: the value of the branch that ran (an If op choosing between the values
        its two inputs' groups output)."""
        from flowgrad.ops import array_ops
        from flowgrad.ops.comparison_ops import where
        from flowgrad.ops.cond_v2 import build_cond
        info = self.info(frame)
        node = self.g.by_name[name]
        sides = info.merge_sides[name]
        pred = scope.lookup(info.merge_pred(name))
        t, f = scope.lookup(sides[1]), scope.lookup(sides[0])
        out = build_cond(pred, lambda: [t], lambda: [f], name=prefix + name)
        out = out[0] if isinstance(out, (list, tuple)) else out
        shape = _recorded_shape(node)
        out.set_shape(shape if shape is not None else t.shape.most_specific_compatible_shape(
            f.shape) if hasattr(t.shape, "most_specific_compatible_shape") else out.shape)
        data = [r for r in node.input if not r.startswith("^")]
        index = where(pred, data.index(sides[1]), data.index(sides[0]))
        scope.values[name] = [out, array_ops.identity(index, name=prefix + name + "/value_index")]

    def _recorded_shapes(self, node: Any, outs: Any) -> None:
        """Gives ``node``'s outputs the static shapes TensorFlow recorded (a stack's pops and a
        TensorArray's reads know theirs only so) where they are compatible."""
        av = node.attr.get("_output_shapes")
        shapes = [TensorShape(s) for s in av.list.shape] if av is not None else []
        if node.op in ("TensorArrayReadV3", "TensorArrayGatherV3") and not shapes:
            elem = self._array_element_shape(node)
            if elem is not None:
                shapes = [elem if node.op == "TensorArrayReadV3" else
                          TensorShape([None]).concatenate(elem)]
        if not isinstance(outs, list):
            return
        for t, s in zip(outs, shapes):
            if isinstance(t, Tensor) and s.rank is not None and t.shape.is_compatible_with(s):
                t.set_shape(s)

    def _array_of(self, node: Any) -> Any:
        """The TensorArrayV3 node whose handle ``node`` reads (through Enter, Identity and
        Switch nodes), None if it cannot be told."""
        name = _src(node.input[0])
        for _ in range(len(self.g.by_name)):
            n = self.g.by_name.get(name)
            if n is None:
                return None
            if n.op == "TensorArrayV3":
                return n
            if n.op not in ("Enter", "RefEnter", "Identity", "Switch", "RefSwitch") or \
                    not n.input:
                return None
            name = _src(n.input[0])
        return None

    def _array_element_shape(self, node: Any) -> TensorShape | None:
        """The ``element_shape`` of the TensorArrayV3 whose handle ``node`` reads."""
        ta = self._array_of(node)
        av = ta.attr.get("element_shape") if ta is not None else None
        return TensorShape(av.shape) if av is not None else None

    def _functional_arrays(self) -> set:
        """The TensorArrayV3 nodes built as flowgrad's own (differentiable) TensorArray: its
        flow holds its elements. Those a TensorFlow gradient reads (TensorArrayGradV3),
        those of elements of different shapes (``infer_shape=False``) and those split or
        concatenated keep TensorFlow's stateful kernels."""
        arrays = {n.name for n in self.g.by_name.values() if n.op == "TensorArrayV3" and
                  _attr(n, "identical_element_shapes", False)}
        users = {}
        for n in self.g.by_name.values():
            if n.op in ARRAY_OPS:
                ta = self._array_of(n)
                if ta is None:           # a handle from elsewhere: keep every array stateful
                    return set()
                users.setdefault(ta.name, []).append(n.op)
        return {a for a in arrays if not set(users.get(a, ())) & STATEFUL_ARRAY_USES}

    def _array_fn(self, node: Any) -> Callable | None:
        """The importer of a TensorArray op of a functional array, None for a stateful one."""
        ta = node if node.op == "TensorArrayV3" else self._array_of(node)
        if ta is None or ta.name not in self.functional_arrays:
            return None
        return functools.partial(FUNCTIONAL_ARRAY_OPS[node.op], ta)

    # -- loops
    def _build_loop(self, scope: Any, f: Frame, prefix: str) -> None:
        from flowgrad.ops.array_ops import identity
        from flowgrad.ops.while_v2 import build_while
        consts = {e.name: scope.lookup(e.input[0]) for e in f.const_enters()}
        init = [scope.lookup(v.enter.input[0]) for v in f.vars]
        for v, x in zip(f.vars, init):
            if not isinstance(x, TensorBase):
                raise _unconvertible(v.enter, f, "its loop variable is not a tensor")
        recorded = [_recorded_shape(v.merge) for v in f.vars]
        attempts = [[s if s is not None and x.shape.is_compatible_with(s) else x.shape
                     for s, x in zip(recorded, init)],
                    [TensorShape([None] * x.shape.rank) if x.shape.rank is not None
                     else TensorShape(None) for x in init],
                    [TensorShape(None) for _ in init]]

        def fill(child: Any, xs: tuple) -> None:
            for v, x in zip(f.vars, xs):
                child.values[v.merge.name] = [x]
                child.values[v.switch.name] = [x, x]
            for name, value in consts.items():
                child.values[name] = value if not isinstance(value, Tensor) else [value]

        def cond_fn(*xs: Any) -> Any:
            child = self._child(scope, ())
            fill(child, xs)
            ref = f.loop_cond.input[0]
            self._build_units(child, f, [_src(ref)], "")
            return child.lookup(ref)

        def body_fn(*xs: Any) -> tuple:
            child = self._child(scope, ())
            fill(child, xs)
            child.values[f.loop_cond.name] = [constant(True)]
            roots = [_src(r) for v in f.vars for r in v.next.input]
            self._build_units(child, f, roots, "")
            outs = [child.lookup(v.next.input[0]) for v in f.vars]
            graph = get_default_graph()
            for v in f.vars:           # stack pushes &c.: run at every iteration
                for r in v.next.input:
                    if r.startswith("^"):
                        op = _op_of(child.values.get(_src(r)))
                        if op is not None and op.graph is graph:
                            graph.add_to_collection(SIDE_EFFECTS, op)
            return outs, []
        name = prefix + f.name
        error = None
        for shapes in attempts:
            try:
                finals = build_while(cond_fn, body_fn, init, shapes, name=name)[0]
                break
            except ValueError as e:         # the body changed a shape the first try fixed
                error = e
        else:
            raise errors.InvalidArgumentError(None, None, "Cannot import the loop of frame '%s' "
                                              "(node '%s'): %s" % (f.name, f.enters[0].name,
                                                                   error)) from error
        # the Exit nodes: what they read of the loop's final values (the Switches' false
        # outputs), built after the loop
        after = self._child(scope, ())
        fill(after, tuple(finals))
        after.values[f.loop_cond.name] = [constant(False)]
        exits = [self.g.by_name[n] for n in self.info(f).exits]
        self._build_units(after, f, [_src(x.input[0]) for x in exits], prefix)
        for x in exits:
            scope.values[x.name] = [identity(after.lookup(x.input[0]), name=prefix + x.name)]


#: The nodes of a loop's structure (never built as nodes of their own).
V1_STRUCTURE = ENTER | EXIT | MERGE | SWITCH | NEXT | frozenset({"LoopCond"})


def _recorded_shape(node: Any) -> TensorShape | None:
    """Output 0's shape as TensorFlow recorded it (``_output_shapes``), None if it did not."""
    av = node.attr.get("_output_shapes")
    if av is None or not len(av.list.shape):
        return None
    return TensorShape(av.list.shape[0])


def _zero(dtype: Any) -> Any:
    """A scalar zero of ``dtype`` (float32 for None): a branch's output where it makes none."""
    import numpy as np

    from flowgrad.framework import dtypes
    dt = dtypes.float32 if dtype is None else dtype
    if dt is dtypes.string:
        return constant(np.array(b"", object), dtype=dt)
    return constant(np.zeros((), dt.np), dtype=dt)


def _op_of(value: Any) -> Any:
    if isinstance(value, list):
        return value[0].op if value and isinstance(value[0], Tensor) else None
    if isinstance(value, Tensor):
        return value.op
    return value if hasattr(value, "outputs") else None


# --------------------------------------------------------------------------------------
# The stateful ops of TensorFlow 1's loops: stacks and TensorArrays


def _handle_dtype(dt: Any) -> Any:
    """A DataType as flowgrad's: resource handles (pushed onto stacks) are scalars holding
    their object (flowgrad's string tensors)."""
    from flowgrad.framework import dtypes
    return dtypes.string if isinstance(dt, str) else dt


def _op(op_type: str, *keys: str) -> Callable:
    def build(ins: list, a: dict, name: str) -> Any:
        from flowgrad.framework.op_call import apply_op
        attrs = {k: _handle_dtype(a[k]) if k in ("dtype", "elem_type") else a[k]
                 for k in keys if k in a}
        return apply_op(op_type, ins, attrs, name=name)
    return build


def _tensor_array(ins: list, a: dict, name: str) -> Any:
    """TensorArrayV3: an array named as TensorFlow names it (its node, where the
    ``tensor_array_name`` attribute is empty)."""
    return _op("TensorArrayV3", "dtype", "element_shape", "dynamic_size", "clear_after_read",
               "identical_element_shapes", "tensor_array_name")(
        ins, dict(a, tensor_array_name=a.get("tensor_array_name") or name), name)


def _attr(node: Any, key: str, default: Any) -> Any:
    from flowgrad.saved_model.graph_import import attr_value
    av = node.attr.get(key)
    return attr_value(av) if av is not None else default


#: The ops that read or write a TensorArray's handle.
ARRAY_OPS = frozenset({"TensorArrayWriteV3", "TensorArrayReadV3", "TensorArrayGatherV3",
                       "TensorArrayScatterV3", "TensorArrayConcatV3", "TensorArraySplitV3",
                       "TensorArraySizeV3", "TensorArrayCloseV3", "TensorArrayGradV3"})
#: Uses of an array that keep it stateful.
STATEFUL_ARRAY_USES = frozenset({"TensorArrayGradV3", "TensorArrayConcatV3",
                                 "TensorArraySplitV3"})


def _fa_new(ta: Any, ins: list, a: dict, name: str) -> list:
    from flowgrad.framework import dtypes
    from flowgrad.framework.op_call import apply_op
    shape = _attr(ta, "element_shape", None)
    flow = apply_op("TensorArrayZeros", [ins[0]], {
        "dtype": _attr(ta, "dtype", dtypes.float32),
        "element_shape": shape if isinstance(shape, TensorShape) else TensorShape(None),
        "dynamic_size": bool(_attr(ta, "dynamic_size", False))}, name=name + "/flow")
    return [constant(ta.name, name=name), flow]


def _fa_scatter(ta: Any, flow: Any, indices: Any, value: Any, name: str) -> Any:
    from flowgrad.framework.op_call import apply_op
    from flowgrad.ops import array_ops
    return apply_op("TensorArrayScatter", [flow, array_ops.reshape(indices, [-1]), value],
                    {"dynamic_size": bool(_attr(ta, "dynamic_size", False)), "rows": None},
                    name=name)


def _fa_write(ta: Any, ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops import array_ops
    _, index, value, flow = ins
    return _fa_scatter(ta, flow, index, array_ops.expand_dims(value, 0), name)


def _fa_gather(ta: Any, ins: list, a: dict, name: str) -> Any:
    from flowgrad.ops import array_ops
    return array_ops.gather(ins[2], ins[1], name=name)


def _fa_size(ta: Any, ins: list, a: dict, name: str) -> Any:
    from flowgrad.framework import dtypes
    from flowgrad.ops import array_ops
    return array_ops.identity(array_ops.shape(ins[1], out_type=dtypes.int32)[0], name=name)


#: The importers of a functional array's ops: ``f(array node, inputs, attrs, name)``.
FUNCTIONAL_ARRAY_OPS = {
    "TensorArrayV3": _fa_new,
    "TensorArrayWriteV3": _fa_write,
    "TensorArrayReadV3": _fa_gather,
    "TensorArrayGatherV3": _fa_gather,
    "TensorArrayScatterV3": lambda ta, ins, a, name: _fa_scatter(ta, ins[3], ins[1], ins[2],
                                                                 name),
    "TensorArraySizeV3": _fa_size,
    "TensorArrayCloseV3": lambda ta, ins, a, name: _no_op_of(name),
}


def _no_op_of(name: str) -> Any:
    from flowgrad.ops.control_flow_ops import no_op
    return no_op(name=name)


def _register() -> None:
    from flowgrad.ops import stack_ops, tensor_array_v3_ops  # noqa: F401 - the op records
    from flowgrad.saved_model.graph_import import IMPORTERS, V1_BUILDER, _no_op
    V1_BUILDER[0] = lambda imp, nodes, prefix, skip: Builder(imp, nodes, prefix, skip).run()
    IMPORTERS.update({
        "StackV2": _op("StackV2", "elem_type", "stack_name"),
        "StackPushV2": _op("StackPushV2", "swap_memory"),
        "StackPopV2": _op("StackPopV2", "elem_type"),
        "StackCloseV2": _op("StackCloseV2"),
        "TensorArrayV3": _tensor_array,
        "TensorArrayWriteV3": _op("TensorArrayWriteV3"),
        "TensorArrayReadV3": _op("TensorArrayReadV3", "dtype"),
        "TensorArrayGatherV3": _op("TensorArrayGatherV3", "dtype", "element_shape"),
        "TensorArrayScatterV3": _op("TensorArrayScatterV3"),
        "TensorArrayConcatV3": _op("TensorArrayConcatV3", "dtype", "element_shape_except0"),
        "TensorArraySplitV3": _op("TensorArraySplitV3"),
        "TensorArraySizeV3": _op("TensorArraySizeV3"),
        "TensorArrayCloseV3": _op("TensorArrayCloseV3"),
        "TensorArrayGradV3": _op("TensorArrayGradV3", "source"),
        "ControlTrigger": _no_op,
        # TensorFlow before 1.4 (ref-typed string handles, no max_size input)
        "Stack": lambda ins, a, name: _op("StackV2", "elem_type", "stack_name")(
            [constant(-1)], a, name),
        "StackPush": _op("StackPushV2", "swap_memory"),
        "StackPop": _op("StackPopV2", "elem_type"),
        "StackClose": _op("StackCloseV2"),
    })


_register()
