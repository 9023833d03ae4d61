"""The 3-D layers of TF1's ``tf.layers``: ``Conv3D`` / ``conv3d``, ``Conv3DTranspose`` /
``conv3d_transpose``, ``MaxPooling3D`` / ``max_pooling3d`` and ``AveragePooling3D`` /
``average_pooling3d`` over rank-5 inputs (``channels_last``: NDHWC), with TensorFlow's
variable names (``conv3d/kernel:0`` of shape (KD, KH, KW, C, filters))."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flowgrad.layers.convolutional import (Conv2D, _Pooling, _transposed_size)
from flowgrad.layers.core import add_kernel_and_bias, bias_and_activation, incompatible
from flowgrad.ops import init_ops
from flowgrad.ops.array_ops import shape, stack
from flowgrad.ops.conv3d_ops import conv3d_transpose_v2, conv3d_v2
from flowgrad.ops.pooling3d_ops import avg_pool3d, max_pool3d

_Ints = int | Sequence[int]


def _window5(dhw: tuple, data_format: str) -> list:
    return [1, 1, *dhw] if data_format == "channels_first" else [1, *dhw, 1]


def _nn_format(data_format: str) -> str:
    return "NCDHW" if data_format == "channels_first" else "NDHWC"


class Conv3D(Conv2D):
    """3-D convolution: ``activation(conv3d(inputs, kernel) + bias)``.

    Args:
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        dilation_rate: The dilation rate of the kernel: an int or one per spatial dimension.
        **kwargs: Further arguments of ``tf.layers.Conv2D`` (activation, use_bias, the
            initializers, regularizers and constraints, trainable, name, dtype).
    """

    _ndim = 5
    _rank = 3

    def __init__(self, filters: int, kernel_size: _Ints, strides: _Ints = (1, 1, 1),
                 padding: str = "valid", data_format: str = "channels_last",
                 dilation_rate: _Ints = (1, 1, 1), **kwargs: Any):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)

    def call(self, inputs: Any) -> Any:
        outputs = conv3d_v2(inputs, self.kernel, _window5(self.strides, self.data_format),
                            self.padding.upper(), data_format=_nn_format(self.data_format),
                            dilations=_window5(self.dilation_rate, self.data_format))
        return bias_and_activation(self, outputs,
                                   "NCHW" if self.data_format == "channels_first" else "NHWC")


Convolution3D = Conv3D


class Conv3DTranspose(Conv3D):
    """Transposed 3-D convolution (the gradient of conv3d): kernel (KD, KH, KW, filters, C).

    Args:
        filters: The number of output channels.
        kernel_size: The size of the convolution window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        **kwargs: Further arguments of ``tf.layers.Conv2D`` (activation, use_bias, the
            initializers, regularizers and constraints, trainable, name, dtype).

    Raises:
        NotImplementedError: a ``dilation_rate`` other than 1.
    """

    def __init__(self, filters: int, kernel_size: _Ints, strides: _Ints = (1, 1, 1),
                 padding: str = "valid", data_format: str = "channels_last", **kwargs: Any):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, **kwargs)
        if self.dilation_rate != (1, 1, 1):
            raise NotImplementedError("Conv3DTranspose with dilation_rate is not supported")

    def _check_input(self, inputs: Any) -> None:
        if self.built and inputs.shape.rank is not None:
            self._check_rank4(inputs)
            channels = inputs.shape.as_tuple()[self._channel_axis()]
            if channels is not None and channels != self.kernel.shape.as_tuple()[-1]:
                raise incompatible(self, "expected axis %d of input shape to have value %d"
                                   % (self._channel_axis(), self.kernel.shape.as_tuple()[-1]),
                                   inputs)
            return
        super()._check_input(inputs)

    def build(self, input_shape: Any) -> None:
        channels = input_shape.as_tuple()[self._channel_axis()]
        add_kernel_and_bias(self, [*self.kernel_size, self.filters, channels], self.filters)

    def call(self, inputs: Any) -> Any:
        first = self.data_format == "channels_first"
        dims = inputs.shape.as_tuple()
        spatial = dims[2:] if first else dims[1:4]
        dyn = shape(inputs)
        sizes = []
        for i, (d, k, s) in enumerate(zip(spatial, self.kernel_size, self.strides)):
            known = _transposed_size(d, k, s, self.padding)
            sizes.append(known if known is not None else
                         dyn[(2 if first else 1) + i] * s
                         + (0 if self.padding == "same" else max(k - s, 0)))
        batch = dims[0] if dims[0] is not None else dyn[0]
        out_shape = stack([batch, self.filters, *sizes] if first
                          else [batch, *sizes, self.filters])
        outputs = conv3d_transpose_v2(inputs, self.kernel, out_shape,
                                      _window5(self.strides, self.data_format),
                                      padding=self.padding.upper(),
                                      data_format=_nn_format(self.data_format))
        return bias_and_activation(self, outputs, "NCHW" if first else "NHWC")


Convolution3DTranspose = Conv3DTranspose


class _Pooling3D(_Pooling):
    _ndim = 5

    def call(self, inputs: Any) -> Any:
        return type(self)._pool(inputs, _window5(self.pool_size, self.data_format),
                                _window5(self.strides, self.data_format), self.padding.upper(),
                                data_format=_nn_format(self.data_format))


class MaxPooling3D(_Pooling3D):
    """Max over ``pool_size`` windows of a rank-5 input.

    Args:
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _pool = max_pool3d


class AveragePooling3D(_Pooling3D):
    """Mean over ``pool_size`` windows of a rank-5 input (SAME windows over their in-bounds
    elements).

    Args:
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).
        **kwargs: Further arguments of ``tf.layers.Layer`` (``dtype``, ``_scope``, ``_reuse``).
    """

    _pool = avg_pool3d


MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D


def conv3d(inputs: Any, filters: int, kernel_size: _Ints, strides: _Ints = (1, 1, 1),
           padding: str = "valid", data_format: str = "channels_last",
           dilation_rate: _Ints = (1, 1, 1), activation: Callable | str | None = None,
           use_bias: bool = True, kernel_initializer: Callable | str | None = None,
           bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
           kernel_regularizer: Callable | None = None, bias_regularizer: Callable | None = None,
           activity_regularizer: Callable | None = None, kernel_constraint: Callable | None = None,
           bias_constraint: Callable | None = None, trainable: bool = True, name: str | None = None,
           reuse: Any = None) -> Any:
    """A 3-D convolution layer (variables ``<scope>/kernel`` (KD, KH, KW, C, filters),
    ``bias``).

    Args:
        inputs: The rank-5 input tensor.
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

    Returns:
        The output tensor.
    """
    layer = Conv3D(filters, kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name,
                   _scope=name, _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


def conv3d_transpose(inputs: Any, filters: int, kernel_size: _Ints, strides: _Ints = (1, 1, 1),
                     padding: str = "valid", data_format: str = "channels_last",
                     activation: Callable | str | None = None, use_bias: bool = True,
                     kernel_initializer: Callable | str | None = None,
                     bias_initializer: Callable | str | None = init_ops.zeros_initializer(),
                     kernel_regularizer: Callable | None = None,
                     bias_regularizer: Callable | None = None,
                     activity_regularizer: Callable | None = None,
                     kernel_constraint: Callable | None = None,
                     bias_constraint: Callable | None = None, trainable: bool = True,
                     name: str | None = None, reuse: Any = None) -> Any:
    """A transposed 3-D convolution layer (variables ``<scope>/kernel``
    (KD, KH, KW, filters, C), ``bias``).

    Args:
        inputs: The rank-5 input tensor.
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

    Returns:
        The output tensor.
    """
    layer = Conv3DTranspose(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, activation=activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer,
                            kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer,
                            kernel_constraint=kernel_constraint,
                            bias_constraint=bias_constraint, trainable=trainable, name=name,
                            _scope=name, _reuse=reuse, activity_regularizer=activity_regularizer)
    return layer.apply(inputs)


def max_pooling3d(inputs: Any, pool_size: _Ints, strides: _Ints, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Any:
    """Max pooling over ``pool_size`` windows of a rank-5 input moved by ``strides``.

    Args:
        inputs: The rank-5 input tensor.
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).

    Returns:
        The output tensor.
    """
    return MaxPooling3D(pool_size, strides, padding=padding, data_format=data_format,
                        name=name).apply(inputs)


def average_pooling3d(inputs: Any, pool_size: _Ints, strides: _Ints, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Any:
    """Average pooling over ``pool_size`` windows of a rank-5 input moved by ``strides``.

    Args:
        inputs: The rank-5 input tensor.
        pool_size: The size of the pooling window: an int or one per spatial dimension.
        strides: The stride of the window: an int or one per spatial dimension.
        padding: ``"valid"`` or ``"same"`` (either case).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: A name for the operation (optional).

    Returns:
        The output tensor.
    """
    return AveragePooling3D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name).apply(inputs)


__all__ = ["Conv3D", "Convolution3D", "conv3d", "Conv3DTranspose", "Convolution3DTranspose",
           "conv3d_transpose", "MaxPooling3D", "MaxPool3D", "AveragePooling3D", "AvgPool3D",
           "max_pooling3d", "average_pooling3d"]
