"""KL divergences between distributions: ``RegisterKL`` and ``kl_divergence``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework.graph import name_scope

_DIVERGENCES: dict = {}


def _registered_kl(type_a: type, type_b: type) -> Callable | None:
    """The function registered for the closest pair of base classes (MRO order)."""
    best, best_distance = None, None
    for i, a in enumerate(type_a.__mro__):
        for j, b in enumerate(type_b.__mro__):
            fn = _DIVERGENCES.get((a, b))
            if fn is not None and (best_distance is None or i + j < best_distance):
                best, best_distance = fn, i + j
    return best


def kl_divergence(distribution_a: Any, distribution_b: Any, allow_nan_stats: bool = True,
                  name: str | None = None) -> Any:
    """KL(distribution_a || distribution_b), batched; NotImplementedError if no formula is
    registered for the two types.

    Args:
        distribution_a: The first distribution.
        distribution_b: The second distribution.
        allow_nan_stats: Whether a NaN result is allowed (else it raises).
        name: A name for the operation (optional).

    Returns:
        The batched divergence, a tensor of the distributions' batch shape.
    """
    fn = _registered_kl(type(distribution_a), type(distribution_b))
    if fn is None:
        raise NotImplementedError(
            "No KL(distribution_a || distribution_b) registered for distribution_a type %s "
            "and distribution_b type %s" % (type(distribution_a).__name__,
                                            type(distribution_b).__name__))
    with name_scope(name, "KullbackLeibler"):
        return fn(distribution_a, distribution_b, name=name)


class RegisterKL:
    """Decorator registering ``fn(a, b, name=None)`` as KL(a || b) for two classes.

    Args:
        dist_cls_a: The class of the first distribution.
        dist_cls_b: The class of the second distribution.
    """

    def __init__(self, dist_cls_a: type, dist_cls_b: type):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn: Callable) -> Callable:
        if not callable(kl_fn):
            raise TypeError("kl_fn must be callable, received: %s" % kl_fn)
        if self._key in _DIVERGENCES:
            raise ValueError("KL(%s || %s) has already been registered to: %s"
                             % (self._key[0].__name__, self._key[1].__name__,
                                _DIVERGENCES[self._key]))
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn
