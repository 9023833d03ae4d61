"""``keras.constraints``: projections applied to a weight after each optimizer update."""
from __future__ import annotations

from typing import Any

from flowgrad.ops import math_ops


class Constraint:
    """A callable ``weight -> projected weight``."""

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict:
        return {}


class NonNeg(Constraint):
    """Clips negative entries to zero."""

    def __call__(self, w: Any) -> Any:
        return math_ops.multiply(w, math_ops.cast(math_ops.greater_equal(w, 0.0), w.dtype))


class MaxNorm(Constraint):
    """Rescales slices along ``axis`` whose L2 norm exceeds ``max_value``.

    Args:
        max_value: The largest norm allowed.
        axis: The axis (or axes) the norm is taken along.
    """

    def __init__(self, max_value: float = 2.0, axis: int = 0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        norms = math_ops.sqrt(math_ops.reduce_sum(math_ops.square(w), self.axis, keepdims=True))
        desired = math_ops.clip_by_value(norms, 0.0, self.max_value)
        return w * (desired / (1e-7 + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class UnitNorm(Constraint):
    """Rescales slices along ``axis`` to unit L2 norm.

    Args:
        axis: The axis (or axes) the norm is taken along.
    """

    def __init__(self, axis: int = 0):
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        norms = math_ops.sqrt(math_ops.reduce_sum(math_ops.square(w), self.axis, keepdims=True))
        return w / (1e-7 + norms)

    def get_config(self) -> dict:
        return {"axis": self.axis}


non_neg = NonNeg
max_norm = MaxNorm
unit_norm = UnitNorm


def get(identifier: Any) -> Any:
    """A constraint from a name ('non_neg', 'max_norm', 'unit_norm'), a callable or None.

    Args:
        identifier: A name, a config dict, a callable (or instance), or None.
    """
    if identifier is None or callable(identifier):
        return identifier
    by_name = {"non_neg": NonNeg, "max_norm": MaxNorm, "unit_norm": UnitNorm,
               "NonNeg": NonNeg, "MaxNorm": MaxNorm, "UnitNorm": UnitNorm}
    if isinstance(identifier, str) and identifier in by_name:
        return by_name[identifier]()
    raise ValueError("Could not interpret constraint identifier: %r" % (identifier,))


__all__ = ["Constraint", "NonNeg", "MaxNorm", "UnitNorm", "non_neg", "max_norm", "unit_norm",
           "get"]
