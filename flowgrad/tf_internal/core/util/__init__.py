"""``tensorflow.core.util``."""
