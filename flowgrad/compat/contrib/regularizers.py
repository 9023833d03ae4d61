"""TensorFlow 1.15's ``tf.contrib.layers`` regularizers: functions of a weight tensor giving a
scalar penalty (``l2_regularizer(scale)(w)`` is ``scale * tf.nn.l2_loss(w)``), and
``apply_regularization``."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

from flowgrad.debug import tf_logging as logging
from flowgrad.framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.arithmetic_ops import add_n
from flowgrad.ops.elementwise_ops import abs as _abs
from flowgrad.ops.math_ops import multiply
from flowgrad.ops.nn_ops import l2_loss
from flowgrad.ops.sum_ops import reduce_sum


def _check_scale(scale: float, zero_message: bool = True) -> bool:
    """Raises ValueError for an integer or negative ``scale``; True when it is 0."""
    if isinstance(scale, numbers.Integral):
        raise ValueError("scale cannot be an integer: %s" % (scale,))
    if isinstance(scale, numbers.Real):
        if scale < 0.0:
            raise ValueError("Setting a scale less than 0 on a regularizer: %g" % scale)
        if scale == 0.0:
            if zero_message:
                logging.info("Scale of 0 disables regularizer.")
            return True
    return False


def l1_regularizer(scale: float, scope: str | None = None) -> Callable:
    """``scale * sum(|w|)``.

    Args:
      scale: A non-negative float; 0 disables the regularizer.
      scope: The name scope of the penalty (``l1_regularizer`` when None).

    Returns:
      A function ``fn(weights)`` giving the penalty (None when ``scale`` is 0).

    Raises:
      ValueError: ``scale`` is an integer or negative.
    """
    if _check_scale(scale):
        return lambda _: None

    def l1(weights: TensorLike) -> TensorLike:
        with name_scope(scope, "l1_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(my_scale, reduce_sum(_abs(weights)), name=name)

    return l1


def l2_regularizer(scale: float, scope: str | None = None) -> Callable:
    """``scale * tf.nn.l2_loss(w)`` (half the sum of squares).

    Args:
      scale: A non-negative float; 0 disables the regularizer.
      scope: The name scope of the penalty (``l2_regularizer`` when None).

    Returns:
      A function ``fn(weights)`` giving the penalty (None when ``scale`` is 0).

    Raises:
      ValueError: ``scale`` is an integer or negative.
    """
    if _check_scale(scale):
        return lambda _: None

    def l2(weights: TensorLike) -> TensorLike:
        with name_scope(scope, "l2_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(my_scale, l2_loss(weights), name=name)

    return l2


def sum_regularizer(regularizer_list: Sequence[Callable], scope: str | None = None) -> Callable:
    """The sum of several regularizers' penalties.

    Args:
      regularizer_list: Regularizer functions (those giving None are left out).
      scope: The name scope of the sum (``sum_regularizer`` when None).

    Returns:
      A function ``fn(weights)`` giving the summed penalty (None when none applies).
    """
    regularizer_list = [r for r in regularizer_list if r]
    if not regularizer_list:
        return None

    def sum_reg(weights: TensorLike) -> TensorLike:
        with name_scope(scope, "sum_regularizer", [weights]) as name:
            penalties = [p for p in (r(weights) for r in regularizer_list) if p is not None]
            return add_n(penalties, name=name) if penalties else None

    return sum_reg


def l1_l2_regularizer(scale_l1: float = 1.0, scale_l2: float = 1.0,
                      scope: str | None = None) -> Callable:
    """``l1_regularizer(scale_l1)`` plus ``l2_regularizer(scale_l2)``.

    Args:
      scale_l1: The L1 scale.
      scale_l2: The L2 scale.
      scope: The name scope of the penalty (``l1_l2_regularizer`` when None).

    Returns:
      The regularizer function.

    Raises:
      ValueError: a scale is an integer or negative.
    """
    if isinstance(scale_l1, numbers.Integral):
        raise ValueError("scale_l1 cannot be an integer: %s" % (scale_l1,))
    if isinstance(scale_l2, numbers.Integral):
        raise ValueError("scale_l2 cannot be an integer: %s" % (scale_l2,))
    scope = scope or "l1_l2_regularizer"
    if scale_l1 == 0.0:
        return l2_regularizer(scale_l2, scope)
    if scale_l2 == 0.0:
        return l1_regularizer(scale_l1, scope)
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def apply_regularization(regularizer: Callable, weights_list: Sequence | None = None) -> TensorLike:
    """Sums ``regularizer``'s penalties over ``weights_list`` and adds each penalty to
    ``REGULARIZATION_LOSSES``.

    Args:
      regularizer: A regularizer function.
      weights_list: The weights (the ``weights`` collection when None).

    Returns:
      The summed penalty, a scalar tensor.

    Raises:
      ValueError: ``regularizer`` is None or there are no weights.
    """
    if not weights_list:
        weights_list = get_collection("weights")
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with name_scope("get_regularization_penalty", values=weights_list) as scope:
        penalties = [regularizer(w) for w in weights_list]
        penalties = [p if p is not None else convert_to_tensor(0.0) for p in penalties]
        for p in penalties:
            add_to_collection(GraphKeys.REGULARIZATION_LOSSES, p)
        return add_n(penalties, name=scope)


__all__ = ["apply_regularization", "l1_l2_regularizer", "l1_regularizer", "l2_regularizer",
           "sum_regularizer"]


def __dir__() -> list:
    return sorted(__all__)
