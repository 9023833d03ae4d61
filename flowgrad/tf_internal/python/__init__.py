"""``tensorflow.python``."""
