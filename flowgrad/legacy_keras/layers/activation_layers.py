"""Activation layers: ReLU, LeakyReLU, ELU, Softmax (Keras 3 defaults), and Rescaling."""
from __future__ import annotations

from typing import Any

from flowgrad.legacy_keras import activations
from flowgrad.legacy_keras.layers.base import Layer


class ReLU(Layer):
    """``relu`` with Keras's optional ``max_value``, ``negative_slope`` and ``threshold``.

    Args:
        max_value: The largest output (None: no cap).
        negative_slope: The slope below ``threshold``.
        threshold: Where the slope changes.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, max_value: float | None = None, negative_slope: float = 0.0,
                 threshold: float = 0.0, **kwargs: Any):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. Received: "
                             "%s" % max_value)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. "
                             "Received: %s" % negative_slope)
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold

    def call(self, inputs: Any) -> Any:
        return activations.relu(inputs, self.negative_slope, self.max_value, self.threshold)


class LeakyReLU(Layer):
    """``x`` for x >= 0, ``negative_slope * x`` below (default slope 0.3).

    Args:
        negative_slope: The slope below zero.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, negative_slope: float = 0.3, **kwargs: Any):
        if "alpha" in kwargs:           # the Keras 2 name
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or "
                             "negative value. Expected a float. Received: negative_slope=%s"
                             % negative_slope)
        self.negative_slope = negative_slope

    def call(self, inputs: Any) -> Any:
        return activations.leaky_relu(inputs, self.negative_slope)


class ELU(Layer):
    """``x`` for x > 0, ``alpha * (exp(x) - 1)`` below.

    Args:
        alpha: The scale of the negative part.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, alpha: float = 1.0, **kwargs: Any):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs: Any) -> Any:
        return activations.elu(inputs, self.alpha)


class Softmax(Layer):
    """Softmax over ``axis``.

    Args:
        axis: The axis the probabilities sum to 1 along.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, axis: int = -1, **kwargs: Any):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs: Any) -> Any:
        return activations.softmax(inputs, axis=self.axis)


class Rescaling(Layer):
    """``inputs * scale + offset`` (e.g. ``Rescaling(1/255)`` for images).

    Args:
        scale: The factor.
        offset: Added after scaling.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, scale: float, offset: float = 0.0, **kwargs: Any):
        super().__init__(**kwargs)
        self.scale = scale
        self.offset = offset

    def call(self, inputs: Any) -> Any:
        return inputs * self.scale + self.offset


__all__ = ["ReLU", "LeakyReLU", "ELU", "Softmax", "Rescaling"]
