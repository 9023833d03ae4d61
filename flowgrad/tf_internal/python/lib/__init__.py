"""``tensorflow.python.lib``."""
