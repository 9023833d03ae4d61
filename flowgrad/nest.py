"""``tf.nest``: flattening and rebuilding nested structures of lists, tuples and dicts.

As in TensorFlow, dicts flatten in sorted key order, namedtuples keep their type,
and everything that is not a list, tuple or dict (None included) is a leaf."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def is_nested(structure: Any) -> bool:
    """True for lists, tuples (namedtuples included) and dicts.

    Args:
        structure: Any object.
    """
    return isinstance(structure, (list, tuple, dict))


def _children(structure: Any) -> list:
    if isinstance(structure, dict):
        return [structure[k] for k in _sorted_keys(structure)]
    return list(structure)


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys, got keys %r"
                        % (list(d),)) from None


def _composite_parts(x: Any) -> list | None:
    """With ``expand_composites``: a composite tensor's components (its ``_type_spec``'s
    ``_to_components``: ExtensionTypes) or a composite TypeSpec's component specs; else
    None."""
    spec = getattr(type(x), "_type_spec", None)
    if isinstance(spec, property):
        spec = x._type_spec
        if hasattr(spec, "_to_components") and isinstance(
                getattr(type(spec), "_component_specs", None), property):
            return list(spec._to_components(x))
        return None
    if isinstance(getattr(type(x), "_component_specs", None), property) and hasattr(
            x, "_from_components"):
        return list(x._component_specs)
    return None


def _leaves(structure: Any, expand: bool = False) -> Iterator[Any]:
    if is_nested(structure):
        for child in _children(structure):
            yield from _leaves(child, expand)
        return
    parts = _composite_parts(structure) if expand else None
    if parts is None:
        yield structure
    else:
        for part in parts:
            yield from _leaves(part, expand)


def flatten(structure: Any, expand_composites: bool = False) -> list:
    """The leaves of ``structure`` in order (a leaf alone gives a one-element list).

    Args:
        structure: A nested structure: lists, tuples, namedtuples, dicts and attrs classes of
            leaves.
        expand_composites: Whether composite tensors (ExtensionTypes: CompositeTensors whose
            TypeSpec lists components) and their specs are expanded into their components
            (flowgrad's SparseTensor and RaggedTensor stay leaves).
    """
    if not expand_composites and not is_nested(structure):
        return [structure]
    return list(_leaves(structure, expand_composites))


def _rebuild(structure: Any, children: list) -> Any:
    if isinstance(structure, dict):
        keyed = dict(zip(_sorted_keys(structure), children))
        return type(structure)((k, keyed[k]) for k in structure)
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*children)
    return type(structure)(children)


def _pack(structure: Any, flat: list, start: int, expand: bool = False) -> tuple[Any, int]:
    if not is_nested(structure):
        parts = _composite_parts(structure) if expand else None
        if parts is None:
            return flat[start], start + 1
        children = []
        for part in parts:
            packed, start = _pack(part, flat, start, expand)
            children.append(packed)
        spec = structure if hasattr(structure, "_from_components") else structure._type_spec
        return spec._from_components(children), start
    children = []
    for child in _children(structure):
        packed, start = _pack(child, flat, start, expand)
        children.append(packed)
    return _rebuild(structure, children), start


def pack_sequence_as(structure: Any, flat_sequence: list, expand_composites: bool = False) -> Any:
    """``structure`` with its leaves replaced, in order, by ``flat_sequence``.

    Args:
        structure: A nested structure: lists, tuples, namedtuples, dicts and attrs classes of
            leaves.
        flat_sequence: The leaves, in ``flatten``'s order.
        expand_composites: Whether composite tensors (ExtensionTypes: CompositeTensors whose
            TypeSpec lists components) and their specs are expanded into their components
            (flowgrad's SparseTensor and RaggedTensor stay leaves).
    """
    flat = list(flat_sequence)
    n = len(flatten(structure, expand_composites))
    if len(flat) != n:
        raise ValueError("Could not pack sequence. Structure had %d atoms, but flat_sequence "
                         "had %d items. Structure: %r" % (n, len(flat), structure))
    return _pack(structure, flat, 0, expand_composites)[0]


def map_structure(func: Callable, *structures: Any, check_types: bool = True,
                  expand_composites: bool = False) -> Any:
    """Applies ``func`` to corresponding leaves of structures of the same shape.

    Args:
        func: A function of one leaf from each structure.
        *structures: Structures of the same shape.
        check_types: Accepted for TensorFlow's signature (sequence types are not compared).
        expand_composites: Whether composite tensors (ExtensionTypes) are expanded into
            their component tensors (``func`` then sees the components).
    """
    del check_types
    if not structures:
        raise ValueError("Must provide at least one structure")
    flats = [flatten(s, expand_composites) for s in structures]
    for s, f in zip(structures[1:], flats[1:]):
        if len(f) != len(flats[0]):
            raise ValueError("The two structures don't have the same number of elements: "
                             "%r and %r" % (structures[0], s))
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)],
                            expand_composites)


__all__ = ["is_nested", "flatten", "pack_sequence_as", "map_structure", "assert_same_structure"]


def __dir__() -> list:
    """TensorFlow's tf.nest names; the typing helpers it imports stay hidden."""
    return sorted(__all__)


def _kind(x: Any) -> Any:
    """The sequence type ``check_types`` compares (lists and tuples differ; namedtuples by
    their class; dicts by their keys)."""
    return type(x)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    """Raises unless ``nest1`` and ``nest2`` nest the same way, as
    ``tf.nest.assert_same_structure`` (leaves may differ; a string is a leaf).

    Args:
        nest1: A nested structure.
        nest2: Another.
        check_types: Whether the sequence types (list, tuple, namedtuple class) must match
            too.
        expand_composites: Accepted (composite tensors are leaves).

    Raises:
        ValueError: The structures differ in nesting, length or dict keys.
        TypeError: With ``check_types``, a sequence type differs.
    """
    del expand_composites
    if is_nested(nest1) != is_nested(nest2):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         "First structure: %s\n\nSecond structure: %s" % (nest1, nest2))
    if not is_nested(nest1):
        return
    if check_types and _kind(nest1) is not _kind(nest2):
        raise TypeError("The two structures don't have the same sequence type. Input "
                        "structure has type %s, while shallow structure has type %s."
                        % (type(nest1), type(nest2)))
    if isinstance(nest1, dict) and isinstance(nest2, dict) and \
            _sorted_keys(nest1) != _sorted_keys(nest2):
        raise ValueError("The two dictionaries don't have the same set of keys. First "
                         "structure has keys %s, while second structure has keys %s."
                         % (list(nest1), list(nest2)))
    first, second = _children(nest1), _children(nest2)
    if len(first) != len(second):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         "First structure: %s\n\nSecond structure: %s" % (nest1, nest2))
    for a, b in zip(first, second):
        assert_same_structure(a, b, check_types)
