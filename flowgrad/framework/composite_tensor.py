"""``tf.TypeSpec`` and ``tf.__internal__.CompositeTensor``
(``tensorflow/python/framework/{type_spec,composite_tensor}.py``): the base classes of
values made of several tensors, described by a spec; and ``type_spec_registry``'s
``register`` decorator, which names a TypeSpec class for serialization."""
from __future__ import annotations

import abc
import re
from collections.abc import Callable
from typing import Any


class TypeSpec(abc.ABC):  # noqa: B024 - TensorFlow's TypeSpec subclasses fill it in
    """Describes a kind of value (a tensor, a composite tensor, ...): its shape and dtypes."""

    @property
    def value_type(self) -> type:
        """The Python type of the values this spec describes."""
        raise NotImplementedError

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether ``spec_or_value`` could be described by this spec."""
        raise NotImplementedError

    def most_specific_common_supertype(self, others: list) -> Any:
        """The most specific spec that describes values of this spec and of ``others``."""
        return self if all(o == self for o in others) else None

    def _serialize(self) -> tuple:
        """The constructor arguments that rebuild this spec (``_deserialize``'s input: what
        TensorFlow and Keras's legacy JSON encoder write a registered spec as)."""
        raise NotImplementedError("%s does not serialize" % type(self).__name__)

    @classmethod
    def _deserialize(cls, serialization: tuple) -> TypeSpec:
        """The spec of ``_serialize``'s output."""
        return cls(*serialization)


class CompositeTensor(abc.ABC):  # noqa: B024
    """A value made of tensors, described by its ``_type_spec``."""

    @property
    def _type_spec(self) -> TypeSpec:
        raise NotImplementedError

    def _shape_invariant_to_type_spec(self, shape: Any) -> TypeSpec:
        raise NotImplementedError

    def _consumers(self) -> list:
        return []


_TYPE_SPECS: dict[str, type] = {}
_NAME_RE = re.compile(r"^(\w+\.)+\w+$")


def register(name: str) -> Callable[[type], type]:
    """A class decorator naming a TypeSpec subclass ``name`` (``"package.ClassName"``).

    Args:
      name: the registered name.

    Returns:
      The decorator.

    Raises:
      TypeError: ``name`` is not a string.
      ValueError: ``name`` is malformed or already registered to another class.
    """
    if not isinstance(name, str):
        raise TypeError("Expected `name` to be a string; got %r" % (name,))
    if not _NAME_RE.match(name):
        raise ValueError("Registered name must have the form '{project_name}.{type_name}' "
                         "(e.g. 'my_project.MyTypeSpec'); got %r." % name)

    def decorator(cls: type) -> type:
        if _TYPE_SPECS.get(name, cls) is not cls:
            raise ValueError("Name %s has already been registered for class %s.%s."
                             % (name, _TYPE_SPECS[name].__module__, _TYPE_SPECS[name].__name__))
        _TYPE_SPECS[name] = cls
        return cls
    return decorator


def lookup(name: str) -> type:
    """The TypeSpec class registered as ``name``.

    Raises:
      ValueError: no class has that name.
    """
    if name not in _TYPE_SPECS:
        raise ValueError("No TypeSpec has been registered with name %r" % (name,))
    return _TYPE_SPECS[name]


def get_name(cls: type) -> str:
    """The name ``cls`` was registered under.

    Raises:
      ValueError: ``cls`` was not registered.
    """
    for name, c in _TYPE_SPECS.items():
        if c is cls:
            return name
    raise ValueError("TypeSpec %s.%s has not been registered." % (cls.__module__, cls.__name__))


__all__ = ["CompositeTensor", "TypeSpec", "get_name", "lookup", "register"]
