"""``tf.function``: traces a Python function into a graph and runs its compiled plan.

A Function traces once per input signature: the dtype and shape of each tensor
(or NumPy array) argument and the value (or, for unhashable objects, the
identity) of every other argument. Tensor arguments become placeholders; eager
variables the function reads or writes are captured by reference (one
VariableV2 op each) and the compiled plan reads and writes their values
directly; other eager tensors it closes over become constants. The graph is
compiled once per signature by ``flowgrad.runtime.plan.PlanCompiler``, so a call costs
one generated Python function plus the kernels.

Reads and writes of a captured variable keep program order (a read depends on
the last write before it, a write on the reads and write before it), as
TensorFlow's automatic control dependencies guarantee. Every variable write the
trace made runs on each call, whether or not an output depends on it.

Gradients through a call: when an active GradientTape watches a tensor argument
or a variable the function uses, the call runs the Python function eagerly
instead of the plan, so the tape records every op and the gradient, to any
order, is exactly the eager one. Python side effects then happen on such calls
too. With ``autograph=True`` (the default) the traced function is converted by
``flowgrad.autograph`` first, so Python control flow on tensors becomes cond/while_loop."""
from __future__ import annotations

import contextlib
import functools
import inspect
import threading
import types
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.autograph import tf_convert
from flowgrad.framework import dtypes, errors, hooks
from flowgrad.framework.context import executing_eagerly, get_default_graph, state
from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec, register
from flowgrad.framework.graph import Graph, Operation
from flowgrad.framework.graph_walk import ancestors
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.op_call import apply_op, op_rng
from flowgrad.framework.tensor import EagerTensor, Tensor, _Ref, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.ops.array_ops import identity, placeholder
from flowgrad.ops.random_ops import global_seed
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.subgraph import SIDE_EFFECTS, SubGraph
from flowgrad.runtime.function_type import parameters, signature_text
from flowgrad.runtime.plan import Plan, PlanCompiler, failing_op
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


class FuncGraph(Graph):
    """The graph a tf.function traces into; captures eager variables by reference.

    Args:
        name: The traced function's name.
    """

    building_function = True

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.captures: dict = {}        # id(variable) -> (variable, its VariableV2 output)
        self._last_write: dict = {}     # id(variable) -> the last op that wrote it
        self._reads: dict = {}          # id(variable) -> its read ops since that write
        self.created_variables: list = []   # variables this trace created (lifted out)
        self.variable_creation_error: str | None = None  # set: creating a variable raises
        self._arg_values: dict = {}     # placeholder -> the value of this call's argument

    def capture(self, var: Any) -> Tensor:
        """The VariableV2 tensor standing for the eager variable ``var`` in this graph."""
        c = self.captures.get(id(var))
        if c is None:
            with self.control_dependencies(None), self.name_scope(None):
                ref = apply_op("VariableV2", [], {"shape": var.shape, "dtype": var.dtype},
                               name=var._handle_name)
            c = self.captures[id(var)] = (var, ref)
        return c[1]

    def lift_variable_creation(self, var: Any, create: Callable[[Any], None],
                               initial_value: Any) -> None:
        """Creates the eager variable ``var`` outside this trace (``tf.init_scope``).

        A symbolic ``initial_value`` computed in the trace is evaluated once, with this
        call's arguments: the variable starts from the value the first call computes."""
        if self.variable_creation_error is not None:
            raise ValueError(self.variable_creation_error)
        if isinstance(initial_value, Tensor) and initial_value.graph is self:
            initial_value = self._evaluate(initial_value)
        with init_scope():
            create(initial_value)
        self.created_variables.append(var)

    def _evaluate(self, t: Tensor) -> EagerTensor:
        """The value of the traced tensor ``t`` for this call's arguments."""
        fed = [p for p in self._arg_values if p in _inputs_of(t)]
        values = _CapturedValues({ref.op: v for v, ref in self.captures.values()})
        try:
            plan = PlanCompiler(values, op_rng).compile(
                [t], fed, lambda expr_of, gname: "(%s,)" % expr_of(t))
        except errors.InvalidArgumentError as e:
            raise ValueError("The initial value of a tf.Variable created in tf.function %r "
                             "depends on an argument whose value is not known while tracing "
                             "(%s); create the variable on a call with tensors, or outside "
                             "the function." % (self.name, e.message)) from e
        return EagerTensor(np.asarray(plan.fn([self._arg_values[p] for p in fed])[0]),
                           t.dtype.base_dtype)

    def read_variable(self, var: Any) -> Tensor:
        """A read of ``var`` that runs after the writes traced before it."""
        t = identity(self.capture(var), name="read")
        last = self._last_write.get(id(var))
        if last is not None:
            t.op._add_control_input(last)
        self._reads.setdefault(id(var), []).append(t.op)
        return t

    def write_variable(self, var: Any, op_type: str, value: Any, name: str | None) -> Tensor:
        """An Assign/AssignAdd/AssignSub of ``var`` ordered after its earlier reads and writes."""
        ref = self.capture(var)
        attrs = {"validate_shape": True} if op_type == "Assign" else {}
        out = apply_op(op_type, [ref, value], attrs, name=name, dtype=var.dtype)
        deps = self._reads.pop(id(var), [])
        last = self._last_write.get(id(var))
        if last is not None:
            deps.append(last)
        out.op._add_control_inputs(deps)
        self._last_write[id(var)] = out.op
        return out


def _inputs_of(t: Tensor) -> set:
    """The placeholders ``t`` depends on (the ops that must be fed: an argument's)."""
    return {op.outputs[0] for op in ancestors([t]) if op._def.must_feed}


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """Leaves the function and control-flow graphs being built (inside a tf.function ops
    run eagerly again; in a TF1 graph they go to the outermost graph), with no control
    dependencies, and pauses tapes.

    As in TensorFlow the current name scope carries over, so a variable created in a
    trace under ``with module.name_scope:`` keeps the scope in its name."""
    graphs = list(state.graph_stack)
    tapes = list(state.tapes)
    scope = state.eager_name_scope
    if graphs and _is_function_graph(graphs[-1]):
        inner = graphs[-1].get_name_scope()
        state.eager_name_scope = inner + "/" if inner else ""
    while state.graph_stack and _is_function_graph(state.graph_stack[-1]):
        state.graph_stack.pop()
    state.tapes.clear()
    try:
        if executing_eagerly():
            yield
        else:
            with get_default_graph().control_dependencies(None):
                yield
    finally:
        state.graph_stack[:] = graphs
        state.tapes[:] = tapes
        state.eager_name_scope = scope


def _is_function_graph(g: Graph) -> bool:
    """A tf.function's graph or a control-flow body's (``init_scope`` leaves both)."""
    return isinstance(g, (FuncGraph, SubGraph))


@register("tf.TensorSpec")
class TensorSpec(TypeSpec):
    """Describes a tensor argument of a tf.function (shape may have None dimensions).

    Args:
        shape: The tensors' shape (None dimensions match any size).
        dtype: The tensors' dtype.
        name: The name of the argument (the placeholder's name).
    """

    def __init__(self, shape: ShapeLike, dtype: DTypeLike = dtypes.float32,
                 name: str | None = None):
        self.shape = as_shape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: TensorLike, name: str | None = None) -> TensorSpec:
        """The spec of ``tensor`` (its shape and dtype; its name where it has one)."""
        if name is None and isinstance(tensor, Tensor):
            name = tensor.op.name
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec: Any, name: str | None = None) -> TensorSpec:
        """A TensorSpec with ``spec``'s shape and dtype."""
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    @property
    def value_type(self) -> type:
        return Tensor

    def is_compatible_with(self, t: Any) -> bool:
        if not hasattr(t, "dtype"):
            t = convert_to_tensor(t)
        return self.dtype.base_dtype is t.dtype.base_dtype and self.shape.is_compatible_with(
            t.shape)

    def most_specific_common_supertype(self, others: list) -> Any:
        """The spec describing this one and ``others`` (None: no common TensorSpec)."""
        shape = self.shape
        for o in others:
            if not isinstance(o, TensorSpec) or o.dtype != self.dtype:
                return None
            shape = shape.most_specific_compatible_shape(o.shape)
        return TensorSpec(shape, self.dtype, self.name)

    def _serialize(self) -> tuple:
        return self.shape, self.dtype, self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorSpec) and (self.shape, self.dtype, self.name) == (
            other.shape, other.dtype, other.name)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.name))

    def __repr__(self) -> str:
        return "TensorSpec(shape=%s, dtype=tf.%s, name=%r)" % (self.shape, self.dtype.name,
                                                               self.name)


class _CapturedValues:
    """The plan's variable state: each captured VariableV2 op reads/writes its eager variable."""

    __slots__ = ("_vars",)

    def __init__(self, vars_by_op: dict):
        self._vars = vars_by_op

    def __getitem__(self, op: Operation) -> Any:
        var = self._vars[op]
        try:
            return var._array
        except AttributeError:      # a variable-like object of another class
            return var._value

    def __setitem__(self, op: Operation, value: Any) -> None:
        var = self._vars[op]
        if type(value) is np.ndarray and value is getattr(var, "_plan_owned", None):
            var._array = value      # an update the plan made in place: still the plans'
        else:
            var._set_value(value)


class _PlanOwnedArrays:
    """The plan compiler's ``owned`` mapping for a tf.function: captured variable op -> the
    array of its value that plans allocated and nobody else holds (``EagerVariable
    ._plan_owned``), which an update may write in place."""

    __slots__ = ("_vars",)

    def __init__(self, vars_by_op: dict):
        self._vars = vars_by_op

    def get(self, op: Operation, default: Any = None) -> Any:
        var = self._vars.get(op)
        owned = getattr(var, "_plan_owned", None)
        return owned if owned is not None and owned is var._array else default

    def __setitem__(self, op: Operation, value: Any) -> None:
        var = self._vars[op]
        if hasattr(var, "_plan_owned"):
            var._plan_owned = value

    def pop(self, op: Operation, default: Any = None) -> Any:
        var = self._vars.get(op)
        if getattr(var, "_plan_owned", None) is not None:
            var._plan_owned = None
        return default


_TENSOR, _SLICES, _CONST, _ARRAY, _COMPOSITE = 0, 1, 2, 3, 4


#: The graphs of the traces called while ``tf.summary.trace_on`` collects them (None: off).
collected_graphs: list | None = None


class ConcreteFunction:
    """One trace of a tf.function: its graph and compiled plan, called with flat tensors."""

    def __init__(self, graph: FuncGraph, inputs: list, structured_outputs: Any):
        self.graph = graph
        self.inputs = inputs
        self.structured_outputs = structured_outputs
        self.variables = [v for v, _ in graph.captures.values()]
        leaves: list = []
        spec: list = []
        for x in nest.flatten(structured_outputs):
            if isinstance(x, Tensor):
                spec.append((_TENSOR, len(leaves), x.dtype.base_dtype))
                leaves.append(x)
            elif isinstance(x, IndexedSlices) and isinstance(x.values, Tensor):
                parts = [x.values, x.indices] + ([x.dense_shape] if x.dense_shape is not None
                                                 else [])
                spec.append((_SLICES, len(leaves), [p.dtype.base_dtype for p in parts]))
                leaves.extend(parts)
            elif (_components(x) is not None
                  and all(isinstance(c, Tensor) for c in _components(x)[1])):
                comp_spec, comps = _components(x)      # a PerReplica of the replicas' tensors
                spec.append((_COMPOSITE, len(leaves),
                             (comp_spec, [c.dtype.base_dtype for c in comps])))
                leaves.extend(comps)
            elif hasattr(x, "_from_flow") and isinstance(x.flow, Tensor):   # a TensorArray
                spec.append((_ARRAY, len(leaves), (x.flow.dtype.base_dtype, x)))
                leaves.append(x.flow)
            else:
                spec.append((_CONST, x, None))
        self._spec = spec
        self._single = len(spec) == 1 and spec[0][0] == _TENSOR and \
            not nest.is_nested(structured_outputs)
        writes = [op for op in graph._ops if op._def.updates] + graph.get_collection(
            SIDE_EFFECTS)
        by_op = {ref.op: v for v, ref in graph.captures.values()}
        compiler = PlanCompiler(_CapturedValues(by_op), op_rng, _PlanOwnedArrays(by_op))
        self._plan: Plan = compiler.compile(
            leaves + writes, inputs,
            lambda expr_of, gname: "(%s)" % "".join(expr_of(t) + ", " for t in leaves))

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        """This trace's parameters, output and captures, as TensorFlow prints them.

        Args:
            verbose: One block of lines (True) or one line ``(params) -> output``.

        Returns:
            The text.
        """
        return signature_text(getattr(self, "_parameters", []), self.structured_outputs,
                              self.variables, verbose)

    def __repr__(self) -> str:
        return "<ConcreteFunction %s at 0x%X>" % (self.pretty_printed_signature(False),
                                                  id(self))

    def __str__(self) -> str:
        return "ConcreteFunction " + self.pretty_printed_signature()

    @property
    def outputs(self) -> list:
        """The trace's output tensors, flat (``structured_outputs`` has their nesting)."""
        return [t for t in nest.flatten(self.structured_outputs) if isinstance(t, Tensor)]

    @property
    def structured_input_signature(self) -> tuple:
        """``(args, kwargs)``: the trace's inputs as TensorSpecs named after their parameters
        (Python values as they are), keyword-only parameters in ``kwargs``."""
        def spec(name: str, value: Any) -> Any:
            if isinstance(value, TensorSpec):
                return TensorSpec(value.shape, value.dtype, value.name or name)
            if isinstance(value, (Tensor, EagerTensor)):
                return TensorSpec(value.shape, value.dtype.base_dtype, name)
            return nest.map_structure(
                lambda v: TensorSpec(v.shape, v.dtype.base_dtype)
                if isinstance(v, (Tensor, EagerTensor)) else v, value)
        params = getattr(self, "_parameters", [])
        return (tuple(spec(n, v) for n, kind, v in params if kind != "KEYWORD_ONLY"),
                {n: spec(n, v) for n, kind, v in params if kind == "KEYWORD_ONLY"})

    @property
    def trainable_variables(self) -> list:
        """The trainable ones of the variables the trace captured."""
        return [v for v in self.variables if getattr(v, "trainable", True)]

    def _call_flat(self, feeds: list) -> Any:
        if collected_graphs is not None and self.graph not in collected_graphs:
            collected_graphs.append(self.graph)
        try:
            vals = self._plan.fn(feeds)
        except Exception as e:
            raise _runtime_error(self._plan, e) from e
        if self._single:
            return EagerTensor(vals[0], self._spec[0][2])
        flat = []
        for kind, i, dt in self._spec:
            if kind == _TENSOR:
                flat.append(EagerTensor(vals[i], dt))
            elif kind == _SLICES:
                parts = [EagerTensor(vals[i + k], d) for k, d in enumerate(dt)]
                flat.append(IndexedSlices(*parts))
            elif kind == _ARRAY:
                flat.append(dt[1]._from_flow(EagerTensor(vals[i], dt[0])))
            elif kind == _COMPOSITE:
                flat.append(dt[0]._from_components([EagerTensor(vals[i + k], d)
                                                    for k, d in enumerate(dt[1])]))
            else:
                flat.append(i)
        return nest.pack_sequence_as(self.structured_outputs, flat)

    def __call__(self, *args: Any) -> Any:
        """Runs this trace on tensors for its inputs, in order."""
        if len(args) != len(self.inputs):
            raise TypeError("This ConcreteFunction takes %d tensor arguments, got %d"
                            % (len(self.inputs), len(args)))
        return self._call_flat([convert_to_tensor(a, t.dtype.base_dtype)._value
                                for a, t in zip(args, self.inputs)])


def _runtime_error(plan: Plan, e: Exception) -> Exception:
    """An error of a plan's kernel as TensorFlow reports it: with the failing node."""
    op = failing_op(plan, e)
    if op is None or (isinstance(e, errors.OpError) and e.op is not None):
        return e
    if isinstance(e, errors.OpError):
        return type(e)(e.node_def, op, "%s\n\t [[node %s (op %s)]]" % (e.message, op.name,
                                                                        op.type))
    if not isinstance(e, (ValueError, TypeError, IndexError, ArithmeticError)):
        return e
    return errors.InvalidArgumentError(None, op, "%s: %s\n\t [[node %s (op %s)]]"
                                       % (type(e).__name__, e, op.name, op.type))


def _components(obj: Any) -> tuple | None:
    """``(spec, components)`` of a composite tensor that a trace takes apart (its TypeSpec
    has TensorFlow's ``_to_components``/``_from_components``: a tf.distribute PerReplica),
    else None."""
    if not isinstance(obj, CompositeTensor):
        return None
    spec = obj._type_spec
    if not hasattr(spec, "_to_components"):
        return None
    return spec, list(spec._to_components(obj))


def _signature(obj: Any, feeds: list, tensors: list) -> Any:
    """A hashable key for an argument; appends its tensor values to ``feeds``."""
    parts = _components(obj)
    if parts is not None:
        return (CompositeTensor, type(parts[0]), getattr(parts[0], "_trace_key", None),
                _signature(parts[1], feeds, tensors))
    if isinstance(obj, EagerTensor):
        feeds.append(obj._value)
        tensors.append(obj)
        return (_TENSOR, obj._dtype, obj._value.shape)
    if isinstance(obj, np.ndarray):
        feeds.append(obj)
        return (_TENSOR, dtypes.as_dtype(obj.dtype), obj.shape)
    if isinstance(obj, TensorSpec):    # get_concrete_function(TensorSpec(...)): no value
        dims = obj.shape.as_list() if obj.shape.rank is not None else None
        return (_TENSOR, obj.dtype, None if dims is None else tuple(dims))
    if isinstance(obj, (list, tuple)):
        return (type(obj), tuple([_signature(x, feeds, tensors) for x in obj]))
    if isinstance(obj, dict):
        return (dict, tuple([(k, _signature(obj[k], feeds, tensors)) for k in sorted(obj)]))
    if isinstance(obj, Variable):
        return (Variable, _Ref(obj))
    try:
        hash(obj)
    except TypeError:
        return (object, _Ref(obj))
    return (type(obj), obj)


def _supertype_known_dims(call: Any, trace: Any) -> int | None:
    """How many dimensions the trace key ``trace`` fixes, if it is a supertype of the call
    key ``call`` (equal, but for tensor shapes whose rank or dimensions it leaves open);
    else None."""
    if call == trace:
        return _known_dims(trace)
    if type(call) is not tuple or type(trace) is not tuple or len(call) != len(trace):
        return None
    if call and call[0] is _TENSOR and trace[0] is _TENSOR:
        if call[1] != trace[1]:
            return None
        shape, want = call[2], trace[2]
        if want is None:
            return 0
        if shape is None or len(shape) != len(want) or any(
                w is not None and w != d for d, w in zip(shape, want)):
            return None
        return sum(w is not None for w in want)
    total = 0
    for a, b in zip(call, trace):
        n = _supertype_known_dims(a, b)
        if n is None:
            return None
        total += n
    return total


def _relaxed_key(a: Any, b: Any) -> Any:
    """The key of the most specific common supertype of call keys ``a`` and ``b`` that
    differ only in tensor shapes, else None."""
    if type(a) is not tuple or type(b) is not tuple or len(a) != len(b):
        return a if a == b else None
    if a and a[0] is _TENSOR and b[0] is _TENSOR:
        if a[1] != b[1]:
            return None
        if a[2] is None or b[2] is None or len(a[2]) != len(b[2]):
            return (_TENSOR, a[1], None)
        return (_TENSOR, a[1], tuple(x if x == y else None for x, y in zip(a[2], b[2])))
    if a and a[0] is CompositeTensor:
        return a if a == b else None
    out = []
    for x, y in zip(a, b):
        z = _relaxed_key(x, y)
        if z is None and not (x is None and y is None):
            return None
        out.append(z)
    return tuple(out)


def _spec_arguments(value: Any, key: Any) -> Any:
    """``value`` (the call's arguments) with each tensor replaced by the TensorSpec its
    place in the relaxed call ``key`` gives."""
    if type(key) is tuple and key and key[0] is _TENSOR:
        return TensorSpec(None if key[2] is None else list(key[2]), key[1])
    if isinstance(value, (list, tuple)) and type(key) is tuple and len(key) == 2:
        return type(value)(_spec_arguments(v, k) for v, k in zip(value, key[1]))
    if isinstance(value, dict):
        return {k: _spec_arguments(value[k], sub) for k, sub in key[1]}
    return value


def _known_dims(key: Any) -> int:
    if type(key) is not tuple:
        return 0
    if key and key[0] is _TENSOR:
        return 0 if key[2] is None else sum(d is not None for d in key[2])
    return sum(_known_dims(k) for k in key)


def _symbolic_args(args: tuple, kwargs: dict, names: list, placeholders: list) -> tuple:
    """``(args, kwargs)`` with their tensors replaced by new placeholders (appended to
    ``placeholders`` in flattening order), named after the parameters they are passed to."""
    def sub(name: str, value: Any) -> Any:
        count = iter(range(1 << 30))

        def leaf(x: Any) -> Any:
            parts = _components(x)
            if parts is not None:
                return parts[0]._from_components([leaf(c) for c in parts[1]])
            spec_name = None
            if isinstance(x, TensorSpec):
                dt, shape, spec_name = x.dtype, x.shape, x.name
            elif isinstance(x, (EagerTensor, np.ndarray)):
                dt = x._dtype if isinstance(x, EagerTensor) else dtypes.as_dtype(x.dtype)
                shape = TensorShape(x.shape)
            else:
                return x
            k = next(count)
            p = placeholder(dt, shape, name=spec_name or (name if not k else "%s_%d" % (name, k)))
            placeholders.append(p)
            return p
        return nest.map_structure(leaf, value)
    new_args = tuple(sub(names[i], a) for i, a in enumerate(args))
    return new_args, {k: sub(k, kwargs[k]) for k in sorted(kwargs)}


def _output_tensor(x: Any) -> Any:
    """A traced function's output as TensorFlow returns it: a variable is read, a Python
    number, string, NumPy array or TensorShape becomes a tensor; None and tensors stay."""
    if isinstance(x, Variable):
        return identity(x)
    if isinstance(x, (bool, int, float, complex, str, bytes, np.ndarray, np.generic,
                      TensorShape)):
        return convert_to_tensor(x)
    return x


def _checked_signature(signature: Any) -> list | None:
    """``signature`` as a list, checked as TensorFlow does: a list or tuple whose (possibly
    nested) leaves are all TensorSpecs."""
    if signature is None:
        return None
    if not isinstance(signature, (list, tuple)):
        raise TypeError("input_signature must be either a tuple or a list, got %s."
                        % type(signature))
    bad = [x for x in nest.flatten(list(signature), expand_composites=True)
           if not isinstance(x, TensorSpec)]
    if bad:
        raise TypeError("input_signature must be a possibly nested sequence of TensorSpec "
                        "objects, got invalid args %r with types %r."
                        % (bad, [type(x) for x in bad]))
    return list(signature)


def _match_signature(arg: Any, spec: Any, args: tuple, sig: list) -> list:
    """``[(leaf, TensorSpec)]`` of an argument and its (possibly nested) input_signature
    entry; a TypeError where their structures differ."""
    if not nest.is_nested(spec):
        if isinstance(spec, TensorSpec):
            return [(arg, spec)]           # a list there is a tensor's value
        if not spec.is_compatible_with(arg):    # a composite's spec (an ExtensionType's)
            raise TypeError("Binding inputs to tf.function failed due to `Can not cast %r to "
                            "%r`. Received args: %r for input_signature: %r."
                            % (arg, spec, args, tuple(sig)))
        return list(zip(nest.flatten(arg, expand_composites=True),
                        nest.flatten(spec, expand_composites=True)))
    same = (isinstance(spec, dict) and isinstance(arg, dict) and sorted(spec) == sorted(arg)) \
        or (not isinstance(spec, dict) and isinstance(arg, (list, tuple))
            and len(arg) == len(spec))
    if not same:
        raise TypeError("Binding inputs to tf.function failed due to `Can not cast %r to %s "
                        "type.`. Received args: %r for input_signature: %r."
                        % (arg, type(spec).__name__, args, tuple(sig)))
    keys = sorted(spec) if isinstance(spec, dict) else range(len(spec))
    return [pair for k in keys for pair in _match_signature(arg[k], spec[k], args, sig)]


def _signature_placeholders(spec: Any, name: str, placeholders: list) -> Any:
    """An input_signature entry with each TensorSpec replaced by a placeholder (appended to
    ``placeholders``) named as TensorFlow does: the spec's name, else the parameter's name
    (``name_1``, ``name_2``, ... after the first leaf)."""
    count = iter(range(1 << 30))

    def leaf(s: TensorSpec) -> Tensor:
        k = next(count)
        p = placeholder(s.dtype, s.shape, name=s.name or (name if not k else "%s_%d" % (name, k)))
        placeholders.append(p)
        return p
    return nest.map_structure(leaf, spec, expand_composites=True)


def _trace_argument(sig: Any) -> Any:
    """The argument a signature key stands for: a TensorSpec, or the Python literal."""
    if len(sig) == 3 and sig[0] == _TENSOR:
        return TensorSpec(sig[2], sig[1])
    return _literal(sig)


def _literal(sig: Any) -> Any:
    kind, value = sig[0], sig[1]
    if kind in (list, tuple):
        return kind(_literal(x) for x in value)
    if kind in (int, float, bool, str, type(None)) and len(sig) == 2:
        return value
    raise TypeError("not a Python literal")


def _arg_names(fn: Callable, n: int) -> list:
    """The names of ``fn``'s first ``n`` positional parameters (``args_<i>`` where unknown),
    which name an input_signature's placeholders as in TensorFlow."""
    try:
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else "args_%d" % i for i in range(n)]


class _CapturedDefault:
    def __repr__(self) -> str:
        return "<captured_default_value>"


def _captured_signature(sig: inspect.Signature) -> str:
    """A Python signature as TensorFlow's binding errors show it (defaults hidden)."""
    params = [p.replace(annotation=p.empty, default=_CapturedDefault()
                        if p.default is not p.empty else p.empty)
              for p in sig.parameters.values()]
    return str(sig.replace(parameters=params, return_annotation=sig.empty))


class _TracingDetector:
    """TensorFlow's warning when most of a function's recent calls traced it again (at
    least 5 traces among the last 10 or so calls; twice at most per Python function, whose
    code object keys it, so a tf.function made anew in a loop is caught too)."""

    def __init__(self):
        self.calls_per_tracing: list = []
        self.calls = 0
        self.warnings = 0

    def called(self, traced: bool, fn: Callable) -> None:
        self.calls += 1
        if not traced:
            if not self.calls_per_tracing:
                self.calls_per_tracing = [0]
            self.calls_per_tracing[-1] += 1
            return
        self.calls_per_tracing.append(1)
        while self.calls_per_tracing and self.calls - self.calls_per_tracing[0] > 10:
            self.calls -= self.calls_per_tracing.pop(0)
        if self.warnings >= 2 or len(self.calls_per_tracing) < 5:
            return
        self.warnings += 1
        hooks.log_warning(
            "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is "
            "expensive and the excessive number of tracings could be due to (1) creating "
            "@tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
            "passing Python objects instead of tensors. For (1), please define your "
            "@tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True "
            "option that can avoid unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.",
            len(self.calls_per_tracing), self.calls, fn)


_tracing_detectors: Any = weakref.WeakKeyDictionary()


def _positional_defaults(sig: Any) -> tuple | None:
    """The defaults (``Parameter.empty`` where none) of a signature made of positional
    parameters only, else None: a call with positional arguments alone then binds as
    ``args + defaults[len(args):]``."""
    if sig is False:
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = list(sig.parameters.values())
    if any(p.kind not in kinds for p in params):
        return None
    return tuple(p.default for p in params)


def _tracing_detector(fn: Callable) -> _TracingDetector:
    """The detector of a Python function's code (shared by the Functions made of it)."""
    target = fn
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", fn)
    try:
        detector = _tracing_detectors.get(key)
        if detector is None:
            detector = _tracing_detectors[key] = _TracingDetector()
    except TypeError:                   # not weak-referenceable
        return _TracingDetector()
    return detector


#: Whether every Function runs its Python function eagerly instead of its traced graph
#: (``tf.config.run_functions_eagerly``, a debugging switch as in TensorFlow).
RUN_EAGERLY = [False]


class Function:
    """A Python function compiled per input signature (see the module docstring)."""

    def __init__(self, python_function: Callable, name: str | None = None,
                 input_signature: Any = None, autograph: bool = True,
                 reduce_retracing: bool = False):
        self._python_function = python_function
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = _checked_signature(input_signature)
        self._concrete: dict = {}
        self._dispatched: dict = {}    # call key -> a trace for a supertype of it
        self._lock = threading.RLock()    # one thread traces at a time, as in TensorFlow
        self._trace_count = 0
        self._created_variables: list = []    # made by the first trace (they live outside)
        self._bound: Any = weakref.WeakKeyDictionary()  # instance -> its own Function
        self._py_signature: Any = None     # inspect.Signature (False: none), when first called
        self._defaults: tuple | None = None     # its positional parameters' defaults
        self._detector: _TracingDetector | None = None
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self) -> Callable:
        return self._python_function

    @property
    def input_signature(self) -> Any:
        return None if self._input_signature is None else tuple(self._input_signature)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        """A method gets one Function per instance, so each instance creates its variables."""
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:                         # not weak-referenceable or unhashable
            return functools.partial(self.__call__, instance)
        if bound is None:
            with self._lock:
                bound = self._bound.get(instance)
                if bound is None:
                    bound = Function(types.MethodType(self._python_function, instance),
                                     self._name, self._input_signature, self._autograph,
                                     self._reduce_retracing)
                    self._bound[instance] = bound
        return bound

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if RUN_EAGERLY[0] and executing_eagerly():    # tf.config.run_functions_eagerly(True)
            return self._python_function(*args, **kwargs)
        if not executing_eagerly():             # inside another trace or a TF1 graph: inline
            return tf_convert(self._python_function, self._autograph)(*args, **kwargs)
        if self._input_signature is None:
            args, kwargs = self._canonical(args, kwargs)
        count = self._trace_count
        key, feeds, tensors = self._key(args, kwargs)
        cf = self._concrete.get(key) or self._dispatch(key) or self._relaxed_trace(
            key, args, kwargs) or self._trace(key, args, kwargs, feeds)
        if state.tapes and any(t._watches_call(tensors, cf.variables) for t in state.tapes):
            out = self._python_function(*args, **kwargs)
        else:
            out = cf._call_flat(feeds)
        if self._detector is None:
            self._detector = _tracing_detector(self._python_function)
        self._detector.called(self._trace_count != count, self._python_function)
        return out

    def _canonical(self, args: tuple, kwargs: dict) -> tuple:
        """The call's arguments bound to the Python function's parameters, defaults filled
        in, as TensorFlow canonicalizes them: ``f(x)``, ``f(x, True)`` and
        ``f(x, training=True)`` are one call (one trace) where ``training`` defaults to True.

        Raises:
            TypeError: the arguments do not bind (TensorFlow's message).
        """
        if self._py_signature is None:
            try:
                self._py_signature = inspect.signature(self._python_function)
            except (TypeError, ValueError):
                self._py_signature = False
            self._defaults = _positional_defaults(self._py_signature)
        if self._py_signature is False:
            return args, kwargs
        defaults = self._defaults       # the fast path: positional arguments only
        if not kwargs and defaults is not None and len(args) <= len(defaults) and \
                all(d is not inspect.Parameter.empty for d in defaults[len(args):]):
            return args + defaults[len(args):], kwargs
        try:
            bound = self._py_signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError("Binding inputs to tf.function failed due to `%s`. Received args: "
                            "%r and kwargs: %r for signature: %s."
                            % (e, args, kwargs, _captured_signature(self._py_signature))) \
                from None
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def _dispatch(self, key: Any) -> ConcreteFunction | None:
        """A trace made for a supertype of the call ``key`` (a TensorSpec with None
        dimensions from ``get_concrete_function``, say), as TensorFlow reuses one instead of
        tracing again; the most specific if several fit."""
        cf = self._dispatched.get(key)
        if cf is not None or key == "input_signature":
            return cf
        best, known = None, -1
        for trace_key, trace in list(self._concrete.items()):
            n = _supertype_known_dims(key, trace_key)
            if n is not None and n > known:
                best, known = trace, n
        if best is not None:
            self._dispatched[key] = best
        return best

    def _relaxed_trace(self, key: Any, args: tuple, kwargs: dict) -> ConcreteFunction | None:
        """With ``reduce_retracing``: a trace for the most specific common supertype of the
        call ``key`` and the latest trace that differs from it only in tensor shapes (the
        dimensions that differ, or the rank, left open), as TensorFlow generalizes; None
        without one."""
        if not self._reduce_retracing or key == "input_signature":
            return None
        for trace_key in reversed(list(self._concrete)):
            relaxed = _relaxed_key(key, trace_key)
            if relaxed is not None:
                cf = self._concrete.get(relaxed)
                if cf is None:
                    spec_args, spec_kwargs = _spec_arguments((args, kwargs), relaxed)
                    cf = self._trace(relaxed, spec_args, spec_kwargs)
                self._dispatched[key] = cf
                return cf
        return None

    def _key(self, args: tuple, kwargs: dict) -> tuple:
        feeds: list = []
        tensors: list = []
        if self._input_signature is None:
            return _signature((args, kwargs), feeds, tensors), feeds, tensors
        sig = self._input_signature
        n_args = len(args)
        names = _arg_names(self._python_function, len(sig))
        try:           # arguments may be passed by their parameters' names
            args = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                      for n in names]).bind(*args, **kwargs).args
        except TypeError as e:
            raise TypeError("Binding inputs to tf.function failed due to `%s`. Received args: "
                            "%r and kwargs: %r for signature: %s."
                            % (e, args, kwargs, self._signature_text())) from None
        for a, spec in zip(args, sig):
            for leaf, leaf_spec in _match_signature(a, spec, args, sig):
                t = convert_to_tensor(leaf, leaf_spec.dtype) if not isinstance(
                    leaf, EagerTensor) else leaf
                if not leaf_spec.is_compatible_with(t):
                    raise TypeError(
                        "Binding inputs to tf.function failed due to `Can not cast %r to %r`. "
                        "Received args: %r and kwargs: %r for signature: %s."
                        % (TensorSpec(t.shape, t.dtype.base_dtype, leaf_spec.name), leaf_spec,
                           args[:n_args], kwargs, self._signature_text()))
                feeds.append(t._value)
                tensors.append(t)
        return "input_signature", feeds, tensors

    def _signature_text(self) -> str:
        """The input_signature as TensorFlow shows it: ``(name: TensorSpec(...), ...)``."""
        names = _arg_names(self._python_function, len(self._input_signature))
        return signature_text(list(zip(names, names, self._input_signature)), None, [],
                              verbose=False).split(" -> ")[0]

    def _trace(self, key: Any, args: tuple, kwargs: dict,
               feeds: list | None = None) -> ConcreteFunction:
        """The trace for ``key``: made now, unless another thread made it while this one
        waited for the lock."""
        with self._lock:
            cf = self._concrete.get(key)
            return cf if cf is not None else self._trace_locked(key, args, kwargs, feeds)

    def _trace_locked(self, key: Any, args: tuple, kwargs: dict,
                      feeds: list | None) -> ConcreteFunction:
        g = FuncGraph(self._name)
        g.seed = global_seed()         # ops traced here derive their seeds from it, as in TF
        if self._created_variables:
            g.variable_creation_error = (
                "tf.function only supports singleton tf.Variables created on the first call. "
                "Make sure the tf.Variable is only created once or created outside tf.function. "
                "See https://www.tensorflow.org/guide/function#creating_tfvariables for more "
                "information.")
        elif self._trace_count:
            g.variable_creation_error = ("Creating variables on a non-first call to a function "
                                         "decorated with tf.function.")
        tapes = list(state.tapes)
        state.tapes.clear()            # the trace itself is not recorded by outer tapes
        try:
            with g.as_default():
                placeholders: list = []
                if self._input_signature is None:
                    args2, kwargs2 = _symbolic_args(args, kwargs,
                                                    _arg_names(self._python_function, len(args)),
                                                    placeholders)
                else:
                    names = _arg_names(self._python_function, len(self._input_signature))
                    args2 = [_signature_placeholders(s, names[i], placeholders)
                             for i, s in enumerate(self._input_signature)]
                    kwargs2 = {}
                if feeds is not None:
                    g._arg_values = dict(zip(placeholders, feeds))
                out = tf_convert(self._python_function, self._autograph)(*args2, **kwargs2)
                out = nest.map_structure(_output_tensor, out)
        finally:
            state.tapes[:] = tapes
        g._arg_values = {}
        cf = ConcreteFunction(g, placeholders, out)
        if self._input_signature is None:
            cf._parameters = parameters(self._python_function, args, kwargs)
        else:
            cf._parameters = parameters(self._python_function, tuple(self._input_signature), {})
        self._concrete[key] = cf
        if not self._trace_count:
            self._created_variables = list(g.created_variables)
        self._trace_count += 1
        return cf

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The trace for these arguments (traced now if needed); with an input_signature,
        no arguments are needed."""
        if self._input_signature is not None and not args and not kwargs:
            key, feeds = "input_signature", None
        elif self._input_signature is None and any(
                isinstance(a, TensorSpec) for a in nest.flatten((args, kwargs))):
            key, feeds = _signature((args, kwargs), [], []), None     # specs have no values
        else:
            key, feeds, _ = self._key(args, kwargs)
        return self._concrete.get(key) or self._dispatch(key) or \
            self._trace(key, args, kwargs, feeds)

    def _positional_traces(self) -> list:
        """[(arguments, ConcreteFunction)] of the traces made for calls with positional
        arguments that are tensors (a TensorSpec each) or Python literals (numbers, bools,
        strings, None and lists/tuples of them, kept as they are): those a SavedModel
        keeps."""
        if self._input_signature is not None:
            return [(list(self._input_signature), self.get_concrete_function())]
        out = []
        for key, cf in self._concrete.items():
            (_, ((_, args), (_, kwargs))) = key
            if kwargs:
                continue
            try:
                out.append(([_trace_argument(a) for a in args], cf))
            except TypeError:
                continue
        return out

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """The signatures of the traces made so far, in the order they were made (with an
        input_signature, its trace, made now if needed).

        Args:
            verbose: Each trace as a block of lines (True) or as one line.

        Returns:
            The text (blocks separated by a blank line).
        """
        if self._input_signature is not None:
            self.get_concrete_function()         # TensorFlow lists the signature's trace
        return ("\n\n" if verbose else "\n").join(
            cf.pretty_printed_signature(verbose) for cf in list(self._concrete.values()))

    def _list_all_concrete_functions(self) -> list:
        """The traces made so far (TensorFlow's private method, which Keras's ExportArchive
        calls; with an input_signature, its trace, made now if needed)."""
        if self._input_signature is not None:
            self.get_concrete_function()
        return list(self._concrete.values())

    def experimental_get_tracing_count(self) -> int:
        """How many times this function has been traced."""
        return self._trace_count

    def __repr__(self) -> str:
        return "<flowgrad.runtime.function.Function %s>" % self._name


def function(func: Callable | None = None, input_signature: Any = None, autograph: bool = True,
             jit_compile: Any = None, reduce_retracing: bool = False,
             experimental_implements: Any = None, experimental_autograph_options: Any = None,
             experimental_attributes: Any = None, experimental_relax_shapes: Any = None,
             experimental_compile: Any = None,
             experimental_follow_type_hints: Any = None) -> Any:
    """Compiles ``func`` into a graph per input signature, as ``tf.function``.

    Usable as a decorator, with or without arguments. Each new input signature (the
    shapes and dtypes of tensor arguments, the values of Python ones) traces ``func``
    once; later calls with that signature run the traced graph.

    Example:

        >>> @tf.function
        ... def f(x):
        ...     return x * x + 1.0
        >>> print(f(tf.constant(2.0)).numpy())
        5.0

    Args:
        func: The Python function to compile; None returns a decorator.
        input_signature: A list of ``tf.TensorSpec`` fixing the arguments' shapes and
            dtypes; None traces per call signature.
        autograph: If true, Python ``if``/``for``/``while`` on tensors become graph
            control flow.
        jit_compile: Accepted and ignored (flowgrad has no XLA).
        reduce_retracing: If true, a call whose tensors differ in shape from an earlier
            trace's traces once for both, the differing dimensions left open.
        experimental_implements: Accepted for TensorFlow's signature.
        experimental_autograph_options: Accepted for TensorFlow's signature.
        experimental_attributes: Accepted for TensorFlow's signature.
        experimental_relax_shapes: The older name of ``reduce_retracing``.
        experimental_compile: Accepted and ignored (flowgrad has no XLA).
        experimental_follow_type_hints: Accepted for TensorFlow's signature.

    Returns:
        A callable ``Function`` (or, if ``func`` is None, a decorator making one).
    """
    def decorate(f: Callable) -> Function:
        return Function(f, input_signature=input_signature, autograph=autograph,
                        reduce_retracing=bool(reduce_retracing or experimental_relax_shapes))
    return decorate if func is None else decorate(func)


__all__ = ["function", "Function", "ConcreteFunction", "FuncGraph", "TensorSpec", "init_scope"]
