"""``tensorflow.python.data.experimental``."""
