"""TensorFlow's band-diagonal ops: MatrixDiagV3, MatrixDiagPartV3 and MatrixSetDiagV3
(``tf.linalg.diag`` / ``diag_part`` / ``set_diag`` with ``k``: one diagonal off the main
one, or a band ``k = (lower, upper)`` of them; ``num_rows``/``num_cols``, ``padding_value``
and ``align``), each with its kernel, shape rule, gradient and JVP. The three are linear, and
each one's gradient is another of them, so they differentiate at any order.

Diagonal ``d`` (column minus row) of an ``M x N`` matrix has ``min(N - max(d, 0), M +
min(d, 0))`` entries; a band stores diagonal ``d`` in row ``upper - d`` of a
``[num_diags, max_diag_len]`` array, shorter diagonals padded on the left or the right as
``align`` says (``RIGHT_LEFT``: superdiagonals to the right, subdiagonals to the left)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_op_util import _as_value

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _band(k: Any) -> tuple:
    """(lower, upper) of a ``k`` value (a scalar or a pair)."""
    k = np.asarray(k).reshape(-1)
    if k.size not in (1, 2):
        raise InvalidArgumentError(None, None, "diag_index must be a scalar or vector with "
                                   "one or two elements, got %d elements" % k.size)
    lo, hi = int(k[0]), int(k[-1])
    if lo > hi:
        raise InvalidArgumentError(None, None, "lower_diag_index must not be larger than "
                                   "upper_diag_index: %d > %d" % (lo, hi))
    return lo, hi


def _diagonals(rows: int, cols: int, lo: int, hi: int, width: int, align: str) -> list:
    """For each diagonal of the band: (its row in the band array, the matrix rows and
    columns of its entries, their positions in the band array's row)."""
    out = []
    for d in range(lo, hi + 1):
        n = max(0, min(cols - max(d, 0), rows + min(d, 0)))
        right = (align in ("RIGHT_LEFT", "RIGHT_RIGHT") and d >= 0) or \
            (align in ("LEFT_RIGHT", "RIGHT_RIGHT") and d <= 0)
        t = np.arange(n)
        out.append((hi - d, t - min(d, 0), t + max(d, 0), t + (width - n if right else 0)))
    return out


def _diag_kernel(diagonal: Any, k: Any, num_rows: Any, num_cols: Any, padding_value: Any, *,
                 align: str) -> Any:
    lo, hi = _band(k)
    band = lo != hi
    diagonal = np.asarray(diagonal)
    if band and (diagonal.ndim < 2 or diagonal.shape[-2] != hi - lo + 1):
        raise InvalidArgumentError(None, None, "The number of diagonals provided in the input "
                                   "does not match the lower_diag_index and upper_diag_index "
                                   "range.")
    width = diagonal.shape[-1]
    rows, cols = _diag_size(width, lo, hi, int(num_rows), int(num_cols))
    batch = diagonal.shape[:-2] if band else diagonal.shape[:-1]
    out = np.full(batch + (rows, cols), np.asarray(padding_value, diagonal.dtype),
                  diagonal.dtype)
    for di, m, n, t in _diagonals(rows, cols, lo, hi, width, align):
        out[..., m, n] = diagonal[..., di, t] if band else diagonal[..., t]
    return out


def _diag_size(width: int, lo: int, hi: int, rows: int, cols: int) -> tuple:
    """TensorFlow's (num_rows, num_cols) of MatrixDiagV3 (-1: the smallest that fits)."""
    min_rows, min_cols = width - min(hi, 0), width + max(lo, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if rows != min_rows and cols != min_cols:
        raise InvalidArgumentError(None, None, "The number of rows or columns is not "
                                   "consistent with the specified d_lower, d_upper, and "
                                   "diagonal.")
    return rows, cols


def _part_width(rows: int, cols: int, lo: int, hi: int) -> int:
    for d in (lo, hi):
        if not (-rows < d < cols or d == 0):
            raise InvalidArgumentError(None, None, "diag_index is out of bounds: %d (the "
                                       "matrix is %d x %d)" % (d, rows, cols))
    return min(rows + min(hi, 0), cols - max(lo, 0))


def _part_kernel(x: Any, k: Any, padding_value: Any, *, align: str) -> Any:
    lo, hi = _band(k)
    x = np.asarray(x)
    rows, cols = x.shape[-2:]
    width = _part_width(rows, cols, lo, hi)
    out = np.full(x.shape[:-2] + (hi - lo + 1, width), np.asarray(padding_value, x.dtype),
                  x.dtype)
    for di, m, n, t in _diagonals(rows, cols, lo, hi, width, align):
        out[..., di, t] = x[..., m, n]
    return out if lo != hi else out[..., 0, :]


def _set_kernel(x: Any, diagonal: Any, k: Any, *, align: str) -> Any:
    lo, hi = _band(k)
    out = np.array(x, copy=True)
    rows, cols = out.shape[-2:]
    width = _part_width(rows, cols, lo, hi)
    want = out.shape[:-2] + ((hi - lo + 1,) if lo != hi else ()) + (width,)
    diagonal = np.asarray(diagonal)
    if diagonal.shape != want:
        raise InvalidArgumentError(None, None, "diagonal must have shape %s, got %s"
                                   % (list(want), list(diagonal.shape)))
    for di, m, n, t in _diagonals(rows, cols, lo, hi, width, align):
        out[..., m, n] = diagonal[..., di, t] if lo != hi else diagonal[..., t]
    return out


def _static_band(t: Any) -> tuple | None:
    v = constant_value(t)
    return None if v is None else _band(v)


def _diag_infer(ins: list, attrs: dict) -> tuple:
    diagonal, k, num_rows, num_cols = ins[:4]
    dt = diagonal.dtype.base_dtype
    band, rows, cols = _static_band(k), constant_value(num_rows), constant_value(num_cols)
    s = diagonal.shape
    if band is None or s.rank is None:
        return dt, TensorShape(None)
    lo, hi = band
    dims = s.as_list()
    batch = dims[:-2] if lo != hi else dims[:-1]
    if dims[-1] is None or rows is None or cols is None:
        return dt, TensorShape(batch + [None, None])
    try:
        r, c = _diag_size(dims[-1], lo, hi, int(rows), int(cols))
    except InvalidArgumentError as e:
        raise ValueError(e.message) from None
    return dt, TensorShape(batch + [r, c])


def _part_infer(ins: list, attrs: dict) -> tuple:
    x, k = ins[:2]
    dt, s, band = x.dtype.base_dtype, x.shape, _static_band(k)
    if band is None or s.rank is None:
        return dt, TensorShape(None)
    lo, hi = band
    dims = s.as_list()
    lead = dims[:-2] + ([hi - lo + 1] if lo != hi else [])
    if None in dims[-2:]:
        return dt, TensorShape(lead + [None])
    try:
        width = _part_width(dims[-2], dims[-1], lo, hi)
    except InvalidArgumentError as e:
        raise ValueError(e.message) from None
    return dt, TensorShape(lead + [width])


def _align(op: Any) -> dict:
    return {"align": op.get_attr("align")}


def _diag_v3(diagonal: Any, k: Any, rows: Any, cols: Any, padding: Any, align: str) -> Any:
    return apply_op("MatrixDiagV3", [diagonal, k, rows, cols, padding], {"align": align})


def _part_v3(x: Any, k: Any, padding: Any, align: str) -> Any:
    return apply_op("MatrixDiagPartV3", [x, k, padding], {"align": align})


def _set_v3(x: Any, diagonal: Any, k: Any, align: str) -> Any:
    return apply_op("MatrixSetDiagV3", [x, diagonal, k], {"align": align})


def _zero(t: Any) -> Any:
    return convert_to_tensor(np.zeros((), t.dtype.base_dtype.np))


@defop("MatrixDiagV3", _diag_kernel, _diag_infer,
       input_names=("diagonal", "k", "num_rows", "num_cols", "padding_value"))
def _diag_grad(op: Any, grad: Any) -> tuple:
    return (_part_v3(grad, op.inputs[1], _zero(grad), op.get_attr("align")),
            None, None, None, None)


@defop("MatrixDiagPartV3", _part_kernel, _part_infer,
       input_names=("input", "k", "padding_value"))
def _part_grad(op: Any, grad: Any) -> tuple:
    from flowgrad.ops.fill_ops import zeros_like
    return _set_v3(zeros_like(op.inputs[0]), grad, op.inputs[1], op.get_attr("align")), \
        None, None


@defop("MatrixSetDiagV3", _set_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, ins[0].shape),
       input_names=("input", "diagonal", "k"))
def _set_grad(op: Any, grad: Any) -> tuple:
    from flowgrad.ops.fill_ops import zeros_like
    align, k = op.get_attr("align"), op.inputs[2]
    return _set_v3(grad, zeros_like(op.inputs[1]), k, align), \
        _part_v3(grad, k, _zero(grad), align), None


def _diag_jvp(op: Any, t: Any, *rest: Any) -> Any:
    if t is None:
        return None
    return _diag_v3(t, op.inputs[1], op.inputs[2], op.inputs[3], _zero(t), op.get_attr("align"))


def _part_jvp(op: Any, t: Any, *rest: Any) -> Any:
    return None if t is None else _part_v3(t, op.inputs[1], _zero(t), op.get_attr("align"))


def _set_jvp(op: Any, t_x: Any, t_d: Any, t_k: Any) -> Any:
    from flowgrad.ops.fill_ops import zeros_like
    if t_x is None and t_d is None:
        return None
    return _set_v3(zeros_like(op.inputs[0]) if t_x is None else t_x,
                   zeros_like(op.inputs[1]) if t_d is None else t_d, op.inputs[2],
                   op.get_attr("align"))


register_jvp("MatrixDiagV3", _diag_jvp)
register_jvp("MatrixDiagPartV3", _part_jvp)
register_jvp("MatrixSetDiagV3", _set_jvp)


def _check_align(align: str) -> str:
    if align not in _ALIGNS:
        raise ValueError("align must be one of %s, got %r" % (", ".join(_ALIGNS), align))
    return align


def _k_tensor(k: Any) -> Any:
    return convert_to_tensor(_as_value(k), dtypes.int32, name="k")


def matrix_diag(diagonal: Any, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1,
                padding_value: Any = 0, align: str = "RIGHT_LEFT",
                name: str | None = None) -> Any:
    """MatrixDiagV3: matrices with ``diagonal`` on diagonal ``k`` (or the band ``k``)."""
    d = convert_to_tensor(_as_value(diagonal), name="diagonal")
    return apply_op("MatrixDiagV3", [
        d, _k_tensor(k), convert_to_tensor(_as_value(num_rows), dtypes.int32, name="num_rows"),
        convert_to_tensor(_as_value(num_cols), dtypes.int32, name="num_cols"),
        convert_to_tensor(_as_value(padding_value), d.dtype.base_dtype, name="padding_value")],
        {"align": _check_align(align)}, name=name)


def matrix_diag_part(input: Any, k: Any = 0, padding_value: Any = 0,  # noqa: A002
                     align: str = "RIGHT_LEFT", name: str | None = None) -> Any:
    """MatrixDiagPartV3: diagonal ``k`` (or the band ``k``) of each matrix."""
    x = convert_to_tensor(_as_value(input), name="input")
    return apply_op("MatrixDiagPartV3", [
        x, _k_tensor(k),
        convert_to_tensor(_as_value(padding_value), x.dtype.base_dtype, name="padding_value")],
        {"align": _check_align(align)}, name=name)


def matrix_set_diag(input: Any, diagonal: Any, k: Any = 0,  # noqa: A002
                    align: str = "RIGHT_LEFT", name: str | None = None) -> Any:
    """MatrixSetDiagV3: ``input`` with diagonal ``k`` (or the band ``k``) replaced."""
    x = convert_to_tensor(_as_value(input), name="input")
    d = convert_to_tensor(_as_value(diagonal), x.dtype.base_dtype, name="diagonal")
    return apply_op("MatrixSetDiagV3", [x, d, _k_tensor(k)], {"align": _check_align(align)},
                    name=name)
