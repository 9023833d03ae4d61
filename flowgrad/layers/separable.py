"""The TF1 ``tf.layers.SeparableConv2D`` / ``separable_conv2d``: a depthwise convolution
(``depthwise_kernel``, [kh, kw, in, depth_multiplier]) then a 1x1 convolution
(``pointwise_kernel``, [1, 1, in * depth_multiplier, filters]) plus ``bias``."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flowgrad.layers.convolutional import Conv2D, _nn_format, _window4
from flowgrad.layers.core import bias_and_activation
from flowgrad.ops import init_ops
from flowgrad.ops.conv_ops import separable_conv2d as _separable_conv2d


class SeparableConv2D(Conv2D):
    """A depthwise-separable 2-D convolution layer.

    Args:
        filters: The number of output channels.
        kernel_size: The depthwise window: an int or a pair.
        strides: The stride: an int or a pair.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The depthwise dilation: an int or a pair.
        depth_multiplier: Depthwise channels per input channel.
        activation: The activation; None for a linear layer.
        use_bias: Whether to add ``bias``.
        depthwise_initializer: The initializer of ``depthwise_kernel`` (Glorot uniform when
            None).
        pointwise_initializer: The initializer of ``pointwise_kernel`` (Glorot uniform when
            None).
        bias_initializer: The initializer of ``bias``.
        depthwise_regularizer: A regularizer of ``depthwise_kernel``.
        pointwise_regularizer: A regularizer of ``pointwise_kernel``.
        bias_regularizer: A regularizer of ``bias``.
        activity_regularizer: A function of the output whose result joins the regularization losses.
        depthwise_constraint: A projection of ``depthwise_kernel`` after each update.
        pointwise_constraint: A projection of ``pointwise_kernel`` after each update.
        bias_constraint: A projection of ``bias`` after each update.
        trainable: Whether the variables are trainable.
        name: The layer's name (its variable scope).
        **kwargs: Further arguments of ``tf.layers.Layer``.
    """

    def __init__(self, filters: int, kernel_size: int | Sequence[int],
                 strides: int | Sequence[int] = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last",
                 dilation_rate: int | Sequence[int] = (1, 1), depth_multiplier: int = 1,
                 activation: Callable | str | None = None, use_bias: bool = True,
                 depthwise_initializer: Callable | str | None = None,
                 pointwise_initializer: Callable | str | None = None,
                 bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
                 depthwise_regularizer: Callable | None = None,
                 pointwise_regularizer: Callable | None = None,
                 bias_regularizer: Callable | None = None,
                 activity_regularizer: Callable | None = None,
                 depthwise_constraint: Callable | None = None,
                 pointwise_constraint: Callable | None = None,
                 bias_constraint: Callable | None = None, trainable: bool = True,
                 name: str | None = None, **kwargs: Any):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         bias_constraint=bias_constraint, trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer
        self.depthwise_constraint = depthwise_constraint
        self.pointwise_constraint = pointwise_constraint
        self.depthwise_kernel = self.pointwise_kernel = None

    def _check_input(self, inputs: Any) -> None:
        self._check_rank4(inputs)
        if inputs.shape.rank is None:
            if not self.built:
                raise ValueError("The channel dimension of the inputs to layer %s should be "
                                 "defined. Found an input of unknown rank." % self.name)
            return
        channels = inputs.shape.as_tuple()[self._channel_axis()]
        if not self.built:
            if channels is None:
                raise ValueError("The channel dimension of the inputs to layer %s should be "
                                 "defined. Found `None`." % self.name)
            return
        expected = self.depthwise_kernel.shape.as_tuple()[2]
        if channels is not None and channels != expected:
            raise ValueError("Input 0 of layer %s is incompatible with the layer: expected "
                             "axis %d of input shape to have value %d"
                             % (self.name, self._channel_axis(), expected))

    def build(self, input_shape: Any) -> None:
        channels = input_shape.as_tuple()[self._channel_axis()]
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", [*self.kernel_size, channels, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", [1, 1, channels * self.depth_multiplier, self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", [self.filters],
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)

    def call(self, inputs: Any) -> Any:
        outputs = _separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel,
                                    _window4(self.strides, self.data_format),
                                    self.padding.upper(), rate=self.dilation_rate,
                                    data_format=_nn_format(self.data_format))
        return bias_and_activation(self, outputs, _nn_format(self.data_format))


def separable_conv2d(inputs: Any, filters: int, kernel_size: int | Sequence[int],
                     strides: int | Sequence[int] = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last",
                     dilation_rate: int | Sequence[int] = (1, 1), depth_multiplier: int = 1,
                     activation: Callable | str | None = None, use_bias: bool = True,
                     depthwise_initializer: Callable | str | None = None,
                     pointwise_initializer: Callable | str | None = None,
                     bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
                     depthwise_regularizer: Callable | None = None,
                     pointwise_regularizer: Callable | None = None,
                     bias_regularizer: Callable | None = None,
                     activity_regularizer: Callable | None = None,
                     depthwise_constraint: Callable | None = None,
                     pointwise_constraint: Callable | None = None,
                     bias_constraint: Callable | None = None, trainable: bool = True,
                     name: str | None = None, reuse: bool | None = None) -> Any:
    """The functional form of :class:`SeparableConv2D` (variables ``separable_conv2d/
    depthwise_kernel``, ``pointwise_kernel``, ``bias``).

    Args:
        inputs: A 4-D tensor.
        filters: The number of output channels.
        kernel_size: The depthwise window: an int or a pair.
        strides: The stride: an int or a pair.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The depthwise dilation: an int or a pair.
        depth_multiplier: Depthwise channels per input channel.
        activation: The activation; None for a linear layer.
        use_bias: Whether to add ``bias``.
        depthwise_initializer: The initializer of ``depthwise_kernel``.
        pointwise_initializer: The initializer of ``pointwise_kernel``.
        bias_initializer: The initializer of ``bias``.
        depthwise_regularizer: A regularizer of ``depthwise_kernel``.
        pointwise_regularizer: A regularizer of ``pointwise_kernel``.
        bias_regularizer: A regularizer of ``bias``.
        activity_regularizer: A function of the output whose result joins the regularization losses.
        depthwise_constraint: A projection of ``depthwise_kernel``.
        pointwise_constraint: A projection of ``pointwise_kernel``.
        bias_constraint: A projection of ``bias``.
        trainable: Whether the variables are trainable.
        name: The layer's name (its variable scope).
        reuse: Whether to reuse the variables of an earlier layer of the same name.

    Returns:
        The output tensor.
    """
    layer = SeparableConv2D(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        dilation_rate=dilation_rate, depth_multiplier=depth_multiplier, activation=activation,
        use_bias=use_bias, depthwise_initializer=depthwise_initializer,
        pointwise_initializer=pointwise_initializer, bias_initializer=bias_initializer,
        depthwise_regularizer=depthwise_regularizer,
        pointwise_regularizer=pointwise_regularizer, bias_regularizer=bias_regularizer,
        depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint,
        bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name,
        _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


__all__ = ["SeparableConv2D", "separable_conv2d"]
