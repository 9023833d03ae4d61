"""``tf.layers.conv2d`` and ``max_pooling2d`` / ``average_pooling2d`` (TF1)."""
from __future__ import annotations

import numbers
from typing import Any

from flowgrad.layers.base import Layer
from flowgrad.layers.core import (
    add_kernel_and_bias,
    bias_and_activation,
    incompatible,
    set_weight_options,
)
from flowgrad.ops import init_ops
from flowgrad.ops.array_ops import shape, stack
from flowgrad.ops.conv_ops import conv1d_v2, conv2d_transpose_v2, conv2d_v2
from flowgrad.ops.pooling_ops import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from collections.abc import Callable, Sequence


def normalize_tuple(value: Any, n: int, name: str) -> tuple:
    """An int or a sequence of ``n`` ints as a tuple of ``n`` ints (ValueError otherwise)."""
    if isinstance(value, numbers.Integral):
        return (int(value),) * n
    try:
        out = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        out = ()
    if len(out) != n or any(not isinstance(v, numbers.Integral) for v in value):
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %r"
                         % (name, n, value))
    return out


def normalize_padding(value: Any) -> str:
    padding = value.lower() if isinstance(value, str) else value
    if padding not in ("valid", "same"):
        raise ValueError("The `padding` argument must be one of \"valid\", \"same\". Received: "
                         "%r" % (value,))
    return padding


def normalize_data_format(value: Any) -> str:
    fmt = (value or "channels_last").lower()
    if fmt not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of \"channels_first\", "
                         "\"channels_last\". Received: %r" % (value,))
    return fmt


def _window4(hw: tuple, data_format: str) -> list:
    return [1, 1, *hw] if data_format == "channels_first" else [1, *hw, 1]


def _nn_format(data_format: str) -> str:
    return "NCHW" if data_format == "channels_first" else "NHWC"


class _Spatial2D(Layer):
    """Checks shared by the spatial layers: input of rank ``_ndim`` (4 for 2-D layers)."""

    data_format = "channels_last"
    _ndim = 4

    def _channel_axis(self) -> int:
        return 1 if self.data_format == "channels_first" else -1

    def _check_rank4(self, inputs: Any) -> None:
        rank = inputs.shape.rank
        if rank is not None and rank != self._ndim:
            raise incompatible(self, "expected ndim=%d, found ndim=%d" % (self._ndim, rank),
                               inputs)


class Conv2D(_Spatial2D):
    """2-D convolution: ``activation(conv2d(inputs, kernel) + bias)``.

    Args:
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The dilation rate of the kernel: an int or one per spatial dimension.
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

    _rank = 2  # the number of spatial dimensions of the arguments

    def __init__(self, filters: int, kernel_size: int | Sequence[int],
                 strides: int | Sequence[int] = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: int | Sequence[int] = (1, 1),
                 activation: Callable | str | None = None, use_bias: bool = True,
                 kernel_initializer: Callable | str | None = None,
                 bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
                 kernel_regularizer: Callable | None = None,
                 bias_regularizer: Callable | None = None,
                 activity_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, bias_constraint: Callable | None = None,
                 trainable: bool = True, name: str | None = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(filters, numbers.Integral) or filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             "positive value. Received filters=%r." % (filters,))
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, self._rank, "kernel_size")
        self.strides = normalize_tuple(strides, self._rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, self._rank, "dilation_rate")
        set_weight_options(self, activation, use_bias, kernel_initializer, bias_initializer,
                           kernel_regularizer, bias_regularizer, kernel_constraint,
                           bias_constraint)

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
        elif channels is not None and channels != self.kernel.shape.as_tuple()[-2]:
            raise incompatible(self, "expected axis %d of input shape to have value %d"
                               % (self._channel_axis(), self.kernel.shape.as_tuple()[-2]),
                               inputs)

    def build(self, input_shape: Any) -> None:
        channels = input_shape.as_tuple()[self._channel_axis()]
        add_kernel_and_bias(self, [*self.kernel_size, channels, self.filters], self.filters)

    def call(self, inputs: Any) -> Any:
        outputs = conv2d_v2(inputs, self.kernel, _window4(self.strides, self.data_format),
                            self.padding.upper(), data_format=_nn_format(self.data_format),
                            dilations=_window4(self.dilation_rate, self.data_format))
        return bias_and_activation(self, outputs, _nn_format(self.data_format))


Convolution2D = Conv2D


def conv2d(inputs: Any, filters: int, kernel_size: int | Sequence[int],
           strides: int | Sequence[int] = (1, 1), padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: int | Sequence[int] = (1, 1),
           activation: Callable | str | None = None, use_bias: bool = True,
           kernel_initializer: Callable | str | None = None,
           bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
           kernel_regularizer: Callable | None = None, bias_regularizer: Callable | None = None,
           activity_regularizer: Callable | None = None, kernel_constraint: Callable | None = None,
           bias_constraint: Callable | None = None, trainable: bool = True, name: str | None = None,
           reuse: Any = None) -> Any:
    """A 2-D convolution layer (variables ``<scope>/kernel`` (KH, KW, C, filters), ``bias``).

    Args:
        inputs: The input tensor.
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The dilation rate of the kernel: an int or one per spatial dimension.
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
    layer = Conv2D(filters, kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name,
                   _scope=name, _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


def _transposed_size(size: int | None, k: int, s: int, padding: str) -> int | None:
    if size is None:
        return None
    return size * s if padding == "same" else size * s + max(k - s, 0)


class Conv2DTranspose(Conv2D):
    """Transposed 2-D convolution (the gradient of conv2d): kernel (KH, KW, filters, C).

    Args:
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    def __init__(self, filters: int, kernel_size: int | Sequence[int],
                 strides: int | Sequence[int] = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", **kwargs: Any):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, **kwargs)
        if self.dilation_rate != (1, 1):
            raise NotImplementedError("Conv2DTranspose with dilation_rate is not supported")

    def _check_input(self, inputs: Any) -> None:
        if self.built and inputs.shape.rank is not None:
            channels = inputs.shape.as_tuple()[self._channel_axis()]
            if channels is not None and channels != self.kernel.shape.as_tuple()[3]:
                raise incompatible(self, "expected axis %d of input shape to have value %d"
                                   % (self._channel_axis(), self.kernel.shape.as_tuple()[3]),
                                   inputs)
            return
        super()._check_input(inputs)

    def build(self, input_shape: Any) -> None:
        channels = input_shape.as_tuple()[self._channel_axis()]
        add_kernel_and_bias(self, [*self.kernel_size, self.filters, channels], self.filters)

    def call(self, inputs: Any) -> Any:
        first = self.data_format == "channels_first"
        dims = inputs.shape.as_tuple()
        hw = dims[2:] if first else dims[1:3]
        dyn = shape(inputs)
        out_hw = [_transposed_size(d, k, s, self.padding)
                  for d, k, s in zip(hw, self.kernel_size, self.strides)]
        sizes = [dyn[(2 if first else 1) + i] * s
                 + (0 if self.padding == "same" else max(k - s, 0))
                 if d is None else d
                 for i, (d, k, s) in enumerate(zip(out_hw, self.kernel_size, self.strides))]
        out_shape = stack([dyn[0], self.filters, *sizes] if first
                          else [dyn[0], *sizes, self.filters])
        outputs = conv2d_transpose_v2(inputs, self.kernel, out_shape,
                                      _window4(self.strides, self.data_format),
                                      self.padding.upper(),
                                      data_format=_nn_format(self.data_format))
        static = [dims[0], self.filters, *out_hw] if first else [dims[0], *out_hw, self.filters]
        outputs.set_shape(static)
        return bias_and_activation(self, outputs, _nn_format(self.data_format))


Convolution2DTranspose = Conv2DTranspose


def conv2d_transpose(inputs: Any, filters: int, kernel_size: int | Sequence[int],
                     strides: int | Sequence[int] = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Callable | str | None = None,
                     use_bias: bool = True, kernel_initializer: Callable | str | None = None,
                     bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
                     kernel_regularizer: Callable | None = None,
                     bias_regularizer: Callable | None = None,
                     activity_regularizer: Callable | None = None,
                     kernel_constraint: Callable | None = None,
                     bias_constraint: Callable | None = None, trainable: bool = True,
                     name: str | None = None, reuse: Any = None) -> Any:
    """A transposed convolution layer (variables ``<scope>/kernel`` (KH, KW, filters, C)).

    Args:
        inputs: The input tensor.
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
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
    layer = Conv2DTranspose(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, activation=activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer,
                            kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer,
                            kernel_constraint=kernel_constraint,
                            bias_constraint=bias_constraint, trainable=trainable, name=name,
                            _scope=name, _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


class Conv1D(Conv2D):
    """1-D convolution over (batch, steps, channels): kernel (K, C, filters).

    Args:
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The dilation rate of the kernel: an int or one per spatial dimension.
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _ndim = 3

    def __init__(self, filters: int, kernel_size: int | Sequence[int],
                 strides: int | Sequence[int] = 1, padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: int | Sequence[int] = 1,
                 **kwargs: Any):
        super().__init__(filters, normalize_tuple(kernel_size, 1, "kernel_size") * 2,
                         strides=normalize_tuple(strides, 1, "strides") * 2, padding=padding,
                         data_format=data_format,
                         dilation_rate=normalize_tuple(dilation_rate, 1, "dilation_rate") * 2,
                         **kwargs)
        self.kernel_size, self.strides = self.kernel_size[:1], self.strides[:1]
        self.dilation_rate = self.dilation_rate[:1]

    def call(self, inputs: Any) -> Any:
        fmt = "NCW" if self.data_format == "channels_first" else "NWC"
        outputs = conv1d_v2(inputs, self.kernel, self.strides[0], self.padding.upper(),
                            data_format=fmt, dilations=self.dilation_rate[0])
        return bias_and_activation(self, outputs, _nn_format(self.data_format))


Convolution1D = Conv1D


def conv1d(inputs: Any, filters: int, kernel_size: int | Sequence[int],
           strides: int | Sequence[int] = 1, padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: int | Sequence[int] = 1,
           activation: Callable | str | None = None, use_bias: bool = True,
           kernel_initializer: Callable | str | None = None,
           bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
           kernel_regularizer: Callable | None = None, bias_regularizer: Callable | None = None,
           activity_regularizer: Callable | None = None, kernel_constraint: Callable | None = None,
           bias_constraint: Callable | None = None, trainable: bool = True, name: str | None = None,
           reuse: Any = None) -> Any:
    """A 1-D convolution layer (variables ``<scope>/kernel`` (K, C, filters), ``bias``).

    Args:
        inputs: The input tensor.
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The dilation rate of the kernel: an int or one per spatial dimension.
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
    layer = Conv1D(filters, kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name,
                   _scope=name, _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


class _Pooling(_Spatial2D):
    """Pooling layers: ``pool_size`` and ``strides`` of ``_ndim - 2`` ints, op ``_pool``."""

    _pool: Any = None

    def __init__(self, pool_size: Any, strides: Any, padding: str = "valid",
                 data_format: str = "channels_last", name: str | None = None, **kwargs: Any):
        super().__init__(name=name, **kwargs)
        n = self._ndim - 2
        self.pool_size = normalize_tuple(pool_size, n, "pool_size")
        self.strides = normalize_tuple(strides if strides is not None else pool_size, n,
                                       "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)

    def _check_input(self, inputs: Any) -> None:
        self._check_rank4(inputs)


class _Pooling2D(_Pooling):
    def call(self, inputs: Any) -> Any:
        return type(self)._pool(inputs, _window4(self.pool_size, self.data_format),
                                _window4(self.strides, self.data_format), self.padding.upper(),
                                data_format=_nn_format(self.data_format))


class MaxPooling2D(_Pooling2D):
    """Max over ``pool_size`` windows.

    Args:
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _pool = max_pool2d


class AveragePooling2D(_Pooling2D):
    """Mean over ``pool_size`` windows.

    Args:
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _pool = avg_pool2d


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D


class _Pooling1D(_Pooling):
    _ndim = 3

    def call(self, inputs: Any) -> Any:
        fmt = "NCW" if self.data_format == "channels_first" else "NWC"
        return type(self)._pool(inputs, self.pool_size[0], self.strides[0],
                                self.padding.upper(), data_format=fmt)


class MaxPooling1D(_Pooling1D):
    """Max over ``pool_size`` steps.

    Args:
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _pool = max_pool1d


class AveragePooling1D(_Pooling1D):
    """Mean over ``pool_size`` steps.

    Args:
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _pool = avg_pool1d


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D


def max_pooling1d(inputs: Any, pool_size: int | Sequence[int], strides: int | Sequence[int],
                  padding: str = "valid", data_format: str = "channels_last",
                  name: str | None = None) -> Any:
    """Max pooling over ``pool_size`` steps moved by ``strides``.

    Args:
        inputs: The input tensor.
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
    """
    return MaxPooling1D(pool_size, strides, padding=padding, data_format=data_format,
                        name=name).apply(inputs)


def average_pooling1d(inputs: Any, pool_size: int | Sequence[int], strides: int | Sequence[int],
                      padding: str = "valid", data_format: str = "channels_last",
                      name: str | None = None) -> Any:
    """Average pooling over ``pool_size`` steps moved by ``strides``.

    Args:
        inputs: The input tensor.
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
    """
    return AveragePooling1D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name).apply(inputs)


def max_pooling2d(inputs: Any, pool_size: int | Sequence[int], strides: int | Sequence[int],
                  padding: str = "valid", data_format: str = "channels_last",
                  name: str | None = None) -> Any:
    """Max pooling over ``pool_size`` windows moved by ``strides``.

    Args:
        inputs: The input tensor.
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
    """
    return MaxPooling2D(pool_size, strides, padding=padding, data_format=data_format,
                        name=name).apply(inputs)


def average_pooling2d(inputs: Any, pool_size: int | Sequence[int], strides: int | Sequence[int],
                      padding: str = "valid", data_format: str = "channels_last",
                      name: str | None = None) -> Any:
    """Average pooling over ``pool_size`` windows moved by ``strides``.

    Args:
        inputs: The input tensor.
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
    """
    return AveragePooling2D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name).apply(inputs)


__all__ = ["Conv1D", "Convolution1D", "conv1d", "MaxPooling1D", "MaxPool1D", "AveragePooling1D",
           "AvgPool1D", "max_pooling1d", "average_pooling1d", "Conv2D", "Convolution2D",
           "conv2d", "Conv2DTranspose", "Convolution2DTranspose", "conv2d_transpose",
           "MaxPooling2D", "MaxPool2D", "AveragePooling2D", "AvgPool2D", "max_pooling2d",
           "average_pooling2d"]
