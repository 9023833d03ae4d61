"""Slicing ops: slice and strided_slice with their gradients, and pad (the gradient
of a slice is a pad, and the gradient of a pad a slice)."""
from __future__ import annotations

import builtins
import functools
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_op_util import (_UNKNOWN, _as_value, _fmt, _int_tensor, _invalid,
                                        _known_ints, _partial_ints, _vector_length,
                                        _with_nones, linear_in_first_jvp, static_shape)
from flowgrad.ops.fill_ops import ones_like
from flowgrad.ops.shape_ops import reshape, shape, shape_of, stack
from collections.abc import Sequence
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# slice, pad


def _slice_index(shape: tuple, begin: list, size: list, err: Any) -> tuple:
    """The NumPy index of tf.slice; ``err`` makes the exception for a bad begin or size."""
    r = len(shape)
    if len(begin) != r or len(size) != r:
        raise err("Expected begin and size arguments to be 1-D tensors of size %d, but got "
                  "shapes [%d] and [%d] instead." % (r, len(begin), len(size)))
    idx = []
    for i, (b, s, n) in enumerate(zip(begin, size, shape)):
        if not 0 <= b <= n:
            raise err("Expected begin[%d] in [0, %d], but got %d" % (i, n, b))
        if s == -1:
            s = n - b
        if not 0 <= s <= n - b:
            raise err("Expected size[%d] in [0, %d], but got %d" % (i, n - b, s))
        idx.append(builtins.slice(b, b + s))
    return tuple(idx)


def _slice_kernel(x: Any, begin_in: Any = None, size_in: Any = None, *,
                  begin: tuple | None = None, size: tuple | None = None) -> Any:
    if begin is None:
        begin, size = [int(b) for b in begin_in], [int(s) for s in size_in]
    return x[_slice_index(np.shape(x), begin, size, _invalid)]


def _slice_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    begin, size = attrs["begin"], attrs["size"]
    if begin is None:
        n = len(dims) if dims is not None else (_vector_length(ins[1]) or
                                                _vector_length(ins[2]))
        begin, size = _partial_ints(ins[1], n), _partial_ints(ins[2], n)
        if begin is None:
            return dt, TensorShape(None)
    if dims is None:
        return dt, TensorShape([None if s is _UNKNOWN or s == -1 else s for s in size])
    if len(begin) != len(dims) or len(size) != len(dims):
        raise ValueError("Expected begin and size arguments to be 1-D tensors of size %d, but "
                         "got shapes [%d] and [%d] instead." % (len(dims), len(begin), len(size)))
    out = []
    for i, (b, s, n) in enumerate(zip(begin, size, dims)):
        if b is not _UNKNOWN and (b < 0 or n is not None and b > n):
            raise ValueError("Expected begin[%d] in [0, %s], but got %d"
                             % (i, "?" if n is None else n, b))
        if s is not _UNKNOWN and s != -1 and (s < 0 or None not in (n, b) and
                                              b is not _UNKNOWN and b + s > n):
            raise ValueError("Expected size[%d] in [0, %s], but got %d"
                             % (i, "?" if n is None or b is _UNKNOWN else n - b, s))
        if s == -1:
            s = None if n is None or b is _UNKNOWN else n - b
        out.append(None if s is _UNKNOWN else s)
    return dt, TensorShape(out)


@defop("Slice", _slice_kernel, _slice_infer, view=True, input_names=("input", "begin", "size"))
def _slice_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    begin, xs, ys = op.get_attr("begin"), static_shape(x), static_shape(y)
    if begin is not None and xs is not None and ys is not None:
        return pad(grad, [[b, n - b - m] for b, n, m in zip(begin, xs, ys)])
    bt = _int_tensor(op.inputs[1] if begin is None else list(begin))
    after = hooks.subtract(hooks.subtract(shape(x, out_type=bt.dtype), bt),
                           shape(y, out_type=bt.dtype))
    return _with_nones(pad(grad, stack([bt, after], axis=1)), op)


register_jvp("Slice", linear_in_first_jvp)


@dispatch.add_dispatch_support
def slice(input_: TensorLike, begin: TensorLike, size: TensorLike, name: str | None = None) -> Any:  # noqa: A001
    """The block of ``input_`` starting at ``begin`` of extent ``size`` (-1: to the end).

    Args:
        input_: A tensor.
        begin: The start of the slice along each axis.
        size: The slice's size along each axis (-1: to the end).
        name: A name for the operation (optional).
    """
    x = _as_value(input_)
    b, s = _known_ints(begin, "slice begin"), _known_ints(size, "slice size")
    if b is not None and s is not None:
        return apply_op("Slice", [x], {"begin": tuple(b), "size": tuple(s)}, name=name)
    return apply_op("Slice", [x, _int_tensor(begin), _int_tensor(size)],
                    {"begin": None, "size": None}, name=name)


_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


def _check_paddings(dims: tuple, paddings: list, mode: str, err: Any) -> None:
    if len(paddings) != len(dims) or any(len(p) != 2 for p in paddings):
        raise err("The first dimension of paddings must be the rank of inputs: paddings of "
                  "shape [%d,2] expected for an input of shape %s, got %s"
                  % (len(dims), _fmt(dims), [list(p) for p in paddings]))
    for (a, b), n in zip(paddings, dims):
        if a < 0 or b < 0:
            raise err("Paddings must be non-negative: %d %d" % (a, b))
        if n is None or mode == "CONSTANT":
            continue
        if mode == "REFLECT" and (a >= n or b >= n):
            raise err("paddings must be less than the dimension size: %d, %d not less than %d"
                      % (a, b, n))
        if mode == "SYMMETRIC" and (a > n or b > n):
            raise err("paddings must be no greater than the dimension size: %d, %d greater "
                      "than %d" % (a, b, n))


def _pad_kernel(x: Any, *rest: Any, paddings: tuple | None = None,
                mode: str = "CONSTANT") -> Any:
    if paddings is None:
        paddings, rest = np.asarray(rest[0]).tolist(), rest[1:]
    _check_paddings(np.shape(x), paddings, mode, _invalid)
    if not paddings:
        return np.array(x, copy=True)
    if mode == "CONSTANT":
        return np.pad(x, paddings, mode="constant", constant_values=rest[0] if rest else 0)
    return np.pad(x, paddings, mode=_PAD_MODES[mode])


def _pad_infer(ins: list, attrs: dict) -> tuple:
    x, p = ins[0], attrs["paddings"]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    has_constant = len(ins) == (2 if p is None else 1) + 1    # PadV2: constant_values last
    if has_constant and ins[-1].dtype.base_dtype is not dt:
        raise TypeError("Input 'constant_values' of 'PadV2' Op has type %s that does not match "
                        "type %s of argument 'input'." % (ins[-1].dtype.base_dtype.name, dt.name))
    if p is None:
        pdims = ins[1].shape.as_tuple()
        r = len(dims) if dims is not None else (pdims[0] if pdims else None)
        return dt, TensorShape(None if r is None else [None] * r)
    if dims is None:
        return dt, TensorShape([None] * len(p))
    _check_paddings(dims, p, attrs.get("mode", "CONSTANT"), ValueError)
    return dt, TensorShape([None if n is None else n + a + b for n, (a, b) in zip(dims, p)])


def _pad_x_grad(op: Any, grad: Any) -> Any:
    x, p = op.inputs[0], op.get_attr("paddings")
    if p is not None:
        begin = [a for a, _ in p]
    else:
        begin = reshape(slice(op.inputs[1], [0, 0], [-1, 1]), [-1])
    return slice(grad, begin, shape_of(x))


@defop("Pad", _pad_kernel, _pad_infer, input_names=("input", "paddings"))
def _pad_grad(op: Any, grad: Any) -> Any:
    return _with_nones(_pad_x_grad(op, grad), op)


register_jvp("Pad", linear_in_first_jvp)


@defop("PadV2", _pad_kernel, _pad_infer, input_names=("input", "paddings", "constant_values"))
def _padv2_grad(op: Any, grad: Any) -> Any:
    return _with_nones(_pad_x_grad(op, grad), op)


@defop("MirrorPad", _pad_kernel, _pad_infer, input_names=("input", "paddings"))
def _mirror_pad_grad(op: Any, grad: Any) -> Any:
    p, mode = op.get_attr("paddings"), op.get_attr("mode")
    if p is not None:
        g = apply_op("MirrorPadGrad", [grad], {"paddings": p, "mode": mode})
    else:
        g = apply_op("MirrorPadGrad", [grad, op.inputs[1]], {"paddings": None, "mode": mode})
    return _with_nones(g, op)


def _mirror_pad_grad_kernel(g: Any, paddings_in: Any = None, *, paddings: tuple | None,
                            mode: str) -> Any:
    """Folds the mirrored borders of a MirrorPad gradient back onto the values they copy."""
    if paddings is None:
        paddings = np.asarray(paddings_in).tolist()
    k = 1 if mode == "REFLECT" else 0
    out = np.asarray(g)
    for ax, (a, b) in enumerate(paddings):
        if not a and not b:
            continue
        v = np.moveaxis(out, ax, 0)
        n = v.shape[0] - a - b
        core = v[a:a + n].copy()
        if a:
            core[k:k + a] += v[:a][::-1]
        if b:
            core[n - k - b:n - k] += v[a + n:][::-1]
        out = np.moveaxis(core, 0, ax)
    return np.array(out, copy=True) if out is g else out


def _mirror_pad_grad_infer(ins: list, attrs: dict) -> tuple:
    g, p = ins[0], attrs["paddings"]
    dt, dims = g.dtype.base_dtype, g.shape.as_tuple()
    if p is None or dims is None:
        return dt, TensorShape(None if dims is None else [None] * len(dims))
    return dt, TensorShape([None if n is None else n - a - b for n, (a, b) in zip(dims, p)])


@defop("MirrorPadGrad", _mirror_pad_grad_kernel, _mirror_pad_grad_infer,
       input_names=("input", "paddings"))
def _mirror_pad_grad_grad(op: Any, grad: Any) -> Any:
    p = op.get_attr("paddings")
    return _with_nones(pad(grad, op.inputs[1] if p is None else p, op.get_attr("mode")), op)


def pad(tensor: TensorLike, paddings: TensorLike, mode: str = "CONSTANT", name: str | None = None,
        constant_values: TensorLike = 0) -> Any:
    """``tensor`` padded by ``paddings`` ([rank, 2]: before and after each dimension).

    Modes: CONSTANT (with ``constant_values``), REFLECT and SYMMETRIC (mirror the edges).

    Args:
        tensor: A tensor.
        paddings: An int [rank, 2] tensor: how much to add before and after each axis.
        mode: ``"CONSTANT"``, ``"REFLECT"`` or ``"SYMMETRIC"``.
        name: A name for the operation (optional).
        constant_values: The value padded with in ``"CONSTANT"`` mode.
    """
    mode = str(mode).upper()
    if mode not in _PAD_MODES:
        raise ValueError("pad: unknown padding mode %r (expected CONSTANT, REFLECT or "
                         "SYMMETRIC)" % (mode,))
    x = convert_to_tensor(_as_value(tensor))
    p = _known_ints(paddings, "paddings")
    if p is not None:
        if len(p) % 2:
            raise ValueError("paddings must have shape [rank, 2], got %r" % (paddings,))
        attrs: dict = {"paddings": tuple(zip(p[0::2], p[1::2]))}
        inputs = [x]
    else:
        attrs, inputs = {"paddings": None}, [x, _int_tensor(paddings)]
    if mode != "CONSTANT":
        attrs["mode"] = mode
        return apply_op("MirrorPad", inputs, attrs, name=name)
    if not is_tensor(constant_values) and np.all(np.asarray(constant_values) == 0):
        return apply_op("Pad", inputs, attrs, name=name)
    c = _as_value(constant_values)
    c = c if is_tensor(c) else convert_to_tensor(c, x.dtype.base_dtype)
    return apply_op("PadV2", inputs + [c], attrs, name=name)


# --------------------------------------------------------------------------------------
# strided_slice


def _ss_index(begin: Any, end: Any, strides: Any, begin_mask: int, end_mask: int,
              ellipsis_mask: int, new_axis_mask: int, shrink_axis_mask: int) -> tuple:
    """The NumPy basic index equivalent to a strided-slice spec (TensorFlow's semantics)."""
    idx: list = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            idx.append(Ellipsis)
        elif new_axis_mask & bit:
            idx.append(None)
        elif shrink_axis_mask & bit:
            idx.append(b)
        else:
            idx.append(builtins.slice(None if begin_mask & bit else b,
                                      None if end_mask & bit else e, s))
    return tuple(idx)


def _ss_apply(x: Any, idx: tuple) -> Any:
    try:
        return x[idx]
    except IndexError:
        raise _invalid(_slice_index_error(np.shape(x), idx)) from None


def _slice_index_error(shape: tuple, idx: tuple) -> str:
    """TensorFlow's message for the first integer index out of its dimension's bounds."""
    dim = 0
    for i in idx:
        if i is None:
            continue
        if i is Ellipsis:
            dim = len(shape) - sum(1 for j in idx if j is not None and j is not Ellipsis) + dim
            continue
        if isinstance(i, (int, np.integer)) and not -shape[dim] <= i < shape[dim]:
            return "slice index %d of dimension %d out of bounds." % (
                i + shape[dim] if i < 0 else i, dim)
        dim += 1
    return "strided slice of a tensor of shape %s out of bounds" % _fmt(shape)


def _ss_kernel(x: Any, *spec: Any, begin: tuple | None = None, end: tuple | None = None,
               strides: tuple | None = None, **masks: int) -> Any:
    if begin is None:
        begin, end, strides = ([int(v) for v in t] for t in spec)
    if 0 in strides:
        raise _invalid("strides[%d] must be non-zero" % list(strides).index(0))
    return _ss_apply(x, _ss_index(begin, end, strides, **masks))


def _ss_specialize(attrs: dict) -> Any:
    if attrs["begin"] is None:
        return functools.partial(_ss_kernel, **attrs)
    idx = _ss_index(**attrs)
    return lambda x: _ss_apply(x, idx)


def _slice_length(s: builtins.slice, n: int | None) -> int | None:
    full = s.start is None and s.stop is None and s.step in (1, -1)
    if full:
        return n
    if n is None or _UNKNOWN in (s.start, s.stop, s.step):
        return None
    return len(builtins.range(*s.indices(n)))


def _sliced_dims(dims: tuple, idx: tuple) -> list:
    """The static output dims of ``x[idx]`` for ``x`` of static dims ``dims``."""
    if sum(s is Ellipsis for s in idx) > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    consumed = sum(s is not None and s is not Ellipsis for s in idx)
    extra = len(dims) - consumed
    if extra < 0:
        raise ValueError("Index out of range using input dim %d; input has only %d dims"
                         % (len(dims), len(dims)))
    fill = (builtins.slice(None),) * extra
    e = next((i for i, s in enumerate(idx) if s is Ellipsis), None)
    idx = idx + fill if e is None else idx[:e] + fill + idx[e + 1:]
    out, d = [], 0
    for s in idx:
        if s is None:
            out.append(1)
            continue
        n = dims[d]
        if isinstance(s, builtins.slice):
            out.append(_slice_length(s, n))
        elif s is not _UNKNOWN and n is not None and not -n <= s < n:
            raise ValueError("slice index %d of dimension %d out of bounds." % (s, d))
        d += 1
    return out


def _ss_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    masks = {k: attrs[k] for k in _SS_MASKS}
    begin, end, strides = attrs["begin"], attrs["end"], attrs["strides"]
    if begin is None:
        n = next((m for m in map(_vector_length, ins[1:]) if m is not None), None)
        begin, end, strides = (_partial_ints(t, n) for t in ins[1:])
        if begin is None:
            return dt, TensorShape(None)
    if not len(begin) == len(end) == len(strides):
        raise ValueError("begin, end and strides must have the same length, got %d, %d and %d"
                         % (len(begin), len(end), len(strides)))
    for i, s in enumerate(strides):
        if s == 0:
            raise ValueError("strides[%d] must be non-zero" % i)
    if dims is None:
        return dt, TensorShape(None)
    return dt, TensorShape(_sliced_dims(dims, _ss_index(begin, end, strides, **masks)))


_SS_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


@defop("StridedSlice", _ss_kernel, _ss_infer, specialize=_ss_specialize, view=True,
       input_names=("input", "begin", "end", "strides"))
def _ss_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    attrs = {k: op.get_attr(k) for k in ("begin", "end", "strides") + _SS_MASKS}
    inputs = [shape_of(x)] + list(op.inputs[1:]) + [_as_value(grad)]
    g = apply_op("StridedSliceGrad", inputs, attrs, dtype=dtypes.int32)
    return _with_nones(g, op)


register_jvp("StridedSlice", linear_in_first_jvp)


def _ss_grad_kernel(shape_in: Any, *rest: Any, begin: tuple | None = None,
                    end: tuple | None = None, strides: tuple | None = None,
                    **masks: int) -> Any:
    dy = rest[-1]
    if begin is None:
        begin, end, strides = ([int(v) for v in t] for t in rest[:3])
    out = np.zeros(tuple(int(d) for d in shape_in), np.asarray(dy).dtype)
    out[_ss_index(begin, end, strides, **masks)] = dy
    return out


def _ss_grad_infer(ins: list, attrs: dict) -> tuple:
    return ins[-1].dtype.base_dtype, shape_from_value(ins[0])


@defop("StridedSliceGrad", _ss_grad_kernel, _ss_grad_infer,
       input_names=("shape", "begin", "end", "strides", "dy"))
def _ss_grad_grad(op: Any, grad: Any) -> Any:
    attrs = {k: op.get_attr(k) for k in _SS_MASKS}
    if op.get_attr("begin") is None:
        begin, end, strides = op.inputs[1:4]
    else:
        begin, end, strides = (op.get_attr(k) for k in ("begin", "end", "strides"))
    return [None] * (len(op.inputs) - 1) + [strided_slice(grad, begin, end, strides, **attrs)]


@dispatch.add_dispatch_support
def strided_slice(input_: TensorLike, begin: TensorLike, end: TensorLike,
                  strides: int | Sequence[int] | None = None, begin_mask: int = 0,
                  end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0, var: Any = None, name: str | None = None) -> Any:
    """``input_[begin:end:strides]`` per dimension, with TensorFlow's bit masks.

    Bit i of a mask applies to spec element i: begin/end_mask ignore begin[i]/end[i],
    ellipsis_mask makes it ``...``, new_axis_mask ``tf.newaxis``, shrink_axis_mask an
    integer index (that dimension is removed).

    Args:
        input_: A tensor.
        begin: The start along each axis.
        end: The (exclusive) end along each axis.
        strides: The step along each axis; 1 when None.
        begin_mask: Bit i set: ignore ``begin[i]`` (start at the beginning).
        end_mask: Bit i set: ignore ``end[i]`` (go to the end).
        ellipsis_mask: Bit i set: entry i is an ellipsis.
        new_axis_mask: Bit i set: entry i adds an axis of length 1.
        shrink_axis_mask: Bit i set: entry i takes one index and removes the axis.
        var: The variable being sliced (for sliced assignment), or None.
        name: A name for the operation (optional).
    """
    x = _as_value(input_)
    masks = {"begin_mask": int(begin_mask), "end_mask": int(end_mask),
             "ellipsis_mask": int(ellipsis_mask), "new_axis_mask": int(new_axis_mask),
             "shrink_axis_mask": int(shrink_axis_mask)}
    b, e = _known_ints(begin, "strided_slice begin"), _known_ints(end, "strided_slice end")
    if strides is None:
        strides = [1] * len(b) if b is not None else ones_like(_int_tensor(begin))
    s = _known_ints(strides, "strided_slice strides")
    if b is not None and e is not None and s is not None:
        return apply_op("StridedSlice", [x], dict(begin=tuple(b), end=tuple(e),
                                                  strides=tuple(s), **masks), name=name)
    spec = [_int_tensor(v) for v in (begin, end, strides)]
    return apply_op("StridedSlice", [x] + spec, dict(begin=None, end=None, strides=None, **masks),
                    name=name)


# --------------------------------------------------------------------------------------
# TensorFlow 2 argument orders (the TF2 face imports these under the plain names)


@dispatch.add_dispatch_support
def pad_v2(tensor: TensorLike, paddings: TensorLike, mode: str = "CONSTANT",
           constant_values: TensorLike = 0, name: str | None = None) -> Any:
    """``pad`` with TensorFlow 2's argument order (constant_values before name).

    Args:
        tensor: A tensor.
        paddings: An int [rank, 2] tensor: how much to add before and after each axis.
        mode: ``"CONSTANT"``, ``"REFLECT"`` or ``"SYMMETRIC"``.
        constant_values: The value padded with in ``"CONSTANT"`` mode.
        name: A name for the operation (optional).
    """
    return pad(tensor, paddings, mode, name, constant_values)
