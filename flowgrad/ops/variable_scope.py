"""Variable scopes and ``get_variable``: named variables shared through a per-graph store."""
from __future__ import annotations

import contextlib
import enum
import functools
import inspect
import traceback
import weakref
from collections.abc import Callable
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import Graph, GraphKeys, add_to_collection, get_default_graph
from flowgrad.framework.tensor import Tensor, TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import as_shape
from flowgrad.ops import init_ops, slicing_ops
from flowgrad.ops.partitioned_variables import (PartitionedVariable, PartitionInfo,
                                                SaveSliceInfo, call_partitioner, iter_slices)
from flowgrad.ops.state_ops import Variable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


class _ReuseMode(enum.Enum):
    """Reuse modes beyond True/None."""

    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


def no_regularizer(_: Any) -> None:
    """A regularizer that regularizes nothing (overrides a scope's regularizer).

    Args:
        _: The variable (ignored).

    Returns:
        None: no regularization loss.
    """
    return None


def _name_scope(name: str | None) -> Any:
    """An absolute name scope in graph mode ('' is the root); nothing in eager mode."""
    if executing_eagerly():
        return contextlib.nullcontext("" if not name else name.rstrip("/") + "/")
    return get_default_graph().name_scope(name)


class VariableScope:
    """The defaults ``get_variable`` uses inside a ``variable_scope``: name prefix, reuse,
    initializer, regularizer, dtype, custom getter.

    Args:
        reuse: Whether ``get_variable`` reuses existing variables.
        name: The scope's name.
        initializer: The default initializer.
        regularizer: The default regularizer.
        caching_device: Accepted for TensorFlow's signature (no devices).
        partitioner: A partitioner (``fixed_size_partitioner`` ...): the variable is made
            of parts, a ``PartitionedVariable``.
        custom_getter: The getter wrapping ``get_variable``.
        name_scope: The name scope the scope opened.
        dtype: The default dtype.
        use_resource: Accepted for TensorFlow's signature.
        constraint: The default constraint.
    """

    def __init__(self, reuse: Any, name: str = "", initializer: Callable | TensorLike | None = None,
                 regularizer: Callable | None = None, caching_device: str | None = None,
                 partitioner: Callable | None = None, custom_getter: Callable | None = None,
                 name_scope: str = "", dtype: DTypeLike = dtypes.float32,
                 use_resource: bool | None = None, constraint: Callable | None = None):
        self._name = name
        self._initializer = initializer
        self._regularizer = regularizer
        self._reuse = reuse
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint

    name = property(lambda self: self._name)
    original_name_scope = property(lambda self: self._name_scope)
    reuse = property(lambda self: self._reuse)
    initializer = property(lambda self: self._initializer)
    dtype = property(lambda self: self._dtype)
    use_resource = property(lambda self: self._use_resource)
    regularizer = property(lambda self: self._regularizer)
    caching_device = property(lambda self: self._caching_device)
    partitioner = property(lambda self: self._partitioner)
    custom_getter = property(lambda self: self._custom_getter)
    constraint = property(lambda self: self._constraint)

    def reuse_variables(self) -> None:
        """Makes ``get_variable`` in this scope return existing variables."""
        self._reuse = True

    def set_initializer(self, initializer: Callable | TensorLike | None) -> None:
        self._initializer = initializer

    def set_dtype(self, dtype: DTypeLike) -> None:
        self._dtype = dtype

    def set_use_resource(self, use_resource: bool) -> None:
        self._use_resource = use_resource

    def set_regularizer(self, regularizer: Callable | None) -> None:
        self._regularizer = regularizer

    def set_caching_device(self, caching_device: str) -> None:
        self._caching_device = caching_device

    def set_partitioner(self, partitioner: Callable | None) -> None:
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter: Callable | None) -> None:
        self._custom_getter = custom_getter

    def get_collection(self, name: str) -> list:
        """The items of collection ``name`` whose names lie in this scope."""
        return get_default_graph().get_collection(name, self._name + "/" if self._name else "")

    def trainable_variables(self) -> list:
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self) -> list:
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self) -> list:
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    def _get_variable(self, name: str, shape: Any = None, dtype: Any = None,
                      initializer: Any = None, regularizer: Any = None, reuse: Any = None,
                      trainable: bool | None = None, collections: list | None = None,
                      partitioner: Any = None, validate_shape: bool = True,
                      custom_getter: Any = None, constraint: Any = None) -> Any:
        """``get_variable`` with this scope's defaults filled in."""
        if regularizer is None:
            regularizer = self._regularizer
        if partitioner is None:
            partitioner = self._partitioner
        if custom_getter is None:
            custom_getter = self._custom_getter
        if executing_eagerly():
            reuse = False
        elif reuse is None:
            reuse = self._reuse
        full_name = self._name + "/" + name if self._name else name
        # variable names depend on the variable scope only, not on the name scope
        with _name_scope(""):
            if dtype is not None and initializer is not None and not callable(initializer):
                init_dtype = convert_to_tensor(initializer).dtype.base_dtype
                if init_dtype != dtype:
                    raise ValueError("Initializer type '%s' and explicit dtype '%s' don't "
                                     "match." % (init_dtype, dtypes.as_dtype(dtype)))
            if initializer is None:
                initializer = self._initializer
            if constraint is None:
                constraint = self._constraint
            if dtype is None:
                dtype = self._dtype
            return _store_get_variable(
                full_name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable,
                collections=collections, partitioner=partitioner,
                validate_shape=validate_shape, custom_getter=custom_getter,
                constraint=constraint)

    def __repr__(self) -> str:
        return "<VariableScope %r reuse=%r>" % (self._name, self._reuse)


# --------------------------------------------------------------------------------------
# The variable store (``Graph._var_store``: full name -> variable)


def _store_get_variable(name: str, custom_getter: Any = None, **kwargs: Any) -> Any:
    if custom_getter is None:
        return _true_getter(name, **kwargs)
    if not callable(custom_getter):
        raise ValueError("Passed a custom_getter which is not callable: %s" % custom_getter)
    kwargs.update(getter=_true_getter, name=name, caching_device=None, use_resource=None,
                  synchronization=None, aggregation=None)
    params = inspect.signature(custom_getter).parameters
    if "constraint" not in params and not any(
            p.kind is p.VAR_KEYWORD for p in params.values()):
        del kwargs["constraint"]
    return custom_getter(**kwargs)


def _true_getter(name: str, shape: Any = None, dtype: Any = dtypes.float32,
                 initializer: Any = None, regularizer: Any = None, reuse: Any = None,
                 trainable: bool | None = None, collections: list | None = None,
                 partitioner: Any = None, validate_shape: bool = True,
                 constraint: Any = None, **ignored: Any) -> Any:
    """Returns the stored variable ``name`` or creates it (honouring ``reuse``).

    ``ignored``: the getter arguments without meaning here (caching_device,
    use_resource, synchronization, aggregation), accepted as TF's getter does."""
    if partitioner is not None:
        return _partitioned_getter(name, partitioner, shape=shape, dtype=dtype,
                                   initializer=initializer, regularizer=regularizer, reuse=reuse,
                                   trainable=trainable, collections=collections,
                                   validate_shape=validate_shape, constraint=constraint)
    from_value = initializer is not None and not callable(initializer)
    if shape is not None and from_value:
        raise ValueError("If initializer is a constant, do not specify shape.")
    dtype = dtypes.as_dtype(dtype).base_dtype
    shape = as_shape(shape)
    store = {} if executing_eagerly() else get_default_graph()._var_store
    if name in store:
        found = store[name]
        if reuse is False:
            raise ValueError("Variable %s already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope? Originally "
                             "defined at:\n\n%s" % (name, _defined_at(found)))
        if not shape.is_compatible_with(found.get_shape()):
            raise ValueError("Trying to share variable %s, but specified shape %s and found "
                             "shape %s." % (name, shape, found.get_shape()))
        if not dtype.is_compatible_with(found.dtype):
            raise ValueError("Trying to share variable %s, but specified dtype %s and found "
                             "dtype %s." % (name, dtype.name, found.dtype.name))
        return found
    if reuse is True:
        raise ValueError("Variable %s does not exist, or was not created with "
                         "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                         "VarScope?" % name)
    if initializer is None:
        initializer = _default_initializer(name, dtype)
    init_val, variable_dtype = _initial_value(initializer, from_value, shape, dtype)
    v = Variable(initial_value=init_val, name=name, trainable=trainable,
                 collections=collections, dtype=variable_dtype, validate_shape=validate_shape,
                 constraint=constraint)
    store[name] = v     # (eager variables are never shared, as in TF2)
    if regularizer:
        with _name_scope(name + "/Regularizer/"):
            loss = regularizer(v)
        if loss is not None:
            add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return v


_partitioned_stores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _partitioned_getter(name: str, partitioner: Callable, shape: Any = None,
                        dtype: Any = dtypes.float32, initializer: Any = None,
                        reuse: Any = None, **kwargs: Any) -> PartitionedVariable:
    """The stored PartitionedVariable ``name``, or a new one: one variable per part
    (``name/part_i``), as TensorFlow's ``_get_partitioned_variable``."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    shape = as_shape(shape)
    if isinstance(initializer, TensorBase) or (initializer is not None and
                                            not callable(initializer)):
        initializer = convert_to_tensor(initializer)
        shape = shape.merge_with(initializer.shape)
        dtype = initializer.dtype.base_dtype
    g = get_default_graph()
    plain = {} if executing_eagerly() else g._var_store
    store = {} if executing_eagerly() else _partitioned_stores.setdefault(g, {})
    if name in plain:
        raise ValueError("A partitioner was provided, but an unpartitioned version of the "
                         "variable was found: %s.  Perhaps a variable of the same name was "
                         "already created without partitioning?" % name)
    partitions = call_partitioner(partitioner, shape, dtype)
    if name in store:
        found = store[name]
        if reuse is False:
            raise ValueError("Partitioned variable with name %s already exists. Did you mean "
                             "to set reuse=True or reuse=tf.AUTO_REUSE in VarScope?" % name)
        if not shape.is_compatible_with(found.get_shape()):
            raise ValueError("Trying to reuse partitioned variable %s, but specified shape %s "
                             "and found shape %s." % (name, shape, found.get_shape()))
        if not dtype.is_compatible_with(found.dtype):
            raise ValueError("Trying to reuse partitioned variable %s, but specified dtype %s "
                             "and found dtype %s." % (name, dtype.name, found.dtype.name))
        if found._get_partitions() != partitions:
            raise ValueError("Trying to reuse partitioned variable %s, but specified "
                             "partitions %s and found partitions %s."
                             % (name, partitions, found._get_partitions()))
        return found
    if reuse is True:
        raise ValueError("PartitionedVariable %s does not exist, or was not created with "
                         "tf.get_variable(). Did you mean to set reuse=False or "
                         "reuse=tf.AUTO_REUSE in VarScope?" % name)
    if initializer is None:
        initializer = _default_initializer(name, dtype)
    parts = []
    for i, (offset, part_shape) in enumerate(iter_slices(shape.as_list(), partitions)):
        info = PartitionInfo(shape.as_list(), offset)
        part_name = "%s/part_%d" % (name, i)
        if isinstance(initializer, TensorBase):
            with _name_scope(part_name + "/PartitionedInitializer/"):
                init: Any = slicing_ops.slice(initializer, offset, part_shape)
            part_shape_arg = None
        else:
            init = _with_partition_info(initializer, info)
            part_shape_arg = part_shape
        v = _true_getter(part_name, shape=part_shape_arg, dtype=dtype, initializer=init,
                         reuse=reuse, **kwargs)
        v._save_slice_info = SaveSliceInfo(name, shape.as_list(), offset, part_shape)
        parts.append(v)
    pv = PartitionedVariable(name, shape, dtype, parts, partitions)
    store[name] = pv
    return pv


def _with_partition_info(initializer: Any, info: PartitionInfo) -> Any:
    """``initializer`` told which part it initializes (when it takes ``partition_info``)."""
    if inspect.isclass(initializer):
        initializer = initializer()
    if "partition_info" not in _parameters(initializer):
        return initializer

    def init(shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        return initializer(shape, dtype=dtype, partition_info=info)
    return init


def _default_initializer(name: str, dtype: dtypes.DType) -> Any:
    if dtype.is_floating:
        return init_ops.GlorotUniform()
    if dtype.is_integer or dtype.is_bool or dtype is dtypes.string:
        return init_ops.Zeros()
    raise ValueError("An initializer for variable %s of %s is required" % (name, dtype))


def _initial_value(initializer: Any, from_value: bool, shape: Any, dtype: Any) -> tuple:
    """(initial value or thunk, dtype to create the variable with)."""
    if from_value:
        return initializer, None
    if inspect.isclass(initializer):
        initializer = initializer()
    if shape.is_fully_defined():
        kwargs = {"dtype": dtype}
        if "partition_info" in _parameters(initializer):
            kwargs["partition_info"] = None
        return functools.partial(initializer, shape.as_list(), **kwargs), dtype
    if _needs_no_arguments(initializer):
        return initializer, None
    raise ValueError("The initializer passed is not valid. It should be a callable with no "
                     "arguments and the shape should not be provided or an instance of "
                     "`tf.keras.initializers.*' and `shape` should be fully defined.")


def _parameters(fn: Callable) -> Any:
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


def _needs_no_arguments(fn: Callable) -> bool:
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in _parameters(fn).values())


def _defined_at(var: Any) -> str:
    tb = getattr(var.op, "traceback", None)
    return "".join(traceback.format_list([traceback.FrameSummary(*tb)])) if tb else ""


# --------------------------------------------------------------------------------------
# Scope stack (``Graph._var_scope_stack``) and default-name counts


_scope_counts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> {name: n}


def _scope_stack(g: Graph) -> list:
    if not g._var_scope_stack:
        g._var_scope_stack.append(VariableScope(False))
    return g._var_scope_stack


def _counts(g: Graph) -> dict:
    return _scope_counts.setdefault(g, {})


def get_variable_scope() -> VariableScope:
    """The current variable scope."""
    return _scope_stack(get_default_graph())[-1]


def _unique_scope_name(prefix: str) -> str:
    g = get_default_graph()
    current = get_variable_scope().name
    name = current + "/" + prefix if current else prefix
    counts = _counts(g)
    if not counts.get(name):
        return prefix
    i = 1
    while counts.get("%s_%d" % (name, i)):
        i += 1
    return "%s_%d" % (prefix, i)


@contextlib.contextmanager
def _pure_variable_scope(name_or_scope: Any, old_name_scope: str | None, reuse: Any,
                         overrides: dict, custom_getter: Any, constraint: Any) -> Any:
    """Pushes a VariableScope (no name scope) for ``name_or_scope``; pops it on exit."""
    g = get_default_graph()
    stack = _scope_stack(g)
    old = stack[-1]
    counts = _counts(g)
    reentered = isinstance(name_or_scope, VariableScope)
    if reentered:
        base = name_or_scope
        new_name = base.name
        scope = VariableScope(base.reuse if not reuse else reuse, name=new_name,
                              initializer=base.initializer, regularizer=base.regularizer,
                              caching_device=base.caching_device, partitioner=base.partitioner,
                              dtype=base.dtype, custom_getter=base.custom_getter,
                              name_scope=base.original_name_scope,
                              use_resource=base.use_resource, constraint=constraint)
    else:
        base = old
        new_name = old.name + "/" + name_or_scope if old.name else name_or_scope
        scope = VariableScope(reuse or old.reuse, name=new_name, initializer=old.initializer,
                              regularizer=old.regularizer, caching_device=old.caching_device,
                              partitioner=old.partitioner, dtype=old.dtype,
                              use_resource=old.use_resource, custom_getter=old.custom_getter,
                              name_scope=name_or_scope if old_name_scope is None
                              else old_name_scope, constraint=constraint)
    for attr, value in overrides.items():
        if value is not None:
            setattr(scope, "_" + attr, value)
    if custom_getter is not None:
        scope._custom_getter = _wrap_custom_getter(custom_getter, base.custom_getter)
    counts[new_name] = counts.get(new_name, 0) + 1
    saved_counts = dict(counts) if reentered else None
    stack.append(scope)
    try:
        yield scope
    finally:
        if stack[-1] is not scope:
            raise RuntimeError("Improper nesting of variable_scope.")
        stack.pop()
        if reentered:       # leaving a re-entered scope restores the counts
            _scope_counts[g] = saved_counts
        else:               # leaving a new scope forgets its sub-scopes' counts
            counts = _counts(g)
            for k in counts:
                if k.startswith(new_name + "/"):
                    counts[k] = 0


def _wrap_custom_getter(custom_getter: Callable, old_getter: Callable | None) -> Callable:
    """A custom getter calling ``old_getter`` as its getter (custom getters nest)."""
    if old_getter is None:
        return custom_getter

    def wrapped(getter: Callable, *args: Any, **kwargs: Any) -> Any:
        return custom_getter(functools.partial(old_getter, getter), *args, **kwargs)
    return wrapped


def _graph_of(values: Any) -> Graph:
    for v in values or ():
        if isinstance(v, Tensor):
            return v.graph
    return get_default_graph()


class variable_scope:  # noqa: N801 - TensorFlow's name
    """Context manager opening a variable scope (and a name scope, as TensorFlow does).

    ``name_or_scope`` is a name (nested in the current variable scope) or a
    VariableScope to re-enter; with None, ``default_name`` is made unique.
    ``reuse``: None inherits, True reuses existing variables only, AUTO_REUSE
    creates or reuses. Yields the VariableScope.

    Args:
        name_or_scope: The scope's name, or a ``VariableScope`` to re-enter.
        default_name: The name when ``name_or_scope`` is None (made unique).
        values: Accepted for TensorFlow's signature.
        initializer: The default initializer of the variables made inside.
        regularizer: The default regularizer of the variables made inside.
        caching_device: Accepted for TensorFlow's signature (no devices).
        partitioner: A partitioner (``fixed_size_partitioner`` ...): the variable is made
            of parts, a ``PartitionedVariable``.
        custom_getter: A getter wrapping every ``get_variable`` inside.
        reuse: True, ``tf.compat.v1.AUTO_REUSE`` or None (inherit).
        dtype: The default dtype of the variables made inside.
        use_resource: Accepted for TensorFlow's signature.
        constraint: The default constraint of the variables made inside.
        auxiliary_name_scope: Whether to open a name scope too.
    """

    def __init__(self, name_or_scope: Any, default_name: str | None = None,
                 values: TensorLike | None = None, initializer: Callable | TensorLike | None = None,
                 regularizer: Callable | None = None, caching_device: str | None = None,
                 partitioner: Callable | None = None, custom_getter: Callable | None = None,
                 reuse: Any = None, dtype: DTypeLike | None = None,
                 use_resource: bool | None = None, constraint: Callable | None = None,
                 auxiliary_name_scope: bool = True):
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if name_or_scope is not None and not isinstance(name_or_scope, (VariableScope, str)):
            raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
        if reuse is False:      # TF: False means "inherit", like None
            reuse = None
        if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError("The auxiliary_name_scope must be `True` or `False`, while get %r"
                            % (auxiliary_name_scope,))
        if name_or_scope is None and reuse:
            raise ValueError("reuse=True cannot be used without a name_or_scope")
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._values = values
        self._reuse = reuse
        self._custom_getter = custom_getter
        self._constraint = constraint
        self._overrides = {"initializer": initializer, "regularizer": regularizer,
                           "caching_device": caching_device, "partitioner": partitioner,
                           "dtype": dtype, "use_resource": use_resource}
        self._auxiliary_name_scope = auxiliary_name_scope
        self._exit_stacks: list = []

    def __enter__(self) -> VariableScope:
        with contextlib.ExitStack() as stack:
            scope = self._enter(stack)
            self._exit_stacks.append(stack.pop_all())
        return scope

    def __exit__(self, *exc: Any) -> Any:
        return self._exit_stacks.pop().__exit__(*exc)

    def _enter(self, stack: contextlib.ExitStack) -> VariableScope:
        if not executing_eagerly():
            stack.enter_context(_graph_of(self._values).as_default())
        if self._auxiliary_name_scope:
            name_scope = None
        else:               # stay in the current name scope
            current = "" if executing_eagerly() else get_default_graph().get_name_scope()
            name_scope = current + "/" if current else ""
        nos = self._name_or_scope
        if nos is None:
            scope_name = stack.enter_context(_relative_name_scope(
                self._default_name if name_scope is None else name_scope))
            nos, old_name_scope = _unique_scope_name(self._default_name), scope_name
        else:
            relative = nos if isinstance(nos, str) else nos.name.split("/")[-1]
            old_name_scope = None
            if relative or name_scope is not None:
                scope_name = stack.enter_context(_relative_name_scope(
                    relative if name_scope is None else name_scope))
                old_name_scope = scope_name if isinstance(nos, str) else nos.original_name_scope
        return stack.enter_context(_pure_variable_scope(
            nos, old_name_scope, self._reuse, self._overrides, self._custom_getter,
            self._constraint))


def _relative_name_scope(name: str) -> Any:
    """A name scope opened like ``tf.name_scope(name)`` (relative, made unique)."""
    if executing_eagerly():
        return contextlib.nullcontext(name if not name or name.endswith("/") else name + "/")
    return get_default_graph().name_scope(name)


def get_variable(name: str, shape: ShapeLike | TensorLike | None = None,
                 dtype: DTypeLike | None = None, initializer: Callable | TensorLike | None = None,
                 regularizer: Callable | None = None, trainable: bool | None = None,
                 collections: list | None = None, caching_device: str | None = None,
                 partitioner: Callable | None = None, validate_shape: bool = True,
                 use_resource: bool | None = None, custom_getter: Callable | None = None,
                 constraint: Callable | None = None, synchronization: Any = None,
                 aggregation: Any = None) -> Any:
    """The variable ``<variable scope>/name``: created, or reused as the scope's reuse allows.

    ``initializer`` is an initializer (object, class or callable of shape and
    dtype), or a value/Tensor (then ``shape`` must be None and the variable takes
    the value's dtype). Default: glorot_uniform for floats, zeros otherwise.
    caching_device, use_resource, synchronization and aggregation are accepted and
    ignored; a partitioner raises NotImplementedError.

    Args:
        name: The variable's name within the current variable scope.
        shape: The variable's shape; from the initializer's value when None.
        dtype: The variable's dtype; float32 (or the scope's) when None.
        initializer: The initializer of the variable; the scope's, else Glorot uniform (zeros for
            integers) when None.
        regularizer: A function of the variable whose result joins ``REGULARIZATION_LOSSES``.
        trainable: Whether it joins ``TRAINABLE_VARIABLES``; True when None.
        collections: The graph collections to add the variable to.
        caching_device: Accepted for TensorFlow's signature (no devices).
        partitioner: A partitioner (``fixed_size_partitioner`` ...): the variable is made
            of parts, a ``PartitionedVariable``.
        validate_shape: Whether the initial value must have ``shape``.
        use_resource: Accepted for TensorFlow's signature.
        custom_getter: A function (getter, name, *args, **kwargs) wrapping the variable's creation.
        constraint: A function the optimizers apply to the variable after each update.
        synchronization: Accepted for TensorFlow's signature.
        aggregation: Accepted for TensorFlow's signature.
    """
    return get_variable_scope()._get_variable(
        name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
        trainable=trainable, collections=collections, partitioner=partitioner,
        validate_shape=validate_shape, custom_getter=custom_getter, constraint=constraint)


def get_local_variable(name: str, shape: ShapeLike | TensorLike | None = None,
                       dtype: DTypeLike | None = None,
                       initializer: Callable | TensorLike | None = None,
                       regularizer: Callable | None = None, trainable: bool = False,
                       collections: list | None = None, caching_device: str | None = None,
                       partitioner: Callable | None = None, validate_shape: bool = True,
                       use_resource: bool | None = None, custom_getter: Callable | None = None,
                       constraint: Callable | None = None, synchronization: Any = None,
                       aggregation: Any = None) -> Any:
    """``get_variable`` for a non-trainable variable in the LOCAL_VARIABLES collection.

    Args:
        name: The variable's name within the current variable scope.
        shape: The variable's shape; from the initializer's value when None.
        dtype: The variable's dtype; float32 (or the scope's) when None.
        initializer: The initializer of the variable; the scope's, else Glorot uniform (zeros for
            integers) when None.
        regularizer: A function of the variable whose result joins ``REGULARIZATION_LOSSES``.
        trainable: Whether it joins ``TRAINABLE_VARIABLES``.
        collections: Further collections (it always joins ``LOCAL_VARIABLES``).
        caching_device: Accepted for TensorFlow's signature (no devices).
        partitioner: A partitioner (``fixed_size_partitioner`` ...): the variable is made
            of parts, a ``PartitionedVariable``.
        validate_shape: Whether the initial value must have ``shape``.
        use_resource: Accepted for TensorFlow's signature.
        custom_getter: A function (getter, name, *args, **kwargs) wrapping the variable's creation.
        constraint: A function the optimizers apply to the variable after each update.
        synchronization: Accepted for TensorFlow's signature.
        aggregation: Accepted for TensorFlow's signature.
    """
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, trainable=False, collections=collections,
                        partitioner=partitioner, validate_shape=validate_shape,
                        custom_getter=custom_getter, constraint=constraint)


__all__ = ["variable_scope", "get_variable", "get_local_variable", "get_variable_scope",
           "VariableScope", "AUTO_REUSE", "no_regularizer"]
