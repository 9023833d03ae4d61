"""``tf.Module``: a named container whose variables and sub-modules are found automatically.

A Module tracks nothing at assignment time: ``variables``, ``trainable_variables`` and
``submodules`` walk the instance's attributes when asked, descending into lists,
tuples and dicts (in ``tf.nest`` order) and into sub-modules. As in TensorFlow the
attributes are visited in sorted name order, each object is reported once, and a
cycle of references ends the walk. Because tracking reads ``vars(self)`` lazily,
subclasses may set attributes before ``super().__init__()`` runs (Keras layers do)
and may mutate tracked lists later; they may also override ``_flatten`` or
``_TF_MODULE_IGNORED_PROPERTIES`` to change what is walked.

``Module.__setattr__`` offers one hook to ``tf.train.Checkpoint``: a checkpoint
restored before a variable or sub-module existed hands it its saved value when it
is assigned (TensorFlow's deferred restoration)."""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import name_scope as _name_scope
from flowgrad.ops.state_ops import Variable

_CAMEL_1 = re.compile(r"(.)([A-Z][a-z0-9]+)")
_CAMEL_2 = re.compile(r"([a-z])([A-Z])")
_VALID_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")

# Deferred-restoration hook (set by flowgrad.train.checkpoint): called as
# hook(module, attribute_name, value) after each attribute assignment while a restore
# has values waiting for objects that did not exist yet.
_on_setattr: Callable[[Any, str, Any], None] | None = None


def set_setattr_hook(hook: Callable[[Any, str, Any], None] | None) -> None:
    """Installs (or with None removes) the function called after Module attribute writes."""
    global _on_setattr
    _on_setattr = hook


def camel_to_snake(name: str) -> str:
    """'MyDenseLayer' -> 'my_dense_layer' (TensorFlow's default module name)."""
    return _CAMEL_2.sub(r"\1_\2", _CAMEL_1.sub(r"\1_\2", name)).lower()


def valid_identifier(name: str) -> bool:
    return bool(_VALID_IDENTIFIER.match(name))


class _ModuleNameScope:
    """A re-enterable name scope: entering it again reopens the same scope (TF2 semantics)."""

    def __init__(self, scope_name: str):
        self._scope_name = scope_name
        self._stack: list = []

    @property
    def name(self) -> str:
        return self._scope_name

    def __enter__(self) -> str:
        cm = _name_scope(self._scope_name)
        scope = cm.__enter__()
        self._stack.append(cm)
        return scope

    def __exit__(self, *exc: Any) -> Any:
        return self._stack.pop().__exit__(*exc)

    def __repr__(self) -> str:
        return "<name_scope %r>" % self._scope_name


class Module:
    """Base neural network module class (``tf.Module``).

    ``name`` defaults to the class name in snake case and must be a valid Python
    identifier; ``name_scope`` is opened once at construction (so a second module of
    the same name in a graph gets ``name_1/``) and reopened by ``with_name_scope``.

    Args:
        name: The module's name (a Python identifier); the class name in snake case when
            None.
    """

    _TF_MODULE_IGNORED_PROPERTIES = frozenset((
        "_self_unconditional_checkpoint_dependencies",
        "_self_unconditional_dependency_names",
    ))

    def __init__(self, name: str | None = None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not valid_identifier(name):
            raise ValueError("%r is not a valid module name. Module names must be valid Python "
                             "identifiers (e.g. a valid class name)." % name)
        self._name = name
        if executing_eagerly():
            scope_name = name + "/"
        else:
            with _name_scope(name) as scope_name:
                pass
        self._name_scope = _ModuleNameScope(scope_name)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if _on_setattr is not None:
            _on_setattr(self, name, value)

    @property
    def name(self) -> str:
        """The module's name (without its scope)."""
        return self._name

    @property
    def name_scope(self) -> _ModuleNameScope:
        """The name scope opened by this module; ``with module.name_scope:`` reenters it."""
        return self._name_scope

    @property
    def variables(self) -> tuple:
        """Every ``tf.Variable`` of this module and its sub-modules, each once."""
        return tuple(self._flatten(predicate=_is_variable, expand_composites=True))

    @property
    def trainable_variables(self) -> tuple:
        """The trainable variables of this module and its sub-modules, each once."""
        return tuple(self._flatten(predicate=_is_trainable_variable, expand_composites=True))

    @property
    def non_trainable_variables(self) -> tuple:
        """The non-trainable variables of this module and its sub-modules, each once."""
        return tuple(self._flatten(predicate=_is_non_trainable_variable,
                                   expand_composites=True))

    @property
    def submodules(self) -> tuple:
        """Every module reachable from this one (not including itself), each once."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive: bool = True, predicate: Callable[[Any], bool] | None = None,
                 attribute_traversal_key: Callable | None = None, with_path: bool = False,
                 expand_composites: bool = False) -> Iterator[Any]:
        """The objects reachable from this module's attributes that satisfy ``predicate``.

        With ``with_path`` yields ``(path, leaf)`` where ``path`` is a tuple of attribute
        names, container indices and dict keys."""
        if predicate is None:
            predicate = _accept_all
        return _flatten_module(self, recursive=recursive, predicate=predicate,
                               attribute_traversal_key=attribute_traversal_key,
                               attributes_to_ignore=self._TF_MODULE_IGNORED_PROPERTIES,
                               with_path=with_path, seen={id(self)})

    @classmethod
    def with_name_scope(cls, method: Callable) -> Callable:
        """Decorates a method so that it runs inside the module's name scope."""
        @functools.wraps(method)
        def method_with_name_scope(self: Module, *args: Any, **kwargs: Any) -> Any:
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope

    def __repr__(self) -> str:
        return "<%s.%s object at %s>" % (type(self).__module__, type(self).__name__,
                                         hex(id(self)))


def _accept_all(_: Any) -> bool:
    return True


def _is_variable(obj: Any) -> bool:
    return isinstance(obj, Variable)


def _is_trainable_variable(obj: Any) -> bool:
    return isinstance(obj, Variable) and obj.trainable


def _is_non_trainable_variable(obj: Any) -> bool:
    return isinstance(obj, Variable) and not obj.trainable


def _is_module(obj: Any) -> bool:
    return isinstance(obj, Module)


def _leaves_with_paths(obj: Any, path: tuple, seen_containers: set) -> Iterator[tuple]:
    """(path, leaf) of a nest-like structure: lists, tuples and dicts (sorted keys)."""
    if isinstance(obj, (list, tuple, dict)):
        if id(obj) in seen_containers:       # a container holding itself
            return
        seen_containers.add(id(obj))
        if isinstance(obj, dict):
            try:
                keys = sorted(obj)
            except TypeError:
                keys = list(obj)
            items = [(k, obj[k]) for k in keys]
        else:
            items = list(enumerate(obj))
        for k, v in items:
            yield from _leaves_with_paths(v, path + (k,), seen_containers)
    else:
        yield path, obj


def _flatten_module(module: Module, recursive: bool, predicate: Callable[[Any], bool],
                    attribute_traversal_key: Callable | None, attributes_to_ignore: Any,
                    with_path: bool, seen: set, module_path: tuple = (),
                    recursion_stack: list | None = None) -> Iterator[Any]:
    """TensorFlow's walk: this module's matching leaves first, then each sub-module's.

    Without ``with_path`` each object is reported once; with it, once per path (a module
    already being walked higher up is not entered again)."""
    if recursion_stack is None:
        recursion_stack = []
    if id(module) in recursion_stack:
        recursive = False
    module_dict = vars(module)
    submodules = []
    for key in sorted(module_dict, key=attribute_traversal_key):
        if key in attributes_to_ignore:
            continue
        for path, leaf in _leaves_with_paths(module_dict[key], (key,), set()):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            full = module_path + path
            if predicate(leaf):
                yield (full, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((full, leaf))
    recursion_stack.append(id(module))
    for path, sub in submodules:
        yield from _flatten_module(sub, recursive, predicate, attribute_traversal_key,
                                   getattr(sub, "_TF_MODULE_IGNORED_PROPERTIES", frozenset()),
                                   with_path, seen, path, recursion_stack)
    recursion_stack.pop()


__all__ = ["Module", "camel_to_snake", "set_setattr_hook"]
