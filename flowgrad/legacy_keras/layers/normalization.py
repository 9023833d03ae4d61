"""``BatchNormalization`` with Keras 3's defaults (momentum 0.99, epsilon 1e-3)."""
from __future__ import annotations

from typing import Any

from flowgrad.legacy_keras import constraints, initializers, regularizers
from flowgrad.legacy_keras.layers.base import InputSpec, Layer
from flowgrad.ops import array_ops, nn_impl
from collections.abc import Callable
from flowgrad.framework.type_hints import TensorLike


class BatchNormalization(Layer):
    """Normalizes over the batch (training) or with moving statistics (inference).

    Weights, in order: gamma (ones), beta (zeros), moving_mean (zeros), moving_variance
    (ones); in training ``moving = moving * momentum + batch_stat * (1 - momentum)`` with
    the batch's biased variance. Called as ``layer(inputs, training=None)``: the batch's
    statistics are used (and the moving ones updated) only when ``training`` is True.

    Args:
        axis: The features axis (normalized per index of it; the statistics are taken over
            all the other axes), e.g. -1 for channels-last.
        momentum: Momentum of the moving mean and variance.
        epsilon: Small float added to the variance to avoid dividing by zero.
        center: If True, adds the learned offset ``beta``; if False, no ``beta``.
        scale: If True, multiplies by the learned ``gamma``; if False, no ``gamma``.
        beta_initializer: Initializer of ``beta``.
        gamma_initializer: Initializer of ``gamma``.
        moving_mean_initializer: Initializer of the moving mean.
        moving_variance_initializer: Initializer of the moving variance.
        beta_regularizer: Regularizer of ``beta``, or None.
        gamma_regularizer: Regularizer of ``gamma``, or None.
        beta_constraint: Constraint applied to ``beta`` after each update, or None.
        gamma_constraint: Constraint applied to ``gamma`` after each update, or None.
        synchronized: Keras's cross-replica statistics switch; accepted and ignored (the
            statistics are the local batch's).
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``, ...).

    Raises:
        ValueError: (When built) if ``axis`` is out of range for the inputs' rank or the
            inputs' size along it is not defined.
    """

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True,
                 beta_initializer: Callable | str | None = "zeros",
                 gamma_initializer: Callable | str | None = "ones",
                 moving_mean_initializer: Callable | str | None = "zeros",
                 moving_variance_initializer: Callable | str | None = "ones",
                 beta_regularizer: Callable | None = None,
                 gamma_regularizer: Callable | None = None, beta_constraint: Callable | None = None,
                 gamma_constraint: Callable | None = None, synchronized: bool = False,
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.gamma = self.beta = None

    def build(self, input_shape: Any) -> None:
        rank = len(input_shape)
        if not -rank <= self.axis < rank:
            raise ValueError("Invalid axis %d for BatchNormalization layer %s with input of "
                             "rank %d" % (self.axis, self.name, rank))
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError("Axis %d of input tensor should have a defined dimension but the "
                             "layer received an input with shape %s." % (self.axis, input_shape))
        shape = (dim,)
        if self.scale:
            self.gamma = self.add_weight(shape=shape, name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight(shape=shape, name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean",
                                           initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               initializer=self.moving_variance_initializer,
                                               trainable=False)
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: dim})
        self._reduction_axes = [i for i in range(rank) if i != self.axis % rank]
        self._broadcast = [1] * rank
        self._broadcast[self.axis % rank] = dim

    def _shaped(self, t: Any) -> Any:
        if t is None or self.axis % len(self._broadcast) == len(self._broadcast) - 1:
            return t
        return array_ops.reshape(t, self._broadcast)

    def call(self, inputs: Any, training: Any = None, mask: TensorLike | None = None) -> Any:
        if training and self.trainable:
            mean, variance = nn_impl.moments_v2(inputs, self._reduction_axes)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + mean * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m + variance * (1.0 - m))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        return nn_impl.batch_normalization(inputs, self._shaped(mean), self._shaped(variance),
                                           self._shaped(self.beta), self._shaped(self.gamma),
                                           self.epsilon)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale}


__all__ = ["BatchNormalization"]
