"""Convolution and pooling layers: Conv2D, MaxPooling2D, AveragePooling2D (Keras 3 defaults:
'valid' padding, channels_last, kernel (kh, kw, in_channels, filters))."""
from __future__ import annotations

from typing import Any

from flowgrad.legacy_keras import activations, regularizers
from flowgrad.legacy_keras.layers.base import InputSpec, Layer
from flowgrad.legacy_keras.layers.core import add_kernel_and_bias, set_weight_options
from flowgrad.ops import conv_ops, math_ops, nn_ops, pooling_ops
from collections.abc import Callable, Sequence


def _pair(value: Any, arg: str) -> tuple:
    if isinstance(value, int):
        return (value, value)
    value = tuple(int(v) for v in value)
    if len(value) != 2:
        raise ValueError("The `%s` argument must be a tuple of 2 integers. Received %s=%s"
                         % (arg, arg, value))
    return value


def _padding(padding: str) -> str:
    p = str(padding).lower()
    if p not in ("valid", "same"):
        raise ValueError("The `padding` argument must be a string with one of the following "
                         "values: 'valid' or 'same'. Received: padding=%s" % padding)
    return p


def _data_format(data_format: str | None) -> str:
    if data_format is None:
        from flowgrad.legacy_keras import backend
        data_format = backend.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         "'channels_last'}. Received: data_format=%s" % data_format)
    return data_format


class Conv2D(Layer):
    """2-D convolution: kernel (kh, kw, in_channels, filters) glorot_uniform, bias zeros.

    Args:
        filters: The number of output channels.
        kernel_size: The window's height and width (an int for both).
        strides: The window's steps (an int for both).
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` (the default) or ``"channels_first"``.
        dilation_rate: The spacing of the window's taps.
        groups: Grouped convolution (1 only: another value raises NotImplementedError).
        activation: The activation applied to the output (a name or a callable; None: none).
        use_bias: Whether to add a bias.
        kernel_initializer: The kernel's initializer.
        bias_initializer: The bias's initializer.
        kernel_regularizer: A regularizer of the kernel.
        bias_regularizer: A regularizer of the bias.
        activity_regularizer: A regularizer of the output.
        kernel_constraint: A projection applied to the kernel after each update.
        bias_constraint: A projection applied to the bias after each update.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, filters: int, kernel_size: int | Sequence[int],
                 strides: int | Sequence[int] = (1, 1), padding: str = "valid",
                 data_format: str | None = None, dilation_rate: int | Sequence[int] = (1, 1),
                 groups: int = 1, activation: Callable | str | None = None, use_bias: bool = True,
                 kernel_initializer: Callable | str | None = "glorot_uniform",
                 bias_initializer: Callable | str | None = "zeros",
                 kernel_regularizer: Callable | None = None,
                 bias_regularizer: Callable | None = None,
                 activity_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, bias_constraint: Callable | None = None,
                 **kwargs: Any):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             "positive value. Received filters=%s." % filters)
        if groups != 1:
            raise NotImplementedError("flowgrad's Conv2D implements groups=1 only")
        self.filters = filters
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        set_weight_options(self, activation, use_bias, kernel_initializer, bias_initializer,
                           kernel_regularizer, bias_regularizer, kernel_constraint,
                           bias_constraint)
        self.input_spec = InputSpec(min_ndim=4)
        self._channel_axis = -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape: Any) -> None:
        if len(input_shape) != 4:
            raise ValueError("Input 0 of layer '%s' is incompatible with the layer: expected "
                             "ndim=4, found ndim=%d. Full shape received: %s"
                             % (self.name, len(input_shape), tuple(input_shape)))
        channels = input_shape[self._channel_axis]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input "
                             "shape received is %s, where axis %d (0-based) is the channel "
                             "dimension, which found to be `None`."
                             % (tuple(input_shape), self._channel_axis))
        add_kernel_and_bias(self, self.kernel_size + (channels, self.filters), self.filters)
        self.input_spec = InputSpec(ndim=4, axes={self._channel_axis: channels})

    def call(self, inputs: Any) -> Any:
        fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
        x = conv_ops.conv2d_v2(inputs, self.kernel, strides=list(self.strides),
                               padding=self.padding.upper(), data_format=fmt,
                               dilations=list(self.dilation_rate))
        if self.bias is not None:
            x = nn_ops.bias_add(x, self.bias, data_format=fmt)
        return self.activation(x) if self.activation is not activations.linear else x

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters,
                "kernel_size": self.kernel_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format,
                "activation": activations.serialize(self.activation)}


class _Pooling2D(Layer):
    _op: Any = None

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid",
                 data_format: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs: Any) -> Any:
        fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
        return type(self)._op(inputs, list(self.pool_size), list(self.strides),
                              self.padding.upper(), data_format=fmt)

    def get_config(self) -> dict:
        return {**super().get_config(), "pool_size": self.pool_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format}


class MaxPooling2D(_Pooling2D):
    """Max over ``pool_size`` windows (strides default to the pool size).

    Args:
        pool_size: The window's height and width (an int for both).
        strides: The window's steps (an int for both); None: ``pool_size``.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` (the default) or ``"channels_first"``.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(pooling_ops.max_pool2d)


class AveragePooling2D(_Pooling2D):
    """Mean over ``pool_size`` windows (strides default to the pool size).

    Args:
        pool_size: The window's height and width (an int for both).
        strides: The window's steps (an int for both); None: ``pool_size``.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` (the default) or ``"channels_first"``.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    _op = staticmethod(pooling_ops.avg_pool2d)


class GlobalAveragePooling2D(Layer):
    """Mean over the spatial dimensions.

    Args:
        data_format: ``"channels_last"`` (the default) or ``"channels_first"``.
        keepdims: Whether to keep the spatial dimensions with length 1.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs: Any) -> Any:
        axes = [1, 2] if self.data_format == "channels_last" else [2, 3]
        return math_ops.reduce_mean(inputs, axes, keepdims=self.keepdims)


Convolution2D = Conv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D

__all__ = ["Conv2D", "Convolution2D", "MaxPooling2D", "MaxPool2D", "AveragePooling2D",
           "AvgPool2D", "GlobalAveragePooling2D"]
