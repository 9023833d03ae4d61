"""``tf.math`` of the TF1 face (``import flowgrad.compat.v1 as tf``): TF2's ``tf.math`` with
TensorFlow 1's signatures where they differ (``argmax(input, axis, name, dimension,
output_type)``, ``in_top_k(predictions, targets, k)``)."""
from flowgrad.math_api import *  # noqa: F401,F403
from flowgrad.ops.math_ops import argmax, argmin  # noqa: F401
from flowgrad.ops.nn_ops import in_top_k  # noqa: F401
