"""Graph and Operation: the dataflow graph that graph mode builds."""
from __future__ import annotations

import contextlib
import re
import threading
import warnings
from collections.abc import Iterator
from typing import Any

from flowgrad.framework import context, hooks
from flowgrad.framework.context import session_for, state, user_frame
from flowgrad.framework.registry import check_override_map
from flowgrad.framework.tensor import Tensor, TensorBase
from flowgrad.framework.tensor_shape import as_shape


class GraphKeys:
    """Standard collection names."""

    GLOBAL_VARIABLES = "variables"
    VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    MODEL_VARIABLES = "model_variables"
    GLOBAL_STEP = "global_step"
    SUMMARIES = "summaries"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    REGULARIZATION_LOSSES = "regularization_losses"
    TRAIN_OP = "train_op"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    SAVERS = "savers"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    QUEUE_RUNNERS = "queue_runners"
    ASSET_FILEPATHS = "asset_filepaths"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"


def canonical_device(spec: str | None) -> str:
    """'/cpu:0' -> '/device:CPU:0', as TensorFlow normalises device strings."""
    if not spec:
        return ""
    out = []
    for part in spec.strip("/").split("/"):
        m = re.fullmatch(r"(?:device:)?(cpu|gpu|CPU|GPU|TPU|tpu):(\d+|\*)", part)
        out.append("device:%s:%s" % (m.group(1).upper(), m.group(2)) if m else part)
    return "/" + "/".join(out)


_DEVICE_FIELDS = ("job", "replica", "task", "device")


def merge_device(spec: str, current: str) -> str:
    """The device ``spec`` with the fields ``current`` sets overriding it, as TensorFlow
    merges nested ``tf.device`` scopes (``/job:ps`` around ``/task:1``: ``/job:ps/task:1``)."""
    fields: dict = {}
    for device in (spec, current):
        for part in canonical_device(device).strip("/").split("/"):
            if part:
                key, _, value = part.partition(":")
                fields[key] = value
    return "".join("/%s:%s" % (k, fields[k]) for k in _DEVICE_FIELDS if k in fields)


def _apply_device_stack(op: Operation, stack: list) -> str:
    """``op``'s device from the ``tf.device`` scopes, innermost first as TensorFlow applies
    them: a string fills in the fields not set yet, a device function (``replica_device_setter``)
    gives the device from the op, None stops."""
    for spec in reversed(stack):
        if spec is None:
            break
        op.device = canonical_device(spec(op) or "") if callable(spec) \
            else merge_device(spec, op.device)
    return op.device


class Operation:
    """A node of the graph: an op type applied to input tensors, with attributes.

    Made by the graph when an op is called (``Graph.create_op``), not directly.

    Args:
        graph: The graph it belongs to.
        opdef: The registered op (kernel, shape rule, gradient).
        name: Its unique name in the graph.
        inputs: Its input tensors.
        attrs: Its attributes.
        out_specs: ``(dtype, shape)`` of each output.
        control_inputs: The ops that must run before it.
    """

    __slots__ = ("graph", "name", "type", "_inputs", "outputs", "control_inputs", "_attrs",
                 "device", "_id", "_grad_type", "_def", "traceback", "_control_outputs",
                 "__weakref__")

    def __init__(self, graph: Graph, opdef: Any, name: str, inputs: list, attrs: dict,
                 out_specs: list, control_inputs: list):
        self.graph = graph
        self.name = name
        self.type = opdef.type
        self._def = opdef
        self._inputs = inputs
        self._attrs = attrs
        self.control_inputs = control_inputs
        self._control_outputs: list = []
        self.device = ""
        self._id = len(graph._ops)
        self._grad_type = graph._gradient_override_map.get(opdef.type)
        if self._grad_type is not None:
            graph._override_hits.add(opdef.type)
        self.traceback = user_frame()
        self.outputs = [Tensor(self, i, dt, as_shape(sh)) for i, (dt, sh) in enumerate(out_specs)]
        for t in inputs:
            t._consumers.append(self)
        for c in control_inputs:
            c._control_outputs.append(self)
        if graph._device_stack:
            _apply_device_stack(self, graph._device_stack)

    @property
    def inputs(self) -> list:
        return self._inputs

    @property
    def node_def(self) -> Any:
        return self

    @property
    def op_def(self) -> Any:
        return self._def

    def get_attr(self, name: str) -> Any:
        try:
            return self._attrs[name]
        except KeyError:
            if name == "_gradient_op_type" and self._grad_type:
                return self._grad_type.encode()
            raise ValueError("Operation '%s' has no attr named '%s'." % (self.name, name)) from None

    def _set_attr(self, name: str, value: Any) -> None:
        self._attrs[name] = value

    def values(self) -> tuple:
        return tuple(self.outputs)

    def _add_control_input(self, op: Operation) -> None:
        if op not in self.control_inputs:
            self.control_inputs.append(op)
            op._control_outputs.append(self)

    def _add_control_inputs(self, ops: list) -> None:
        for op in ops:
            self._add_control_input(op)

    def run(self, feed_dict: dict | None = None, session: Any = None) -> None:
        """Runs this op in the default (or given) session."""
        session_for(session, self).run(self, feed_dict)

    def __repr__(self) -> str:
        return "<tf.Operation '%s' type=%s>" % (self.name, self.type)

    def __str__(self) -> str:
        lines = ['name: "%s"' % self.name, 'op: "%s"' % self.type]
        lines += ['input: "%s"' % (t.op.name if t.value_index == 0 else t.name)
                  for t in self._inputs]
        lines += ['input: "^%s"' % c.name for c in self.control_inputs]
        if self.device:
            lines.append('device: "%s"' % self.device)
        return "\n".join(lines) + "\n"


class _BuildState(threading.local):
    """What a thread building a graph has entered: as in TensorFlow, name scopes, control
    dependencies, devices and gradient overrides opened on one thread do not apply to the
    ops another thread adds to the same graph."""

    def __init__(self) -> None:
        self.name_stack = ""
        self.control_stack: list[list] = []
        self.device_stack: list[str] = []
        self.gradient_override_map: dict[str, str] = {}
        self.override_hits: set = set()


def _per_thread(name: str) -> property:
    def get(self: Any) -> Any:
        return getattr(self._build, name)

    def set_(self: Any, value: Any) -> None:
        setattr(self._build, name, value)
    return property(get, set_)


class Graph:
    """A TensorFlow computation graph: operations, names, scopes and collections."""

    building_function = False   # True for the graphs tf.function traces into (FuncGraph)

    _name_stack = _per_thread("name_stack")
    _control_stack = _per_thread("control_stack")
    _device_stack = _per_thread("device_stack")
    _gradient_override_map = _per_thread("gradient_override_map")
    _override_hits = _per_thread("override_hits")

    def __init__(self) -> None:
        self._build = _BuildState()
        self._lock = threading.RLock()    # held while a name is taken or an op added
        self._ops: list[Operation] = []
        self._ops_by_name: dict[str, Operation] = {}
        self._names_in_use: dict[str, int] = {}
        self._collections: dict[str, list] = {}
        self._finalized = False
        self.seed: int | None = None
        self._var_store: dict[str, Any] = {}
        self._var_scope_stack: list = []
        self._op_seed_counter = 0
        self._version = 0
        # id(EagerTensor) -> (it, its Const here): an eager tensor a GradientTape watches in
        # this graph, so that its uses and the gradient's source are one tensor
        self._watched_eager: dict = {}

    # -- default graph ----------------------------------------------------------------
    def as_default(self) -> Any:
        """Context manager making this the default graph (graph mode inside)."""
        return context.graph_scope(self)

    @property
    def finalized(self) -> bool:
        return self._finalized

    def finalize(self) -> None:
        """Makes the graph read-only: adding an op raises RuntimeError."""
        self._finalized = True

    @property
    def version(self) -> int:
        return len(self._ops)

    # -- names ------------------------------------------------------------------------
    def get_name_scope(self) -> str:
        return self._name_stack

    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """``name`` prefixed with the current scope, made unique with a _N suffix."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        key = name.lower()
        with self._lock:
            i = self._names_in_use.get(key, 0)
            if mark_as_used:
                self._names_in_use[key] = i + 1
            if i > 0:
                base = key
                while key in self._names_in_use:
                    key = "%s_%d" % (base, i)
                    i += 1
                if mark_as_used:
                    self._names_in_use[key] = 1
                name = "%s_%d" % (name, i - 1)
        return name

    @contextlib.contextmanager
    def name_scope(self, name: str | None) -> Iterator[str]:
        """Opens a name scope; yields its full name ending in '/' ('' at the root)."""
        old = self._name_stack
        if not name:
            new = ""
        elif name[-1] == "/":
            new = name[:-1]
        else:
            new = self.unique_name(name)
        self._name_stack = new
        try:
            yield new + "/" if new else ""
        finally:
            self._name_stack = old

    # -- control dependencies and devices ---------------------------------------------
    @contextlib.contextmanager
    def control_dependencies(self, control_inputs: list | None) -> Iterator[None]:
        """Ops created inside run after ``control_inputs`` (None clears outer dependencies)."""
        saved = self._control_stack
        if control_inputs is None:
            self._control_stack = []
        else:
            ops = []
            for c in control_inputs:
                if hasattr(c, "_as_graph_op"):
                    c = c._as_graph_op()
                if isinstance(c, TensorBase):
                    c = c.op
                if not isinstance(c, Operation):
                    raise TypeError("Control input must be an Operation or a Tensor: %r" % (c,))
                ops.append(c)
            self._control_stack = saved + [ops]
        try:
            yield
        finally:
            self._control_stack = saved

    @contextlib.contextmanager
    def device(self, spec: Any) -> Iterator[None]:
        """Records a device on the ops created inside (everything runs on the CPU): a string
        (merged with the enclosing scopes'), a ``DeviceSpec``, a device function of the op, or
        None (no device)."""
        if spec is not None and not isinstance(spec, str) and not callable(spec):
            spec = spec.to_string() if hasattr(spec, "to_string") else str(spec)
        self._device_stack.append(spec)
        try:
            yield
        finally:
            self._device_stack.pop()

    @contextlib.contextmanager
    def colocate_with(self, op: Any, ignore_existing: bool = False) -> Iterator[None]:
        yield

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: dict) -> Iterator[None]:
        """Ops of the given types created inside use the mapped gradient names."""
        check_override_map(op_type_map)
        saved = self._gradient_override_map
        self._gradient_override_map = dict(saved, **op_type_map)
        hits_before = set(self._override_hits)
        self._override_hits = set()
        try:
            yield
        finally:
            # an entry is missed unless some op used it, or used its gradient name through
            # a sibling entry (the {"PyFunc": g, "PyFuncStateless": g} idiom)
            used = {op_type_map[k] for k in op_type_map if k in self._override_hits}
            missed = [k for k in op_type_map if op_type_map[k] not in used]
            if missed:
                warnings.warn("gradient_override_map: no op of type %s was created inside the "
                              "scope, so the override %s matched nothing"
                              % (", ".join(repr(k) for k in missed),
                                 ", ".join("%r -> %r" % (k, op_type_map[k]) for k in missed)),
                              stacklevel=3)
            self._override_hits |= hits_before
            self._gradient_override_map = saved

    # -- ops --------------------------------------------------------------------------
    def _create_op(self, opdef: Any, inputs: list, attrs: dict, name: str, out_specs: list,
                   ) -> Operation:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        controls: list = []
        control_stack = self._control_stack
        if control_stack:
            seen = {t.op for t in inputs}
            for ops in control_stack:
                for c in ops:
                    if c not in seen:
                        seen.add(c)
                        controls.append(c)
        with self._lock:
            name = name[:-1] if name.endswith("/") else self.unique_name(name)
            if name in self._ops_by_name:
                name = self.unique_name(name)
            op = Operation(self, opdef, name, inputs, attrs, out_specs, controls)
            self._ops.append(op)
            self._ops_by_name[name] = op
        return op

    def get_operations(self) -> list:
        return list(self._ops)

    def as_graph_def(self, from_version: int | None = None, add_shapes: bool = False) -> Any:
        """This graph as TensorFlow's ``GraphDef`` proto (see flowgrad.saved_model.graph_export).

        Args:
          from_version: only the ops added after this ``version``.
          add_shapes: record each node's output shapes (``_output_shapes``).

        Returns:
          The GraphDef.
        """
        return hooks.graph_def(self, from_version, add_shapes)

    def get_operation_by_name(self, name: str) -> Operation:
        try:
            return self._ops_by_name[name]
        except KeyError:
            raise KeyError("The name %r refers to an Operation not in the graph." % name) from None

    def get_tensor_by_name(self, name: str) -> Tensor:
        op_name, _, idx = name.rpartition(":")
        if not op_name or not idx.isdigit():
            raise ValueError("The name %r looks like an (invalid) Operation name, not a Tensor. "
                             "Tensor names must be of the form \"<op_name>:<output_index>\"."
                             % name)
        op = self.get_operation_by_name(op_name)
        i = int(idx)
        if i >= len(op.outputs):
            raise KeyError("The name %r refers to a Tensor which does not exist. The operation, "
                           "%r, exists but only has %d outputs." % (name, op_name, len(op.outputs)))
        return op.outputs[i]

    def as_graph_element(self, obj: Any, allow_tensor: bool = True,
                         allow_operation: bool = True) -> Any:
        """Resolves a Tensor, Operation, Variable or name to an element of this graph."""
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                return self.get_tensor_by_name(obj)
            return self.get_operation_by_name(obj)
        if hasattr(obj, "_as_graph_element"):
            obj = obj._as_graph_element()
        if isinstance(obj, (Tensor, Operation)):
            if obj.graph is not self:
                raise ValueError("%s is not an element of this graph." % (obj,))
            return obj
        raise TypeError("Can not convert a %s into a Tensor or Operation." % type(obj).__name__)

    # -- collections ------------------------------------------------------------------
    def add_to_collection(self, name: str, value: Any) -> None:
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names: Any, value: Any) -> None:
        for n in ([names] if isinstance(names, str) else names):
            self.add_to_collection(n, value)

    def get_collection_ref(self, key: str) -> list:
        return self._collections.setdefault(key, [])

    def get_collection(self, key: str, scope: str | None = None) -> list:
        items = self._collections.get(key, [])
        if scope is None:
            return list(items)
        pat = re.compile(scope)
        return [x for x in items if hasattr(x, "name") and pat.match(x.name)]

    def get_all_collection_keys(self) -> list:
        return list(self._collections)

    def clear_collection(self, name: str) -> None:
        self._collections.pop(name, None)

    # -- random seeds -----------------------------------------------------------------
    def _next_op_seed(self) -> int:
        """0, 1, 2, ...: TensorFlow's op seed for a random op without one in a graph with a
        seed (``random_seed._graph_to_seed_dict``)."""
        self._op_seed_counter += 1
        return self._op_seed_counter - 1


def get_default_graph() -> Graph:
    """The default graph."""
    return context.get_default_graph()


@contextlib.contextmanager
def name_scope(name: str | None, default_name: str | None = None,
               values: Any = None) -> Iterator[str]:
    """Opens a name scope (TF1 form: ``name_scope(name, default_name, values)``).

    Args:
        name: The scope's name; a name ending in ``/`` is used as it is.
        default_name: The name when ``name`` is None.
        values: Accepted for TensorFlow's signature.
    """
    n = name if name is not None else default_name
    if context.executing_eagerly():
        st = context.state
        outer = st.eager_name_scope
        st.eager_name_scope = "" if not n else (n if n.endswith("/") else outer + n + "/")
        try:
            yield st.eager_name_scope
        finally:
            st.eager_name_scope = outer
        return
    g = None
    for v in values or ():
        if isinstance(v, Tensor):
            g = v.graph
            break
    g = g or get_default_graph()
    with g.name_scope(n) as scope:      # name and default_name None: the root scope
        yield scope


def device(spec: Any) -> Any:
    """Context manager recording a device string on new ops (TF's ``tf.device``).

    Args:
        spec: A device string or function (accepted; flowgrad runs on the CPU).
    """
    if context.executing_eagerly():
        return contextlib.nullcontext()
    return get_default_graph().device(spec)


def control_dependencies(control_inputs: list | None) -> Any:
    """Ops created inside run after ``control_inputs``.

    Args:
        control_inputs: The ops (or tensors) to run before the ops made inside; None clears them.
    """
    if context.executing_eagerly():
        return contextlib.nullcontext()
    return get_default_graph().control_dependencies(control_inputs)


def add_to_collection(name: str, value: Any) -> None:
    """Adds ``value`` to the collection ``name`` of the default graph, as TF1's
    ``tf.add_to_collection``.

    Args:
        name: The collection's key (a ``GraphKeys`` constant or any string).
        value: The value to add.
    """
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: Any, value: Any) -> None:
    """Adds ``value`` to each of the collections ``names`` of the default graph.

    Args:
        names: One key or a list of keys.
        value: The value to add.
    """
    get_default_graph().add_to_collections(names, value)


def get_collection(key: str, scope: str | None = None) -> list:
    """The values of the default graph's collection ``key``, as TF1's ``tf.get_collection``.

    Args:
        key: The collection's key.
        scope: Only the values whose ``name`` starts with this scope (a regular expression
            matched at the start); all when None.

    Returns:
        A new list (changing it leaves the collection as it is).
    """
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: str) -> list:
    """The default graph's collection ``key`` itself, to change in place.

    Args:
        key: The collection's key.

    Returns:
        The collection's list (created empty when missing).
    """
    return get_default_graph().get_collection_ref(key)


__all__ = ["Graph", "Operation", "GraphKeys", "get_default_graph", "name_scope", "device",
           "control_dependencies", "add_to_collection", "add_to_collections", "get_collection",
           "get_collection_ref", "state"]


hooks.register(new_graph=Graph)     # the default graph that context creates
