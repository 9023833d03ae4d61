"""``keras.regularizers``: weight penalties added to a model's loss (L1, L2, L1L2)."""
from __future__ import annotations

from typing import Any

from flowgrad.ops.math_ops import abs as abs_, reduce_sum, square


class Regularizer:
    """A callable ``weight -> scalar penalty``."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    def get_config(self) -> dict:
        return {}


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x**2)``.

    Args:
        l1: The L1 factor.
        l2: The L2 factor.
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0):
        self.l1 = float(l1)
        self.l2 = float(l2)

    def __call__(self, x: Any) -> Any:
        penalty: Any = 0.0
        if self.l1:
            penalty = penalty + self.l1 * reduce_sum(abs_(x))
        if self.l2:
            penalty = penalty + self.l2 * reduce_sum(square(x))
        return penalty

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """``l1 * sum(|x|)`` (default 0.01).

    Args:
        l1: The L1 factor.
    """

    def __init__(self, l1: float = 0.01):
        super().__init__(l1=l1)


class L2(L1L2):
    """``l2 * sum(x**2)`` (default 0.01).

    Args:
        l2: The L2 factor.
    """

    def __init__(self, l2: float = 0.01):
        super().__init__(l2=l2)


l1 = L1
l2 = L2
l1_l2 = L1L2


def get(identifier: Any) -> Any:
    """A regularizer from a name ('l1', 'l2', 'l1_l2'), a callable or None.

    Args:
        identifier: A name, a config dict, a callable (or instance), or None.
    """
    if identifier is None or callable(identifier):
        return identifier
    by_name = {"l1": L1, "l2": L2, "l1_l2": L1L2, "L1": L1, "L2": L2, "L1L2": L1L2}
    if isinstance(identifier, str) and identifier in by_name:
        return by_name[identifier]()
    raise ValueError("Could not interpret regularizer identifier: %r" % (identifier,))


__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get"]
