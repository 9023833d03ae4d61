"""``tf.nn``: neural-network ops."""
from flowgrad.ops.nn_ops import *  # noqa: F401,F403
