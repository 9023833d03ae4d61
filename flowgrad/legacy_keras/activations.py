"""``keras.activations``: activation functions by name (``'relu'``, ``'softmax'``, ...)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import math_ops, nn_impl, nn_ops


def relu(x: Any, negative_slope: float = 0.0, max_value: float | None = None,
         threshold: float = 0.0) -> Any:
    """max(x, 0), with Keras's optional slope below ``threshold`` and cap ``max_value``.

    Args:
        x: The input tensor.
        negative_slope: The slope below ``threshold``.
        max_value: The largest output; None for no cap.
        threshold: Inputs below it give ``negative_slope * (x - threshold)``.
    """
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return nn_ops.relu(x)
    x = convert_to_tensor(x)
    if threshold != 0.0:
        out = math_ops.multiply(x, math_ops.cast(math_ops.greater(x, threshold), x.dtype))
    else:
        out = nn_ops.relu(x)
    if max_value is not None:
        out = math_ops.minimum(out, max_value)
    if negative_slope != 0.0:
        out = out - negative_slope * nn_ops.relu(threshold - x)
    return out


def linear(x: Any) -> Any:
    """The identity.

    Args:
        x: The input tensor.
    """
    return x


def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))``.

    Args:
        x: The input tensor.
    """
    return math_ops.sigmoid(x)


def tanh(x: Any) -> Any:
    """The hyperbolic tangent.

    Args:
        x: The input tensor.
    """
    return math_ops.tanh(x)


def softmax(x: Any, axis: int = -1) -> Any:
    """``exp(x)`` normalized to sum to 1 along ``axis``.

    Args:
        x: The input tensor.
        axis: The axis to normalize along.
    """
    return nn_ops.softmax(x, axis=axis)


def log_softmax(x: Any, axis: int = -1) -> Any:
    return nn_ops.log_softmax(x, axis=axis)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """Exponential linear unit: ``x`` where positive, else ``alpha * (exp(x) - 1)``.

    Args:
        x: The input tensor.
        alpha: The scale of the negative part.
    """
    out = nn_ops.elu(x)
    return out if alpha == 1.0 else math_ops.where(math_ops.greater(x, 0.0), out, alpha * out)


def selu(x: Any) -> Any:
    """Scaled exponential linear unit (Klambauer et al., 2017).

    Args:
        x: The input tensor.
    """
    return nn_ops.selu(x)


def softplus(x: Any) -> Any:
    """``log(exp(x) + 1)``.

    Args:
        x: The input tensor.
    """
    return nn_ops.softplus(x)


def softsign(x: Any) -> Any:
    """``x / (abs(x) + 1)``.

    Args:
        x: The input tensor.
    """
    return nn_ops.softsign(x)


def silu(x: Any) -> Any:
    """x * sigmoid(x).

    Args:
        x: The input tensor.
    """
    return nn_impl.silu(x)


swish = silu


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    return nn_ops.leaky_relu(x, alpha=negative_slope)


def relu6(x: Any) -> Any:
    return nn_ops.relu6(x)


def exponential(x: Any) -> Any:
    """``exp(x)``.

    Args:
        x: The input tensor.
    """
    return math_ops.exp(x)


def hard_sigmoid(x: Any) -> Any:
    """relu6(x + 3) / 6 (Keras 3's definition).

    Args:
        x: The input tensor.
    """
    return nn_ops.relu6(convert_to_tensor(x) + 3.0) / 6.0


_BY_NAME: dict[str, Callable] = {
    f.__name__: f for f in (relu, linear, sigmoid, tanh, softmax, log_softmax, elu, selu,
                            softplus, softsign, silu, leaky_relu, relu6, exponential,
                            hard_sigmoid)}
_BY_NAME["swish"] = silu


def get(identifier: Any) -> Callable:
    """An activation function from its name, a callable, or None (linear).

    Args:
        identifier: A name, a config dict, a callable, or None.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret activation function identifier: %r" % (identifier,))


def serialize(activation: Callable) -> str:
    """The name of a Keras activation (its ``__name__``).

    Args:
        activation: A Keras activation function.
    """
    return getattr(activation, "__name__", str(activation))


# Keras 2 (tf.keras of TensorFlow 2.x) has no leaky_relu, log_softmax, relu6 or silu function;
# get() still takes those names.
__all__ = sorted(set(_BY_NAME) - {"leaky_relu", "log_softmax", "relu6", "silu"}) + ["get",
                                                                               "serialize"]


def __dir__() -> list:
    """tf.keras.activations of TensorFlow 2.15 (``__all__``); imported helpers stay hidden."""
    return sorted(__all__)
