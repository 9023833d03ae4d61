"""TensorFlow 1.15's ``tf.contrib.slim`` (``import tensorflow.contrib.slim as slim``): its most
used names, the same objects as ``tf.contrib.layers``' and ``tf.contrib.framework``'s
(``slim.conv2d``, ``slim.fully_connected``, ``slim.arg_scope``, ``slim.max_pool2d``,
``slim.flatten``, ``slim.batch_norm``, ``slim.model_variable``, ...)."""
from __future__ import annotations

from flowgrad.compat.contrib import framework as _framework, layers as _layers
from flowgrad.compat.contrib import initializers as _initializers
from flowgrad.compat.contrib import regularizers as _regularizers
from flowgrad.compat.contrib import variables as _variables
from flowgrad.compat.contrib import losses as _losses, metrics as _metrics
from flowgrad.compat.contrib import slim_learning as _learning
from flowgrad.compat.contrib.arg_scope import add_arg_scope, arg_scope
from flowgrad.compat.contrib.initializers import (variance_scaling_initializer,
                                                  xavier_initializer, xavier_initializer_conv2d)
from flowgrad.compat.contrib.layers_impl import (avg_pool2d, batch_norm, bias_add, conv2d,
                                                 conv2d_transpose, convolution,
                                                 convolution2d, convolution2d_transpose,
                                                 dropout, flatten, fully_connected, layer_norm,
                                                 linear, max_pool2d, one_hot_encoding, repeat,
                                                 separable_conv2d, stack)
from flowgrad.compat.contrib.regularizers import (l1_l2_regularizer, l1_regularizer,
                                                  l2_regularizer)
from flowgrad.compat.contrib.variables import (assign_from_checkpoint_fn, get_model_variables,
                                               get_trainable_variables, get_unique_variable,
                                               get_variables, get_variables_by_name,
                                               get_variables_by_suffix,
                                               get_variables_to_restore, local_variable,
                                               model_variable, variable)

layers = _layers
framework = _framework
initializers = _initializers
regularizers = _regularizers
variables = _variables
losses = _losses
metrics = _metrics
learning = _learning

__all__ = ["add_arg_scope", "arg_scope", "assign_from_checkpoint_fn", "avg_pool2d", "batch_norm",
           "bias_add", "conv2d", "conv2d_transpose", "convolution", "convolution2d",
           "convolution2d_transpose", "dropout", "flatten", "framework", "fully_connected",
           "get_model_variables", "get_trainable_variables", "get_unique_variable", "get_variables",
           "get_variables_by_name", "get_variables_by_suffix", "get_variables_to_restore",
           "initializers", "l1_l2_regularizer", "l1_regularizer", "l2_regularizer", "layer_norm",
           "layers", "learning", "linear", "local_variable", "losses", "max_pool2d", "metrics",
           "model_variable", "one_hot_encoding", "regularizers", "repeat", "separable_conv2d",
           "stack", "variable", "variables", "variance_scaling_initializer", "xavier_initializer",
           "xavier_initializer_conv2d"]


def __dir__() -> list:
    return sorted(__all__)
