"""``tensorflow.python.lib.io``."""
