"""TensorFlow's abstract types (``tensorflow/python/types/core.py``; ``tf.types.experimental``
and ``tf.__internal__.types``): base classes that libraries subclass or test against.

flowgrad's graph and eager tensors are registered as ``Tensor``; an object of a class
deriving from ``Tensor`` (Keras 3 variables are) is a tensor to ``tf.is_tensor``, and
``tf.convert_to_tensor`` converts it with its ``__tf_tensor__`` method."""
from __future__ import annotations

import abc


class Tensor(abc.ABC):  # noqa: B024 - a marker base, as in TensorFlow
    """The base class of tensors (symbolic and eager) and tensor-like objects."""


class Symbol(Tensor):  # noqa: B024
    """A symbolic (graph) tensor."""


class Value(Tensor):  # noqa: B024
    """A tensor with a concrete value (eager)."""


class Callable(abc.ABC):  # noqa: B024
    """A callable TensorFlow function."""


class GenericFunction(Callable):  # noqa: B024
    """A ``tf.function``: traces into concrete functions per input signature."""


class ConcreteFunction(Callable):  # noqa: B024
    """One traced graph of a ``tf.function``."""


class TensorProtocol(abc.ABC):  # noqa: B024
    """Objects with ``__tf_tensor__(dtype=None, name=None)``, which converts them."""

    @classmethod
    def __subclasshook__(cls, other: type) -> bool:
        return True if hasattr(other, "__tf_tensor__") else NotImplemented


__all__ = ["Callable", "ConcreteFunction", "GenericFunction", "Symbol", "Tensor",
           "TensorProtocol", "Value"]
