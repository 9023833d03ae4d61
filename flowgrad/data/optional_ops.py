"""``tf.experimental.Optional`` (``tensorflow/python/data/ops/optional_ops.py``): a value
that may be missing, with the structure ``element_spec`` describes."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.framework import errors
from flowgrad.framework.composite_tensor import CompositeTensor
from flowgrad.framework.tensor import constant
from flowgrad.runtime.function import TensorSpec


class Optional(CompositeTensor):
    """Either a value (a nest of tensors) or nothing.

    Args:
        value: The value (a nest of tensors), ignored without ``has_value``.
        has_value: Whether the optional holds a value.
        element_spec: The nested ``tf.TypeSpec`` of the value.
    """

    def __init__(self, value: Any, has_value: bool, element_spec: Any):
        self._value = value
        self._has_value = has_value
        self._element_spec = element_spec

    @staticmethod
    def from_value(value: Any) -> Optional:
        """An Optional holding ``value``."""
        spec = nest.map_structure(
            lambda t: TensorSpec.from_tensor(t) if hasattr(t, "dtype") else t, value)
        return Optional(value, True, spec)

    @staticmethod
    def empty(element_spec: Any) -> Optional:
        """An Optional holding nothing, for values described by ``element_spec``."""
        return Optional(None, False, element_spec)

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    def has_value(self, name: str | None = None) -> Any:
        """A boolean scalar tensor: whether there is a value."""
        return constant(self._has_value, name=name or "has_value")

    def get_value(self, name: str | None = None) -> Any:
        """The value.

        Raises:
          InvalidArgumentError: the Optional is empty.
        """
        if not self._has_value:
            raise errors.InvalidArgumentError(None, None, "The optional does not have a value")
        return self._value


__all__ = ["Optional"]
