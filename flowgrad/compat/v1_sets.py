"""``tf.compat.v1.sets``: TensorFlow 2's names and TensorFlow 1's ``set_*`` ones."""
from flowgrad.ops.set_ops import set_difference, set_intersection, set_size, set_union
from flowgrad.sets_api import difference, intersection, size, union

__all__ = ["difference", "intersection", "size", "union", "set_difference",
           "set_intersection", "set_size", "set_union"]
