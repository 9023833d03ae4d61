"""``tf.ragged.map_flat_values``: an op applied to the flat values of RaggedTensors (TensorFlow's
ragged_functional_ops)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad import nest as _nest
from flowgrad.ops.ragged_tensor import RaggedTensor


def map_flat_values(op: Callable, *args: Any, **kwargs: Any) -> RaggedTensor:
    """``op`` applied to the flat values of the RaggedTensors among its arguments; the
    result has the row partitions of the first one.

    Args:
        op: The function to apply, elementwise over the flat values.
        *args: Its positional arguments; RaggedTensors among them are replaced by their flat
            values.
        **kwargs: Its keyword arguments, likewise.

    Returns:
        A RaggedTensor with the first ragged argument's row partitions.

    Raises:
        ValueError: no argument is a RaggedTensor.
    """
    found = [x for x in _nest.flatten((args, kwargs)) if isinstance(x, RaggedTensor)]
    if not found:
        raise ValueError("Invalid input: no RaggedTensor found.")
    flat = _nest.map_structure(lambda x: x.flat_values if isinstance(x, RaggedTensor) else x,
                               (args, kwargs))
    return found[0].with_flat_values(op(*flat[0], **flat[1]))
