"""TensorFlow 1.15's ``tf.contrib.framework`` variable helpers (``slim.variable``,
``slim.model_variable``, ``get_variables_to_restore``, ...) on flowgrad's ``get_variable`` and
collections."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from flowgrad.compat.contrib.arg_scope import add_arg_scope
from flowgrad.framework import dtypes
from flowgrad.framework.graph import GraphKeys, device as _device, get_collection
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.variable_scope import VariableScope, get_variable, get_variable_scope
from flowgrad.train.checkpoint_utils import NewCheckpointReader
from flowgrad.train.saver import Saver


@add_arg_scope
def variable(name: str, shape: ShapeLike = None, dtype: DTypeLike | None = None,
             initializer: Callable | TensorLike | None = None,
             regularizer: Callable | None = None, trainable: bool = True,
             collections: Sequence[str] | None = None, caching_device: str | None = None,
             device: str | None = None, partitioner: Callable | None = None,
             custom_getter: Callable | None = None, use_resource: bool | None = None,
             synchronization: object = None, aggregation: object = None) -> Variable:
    """Gets or creates a variable with ``get_variable``, in ``collections`` (default
    ``GLOBAL_VARIABLES``) and on ``device``.

    Args:
      name: The variable's name in the current variable scope.
      shape: Its shape.
      dtype: Its dtype.
      initializer: Its initializer.
      regularizer: A function of the variable whose result joins ``REGULARIZATION_LOSSES``.
      trainable: Whether it joins ``TRAINABLE_VARIABLES``.
      collections: Its collections (``[GLOBAL_VARIABLES]`` when None).
      caching_device: Accepted for TensorFlow's signature.
      device: The device to place it on.
      partitioner: A partitioner (the variable is then a ``PartitionedVariable``).
      custom_getter: A getter ``(getter, name, ...)`` to call instead of ``get_variable``.
      use_resource: Accepted for TensorFlow's signature.
      synchronization: Accepted for TensorFlow's signature.
      aggregation: Accepted for TensorFlow's signature.

    Returns:
      The variable.
    """
    collections = list(collections if collections is not None else [GraphKeys.GLOBAL_VARIABLES])
    collections = list(dict.fromkeys(collections))
    getter = get_variable
    if custom_getter is not None:
        getter = functools.partial(custom_getter, reuse=get_variable_scope().reuse)
    with _device(device or ""):
        return getter(name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=trainable, collections=collections,
                      partitioner=partitioner)


@add_arg_scope
def model_variable(name: str, shape: ShapeLike = None, dtype: DTypeLike = dtypes.float32,
                   initializer: Callable | TensorLike | None = None,
                   regularizer: Callable | None = None, trainable: bool = True,
                   collections: Sequence[str] | None = None, caching_device: str | None = None,
                   device: str | None = None, partitioner: Callable | None = None,
                   custom_getter: Callable | None = None, use_resource: bool | None = None,
                   synchronization: object = None, aggregation: object = None) -> Variable:
    """A ``variable`` that also joins ``MODEL_VARIABLES`` (what ``get_model_variables`` and
    slim's checkpoint helpers list).

    Args:
      name: The variable's name in the current variable scope.
      shape: Its shape.
      dtype: Its dtype.
      initializer: Its initializer.
      regularizer: A function of the variable whose result joins ``REGULARIZATION_LOSSES``.
      trainable: Whether it joins ``TRAINABLE_VARIABLES``.
      collections: Further collections.
      caching_device: Accepted for TensorFlow's signature.
      device: The device to place it on.
      partitioner: A partitioner (the variable is then a ``PartitionedVariable``).
      custom_getter: A getter ``(getter, name, ...)`` to call instead of ``get_variable``.
      use_resource: Accepted for TensorFlow's signature.
      synchronization: Accepted for TensorFlow's signature.
      aggregation: Accepted for TensorFlow's signature.

    Returns:
      The variable.
    """
    collections = list(collections or [])
    collections += [GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype, initializer=initializer,
                    regularizer=regularizer, trainable=trainable, collections=collections,
                    caching_device=caching_device, device=device, partitioner=partitioner,
                    custom_getter=custom_getter, use_resource=use_resource)


def local_variable(initial_value: TensorLike, validate_shape: bool = True,
                   name: str | None = None, use_resource: bool | None = None) -> Variable:
    """A non-trainable variable in ``LOCAL_VARIABLES``.

    Args:
      initial_value: Its initial value.
      validate_shape: Whether its shape must stay the initial value's.
      name: Its name.
      use_resource: Accepted for TensorFlow's signature.

    Returns:
      The variable.
    """
    return Variable(initial_value, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                    validate_shape=validate_shape, name=name)


def global_variable(initial_value: TensorLike, validate_shape: bool = True,
                    name: str | None = None, use_resource: bool | None = None) -> Variable:
    """A non-trainable variable in ``GLOBAL_VARIABLES``.

    Args:
      initial_value: Its initial value.
      validate_shape: Whether its shape must stay the initial value's.
      name: Its name.
      use_resource: Accepted for TensorFlow's signature.

    Returns:
      The variable.
    """
    return Variable(initial_value, trainable=False, collections=[GraphKeys.GLOBAL_VARIABLES],
                    validate_shape=validate_shape, name=name)


def get_variables(scope: str | VariableScope | None = None, suffix: str | None = None,
                  collection: str = GraphKeys.GLOBAL_VARIABLES) -> list:
    """The variables of ``collection`` whose names start with ``scope`` (a regular expression)
    and, with ``suffix``, end with it.

    Args:
      scope: A scope name or ``VariableScope``; all when None.
      suffix: The end of the names (before ``:0``).
      collection: The collection to read.

    Returns:
      The variables, in collection order.
    """
    if isinstance(scope, VariableScope):
        scope = scope.name
    if suffix is not None:
        if ":" not in suffix:
            suffix += ":"
        scope = (scope or "") + ".*" + suffix
    return get_collection(collection, scope)


def get_model_variables(scope: str | VariableScope | None = None,
                        suffix: str | None = None) -> list:
    """``get_variables`` of ``MODEL_VARIABLES``.

    Args:
      scope: A scope name or ``VariableScope``; all when None.
      suffix: The end of the names.

    Returns:
      The model variables.
    """
    return get_variables(scope, suffix, GraphKeys.MODEL_VARIABLES)


def get_local_variables(scope: str | VariableScope | None = None,
                        suffix: str | None = None) -> list:
    """``get_variables`` of ``LOCAL_VARIABLES``.

    Args:
      scope: A scope name or ``VariableScope``; all when None.
      suffix: The end of the names.

    Returns:
      The local variables.
    """
    return get_variables(scope, suffix, GraphKeys.LOCAL_VARIABLES)


def get_trainable_variables(scope: str | VariableScope | None = None,
                            suffix: str | None = None) -> list:
    """``get_variables`` of ``TRAINABLE_VARIABLES``.

    Args:
      scope: A scope name or ``VariableScope``; all when None.
      suffix: The end of the names.

    Returns:
      The trainable variables.
    """
    return get_variables(scope, suffix, GraphKeys.TRAINABLE_VARIABLES)


def get_variables_to_restore(include: Sequence[str] | None = None,
                             exclude: Sequence[str] | None = None) -> list:
    """The global variables under the ``include`` scopes and not under the ``exclude`` ones
    (what a ``Saver`` restoring part of a checkpoint takes).

    Args:
      include: Scope names to take variables from; every global variable when None.
      exclude: Scope names whose variables are left out.

    Returns:
      The variables.

    Raises:
      TypeError: ``include`` or ``exclude`` is given but is not a list or a tuple.
    """
    if include is None:
        chosen = get_variables()
    else:
        if not isinstance(include, (list, tuple)):
            raise TypeError("include is provided but is not a list or a tuple.")
        chosen = [v for scope in include for v in get_variables(scope)]
    left_out: list = []
    if exclude is not None:
        if not isinstance(exclude, (list, tuple)):
            raise TypeError("exclude is provided but is not a list or a tuple.")
        left_out = [v for scope in exclude for v in get_variables(scope)]
    return [v for v in chosen if not any(v is x for x in left_out)]


def get_variables_by_suffix(suffix: str, scope: str | VariableScope | None = None) -> list:
    """The global variables whose names end with ``suffix``.

    Args:
      suffix: The end of the names.
      scope: A scope to look in; all when None.

    Returns:
      The variables.
    """
    return get_variables(scope=scope, suffix=suffix)


def get_variables_by_name(given_name: str, scope: str | VariableScope | None = None) -> list:
    """The global variables whose last name component is ``given_name``.

    Args:
      given_name: The name (``weights``).
      scope: A scope to look in; all when None.

    Returns:
      The variables.
    """
    suffix = "/" + given_name + ":|^" + given_name + ":"
    return get_variables(scope=scope, suffix=suffix)


def get_unique_variable(var_op_name: str) -> Variable:
    """The one global variable named ``var_op_name``.

    Args:
      var_op_name: The variable's full name, without ``:0``.

    Returns:
      The variable.

    Raises:
      ValueError: no variable, or no single one, has that name.
    """
    candidates = get_variables(scope=var_op_name)
    if not candidates:
        raise ValueError("Couldn't find variable %s" % var_op_name)
    for candidate in candidates:
        if candidate.op.name == var_op_name:
            return candidate
    raise ValueError("Variable %s does not uniquely identify a variable" % var_op_name)


def assign_from_checkpoint_fn(model_path: str, var_list: Sequence | dict,
                              ignore_missing_vars: bool = False,
                              reshape_variables: bool = False) -> Callable:
    """A function ``fn(session)`` restoring ``var_list`` from the checkpoint ``model_path``.

    Args:
      model_path: The checkpoint's path prefix.
      var_list: The variables (a list, or a dict from checkpoint names to variables).
      ignore_missing_vars: Leave out the variables the checkpoint lacks (else restoring
        them fails with NotFoundError).
      reshape_variables: Accepted for TensorFlow's signature.

    Returns:
      The function, or None when ``ignore_missing_vars`` leaves no variable.

    Raises:
      ValueError: ``var_list`` is empty.
    """
    if not var_list:
        raise ValueError("var_list cannot be empty")
    if ignore_missing_vars:
        reader = NewCheckpointReader(model_path)
        items = var_list.items() if isinstance(var_list, dict) else \
            [(v.op.name, v) for v in var_list]
        kept = {name: v for name, v in items if reader.has_tensor(name)}
        if not kept:
            return None
        var_list = kept
    saver = Saver(var_list, reshape=reshape_variables)

    def callback(session: object) -> None:
        saver.restore(session, model_path)

    return callback


__all__ = ["assign_from_checkpoint_fn", "get_local_variables", "get_model_variables",
           "get_trainable_variables", "get_unique_variable", "get_variables",
           "get_variables_by_name", "get_variables_by_suffix", "get_variables_to_restore",
           "global_variable", "local_variable", "model_variable", "variable"]


def __dir__() -> list:
    return sorted(__all__)
