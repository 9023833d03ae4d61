"""``tf.nn`` of the TF2 face (``import flowgrad as tf``): TensorFlow 2's signatures."""
from flowgrad.ops.nn_impl import *
from flowgrad.ops.nn_ops import *

# Where TF2 changed a signature, tf.nn holds the TF2 form (nn_ops/nn_impl's ``*_v2``).
from flowgrad.ops.nn_impl import moments_v2 as moments
from flowgrad.ops.nn_impl import (
    sigmoid_cross_entropy_with_logits_v2 as sigmoid_cross_entropy_with_logits,
)
from flowgrad.ops.nn_ops import dropout_v2 as dropout
from flowgrad.ops.nn_ops import in_top_k_v2 as in_top_k
from flowgrad.ops.nn_ops import (
    softmax_cross_entropy_with_logits_v2 as softmax_cross_entropy_with_logits,
)
from flowgrad.ops.nn_ops import (
    sparse_softmax_cross_entropy_with_logits_v2 as sparse_softmax_cross_entropy_with_logits,
)
from flowgrad.ops.array_ops import embedding_lookup_v2 as embedding_lookup
from flowgrad.ops.conv_ops import *
from flowgrad.ops.conv_ops import conv1d_v2 as conv1d
from flowgrad.ops.conv_ops import conv2d_transpose_v2 as conv2d_transpose
from flowgrad.ops.conv_ops import conv2d_v2 as conv2d
from flowgrad.ops.conv_ops import convolution_v2 as convolution
from flowgrad.ops.conv_ops import separable_conv2d_v2 as separable_conv2d
from flowgrad.ops.conv_ops import depthwise_conv2d_v2 as depthwise_conv2d
from flowgrad.ops.pooling_ops import *
from flowgrad.ops.sort_ops import top_k
from flowgrad.ops.pooling_ops import avg_pool_v2 as avg_pool
from flowgrad.ops.pooling_ops import max_pool_v2 as max_pool
from flowgrad.ops.pooling_ops import max_pool_with_argmax_v2 as max_pool_with_argmax

from flowgrad.ops.nn_impl import gelu
from flowgrad.ops.ctc_ops import ctc_greedy_decoder
from flowgrad.ops.ctc_ops import ctc_loss_v3 as ctc_loss
from flowgrad.ops.manip_ops import depth_to_space, space_to_depth
from flowgrad import nn_experimental_api as experimental
from flowgrad.replica_losses_api import compute_average_loss, scale_regularization_loss

# TensorFlow 1 names the star imports bring in; TensorFlow 2's tf.nn does not have them (the TF1
# face's tf.nn, flowgrad/compat/v1_nn.py, does).
del (conv2d_backprop_filter, conv2d_backprop_input, depthwise_conv2d_native,  # noqa: F821
     softmax_cross_entropy_with_logits_v2)  # noqa: F821
