"""``tf.dtypes.saturate_cast``: a cast that clamps to the destination's range first, as
TensorFlow's (a ClipByValue then a Cast; no op of its own)."""
from __future__ import annotations

import logging

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework import dispatch
from flowgrad.ops.arithmetic_ops import clip_by_value
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.complex_ops import complex as complex_
from flowgrad.ops.complex_ops import imag, real

_LOG = logging.getLogger("flowgrad")


def _limits(in_dtype: dtypes.DType, out_dtype: dtypes.DType) -> tuple:
    """The clamp bounds in ``in_dtype``, nudged inside the output's range where the nearest
    value of ``in_dtype`` lies outside it (float32 to int32), as TensorFlow's."""
    np_dtype = in_dtype.np.type
    try:
        promoted_type = np.promote_types(np_dtype, out_dtype.np)
    except TypeError:
        promoted_type = float
    with np.errstate(over="ignore"):             # float32 of int64's min: rounds, fine
        lo = np_dtype(np.maximum(in_dtype.min, out_dtype.min))
    if np.array([lo, out_dtype.min], dtype=promoted_type)[0] < out_dtype.min:
        lo = np.nextafter(lo, np_dtype(0), dtype=np_dtype)
    hi = np_dtype(np.minimum(float(in_dtype.max), float(out_dtype.max)))
    pair = np.array([hi, out_dtype.max], dtype=promoted_type)
    if pair[0] > pair[1]:
        hi = np.nextafter(hi, np_dtype(0), dtype=np_dtype)
    return lo, hi


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def saturate_cast(value: TensorLike, dtype: DTypeLike, name: str | None = None) -> TensorBase:
    """Casts ``value`` to ``dtype``, clamping first to the values ``dtype`` can hold.

    Complex to complex clamps the real and imaginary parts separately; complex to real keeps
    the real part (with a warning).

    Example:

        >>> print(tf.dtypes.saturate_cast(tf.constant([-3.0, 300.0]), tf.uint8).numpy())
        [  0 255]

    Args:
        value: A tensor.
        dtype: The destination type.
        name: A name for the operation (optional).

    Returns:
        ``value`` clamped and cast to ``dtype``.
    """
    with name_scope(name, "saturate_cast", [value]) as scope:
        value = convert_to_tensor(_as_value(value), name="value")
        dtype = dtypes.as_dtype(dtype).base_dtype
        in_dtype = value.dtype.base_dtype
        if in_dtype.is_complex:
            real_in, real_out = in_dtype.real_dtype, dtype.real_dtype
            if dtype.is_complex:
                if real_in.min < real_out.min or real_in.max > real_out.max:
                    lo = convert_to_tensor(real_out.min, real_in)
                    hi = convert_to_tensor(real_out.max, real_in)
                    value = complex_(clip_by_value(real(value), lo, hi),
                                     clip_by_value(imag(value), lo, hi), name="clamp")
                return cast(value, dtype, name=scope)
            value = real(value)
            _LOG.warning("Casting complex to real discards imaginary part.")
            in_dtype = real_in
        lo, hi = _limits(in_dtype, dtype.real_dtype)
        value = clip_by_value(value, convert_to_tensor(lo, in_dtype),
                              convert_to_tensor(hi, in_dtype), name="clamp")
        return cast(value, dtype, name=scope)
