"""``tensorflow/python/framework/tensor_util.py``'s ``constant_value`` (also
``tf.get_static_value``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import shape_rules, types_core
from flowgrad.framework.tensor import is_tensor
from flowgrad.framework.type_hints import TensorLike


def constant_value(tensor: TensorLike, partial: bool = False) -> Any:
    """The value of ``tensor`` if it is known without running a graph, else None.

    An eager tensor's value, a graph tensor's value where its ops compute it from
    constants and static shapes; anything that is not a tensor is returned as it is.

    Args:
      tensor: a tensor (or any value).
      partial: accepted for TensorFlow's signature (partially known values are not given).

    Returns:
      A NumPy array, None, or ``tensor`` itself when it is not a tensor.
    """
    if isinstance(tensor, types_core.Value) and hasattr(tensor, "numpy"):
        return tensor.numpy()
    if not is_tensor(tensor):
        return tensor
    value = shape_rules.constant_value(tensor)
    return None if value is None else np.asarray(value)


get_static_value = constant_value


__all__ = ["constant_value", "get_static_value"]
