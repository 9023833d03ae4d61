"""``tf.ragged`` (both faces): ``constant`` and ``map_flat_values`` over the minimal
RaggedTensor of flowgrad/ops/ragged_tensor.py."""
from collections.abc import Callable
from typing import Any

from flowgrad import nest as _nest
from flowgrad.ops.ragged_tensor import RaggedTensor as _RaggedTensor
from flowgrad.ops.ragged_tensor import constant


def map_flat_values(op: Callable, *args: Any, **kwargs: Any) -> Any:
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
    found = [x for x in _nest.flatten((args, kwargs)) if isinstance(x, _RaggedTensor)]
    if not found:
        raise ValueError("Invalid input: no RaggedTensor found.")
    flat = _nest.map_structure(lambda x: x.flat_values if isinstance(x, _RaggedTensor) else x,
                               (args, kwargs))
    return found[0].with_flat_values(op(*flat[0], **flat[1]))


__all__ = ["constant", "map_flat_values"]


def __dir__() -> list:
    return sorted(__all__)
