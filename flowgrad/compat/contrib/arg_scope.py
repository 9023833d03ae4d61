"""TensorFlow 1.15's ``arg_scope`` (``tf.contrib.framework.arg_scope``, ``slim.arg_scope``):
default keyword arguments for the functions decorated with ``add_arg_scope``.

``with arg_scope([fully_connected, conv2d], activation_fn=tf.nn.tanh):`` makes
``activation_fn=tf.nn.tanh`` the default of those functions inside the block; arguments given
in a call win, an inner scope's win over an outer's, and ``with arg_scope(sc):`` re-enters a
scope ``sc`` captured with ``as sc``."""
from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence

_ARGSTACK: list[dict] = [{}]
_DECORATED_OPS: dict[str, tuple] = {}


def current_arg_scope() -> dict:
    """The innermost arg scope: a dict from a function's key to its default keyword arguments.

    Returns:
      The current scope (the empty dict outside every ``arg_scope``).
    """
    return _ARGSTACK[-1]


def arg_scope_func_key(op: Callable) -> str:
    """The key under which ``op``'s defaults are stored in an arg scope.

    Args:
      op: A function (decorated with ``add_arg_scope`` or not).

    Returns:
      Its key.
    """
    return getattr(op, "_key_op", str(op))


def _kwarg_names(func: Callable) -> tuple:
    code = func.__code__
    n_defaults = len(func.__defaults__) if func.__defaults__ else 0
    return code.co_varnames[code.co_argcount - n_defaults:code.co_argcount] + \
        code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]


def has_arg_scope(func: Callable) -> bool:
    """Whether ``func`` was decorated with ``add_arg_scope``.

    Args:
      func: A function.

    Returns:
      True when an arg scope can set its defaults.
    """
    return arg_scope_func_key(func) in _DECORATED_OPS


def arg_scoped_arguments(func: Callable) -> tuple:
    """The keyword arguments an arg scope can set for ``func``.

    Args:
      func: A function decorated with ``add_arg_scope``.

    Returns:
      The names of its keyword arguments.

    Raises:
      ValueError: ``func`` is not decorated with ``add_arg_scope``.
    """
    if not has_arg_scope(func):
        raise ValueError("%s is not decorated with @add_arg_scope" % _op_name(func))
    return _DECORATED_OPS[arg_scope_func_key(func)]


def _op_name(op: Callable) -> str:
    return "%s.%s" % (getattr(op, "__module__", "?"), getattr(op, "__name__", repr(op)))


def add_arg_scope(func: Callable) -> Callable:
    """Decorates ``func`` so that ``arg_scope`` can set its keyword arguments' defaults.

    Args:
      func: The function to decorate.

    Returns:
      The decorated function (``functools.wraps`` of ``func``).
    """
    key = arg_scope_func_key(func)

    @functools.wraps(func)
    def func_with_args(*args: object, **kwargs: object) -> object:
        scope = current_arg_scope()
        current_args = kwargs
        if key in scope:
            current_args = dict(scope[key])
            current_args.update(kwargs)
        return func(*args, **current_args)

    _DECORATED_OPS.setdefault(key, _kwarg_names(func))
    func_with_args._key_op = key  # noqa: SLF001 - TensorFlow's attribute
    return func_with_args


@contextlib.contextmanager
def arg_scope(list_ops_or_scope: Sequence[Callable] | dict, **kwargs: object) -> Iterator[dict]:
    """Sets default keyword arguments of the listed functions inside the ``with`` block.

    Args:
      list_ops_or_scope: The functions (decorated with ``add_arg_scope``), or a scope (the dict
        an earlier ``arg_scope`` yielded) to re-enter.
      **kwargs: The defaults to set.

    Yields:
      The new scope (a dict to re-enter later).

    Raises:
      ValueError: a scope dict is given with keyword arguments, or a function is not
        decorated with ``add_arg_scope``.
      TypeError: ``list_ops_or_scope`` is neither a list/tuple nor a dict.
    """
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, "
                             "kwargs must be empty.")
        scope = list_ops_or_scope.copy()
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope "
                            "(i.e. dict)")
        scope = current_arg_scope().copy()
        for op in list_ops_or_scope:
            if not has_arg_scope(op):
                raise ValueError("%s is not decorated with @add_arg_scope" % _op_name(op))
            key = arg_scope_func_key(op)
            merged = dict(scope.get(key, {}))
            merged.update(kwargs)
            scope[key] = merged
    _ARGSTACK.append(scope)
    try:
        yield scope
    finally:
        _ARGSTACK.pop()


__all__ = ["add_arg_scope", "arg_scope", "arg_scope_func_key", "arg_scoped_arguments",
           "current_arg_scope", "has_arg_scope"]


def __dir__() -> list:
    return sorted(__all__)
