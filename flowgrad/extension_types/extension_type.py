"""``tf.experimental.ExtensionType`` (TensorFlow's ``framework/extension_type.py``): user
classes of typed fields (tensors, shapes, dtypes, Python values, nested ExtensionTypes, tuples
and mappings of them) that TensorFlow's APIs accept as values: ``tf.function`` arguments and
results (their ``Spec`` is an ``input_signature`` entry), ``tf.nest`` with
``expand_composites=True``, and any dispatchable op once the user registers a dispatcher
(``tf.experimental.dispatch_for_api``).

A subclass gets from its metaclass, as in TensorFlow: a constructor built from the field
annotations (values checked and converted: a list for a ``tf.Tensor`` field becomes a
tensor), ``__validate__`` run after construction, immutability outside the constructor,
``__repr__``, ``__eq__``/``__ne__`` (a boolean tensor), and a nested ``Spec`` class (its
``tf.TypeSpec``, with ``from_value``, components and compatibility)."""
from __future__ import annotations

import abc
import inspect
import typing
from collections.abc import Mapping
from typing import Any

from flowgrad.extension_types import fields as field_lib
from flowgrad.extension_types.fields import ExtensionTypeField, ImmutableDict
from flowgrad.framework import composite_tensor
from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec
from flowgrad.framework.tensor import TensorBase
from flowgrad.runtime.function import TensorSpec

_IN_CONSTRUCTOR = "_tf_extension_type_in_constructor"
_MUTABLE_KERAS_PROPERTIES = ["_keras_mask"]
_NO_DEFAULT = ExtensionTypeField.NO_DEFAULT


def _create_object_from_type_and_dict(cls: type, obj_dict: Mapping) -> Any:
    """A new ``cls`` whose ``__dict__`` is ``obj_dict`` (no constructor call)."""
    value = object.__new__(cls)
    value.__dict__.update(obj_dict)
    return value


def _is_tensor_like(x: Any) -> bool:
    """A tensor or a composite tensor: an ExtensionType's component."""
    return isinstance(x, (TensorBase, CompositeTensor)) or field_lib.is_composite_type(type(x))


def _flatten(x: Any) -> list:
    """The leaves of nested tuples, lists and mappings (mappings in sorted key order)."""
    if isinstance(x, (tuple, list)):
        return [leaf for v in x for leaf in _flatten(v)]
    if isinstance(x, Mapping):
        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]
    return [x]


def _pack(structure: Any, leaves: typing.Iterator) -> Any:
    if isinstance(structure, (tuple, list)):
        return type(structure)(_pack(v, leaves) for v in structure)
    if isinstance(structure, Mapping):
        packed = {k: _pack(structure[k], leaves) for k in sorted(structure)}
        return type(structure)([(k, packed[k]) for k in structure])
    return next(leaves)


def _map(fn: typing.Callable, x: Any) -> Any:
    return _pack(x, iter([fn(leaf) for leaf in _flatten(x)]))


def _spec_of(value: Any) -> Any:
    """A field value with its tensors replaced by their specs."""
    if isinstance(value, TensorBase):
        return TensorSpec(value.shape, value.dtype.base_dtype)
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if field_lib.is_composite_type(type(value)):
        from flowgrad.data.structure import spec_of_value
        return spec_of_value(value)
    return value


# ======================================================================================
# The metaclass


class ExtensionTypeMetaclass(abc.ABCMeta):
    """Metaclass of ExtensionTypes: checks the field annotations and builds the constructor
    and the nested ``Spec`` of each user subclass."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        if not namespace.get("_tf_extension_type_do_not_transform_this_class", False):
            _check_field_annotations(cls)
            _add_extension_type_constructor(cls)
            _add_type_spec(cls)
        super().__init__(name, bases, namespace)


class ExtensionType(CompositeTensor, metaclass=ExtensionTypeMetaclass):
    """Base class of user-defined composite types (``tf.experimental.ExtensionType``).

    A subclass declares its fields with type annotations: ``int``, ``float``, ``str``,
    ``bytes``, ``bool``, ``None``, ``tf.Tensor``, ``tf.TensorShape``, ``tf.DType``, other
    ExtensionTypes (and RaggedTensor / SparseTensor), ``typing.Tuple``, ``typing.Mapping``,
    ``typing.Union`` and ``typing.Optional`` of those. It gets a constructor taking the
    fields (values converted to their types), ``__validate__`` after construction,
    immutability, ``__repr__``, ``__eq__`` and a nested ``Spec`` TypeSpec.

    Example:

    >>> class MaskedTensor(tf.experimental.ExtensionType):
    ...   values: tf.Tensor
    ...   mask: tf.Tensor
    >>> mt = MaskedTensor(values=[1, 2, 3], mask=[True, False, True])
    >>> int(tf.reduce_sum(mt.values))
    6
    >>> mt._type_spec.values
    TensorSpec(shape=(3,), dtype=tf.int32, name=None)

    Args:
      *args: The fields, in annotation order.
      **kwargs: The fields by name.
    """

    _tf_extension_type_do_not_transform_this_class = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if type(self) is ExtensionType:
            raise AssertionError("Cannot create an instance of ExtensionType because "
                                 "ExtensionType is an abstract base class.")

    _tf_extension_type_cached_fields = None

    @classmethod
    def _tf_extension_type_fields(cls) -> tuple:
        """The fields, in annotation order (forward references resolved where possible)."""
        if "_tf_extension_type_cached_fields" in cls.__dict__:
            return cls._tf_extension_type_cached_fields
        try:
            type_hints = typing.get_type_hints(cls)
            ok_to_cache = True
        except (NameError, AttributeError):
            type_hints = {}
            for base in reversed(cls.__mro__):
                type_hints.update(base.__dict__.get("__annotations__", {}))
            ok_to_cache = False
        fields = tuple(ExtensionTypeField(name, value_type, getattr(cls, name, _NO_DEFAULT))
                       for name, value_type in type_hints.items())
        if ok_to_cache:
            cls._tf_extension_type_cached_fields = fields
        return fields

    @classmethod
    def _tf_extension_type_has_field(cls, name: str) -> bool:
        return any(name == field.name for field in cls._tf_extension_type_fields())

    def _tf_extension_type_convert_fields(self) -> None:
        field_lib.convert_fields(self._tf_extension_type_fields(), self.__dict__)

    def __repr__(self) -> str:
        fields = ", ".join(f"{field.name}={getattr(self, field.name)!r}"
                           for field in self._tf_extension_type_fields())
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _MUTABLE_KERAS_PROPERTIES or (
                hasattr(self, _IN_CONSTRUCTOR) and self._tf_extension_type_has_field(name)):
            self.__dict__[name] = value
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 "constructor of ExtensionType.")

    def __delattr__(self, name: str) -> None:
        if name in _MUTABLE_KERAS_PROPERTIES or (
                hasattr(self, _IN_CONSTRUCTOR) and self._tf_extension_type_has_field(name)):
            del self.__dict__[name]
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 "constructor of ExtensionType.")

    def __getattr__(self, name: str) -> Any:
        if name in _MUTABLE_KERAS_PROPERTIES:
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __eq__(self, other: Any) -> Any:
        if type(self) is not type(other):
            return False
        if self._type_spec != other._type_spec:
            return False
        from flowgrad.nest import flatten
        from flowgrad.ops import array_ops, math_ops
        self_tensors = flatten(self, expand_composites=True)
        other_tensors = flatten(other, expand_composites=True)
        if len(self_tensors) != len(other_tensors):
            return False
        conditions = []
        for t1, t2 in zip(self_tensors, other_tensors):
            s1, s2 = array_ops.shape(t1), array_ops.shape(t2)
            same_shape = math_ops.reduce_all(math_ops.equal(s1, s2)) \
                if t1.shape.rank == t2.shape.rank else array_ops.constant(False)
            conditions.append(same_shape)
            if t1.shape.is_compatible_with(t2.shape):
                conditions.append(math_ops.reduce_all(math_ops.equal(t1, t2)))
            else:
                conditions.append(array_ops.constant(False))
        return math_ops.reduce_all(array_ops.stack(conditions))

    def __ne__(self, other: Any) -> Any:
        eq = self.__eq__(other)
        if isinstance(eq, TensorBase):
            from flowgrad.ops import math_ops
            return math_ops.logical_not(eq)
        return not eq

    __hash__ = None

    def __validate__(self) -> None:
        """Checks the fields after construction (override to add checks)."""

    _tf_extension_type_cached_type_spec = None

    @property
    def _type_spec(self) -> TypeSpec:
        if self._tf_extension_type_cached_type_spec is None:
            self.__dict__["_tf_extension_type_cached_type_spec"] = self.Spec.from_value(self)
        return self._tf_extension_type_cached_type_spec


def as_dict(value: ExtensionType) -> dict:
    """The fields of an ExtensionType as a dict (``tf.experimental.extension_type.as_dict``).

    Args:
      value: An ExtensionType instance.

    Returns:
      ``{field name: value}``.
    """
    return {field.name: getattr(value, field.name)
            for field in value._tf_extension_type_fields()}


# ======================================================================================
# The TypeSpecs


class ExtensionTypeSpec(TypeSpec):
    """Base class of the ``Spec`` of an ExtensionType (``tf.experimental.ExtensionTypeSpec``):
    the ExtensionType's fields with each tensor replaced by its spec."""

    def _serialize(self) -> tuple:
        return tuple((f.name, _change_nested_mappings_to(self.__dict__[f.name], dict))
                     for f in self._tf_extension_type_fields())

    @classmethod
    def _deserialize(cls, state: tuple) -> Any:
        state = _change_nested_mappings_to(state, ImmutableDict)
        return _create_object_from_type_and_dict(cls, state)

    def __reduce__(self) -> tuple:
        return _deserialize_for_reduce, (self.value_type, self._serialize())

    def _to_components(self, value: Any) -> tuple:
        values = tuple(value.__dict__[f.name] for f in self._tf_extension_type_fields())
        return tuple(x for x in _flatten(values) if _is_tensor_like(x))

    def _from_components(self, components: Any) -> Any:
        names = [f.name for f in self._tf_extension_type_fields()]
        spec_tuple = tuple(self.__dict__[n] for n in names)
        it = iter(components)
        flat = [next(it) if isinstance(x, TypeSpec) else x for x in _flatten(spec_tuple)]
        if list(it):
            raise ValueError("Cannot build an ExtensionType instance from components because "
                             "more components are provided than the number expected by the "
                             "type spec.")
        value_tuple = _pack(spec_tuple, iter(flat))
        return _create_object_from_type_and_dict(self.value_type, dict(zip(names, value_tuple)))

    @property
    def _component_specs(self) -> tuple:
        spec_tuple = tuple(self.__dict__[f.name] for f in self._tf_extension_type_fields())
        return tuple(x for x in _flatten(spec_tuple) if isinstance(x, TypeSpec))

    def _with_component_shapes(self, shape_fn: typing.Callable) -> Any:
        """This spec with each tensor field's shape replaced by ``shape_fn(shape)`` (what
        tf.data's batching does to an element's specs)."""
        def one(s: Any) -> Any:
            if isinstance(s, TensorSpec):
                return TensorSpec(shape_fn(s.shape), s.dtype)
            if hasattr(s, "_with_component_shapes"):
                return s._with_component_shapes(shape_fn)
            return s
        return _create_object_from_type_and_dict(
            type(self), {f.name: _map(one, self.__dict__[f.name])
                         for f in self._tf_extension_type_fields()})

    @classmethod
    def from_value(cls, value: Any) -> Any:
        """The spec of an ExtensionType instance.

        Args:
          value: An instance of the spec's ``value_type``.

        Returns:
          The spec.
        """
        cached = value.__dict__.get("_tf_extension_type_cached_type_spec")
        if cached is not None:
            return cached
        spec_fields = {f.name: _map(_spec_of, value.__dict__[f.name])
                       for f in value._tf_extension_type_fields()}
        return _create_object_from_type_and_dict(cls, spec_fields)

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, _IN_CONSTRUCTOR) and self._tf_extension_type_has_field(name):
            self.__dict__[name] = value
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 "constructor of ExtensionTypeSpec.")

    def __delattr__(self, name: str) -> None:
        if hasattr(self, _IN_CONSTRUCTOR) and self._tf_extension_type_has_field(name):
            del self.__dict__[name]
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 "constructor of ExtensionTypeSpec.")

    def __validate__(self) -> None:
        """Checks the fields after construction (override to add checks)."""

    @classmethod
    def _tf_extension_type_fields(cls) -> tuple:
        return cls.value_type._tf_extension_type_fields()

    @classmethod
    def _tf_extension_type_has_field(cls, name: str) -> bool:
        return any(name == field.name for field in cls._tf_extension_type_fields())

    def _tf_extension_type_convert_fields(self) -> None:
        field_lib.convert_fields(self._tf_extension_type_fields(), self.__dict__,
                                 field_lib.ConversionContext.SPEC)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self._serialize())
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._serialize() == other._serialize()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self), _hashable(self._serialize())))

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether ``spec_or_value`` (a spec or a value) fits this spec: same type, each
        tensor's shape compatible and dtype equal, the other fields equal.

        Args:
          spec_or_value: An ExtensionTypeSpec or an ExtensionType.

        Returns:
          A bool.
        """
        other = spec_or_value
        if not isinstance(other, TypeSpec):
            other = getattr(other, "_type_spec", None)
        if type(other) is not type(self):
            return False
        mine, theirs = _flatten(self._serialize()), _flatten(other._serialize())
        if len(mine) != len(theirs):
            return False
        for a, b in zip(mine, theirs):
            if isinstance(a, TypeSpec):
                if not (isinstance(b, TypeSpec) and a.is_compatible_with(b)):
                    return False
            elif a != b:
                return False
        return True

    def most_specific_common_supertype(self, others: list) -> Any:
        """The most specific spec describing this spec's values and ``others``'s (tensor
        shapes relaxed), or None.

        Args:
          others: Specs of the same ExtensionType.

        Returns:
          A spec, or None.
        """
        if any(type(o) is not type(self) for o in others):
            return None
        names = [f.name for f in self._tf_extension_type_fields()]
        merged = {}
        for name in names:
            mine = self.__dict__[name]
            leaves = _flatten(mine)
            other_leaves = [_flatten(o.__dict__[name]) for o in others]
            if any(len(ol) != len(leaves) for ol in other_leaves):
                return None
            out = []
            for i, leaf in enumerate(leaves):
                rest = [ol[i] for ol in other_leaves]
                if isinstance(leaf, TypeSpec):
                    common = leaf.most_specific_common_supertype(rest)
                    if common is None:
                        return None
                    if isinstance(common, TensorSpec):
                        common = TensorSpec(common.shape, common.dtype)
                    out.append(common)
                elif all(r == leaf for r in rest):
                    out.append(leaf)
                else:
                    return None
            merged[name] = _pack(mine, iter(out))
        return _create_object_from_type_and_dict(type(self), merged)


def _hashable(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return tuple(_hashable(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in x.items()))
    try:
        hash(x)
    except TypeError:
        return repr(x)
    return x


def _deserialize_for_reduce(value_type: type, serialization: tuple) -> Any:
    return value_type.Spec._deserialize(serialization)


def _change_nested_mappings_to(value: Any, new_type: type) -> Any:
    if isinstance(value, (dict, ImmutableDict)):
        return new_type([(k, _change_nested_mappings_to(v, new_type)) for k, v in value.items()])
    if isinstance(value, tuple):
        return tuple(_change_nested_mappings_to(v, new_type) for v in value)
    return value


# ======================================================================================
# Batching


def _batch_spec(spec: Any, batch_size: int | None) -> Any:
    if isinstance(spec, TensorSpec):
        return TensorSpec([batch_size] + (spec.shape.as_list() if spec.shape.rank is not None
                                          else []), spec.dtype)
    if hasattr(spec, "_batch"):
        return spec._batch(batch_size)
    raise ValueError(f"Unable to batch {spec!r}")


def _unbatch_spec(spec: Any) -> Any:
    if isinstance(spec, TensorSpec):
        if spec.shape.rank == 0:
            raise ValueError(f"Unbatching a tensor is only supported for rank >= 1: {spec!r}")
        return TensorSpec(spec.shape[1:], spec.dtype)
    if hasattr(spec, "_unbatch"):
        return spec._unbatch()
    raise ValueError(f"Unable to unbatch {spec!r}")


class ExtensionTypeBatchEncoder:
    """How a BatchableExtensionType's spec is batched and unbatched
    (``tf.experimental.ExtensionTypeBatchEncoder``): every field's spec is batched in turn, so
    each tensor field gains (or loses) an outer batch dimension."""

    def batch(self, spec: Any, batch_size: int | None) -> Any:
        """The spec of a batch of ``batch_size`` values of ``spec``.

        Args:
          spec: A BatchableExtensionType's spec.
          batch_size: The batch size (None: unknown).

        Returns:
          The batched spec.
        """
        fields = {f.name: _map(lambda s: _batch_spec(s, batch_size) if isinstance(s, TypeSpec)
                               else s, spec.__dict__[f.name])
                  for f in spec._tf_extension_type_fields()}
        return _create_object_from_type_and_dict(type(spec), fields)

    def unbatch(self, spec: Any) -> Any:
        """The spec of one value of a batch described by ``spec``.

        Args:
          spec: A batched BatchableExtensionType's spec.

        Returns:
          The unbatched spec.
        """
        fields = {f.name: _map(lambda s: _unbatch_spec(s) if isinstance(s, TypeSpec) else s,
                               spec.__dict__[f.name])
                  for f in spec._tf_extension_type_fields()}
        return _create_object_from_type_and_dict(type(spec), fields)

    def encode(self, spec: Any, value: Any, minimum_rank: int = 0) -> list:
        """The components of ``value`` (``spec``'s value).

        Args:
          spec: The value's spec.
          value: A BatchableExtensionType value.
          minimum_rank: Accepted for TensorFlow's signature.

        Returns:
          The component tensors.
        """
        del minimum_rank
        return list(spec._to_components(value))

    def decode(self, spec: Any, encoded_value: list) -> Any:
        """The value of ``spec`` rebuilt from :meth:`encode`'s components.

        Args:
          spec: The value's spec.
          encoded_value: The components.

        Returns:
          The value.
        """
        return spec._from_components(encoded_value)

    def encoding_specs(self, spec: Any) -> tuple:
        """The specs of :meth:`encode`'s components.

        Args:
          spec: A BatchableExtensionType's spec.

        Returns:
          The component specs.
        """
        return spec._component_specs


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The spec of a BatchableExtensionType: batchable with its ``__batch_encoder__``."""

    __batch_encoder__ = ExtensionTypeBatchEncoder()

    def _batch(self, batch_size: int | None) -> Any:
        return self.__batch_encoder__.batch(self, batch_size)

    def _unbatch(self) -> Any:
        return self.__batch_encoder__.unbatch(self)


class BatchableExtensionType(ExtensionType):
    """An ExtensionType whose values can be batched and unbatched
    (``tf.experimental.BatchableExtensionType``): each tensor field gains an outer batch
    dimension (customized with a ``__batch_encoder__``).

    Args:
      *args: The fields, in annotation order.
      **kwargs: The fields by name.
    """

    _tf_extension_type_do_not_transform_this_class = True


# ======================================================================================
# Building a subclass


def _check_field_annotations(cls: type) -> None:
    annotations = cls.__dict__.get("__annotations__", {})
    for name, value in cls.__dict__.items():
        if name == "Spec":
            if not isinstance(value, type):
                raise ValueError(f"{cls.__qualname__}.Spec must be a nested class; got {value}.")
            if value.__bases__ not in ((TypeSpec,), (object,)):
                raise ValueError(f"{cls.__qualname__}.Spec must be directly subclassed from "
                                 "tf.TypeSpec.")
        elif ExtensionTypeField.is_reserved_name(name):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field "
                             f"'{name}' is reserved.")
    for name in annotations:
        if ExtensionTypeField.is_reserved_name(name):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field "
                             f"'{name}' is reserved.")
    for key, value in cls.__dict__.items():
        if not (key in annotations or callable(value) or key.startswith("_abc_")
                or key == "_tf_extension_type_fields"
                or key.startswith("__") and key.endswith("__")
                or isinstance(value, (property, classmethod, staticmethod))):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field "
                             f"{key} is missing a type annotation.")


def _add_extension_type_constructor(cls: type) -> None:
    if "__init__" in cls.__dict__:
        _wrap_user_constructor(cls)
    else:
        _build_extension_type_constructor(cls)


def _wrap_user_constructor(cls: type) -> None:
    user_constructor = cls.__init__

    def wrapped_init(self: Any, *args: Any, **kwargs: Any) -> None:
        self.__dict__[_IN_CONSTRUCTOR] = True
        user_constructor(self, *args, **kwargs)
        del self.__dict__[_IN_CONSTRUCTOR]
        self._tf_extension_type_convert_fields()
        self.__validate__()

    wrapped_init.__wrapped__ = user_constructor
    wrapped_init.__doc__ = user_constructor.__doc__
    cls.__init__ = wrapped_init


def _build_extension_type_constructor(cls: type) -> None:
    fields = cls._tf_extension_type_fields()
    got_default = False
    keyword_only_start = len(fields)
    for i, field in enumerate(fields):
        if got_default:
            if field.default is _NO_DEFAULT:
                keyword_only_start = i
                break
        elif field.default is not _NO_DEFAULT:
            got_default = True
    params = []
    for i, field in enumerate(fields):
        kind = (inspect.Parameter.POSITIONAL_OR_KEYWORD if i < keyword_only_start
                else inspect.Parameter.KEYWORD_ONLY)
        default = inspect.Parameter.empty if field.default is _NO_DEFAULT else field.default
        params.append(inspect.Parameter(field.name, kind, default=default,
                                        annotation=field.value_type))
    signature = inspect.Signature(params, return_annotation=cls.__name__)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        self.__dict__.update(bound.arguments)
        self._tf_extension_type_convert_fields()
        self.__validate__()

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params,
        return_annotation=cls)
    cls.__init__ = __init__


def _build_spec_constructor(cls: type) -> None:
    params = [inspect.Parameter(field.name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
              for field in cls._tf_extension_type_fields()]
    signature = inspect.Signature(params, return_annotation=cls.__name__)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        self.__dict__.update(bound.arguments)
        self._tf_extension_type_convert_fields()
        self.__validate__()

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params,
        return_annotation=cls)
    cls.__init__ = __init__


def _add_type_spec(cls: type) -> None:
    spec_name = cls.__name__ + ".Spec"
    spec_qualname = cls.__qualname__ + ".Spec"
    spec_dict = {"value_type": cls, "__module__": cls.__module__}
    user_spec = cls.__dict__.get("Spec", None)
    if user_spec is not None:
        for name, value in user_spec.__dict__.items():
            if ExtensionTypeField.is_reserved_name(name):
                raise ValueError(f"TypeSpec {spec_qualname} uses reserved name '{name}'.")
            if cls._tf_extension_type_has_field(name):
                raise ValueError(f"TypeSpec {spec_qualname} defines a variable '{name}' which "
                                 f"shadows a field in {cls.__qualname__}")
            if name in ("__module__", "__dict__", "__weakref__"):
                continue
            spec_dict[name] = value
    if issubclass(cls, BatchableExtensionType):
        base = BatchableExtensionTypeSpec
        if hasattr(cls, "__batch_encoder__") and "__batch_encoder__" not in spec_dict:
            spec_dict["__batch_encoder__"] = cls.__batch_encoder__
    else:
        base = ExtensionTypeSpec
        if hasattr(cls, "__batch_encoder__") or "__batch_encoder__" in spec_dict:
            raise ValueError("__batch_encoder__ should only be defined for "
                             "BatchableExtensionType classes.")
    spec = type(spec_name, (base,), spec_dict)
    spec.__qualname__ = spec_qualname
    type.__setattr__(cls, "Spec", spec)
    if "__init__" in spec.__dict__:
        _wrap_user_constructor(spec)
    else:
        _build_spec_constructor(spec)
    if "__name__" in cls.__dict__:
        composite_tensor.register(cls.__dict__["__name__"] + ".Spec")(spec)


__all__ = ["BatchableExtensionType", "ExtensionType", "ExtensionTypeBatchEncoder",
           "ExtensionTypeSpec", "as_dict"]
