"""Sub-graphs of functional control flow: tracing a Python function, inlining, compiling.

A branch of ``tf.cond`` or the body of ``tf.while_loop`` is traced into a
``SubGraph``: its arguments become placeholders, and every tensor of an
enclosing graph that it uses is captured (replaced by a placeholder of its own,
and later fed from the outer tensor as an extra input of the If/While op). A
``TracedFunction`` is such a sub-graph with its input placeholders and outputs;
it compiles, on first use, into one generated plan function (the compiler is
registered from ``flowgrad.runtime.plan``, which this layer may not import).

Variables used in a body (TF1 variables, and a tf.function's eager variables) get
a *slot*: reads see the body's own earlier writes; after tracing, the If/While
builder turns the slots of variables only read into captured reads, and those of
variables written into op outputs (loop variables of a While) that are assigned
back to the variables after the op, in the enclosing graph."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from flowgrad.framework import errors
from flowgrad.framework.context import graph_scope, state
from flowgrad.framework.graph import Graph, Operation, get_default_graph
from flowgrad.framework.graph_walk import ancestors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase, convert_to_tensor
from flowgrad.ops.array_ops import placeholder
from flowgrad.ops.comparison_ops import LIBRARY_WHERES
from flowgrad.framework.type_hints import TensorLike

_compiler: Callable | None = None
# ids of the arrays a running While op gives to the one op of its body that reads them (a
# loop variable only the loop holds, consumed by an op type of DONATING_OPS): that op may
# write into the array instead of copying it (a TensorArray write in O(1), not O(size))
DONATED: set = set()
DONATING_OPS = frozenset(("TensorArrayScatter",))
SIDE_EFFECTS = "_flowgrad_side_effects"   # graph collection: ops run for their effect only


def register_function_compiler(compile_fn: Callable) -> None:
    """Installs ``compile_fn(leaves, inputs, n_outputs) -> (f, ops_by_line)`` where
    ``f(values) -> tuple`` runs the plan (registered by flowgrad.runtime.plan)."""
    global _compiler
    _compiler = compile_fn


class SubGraph(Graph):
    """The graph of a branch or loop body; tensors of enclosing graphs are captured."""

    def __init__(self, name: str, outer: Graph):
        super().__init__()
        self.name = name
        self.outer_graph = outer
        self.seed = outer.seed
        # variables are found and created in the graph that holds the model
        self._var_store = outer._var_store
        self._var_scope_stack = outer._var_scope_stack
        self._collections = outer._collections
        self._name_stack = outer._name_stack
        self._gradient_override_map = outer._gradient_override_map
        self._override_hits = outer._override_hits
        self._captures: dict = {}           # outer tensor -> placeholder here
        self.capture_list: list = []        # outer tensors, in capture order
        self.side_effects: list = []        # ops to run whenever the body runs (tf.print)
        self.var_slots: dict = {}           # variable key -> its _VarSlot (reads, writes)

    def add_to_collection(self, name: str, value: TensorLike) -> None:
        if name == SIDE_EFFECTS:
            self.side_effects.append(value)
        else:
            super().add_to_collection(name, value)

    def _next_op_seed(self) -> int:
        return self.outer_graph._next_op_seed()

    def is_enclosed_by(self, g: Graph) -> bool:
        o: Any = self
        while o is not None:
            if o is g:
                return True
            o = getattr(o, "outer_graph", None)
        return False

    def capture(self, t: TensorLike) -> Tensor:
        """The placeholder standing for the enclosing graph's tensor ``t`` here (for a
        tf.function's eager variable: its captured reference in the function's graph)."""
        if not isinstance(t, Tensor):     # a variable as a gradient source: its slot
            self._check_function_variable(t)
            return self._slot(("eager", id(t)), t, None).placeholder
        p = self._captures.get(t)
        if p is None:
            if not self.is_enclosed_by(t.graph):
                raise ValueError("Tensor %s used in %s must be from the same graph as the "
                                 "control flow op (or an enclosing one)." % (t.name, self.name))
            with self.control_dependencies(None), self.name_scope(None):
                p = placeholder(t.dtype.base_dtype, t.shape,
                                name="capture_" + t.op.name.replace("/", "_"))
            self._captures[t] = p
            self.capture_list.append(t)
        return p

    def _create_op(self, opdef: Any, inputs: list, attrs: dict, name: str, out_specs: list,
                   ) -> Operation:
        if opdef.updates and inputs[opdef.updates[0]].graph is not self:
            ref = inputs[opdef.updates[0]]
            if len(opdef.updates) == 1 and opdef.type in _WRITES and \
                    ref.op.type == "VariableV2":
                return self._write_slot(self._slot(("ref", ref.op), None, ref), opdef.type,
                                        inputs[1]).op
            raise TypeError("%s: op %s (%s) cannot update the variable %s of an enclosing "
                            "graph inside a control flow body" % (self.name, name, opdef.type,
                                                                  ref.name))
        inputs = [t if t.graph is self else self._outer_input(t) for t in inputs]
        return super()._create_op(opdef, inputs, attrs, name, out_specs)

    def _outer_input(self, t: Tensor) -> Tensor:
        """A tensor of an enclosing graph used here: a variable read goes through the
        variable's slot (so it sees writes made earlier in this body), others are captured."""
        if t.op.type == "VariableV2":
            return self._slot_value(self._slot(("ref", t.op), None, t))
        if t.op.type == "Identity" and t.op._inputs and t.op._inputs[0].op.type == "VariableV2":
            v = t.op._inputs[0]
            return self._slot_value(self._slot(("ref", v.op), None, v))
        return self.capture(t)

    # -- variables read and written inside the body ----------------------------------------
    def _slot(self, key: tuple, var: Any, ref: Tensor | None) -> _VarSlot:
        slot = self.var_slots.get(key)
        if slot is None:
            dt = var.dtype if var is not None else ref.dtype
            shape = var.shape if var is not None else ref.shape
            with graph_scope(self), self.control_dependencies(None), self.name_scope(None):
                p = placeholder(dt.base_dtype, shape, name="variable_%d" % len(self.var_slots))
            slot = self.var_slots[key] = _VarSlot(key, var, ref, p)
        return slot

    @staticmethod
    def _slot_value(slot: _VarSlot) -> Tensor:
        return slot.written if slot.written is not None else slot.placeholder

    def _write_slot(self, slot: _VarSlot, op_type: str, value: Any) -> Tensor:
        with graph_scope(self):
            value = convert_to_tensor(value, slot.placeholder.dtype.base_dtype)
            if op_type != "Assign":
                value = apply_op("AddV2" if op_type == "AssignAdd" else "Sub",
                                 [self._slot_value(slot), value])
            slot.written = apply_op("Identity", [value], name="assigned")
        return slot.written

    def outer_value(self, slot: _VarSlot) -> Tensor:
        """The variable's current value in the enclosing graph (a read made now)."""
        outer = self.outer_graph
        with graph_scope(outer):
            if isinstance(outer, SubGraph):
                return outer._slot_value(outer._slot(slot.key, slot.var, slot.ref))
            if slot.var is not None:
                return outer.read_variable(slot.var)
            return apply_op("Identity", [slot.ref], name="read")

    def write_back(self, slot: _VarSlot, value: Tensor) -> Any:
        """Writes ``value`` into the variable in the enclosing graph; the write (op or None)."""
        outer = self.outer_graph
        with graph_scope(outer):
            if isinstance(outer, SubGraph):
                outer._write_slot(outer._slot(slot.key, slot.var, slot.ref), "Assign", value)
                return None
            if slot.var is not None:
                return outer.write_variable(slot.var, "Assign", value, None).op
            return apply_op("Assign", [slot.ref, value], {"validate_shape": True}).op

    def bind_variable_reads(self, keys: Any = None) -> None:
        """Turns the slots of variables (those of ``keys``, default all) into captures of
        their values read in the enclosing graph now."""
        for key, slot in self.var_slots.items():
            if keys is None or key in keys:
                t = self.outer_value(slot)
                self._captures[t] = slot.placeholder
                self.capture_list.append(t)

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs: list | None) -> Iterator[None]:
        """As Graph's; dependencies on ops of enclosing graphs are dropped (they ran before)."""
        if control_inputs:
            kept = []
            for c in control_inputs:
                op = c.op if isinstance(c, TensorBase) else c
                if getattr(op, "graph", self) is self:
                    kept.append(c)
            control_inputs = kept
        with super().control_dependencies(control_inputs):
            yield

    def read_variable(self, var: Any) -> Tensor:
        """A read of a tf.function's eager variable (its value after this body's writes)."""
        self._check_function_variable(var)
        return self._slot_value(self._slot(("eager", id(var)), var, None))

    def _check_function_variable(self, var: Any) -> None:
        g: Any = self
        while isinstance(g, SubGraph):
            g = g.outer_graph
        if not hasattr(g, "read_variable"):
            raise TypeError("The eager variable %s can only be used in a graph while tf.function "
                            "traces it, not in a TF1 graph." % var.name)

    def lift_variable_creation(self, var: Any, create: Callable, initial_value: Any) -> None:
        """Creates a tf.function's eager variable outside the function (and this body)."""
        if isinstance(initial_value, Tensor):
            raise ValueError("%s: a variable created inside a control flow body needs an "
                             "initial value that does not depend on the body (pass a callable "
                             "or an initializer)" % self.name)
        stack = state.graph_stack
        saved = list(stack)
        while stack and getattr(stack[-1], "outer_graph", None) is not None:
            stack.pop()
        try:
            lift = getattr(stack[-1] if stack else None, "lift_variable_creation", None)
            if lift is None:
                raise RuntimeError("An eager variable can only be created in eager mode or "
                                   "while tf.function traces, not in a TF1 graph.")
            lift(var, create, initial_value)
        finally:
            stack[:] = saved

    def write_variable(self, var: Any, op_type: str, value: TensorLike, name: str | None) -> Tensor:
        """An assignment of a tf.function's eager variable inside this body: later reads see
        it, and the op writes the variable's last value back when the body has run."""
        self._check_function_variable(var)
        return self._write_slot(self._slot(("eager", id(var)), var, None), op_type, value)


_WRITES = frozenset(("Assign", "AssignAdd", "AssignSub"))


class _VarSlot:
    """A variable used in a body: its placeholder (value on entry) and last written value."""

    __slots__ = ("key", "var", "ref", "placeholder", "written")

    def __init__(self, key: tuple, var: Any, ref: Tensor | None, p: Tensor):
        self.key = key
        self.var = var              # a tf.function's eager variable, or None
        self.ref = ref              # a TF1 variable's VariableV2 output, or None
        self.placeholder = p
        self.written: Tensor | None = None


class TracedFunction:
    """A sub-graph with input placeholders and output tensors, callable on NumPy values."""

    def __init__(self, graph: SubGraph, inputs: list, outputs: list, control_outputs: list = ()):
        self.graph = graph
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.control_outputs = list(control_outputs)
        self._fn: Callable | None = None
        self._ops_by_line: dict = {}

    def bind_captures(self, outer: list) -> None:
        """Appends one input placeholder per tensor of ``outer`` (the op's captured inputs)."""
        g = self.graph
        with graph_scope(g):
            for t in outer:
                self.inputs.append(g.capture(t))

    def compiled(self) -> Callable:
        """``f(list of input values) -> tuple of output values`` (compiled once)."""
        if self._fn is None:
            if _compiler is None:
                raise RuntimeError("No plan compiler registered (import flowgrad.runtime.plan).")
            self._fn, self._ops_by_line = _compiler(self.outputs + self.control_outputs,
                                                    self.inputs, len(self.outputs))
        return self._fn

    def runtime_error(self, e: Exception, owner: str) -> Exception:
        """``e``, raised by a kernel of this function's plan, as an error naming that op."""
        if isinstance(e, errors.OpError) and e.op is not None:
            return e
        op = None
        tb = e.__traceback__
        while tb is not None:
            if self._fn is not None and tb.tb_frame.f_code is self._fn.__code__:
                op = self._ops_by_line.get(tb.tb_lineno, op)
            tb = tb.tb_next
        if op is None or not isinstance(e, (errors.OpError, ValueError, TypeError, IndexError,
                                            ArithmeticError)):
            return e
        cls = type(e) if isinstance(e, errors.OpError) else errors.InvalidArgumentError
        msg = e.message if isinstance(e, errors.OpError) else "%s: %s" % (type(e).__name__, e)
        return cls(None, op, "%s\n\t [[node %s (op %s) in %s]]" % (msg, op.name, op.type, owner))

    def __repr__(self) -> str:
        return "<TracedFunction %s: %d inputs, %d outputs>" % (self.graph.name, len(self.inputs),
                                                               len(self.outputs))


def trace(name: str, fn: Callable, arg_specs: list) -> tuple[SubGraph, list, Any]:
    """Traces ``fn(*placeholders)`` into a new SubGraph; (graph, placeholders, result)."""
    outer = get_default_graph()
    g = SubGraph(name, outer)
    with graph_scope(g):
        args = [placeholder(dt, shape, name="arg_%d" % i) for i, (dt, shape) in
                enumerate(arg_specs)]
        result = fn(*args)
    return g, args, result


def as_output(g: SubGraph, x: TensorLike) -> Tensor:
    """``x`` as a tensor of ``g`` (converted, or captured from an enclosing graph)."""
    with graph_scope(g):
        t = convert_to_tensor(x)
        if isinstance(t, EagerTensor) or t.graph is not g:     # an eager value: captured
            t = apply_op("Identity", [t], name="captured_output")
    return t


def _needed_ops(func: TracedFunction, stop: set) -> list:
    """The ops of ``func``'s graph its outputs depend on, in creation order (an op whose
    outputs are all in ``stop`` is one, but not what it depends on)."""
    needed = ancestors([t.op for t in func.outputs] + list(func.control_outputs), stop=stop,
                       visit=lambda op: bool(op.outputs) and all(t in stop for t in op.outputs))
    return sorted(needed, key=lambda o: o._id)


_random_outputs_of: dict = {}     # op type -> f(op): its outputs that carry random samples
_inline_with_samples: dict = {}   # op type -> f(op, inputs, samples): outputs of a copy of op
                                  # that reuses the given samples of its random outputs


def register_random_outputs(op_type: str, outputs_of: Callable, inline_with: Callable) -> None:
    """Declares which outputs of a control-flow op are random samples, and how to copy the
    op so that it reuses given samples (the If op registers itself)."""
    _random_outputs_of[op_type] = outputs_of
    _inline_with_samples[op_type] = inline_with


def random_outputs(func: TracedFunction) -> list:
    """The outputs of random ops that ``func``'s outputs depend on (in creation order),
    including the samples of random ops inside nested branches."""
    out = []
    for op in _needed_ops(func, set(func.inputs)):
        if op._def.rng:
            out.extend(op.outputs)
        elif op.type in _random_outputs_of:
            out.extend(_random_outputs_of[op.type](op))
    return out


def inline(func: TracedFunction, inputs: list, replace: dict | None = None,
           mapping: dict | None = None) -> list:
    """Copies ``func``'s graph into the default graph on ``inputs``; returns its outputs.

    ``replace`` maps tensors of ``func`` (outputs of random ops) to the values to use
    instead (the samples the forward pass drew). ``mapping``, if given, receives every
    tensor of ``func`` used and its copy."""
    if mapping is None:
        mapping = {}
    mapping.update(zip(func.inputs, inputs))
    if replace:
        mapping.update(replace)
    ops_map: dict = {}
    g = get_default_graph()
    for op in _needed_ops(func, set(mapping)):
        if op.outputs and all(t in mapping for t in op.outputs):
            continue
        try:
            ins = [mapping[t] for t in op._inputs]
        except KeyError as e:
            raise ValueError("Cannot inline %s: %s is not an input" % (func, e.args[0])) from None
        if replace and op.type in _inline_with_samples and any(t in replace for t in op.outputs):
            samples = {k: replace[t] for k, t in enumerate(op.outputs) if t in replace}
            for t, t2 in zip(op.outputs, _inline_with_samples[op.type](op, ins, samples)):
                mapping.setdefault(t, t2)
            continue
        attrs = {k: (v.fresh() if isinstance(v, HistoryFlag) else v) for k, v in op._attrs.items()}
        with g.control_dependencies([ops_map[c] for c in op.control_inputs if c in ops_map]):
            out = apply_op(op.type, ins, attrs, name=op.name.rsplit("/", 1)[-1])
        new_op = out if isinstance(out, Operation) else (out[0] if isinstance(out, list)
                                                            else out).op
        new_op._grad_type = op._grad_type
        if op in LIBRARY_WHERES:        # a copy of a library's where warns no more than it
            LIBRARY_WHERES.add(new_op)
        ops_map[op] = new_op
        for t, t2 in zip(op.outputs, new_op.outputs):
            mapping[t] = t2
    return [mapping[t] for t in func.outputs]


class HistoryFlag:
    """Whether a While op records the history of its loop variables (set by its gradient)."""

    __slots__ = ("keep",)

    def __init__(self, keep: bool = False):
        self.keep = keep

    def fresh(self) -> HistoryFlag:
        return HistoryFlag()

    def __repr__(self) -> str:
        return "HistoryFlag(%s)" % self.keep
