"""``tf.nn.with_space_to_batch``: an op applied at a dilation rate by moving the dilated
samples into the batch (``SpaceToBatchND``), running the op there with VALID padding and
moving the results back (``BatchToSpaceND``), as TensorFlow 2.21's ``nn_ops.py`` does for
constant ``dilation_rate`` and ``filter_shape``."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.space_batch_ops import (batch_to_space_nd, required_space_to_batch_paddings,
                                          space_to_batch_nd)


def _constant(value: Any, name: str) -> np.ndarray:
    c = constant_value(convert_to_tensor(_as_value(value), dtypes.int32, name=name))
    if c is None:
        raise ValueError("with_space_to_batch: `%s` must be known when the graph is built in "
                         "flowgrad" % name)
    return np.asarray(c, np.int32)


def _adjust(orig: np.ndarray, fill_value: int, spatial_dims: list) -> np.ndarray:
    """``orig``'s rows at ``spatial_dims[i] - 1``, ``fill_value`` rows elsewhere."""
    out = np.full([spatial_dims[-1]] + list(orig.shape[1:]), fill_value, orig.dtype)
    for i, d in enumerate(spatial_dims):
        out[d - 1] = orig[i]
    return out


def with_space_to_batch(input: TensorLike, dilation_rate: TensorLike,  # noqa: A002
                        padding: Any, op: Callable, filter_shape: TensorLike | None = None,
                        spatial_dims: list | None = None,
                        data_format: str | None = None) -> Any:
    """``op(input, num_spatial_dims, padding)`` evaluated at ``dilation_rate`` through
    space-to-batch.

    Args:
        input: A tensor of rank at least ``max(spatial_dims) + 1``.
        dilation_rate: A 1-D int32 tensor of positive dilation rates, one per spatial
            dimension (constant in flowgrad).
        padding: ``"VALID"``, ``"SAME"`` or explicit ``[[before, after], ...]`` paddings of
            every dimension.
        op: ``op(converted_input, num_spatial_dims, "VALID")``, e.g. a convolution.
        filter_shape: The op's filter shape (its spatial part first); needed for ``"SAME"``.
        spatial_dims: The increasing spatial dimensions of ``input`` (the ones after the
            batch, or after the batch and channel with an ``"NC..."`` data_format, by
            default).
        data_format: None or a data format string (``"NC..."``: channels first).

    Returns:
        The op's result, of the shape the op gives at that dilation.

    Raises:
        ValueError: for invalid rates, spatial dimensions or padding.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    rate = _constant(dilation_rate, "dilation_rate")
    if rate.ndim != 1:
        raise ValueError("`dilation_rate.shape.rank` must be 1. Received: dilation_rate=%s of "
                         "rank %d" % (rate.tolist(), rate.ndim))
    m = rate.shape[0]
    start = 2 if data_format is not None and data_format.startswith("NC") else 1
    dims = list(range(start, start + m)) if spatial_dims is None else list(spatial_dims)
    if sorted(set(int(d) for d in dims)) != dims or any(d < 1 for d in dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of "
                         "positive integers. Received: spatial_dims=%s" % dims)
    need = dims[-1] if start == 2 else dims[-1] + 1
    if x.shape.rank is not None and x.shape.rank < need:
        raise ValueError("`input.shape.rank` must be at least %d. Received: input.shape=%s "
                         "with rank %d" % (need, x.shape, x.shape.rank))
    if (rate < 1).any():
        raise ValueError("`dilation_rate` must be positive. Received: dilation_rate=%s"
                         % rate)
    if (rate == 1).all():
        return op(x, m, padding)
    if isinstance(padding, str) and padding.upper() == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. Received: "
                             "filter_shape=None and padding=SAME")
        extra = (_constant(filter_shape, "filter_shape")[:m] - 1) * rate
        base = np.stack([extra // 2, extra - extra // 2], axis=1).astype(np.int32)
    elif isinstance(padding, str) and padding.upper() == "VALID":
        base = np.zeros([m, 2], np.int32)
    elif not isinstance(padding, str):
        explicit = np.asarray(padding, np.int32).reshape([m + 2, 2])
        base = explicit[2:] if start == 2 else explicit[1:-1]
    else:
        raise ValueError("`padding` must be one of 'SAME' or 'VALID'. Received: padding=%s"
                         % padding)
    spatial = [x.shape.as_list()[d] if x.shape.rank is not None else None for d in dims]
    if None in spatial:
        raise ValueError("with_space_to_batch: the spatial dimensions of `input` must be "
                         "known when the graph is built in flowgrad")
    paddings, crops = required_space_to_batch_paddings(spatial, rate, base)
    paddings, crops = (np.asarray(constant_value(t), np.int32) for t in (paddings, crops))
    block = _adjust(rate, 1, dims)
    converted = space_to_batch_nd(x, block, _adjust(paddings, 0, dims))
    result = op(converted, m, "VALID")
    return batch_to_space_nd(result, block, _adjust(crops, 0, dims))
