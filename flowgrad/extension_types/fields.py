"""The fields of a ``tf.experimental.ExtensionType`` (TensorFlow's
``framework/extension_type_field.py``): which type annotations a field may have, and how a
value given for a field is checked and converted (a Python list becomes a ``tf.Tensor`` for a
``tf.Tensor`` field, a list of ints a ``TensorShape``, a string a ``DType``, a tuple or
mapping field is converted element by element), with TensorFlow's TypeError messages."""
from __future__ import annotations

import collections
import enum
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape

RESERVED_FIELD_NAMES = [
    "self", "Spec", "_type_spec", "_shape_invariant_to_type_spec", "_consumers", "value_type",
    "is_compatible_with", "most_specific_compatible_type", "_with_tensor_ranks_only",
    "_to_components", "_from_components", "_component_specs", "_to_tensor_list",
    "_from_tensor_list", "_from_compatible_tensor_list", "_flat_tensor_specs", "_serialize",
    "_deserialize", "_to_legacy_output_types", "_to_legacy_output_shapes",
    "_to_legacy_output_classes", "_keras_mask",
]

_NoneType = type(None)


class Sentinel:
    """A value no user value is (``ExtensionTypeField.NO_DEFAULT``)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name


class ImmutableDict(Mapping):
    """The read-only mapping a ``Mapping[...]`` field holds (TensorFlow's ImmutableDict)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._dict = dict(*args, **kwargs)

    def __getitem__(self, key: Any) -> Any:
        return self._dict[key]

    def __iter__(self) -> Iterator:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __hash__(self) -> int:
        return hash(tuple(self._dict.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(other) == self._dict

    def __repr__(self) -> str:
        return f"ImmutableDict({self._dict})"


def is_composite_type(cls: Any) -> bool:
    """Whether ``cls`` is a class of composite tensors (a CompositeTensor subclass, or a
    RaggedTensor or SparseTensor, which describe themselves with a ``_type_spec``-less spec).

    Args:
      cls: Any object.

    Returns:
      A bool.
    """
    if not isinstance(cls, type):
        return False
    if issubclass(cls, CompositeTensor):
        return True
    return cls.__name__ in ("RaggedTensor", "SparseTensor") and \
        cls.__module__.startswith("flowgrad.ops.")


def _is_tuple(t: Any) -> bool:
    return typing.get_origin(t) is tuple


def _is_mapping(t: Any) -> bool:
    return typing.get_origin(t) in (collections.abc.Mapping, dict)


def _is_union(t: Any) -> bool:
    origin = typing.get_origin(t)
    return origin is typing.Union or (origin is not None and origin.__name__ == "UnionType")


class ExtensionTypeField(collections.namedtuple("ExtensionTypeField",
                                                ["name", "value_type", "default"])):
    """One field of an ExtensionType: its name, type annotation and default."""

    NO_DEFAULT = Sentinel("ExtensionTypeField.NO_DEFAULT")

    def __new__(cls, name: str, value_type: Any, default: Any = NO_DEFAULT) -> Any:
        try:
            validate_field_value_type(value_type, allow_forward_references=True)
        except TypeError as e:
            raise TypeError(f"In field {name!r}: {e}") from e
        if default is not cls.NO_DEFAULT:
            default = convert_value(default, value_type, (f"default value for {name}",),
                                    ConversionContext.DEFAULT)
        return super().__new__(cls, name, value_type, default)

    @staticmethod
    def is_reserved_name(name: str) -> bool:
        """Whether ``name`` may not be a field's name.

        Args:
          name: A field name.

        Returns:
          A bool.
        """
        return name in RESERVED_FIELD_NAMES or name.lower().startswith("_tf_extension_type")


def validate_field_value_type(value_type: Any, in_mapping_key: bool = False,
                              allow_forward_references: bool = False) -> None:
    """Raises TypeError unless ``value_type`` is a supported field annotation.

    Args:
      value_type: The annotation.
      in_mapping_key: Whether it is nested in a mapping's key type.
      allow_forward_references: Whether a string (forward reference) is accepted.

    Raises:
      TypeError: an unsupported annotation.
    """
    if isinstance(value_type, (str, typing.ForwardRef)):
        if allow_forward_references:
            return
        raise TypeError(f"Unresolved forward reference {value_type!r}")
    if value_type in (int, float, str, bytes, bool, None, _NoneType, dtypes.DType):
        return
    if value_type in (TensorBase, TensorShape) or is_composite_type(value_type):
        if in_mapping_key:
            raise TypeError(f"Mapping had a key {value_type.__name__!r} with type "
                            f"{type(value_type).__name__!r}")
    elif _is_tuple(value_type) or _is_union(value_type):
        args = typing.get_args(value_type)
        if len(args) == 2 and args[1] is Ellipsis and _is_tuple(value_type):
            validate_field_value_type(args[0], in_mapping_key, allow_forward_references)
        else:
            for arg in args:
                validate_field_value_type(arg, in_mapping_key, allow_forward_references)
    elif _is_mapping(value_type):
        key_type, item_type = typing.get_args(value_type)
        validate_field_value_type(key_type, True, allow_forward_references)
        validate_field_value_type(item_type, in_mapping_key, allow_forward_references)
    elif isinstance(value_type, type):
        raise TypeError(f"Unsupported type annotation {value_type.__name__!r}")
    else:
        raise TypeError(f"Unsupported type annotation {value_type!r}")


class ConversionContext(enum.Enum):
    """What is being converted: an ExtensionType's field, a Spec's field, a default."""
    VALUE = 1
    SPEC = 2
    DEFAULT = 3


def convert_fields(fields: Sequence, field_values: dict,
                   context: ConversionContext = ConversionContext.VALUE) -> None:
    """Checks and converts every field's value in ``field_values`` (in place).

    Args:
      fields: The ExtensionTypeFields.
      field_values: ``{name: value}`` with one entry per field.
      context: ``VALUE`` for an ExtensionType, ``SPEC`` for its Spec.

    Raises:
      ValueError: ``field_values`` lacks a field or has an unknown one.
      TypeError: a value does not have its field's type.
    """
    converted = {}
    if len(fields) != len(field_values):
        _report_field_mismatches(fields, field_values)
    for field in fields:
        if field.name not in field_values:
            _report_field_mismatches(fields, field_values)
        converted[field.name] = convert_value(field_values[field.name], field.value_type,
                                              (field.name,), context)
    field_values.update(converted)


def convert_value(value: Any, expected_type: Any, path: tuple,
                  context: ConversionContext = ConversionContext.VALUE) -> Any:
    """``value`` checked against and converted to ``expected_type``.

    Args:
      value: The value.
      expected_type: The field annotation.
      path: The field's name and indices (for messages).
      context: What is converted.

    Returns:
      The converted value.

    Raises:
      TypeError: ``value`` cannot be converted.
    """
    where = "".join(path)
    if expected_type is None:
        expected_type = _NoneType
    if expected_type is TensorBase:
        return _convert_tensor(value, where, context)
    if is_composite_type(expected_type):
        if context == ConversionContext.SPEC:
            if not (isinstance(value, TypeSpec) and isinstance(value.value_type, type)
                    and issubclass(value.value_type, expected_type)):
                raise TypeError(f"{where}: expected a TypeSpec for {expected_type.__name__!r}, "
                                f"got {type(value).__name__!r}")
            return value
        if not isinstance(value, expected_type):
            raise TypeError(f"{where}: expected {expected_type.__name__!r}, got "
                            f"{type(value).__name__!r}")
        return value
    if expected_type is TensorShape:
        try:
            return as_shape(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{where}: expected 'tf.TensorShape', got "
                            f"{type(value).__name__!r}") from e
    if expected_type is dtypes.DType:
        try:
            return dtypes.as_dtype(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{where}: expected 'tf.DType', got "
                            f"{type(value).__name__!r}") from e
    if expected_type in (int, float, bool, str, bytes, _NoneType):
        if not isinstance(value, expected_type):
            raise TypeError(f"{where}: expected {expected_type.__name__!r}, got "
                            f"{type(value).__name__!r}")
        return value
    if _is_tuple(expected_type):
        return _convert_tuple(value, expected_type, path, context)
    if _is_mapping(expected_type):
        if not isinstance(value, Mapping):
            raise TypeError(f"{where}: expected mapping, got {type(value).__name__!r}")
        key_type, item_type = typing.get_args(expected_type)
        return ImmutableDict([
            (convert_value(k, key_type, path + ("[<key>]",), context),
             convert_value(v, item_type, path + (f"[{k!r}]",), context))
            for k, v in value.items()])
    if _is_union(expected_type):
        for option in typing.get_args(expected_type):
            try:
                return convert_value(value, option, path, context)
            except TypeError:
                pass
        raise TypeError(f"{where}: expected {expected_type!r}, got {type(value).__name__!r}")
    raise TypeError(f"{where}: Unsupported type annotation {expected_type!r}")


def _convert_tensor(value: Any, where: str, context: ConversionContext) -> Any:
    if context == ConversionContext.SPEC:
        if not (isinstance(value, TypeSpec) and value.value_type is TensorBase
                or type(value).__name__ == "TensorSpec"):
            raise TypeError(f"{where}: expected a TensorSpec, got {type(value).__name__!r}")
        return value
    if not isinstance(value, TensorBase):
        if context == ConversionContext.DEFAULT:
            return value
        try:
            value = convert_to_tensor(value)
        except (ValueError, TypeError) as e:
            raise TypeError(f"{where}: expected a Tensor, got {type(value).__name__!r}") from e
    return value


def _convert_tuple(value: Any, expected_type: Any, path: tuple,
                   context: ConversionContext) -> tuple:
    where = "".join(path)
    if not isinstance(value, Sequence):
        raise TypeError(f"{where}: expected tuple, got {type(value).__name__!r}")
    element_types = typing.get_args(expected_type)
    if len(element_types) == 2 and element_types[1] is Ellipsis:
        return tuple(convert_value(v, element_types[0], path + (f"[{i}]",), context)
                     for i, v in enumerate(value))
    if len(value) != len(element_types):
        raise TypeError(f"{where}: expected tuple with length {len(element_types)}, got "
                        f"{type(value).__name__!r})")
    return tuple(convert_value(v, t, path + (f"[{i}]",), context)
                 for i, (v, t) in enumerate(zip(value, element_types)))


def _report_field_mismatches(fields: Sequence, field_values: dict) -> None:
    expected = {f.name for f in fields}
    actual = set(field_values)
    extra = actual - expected
    if extra:
        raise ValueError(f"Got unexpected fields: {extra}")
    missing = expected - actual
    if missing:
        raise ValueError(f"Missing required fields: {missing}")
