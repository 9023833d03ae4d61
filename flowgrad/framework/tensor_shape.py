"""Static tensor shapes with unknown dimensions (``TensorShape``, ``Dimension``)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.errors import ShapeRuleError, dims_text

_V2 = [True]


def enable_v2_tensorshape() -> None:
    """Indexing a TensorShape gives ints (TF2 behaviour)."""
    _V2[0] = True


def disable_v2_tensorshape() -> None:
    """Indexing a TensorShape gives Dimension objects (TF1 behaviour)."""
    _V2[0] = False


class Dimension:
    """One dimension of a TF1 shape; ``value`` is an int or None.

    Args:
        value: An int, or None for an unknown size.
    """

    __slots__ = ("value",)

    def __init__(self, value: Any):
        if isinstance(value, Dimension):
            value = value.value
        self.value = None if value is None else int(value)

    def __repr__(self) -> str:
        return "Dimension(%r)" % self.value

    def __str__(self) -> str:
        return "?" if self.value is None else str(self.value)

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> Any:
        other = other.value if isinstance(other, Dimension) else other
        if self.value is None or other is None:
            return None
        return self.value == other

    def __ne__(self, other: object) -> Any:
        eq = self.__eq__(other)
        return None if eq is None else not eq

    def __hash__(self) -> int:
        return hash(self.value)

    def _op(self, other: Any, f) -> Dimension:
        other = other.value if isinstance(other, Dimension) else other
        return Dimension(None if self.value is None or other is None else f(self.value, other))

    def __add__(self, o): return self._op(o, lambda a, b: a + b)
    def __radd__(self, o): return self._op(o, lambda a, b: b + a)
    def __sub__(self, o): return self._op(o, lambda a, b: a - b)
    def __mul__(self, o): return self._op(o, lambda a, b: a * b)
    def __rmul__(self, o): return self._op(o, lambda a, b: b * a)
    def __floordiv__(self, o): return self._op(o, lambda a, b: a // b)

    def is_compatible_with(self, other: Any) -> bool:
        """Whether ``other`` (a Dimension, int or None) could be the same size."""
        other = Dimension(other)
        return self.value is None or other.value is None or self.value == other.value

    def assert_is_compatible_with(self, other: Any) -> None:
        """Raises ValueError unless :meth:`is_compatible_with` ``other``.

        Args:
            other: A Dimension, int or None.

        Raises:
            ValueError: the sizes differ.
        """
        if not self.is_compatible_with(other):
            raise ValueError("Dimensions %s and %s are not compatible" % (self, other))

    def merge_with(self, other: Any) -> Dimension:
        """The known one of two compatible dimensions.

        Args:
            other: A Dimension, int or None.

        Raises:
            ValueError: the sizes differ.
        """
        other = Dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(self.value if self.value is not None else other.value)

    def _cmp(self, other: Any, f) -> Any:
        other = other.value if isinstance(other, Dimension) else other
        return None if self.value is None or other is None else f(self.value, other)

    def __lt__(self, o): return self._cmp(o, lambda a, b: a < b)
    def __le__(self, o): return self._cmp(o, lambda a, b: a <= b)
    def __gt__(self, o): return self._cmp(o, lambda a, b: a > b)
    def __ge__(self, o): return self._cmp(o, lambda a, b: a >= b)


def dimension_value(d: Any) -> int | None:
    """The int (or None) of a Dimension or int."""
    return d.value if isinstance(d, Dimension) else d


class TensorShape:
    """A possibly partial static shape: ``dims`` is None for unknown rank.

    Args:
        dims: A list of ints or None (unknown sizes); None for an unknown rank; or a
            ``TensorShapeProto`` (size -1 as unknown), as TensorFlow accepts.
    """

    __slots__ = ("_dims",)

    def __init__(self, dims: Any = None):
        if dims is None:
            self._dims = None
        elif hasattr(dims, "unknown_rank") and hasattr(dims, "dim"):     # a TensorShapeProto
            self._dims = None if dims.unknown_rank else tuple(
                None if d.size < 0 else int(d.size) for d in dims.dim)
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif isinstance(dims, (int, Dimension)):
            self._dims = (dimension_value(dims),)
        else:
            self._dims = tuple(None if d is None else _as_int(d) for d in dims)

    @property
    def dims(self) -> list | None:
        if self._dims is None:
            return None
        return [Dimension(d) for d in self._dims]     # TensorFlow 2's too (as_dimension)

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def as_tuple(self) -> tuple | None:
        return self._dims

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def as_proto(self) -> Any:
        """This shape as TensorFlow's ``TensorShapeProto`` (unknown sizes as -1, an unknown
        rank as ``unknown_rank``).

        Returns:
            The protocol message.

        Raises:
            ImportError: TensorFlow's protos (the ``tf-formats`` extra) are not installed.
        """
        try:
            from tensorboard.compat.proto import tensor_shape_pb2
        except ImportError as e:
            raise ImportError("TensorShape.as_proto needs TensorFlow's protos: pip install "
                              "flowgrad[tf-formats]") from e
        proto = tensor_shape_pb2.TensorShapeProto()
        if self._dims is None:
            proto.unknown_rank = True
        else:
            for d in self._dims:
                proto.dim.add(size=-1 if d is None else d)
        return proto

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other: Any) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are not compatible" % (self, other))
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def most_specific_compatible_shape(self, other: Any) -> TensorShape:
        """The most specific shape compatible with both: the dimensions they agree on, None
        elsewhere (an unknown rank where the ranks differ)."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are incompatible" % (self, other))

    def assert_has_rank(self, rank: int) -> None:
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError("Shape %s must have rank %d" % (self, rank))

    def with_rank(self, rank: int) -> TensorShape:
        if self._dims is None:
            return unknown_shape(rank)
        self.assert_has_rank(rank)
        return self

    def with_rank_at_least(self, rank: int) -> TensorShape:
        """This shape, if its rank is unknown or at least ``rank``.

        Args:
          rank: the least rank.

        Returns:
          ``self``.

        Raises:
          ValueError: the shape's rank is known and below ``rank``.
        """
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError("Shape %s must have rank at least %d" % (self, rank))
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        """This shape, if its rank is unknown or at most ``rank``.

        Args:
          rank: the greatest rank.

        Returns:
          ``self``.

        Raises:
          ValueError: the shape's rank is known and above ``rank``.
        """
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError("Shape %s must have rank at most %d" % (self, rank))
        return self

    def concatenate(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(list(self._dims) if _V2[0] else self.dims)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            if self._dims is None:
                return TensorShape(None)
            return TensorShape(self._dims[key])
        if self._dims is None:
            return None if _V2[0] else Dimension(None)
        d = self._dims[key]
        return d if _V2[0] else Dimension(d)

    def __bool__(self) -> bool:
        return self._dims is not None

    def __eq__(self, other: object) -> bool:
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._dims)

    def __add__(self, other: Any) -> TensorShape:
        return self.concatenate(other)

    def __radd__(self, other: Any) -> TensorShape:
        """``[1] + shape`` (a list or tuple first): the concatenated TensorShape, as TF's."""
        return as_shape(other).concatenate(self)

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        if _V2[0]:
            return "TensorShape(%s)" % list(self._dims)
        return "TensorShape([%s])" % ", ".join("Dimension(%r)" % d for d in self._dims)

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        unknown = "None" if _V2[0] else "?"
        items = ["%s" % (unknown if d is None else d) for d in self._dims]
        if len(items) == 1:
            return "(%s,)" % items[0]
        return "(%s)" % ", ".join(items)


def _as_int(d: Any) -> int | None:
    if isinstance(d, Dimension):
        return d.value
    if hasattr(d, "__index__"):
        v = d.__index__()
        if v < -1:
            raise ValueError("Dimension %d must be >= 0" % v)
        return None if v == -1 else v
    raise TypeError("Dimension value must be an integer or None, got %r" % (d,))


def as_shape(shape: Any) -> TensorShape:
    """Converts a list, tuple, int or TensorShape to a TensorShape.

    Args:
        shape: A TensorShape, or something ``TensorShape`` takes.
    """
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank: int | None = None) -> TensorShape:
    """A shape of unknown rank, or of known rank with unknown dimensions."""
    return TensorShape(None if rank is None else [None] * rank)


def scalar() -> TensorShape:
    return TensorShape(())


def broadcast_shapes(a: TensorShape, b: TensorShape, what: str = "") -> TensorShape:
    """The static NumPy broadcast of two shapes; ValueError if incompatible.

    Args:
        a: A TensorShape.
        b: A TensorShape.
        what: What is broadcast, for the error message.
    """
    if a._dims is None or b._dims is None:
        return TensorShape(None)
    x, y = a._dims, b._dims
    if len(x) < len(y):
        x, y = y, x
    y = (1,) * (len(x) - len(y)) + y
    out = []
    for p, q in zip(x, y):
        if p == 1:
            out.append(q)
        elif q == 1 or q == p:
            out.append(p)
        elif p is None:
            out.append(q)
        elif q is None:
            out.append(p)
        else:
            raise ShapeRuleError(
                "%sDimensions must be equal, but are %d and %d for shapes %s and %s."
                % (what, p, q, a, b),
                "Incompatible shapes: %s vs. %s" % (dims_text(a._dims), dims_text(b._dims)))
    return TensorShape(out)
