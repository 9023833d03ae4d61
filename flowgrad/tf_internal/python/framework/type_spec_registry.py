"""``tensorflow.python.framework.type_spec_registry``."""
from flowgrad.framework.composite_tensor import get_name, lookup, register  # noqa: F401

__all__ = ["get_name", "lookup", "register"]
