"""``tf.compat.v1.make_template``: a function whose variables (made with
``tf.get_variable``) are created on the first call, in the template's variable scope, and
reused by every later call (tensorflow/python/ops/template.py)."""
from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.ops.variable_scope import variable_scope


class Template:
    """A function that shares its variables between calls (see ``make_template``).

    Args:
        name: The template's name: its variable scope's (made unique).
        func: The function.
        create_scope_now: Whether the variable scope is opened now (under the current
            scope) rather than at the first call.
        unique_name: A scope name used as is (no uniquifying).
        custom_getter: A custom getter for the scope.
        create_graph_function: Not supported (a ValueError).

    Raises:
        ValueError: if ``name`` is None.
    """

    def __init__(self, name: str, func: Callable, create_scope_now: bool = False,
                 unique_name: str | None = None, custom_getter: Callable | None = None,
                 create_graph_function: bool = False) -> None:
        if create_graph_function:
            raise ValueError("make_template: create_graph_function is not supported")
        if name is None:
            raise ValueError("name cannot be None.")
        self._func, self._name = func, name
        self._unique_name, self._custom_getter = unique_name, custom_getter
        self._variable_scope = None
        if create_scope_now:
            with variable_scope(unique_name, name, custom_getter=custom_getter) as vs:
                self._variable_scope = vs
        self._variables_created = False

    def _call_func(self, args: tuple, kwargs: dict) -> Any:
        graph = get_default_graph()
        if not self._variables_created:
            result = self._func(*args, **kwargs)
            self._variables_created = True
            return result
        n_global = len(graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
        n_trainable = len(graph.get_collection(GraphKeys.TRAINABLE_VARIABLES))
        result = self._func(*args, **kwargs)
        trainable = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES)
        if len(trainable) != n_trainable:
            raise ValueError("Trainable variable created when calling a template after the "
                             "first time, perhaps you used tf.Variable when you meant "
                             "tf.get_variable: %s" % (trainable[n_trainable:],))
        if len(graph.get_collection(GraphKeys.GLOBAL_VARIABLES)) != n_global:
            logging.getLogger("flowgrad").info(
                "New variables created when calling a template after the first time, "
                "perhaps you used tf.Variable when you meant tf.get_variable")
        return result

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._variable_scope is not None:
            with variable_scope(self._variable_scope, reuse=self._variables_created or None):
                return self._call_func(args, kwargs)
        with variable_scope(self._unique_name, self._name,
                            custom_getter=self._custom_getter) as vs:
            self._variable_scope = vs
            return self._call_func(args, kwargs)

    @property
    def name(self) -> str:
        return self._name

    @property
    def func(self) -> Callable:
        return self._func

    @property
    def variable_scope(self) -> Any:
        return self._variable_scope

    @property
    def variable_scope_name(self) -> str | None:
        """The scope's name with a trailing slash (None before the scope exists)."""
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name if not name or name.endswith("/") else name + "/"

    def _collection(self, key: str) -> list:
        if not self._variables_created:
            return []
        return get_default_graph().get_collection(key, self.variable_scope_name)

    @property
    def variables(self) -> list:
        """The template's global variables."""
        return self._collection(GraphKeys.GLOBAL_VARIABLES)

    @property
    def trainable_variables(self) -> list:
        return self._collection(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def non_trainable_variables(self) -> list:
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.variables if id(v) not in trainable]

    @property
    def global_variables(self) -> list:
        return self.variables

    @property
    def local_variables(self) -> list:
        return self._collection(GraphKeys.LOCAL_VARIABLES)


def make_template(name_: str, func_: Callable, create_scope_now_: bool = False,
                  unique_name_: str | None = None, custom_getter_: Callable | None = None,
                  **kwargs: Any) -> Template:
    """Wraps ``func_`` so that all its calls share the variables of the first one.

    Args:
        name_: The template's name (its variable scope, made unique).
        func_: The function; its ``tf.get_variable`` calls are shared.
        create_scope_now_: Whether to open the variable scope now.
        unique_name_: A scope name used as is.
        custom_getter_: A custom getter for the scope.
        **kwargs: Keyword arguments bound to ``func_``.

    Returns:
        The Template.

    Raises:
        ValueError: if ``name_`` is None.
    """
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)


__all__ = ["Template", "make_template"]
