"""Core Keras layers: Input/InputLayer, Dense, Activation, Flatten, Reshape, Dropout, Lambda,
Embedding (Keras 3 weight names, defaults and errors)."""
from __future__ import annotations

import inspect
import math
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.runtime.function import FuncGraph
from flowgrad.legacy_keras import activations, constraints, initializers, regularizers
from flowgrad.legacy_keras.layers.base import InputSpec, KerasTensor, Layer, Node
from flowgrad.ops import array_ops, math_ops, nn_ops, random_ops
from collections.abc import Callable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


def _positive_int(value: Any, arg: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError("Received an invalid value for `%s`, expected a positive integer. "
                         "Received: %s=%s" % (arg, arg, value))
    return value


# --------------------------------------------------------------------------------------
# Input


def set_weight_options(layer: Layer, activation: Callable | str | None, use_bias: bool,
                       kernel_initializer: Callable | str | None,
                       bias_initializer: Callable | str | None, kernel_regularizer: Callable | None,
                       bias_regularizer: Callable | None, kernel_constraint: Callable | None,
                       bias_constraint: Callable | None) -> None:
    """Resolves and stores the activation and kernel/bias options of Dense and Conv2D."""
    layer.activation = activations.get(activation)
    layer.use_bias = use_bias
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)


def add_kernel_and_bias(layer: Layer, kernel_shape: tuple, units: int) -> None:
    """Creates ``layer.kernel`` and ``layer.bias`` of ``units`` (None without ``use_bias``)."""
    layer.kernel = layer.add_weight(name="kernel", shape=kernel_shape,
                                    initializer=layer.kernel_initializer,
                                    regularizer=layer.kernel_regularizer,
                                    constraint=layer.kernel_constraint)
    layer.bias = layer.add_weight(name="bias", shape=(units,),
                                  initializer=layer.bias_initializer,
                                  regularizer=layer.bias_regularizer,
                                  constraint=layer.bias_constraint) if layer.use_bias else None


class InputLayer(Layer):
    """The layer behind ``keras.Input``: it holds the model's symbolic input tensor.

    Args:
        shape: The shape of one sample, without the batch dimension (None for an unknown
            size); ``input_shape`` is accepted as an alias.
        batch_size: The batch dimension's fixed size, or None.
        dtype: The input's dtype (default float32).
        sparse: Keras's sparse-input flag; accepted and ignored (inputs are dense).
        batch_shape: The full shape, batch dimension included (instead of ``shape`` and
            ``batch_size``).
        input_tensor: An existing Keras tensor to wrap instead of making a new one; its
            shape is the layer's.
        name: The layer's (and its tensor's) name; by default ``input_layer`` made unique.
        **kwargs: The base ``Layer``'s other arguments.

    Raises:
        ValueError: If both ``shape`` and ``batch_shape`` are given, or neither (nor
            ``input_tensor``).
    """

    def __init__(self, shape: ShapeLike = None, batch_size: int | None = None,
                 dtype: DTypeLike | None = None, sparse: Any = None, batch_shape: ShapeLike = None,
                 input_tensor: TensorLike | None = None, name: str | None = None, **kwargs: Any):
        if "input_shape" in kwargs:
            shape = kwargs.pop("input_shape")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if input_tensor is not None:
            batch_shape = input_tensor.shape
        elif batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + tuple(shape)
        self._batch_shape = tuple(batch_shape)
        self.built = True
        if input_tensor is None:
            input_tensor = KerasTensor(self._batch_shape, self._dtype, name=self.name)
            Node(self, (), {}, input_tensor)
        self._input_tensor = input_tensor

    @property
    def batch_shape(self) -> tuple:
        return self._batch_shape

    def call(self, inputs: Any) -> Any:
        return inputs

    def get_config(self) -> dict:
        return {"batch_shape": self._batch_shape, "dtype": self._dtype.name, "name": self.name}


def Input(shape: ShapeLike = None, batch_size: int | None = None, dtype: DTypeLike | None = None,  # noqa: N802
          sparse: Any = None, batch_shape: ShapeLike = None, name: str | None = None,
          tensor: TensorLike | None = None, optional: bool = False) -> Any:
    """A symbolic model input of per-sample ``shape`` (a KerasTensor; a placeholder in TF1
    graph mode).

    Args:
        shape: The shape of one sample, without the batch dimension, e.g. ``(32,)``
            (None for a size known only at run time).
        batch_size: The batch dimension's fixed size, or None.
        dtype: The input's dtype (default float32).
        sparse: Keras's sparse-input flag; accepted and ignored (inputs are dense).
        batch_shape: The full shape, batch dimension included (instead of ``shape`` and
            ``batch_size``).
        name: The input's name, unique in the model.
        tensor: An existing Keras tensor to use as the input instead of a new one.
        optional: Keras 3's optional-input flag; accepted and ignored.

    Returns:
        A ``KerasTensor`` to call layers on and to pass to ``Model(inputs, outputs)``; in
        TF1 graph mode (outside a function), a ``placeholder`` of shape
        ``(batch_size,) + shape``.

    Raises:
        ValueError: If both ``shape`` and ``batch_shape`` are given, or neither.
    """
    if not executing_eagerly() and not isinstance(get_default_graph(), FuncGraph):
        if shape is not None:
            batch_shape = (batch_size,) + tuple(shape)
        return array_ops.placeholder(dtypes.as_dtype(dtype or "float32"), batch_shape,
                                     name=name)
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                       batch_shape=batch_shape, name=name, input_tensor=tensor)
    return layer._input_tensor


# --------------------------------------------------------------------------------------
# Dense


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``; kernel (input_dim, units), glorot_uniform;
    bias (units,), zeros.

    Args:
        units: The output's last dimension.
        activation: The activation applied to the output (a name or a callable; None: none).
        use_bias: Whether to add a bias.
        kernel_initializer: The kernel's initializer.
        bias_initializer: The bias's initializer.
        kernel_regularizer: A regularizer of the kernel.
        bias_regularizer: A regularizer of the bias.
        activity_regularizer: A regularizer of the output.
        kernel_constraint: A projection applied to the kernel after each update.
        bias_constraint: A projection applied to the bias after each update.
        lora_rank: Keras 3's LoRA rank (accepted and ignored).
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, units: int, activation: Callable | str | None = None, use_bias: bool = True,
                 kernel_initializer: Callable | str | None = "glorot_uniform",
                 bias_initializer: Callable | str | None = "zeros",
                 kernel_regularizer: Callable | None = None,
                 bias_regularizer: Callable | None = None,
                 activity_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, bias_constraint: Callable | None = None,
                 lora_rank: Any = None, **kwargs: Any):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.units = _positive_int(units, "units")
        set_weight_options(self, activation, use_bias, kernel_initializer, bias_initializer,
                           kernel_regularizer, bias_regularizer, kernel_constraint,
                           bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape: Any) -> None:
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be "
                             "defined. Found None. Full input shape received: %s"
                             % (input_shape,))
        add_kernel_and_bias(self, (input_dim, self.units), self.units)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})

    def call(self, inputs: Any) -> Any:
        if getattr(inputs, "dtype", None) is not None and inputs.dtype.base_dtype is dtypes.string:
            # Keras's type promotion rejects strings before any product (ValueError)
            raise ValueError("dtype='string' is not a valid dtype for Keras type promotion "
                             "(the input of layer %r)." % self.name)
        x = math_ops.matmul(inputs, self.kernel)
        if self.bias is not None:
            x = math_ops.add(x, self.bias)
        return self.activation(x) if self.activation is not activations.linear else x

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}


class Activation(Layer):
    """Applies an activation function (``'relu'``, ``'softmax'``, a callable).

    Args:
        activation: The activation: a name or a callable.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, activation: Callable | str | None, **kwargs: Any):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        self.supports_masking = True

    def call(self, inputs: Any) -> Any:
        return self.activation(inputs)


# --------------------------------------------------------------------------------------
# Shape layers


def _static_product(dims: Any) -> int | None:
    if any(d is None for d in dims):
        return None
    return int(math.prod(dims))


class Flatten(Layer):
    """Reshapes (batch, d1, d2, ...) to (batch, d1 * d2 * ...).

    Args:
        data_format: ``"channels_last"`` (the default) or ``"channels_first"`` (moved last
          before flattening, as Keras does).
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, data_format: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs: Any) -> Any:
        rank = inputs.shape.rank
        if self.data_format == "channels_first" and rank is not None and rank > 2:
            inputs = array_ops.transpose(inputs, [0] + list(range(2, rank)) + [1])
        dims = inputs.shape.as_list()[1:] if rank is not None else [None]
        n = _static_product(dims)
        return array_ops.reshape(inputs, [-1, n if n is not None else -1]) if n is not None \
            else array_ops.reshape(inputs, array_ops.stack([array_ops.shape(inputs)[0], -1]))


class Reshape(Layer):
    """Reshapes each sample to ``target_shape`` (one entry may be -1).

    Args:
        target_shape: The shape of each sample (without the batch dimension).
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, target_shape: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        if sum(d == -1 for d in self.target_shape) > 1:
            raise ValueError("There can only be one unknown dimension in `target_shape`. "
                             "Received: target_shape=%s" % (self.target_shape,))

    def call(self, inputs: Any) -> Any:
        dims = inputs.shape.as_list()
        n = _static_product(dims[1:]) if dims is not None else None
        target = list(self.target_shape)
        known = _static_product([d for d in target if d != -1])
        if n is not None:
            if -1 in target:
                if known == 0 or n % known:
                    raise ValueError("The total size of the tensor must be unchanged. Received: "
                                     "input_shape=%s, target_shape=%s"
                                     % (tuple(dims[1:]), self.target_shape))
            elif known != n:
                raise ValueError("The total size of the tensor must be unchanged. Received: "
                                 "input_shape=%s, target_shape=%s"
                                 % (tuple(dims[1:]), self.target_shape))
        if dims is not None and dims[0] is not None:
            return array_ops.reshape(inputs, [dims[0]] + target)
        return array_ops.reshape(inputs, array_ops.concat(
            [array_ops.shape(inputs)[:1], convert_to_tensor(target, dtypes.int32)], 0))


# --------------------------------------------------------------------------------------
# Dropout


class Dropout(Layer):
    """During training, zeros inputs with probability ``rate`` and scales the rest by
    1 / (1 - rate); the identity at inference.

    Args:
        rate: The fraction of the inputs to drop, in [0, 1).
        noise_shape: The shape of the keep/drop mask, broadcast against the inputs (None:
          the inputs' shape).
        seed: The seed of the mask's random numbers.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, rate: float, noise_shape: ShapeLike = None, seed: int | None = None,
                 **kwargs: Any):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             "value between 0 and 1. Received: rate=%s" % rate)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self.supports_masking = True
        # like Keras 3's per-layer seed generator: an op seed drawn now from the global
        # seed (if one is set), so masks are reproducible inside tf.function too
        self._op_seed = seed if seed is not None else random_ops.get_seed(None)[1]

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            return nn_ops.dropout_v2(inputs, self.rate, noise_shape=self.noise_shape,
                                     seed=self._op_seed)
        return inputs


# --------------------------------------------------------------------------------------
# Lambda and Embedding


class Lambda(Layer):
    """Wraps an arbitrary function of the inputs as a layer (it may not create weights).

    Args:
        function: ``function(inputs, **arguments)``, the layer's computation.
        output_shape: The output's shape, when it cannot be inferred.
        mask: Keras's output mask argument (accepted; the layer computes no mask).
        arguments: Keyword arguments passed to ``function``.
        **kwargs: The base Layer's arguments (``name``, ``dtype``, ``trainable``, ...).
    """

    def __init__(self, function: Any, output_shape: ShapeLike = None,
                 mask: TensorLike | None = None, arguments: dict | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError("Lambda's `function` must be callable, got %r" % (function,))
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_training = "training" in params

    def call(self, inputs: Any, training: Any = None) -> Any:
        kwargs = dict(self.arguments)
        if self._fn_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)


class Embedding(Layer):
    """Maps integer ids to rows of ``embeddings`` (input_dim, output_dim), RandomUniform
    in [-0.05, 0.05) by default.

    Called on integer ids of any shape ``s`` (floats are cast to int32), it returns the
    rows, of shape ``s + (output_dim,)``.

    Args:
        input_dim: Size of the vocabulary: the ids are in ``[0, input_dim)``.
        output_dim: Dimension of the embedding vectors.
        embeddings_initializer: Initializer of the ``embeddings`` matrix.
        embeddings_regularizer: Regularizer of the ``embeddings`` matrix, or None.
        embeddings_constraint: Constraint applied to ``embeddings`` after each update, or
            None.
        mask_zero: Whether id 0 is a padding value to mask; kept in the config (the layer
            computes no mask).
        weights: Initial value of the ``embeddings`` matrix, as a list of one array, set
            when the layer is built.
        lora_rank: Keras 3's LoRA rank; accepted and ignored.
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``, ...);
            ``input_length`` (Keras 2) is accepted and ignored.

    Raises:
        ValueError: If ``input_dim`` or ``output_dim`` is not a positive integer.
    """

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: Any = "uniform",
                 embeddings_regularizer: Any = None, embeddings_constraint: Any = None,
                 mask_zero: bool = False, weights: Any = None, lora_rank: Any = None,
                 **kwargs: Any):
        kwargs.pop("input_length", None)
        super().__init__(**kwargs)
        self.input_dim = _positive_int(input_dim, "input_dim")
        self.output_dim = _positive_int(output_dim, "output_dim")
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self._initial_weights = weights
        self._autocast = False

    def build(self, input_shape: Any = None) -> None:
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          name="embeddings",
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def call(self, inputs: Any) -> Any:
        if not inputs.dtype.is_integer:
            inputs = math_ops.cast(inputs, dtypes.int32)
        return array_ops.gather(self.embeddings, inputs)


__all__ = ["InputLayer", "Input", "Dense", "Activation", "Flatten", "Reshape", "Dropout",
           "Lambda", "Embedding"]
