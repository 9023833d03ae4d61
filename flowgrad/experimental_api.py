"""``tf.experimental``: ``Optional``, and ``dtensor`` (whose functions raise: DTensor needs
several devices)."""
from flowgrad.data.optional_ops import Optional  # noqa: F401
from flowgrad.tf_internal import dtensor  # noqa: F401

__all__ = ["Optional", "dtensor"]
