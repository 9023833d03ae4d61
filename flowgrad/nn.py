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
