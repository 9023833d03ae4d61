"""``tensorflow.python.data``."""
