"""``tensorflow.python.ops.math_ops``: flowgrad's math ops under TensorFlow's module name."""
from flowgrad.ops.math_ops import *  # noqa: F403
from flowgrad.ops.math_ops import __all__  # noqa: F401
