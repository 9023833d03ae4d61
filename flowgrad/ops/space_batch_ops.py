"""``SpaceToBatchND`` and ``BatchToSpaceND`` (``tf.space_to_batch_nd``, ``tf.space_to_batch``,
``tf.batch_to_space``, their TF1 forms and ``tf.required_space_to_batch_paddings``).

SpaceToBatchND zero-pads the M spatial dimensions after the batch dimension, cuts them into
blocks of ``block_shape`` and moves each position inside a block into the batch dimension;
BatchToSpaceND undoes it and crops. Each op permutes entries (and pads or crops), so the
gradient of one is the other with the same ``block_shape`` and paddings/crops, as in
TensorFlow (``array_grad.py``); both are linear in ``input``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_op_util import _as_value, _int_tensor, linear_in_first_jvp
from flowgrad.ops.array_ops import stack
from flowgrad.ops.fill_ops import zeros


#: TensorFlow's names of DataTypes in its attr messages, where they are not the dtype's.
_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _block_args(op_type: str, rank: int, block: Any, pads: Any, what: str, err: Any) -> tuple:
    """Checks ``block_shape`` and ``paddings``/``crops`` against an input of ``rank``;
    returns them as lists of ints."""
    pad_attr = "Tpaddings" if what == "paddings" else "Tcrops"
    for v, attr in ((block, "Tblock_shape"), (pads, pad_attr)):
        kind = np.asarray(v).dtype
        if kind.kind not in "iu":
            name = dtypes.as_dtype(kind).name
            raise err("Value for attr '%s' of %s is not in the list of allowed values: int32, "
                      "int64" % (attr, _TF_TYPE_NAMES.get(name, name)))
    block = [int(v) for v in np.ravel(block)]
    pads = np.asarray(pads)
    m = len(block)
    if pads.ndim != 2 or pads.shape != (m, 2):
        raise err("%s should have shape [%d, 2] instead of [%s]"
                  % (what, m, ",".join(str(d) for d in pads.shape)))
    if rank < 1 + m:
        raise err("input rank should be >= %d instead of %d" % (1 + m, rank))
    for i, b in enumerate(block):
        if b < 1:
            raise err("All values in block_shape must be positive, got value, %d at index %d."
                      % (b, i))
    if (pads < 0).any():
        raise err("%s must be non-negative" % what.capitalize())
    return block, pads.astype(np.int64).tolist()


def _invalid(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(None, None, message)


def _space_to_batch_kernel(x: Any, block_shape: Any, paddings: Any) -> np.ndarray:
    x = np.asarray(x)
    block, pads = _block_args("SpaceToBatchND", x.ndim, block_shape, paddings, "paddings",
                              _invalid)
    m = len(block)
    widths = [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - 1 - m)
    padded = np.pad(x, widths) if any(a or b for a, b in pads) else x
    for i, b in enumerate(block):
        if padded.shape[i + 1] % b:
            raise _invalid("padded_shape[%d]=%d is not divisible by block_shape[%d]=%d"
                           % (i, padded.shape[i + 1], i, b))
    n, spatial, rest = padded.shape[0], padded.shape[1:m + 1], padded.shape[m + 1:]
    split = [n]
    for s, b in zip(spatial, block):
        split += [s // b, b]
    y = padded.reshape(split + list(rest))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    out = [n * int(np.prod(block))] + [s // b for s, b in zip(spatial, block)] + list(rest)
    return np.ascontiguousarray(y.transpose(perm)).reshape(out)


def _batch_to_space_kernel(x: Any, block_shape: Any, crops: Any) -> np.ndarray:
    x = np.asarray(x)
    block, crops = _block_args("BatchToSpaceND", x.ndim, block_shape, crops, "crops", _invalid)
    m, prod = len(block), int(np.prod(block))
    if x.shape[0] % prod:
        raise _invalid("Input batch dimension (%d) is not divisible by product of block sizes "
                       "(%d)" % (x.shape[0], prod))
    n, spatial, rest = x.shape[0] // prod, x.shape[1:m + 1], x.shape[m + 1:]
    for i, ((a, b), s, k) in enumerate(zip(crops, spatial, block)):
        if a + b > s * k:
            raise _invalid("Crops must be less than or equal to the input size in dimension "
                           "%d: %d + %d > %d" % (i + 1, a, b, s * k))
    y = x.reshape(list(block) + [n] + list(spatial) + list(rest))
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    full = [n] + [s * k for s, k in zip(spatial, block)] + list(rest)
    y = np.ascontiguousarray(y.transpose(perm)).reshape(full)
    index = (slice(None),) + tuple(slice(a, s - b) for (a, b), s in zip(crops, full[1:m + 1]))
    return np.ascontiguousarray(y[index])


def _infer(to_batch: bool) -> Any:
    op_type = "SpaceToBatchND" if to_batch else "BatchToSpaceND"
    what = "paddings" if to_batch else "crops"

    def infer(ins: list, attrs: dict) -> tuple:
        x, dt = ins[0], ins[0].dtype.base_dtype
        for t, name in ((ins[1], "Tblock_shape"), (ins[2], "Tpaddings" if to_batch else "Tcrops")):
            if t.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
                dn = t.dtype.base_dtype.name
                raise argument_error("Value for attr '%s' of %s is not in the list of allowed "
                                     "values: int32, int64" % (name, _TF_TYPE_NAMES.get(dn, dn)),
                                     TypeError)
        dims = x.shape.as_tuple()
        block, pads = constant_value(ins[1]), constant_value(ins[2])
        if dims is None:
            return dt, TensorShape(None)
        if block is None or pads is None:
            return dt, TensorShape([None] * len(dims))
        block, pads = _block_args(op_type, len(dims), block, pads, what, ValueError)
        prod = int(np.prod(block))
        out = list(dims)
        if to_batch:
            out[0] = None if dims[0] is None else dims[0] * prod
            for i, (b, (a, c)) in enumerate(zip(block, pads)):
                d = dims[i + 1]
                if d is not None and (d + a + c) % b:
                    raise ValueError("padded_shape[%d]=%d is not divisible by block_shape[%d]=%d"
                                     % (i, d + a + c, i, b))
                out[i + 1] = None if d is None else (d + a + c) // b
        else:
            if dims[0] is not None and dims[0] % prod:
                raise ValueError("Input batch dimension (%d) is not divisible by product of "
                                 "block sizes (%d)" % (dims[0], prod))
            out[0] = None if dims[0] is None else dims[0] // prod
            for i, (b, (a, c)) in enumerate(zip(block, pads)):
                d = dims[i + 1]
                out[i + 1] = None if d is None else d * b - a - c
        return dt, TensorShape(out)
    return infer


@defop("SpaceToBatchND", _space_to_batch_kernel, _infer(True),
       input_names=("input", "block_shape", "paddings"))
def _space_to_batch_grad(op: Any, grad: Any) -> Any:
    return [apply_op("BatchToSpaceND", (grad, op.inputs[1], op.inputs[2]), {}), None, None]


@defop("BatchToSpaceND", _batch_to_space_kernel, _infer(False),
       input_names=("input", "block_shape", "crops"))
def _batch_to_space_grad(op: Any, grad: Any) -> Any:
    return [apply_op("SpaceToBatchND", (grad, op.inputs[1], op.inputs[2]), {}), None, None]


register_jvp("SpaceToBatchND", linear_in_first_jvp)
register_jvp("BatchToSpaceND", linear_in_first_jvp)


def _index_tensor(v: Any) -> Any:
    """An int tensor for ``block_shape``/``paddings``/``crops``; a float value stays float,
    so that the op refuses it with TensorFlow's message."""
    v = _as_value(v)
    if not is_tensor(v):
        try:
            kind = np.asarray(v).dtype.kind
        except (TypeError, ValueError):
            kind = "O"
        if kind == "f":
            return convert_to_tensor(np.asarray(v, np.float32))
    return _int_tensor(v)


def _block_tensor(block_shape: Any) -> Any:
    """``block_shape`` as an int tensor; a Python int ``b`` means ``[b, b]`` (TF 1.0's form)."""
    if isinstance(block_shape, (int, np.integer)) and not isinstance(block_shape, bool):
        return convert_to_tensor(np.array([block_shape, block_shape], np.int64))
    return _index_tensor(block_shape)


def space_to_batch_nd(input: TensorLike, block_shape: TensorLike,  # noqa: A002
                      paddings: TensorLike, name: str | None = None) -> Any:
    """Zero-pads the spatial dimensions of ``input`` and moves ``block_shape`` blocks of
    them into the batch dimension (TensorFlow's ``SpaceToBatchND``).

    Args:
        input: A tensor of shape ``[batch] + spatial_shape + remaining_shape`` with M
            spatial dimensions.
        block_shape: A 1-D int32/int64 tensor of M values, all >= 1.
        paddings: A ``[M, 2]`` int32/int64 tensor of non-negative start and end paddings.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``[batch * prod(block_shape), padded_shape[i] / block_shape[i]
        ..., remaining_shape]``.

    Raises:
        InvalidArgumentError: if a padded size is not a multiple of its block size, or the
            arguments' shapes or values are invalid.
    """
    return apply_op("SpaceToBatchND", (_as_value(input), _index_tensor(block_shape),
                                       _index_tensor(paddings)), {}, name=name)


def batch_to_space_nd(input: TensorLike, block_shape: TensorLike,  # noqa: A002
                      crops: TensorLike, name: str | None = None) -> Any:
    """The inverse of :func:`space_to_batch_nd`: blocks of the batch dimension back into the
    spatial dimensions, then cropped (TensorFlow's ``BatchToSpaceND``).

    Args:
        input: A tensor of shape ``[batch] + spatial_shape + remaining_shape``, ``batch`` a
            multiple of ``prod(block_shape)``.
        block_shape: A 1-D int32/int64 tensor of M values, all >= 1.
        crops: A ``[M, 2]`` int32/int64 tensor of non-negative start and end crops.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``[batch / prod(block_shape), spatial_shape[i] * block_shape[i] -
        crops[i, 0] - crops[i, 1] ..., remaining_shape]``.

    Raises:
        InvalidArgumentError: if the batch is not a multiple of ``prod(block_shape)`` or the
            arguments' shapes or values are invalid.
    """
    return apply_op("BatchToSpaceND", (_as_value(input), _index_tensor(block_shape),
                                       _index_tensor(crops)), {}, name=name)


def space_to_batch(input: TensorLike, block_shape: TensorLike,  # noqa: A002
                   paddings: TensorLike, name: str | None = None) -> Any:
    """TF2's ``tf.space_to_batch`` / ``tf.nn.space_to_batch``: :func:`space_to_batch_nd`.

    Args:
        input: A tensor of shape ``[batch] + spatial_shape + remaining_shape``.
        block_shape: A 1-D int tensor of M block sizes.
        paddings: A ``[M, 2]`` int tensor of paddings.
        name: A name for the operation (optional).

    Returns:
        The SpaceToBatchND result.
    """
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(input: TensorLike, block_shape: TensorLike,  # noqa: A002
                   crops: TensorLike, name: str | None = None) -> Any:
    """TF2's ``tf.batch_to_space``: :func:`batch_to_space_nd`; an int ``block_shape`` ``b``
    means ``[b, b]``.

    Args:
        input: A tensor of shape ``[batch] + spatial_shape + remaining_shape``.
        block_shape: A 1-D int tensor of M block sizes, or an int.
        crops: A ``[M, 2]`` int tensor of crops.
        name: A name for the operation (optional).

    Returns:
        The BatchToSpaceND result.
    """
    return batch_to_space_nd(input, _block_tensor(block_shape), crops, name)


def _v1_block(block_size: int | None, block_shape: int | None) -> int:
    if block_size is not None and block_shape is not None:
        raise ValueError("Cannot specify both 'block_shape' and 'block_size'.")
    b = block_size if block_size is not None else block_shape
    if b is None:
        raise TypeError("Missing required argument 'block_size'.")
    return b


def _with_rank_4(y: Any) -> Any:
    if y.shape.rank is not None and y.shape.rank != 4:
        raise ValueError("Shape %s must have rank 4" % y.shape)
    return y


def space_to_batch_v1(input: TensorLike, paddings: TensorLike,  # noqa: A002
                      block_size: int | None = None, name: str | None = None,
                      block_shape: int | None = None) -> Any:
    """TF1's ``tf.space_to_batch``: :func:`space_to_batch_nd` of a 4-D ``input`` with
    ``block_shape = [block_size, block_size]``.

    Args:
        input: A 4-D tensor ``[batch, height, width, depth]``.
        paddings: A ``[2, 2]`` int tensor of paddings.
        block_size: The block size (an int >= 1).
        name: A name for the operation (optional).
        block_shape: The deprecated name of ``block_size``.

    Returns:
        A 4-D tensor.
    """
    b = _v1_block(block_size, block_shape)
    return _with_rank_4(space_to_batch_nd(input, np.array([b, b], np.int64), paddings, name))


def batch_to_space_v1(input: TensorLike, crops: TensorLike,  # noqa: A002
                      block_size: int | None = None, name: str | None = None,
                      block_shape: int | None = None) -> Any:
    """TF1's ``tf.batch_to_space``: :func:`batch_to_space_nd` of a 4-D ``input`` with
    ``block_shape = [block_size, block_size]``.

    Args:
        input: A 4-D tensor.
        crops: A ``[2, 2]`` int tensor of crops.
        block_size: The block size (an int >= 1).
        name: A name for the operation (optional).
        block_shape: The deprecated name of ``block_size``.

    Returns:
        A 4-D tensor.
    """
    b = _v1_block(block_size, block_shape)
    return _with_rank_4(batch_to_space_nd(input, np.array([b, b], np.int64), crops, name))


def required_space_to_batch_paddings(input_shape: TensorLike, block_shape: TensorLike,
                                     base_paddings: TensorLike | None = None,
                                     name: str | None = None) -> tuple:
    """The paddings (and the crops that undo them) that make ``block_shape`` divide
    ``input_shape``, for :func:`space_to_batch_nd` and :func:`batch_to_space_nd`.

    Args:
        input_shape: An int32 tensor of shape ``[N]``.
        block_shape: An int32 tensor of shape ``[N]`` (its shape must be known).
        base_paddings: An optional ``[N, 2]`` int32 tensor: the least padding (default 0).
        name: A name prefix (optional).

    Returns:
        ``(paddings, crops)``, int32 tensors of shape ``[N, 2]``: ``paddings[i, 0] =
        base_paddings[i, 0]``, ``paddings[i, 1]`` the least end padding at least
        ``base_paddings[i, 1]`` that makes the padded size a multiple of ``block_shape[i]``,
        and ``crops[i] = [0, paddings[i, 1] - base_paddings[i, 1]]``.

    Raises:
        ValueError: if ``block_shape``'s shape is not a known vector or the shapes disagree.
    """
    with name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = convert_to_tensor(_as_value(input_shape), dtypes.int32, name="input_shape")
        block_shape = convert_to_tensor(_as_value(block_shape), dtypes.int32, name="block_shape")
        bs = block_shape.shape
        if bs.rank != 1 or bs.as_list()[0] is None:
            raise ValueError("Shape %s must have rank 1 and be fully defined" % bs)
        m = bs.as_list()[0]
        if m == 0:
            return zeros([0, 2], dtypes.int32), zeros([0, 2], dtypes.int32)
        if not input_shape.shape.is_compatible_with([m]):
            raise ValueError("Shapes %s and %s are incompatible" % (input_shape.shape, [m]))
        if base_paddings is not None:
            base_paddings = convert_to_tensor(_as_value(base_paddings), dtypes.int32,
                                              name="base_paddings")
            if not base_paddings.shape.is_compatible_with([m, 2]):
                raise ValueError("Shapes %s and %s are incompatible"
                                 % (base_paddings.shape, [m, 2]))
        else:
            base_paddings = zeros([m, 2], dtypes.int32)
        known = [constant_value(t) for t in (block_shape, input_shape, base_paddings)]
        if all(k is not None for k in known):
            block_shape, input_shape, base_paddings = (np.asarray(k, np.int32) for k in known)
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full_input_shape = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        paddings = stack([[pad_start[i], pad_end[i]] for i in range(m)], name="paddings")
        crops = stack([[0, pad_end_extra[i]] for i in range(m)], name="crops")
        return paddings, crops


__all__ = ["batch_to_space", "batch_to_space_nd", "batch_to_space_v1",
           "required_space_to_batch_paddings", "space_to_batch", "space_to_batch_nd",
           "space_to_batch_v1"]
