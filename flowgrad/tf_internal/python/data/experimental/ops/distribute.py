"""``tensorflow.python.data.experimental.ops.distribute``."""
from flowgrad.data.distribute import compute_batch_size  # noqa: F401

__all__ = ["compute_batch_size"]
