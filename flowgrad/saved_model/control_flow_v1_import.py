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
  the forward loop pushed.

The nodes of the outermost frame keep their names; the nodes inside a loop or a branch are
built into its function (TensorFlow cannot fetch them either). A frame flowgrad cannot
convert (a loop variable without its Merge, a frame without one LoopCond, a Merge whose
inputs do not come from the two branches of one Switch predicate) is an
``UnimplementedError`` naming the node and the frame."""
from __future__ import annotations

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

    def run(self) -> None:
        g = self.g
        names = [n for n, f in g.frame_of.items() if f is g.root and
                 (self.skip is None or not self.skip(g.by_name[n]))]
        self._build_units(self.imp, g.root, names, self.prefix)

    # -- units: the nodes of one frame, each nested loop as one unit
    def _unit(self, name: str, frame: Frame, scope: Any) -> Any:
        """The unit that makes node ``name``'s value in ``frame``: the name itself, a child
        loop (Frame), or None where the value is already known to ``scope``."""
        if scope.has_local(name):
            return None
        f = self.g.frame_of.get(name)
        if f is None:
            return None
        if f is frame:
            return name
        loop = self.g.child_frame_of_exit(name, frame)
        if loop is not None:
            return loop
        return None          # an enclosing frame's value: looked up there

    def _deps(self, unit: Any, frame: Frame, scope: Any) -> list:
        if isinstance(unit, Frame):
            refs = [r for e in unit.enters for r in e.input]
        else:
            refs = list(self.g.by_name[unit].input)
        out = []
        for r in refs:
            u = self._unit(_src(r), frame, scope)
            if u is not None:
                out.append(u)
        return out

    def _build_units(self, scope: Any, frame: Frame, roots: list, prefix: str) -> None:
        """Builds the units ``roots`` need, in dependency order."""
        order, state = [], {}
        for root in roots:
            u0 = self._unit(root, frame, scope)
            if u0 is None:
                continue
            stack = [(u0, False)]
            while stack:
                u, done = stack.pop()
                key = u if isinstance(u, str) else id(u)
                if done:
                    state[key] = 2
                    order.append(u)
                    continue
                if state.get(key):
                    continue
                state[key] = 1
                stack.append((u, True))
                for d in self._deps(u, frame, scope):
                    dk = d if isinstance(d, str) else id(d)
                    if state.get(dk) == 1:
                        n = self.g.by_name[d] if isinstance(d, str) else d.enters[0]
                        raise _unconvertible(n, frame, "a cycle outside the loop structure "
                                             "(Enter/Merge/Switch/NextIteration/Exit)")
                    if not state.get(dk):
                        stack.append((d, False))
        for u in order:
            if isinstance(u, Frame):
                self._build_loop(scope, u, prefix)
            else:
                node = self.g.by_name[u]
                if node.op in V1_STRUCTURE:
                    raise _unconvertible(node, frame, "it is not part of a loop's "
                                         "Enter/Merge/Switch/NextIteration/Exit structure")
                scope.build_node(node, prefix)
                self._recorded_shapes(node, scope.values.get(node.name))

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

    def _array_element_shape(self, node: Any) -> TensorShape | None:
        """The ``element_shape`` of the TensorArrayV3 whose handle ``node`` reads."""
        name = _src(node.input[0])
        for _ in range(len(self.g.by_name)):
            n = self.g.by_name.get(name)
            if n is None:
                return None
            if n.op == "TensorArrayV3":
                av = n.attr.get("element_shape")
                return TensorShape(av.shape) if av is not None else None
            if n.op not in ("Enter", "RefEnter", "Identity", "Switch", "Merge",
                            "TensorArrayGradV3") or not n.input:
                return None
            name = _src(n.input[0])
        return None

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
        attempts = [[s if s is not None else x.shape for s, x in zip(recorded, init)],
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
            child = scope.child()
            fill(child, xs)
            ref = f.loop_cond.input[0]
            self._build_units(child, f, [_src(ref)], "")
            return child.lookup(ref)

        def body_fn(*xs: Any) -> tuple:
            child = scope.child()
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
        for v, x in zip(f.vars, finals):
            if v.exit is not None:
                scope.values[v.exit.name] = [identity(x, name=prefix + v.exit.name)]


#: The nodes of a loop's structure (never built as nodes of their own).
V1_STRUCTURE = ENTER | EXIT | MERGE | SWITCH | NEXT | frozenset({"LoopCond"})


def _recorded_shape(node: Any) -> TensorShape | None:
    """Output 0's shape as TensorFlow recorded it (``_output_shapes``), None if it did not."""
    av = node.attr.get("_output_shapes")
    if av is None or not len(av.list.shape):
        return None
    return TensorShape(av.list.shape[0])


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


def _register() -> None:
    from flowgrad.ops import stack_ops, tensor_array_v3_ops  # noqa: F401 - the op records
    from flowgrad.saved_model.graph_import import IMPORTERS, V1_BUILDER, _no_op
    V1_BUILDER[0] = lambda imp, nodes, prefix, skip: Builder(imp, nodes, prefix, skip).run()
    IMPORTERS.update({
        "StackV2": _op("StackV2", "elem_type", "stack_name"),
        "StackPushV2": _op("StackPushV2", "swap_memory"),
        "StackPopV2": _op("StackPopV2", "elem_type"),
        "StackCloseV2": _op("StackCloseV2"),
        "TensorArrayV3": _op("TensorArrayV3", "dtype", "element_shape", "dynamic_size",
                             "clear_after_read", "identical_element_shapes",
                             "tensor_array_name"),
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
    })


_register()
