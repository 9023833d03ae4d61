"""``tf.layers.batch_normalization`` with moving averages updated through UPDATE_OPS."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.tensor import is_tensor
from flowgrad.layers.base import Layer
from flowgrad.layers.core import incompatible, training_blend
from flowgrad.ops import init_ops
from flowgrad.ops.array_ops import reshape, size
from flowgrad.ops.math_ops import cast, multiply, subtract
from flowgrad.ops.nn_impl import batch_normalization as _normalize
from flowgrad.ops.nn_impl import moments
from flowgrad.ops.state_ops import assign_sub
from collections.abc import Callable


class BatchNormalization(Layer):
    """Normalizes with batch statistics when training, with moving averages otherwise.

    While training, each call adds two update ops to ``tf.GraphKeys.UPDATE_OPS``:
    ``moving -= (moving - batch_stat) * (1 - momentum)``. As TensorFlow 1's fused
    kernel (used for rank-4 inputs normalized over the channel axis, ``fused=None``
    or True) does, the moving variance is then fed the unbiased batch variance;
    other inputs (``fused=False``, or rank 2) feed the biased one.

    Args:
        axis: The channel axis (normalized per index along it); a one-element list too.
        momentum: The moving averages' decay.
        epsilon: Added to the variance before its square root.
        center: Whether to add the learned offset ``beta``.
        scale: Whether to multiply by the learned ``gamma``.
        beta_initializer: The initializer of ``beta``.
        gamma_initializer: The initializer of ``gamma``.
        moving_mean_initializer: The initializer of the moving mean.
        moving_variance_initializer: The initializer of the moving variance.
        beta_regularizer: A regularizer of ``beta``.
        gamma_regularizer: A regularizer of ``gamma``.
        beta_constraint: A projection applied to ``beta`` after each update.
        gamma_constraint: A projection applied to ``gamma`` after each update.
        renorm: Batch renormalization (not supported: True raises NotImplementedError).
        renorm_clipping: Batch renormalization's clipping (unused).
        renorm_momentum: Batch renormalization's momentum (unused).
        fused: Whether to use TensorFlow 1's fused kernel's statistics (None: where it
            applies, rank-4 inputs normalized over the channel axis).
        trainable: Whether ``beta`` and ``gamma`` are trainable.
        virtual_batch_size: Ghost batch normalization (not supported: raises).
        adjustment: A function adjusting the normalized values (not supported: raises).
        name: The layer's name.
        **kwargs: The base Layer's keyword arguments.

    Raises:
        NotImplementedError: ``renorm``, ``virtual_batch_size``, ``adjustment`` or several
            axes.
    """

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True,
                 beta_initializer: Callable | str | None = init_ops.zeros_initializer(),
                 gamma_initializer: Callable | str | None = init_ops.ones_initializer(),
                 moving_mean_initializer: Callable | str = init_ops.zeros_initializer(),
                 moving_variance_initializer: Callable | str = init_ops.ones_initializer(),
                 beta_regularizer: Callable | None = None,
                 gamma_regularizer: Callable | None = None, beta_constraint: Callable | None = None,
                 gamma_constraint: Callable | None = None, renorm: bool = False,
                 renorm_clipping: Any = None, renorm_momentum: float = 0.99,
                 fused: bool | None = None, trainable: bool = True,
                 virtual_batch_size: int | None = None, adjustment: Any = None,
                 name: str | None = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise NotImplementedError("batch_normalization: renorm, virtual_batch_size and "
                                      "adjustment are not supported")
        if isinstance(axis, (list, tuple)):
            if len(axis) != 1:
                raise NotImplementedError("batch_normalization over several axes (%r) is not "
                                          "supported" % (axis,))
            axis = axis[0]
        self.axis = axis
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.fused = fused
        self.initializers = (gamma_initializer, beta_initializer, moving_mean_initializer,
                             moving_variance_initializer)
        self.regularizers = (gamma_regularizer, beta_regularizer)
        self.constraints = (gamma_constraint, beta_constraint)
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def _axis(self, rank: int) -> int:
        return self.axis + rank if self.axis < 0 else self.axis

    def _check_input(self, inputs: Any) -> None:
        rank = inputs.shape.rank
        if rank is None:
            raise ValueError("Input has undefined rank (layer %s)." % self.name)
        axis = self._axis(rank)
        if not 0 <= axis < rank:
            raise ValueError("Invalid axis: %d (layer %s, input of rank %d)"
                             % (self.axis, self.name, rank))
        dim = inputs.shape.as_tuple()[axis]
        if not self.built:
            if dim is None:
                raise ValueError("Axis %d of input tensor should have a defined dimension but "
                                 "the layer %s received an input with shape %s."
                                 % (self.axis, self.name, inputs.shape))
        elif dim is not None and dim != self.moving_mean.shape.as_tuple()[0]:
            raise incompatible(self, "expected axis %d of input shape to have value %d"
                               % (self.axis, self.moving_mean.shape.as_tuple()[0]), inputs)

    def build(self, input_shape: Any) -> None:
        dim = [input_shape.as_tuple()[self._axis(input_shape.rank)]]
        g_init, b_init, mm_init, mv_init = self.initializers
        if self.scale:
            self.gamma = self.add_weight("gamma", dim, initializer=g_init,
                                         regularizer=self.regularizers[0],
                                         constraint=self.constraints[0])
        if self.center:
            self.beta = self.add_weight("beta", dim, initializer=b_init,
                                        regularizer=self.regularizers[1],
                                        constraint=self.constraints[1])
        self.moving_mean = self.add_weight("moving_mean", dim, initializer=mm_init,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", dim, initializer=mv_init,
                                               trainable=False)

    def _uses_fused(self, rank: int) -> bool:
        return self.fused is not False and rank == 4 and self._axis(rank) in (1, 3)

    def call(self, inputs: Any, training: Any = False) -> Any:
        rank = inputs.shape.rank
        axis = self._axis(rank)
        reduce_axes = [i for i in range(rank) if i != axis]
        param_shape = [1] * rank
        param_shape[axis] = -1

        def broadcastable(v: Any) -> Any:
            if v is None or axis == rank - 1:
                return v
            return reshape(v, param_shape)

        if not is_tensor(training) and not training:
            return _normalize(inputs, broadcastable(self.moving_mean),
                              broadcastable(self.moving_variance), broadcastable(self.beta),
                              broadcastable(self.gamma), self.epsilon)
        dt = inputs.dtype.base_dtype
        batch_mean, batch_var = moments(inputs, reduce_axes)
        mean = training_blend(training, lambda: batch_mean, lambda: self.moving_mean)
        var = training_blend(training, lambda: batch_var, lambda: self.moving_variance)
        outputs = _normalize(inputs, broadcastable(mean), broadcastable(var),
                             broadcastable(self.beta), broadcastable(self.gamma), self.epsilon)
        update_var = batch_var
        if self._uses_fused(rank):
            dims = inputs.shape.as_tuple()
            n = int(np.prod([dims[i] for i in reduce_axes])) if all(
                dims[i] is not None for i in reduce_axes) else None
            if n is None:
                n = cast(size(inputs), dt) / cast(dims[axis], dt)
                update_var = batch_var * n / (n - 1.0)
            elif n > 1:
                update_var = batch_var * (n / (n - 1.0))
        decay = training_blend(training, lambda: cast(1.0 - self.momentum, dt),
                               lambda: cast(0.0, dt))
        self.add_update([
            assign_sub(self.moving_mean, multiply(subtract(self.moving_mean, batch_mean),
                                                  decay), name="AssignMovingAvg"),
            assign_sub(self.moving_variance, multiply(subtract(self.moving_variance,
                                                               update_var), decay),
                       name="AssignMovingAvg_1")])
        return outputs


def batch_normalization(inputs: Any, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                        center: bool = True, scale: bool = True,
                        beta_initializer: Callable | str | None = init_ops.zeros_initializer(),
                        gamma_initializer: Callable | str | None = init_ops.ones_initializer(),
                        moving_mean_initializer: Callable | str = init_ops.zeros_initializer(),
                        moving_variance_initializer: Callable | str = init_ops.ones_initializer(),
                        beta_regularizer: Callable | None = None,
                        gamma_regularizer: Callable | None = None,
                        beta_constraint: Callable | None = None,
                        gamma_constraint: Callable | None = None, training: Any = False,
                        trainable: bool = True, name: str | None = None, reuse: Any = None,
                        renorm: bool = False, renorm_clipping: Any = None,
                        renorm_momentum: float = 0.99, fused: bool | None = None,
                        virtual_batch_size: int | None = None, adjustment: Any = None) -> Any:
    """Batch normalization (variables gamma, beta, moving_mean, moving_variance).

    Run the ops in ``tf.GraphKeys.UPDATE_OPS`` with the train op to update the
    moving averages, as in TensorFlow.

    Args:
        inputs: The tensor to normalize.
        axis: The channel axis (normalized per index along it); a one-element list too.
        momentum: The moving averages' decay.
        epsilon: Added to the variance before its square root.
        center: Whether to add the learned offset ``beta``.
        scale: Whether to multiply by the learned ``gamma``.
        beta_initializer: The initializer of ``beta``.
        gamma_initializer: The initializer of ``gamma``.
        moving_mean_initializer: The initializer of the moving mean.
        moving_variance_initializer: The initializer of the moving variance.
        beta_regularizer: A regularizer of ``beta``.
        gamma_regularizer: A regularizer of ``gamma``.
        beta_constraint: A projection applied to ``beta`` after each update.
        gamma_constraint: A projection applied to ``gamma`` after each update.
        training: Whether to normalize with the batch's statistics (and add the update ops)
            or with the moving averages; a bool or a boolean tensor.
        trainable: Whether ``beta`` and ``gamma`` are trainable.
        name: The layer's name (its variable scope).
        reuse: Whether to reuse the variables of an earlier layer of the same name.
        renorm: Batch renormalization (not supported: True raises NotImplementedError).
        renorm_clipping: Batch renormalization's clipping (unused).
        renorm_momentum: Batch renormalization's momentum (unused).
        fused: Whether to use TensorFlow 1's fused kernel's statistics (None: where it
            applies, rank-4 inputs normalized over the channel axis).
        virtual_batch_size: Ghost batch normalization (not supported: raises).
        adjustment: A function adjusting the normalized values (not supported: raises).

    Returns:
        The normalized tensor, shaped as ``inputs``.
    """
    layer = BatchNormalization(
        axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
        beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
        moving_mean_initializer=moving_mean_initializer,
        moving_variance_initializer=moving_variance_initializer,
        beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
        beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
        renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
        trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
        name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs, training=training)


__all__ = ["BatchNormalization", "batch_normalization"]
