"""``tf.sets``: set operations on the last dimension (``flowgrad.ops.set_ops``); the TF1 face
also has the ``set_*`` names."""
from flowgrad.ops.set_ops import set_difference as difference
from flowgrad.ops.set_ops import set_intersection as intersection
from flowgrad.ops.set_ops import set_size as size
from flowgrad.ops.set_ops import set_union as union

__all__ = ["difference", "intersection", "size", "union"]
