"""The loss collections of TF1: ``tf.losses.add_loss``, ``get_losses``, ``get_total_loss``."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, add_to_collection, get_collection
from flowgrad.framework.tensor import constant
from flowgrad.ops.math_ops import add_n


def add_loss(loss: Any, loss_collection: str | None = GraphKeys.LOSSES) -> None:
    """Adds ``loss`` to ``loss_collection`` (nothing in eager mode, as in TensorFlow).

    Args:
        loss: A loss tensor.
        loss_collection: The collection to add it to; None adds it nowhere.
    """
    if loss_collection and not executing_eagerly():
        add_to_collection(loss_collection, loss)


def get_losses(scope: str | None = None, loss_collection: str = GraphKeys.LOSSES) -> list:
    """The losses in ``loss_collection`` whose names match ``scope``.

    Args:
        scope: Only losses whose names match this regular expression.
        loss_collection: The collection to read.
    """
    return get_collection(loss_collection, scope)


def get_regularization_losses(scope: str | None = None) -> list:
    """The REGULARIZATION_LOSSES collection (filtered by ``scope``).

    Args:
        scope: Only losses whose names match this regular expression.
    """
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope: str | None = None,
                            name: str = "total_regularization_loss") -> Any:
    """The sum of the regularization losses (a constant 0.0 when there are none).

    Args:
        scope: Only losses whose names match this regular expression.
        name: The name of the sum.
    """
    losses = get_regularization_losses(scope)
    if losses:
        return add_n(losses, name=name)
    return constant(0.0)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss",
                   scope: str | None = None) -> Any:
    """The sum of the LOSSES collection (plus the regularization losses).

    Args:
        add_regularization_losses: Whether to add the regularization losses.
        name: The name of the sum.
        scope: Only losses whose names match this regular expression.
    """
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    if not losses:
        raise ValueError("No losses to add up for get_total_loss: the LOSSES collection%s is "
                         "empty." % (" and the REGULARIZATION_LOSSES collection"
                                     if add_regularization_losses else ""))
    return add_n(losses, name=name)


__all__ = ["add_loss", "get_losses", "get_regularization_losses", "get_regularization_loss",
           "get_total_loss"]
