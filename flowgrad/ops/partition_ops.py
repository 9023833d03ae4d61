"""``tf.dynamic_partition`` and ``tf.dynamic_stitch`` (DynamicPartition, DynamicStitch and
ParallelDynamicStitch), with TensorFlow's gradients: each one's gradient is built from the
other (and a gather), so they differentiate to any order; both are linear in their data, so
their JVPs apply the op to the tangents."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_op_util import reapply
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.manip_ops import get_static_value
from flowgrad.ops.reduction_ops import reduce_prod
from flowgrad.ops.shape_ops import reshape, shape


def _partition_kernel(data: Any, partitions: Any, *, num_partitions: int) -> tuple:
    data, parts = np.asarray(data), np.asarray(partitions)
    if data.shape[:parts.ndim] != parts.shape:
        raise InvalidArgumentError(None, None, "data.shape must start with partitions.shape, "
                                   "got data.shape = %s, partitions.shape = %s"
                                   % (list(data.shape), list(parts.shape)))
    bad = (parts < 0) | (parts >= num_partitions)
    if bad.any():
        i = tuple(int(k) for k in np.argwhere(bad)[0])
        raise InvalidArgumentError(None, None, "partitions%s = %d is not in [0, %d)"
                                   % (list(i), int(parts[i]), num_partitions))
    flat = data.reshape((-1,) + data.shape[parts.ndim:])
    p = parts.reshape(-1)
    return tuple(flat[p == k] for k in range(num_partitions))


def _partition_infer(ins: list, attrs: dict) -> list:
    data, parts = ins[0].shape, ins[1].shape
    if parts.rank is None or data.rank is None:
        rest = TensorShape(None)
    else:
        if not data[:parts.rank].is_compatible_with(parts):
            raise ValueError("Dimensions of data and partitions must match: data %s, "
                             "partitions %s" % (data, parts))
        rest = data[parts.rank:]
    return [(ins[0].dtype.base_dtype, TensorShape([None]).concatenate(rest))] \
        * attrs["num_partitions"]


@defop("DynamicPartition", _partition_kernel, _partition_infer, same_dtype=False,
       num_outputs=lambda attrs: attrs["num_partitions"], input_names=("data", "partitions"))
def _partition_grad(op: Any, *grads: Any) -> list:
    data, partitions = op.inputs
    prefix = shape(partitions)
    original = reshape(range_op(reduce_prod(prefix)), prefix)
    pieces = dynamic_partition(original, partitions, op.get_attr("num_partitions"))
    filled = [zeros_like(o) if g is None else g for o, g in zip(op.outputs, grads)]
    stitched = apply_op("ParallelDynamicStitch", list(pieces) + filled,
                        {"N": len(filled)})
    return [reshape(stitched, shape(data)), None]


def _partition_jvp(op: Any, t: Any, *rest: Any) -> Any:
    return None if t is None else list(reapply(op, [t, op.inputs[1]]))


register_jvp("DynamicPartition", _partition_jvp)


def _stitch_kernel(*args: Any, N: int) -> np.ndarray:
    indices = [np.asarray(i) for i in args[:N]]
    data = [np.asarray(d) for d in args[N:]]
    rest = None
    n = 0
    for i, d in zip(indices, data):
        if d.shape[:i.ndim] != i.shape:
            raise InvalidArgumentError(None, None, "data[k].shape must start with "
                                       "indices[k].shape, got %s and %s"
                                       % (list(d.shape), list(i.shape)))
        tail = d.shape[i.ndim:]
        if rest is not None and tail != rest:
            raise InvalidArgumentError(None, None, "data[k].shape = indices[k].shape + constant"
                                       ": %s differs from %s" % (list(tail), list(rest)))
        rest = tail
        if i.size:
            if i.min() < 0:
                raise InvalidArgumentError(None, None, "dynamic_stitch: index %d is negative"
                                           % int(i.min()))
            n = max(n, int(i.max()) + 1)
    out = np.zeros((n,) + (rest or ()), data[0].dtype)
    for i, d in zip(indices, data):             # later inputs win, as TensorFlow's
        out[i.reshape(-1)] = d.reshape((-1,) + (rest or ()))
    return out


def _stitch_infer(ins: list, attrs: dict) -> tuple:
    n = attrs["N"]
    idx, data = ins[:n], ins[n:]
    rest = TensorShape(None)
    for i, d in zip(idx, data):
        if i.shape.rank is not None and d.shape.rank is not None:
            rest = rest.merge_with(d.shape[i.shape.rank:])
    size = None                 # known when every index tensor's value is, as in TF
    values = [get_static_value(i) for i in idx]
    if all(v is not None for v in values):
        size = max((int(np.max(v)) + 1 for v in values if np.size(v)), default=0)
    return data[0].dtype.base_dtype, TensorShape([size]).concatenate(rest)


def _stitch_grad(op: Any, grad: Any) -> list:
    n = op.get_attr("N")
    indices = [cast(i, dtypes.int32) if i.dtype.base_dtype is not dtypes.int32 else i
               for i in op.inputs[:n]]
    return [None] * n + [gather(grad, i) for i in indices]


def _stitch_jvp(op: Any, *ts: Any) -> Any:
    n = op.get_attr("N")
    if all(t is None for t in ts[n:]):
        return None
    filled = [zeros_like(x) if t is None else t for x, t in zip(op.inputs[n:], ts[n:])]
    return reapply(op, list(op.inputs[:n]) + filled)


for _type in ("DynamicStitch", "ParallelDynamicStitch"):
    defop(_type, _stitch_kernel, _stitch_infer, same_dtype=False,
          input_names=("indices", "data"))(_stitch_grad)
    register_jvp(_type, _stitch_jvp)


def dynamic_partition(data: Any, partitions: Any, num_partitions: int,
                      name: str | None = None) -> list:
    """Splits ``data`` into ``num_partitions`` tensors by the partition of each element.

    Args:
        data: The tensor to split.
        partitions: An int32 tensor, a prefix of ``data``'s shape, of values in
            ``[0, num_partitions)``.
        num_partitions: The number of outputs.
        name: A name for the operation (optional).

    Returns:
        A list of ``num_partitions`` tensors: the rows of partition ``k``, in order.

    Raises:
        InvalidArgumentError: (when run) for a partition out of range.
    """
    d = convert_to_tensor(data, name="data")
    p = partitions if isinstance(partitions, TensorBase) else convert_to_tensor(
        partitions, dtypes.int32, name="partitions")
    if p.dtype.base_dtype is not dtypes.int32:
        raise argument_error("Input 'partitions' of 'DynamicPartition' Op has type %s that "
                             "does not match expected type of int32."
                             % p.dtype.base_dtype.name, TypeError)
    if int(num_partitions) < 1:
        raise ValueError("num_partitions must be at least 1, got %d" % num_partitions)
    out = apply_op("DynamicPartition", [d, p], {"num_partitions": int(num_partitions)},
                   name=name)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def dynamic_stitch(indices: Any, data: Any, name: str | None = None) -> Any:
    """Interleaves the values of ``data`` into one tensor: ``merged[indices[m][i]] =
    data[m][i]`` (for duplicate indices the later value wins).

    Args:
        indices: A list of int32 tensors.
        data: A list of tensors, each ``indices[m].shape + constant``.
        name: A name for the operation (optional).

    Returns:
        The merged tensor.

    Raises:
        ValueError: if ``indices`` and ``data`` differ in length.
    """
    if len(indices) != len(data):
        raise ValueError("List argument 'data' to 'DynamicStitch' Op with length %d must match "
                         "length %d of argument 'indices'." % (len(data), len(indices)))
    idx = [convert_to_tensor(i, dtypes.int32, name="indices") for i in indices]
    vals = [convert_to_tensor(d, name="data") for d in data]
    dt = vals[0].dtype.base_dtype
    vals = [convert_to_tensor(v, dt) for v in vals]
    return apply_op("DynamicStitch", idx + vals, {"N": len(idx)}, name=name)


__all__ = ["dynamic_partition", "dynamic_stitch"]
