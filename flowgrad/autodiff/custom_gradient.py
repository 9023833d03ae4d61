"""``tf.custom_gradient`` and ``tf.recompute_grad``: functions that bring their own gradient.

Eagerly, a call is recorded on the active tapes as one op whose gradient is the user's
``grad_fn`` (``flowgrad.autodiff.tape.record_custom``). In a graph, the outputs go through an
IdentityN op whose gradient is overridden with ``grad_fn``, registered under a unique name as
TensorFlow does."""
from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.autodiff.tape import GradientTape, record_custom
from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.registry import RegisterGradient
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import identity, identity_n


class _VariableWatcher:
    """Collects the variables read while it is active (for custom_gradient's ``variables``)."""

    _tensors: dict = {}             # records no op

    def __init__(self) -> None:
        self.variables: dict = {}

    def __enter__(self) -> _VariableWatcher:
        state.tapes.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        state.tapes.remove(self)

    def _variable_accessed(self, var: Any, t: Any) -> None:
        self.variables.setdefault(id(var), var)

    def _watches_call(self, tensors: list, variables: list) -> bool:
        return bool(variables)


# --------------------------------------------------------------------------------------
# custom_gradient


def _accepts_variables(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


def _input_gradients(grad_fn: Callable, dys: tuple, n_args: int, variables: list) -> list:
    """Calls the user's grad_fn and checks that it returns one gradient per input."""
    if variables:
        input_grads, variable_grads = grad_fn(*dys, variables=variables)
        variable_grads = list(variable_grads)
        if len(variable_grads) != len(variables):
            raise ValueError("Must return gradient for each variable from @custom_gradient "
                             "grad_fn.")
    else:
        input_grads, variable_grads = grad_fn(*dys), []
    flat = nest.flatten(input_grads)
    if len(flat) != n_args:
        raise ValueError("custom_gradient function expected to return %d gradients, but "
                         "returned %d instead." % (n_args, len(flat)))
    return flat + variable_grads


def custom_gradient(f: Callable | None = None) -> Callable:
    """Decorator giving a function its own gradient: ``f`` returns ``(y, grad_fn)``.

    ``grad_fn(*dys)`` returns one gradient per argument of ``f`` (and, when ``f``
    reads variables, takes ``variables=`` and returns ``(input_grads,
    variable_grads)``). Eagerly, the call is recorded on the active tapes as one op
    whose gradient is ``grad_fn``. In a graph, the outputs go through an IdentityN
    op whose gradient is overridden with ``grad_fn`` (registered under a unique
    name, as TensorFlow does).

    Args:
        f: A function returning (outputs, grad_fn), where grad_fn(*upstream) returns the inputs'
            gradients.
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        with _VariableWatcher() as watcher:
            result, grad_fn = f(*args, **kwargs)
        flat_args = nest.flatten(args)
        known = {id(x) for x in flat_args + nest.flatten(kwargs)}
        # as in TensorFlow, only trainable variables are seen being read
        variables = [v for v in watcher.variables.values()
                     if id(v) not in known and getattr(v, "trainable", True)]
        if variables and not _accepts_variables(grad_fn):
            raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                            "'variables', since function uses variables: %s" % variables)
        inputs = [convert_to_tensor(x) for x in flat_args] + [v.value() for v in variables]
        flat_result = [convert_to_tensor(y) for y in nest.flatten(result)]
        n_args = len(flat_args)
        if executing_eagerly():
            outs = [identity(y) for y in flat_result]

            def eager_grad(op: Any, *dys: Any) -> list:
                return _input_gradients(grad_fn, dys, n_args, variables)
            record_custom(f.__name__, inputs, outs, eager_grad)
        else:
            outs = _graph_custom_outputs(flat_result, inputs, grad_fn, n_args, variables)
        return nest.pack_sequence_as(result, outs)
    return decorated


_custom_ids = itertools.count()


def _graph_custom_outputs(flat_result: list, inputs: list, grad_fn: Callable, n_args: int,
                          variables: list) -> list:
    n = len(flat_result)
    name = "CustomGradient-%d" % next(_custom_ids)

    @RegisterGradient(name)
    def _grad(op: Any, *grads: Any) -> list:
        return [None] * n + _input_gradients(grad_fn, grads[:n], n_args, variables)

    outs = identity_n(flat_result + inputs)
    outs[0].op._grad_type = name
    return outs[:n]




def recompute_grad(f: Callable) -> Callable:
    """``f`` with the same values and gradients, whose backward pass runs ``f`` again (under a
    GradientTape) instead of keeping its intermediate results, as TensorFlow's
    ``tf.recompute_grad`` does to save memory.

    Args:
      f: A function of tensors (it may read variables).

    Returns:
      The wrapped function.
    """
    @functools.wraps(f)
    def wrapped(*args: Any) -> Any:
        @custom_gradient
        def inner(*xs: Any) -> Any:
            def grad(*dys: Any, variables: Any = None) -> Any:
                with GradientTape() as tape:
                    tape.watch(list(xs))
                    again = f(*xs)
                targets = list(xs) + list(variables or [])
                grads = tape.gradient(again, targets, output_gradients=list(dys)
                                      if isinstance(again, (list, tuple)) else dys[0])
                if variables is None:
                    return grads[:len(xs)]
                return grads[:len(xs)], grads[len(xs):]
            return f(*xs), grad
        return inner(*args)
    return wrapped


__all__ = ["custom_gradient", "recompute_grad"]
