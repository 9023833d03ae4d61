"""Variables and the ops that read and write them (VariableV2, Assign, AssignAdd, AssignSub)."""
from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.errors import dims_text
from flowgrad.framework.context import executing_eagerly, session_for, state
from flowgrad.framework.graph import GraphKeys, get_default_graph, name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import (
    EagerTensor,
    _Ref,
    convert_to_tensor,
    eager_value,
    numpy_text,
    register_tensor_conversion_function,
    to_numpy,
)
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.type_hints import VariableLike
from flowgrad.ops.array_ops import identity
from flowgrad.ops.control_flow_ops import group
from flowgrad.ops.variable_enums import VariableAggregation, VariableSynchronization
from flowgrad.ops.variable_scatter_ops import ScatterMethods, eager_scatter, graph_scatter
from collections.abc import Sequence
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

# --------------------------------------------------------------------------------------
# Ops

register_op("VariableV2", None,
            lambda ins, attrs: (attrs["dtype"]._as_ref(), attrs["shape"]),
            grad=_NO_GRADIENT, stateful=True, variable=True)


def _assign_infer(ins: list, attrs: dict) -> tuple:
    ref, value = ins
    if attrs.get("validate_shape", True) and not ref.shape.is_compatible_with(value.shape):
        raise ValueError("Shapes %s and %s are incompatible (assigning to %s)"
                         % (ref.shape, value.shape, ref.name))
    if attrs.get("validate_shape", True):
        return ref.dtype.base_dtype._as_ref(), ref.shape.merge_with(value.shape)
    return ref.dtype.base_dtype._as_ref(), value.shape     # the variable takes value's shape


def _shape_mismatch(op_type: str, var_shape: Any, value: Any) -> Exception:
    from flowgrad.framework.errors import InvalidArgumentError
    what = ("Assign requires shapes of both tensors to match." if op_type == "Assign" else
            "%s: var and delta do not have the same shape" % op_type)
    return InvalidArgumentError(None, None, "%s lhs shape= %s rhs shape= %s"
                                % (what, list(var_shape), list(np.shape(value))))


def _assign_kernel(ref: Any, value: Any, *, validate_shape: bool = True,
                   var_shape: Any = None) -> Any:
    if var_shape is not None and not TensorShape(var_shape).is_compatible_with(np.shape(value)):
        raise _shape_mismatch("Assign", var_shape, value)
    return value


def _assign_specialize(attrs: dict) -> Any:
    var_shape = attrs.get("var_shape")
    if var_shape is None:
        return lambda ref, value: value
    if None not in var_shape:
        def assign_exact(ref: Any, value: Any) -> Any:
            if np.shape(value) != var_shape:
                raise _shape_mismatch("Assign", var_shape, value)
            return value
        return assign_exact
    return lambda ref, value: _assign_kernel(ref, value, **attrs)


def _update_kernel(ufunc: Any, op_type: str) -> Any:
    """AssignAdd/AssignSub: the variable's value and the delta must have one shape."""
    def kernel(ref: Any, value: Any) -> Any:
        if np.shape(ref) != np.shape(value):
            raise _shape_mismatch(op_type, np.shape(ref), value)
        return ufunc(ref, value)
    return kernel


def _update_infer(ins: list, attrs: dict) -> tuple:
    ref, value = ins
    if not ref.shape.is_compatible_with(value.shape):
        raise ValueError("Shapes %s and %s are incompatible (updating %s)"
                         % (ref.shape, value.shape, ref.name))
    return ref.dtype.base_dtype._as_ref(), ref.shape


register_op("Assign", _assign_kernel, _assign_infer, specialize=_assign_specialize,
            grad=_NO_GRADIENT, stateful=True, updates=(0,), reads_refs=False,
            input_names=("ref", "value"))
def _update_inplace(ufunc: Any, op_type: str) -> Any:
    """AssignAdd/AssignSub writing into the variable's array (a plan uses it where it owns
    that array: TensorFlow's update in place when the buffer has one reference)."""
    def kernel(ref: Any, value: Any) -> Any:
        if np.shape(ref) != np.shape(value):
            raise _shape_mismatch(op_type, np.shape(ref), value)
        return ufunc(ref, value, out=ref)
    return kernel


register_op("AssignAdd", _update_kernel(np.add, "AssignAdd"), _update_infer,
            grad=_NO_GRADIENT, stateful=True, updates=(0,), input_names=("ref", "value"),
            inplace=_update_inplace(np.add, "AssignAdd"))
register_op("AssignSub", _update_kernel(np.subtract, "AssignSub"), _update_infer,
            grad=_NO_GRADIENT, stateful=True, updates=(0,), input_names=("ref", "value"),
            inplace=_update_inplace(np.subtract, "AssignSub"))


def _graph_update(op_type: str, ref: Any, value: Any, name: str | None,
                  validate_shape: bool = True) -> Any:
    """A graph op updating the variable tensor ``ref``; checks the value's shape at run time
    (a variable keeps its shape unless an Assign has ``validate_shape=False``)."""
    attrs = {}
    if op_type == "Assign":
        attrs["validate_shape"] = validate_shape
        if validate_shape and ref.shape.rank is not None:
            attrs["var_shape"] = ref.shape.as_tuple()
    return apply_op(op_type, [ref, value], attrs, name=name, dtype=ref.dtype.base_dtype)


def assign(ref: TensorLike, value: TensorLike, validate_shape: bool = True,
           use_locking: bool | None = None, name: str | None = None) -> Any:
    """Writes ``value`` into the variable ``ref``; returns the new value.

    With ``validate_shape`` (the default) the value must have the variable's shape, also
    when it is only known at run time (InvalidArgumentError otherwise).

    Args:
        ref: A variable (or a TF1 variable reference).
        value: The new value.
        validate_shape: Whether the value must have the variable's shape.
        use_locking: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    if isinstance(ref, RefVariable):
        return _graph_update("Assign", ref._variable, value, name, validate_shape)
    if isinstance(ref, Variable):
        return ref.assign(value, use_locking=use_locking, name=name)
    return _graph_update("Assign", ref, value, name, validate_shape)


def assign_add(ref: TensorLike, value: TensorLike, use_locking: bool | None = None,
               name: str | None = None) -> Any:
    """Adds ``value`` to the variable ``ref``; returns the new value.

    Args:
        ref: A variable.
        value: The value to add.
        use_locking: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    return ref.assign_add(value, use_locking=use_locking, name=name)


def assign_sub(ref: TensorLike, value: TensorLike, use_locking: bool | None = None,
               name: str | None = None) -> Any:
    """Subtracts ``value`` from the variable ``ref``; returns the new value.

    Args:
        ref: A variable.
        value: The value to subtract.
        use_locking: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    return ref.assign_sub(value, use_locking=use_locking, name=name)


# --------------------------------------------------------------------------------------
# Variables


class Variable(ScatterMethods):
    """A mutable tensor-valued state, as ``tf.Variable``: a graph (TF1) or an eager (TF2) one.

    ``tf.Variable(...)`` makes an eager variable when executing eagerly or tracing a
    ``tf.function``, else a graph variable initialized by ``tf.global_variables_initializer``.

    Example:

        >>> v = tf.Variable([1.0, 2.0])
        >>> print(v.assign_add([1.0, 1.0]).numpy())
        [2. 3.]
        >>> with tf.GradientTape() as tape:
        ...     loss = tf.reduce_sum(v * v)
        >>> print(tape.gradient(loss, v).numpy())
        [4. 6.]

    Args:
        initial_value: A tensor, a value convertible to one, or a callable returning one.
        trainable: If true (the default when None), gradient tapes watch the variable and
            it joins the ``TRAINABLE_VARIABLES`` collection.
        validate_shape: If false, the variable's shape may change on assignment.
        caching_device: Accepted for TensorFlow's signature (no devices).
        name: The variable's name; ``Variable`` if None, made unique in a graph.
        variable_def: A ``VariableDef`` to rebuild a graph variable from (TF1).
        dtype: The dtype; the initial value is converted to it.
        import_scope: The name scope to prefix ``variable_def``'s names with (TF1).
        constraint: A function the Keras optimizers apply to the value after each update.
        synchronization: Accepted for TensorFlow's signature.
        aggregation: Accepted for TensorFlow's signature.
        shape: The variable's shape, if not the initial value's (``tf.TensorShape(None)``
            allows any).
        collections: The graph collections to add the variable to (TF1 graph variables).
        expected_shape: TensorFlow 1's check of the initial value's shape.
        use_resource: Accepted for TensorFlow 1's signature.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Variable:
            cls = EagerVariable if executing_eagerly() or _tracing_function() else RefVariable
        return object.__new__(cls)

    # Subclasses define: _as_tensor, value, dtype, shape, name, assign*, ...
    def get_shape(self) -> TensorShape:
        return self.shape

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: Any) -> Any:
        if state.tensor_equality and executing_eagerly():
            from flowgrad.ops.math_ops import equal
            return equal(self, other)
        return self is other

    def __ne__(self, other: Any) -> Any:
        if state.tensor_equality and executing_eagerly():
            from flowgrad.ops.math_ops import not_equal
            return not_equal(self, other)
        return self is not other

    @property
    def ndim(self) -> int | None:
        return self.shape.rank


def _model_graph() -> Any:
    """The default graph, or the graph enclosing the control-flow body being traced."""
    g = get_default_graph()
    while getattr(g, "outer_graph", None) is not None:
        g = g.outer_graph
    return g


def _tracing_function() -> bool:
    """Whether tf.function is tracing into the default graph (its variables are eager)."""
    return _model_graph().building_function


def _in_model_graph(init: Callable) -> Callable:
    """Makes a graph variable's constructor, called inside a control-flow body, build the
    variable in the graph enclosing the body (the body only reads its value)."""
    @functools.wraps(init)
    def wrapped(self: Any, *args: Any, **kwargs: Any) -> None:
        body = get_default_graph()
        if getattr(body, "outer_graph", None) is None:
            return init(self, *args, **kwargs)
        g = _model_graph()
        saved = g._name_stack
        g._name_stack = body._name_stack
        try:
            with g.as_default(), g.control_dependencies(None):
                return init(self, *args, **kwargs)
        finally:
            g._name_stack = saved
    return wrapped


def _initial_tensor(initial_value: Any, dtype: Any) -> Any:
    if callable(initial_value):
        with name_scope("Initializer"):
            initial_value = initial_value()
    return convert_to_tensor(initial_value, dtype, name="initial_value")


class RefVariable(Variable):
    """A graph-mode variable; its value lives in each Session."""

    @_in_model_graph
    def __init__(self, initial_value: Any = None, trainable: bool | None = None,
                 collections: list | None = None, validate_shape: bool = True,
                 caching_device: str | None = None, name: str | None = None,
                 variable_def: Any = None, dtype: DTypeLike | None = None,
                 expected_shape: Any = None, import_scope: Any = None,
                 constraint: Callable | None = None, use_resource: bool | None = None,
                 synchronization: Any = None, aggregation: Any = None,
                 shape: ShapeLike | TensorLike | None = None):
        if variable_def is not None:
            self._init_from_proto(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if trainable is None:
            trainable = True
        dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        g = get_default_graph()
        with name_scope(name, "Variable") as scope:
            init = _initial_tensor(initial_value, dtype)
            if dtype is not None and init.dtype.base_dtype is not dtype.base_dtype:
                from flowgrad.ops.math_ops import cast
                init = cast(init, dtype)
            vshape = as_shape(shape) if shape is not None else (
                init.shape if validate_shape else TensorShape(None))
            self._variable = apply_op("VariableV2", [], {"shape": vshape,
                                                         "dtype": init.dtype.base_dtype},
                                      name=scope)
            self._initial_value = init
            attrs = {"validate_shape": validate_shape}
            if validate_shape and not vshape.is_fully_defined():
                attrs["var_shape"] = vshape.as_tuple()
            self._initializer_op = apply_op("Assign", [self._variable, init], attrs,
                                            name="Assign").op
            self._snapshot = identity(self._variable, name="read")
        self._trainable = trainable
        self.constraint = constraint
        self._graph = g
        self._save_slice_info = None
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = list(collections) + [GraphKeys.TRAINABLE_VARIABLES]
        g.add_to_collections(collections, self)

    def _init_from_proto(self, variable_def: Any, import_scope: str | None) -> None:
        """The variable whose ops a VariableDef names in the default graph (TensorFlow's
        ``Variable(variable_def=...)``, as ``import_meta_graph`` recreates variables)."""
        g = get_default_graph()

        def scoped(name: str) -> str:
            return "%s/%s" % (import_scope, name) if import_scope else name

        self._variable = g.get_tensor_by_name(scoped(variable_def.variable_name))
        self._initializer_op = g.get_operation_by_name(scoped(variable_def.initializer_name))
        self._snapshot = g.get_tensor_by_name(scoped(variable_def.snapshot_name)) \
            if variable_def.snapshot_name else identity(self._variable, name="read")
        self._initial_value = g.get_tensor_by_name(scoped(variable_def.initial_value_name)) \
            if variable_def.initial_value_name else None
        self._trainable = bool(variable_def.trainable)
        self.constraint = None
        self._graph = g
        self._save_slice_info = None

    # -- identity ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._variable.name

    @property
    def op(self) -> Any:
        return self._variable.op

    @property
    def graph(self) -> Any:
        return self._graph

    @property
    def device(self) -> str:
        return self._variable.op.device

    @property
    def dtype(self) -> dtypes.DType:
        return self._variable.dtype

    @property
    def shape(self) -> TensorShape:
        return self._variable.shape

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def initializer(self) -> Any:
        return self._initializer_op

    @property
    def initial_value(self) -> Any:
        return self._initial_value

    def initialized_value(self) -> Any:
        return self._initial_value

    def set_shape(self, shape: ShapeLike | TensorLike) -> None:
        self._variable.set_shape(shape)
        self._snapshot.set_shape(shape)

    # -- reading ----------------------------------------------------------------------
    def value(self) -> Any:
        """The variable's value as a tensor (its 'read' snapshot)."""
        return self._snapshot

    def read_value(self) -> Any:
        return identity(self._variable, name="read")

    def _ref(self) -> Any:
        return self._variable

    def _scatter_op(self, op_type: str, indices: Any, updates: Any, name: str | None) -> Any:
        return graph_scatter(op_type, self._variable, indices, updates, name)

    def _as_tensor(self) -> Any:
        return self._snapshot

    def _as_graph_element(self) -> Any:
        return self._variable

    def eval(self, session: Any = None) -> Any:
        """The variable's current value in the default (or given) session."""
        return session_for(session, self._variable).run(self._variable)

    def load(self, value: TensorLike, session: Any = None) -> None:
        """Writes ``value`` into the variable in the default (or given) session."""
        session_for(session, self._variable)._load_variable(self, value)

    # -- writing ----------------------------------------------------------------------
    def assign(self, value: TensorLike, use_locking: bool | None = None, name: str | None = None,
               read_value: bool = True) -> Any:
        """An op writing ``value`` into the variable; evaluates to the new value."""
        return _graph_update("Assign", self._variable, value, name)

    def assign_add(self, delta: TensorLike, use_locking: bool | None = None,
                   name: str | None = None, read_value: bool = True) -> Any:
        return _graph_update("AssignAdd", self._variable, delta, name)

    def assign_sub(self, delta: TensorLike, use_locking: bool | None = None,
                   name: str | None = None, read_value: bool = True) -> Any:
        return _graph_update("AssignSub", self._variable, delta, name)

    def __repr__(self) -> str:
        return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)


#: Called with every eager variable created (``tf.distribute`` scopes track theirs).
VARIABLE_CREATED: list = []


class EagerVariable(Variable):
    """An eager-mode variable holding its value directly.

    Inside a ``tf.function`` trace its reads and writes become ops of the traced
    graph on a captured variable, which the compiled plan reads and writes back."""

    _ids = itertools.count()
    __array_priority__ = 100    # NumPy defers ``ndarray * variable`` to the variable

    def __init__(self, initial_value: Any = None, trainable: bool | None = None,
                 validate_shape: bool = True, caching_device: str | None = None,
                 name: str | None = None, variable_def: Any = None, dtype: DTypeLike | None = None,
                 import_scope: Any = None, constraint: Callable | None = None,
                 synchronization: Any = None, aggregation: Any = None,
                 shape: ShapeLike | TensorLike | None = None,
                 collections: Sequence[str] | None = None, use_resource: bool | None = None,
                 expected_shape: Any = None):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if not executing_eagerly():     # created while tf.function traces: lift it out
            lift = getattr(get_default_graph(), "lift_variable_creation", None)
            if lift is None:
                raise RuntimeError("An eager variable can only be created in eager mode or "
                                   "while tf.function traces, not in a TF1 graph.")
            lift(self, lambda value: self.__init__(value, trainable, name=name, dtype=dtype,
                                                   constraint=constraint, shape=shape,
                                                   synchronization=synchronization,
                                                   aggregation=aggregation),
                 initial_value)
            return
        if callable(initial_value):
            initial_value = initial_value()
        dt = dtypes.as_dtype(dtype) if dtype is not None else None
        if hasattr(initial_value, "_as_tensor"):
            initial_value = initial_value._as_tensor()
        if isinstance(initial_value, EagerTensor):
            value = initial_value._value
            if dt is not None and value.dtype != dt.np:
                value = to_numpy(value, dt)
        else:
            value = to_numpy(initial_value, dt)
        value = np.array(value, copy=True)
        self._value = eager_value(value)
        self._dtype = dtypes.from_numpy(value.dtype)
        self._shape = as_shape(shape) if shape is not None else TensorShape(np.shape(value))
        self._trainable = True if trainable is None else trainable
        self.constraint = constraint
        base = state.eager_name_scope + (name or "Variable")
        self._name = base + ":0"
        self._handle_name = base
        self._unique_id = next(EagerVariable._ids)
        for observer in VARIABLE_CREATED:     # tf.distribute strategies' scopes
            observer(self)
        self._synchronization = synchronization or VariableSynchronization.AUTO
        self._aggregation = aggregation or VariableAggregation.NONE

    @property
    def synchronization(self) -> VariableSynchronization:
        return self._synchronization

    @property
    def aggregation(self) -> VariableAggregation:
        return self._aggregation

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    @property
    def initializer(self) -> None:
        """None: an eager variable is initialized when created (TensorFlow's eager
        ``ResourceVariable.initializer`` is None too)."""
        return None

    @property
    def initial_value(self) -> Any:
        """Not kept eagerly: a RuntimeError, as TensorFlow's."""
        raise RuntimeError("This property is not supported when eager execution is enabled.")

    def _set_value(self, value: Any) -> None:
        if type(value) is np.ndarray and not value.ndim:
            value = eager_value(value)
        self._value = value

    # The value's array. A tf.function's plan may update it in place (TensorFlow's buffer
    # forwarding when the reference count is one) while ``_plan_owned`` is that array: an
    # array the plan allocated itself and nothing outside the plans has been given since.
    # Every access through ``_value`` (eager reads, ``np.asarray(v)``, checkpoints, other
    # modules) may hand the array out, so it ends that ownership; the plans read and commit
    # through ``_array``.
    _array: Any = None
    _plan_owned: Any = None

    @property
    def _value(self) -> Any:
        self._plan_owned = None
        return self._array

    @_value.setter
    def _value(self, value: Any) -> None:
        self._plan_owned = None
        self._array = value

    def _as_tensor(self) -> Any:
        if executing_eagerly():
            t = EagerTensor(self._value, self._dtype)
        else:
            t = _func_graph(self).read_variable(self)
        if state.tapes:
            hooks.variable_accessed(self, t)
        return t

    def _ref(self) -> Any:
        """The captured variable in the graph being traced (for symbolic gradients)."""
        return _func_graph(self).capture(self)

    def _scatter_op(self, op_type: str, indices: Any, updates: Any, name: str | None) -> Any:
        return eager_scatter(op_type, self, indices, updates, name)

    def value(self) -> Any:
        """The current value as a tensor."""
        return self._as_tensor()

    read_value = value

    def numpy(self) -> Any:
        """The current value as a NumPy array (a NumPy scalar for rank 0)."""
        if not executing_eagerly():
            raise NotImplementedError("numpy() is only available when eager execution is "
                                      "enabled.")
        v = self._value
        if type(v) is np.ndarray:
            return v.copy() if v.ndim else v[()]
        return v

    def _checked(self, value: Any, op_type: str) -> Any:
        if type(value) is EagerTensor and value._dtype is self._dtype:
            v = value._value        # the common case: an eager tensor of the right dtype
        else:
            v = convert_to_tensor(value, self._dtype)._value
        if op_type != "Assign":     # TensorFlow: an update needs the variable's exact shape
            if v.shape != self._value.shape:       # (eager values are NumPy arrays or scalars)
                raise argument_error(       # TensorFlow's kernel message
                    "Cannot update variable with shape %s using a Tensor with shape %s, "
                    "shapes must be equal. [Op:%sVariableOp]"
                    % (dims_text(np.shape(self._value)), dims_text(np.shape(v)), op_type))
        elif not self._shape.is_compatible_with(np.shape(v)):
            raise ValueError("Cannot assign value to variable ' %s': Shape mismatch.The variable "
                             "shape %s, and the assigned value shape %s are incompatible."
                             % (self._name, self._shape, TensorShape(np.shape(v))))
        return v

    def _update(self, op_type: str, value: Any, name: str | None, read_value: bool) -> Any:
        if executing_eagerly():
            v = self._checked(value, op_type)
            if op_type == "Assign":
                self._value = np.array(v, copy=True) if type(v) is np.ndarray else v
            else:
                with _EAGER_UPDATES:    # a read-modify-write, atomic among threads
                    self._set_value(np.add(self._value, v) if op_type == "AssignAdd"
                                    else np.subtract(self._value, v))
            return self if read_value else None
        return _func_graph(self).write_variable(self, op_type, value, name)

    def assign(self, value: TensorLike, use_locking: bool | None = None, name: str | None = None,
               read_value: bool = True) -> Any:
        """Writes ``value`` into the variable."""
        return self._update("Assign", value, name, read_value)

    def assign_add(self, delta: TensorLike, use_locking: bool | None = None,
                   name: str | None = None, read_value: bool = True) -> Any:
        """Adds ``delta`` to the variable."""
        return self._update("AssignAdd", delta, name, read_value)

    def assign_sub(self, delta: TensorLike, use_locking: bool | None = None,
                   name: str | None = None, read_value: bool = True) -> Any:
        """Subtracts ``delta`` from the variable."""
        return self._update("AssignSub", delta, name, read_value)

    def __hash__(self) -> int:
        if state.tensor_equality:
            raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. "
                            "(Variable: %r)" % (self,))
        return id(self)

    def ref(self) -> Any:
        """A hashable reference to this variable."""
        return _Ref(self)

    def _serialize_to_tensors(self) -> dict:
        """What a checkpoint saves of the variable: its value (TensorFlow's Trackable
        protocol, which objects wrapping a variable, as Keras 3's, delegate to)."""
        return {"VARIABLE_VALUE": self}

    def _restore_from_tensors(self, restored_tensors: dict) -> Any:
        """Assigns the value a checkpoint saved (TensorFlow's Trackable protocol)."""
        return self.assign(restored_tensors["VARIABLE_VALUE"])

    def __repr__(self) -> str:
        if not executing_eagerly():
            return "<tf.Variable '%s' shape=%s dtype=%s>" % (self._name, self._shape,
                                                            self._dtype.name)
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self._name, self._shape, self._dtype.name, numpy_text(self.numpy(), is_repr=True))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = np.asarray(self._value)
        return a if dtype is None else a.astype(dtype)

    def __float__(self) -> float:
        return float(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)


_EAGER_UPDATES = threading.Lock()


def _func_graph(var: EagerVariable) -> Any:
    """The tf.function graph being traced, where ``var`` is used."""
    g = get_default_graph()
    if not hasattr(g, "read_variable"):     # a tf.function graph, or a control-flow body
        raise TypeError("The eager variable %s can only be used in a graph while tf.function "
                        "traces it, not in a TF1 graph." % var.name)
    return g


def _convert_variable(v: Any, dtype: Any = None, name: Any = None, as_ref: bool = False) -> Any:
    t = v._ref() if as_ref and isinstance(v, RefVariable) else v._as_tensor()
    if dtype is not None and t.dtype.base_dtype is not dtypes.as_dtype(dtype).base_dtype:
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of "
                         "type '%s' (%s)" % (dtypes.as_dtype(dtype).name, t.dtype.name, v.name))
    return t


register_tensor_conversion_function(Variable, _convert_variable)
register_tensor_conversion_function(EagerVariable, _convert_variable)
register_tensor_conversion_function(RefVariable, _convert_variable)


# --------------------------------------------------------------------------------------
# Collections and initializers


def global_variables(scope: str | None = None) -> list:
    """Variables in the GLOBAL_VARIABLES collection.

    Args:
        scope: Only variables whose names match this regular expression; all when None.
    """
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


all_variables = global_variables


def trainable_variables(scope: str | None = None) -> list:
    """Variables in the TRAINABLE_VARIABLES collection.

    Args:
        scope: Only variables whose names match this regular expression; all when None.
    """
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope: str | None = None) -> list:
    """The variables of the ``LOCAL_VARIABLES`` collection, as TF1's ``tf.local_variables``.

    Args:
        scope: Only variables whose name starts with this scope; all when None.

    Returns:
        A list of variables.
    """
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def variables_initializer(var_list: list, name: str = "init") -> Any:
    """An op that runs the initializers of ``var_list``.

    Args:
        var_list: The variables to initialize.
        name: A name for the operation (optional).
    """
    return group(*[v.initializer for v in var_list], name=name)


def global_variables_initializer() -> Any:
    """An op that initializes every global variable."""
    return variables_initializer(global_variables(), name="init")


initialize_all_variables = global_variables_initializer


def local_variables_initializer() -> Any:
    return variables_initializer(local_variables(), name="init_1")


VariableLike.register(Variable)     # a TensorLike in the public signatures

__all__ = ["Variable", "RefVariable", "EagerVariable", "assign", "assign_add", "assign_sub",
           "global_variables", "all_variables", "trainable_variables", "local_variables",
           "variables_initializer", "global_variables_initializer", "initialize_all_variables",
           "local_variables_initializer"]
