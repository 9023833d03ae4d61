"""TensorFlow 1.15's ``tf.contrib.layers``: the layer functions (``fully_connected``,
``conv2d``, ``max_pool2d``, ``flatten``, ``batch_norm``, ...), the initializers
(``xavier_initializer``, ``variance_scaling_initializer``) and the regularizers
(``l2_regularizer``, ...). See flowgrad/compat/contrib/layers_impl.py."""
from __future__ import annotations

from flowgrad.compat.contrib.initializers import (variance_scaling_initializer,
                                                  xavier_initializer, xavier_initializer_conv2d)
from flowgrad.compat.contrib.layers_impl import (avg_pool2d, batch_norm, bias_add, conv1d,
                                                 conv2d, conv2d_transpose, convolution,
                                                 convolution1d, convolution2d,
                                                 convolution2d_transpose, dropout,
                                                 embed_sequence, flatten, fully_connected,
                                                 layer_norm, linear, max_pool2d,
                                                 one_hot_encoding, relu, relu6, repeat,
                                                 separable_conv2d, separable_convolution2d,
                                                 stack)
from flowgrad.compat.contrib.optimizers import (OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES,
                                                optimize_loss)
from flowgrad.compat.contrib.regularizers import (apply_regularization, l1_l2_regularizer,
                                                  l1_regularizer, l2_regularizer,
                                                  sum_regularizer)

__all__ = ["OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "apply_regularization", "avg_pool2d",
           "batch_norm", "bias_add", "conv1d", "conv2d", "conv2d_transpose", "convolution",
           "convolution1d", "convolution2d", "convolution2d_transpose", "dropout", "embed_sequence",
           "flatten", "fully_connected", "l1_l2_regularizer", "l1_regularizer", "l2_regularizer",
           "layer_norm", "linear", "max_pool2d", "one_hot_encoding", "optimize_loss", "relu",
           "relu6", "repeat", "separable_conv2d", "separable_convolution2d", "stack",
           "sum_regularizer", "variance_scaling_initializer", "xavier_initializer",
           "xavier_initializer_conv2d"]


def __dir__() -> list:
    return sorted(__all__)
