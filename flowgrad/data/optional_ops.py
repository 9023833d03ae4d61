"""``tf.experimental.Optional`` (``tensorflow/python/data/ops/optional_ops.py``): a value
that may be missing, with the structure ``element_spec`` describes."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec
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
        if isinstance(has_value, bool) and not executing_eagerly():
            has_value = constant(has_value, name="has_value")    # a traced function's own
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

    @property
    def _type_spec(self) -> OptionalSpec:
        return OptionalSpec(self._element_spec)

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


class OptionalSpec(TypeSpec):
    """``tf.OptionalSpec``: describes an Optional whose value has ``element_spec``; a
    tf.function returns an Optional (Keras's ``fit`` steps do) as its ``has_value`` and its
    value's tensors.

    Args:
        element_spec: The nested ``tf.TypeSpec`` of the value.
    """

    def __init__(self, element_spec: Any):
        self._element_spec = element_spec

    @property
    def value_type(self) -> type:
        return Optional

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def _component_specs(self) -> list:
        """``has_value`` (a boolean scalar) and the value's tensors."""
        return [TensorSpec([], dtypes.bool)] + _flat(self._element_spec)

    def _to_components(self, value: Optional) -> list:
        if value._value is None:
            if _flat(self._element_spec):
                raise ValueError("An empty Optional with element_spec %r cannot leave a "
                                 "tf.function" % (self._element_spec,))
            return [_as_tensor(value._has_value)]
        return [_as_tensor(value._has_value)] + nest.flatten(value._value)

    def _from_components(self, parts: list) -> Optional:
        has_value, flat = parts[0], list(parts[1:])
        value = nest.pack_sequence_as(self._element_spec, flat) if flat else None
        return Optional(value, has_value, self._element_spec)

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._element_spec == other._element_spec

    def __hash__(self) -> int:
        return hash(type(self))

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    def __repr__(self) -> str:
        return "OptionalSpec" + repr(self._serialize())


def _flat(element_spec: Any) -> list:
    """The value's flat specs (none for ``element_spec`` None: an Optional of nothing)."""
    return [] if element_spec is None else nest.flatten(element_spec)


def _as_tensor(has_value: Any) -> Any:
    return constant(has_value) if isinstance(has_value, bool) else has_value


def _get_value_kernel(has_value: Any, *components: Any, n: int) -> Any:
    if not bool(has_value):
        raise errors.InvalidArgumentError(None, None, "The given optional does not have a "
                                          "value.")
    return components[0] if len(components) == 1 else tuple(components)


register_op("OptionalGetValue", _get_value_kernel,
            lambda ins, attrs: [(t.dtype.base_dtype, t.shape) for t in ins[1:]],
            stateful=True, grad=_NO_GRADIENT, num_outputs=lambda attrs: attrs["n"])


__all__ = ["Optional", "OptionalSpec"]
