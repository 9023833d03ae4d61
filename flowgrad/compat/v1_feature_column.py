"""``tf.compat.v1.feature_column``: TensorFlow 2's columns plus ``input_layer``, the TF1
way to turn them into a dense input (``flowgrad.feature_column_lib``)."""
from flowgrad.feature_column_api import *  # noqa: F401,F403
from flowgrad.feature_column_api import __all__ as _v2_names
from flowgrad.feature_column_lib import input_layer  # noqa: F401

__all__ = list(_v2_names) + ["input_layer"]
