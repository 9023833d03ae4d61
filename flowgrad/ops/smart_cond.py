"""``smart_cond`` (``tensorflow/python/framework/smart_cond.py``, also
``tf.__internal__.smart_cond.smart_cond``): ``tf.cond`` that calls one branch directly when
the predicate's value is known while the graph is built."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework.tensor import is_tensor
from flowgrad.framework.tensor_util import constant_value
from flowgrad.ops.cond_v2 import cond
from flowgrad.framework.type_hints import TensorLike


def smart_constant_value(pred: TensorLike) -> bool | None:
    """The value of the predicate ``pred`` if known now, else None.

    Raises:
      TypeError: ``pred`` is neither a tensor, a bool nor 0/1.
    """
    if is_tensor(pred):
        value = constant_value(pred)
        return None if value is None else bool(value)
    if isinstance(pred, bool) or pred in (0, 1):
        return bool(pred)
    raise TypeError("`pred` must be a Tensor, or a Python bool, or 1 or 0. Found instead: %s"
                    % type(pred))


def smart_cond(pred: TensorLike, true_fn: Callable | None = None, false_fn: Callable | None = None,
               name: str | None = None) -> Any:
    """``true_fn()`` or ``false_fn()`` when ``pred``'s value is known, else ``tf.cond``.

    Raises:
      TypeError: a branch is not callable, or ``pred`` is not a predicate.
    """
    if not callable(true_fn):
        raise TypeError("`true_fn` must be callable.")
    if not callable(false_fn):
        raise TypeError("`false_fn` must be callable.")
    value = smart_constant_value(pred)
    if value is not None:
        return true_fn() if value else false_fn()
    return cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)


__all__ = ["smart_cond", "smart_constant_value"]
