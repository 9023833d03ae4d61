"""``tf.nn`` of the TF1 face (``import flowgrad.compat.v1 as tf``): TensorFlow 1's signatures
(``dropout(x, keep_prob)``, ``softmax_cross_entropy_with_logits`` without label gradients)."""
from flowgrad.ops.nn_impl import *  # noqa: F401,F403
from flowgrad.ops.nn_ops import *  # noqa: F401,F403
from flowgrad.ops.array_ops import embedding_lookup  # noqa: F401
from flowgrad.ops.conv_ops import *  # noqa: F401,F403
from flowgrad.ops.pooling_ops import *  # noqa: F401,F403
from flowgrad.ops.pooling_ops import avg_pool_v2, max_pool_v2  # noqa: F401
from flowgrad.ops.conv_ops import (  # noqa: F401 - TF1's other names of the same ops
    depthwise_conv2d_backprop_filter as depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_backprop_input as depthwise_conv2d_native_backprop_input,
)
from flowgrad.ops.sort_ops import top_k  # noqa: F401
from flowgrad.ops.ctc_ops import ctc_greedy_decoder, ctc_loss  # noqa: F401
from flowgrad.ops.ctc_ops import ctc_loss_v3 as ctc_loss_v2  # noqa: F401
from flowgrad.rnn import rnn_cell  # noqa: F401
from flowgrad.rnn.rnn import bidirectional_dynamic_rnn, dynamic_rnn, static_rnn  # noqa: F401
from flowgrad.ops.manip_ops import depth_to_space_v1 as depth_to_space  # noqa: F401
from flowgrad.ops.manip_ops import space_to_depth_v1 as space_to_depth  # noqa: F401
from flowgrad import nn_experimental_api as experimental  # noqa: F401
from flowgrad.replica_losses_api import (  # noqa: F401
    compute_average_loss, scale_regularization_loss)
