"""``tf.layers.dense``, ``dropout`` and ``flatten`` (TF1 functional layers and classes)."""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from flowgrad.framework.tensor import is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.layers.base import Layer
from flowgrad.ops import init_ops
from flowgrad.ops.array_ops import concat, identity, reshape, shape, transpose
from flowgrad.ops.cond_v2 import cond
from flowgrad.ops.math_ops import cast, matmul
from flowgrad.ops.nn_ops import bias_add, dropout_v2
from collections.abc import Callable
from flowgrad.framework.type_hints import ShapeLike


def incompatible(layer: Layer, expected: str, inputs: Any) -> ValueError:
    """Keras's InputSpec error: layer name, what was expected, the shape received."""
    return ValueError("Input 0 of layer %s is incompatible with the layer: %s. Full shape "
                      "received: %s" % (layer.name, expected, inputs.shape))


def training_blend(training: Any, if_true: Any, if_false: Any) -> Any:
    """``if_true()`` when ``training`` (a bool or a bool tensor), else ``if_false()``: a
    ``tf.cond`` on a tensor, as TensorFlow's ``smart_cond`` (so the result keeps the static
    shape both branches share, whatever the predicate's static shape)."""
    if is_tensor(training):
        return cond(cast(training, "bool"), if_true, if_false)
    return if_true() if training else if_false()


def set_weight_options(layer: Layer, activation: Callable | str | None, use_bias: bool,
                       kernel_initializer: Callable | str | None,
                       bias_initializer: Callable | str | None, kernel_regularizer: Callable | None,
                       bias_regularizer: Callable | None, kernel_constraint: Callable | None,
                       bias_constraint: Callable | None) -> None:
    """Stores the activation and kernel/bias options of Dense and the convolutions."""
    layer.activation = activation
    layer.use_bias = use_bias
    layer.kernel_initializer = kernel_initializer
    layer.bias_initializer = bias_initializer
    layer.kernel_regularizer = kernel_regularizer
    layer.bias_regularizer = bias_regularizer
    layer.kernel_constraint = kernel_constraint
    layer.bias_constraint = bias_constraint
    layer.kernel = layer.bias = None


def add_kernel_and_bias(layer: Layer, kernel_shape: list, units: int) -> None:
    """Creates ``layer.kernel`` and, with ``use_bias``, ``layer.bias`` of ``units``."""
    layer.kernel = layer.add_weight("kernel", kernel_shape,
                                    initializer=layer.kernel_initializer,
                                    regularizer=layer.kernel_regularizer,
                                    constraint=layer.kernel_constraint)
    if layer.use_bias:
        layer.bias = layer.add_weight("bias", [units], initializer=layer.bias_initializer,
                                      regularizer=layer.bias_regularizer,
                                      constraint=layer.bias_constraint)


def bias_and_activation(layer: Layer, outputs: Any, data_format: str | None = None) -> Any:
    """``activation(outputs + bias)``, each step only where the layer has it."""
    if layer.use_bias:
        outputs = bias_add(outputs, layer.bias, data_format=data_format)
    if layer.activation is not None:
        return layer.activation(outputs)
    return outputs


class Dense(Layer):
    """``outputs = activation(inputs @ kernel + bias)``.

    Args:
        units: The number of output units.
        activation: The activation applied to the output; None for none.
        use_bias: Whether the layer adds a bias.
        kernel_initializer: The initializer of the kernel; Glorot uniform when None.
        bias_initializer: The initializer of the bias.
        kernel_regularizer: A function of the kernel whose result joins the regularization losses.
        bias_regularizer: A function of the bias whose result joins the regularization losses.
        activity_regularizer: A function of the output whose result joins the regularization losses.
        kernel_constraint: A function the optimizers apply to the kernel after each update.
        bias_constraint: A function the optimizers apply to the bias after each update.
        trainable: Whether the layer's variables join ``TRAINABLE_VARIABLES``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    def __init__(self, units: int, activation: Callable | str | None = None, use_bias: bool = True,
                 kernel_initializer: Callable | str | None = None,
                 bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
                 kernel_regularizer: Callable | None = None,
                 bias_regularizer: Callable | None = None,
                 activity_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, bias_constraint: Callable | None = None,
                 trainable: bool = True, name: str | None = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, numbers.Integral) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             "integer, got %r." % (units,))
        self.units = int(units)
        set_weight_options(self, activation, use_bias, kernel_initializer, bias_initializer,
                           kernel_regularizer, bias_regularizer, kernel_constraint,
                           bias_constraint)

    def _check_input(self, inputs: Any) -> None:
        rank = inputs.shape.rank
        if rank is not None and rank < 2:
            raise incompatible(self, "expected min_ndim=2, found ndim=%d" % rank, inputs)
        last = inputs.shape.as_tuple()[-1] if rank else None
        if not self.built:
            if rank is not None and last is None:
                raise ValueError("The last dimension of the inputs to `Dense` (layer %s) "
                                 "should be defined. Found `None`." % self.name)
        elif last is not None and last != self.kernel.shape.as_tuple()[0]:
            raise incompatible(self, "expected axis -1 of input shape to have value %d but "
                               "received input with shape %s"
                               % (self.kernel.shape.as_tuple()[0], inputs.shape), inputs)

    def build(self, input_shape: Any) -> None:
        add_kernel_and_bias(self, [input_shape.as_tuple()[-1], self.units], self.units)

    def call(self, inputs: Any) -> Any:
        if inputs.shape.rank == 2:
            outputs = matmul(inputs, self.kernel)
        else:
            flat = reshape(inputs, [-1, self.kernel.shape.as_tuple()[0]])
            out_shape = concat([shape(inputs)[:-1], [self.units]], 0)
            outputs = reshape(matmul(flat, self.kernel), out_shape)
            if inputs.shape.rank is not None:
                outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        return bias_and_activation(self, outputs)

    def compute_output_shape(self, input_shape: ShapeLike) -> TensorShape:
        """The output shape for inputs of ``input_shape``: its last axis becomes ``units``.

        Raises:
          ValueError: the last axis of ``input_shape`` is not known.
        """
        input_shape = TensorShape(input_shape).with_rank_at_least(2)
        if input_shape[-1] is None:
            raise ValueError("The innermost dimension of input_shape must be defined, but saw: "
                             "%s" % input_shape)
        return input_shape[:-1].concatenate(self.units)


def dense(inputs: Any, units: int, activation: Callable | str | None = None, use_bias: bool = True,
          kernel_initializer: Callable | str | None = None,
          bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
          kernel_regularizer: Callable | None = None, bias_regularizer: Callable | None = None,
          activity_regularizer: Callable | None = None, kernel_constraint: Callable | None = None,
          bias_constraint: Callable | None = None, trainable: bool = True, name: str | None = None,
          reuse: Any = None) -> Any:
    """A densely connected layer (variables ``<scope>/kernel`` and ``<scope>/bias``).

    Args:
        inputs: The input tensor.
        units: The number of output units.
        activation: The activation applied to the output; None for none.
        use_bias: Whether the layer adds a bias.
        kernel_initializer: The initializer of the kernel; Glorot uniform when None.
        bias_initializer: The initializer of the bias.
        kernel_regularizer: A function of the kernel whose result joins the regularization losses.
        bias_regularizer: A function of the bias whose result joins the regularization losses.
        activity_regularizer: A function of the output whose result joins the regularization losses.
        kernel_constraint: A function the optimizers apply to the kernel after each update.
        bias_constraint: A function the optimizers apply to the bias after each update.
        trainable: Whether the layer's variables join ``TRAINABLE_VARIABLES``.
        name: A name for the operation (optional).
        reuse: Whether to reuse the variables of an earlier layer of the same name.
    """
    layer = Dense(units, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable, name=name, _scope=name,
                  _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


class Dropout(Layer):
    """Zeros inputs with probability ``rate`` while training (scaling the rest).

    Args:
        rate: The fraction of the inputs to drop.
        noise_shape: The shape of the keep/drop mask (broadcast against the inputs).
        seed: The seed of the mask.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    def __init__(self, rate: float = 0.5, noise_shape: ShapeLike = None, seed: int | None = None,
                 name: str | None = None, **kwargs: Any):
        super().__init__(name=name, **kwargs)
        if isinstance(rate, numbers.Real) and not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             "value between 0 and 1. Received: rate=%r" % (rate,))
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs: Any, training: Any = False) -> Any:
        def dropped() -> Any:
            if isinstance(self.rate, numbers.Real) and self.rate >= 1:
                return inputs * 0.0
            return dropout_v2(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed)
        return training_blend(training, dropped, lambda: identity(inputs))


def dropout(inputs: Any, rate: float = 0.5, noise_shape: ShapeLike = None, seed: int | None = None,
            training: Any = False, name: str | None = None) -> Any:
    """Dropout applied only when ``training`` (a bool or bool tensor) is true.

    Args:
        inputs: The input tensor.
        rate: The fraction of the inputs to drop.
        noise_shape: The shape of the keep/drop mask (broadcast against the inputs).
        seed: The seed of the mask.
        training: Whether to drop (True) or return the inputs as they are; a bool or a bool tensor.
        name: A name for the operation (optional).
    """
    return Dropout(rate, noise_shape=noise_shape, seed=seed, name=name).apply(
        inputs, training=training)


class Flatten(Layer):
    """Flattens every dimension but the first (the batch).

    Args:
        data_format: ``"channels_last"`` (also when None) or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    def __init__(self, data_format: str | None = None, name: str | None = None,
                 **kwargs: Any):
        super().__init__(name=name, **kwargs)
        self.data_format = data_format or "channels_last"

    def call(self, inputs: Any) -> Any:
        dims = inputs.shape.as_tuple()
        if dims is not None and len(dims) < 1:
            raise incompatible(self, "expected min_ndim=1, found ndim=0", inputs)
        if self.data_format == "channels_first" and dims is not None and len(dims) > 2:
            inputs = transpose(inputs, [0] + list(range(2, len(dims))) + [1])
            dims = inputs.shape.as_tuple()
        if dims is not None and all(d is not None for d in dims[1:]):
            outputs = reshape(inputs, [-1, int(np.prod(dims[1:], dtype=np.int64))])
            outputs.set_shape([dims[0], outputs.shape.as_tuple()[1]])
            return outputs
        return reshape(inputs, concat([shape(inputs)[:1], [-1]], 0))


def flatten(inputs: Any, name: str | None = None, data_format: str = "channels_last") -> Any:
    """``inputs`` reshaped to (batch, -1).

    Args:
        inputs: The input tensor.
        name: A name for the operation (optional).
        data_format: ``"channels_last"`` or ``"channels_first"``.
    """
    return Flatten(data_format=data_format, name=name).apply(inputs)


__all__ = ["Dense", "dense", "Dropout", "dropout", "Flatten", "flatten"]
