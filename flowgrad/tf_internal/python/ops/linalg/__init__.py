"""``tensorflow.python.ops.linalg``."""
