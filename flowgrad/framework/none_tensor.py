"""``tf.NoneTensorSpec`` (TensorFlow's ``framework/none_tensor.py``): the spec of a ``None``
leaf of a structure, with no components, so that ``None`` can sit beside tensors in a
``tf.data`` element (``ds.map(lambda x: (x, None))``) and in ``tf.nest`` with
``expand_composites=True``."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec, register


class NoneTensor(CompositeTensor):
    """The composite-tensor form of ``None`` (what a NoneTensorSpec describes)."""

    @property
    def _type_spec(self) -> NoneTensorSpec:
        return NoneTensorSpec()


@register("tf.NoneTensorSpec")
class NoneTensorSpec(TypeSpec):
    """Type specification for a ``None`` value: no components; batching keeps it.

    Example:

    >>> tf.type_spec_from_value(None)
    NoneTensorSpec()
    """

    @property
    def value_type(self) -> type:
        """``NoneTensor``."""
        return NoneTensor

    def _serialize(self) -> tuple:
        return ()

    @property
    def _component_specs(self) -> list:
        return []

    def _to_components(self, value: Any) -> list:
        return []

    def _from_components(self, components: Any) -> None:
        return None

    def _to_tensor_list(self, value: Any) -> list:
        return []

    @staticmethod
    def from_value(value: Any) -> NoneTensorSpec:
        """The spec of ``None``.

        Args:
          value: ``None``.

        Returns:
          A NoneTensorSpec.
        """
        return NoneTensorSpec()

    def _batch(self, batch_size: Any) -> NoneTensorSpec:
        return NoneTensorSpec()

    def _unbatch(self) -> NoneTensorSpec:
        return NoneTensorSpec()

    def _with_component_shapes(self, shape_fn: Any) -> NoneTensorSpec:
        return self

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether ``spec_or_value`` is a NoneTensorSpec or ``None``.

        Args:
          spec_or_value: A spec or a value.

        Returns:
          A bool.
        """
        return spec_or_value is None or isinstance(spec_or_value, NoneTensorSpec)

    def most_specific_common_supertype(self, others: list) -> Any:
        """Itself, where every one of ``others`` is a NoneTensorSpec, else None.

        Args:
          others: Specs.

        Returns:
          A NoneTensorSpec or None.
        """
        return self if all(isinstance(o, NoneTensorSpec) for o in others) else None

    def most_specific_compatible_shape(self, other: Any) -> NoneTensorSpec:
        """Itself (TensorFlow's ``tf.data`` shape relaxation).

        Args:
          other: Another NoneTensorSpec.

        Returns:
          This spec.

        Raises:
          ValueError: ``other`` is of another type.
        """
        if type(self) is not type(other):
            raise ValueError(f"No `TypeSpec` is compatible with both {self} and {other}")
        return self

    def __eq__(self, other: object) -> bool:
        return type(other) is NoneTensorSpec

    def __hash__(self) -> int:
        return hash(NoneTensorSpec)

    def __repr__(self) -> str:
        return "NoneTensorSpec()"


__all__ = ["NoneTensor", "NoneTensorSpec"]
