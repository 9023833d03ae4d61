"""Merge layers: Concatenate, Add, Subtract, Multiply, Average, Maximum, Minimum."""
from __future__ import annotations

from functools import reduce
from typing import Any

from flowgrad.legacy_keras.layers.base import Layer
from flowgrad.ops import array_ops, math_ops


class _Merge(Layer):
    """A layer combining a list of same-shaped (or broadcastable) inputs elementwise."""

    _op: Any = None

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             "input_shape=%s (not a list of shapes)" % (input_shape,))
        if len(input_shape) < 1:
            raise ValueError("A merge layer should be called on a list of at least 1 input. "
                             "Got %d inputs." % len(input_shape))
        ranks = {len(s) for s in input_shape}
        for s in input_shape[1:]:
            for a, b in zip(reversed(s), reversed(input_shape[0])):
                if a is not None and b is not None and a != b and 1 not in (a, b):
                    raise ValueError("Inputs have incompatible shapes. Received shapes %s and %s"
                                     % (tuple(input_shape[0]), tuple(s)))
        if len(ranks) > 1:
            raise ValueError("Layer %s expects inputs of the same rank; received shapes %s"
                             % (self.name, [tuple(s) for s in input_shape]))

    def call(self, inputs: Any) -> Any:
        return reduce(type(self)._op, inputs)


class Add(_Merge):
    """The elementwise sum of its inputs.

    Args:
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(math_ops.add)


class Subtract(_Merge):
    """``inputs[0] - inputs[1]`` (exactly two inputs).

    Args:
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(math_ops.subtract)

    def build(self, input_shape: Any) -> None:
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             "Received: input_shape=%s" % (input_shape,))


class Multiply(_Merge):
    """The elementwise product of its inputs.

    Args:
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(math_ops.multiply)


class Maximum(_Merge):
    """The elementwise maximum of its inputs.

    Args:
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(math_ops.maximum)


class Minimum(_Merge):
    """The elementwise minimum of its inputs.

    Args:
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(math_ops.minimum)


class Average(_Merge):
    """The elementwise mean of its inputs.

    Args:
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def call(self, inputs: Any) -> Any:
        return reduce(math_ops.add, inputs) / float(len(inputs))


class Concatenate(_Merge):
    """Concatenates its inputs along ``axis`` (other dimensions must match).

    Args:
        axis: The axis to concatenate along.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, axis: int = -1, **kwargs: Any):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 "
                             "input. Received: input_shape=%s" % (input_shape,))
        first = input_shape[0]
        for s in input_shape[1:]:
            if len(s) != len(first):
                raise ValueError("A `Concatenate` layer requires inputs with matching shapes "
                                 "except for the concatenation axis. Received: input_shape=%s"
                                 % ([tuple(x) for x in input_shape],))
            axis = self.axis % len(first)
            for i, (a, b) in enumerate(zip(first, s)):
                if i != axis and a is not None and b is not None and a != b:
                    raise ValueError("A `Concatenate` layer requires inputs with matching shapes "
                                     "except for the concatenation axis. Received: "
                                     "input_shape=%s" % ([tuple(x) for x in input_shape],))

    def call(self, inputs: Any) -> Any:
        return array_ops.concat(list(inputs), self.axis)


def add(inputs: list, **kwargs: Any) -> Any:
    """Functional form of ``Add``.

    Args:
        inputs: The tensors to add (a list of at least two).
        **kwargs: The layer's arguments.

    Returns:
        Their elementwise sum.
    """
    return Add(**kwargs)(inputs)


def concatenate(inputs: list, axis: int = -1, **kwargs: Any) -> Any:
    """Functional form of ``Concatenate``.

    Args:
        inputs: The tensors to concatenate (a list).
        axis: The axis to concatenate along.
        **kwargs: The layer's arguments.

    Returns:
        The concatenation.
    """
    return Concatenate(axis=axis, **kwargs)(inputs)


__all__ = ["Add", "Subtract", "Multiply", "Maximum", "Minimum", "Average", "Concatenate",
           "add", "concatenate"]
