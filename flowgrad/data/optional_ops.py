"""``tf.experimental.Optional`` (``tensorflow/python/data/ops/optional_ops.py``): a value
that may be missing, with the structure ``element_spec`` describes."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.framework import errors
from flowgrad.framework.composite_tensor import CompositeTensor
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import constant
from flowgrad.ops.array_ops import identity
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
        if isinstance(self._has_value, bool):
            return constant(self._has_value, name=name or "has_value")
        return identity(self._has_value, name=name or "has_value")

    def get_value(self, name: str | None = None) -> Any:
        """The value.

        Raises:
          InvalidArgumentError: the Optional is empty.
        """
        if isinstance(self._has_value, bool):
            if not self._has_value:
                raise errors.InvalidArgumentError(None, None,
                                                  "The optional does not have a value")
            return self._value
        flat = nest.flatten(self._value)        # a graph's optional: checked when it runs
        out = apply_op("OptionalGetValue", [self._has_value] + flat, {"n": len(flat)},
                       name=name or "OptionalGetValue")
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        return nest.pack_sequence_as(self._value, out)


def _get_value_kernel(has_value: Any, *components: Any, n: int) -> Any:
    if not bool(has_value):
        raise errors.InvalidArgumentError(None, None, "The given optional does not have a "
                                          "value.")
    return components[0] if len(components) == 1 else tuple(components)


register_op("OptionalGetValue", _get_value_kernel,
            lambda ins, attrs: [(t.dtype.base_dtype, t.shape) for t in ins[1:]],
            stateful=True, grad=_NO_GRADIENT, num_outputs=lambda attrs: attrs["n"])


__all__ = ["Optional"]
