"""TensorFlow 1.15's ``tf.contrib.layers`` (and ``slim``) layer functions, composed of
flowgrad's ``tf.layers`` classes as TF 1.15's were: ``fully_connected``, ``conv2d``,
``conv2d_transpose``, ``max_pool2d``, ``avg_pool2d``, ``flatten``, ``dropout``, ``batch_norm``,
``layer_norm``, ``bias_add``, ``one_hot_encoding``, ``embed_sequence``, ``repeat``, ``stack``.

TF 1.15's names and defaults: ``activation_fn=tf.nn.relu`` and the uniform Xavier initializer
for ``fully_connected`` and the convolutions; variables ``<scope>/weights`` and
``<scope>/biases`` (scopes ``fully_connected``, ``Conv``, ``Conv2d_transpose``, ``BatchNorm``,
``LayerNorm``), in ``MODEL_VARIABLES`` too, so that checkpoints of such programs restore."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from flowgrad.compat.contrib.arg_scope import add_arg_scope
from flowgrad.compat.contrib.initializers import xavier_initializer
from flowgrad.compat.contrib.variables import model_variable
from flowgrad.framework import dtypes
from flowgrad.framework.graph import (GraphKeys, add_to_collections, control_dependencies,
                                      get_collection_ref, name_scope)
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike
from flowgrad.layers import convolutional as _conv_layers, core as _core_layers
from flowgrad.layers.normalization import BatchNormalization
from flowgrad.layers.separable import SeparableConv2D
from flowgrad.ops import init_ops, nn_impl, nn_ops
from flowgrad.ops.conv_ops import depthwise_conv2d
from flowgrad.ops.array_ops import identity, reshape, shape as _shape
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.fill_ops import one_hot
from flowgrad.ops.indexing_ops import embedding_lookup
from flowgrad.ops.variable_scope import variable_scope

DATA_FORMAT_NCHW = "NCHW"
DATA_FORMAT_NHWC = "NHWC"
_DATA_FORMATS = (None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW")
_RENAME = {"bias": "biases", "kernel": "weights"}


# -- helpers (TF 1.15's layers.utils) ----------------------------------------------------------
def append_tensor_alias(tensor: TensorLike, alias: str) -> TensorLike:
    """Adds ``alias`` (without a trailing ``/``) to ``tensor.aliases``.

    Args:
      tensor: A tensor.
      alias: Its alias, a layer's scope name.

    Returns:
      The tensor.
    """
    if alias.endswith("/"):
        alias = alias[:-1]
    try:
        if hasattr(tensor, "aliases"):
            tensor.aliases.append(alias)
        else:
            tensor.aliases = [alias]
    except AttributeError:      # a tensor type without room for attributes keeps no alias
        pass
    return tensor


def collect_named_outputs(collections: Sequence[str] | str | None, alias: str,
                          outputs: TensorLike) -> TensorLike:
    """Adds ``outputs`` (aliased ``alias``) to ``collections``, as the layers do with their
    ``outputs_collections``.

    Args:
      collections: Collection names (None: none).
      alias: The outputs' alias.
      outputs: The tensor.

    Returns:
      ``outputs``.
    """
    if collections:
        append_tensor_alias(outputs, alias)
        add_to_collections(collections, outputs)
    return outputs


def get_variable_collections(variables_collections: Sequence[str] | dict | None,
                             name: str) -> list | None:
    """The collections of the variable ``name``: ``variables_collections[name]`` for a dict,
    else ``variables_collections`` itself.

    Args:
      variables_collections: A list of collection names, or a dict from variable names to them.
      name: The variable's short name (``weights``, ``beta``, ...).

    Returns:
      The collection names, or None.
    """
    if isinstance(variables_collections, dict):
        return variables_collections.get(name, None)
    return variables_collections


def _add_variable_to_collections(var: object, variables_collections: Sequence | dict | None,
                                 name: str) -> None:
    collections = get_variable_collections(variables_collections, name) or []
    if isinstance(collections, str):
        collections = [collections]
    for collection in collections:
        ref = get_collection_ref(collection)
        if not any(v is var for v in ref):
            ref.append(var)


def _model_variable_getter(getter: Callable, name: str, shape: ShapeLike = None,
                           dtype: DTypeLike | None = None, initializer: object = None,
                           regularizer: Callable | None = None, trainable: bool = True,
                           collections: Sequence[str] | None = None, partitioner: object = None,
                           rename: dict | None = None, **kwargs: object) -> object:
    """A custom getter making the layers' variables model variables (``kernel`` renamed
    ``weights``, ``bias`` ``biases``)."""
    short_name = name.split("/")[-1]
    if rename and short_name in rename:
        name = "/".join(name.split("/")[:-1] + [rename[short_name]])
    passed = {k: kwargs[k] for k in ("reuse", "validate_shape", "constraint") if k in kwargs}
    return model_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                          regularizer=regularizer, collections=collections, trainable=trainable,
                          partitioner=partitioner,
                          custom_getter=functools.partial(getter, **passed))


def _build_variable_getter(rename: dict | None = None) -> Callable:
    def layer_variable_getter(getter: Callable, *args: object, **kwargs: object) -> object:
        kwargs["rename"] = rename
        kwargs.pop("reuse", None)
        return _model_variable_getter(getter, *args, **kwargs)
    return layer_variable_getter


def _channels(data_format: str | None) -> str:
    return "channels_first" if data_format and data_format.startswith("NC") else "channels_last"


def _finish(layer: object, outputs: TensorLike, sc: object, variables_collections: object,
            normalizer_fn: Callable | None, normalizer_params: dict | None,
            activation_fn: Callable | None, outputs_collections: object) -> TensorLike:
    _add_variable_to_collections(layer.kernel, variables_collections, "weights")
    if layer.bias is not None:
        _add_variable_to_collections(layer.bias, variables_collections, "biases")
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return collect_named_outputs(outputs_collections, sc.name, outputs)


# -- the layers -------------------------------------------------------------------------------
@add_arg_scope
def fully_connected(inputs: TensorLike, num_outputs: int,
                    activation_fn: Callable | None = nn_ops.relu,
                    normalizer_fn: Callable | None = None, normalizer_params: dict | None = None,
                    weights_initializer: Callable | None = xavier_initializer(),
                    weights_regularizer: Callable | None = None,
                    biases_initializer: Callable | None = init_ops.zeros_initializer(),
                    biases_regularizer: Callable | None = None, reuse: bool | None = None,
                    variables_collections: Sequence[str] | dict | None = None,
                    outputs_collections: Sequence[str] | None = None, trainable: bool = True,
                    scope: str | None = None) -> TensorLike:
    """A fully connected layer: ``activation_fn(inputs @ weights + biases)`` over the last
    axis (variables ``fully_connected/weights`` and ``fully_connected/biases``).

    Args:
      inputs: A tensor of rank 2 or more with a known last dimension.
      num_outputs: The number of output units.
      activation_fn: The activation (``tf.nn.relu``); None for a linear layer.
      normalizer_fn: A normalization (``batch_norm``) applied before the activation, in place
        of the biases.
      normalizer_params: Its keyword arguments.
      weights_initializer: The weights' initializer (uniform Xavier).
      weights_regularizer: The weights' regularizer.
      biases_initializer: The biases' initializer (zeros); None for no biases.
      biases_regularizer: The biases' regularizer.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variables (a list, or a dict by
        ``weights``/``biases``).
      outputs_collections: Collections to add the outputs to.
      trainable: Whether the variables are trainable.
      scope: The variable scope (``fully_connected`` when None).

    Returns:
      The outputs, shaped as ``inputs`` but for the last axis, ``num_outputs``.

    Raises:
      ValueError: ``num_outputs`` is not an integer.
    """
    if not isinstance(num_outputs, int):
        raise ValueError("num_outputs type should be one of %s, got %s."
                         % ([int], type(num_outputs)))
    with variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                        custom_getter=_build_variable_getter(_RENAME)) as sc:
        inputs = convert_to_tensor(inputs)
        layer = _core_layers.Dense(
            units=num_outputs, activation=None,
            use_bias=bool(not normalizer_fn and biases_initializer),
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
            _reuse=reuse)
        outputs = layer.apply(inputs)
        return _finish(layer, outputs, sc, variables_collections, normalizer_fn,
                       normalizer_params, activation_fn, outputs_collections)


@add_arg_scope
def convolution(inputs: TensorLike, num_outputs: int, kernel_size: int | Sequence[int],
                stride: int | Sequence[int] = 1, padding: str = "SAME",
                data_format: str | None = None, rate: int | Sequence[int] = 1,
                activation_fn: Callable | None = nn_ops.relu,
                normalizer_fn: Callable | None = None, normalizer_params: dict | None = None,
                weights_initializer: Callable | None = xavier_initializer(),
                weights_regularizer: Callable | None = None,
                biases_initializer: Callable | None = init_ops.zeros_initializer(),
                biases_regularizer: Callable | None = None, reuse: bool | None = None,
                variables_collections: Sequence[str] | dict | None = None,
                outputs_collections: Sequence[str] | None = None, trainable: bool = True,
                scope: str | None = None, conv_dims: int | None = None) -> TensorLike:
    """A convolution layer over 1 or 2 spatial dimensions (by the rank of ``inputs``):
    ``activation_fn(conv(inputs, weights) + biases)``; variables ``Conv/weights`` (shape
    ``kernel_size + [in_channels, num_outputs]``) and ``Conv/biases``.

    Args:
      inputs: A [batch, width, channels] or [batch, height, width, channels] tensor (channels
        first with ``data_format`` ``NCW``/``NCHW``).
      num_outputs: The number of output channels.
      kernel_size: The window size: an int or one per spatial dimension.
      stride: The stride: an int or one per spatial dimension.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``None``/``"NWC"``/``"NHWC"`` (channels last) or ``"NCW"``/``"NCHW"``.
      rate: The dilation rate (atrous convolution).
      activation_fn: The activation (``tf.nn.relu``); None for none.
      normalizer_fn: A normalization applied before the activation, in place of the biases.
      normalizer_params: Its keyword arguments.
      weights_initializer: The weights' initializer (uniform Xavier).
      weights_regularizer: The weights' regularizer.
      biases_initializer: The biases' initializer (zeros); None for no biases.
      biases_regularizer: The biases' regularizer.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variables.
      outputs_collections: Collections to add the outputs to.
      trainable: Whether the variables are trainable.
      scope: The variable scope (``Conv`` when None).
      conv_dims: The number of spatial dimensions expected (None: from the rank).

    Returns:
      The outputs.

    Raises:
      ValueError: a bad ``data_format``, or an input rank that does not fit.
    """
    if data_format not in _DATA_FORMATS:
        raise ValueError("Invalid data_format: %r" % (data_format,))
    with variable_scope(scope, "Conv", [inputs], reuse=reuse,
                        custom_getter=_build_variable_getter(_RENAME)) as sc:
        inputs = convert_to_tensor(inputs)
        input_rank = inputs.shape.ndims
        if conv_dims is not None and conv_dims + 2 != input_rank:
            raise ValueError("Convolution expects input with rank %d, got %d"
                             % (conv_dims + 2, input_rank))
        if input_rank == 3:
            layer_class = _conv_layers.Conv1D
        elif input_rank == 4:
            layer_class = _conv_layers.Conv2D
        else:
            raise ValueError("Convolution not supported for input with rank", input_rank)
        layer = layer_class(
            filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
            data_format=_channels(data_format), dilation_rate=rate, activation=None,
            use_bias=bool(not normalizer_fn and biases_initializer),
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
            _reuse=reuse)
        outputs = layer.apply(inputs)
        return _finish(layer, outputs, sc, variables_collections, normalizer_fn,
                       normalizer_params, activation_fn, outputs_collections)


def _fixed_dims(conv_dims: int, name: str) -> Callable:
    def conv(inputs: TensorLike, num_outputs: int, kernel_size: int | Sequence[int],
             stride: int | Sequence[int] = 1, padding: str = "SAME",
             data_format: str | None = None, rate: int | Sequence[int] = 1,
             activation_fn: Callable | None = nn_ops.relu,
             normalizer_fn: Callable | None = None, normalizer_params: dict | None = None,
             weights_initializer: Callable | None = xavier_initializer(),
             weights_regularizer: Callable | None = None,
             biases_initializer: Callable | None = init_ops.zeros_initializer(),
             biases_regularizer: Callable | None = None, reuse: bool | None = None,
             variables_collections: Sequence[str] | dict | None = None,
             outputs_collections: Sequence[str] | None = None, trainable: bool = True,
             scope: str | None = None) -> TensorLike:
        return convolution(inputs, num_outputs, kernel_size, stride, padding, data_format,
                           rate, activation_fn, normalizer_fn, normalizer_params,
                           weights_initializer, weights_regularizer, biases_initializer,
                           biases_regularizer, reuse, variables_collections,
                           outputs_collections, trainable, scope, conv_dims=conv_dims)
    conv.__name__ = conv.__qualname__ = name
    conv.__doc__ = convolution.__doc__.replace(
        "over 1 or 2 spatial dimensions (by the rank of ``inputs``)",
        "over %d spatial dimension%s" % (conv_dims, "s" if conv_dims > 1 else "")).replace(
        "      conv_dims: The number of spatial dimensions expected (None: from the rank).\n",
        "")
    return add_arg_scope(conv)


convolution1d = _fixed_dims(1, "convolution1d")
convolution2d = _fixed_dims(2, "convolution2d")
conv1d = convolution1d
conv2d = convolution2d


@add_arg_scope
def convolution2d_transpose(inputs: TensorLike, num_outputs: int,
                            kernel_size: int | Sequence[int], stride: int | Sequence[int] = 1,
                            padding: str = "SAME", data_format: str = DATA_FORMAT_NHWC,
                            activation_fn: Callable | None = nn_ops.relu,
                            normalizer_fn: Callable | None = None,
                            normalizer_params: dict | None = None,
                            weights_initializer: Callable | None = xavier_initializer(),
                            weights_regularizer: Callable | None = None,
                            biases_initializer: Callable | None = init_ops.zeros_initializer(),
                            biases_regularizer: Callable | None = None,
                            reuse: bool | None = None,
                            variables_collections: Sequence[str] | dict | None = None,
                            outputs_collections: Sequence[str] | None = None,
                            trainable: bool = True, scope: str | None = None) -> TensorLike:
    """A transposed 2-D convolution layer (variables ``Conv2d_transpose/weights``, shape
    ``kernel_size + [num_outputs, in_channels]``, and ``Conv2d_transpose/biases``).

    Args:
      inputs: A [batch, height, width, channels] tensor (NCHW with ``data_format``).
      num_outputs: The number of output channels.
      kernel_size: The window size: an int or a pair.
      stride: The stride: an int or a pair.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NHWC"`` or ``"NCHW"``.
      activation_fn: The activation (``tf.nn.relu``); None for none.
      normalizer_fn: A normalization applied before the activation, in place of the biases.
      normalizer_params: Its keyword arguments.
      weights_initializer: The weights' initializer (uniform Xavier).
      weights_regularizer: The weights' regularizer.
      biases_initializer: The biases' initializer (zeros); None for no biases.
      biases_regularizer: The biases' regularizer.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variables.
      outputs_collections: Collections to add the outputs to.
      trainable: Whether the variables are trainable.
      scope: The variable scope (``Conv2d_transpose`` when None).

    Returns:
      The outputs.

    Raises:
      ValueError: ``data_format`` is neither NCHW nor NHWC.
    """
    with variable_scope(scope, "Conv2d_transpose", [inputs], reuse=reuse,
                        custom_getter=_build_variable_getter(_RENAME)) as sc:
        if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
            raise ValueError("data_format has to be either NCHW or NHWC.")
        inputs = convert_to_tensor(inputs)
        layer = _conv_layers.Conv2DTranspose(
            filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
            data_format=_channels(data_format), activation=None,
            use_bias=bool(not normalizer_fn and biases_initializer),
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
            _reuse=reuse)
        outputs = layer.apply(inputs)
        return _finish(layer, outputs, sc, variables_collections, normalizer_fn,
                       normalizer_params, activation_fn, outputs_collections)


conv2d_transpose = convolution2d_transpose


@add_arg_scope
def separable_convolution2d(inputs: TensorLike, num_outputs: int | None,
                            kernel_size: int | Sequence[int], depth_multiplier: int = 1,
                            stride: int | Sequence[int] = 1, padding: str = "SAME",
                            data_format: str = DATA_FORMAT_NHWC,
                            rate: int | Sequence[int] = 1,
                            activation_fn: Callable | None = nn_ops.relu,
                            normalizer_fn: Callable | None = None,
                            normalizer_params: dict | None = None,
                            weights_initializer: Callable | None = xavier_initializer(),
                            pointwise_initializer: Callable | None = None,
                            weights_regularizer: Callable | None = None,
                            biases_initializer: Callable | None = init_ops.zeros_initializer(),
                            biases_regularizer: Callable | None = None,
                            reuse: bool | None = None,
                            variables_collections: Sequence[str] | dict | None = None,
                            outputs_collections: Sequence[str] | None = None,
                            trainable: bool = True, scope: str | None = None) -> TensorLike:
    """A depthwise-separable convolution (variables ``SeparableConv2d/depthwise_weights``,
    ``pointwise_weights`` and ``biases``); with ``num_outputs=None`` only the depthwise
    convolution (``depthwise_weights`` and ``biases``).

    Args:
      inputs: A 4-D tensor.
      num_outputs: The output channels of the pointwise convolution; None for none.
      kernel_size: The depthwise window: an int or a pair.
      depth_multiplier: Depthwise channels per input channel.
      stride: The stride: an int or a pair.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NHWC"`` or ``"NCHW"``.
      rate: The depthwise dilation: an int or a pair.
      activation_fn: The activation (``tf.nn.relu``); None for none.
      normalizer_fn: A normalization applied before the activation, in place of the biases.
      normalizer_params: Its keyword arguments.
      weights_initializer: The depthwise weights' initializer (uniform Xavier).
      pointwise_initializer: The pointwise weights' initializer (``weights_initializer`` when
        None).
      weights_regularizer: The weights' regularizer.
      biases_initializer: The biases' initializer (zeros); None for no biases.
      biases_regularizer: The biases' regularizer.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variables.
      outputs_collections: Collections to add the outputs to.
      trainable: Whether the variables are trainable.
      scope: The variable scope (``SeparableConv2d`` when None).

    Returns:
      The outputs.

    Raises:
      ValueError: ``data_format`` is neither NCHW nor NHWC.
    """
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    rename = {"bias": "biases", "depthwise_kernel": "depthwise_weights",
              "pointwise_kernel": "pointwise_weights"}
    with variable_scope(scope, "SeparableConv2d", [inputs], reuse=reuse,
                        custom_getter=_build_variable_getter(rename)) as sc:
        inputs = convert_to_tensor(inputs)
        if pointwise_initializer is None:
            pointwise_initializer = weights_initializer
        df = _channels(data_format)
        rates = (rate, rate) if isinstance(rate, int) else tuple(rate)
        if num_outputs is not None:
            layer = SeparableConv2D(
                filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
                data_format=df, dilation_rate=rates, activation=None,
                depth_multiplier=depth_multiplier,
                use_bias=bool(not normalizer_fn and biases_initializer),
                depthwise_initializer=weights_initializer,
                pointwise_initializer=pointwise_initializer,
                bias_initializer=biases_initializer, depthwise_regularizer=weights_regularizer,
                pointwise_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
                _reuse=reuse)
            outputs = layer.apply(inputs)
            _add_variable_to_collections(layer.depthwise_kernel, variables_collections,
                                         "weights")
            _add_variable_to_collections(layer.pointwise_kernel, variables_collections,
                                         "weights")
            if layer.bias is not None:
                _add_variable_to_collections(layer.bias, variables_collections, "biases")
            if normalizer_fn is not None:
                outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        else:
            dtype = inputs.dtype.base_dtype
            kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) \
                else tuple(kernel_size)
            sh, sw = (stride, stride) if isinstance(stride, int) else tuple(stride)
            num_in = inputs.shape.as_list()[1 if df == "channels_first" else -1]
            depthwise_weights = model_variable(
                "depthwise_weights", shape=[kh, kw, num_in, depth_multiplier], dtype=dtype,
                initializer=weights_initializer, regularizer=weights_regularizer,
                trainable=trainable,
                collections=get_variable_collections(variables_collections, "weights"))
            strides = [1, 1, sh, sw] if data_format.startswith("NC") else [1, sh, sw, 1]
            outputs = depthwise_conv2d(inputs, depthwise_weights, strides, padding,
                                       rate=rates, data_format=data_format)
            if normalizer_fn is not None:
                outputs = normalizer_fn(outputs, **(normalizer_params or {}))
            elif biases_initializer is not None:
                biases = model_variable(
                    "biases", shape=[depth_multiplier * num_in], dtype=dtype,
                    initializer=biases_initializer, regularizer=biases_regularizer,
                    trainable=trainable,
                    collections=get_variable_collections(variables_collections, "biases"))
                outputs = nn_ops.bias_add(outputs, biases, data_format=data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


separable_conv2d = separable_convolution2d


def _pool(layer_class: type, default_name: str, inputs: TensorLike,
          kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: str,
          data_format: str, outputs_collections: Sequence[str] | None,
          scope: str | None) -> TensorLike:
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with name_scope(scope, default_name, [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        layer = layer_class(pool_size=kernel_size, strides=stride, padding=padding,
                            data_format=_channels(data_format), _scope=sc)
        outputs = layer.apply(inputs)
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def max_pool2d(inputs: TensorLike, kernel_size: int | Sequence[int],
               stride: int | Sequence[int] = 2, padding: str = "VALID",
               data_format: str = DATA_FORMAT_NHWC,
               outputs_collections: Sequence[str] | None = None,
               scope: str | None = None) -> TensorLike:
    """2-D max pooling (name scope ``MaxPool2D``).

    Args:
      inputs: A [batch, height, width, channels] tensor (NCHW with ``data_format``).
      kernel_size: The window: an int or a pair.
      stride: The stride: an int or a pair (2).
      padding: ``"VALID"`` or ``"SAME"``.
      data_format: ``"NHWC"`` or ``"NCHW"``.
      outputs_collections: Collections to add the outputs to.
      scope: The name scope.

    Returns:
      The pooled tensor.

    Raises:
      ValueError: ``data_format`` is neither NCHW nor NHWC.
    """
    return _pool(_conv_layers.MaxPooling2D, "MaxPool2D", inputs, kernel_size, stride, padding,
                 data_format, outputs_collections, scope)


@add_arg_scope
def avg_pool2d(inputs: TensorLike, kernel_size: int | Sequence[int],
               stride: int | Sequence[int] = 2, padding: str = "VALID",
               data_format: str = DATA_FORMAT_NHWC,
               outputs_collections: Sequence[str] | None = None,
               scope: str | None = None) -> TensorLike:
    """2-D average pooling (name scope ``AvgPool2D``).

    Args:
      inputs: A [batch, height, width, channels] tensor (NCHW with ``data_format``).
      kernel_size: The window: an int or a pair.
      stride: The stride: an int or a pair (2).
      padding: ``"VALID"`` or ``"SAME"``.
      data_format: ``"NHWC"`` or ``"NCHW"``.
      outputs_collections: Collections to add the outputs to.
      scope: The name scope.

    Returns:
      The pooled tensor.

    Raises:
      ValueError: ``data_format`` is neither NCHW nor NHWC.
    """
    return _pool(_conv_layers.AveragePooling2D, "AvgPool2D", inputs, kernel_size, stride,
                 padding, data_format, outputs_collections, scope)


@add_arg_scope
def flatten(inputs: TensorLike, outputs_collections: Sequence[str] | None = None,
            scope: str | None = None) -> TensorLike:
    """``inputs`` reshaped to [batch, k], the batch dimension kept (name scope ``Flatten``).

    Args:
      inputs: A tensor of rank 2 or more.
      outputs_collections: Collections to add the outputs to.
      scope: The name scope.

    Returns:
      The flattened tensor.

    Raises:
      ValueError: ``inputs`` has a rank below 2 or an unknown rank.
    """
    with name_scope(scope, "Flatten", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        if inputs.shape.ndims is None or inputs.shape.ndims < 2:
            raise ValueError("Inputs must have a least 2 dimensions.")
        dims = inputs.shape.as_list()
        rest = dims[1:]
        if all(d is not None for d in rest):
            k = 1
            for d in rest:
                k *= d
            outputs = reshape(inputs, [dims[0] if dims[0] is not None else -1, k])
        else:
            outputs = reshape(inputs, [_shape(inputs)[0], -1])
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def dropout(inputs: TensorLike, keep_prob: float | TensorLike = 0.5,
            noise_shape: ShapeLike = None, is_training: bool | TensorLike = True,
            outputs_collections: Sequence[str] | None = None, scope: str | None = None,
            seed: int | None = None) -> TensorLike:
    """Dropout keeping each element with probability ``keep_prob`` (scaled by
    ``1 / keep_prob``) while ``is_training``; the identity otherwise.

    Args:
      inputs: The tensor.
      keep_prob: The probability of keeping an element (a float or a scalar tensor).
      noise_shape: The shape of the keep/drop mask (broadcast against ``inputs``).
      is_training: Whether to drop (a bool or a boolean tensor).
      outputs_collections: Collections to add the outputs to.
      scope: The variable scope (``Dropout`` when None).
      seed: The mask's op seed.

    Returns:
      The tensor after dropout.
    """
    with variable_scope(scope, "Dropout", [inputs],
                        custom_getter=_build_variable_getter()) as sc:
        inputs = convert_to_tensor(inputs)
        layer = _core_layers.Dropout(rate=1 - keep_prob, noise_shape=noise_shape, seed=seed,
                                     name=sc.name, _scope=sc)
        outputs = layer.apply(inputs, training=is_training)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def batch_norm(inputs: TensorLike, decay: float = 0.999, center: bool = True,
               scale: bool = False, epsilon: float = 0.001,
               activation_fn: Callable | None = None, param_initializers: dict | None = None,
               param_regularizers: dict | None = None,
               updates_collections: str | None = GraphKeys.UPDATE_OPS,
               is_training: bool | TensorLike = True, reuse: bool | None = None,
               variables_collections: Sequence[str] | dict | None = None,
               outputs_collections: Sequence[str] | None = None, trainable: bool = True,
               batch_weights: TensorLike | None = None, fused: bool | None = None,
               data_format: str = DATA_FORMAT_NHWC, zero_debias_moving_mean: bool = False,
               scope: str | None = None, renorm: bool = False,
               renorm_clipping: dict | None = None, renorm_decay: float = 0.99,
               adjustment: Callable | None = None) -> TensorLike:
    """Batch normalization over the last axis (the channel axis, axis 1 with ``NCHW``):
    variables ``BatchNorm/beta`` (``center``), ``BatchNorm/gamma`` (``scale``, off by default),
    ``BatchNorm/moving_mean`` and ``BatchNorm/moving_variance``, updated by the ops in
    ``updates_collections`` (``UPDATE_OPS``; run them with the train op), or in place with
    ``updates_collections=None``.

    Args:
      inputs: A tensor of rank 2 or more.
      decay: The moving averages' decay.
      center: Whether to add the learned offset ``beta``.
      scale: Whether to multiply by the learned ``gamma``.
      epsilon: Added to the variance.
      activation_fn: An activation applied last.
      param_initializers: Initializers by name (``beta``, ``gamma``, ``moving_mean``,
        ``moving_variance``).
      param_regularizers: Regularizers by name (``beta``, ``gamma``).
      updates_collections: Where the update ops go; None updates in place.
      is_training: Whether to normalize with the batch's statistics (and update the moving
        averages) or with the moving averages: a bool or a boolean tensor.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variables.
      outputs_collections: Collections to add the outputs to.
      trainable: Whether ``beta`` and ``gamma`` are trainable.
      batch_weights: Per-example weights (not supported: raises).
      fused: Whether to use the fused kernel's statistics (None: where it applies).
      data_format: ``"NHWC"`` or ``"NCHW"``.
      zero_debias_moving_mean: Zero-debiasing of the moving mean (not supported: raises).
      scope: The variable scope (``BatchNorm`` when None).
      renorm: Batch renormalization (not supported: raises).
      renorm_clipping: Batch renormalization's clipping.
      renorm_decay: Batch renormalization's decay.
      adjustment: A function adjusting the normalized values (not supported: raises).

    Returns:
      The normalized tensor.

    Raises:
      ValueError: a bad ``data_format`` or an input of unknown rank.
      NotImplementedError: ``batch_weights``, ``zero_debias_moving_mean`` or ``renorm``.
    """
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    if batch_weights is not None or zero_debias_moving_mean or renorm:
        raise NotImplementedError("batch_norm with batch_weights, zero_debias_moving_mean or "
                                  "renorm is not supported by flowgrad")
    inputs = convert_to_tensor(inputs)
    if inputs.shape.ndims is None:
        raise ValueError("Inputs %s has undefined rank." % inputs.name)
    param_initializers = param_initializers or {}
    param_regularizers = param_regularizers or {}
    with variable_scope(scope, "BatchNorm", [inputs], reuse=reuse,
                        custom_getter=_build_variable_getter()) as sc:
        layer = BatchNormalization(
            axis=1 if data_format == DATA_FORMAT_NCHW else -1, momentum=decay,
            epsilon=epsilon, center=center, scale=scale,
            beta_initializer=param_initializers.get("beta", init_ops.zeros_initializer()),
            gamma_initializer=param_initializers.get("gamma", init_ops.ones_initializer()),
            moving_mean_initializer=param_initializers.get("moving_mean",
                                                           init_ops.zeros_initializer()),
            moving_variance_initializer=param_initializers.get("moving_variance",
                                                               init_ops.ones_initializer()),
            beta_regularizer=param_regularizers.get("beta"),
            gamma_regularizer=param_regularizers.get("gamma"), trainable=trainable,
            fused=fused, name=sc.name, _scope=sc, _reuse=reuse, adjustment=adjustment)
        outputs = layer.apply(inputs, training=is_training)
        for name in ("moving_mean", "moving_variance", "beta", "gamma"):
            var = getattr(layer, name, None)
            if var is not None:
                _add_variable_to_collections(var, variables_collections, name)
        if layer.updates and updates_collections != GraphKeys.UPDATE_OPS:
            ref = get_collection_ref(GraphKeys.UPDATE_OPS)
            ref[:] = [op for op in ref if not any(op is u for u in layer.updates)]
            if updates_collections is None:
                with control_dependencies(layer.updates):
                    outputs = identity(outputs)
            else:
                for update in layer.updates:
                    add_to_collections(updates_collections, update)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def layer_norm(inputs: TensorLike, center: bool = True, scale: bool = True,
               activation_fn: Callable | None = None, reuse: bool | None = None,
               variables_collections: Sequence[str] | dict | None = None,
               outputs_collections: Sequence[str] | None = None, trainable: bool = True,
               begin_norm_axis: int = 1, begin_params_axis: int = -1,
               scope: str | None = None) -> TensorLike:
    """Layer normalization: each example normalized over the axes from ``begin_norm_axis``
    (variance epsilon 1e-12), then scaled by ``LayerNorm/gamma`` and shifted by
    ``LayerNorm/beta`` (shaped as the axes from ``begin_params_axis``).

    Args:
      inputs: A tensor of known rank.
      center: Whether to add ``beta``.
      scale: Whether to multiply by ``gamma``.
      activation_fn: An activation applied last.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variables.
      outputs_collections: Collections to add the outputs to.
      trainable: Whether the variables are trainable.
      begin_norm_axis: The first axis normalized over.
      begin_params_axis: The first axis of the parameters' shape.
      scope: The variable scope (``LayerNorm`` when None).

    Returns:
      The normalized tensor.

    Raises:
      ValueError: an unknown rank, axes past the rank, or parameter axes of unknown size.
    """
    with variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        inputs_shape = inputs.shape
        inputs_rank = inputs_shape.ndims
        if inputs_rank is None:
            raise ValueError("Inputs %s has undefined rank." % inputs.name)
        dtype = inputs.dtype.base_dtype
        if begin_norm_axis < 0:
            begin_norm_axis = inputs_rank + begin_norm_axis
        if begin_params_axis >= inputs_rank or begin_norm_axis >= inputs_rank:
            raise ValueError("begin_params_axis (%d) and begin_norm_axis (%d) must be < "
                             "rank(inputs) (%d)" % (begin_params_axis, begin_norm_axis,
                                                    inputs_rank))
        params_shape = inputs_shape[begin_params_axis:]
        if not params_shape.is_fully_defined():
            raise ValueError("Inputs %s: shape(inputs)[%s:] is not fully defined: %s"
                             % (inputs.name, begin_params_axis, inputs_shape))
        beta = gamma = None
        if center:
            beta = model_variable(
                "beta", shape=params_shape, dtype=dtype,
                initializer=init_ops.zeros_initializer(),
                collections=get_variable_collections(variables_collections, "beta"),
                trainable=trainable)
        if scale:
            gamma = model_variable(
                "gamma", shape=params_shape, dtype=dtype,
                initializer=init_ops.ones_initializer(),
                collections=get_variable_collections(variables_collections, "gamma"),
                trainable=trainable)
        norm_axes = list(range(begin_norm_axis, inputs_rank))
        mean, variance = nn_impl.moments(inputs, norm_axes, keep_dims=True)
        variance_epsilon = 1e-12 if dtype != dtypes.float16 else 1e-3
        outputs = nn_impl.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                              variance_epsilon=variance_epsilon)
        outputs.set_shape(inputs_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def bias_add(inputs: TensorLike, activation_fn: Callable | None = None,
             initializer: Callable | None = init_ops.zeros_initializer(),
             regularizer: Callable | None = None, reuse: bool | None = None,
             variables_collections: Sequence[str] | dict | None = None,
             outputs_collections: Sequence[str] | None = None, trainable: bool = True,
             data_format: str = DATA_FORMAT_NHWC, scope: str | None = None) -> TensorLike:
    """Adds a learned bias ``BiasAdd/biases`` over the channel axis.

    Args:
      inputs: A tensor of rank 2 or more.
      activation_fn: An activation applied last.
      initializer: The biases' initializer (zeros).
      regularizer: The biases' regularizer.
      reuse: Whether to reuse the variables of ``scope``.
      variables_collections: Further collections of the variable.
      outputs_collections: Collections to add the outputs to.
      trainable: Whether the biases are trainable.
      data_format: ``"NHWC"`` (channels last) or ``"NCHW"``.
      scope: The variable scope (``BiasAdd`` when None).

    Returns:
      The tensor plus the biases.

    Raises:
      ValueError: a bad ``data_format``, or channels of unknown size.
    """
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "BiasAdd", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        rank = inputs.shape.ndims
        if rank is None:
            raise ValueError("Dims of shape must be known but is None")
        if rank == 1:
            raise ValueError("Rank of shape must be at least 2 not: 1")
        axis = 1 if data_format == DATA_FORMAT_NCHW else -1
        num_features = inputs.shape.as_list()[axis]
        if num_features is None:
            raise ValueError("`C` dimension must be known but is None")
        biases = model_variable(
            "biases", shape=[num_features], dtype=inputs.dtype.base_dtype,
            initializer=initializer, regularizer=regularizer,
            collections=get_variable_collections(variables_collections, "biases"),
            trainable=trainable)
        outputs = nn_ops.bias_add(inputs, biases, data_format=data_format if rank == 4
                                  else None)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def one_hot_encoding(labels: TensorLike, num_classes: int, on_value: float = 1.0,
                     off_value: float = 0.0, outputs_collections: Sequence[str] | None = None,
                     scope: str | None = None) -> TensorLike:
    """``tf.one_hot(labels, num_classes)`` (name scope ``OneHotEncoding``).

    Args:
      labels: Integer class ids.
      num_classes: The number of classes.
      on_value: The value at the class's position.
      off_value: The value elsewhere.
      outputs_collections: Collections to add the outputs to.
      scope: The name scope.

    Returns:
      The one-hot tensor (float32 by default).
    """
    with name_scope(scope, "OneHotEncoding", [labels, num_classes]) as sc:
        labels = convert_to_tensor(labels)
        if labels.dtype == dtypes.int32:
            labels = cast(labels, dtypes.int64)
        outputs = one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return collect_named_outputs(outputs_collections, sc, outputs)


def embed_sequence(ids: TensorLike, vocab_size: int | None = None,
                   embed_dim: int | None = None, unique: bool = False,
                   initializer: Callable | None = None, regularizer: Callable | None = None,
                   trainable: bool = True, scope: str | None = None,
                   reuse: bool | None = None) -> TensorLike:
    """The embeddings of a [batch, length] id sequence: ``EmbedSequence/embeddings`` of shape
    [vocab_size, embed_dim], looked up.

    Args:
      ids: Integer ids, [batch, length].
      vocab_size: The number of ids.
      embed_dim: The embedding size.
      unique: Accepted for TensorFlow's signature (the lookup is the same).
      initializer: The embeddings' initializer (Glorot uniform when None).
      regularizer: The embeddings' regularizer.
      trainable: Whether the embeddings are trainable.
      scope: The variable scope (``EmbedSequence`` when None).
      reuse: Whether to reuse the variables of ``scope``.

    Returns:
      The [batch, length, embed_dim] embeddings.

    Raises:
      ValueError: ``vocab_size`` or ``embed_dim`` is missing.
    """
    if not (vocab_size and embed_dim):
        raise ValueError("Must specify vocab size and embedding dimension when not reusing. "
                         "Got vocab_size=%s and embed_dim=%s" % (vocab_size, embed_dim))
    with variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        embeddings = model_variable("embeddings", shape=[vocab_size, embed_dim],
                                    initializer=initializer, regularizer=regularizer,
                                    trainable=trainable)
        return embedding_lookup(embeddings, ids)


def _layer_name(layer: Callable, default: str) -> str:
    if hasattr(layer, "__name__"):
        return layer.__name__
    if hasattr(layer, "func") and hasattr(layer.func, "__name__"):
        return layer.func.__name__
    return default


def repeat(inputs: TensorLike, repetitions: int, layer: Callable, *args: object,
           **kwargs: object) -> TensorLike:
    """Applies ``layer`` ``repetitions`` times, each in its scope ``<scope>_1``,
    ``<scope>_2``, ... (``slim.repeat(net, 2, slim.conv2d, 64, [3, 3], scope='conv1')``).

    Args:
      inputs: The first layer's input.
      repetitions: How many times.
      layer: The layer function.
      *args: Its further positional arguments.
      **kwargs: Its keyword arguments; ``scope`` names the block.

    Returns:
      The last layer's output.
    """
    scope = kwargs.pop("scope", None)
    with variable_scope(scope, "Repeat", [inputs]):
        inputs = convert_to_tensor(inputs)
        if scope is None:
            scope = _layer_name(layer, "repeat")
        outputs = inputs
        for i in range(repetitions):
            kwargs["scope"] = scope + "_" + str(i + 1)
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs: TensorLike, layer: Callable, stack_args: Sequence,
          **kwargs: object) -> TensorLike:
    """Applies ``layer`` once per entry of ``stack_args`` (its arguments), each in its scope
    ``<scope>_1``, ``<scope>_2``, ... (``slim.stack(x, slim.fully_connected, [32, 64])``).

    Args:
      inputs: The first layer's input.
      layer: The layer function.
      stack_args: One argument (or tuple of arguments) per layer.
      **kwargs: The layers' keyword arguments; ``scope`` names the block.

    Returns:
      The last layer's output.

    Raises:
      ValueError: ``stack_args`` is not a list or tuple.
    """
    scope = kwargs.pop("scope", None)
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    with variable_scope(scope, "Stack", [inputs]):
        inputs = convert_to_tensor(inputs)
        if scope is None:
            scope = _layer_name(layer, "stack")
        outputs = inputs
        for i, layer_args in enumerate(stack_args):
            kwargs["scope"] = scope + "_" + str(i + 1)
            if not isinstance(layer_args, (list, tuple)):
                layer_args = [layer_args]
            outputs = layer(outputs, *layer_args, **kwargs)
        return outputs


linear = functools.partial(fully_connected, activation_fn=None)
relu = functools.partial(fully_connected, activation_fn=nn_ops.relu)
relu6 = functools.partial(fully_connected, activation_fn=nn_ops.relu6)
