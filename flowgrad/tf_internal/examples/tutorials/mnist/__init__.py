"""``tensorflow.examples.tutorials.mnist``: the MNIST reader of the TF1 tutorials."""
from flowgrad.tf_internal.examples.tutorials.mnist import input_data

__all__ = ["input_data"]
