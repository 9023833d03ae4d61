"""N-D convolution kernels (any number of spatial axes, feature groups): Conv3D and its
backprop ops use them, and so do grouped 2-D convolutions (input depth a multiple of the
filter's), which TensorFlow runs through XLA on CPU.

The kernels take channels-last arrays (N, *spatial, C) and a filter (*K, C / groups, O).
The forward pass is one tensordot of a strided window view of the zero-padded input per
group; the backprop ops add one (M, O) x (O, C) GEMM per window tap into a strided slice
of the padded input gradient (input) or contract each tap's input slice with the output
gradient (filter)."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import _as_value, shape_of, stack
from flowgrad.framework.type_hints import TensorLike


def output_size(size: int | None, k: int, s: int, d: int, padding: str,
                explicit: tuple = (0, 0)) -> tuple:
    """(output size, (pad before, pad after)) of one spatial axis, as TensorFlow computes it.

    SAME pads ``total = max((out - 1) * s + k_eff - size, 0)``, ``total // 2`` before."""
    k_eff = (k - 1) * d + 1
    if size is None:
        return None, None
    if padding == "SAME":
        out = -(-size // s)
        total = max((out - 1) * s + k_eff - size, 0)
        return out, (total // 2, total - total // 2)
    before, after = explicit if padding == "EXPLICIT" else (0, 0)
    span = size + before + after - k_eff + s
    out = span // s if span >= 0 else -(-span // s)     # C++ division, as TensorFlow's
    if out < 0:
        raise ValueError("Computed output size would be negative: %d [input_size: %d, "
                         "effective_filter_size: %d, stride: %d]" % (out, size, k_eff, s))
    return out, (before, after)


def _sizes(t: Any) -> Any:
    """``t``'s shape as an int32 tensor (a constant when it is known statically)."""
    s = shape_of(t)
    return convert_to_tensor(np.asarray(s, np.int32)) if isinstance(s, tuple) else s


def _output_sizes(output_shape: Any) -> Any:
    """A shape argument (list, tuple, TensorShape, tensor, or a list holding tensors) as a
    tensor."""
    if is_tensor(output_shape):
        return output_shape
    if isinstance(output_shape, (list, tuple)) and any(is_tensor(d) for d in output_shape):
        return stack(list(output_shape))
    if isinstance(output_shape, TensorShape):
        output_shape = output_shape.as_list()
    return convert_to_tensor(np.asarray(_as_value(output_shape), np.int32))


def pad(x: np.ndarray, pads: tuple, value: TensorLike = 0) -> np.ndarray:
    """``x`` (N, *spatial, C) padded on its spatial axes (``x`` itself without padding)."""
    if not any(a or b for a, b in pads):
        return x
    return np.pad(x, ((0, 0),) + tuple(pads) + ((0, 0),), constant_values=value)


def crop(xp: np.ndarray, pads: tuple, in_sp: tuple) -> np.ndarray:
    """The inverse of :func:`pad`: the in-bounds part of a padded array."""
    return xp[(slice(None),) + tuple(slice(b, b + n) for (b, _), n in zip(pads, in_sp))]


def windows(xp: np.ndarray, k_sp: tuple, strides: tuple, dilations: tuple,
            out_sp: tuple) -> np.ndarray:
    """Read-only strided view (N, *out, *K, C) of the windows of a padded (N, *sp, C)."""
    st = xp.strides
    sp = st[1:-1]
    return as_strided(xp, (xp.shape[0],) + tuple(out_sp) + tuple(k_sp) + (xp.shape[-1],),
                      (st[0],) + tuple(a * s for a, s in zip(sp, strides))
                      + tuple(a * d for a, d in zip(sp, dilations)) + (st[-1],),
                      writeable=False)


def tap(idx: tuple, strides: tuple, dilations: tuple, out_sp: tuple) -> tuple:
    """Index of the padded-input positions window tap ``idx`` reads, for every output."""
    return (slice(None),) + tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                                  for i, s, d, o in zip(idx, strides, dilations, out_sp))


def groups_of(in_depth: int, f_depth: int, out_depth: int) -> int:
    """The number of feature groups of a convolution (input depth / filter input depth).

    Raises:
      InvalidArgumentError: the depths do not divide.
    """
    if f_depth <= 0 or in_depth % f_depth:
        raise InvalidArgumentError(None, None, "input depth must be evenly divisible by filter "
                                   "depth: %d vs %d" % (in_depth, f_depth))
    g = in_depth // f_depth
    if out_depth % g:
        raise InvalidArgumentError(None, None, "output depth must be evenly divisible by the "
                                   "number of groups: %d vs %d" % (out_depth, g))
    return g


def conv(x: np.ndarray, f: np.ndarray, strides: tuple, dilations: tuple, out_sp: tuple,
         pads: tuple) -> np.ndarray:
    """The convolution (cross-correlation) of channels-last ``x`` with ``f`` (*K, C/g, O)."""
    r = f.ndim - 2
    c, o = f.shape[-2:]
    g = groups_of(x.shape[-1], c, o)
    og = o // g
    xp = pad(x, pads)
    out = np.empty((x.shape[0],) + tuple(out_sp) + (o,), np.result_type(x, f))
    axes = (list(range(r + 1, 2 * r + 2)), list(range(r + 1)))
    for i in range(g):
        win = windows(xp[..., i * c:(i + 1) * c], f.shape[:r], strides, dilations, out_sp)
        out[..., i * og:(i + 1) * og] = np.tensordot(win, f[..., i * og:(i + 1) * og], axes)
    return out


def backprop_input(dy: np.ndarray, f: np.ndarray, in_shape: tuple, strides: tuple,
                   dilations: tuple, pads: tuple) -> np.ndarray:
    """The gradient of :func:`conv` with respect to its input of shape ``in_shape``."""
    r = f.ndim - 2
    c, o = f.shape[-2:]
    g = groups_of(in_shape[-1], c, o)
    og = o // g
    out_sp = dy.shape[1:-1]
    padded = (in_shape[0],) + tuple(n + a + b for n, (a, b) in zip(in_shape[1:-1], pads)) \
        + (in_shape[-1],)
    dxp = np.zeros(padded, np.result_type(dy, f))
    for idx in itertools.product(*(range(k) for k in f.shape[:r])):
        t = tap(idx, strides, dilations, out_sp)
        for i in range(g):
            dxp[t + (slice(i * c, (i + 1) * c),)] += np.matmul(
                dy[..., i * og:(i + 1) * og], f[idx][:, i * og:(i + 1) * og].T)
    return np.ascontiguousarray(crop(dxp, pads, in_shape[1:-1]))


def backprop_filter(x: np.ndarray, f_shape: tuple, dy: np.ndarray, strides: tuple,
                    dilations: tuple, pads: tuple) -> np.ndarray:
    """The gradient of :func:`conv` with respect to its filter of shape ``f_shape``."""
    r = len(f_shape) - 2
    c, o = f_shape[-2:]
    g = groups_of(x.shape[-1], c, o)
    og = o // g
    out_sp = dy.shape[1:-1]
    xp = pad(x, pads)
    dw = np.empty(tuple(f_shape), np.result_type(x, dy))
    axes = (list(range(r + 1)), list(range(r + 1)))
    for idx in itertools.product(*(range(k) for k in f_shape[:r])):
        t = tap(idx, strides, dilations, out_sp)
        for i in range(g):
            dw[idx + (slice(None), slice(i * og, (i + 1) * og))] = np.tensordot(
                xp[t + (slice(i * c, (i + 1) * c),)], dy[..., i * og:(i + 1) * og], axes)
    return dw
