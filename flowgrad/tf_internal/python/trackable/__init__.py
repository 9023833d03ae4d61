"""``tensorflow.python.trackable``."""
