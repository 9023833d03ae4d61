"""Casts: ``cast`` (the Cast op, whose gradient casts back between differentiable dtypes)
and TensorFlow 1's ``to_float``, ``to_double``, ``to_int32`` and ``to_int64``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors, hooks
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework import dispatch
from flowgrad.ops.array_op_util import _as_value


def _cast_kernel(x: Any, *, DstT: Any) -> Any:
    if (x.dtype.kind == "O") != (DstT is dtypes.string) or (
            DstT.name.startswith("float8") and x.dtype.kind in "biu"):
        # TensorFlow casts to the float8 types from floating types only
        raise errors.UnimplementedError(None, None, "Cast %s to %s is not supported" % (
            errors.dtype_text(dtypes.from_numpy(x.dtype)), errors.dtype_text(DstT)))
    if x.dtype.kind == "c" and not DstT.is_complex:     # the real part, silently (TF's)
        x = np.real(x)
    return x.astype(DstT.np)


@defop("Cast", _cast_kernel,
       lambda ins, attrs: (attrs["DstT"], ins[0].shape), may_fail=False, input_names=("x",),
       batching="elementwise")
def _cast_grad(op: Any, grad: Any) -> Any:
    src = op.inputs[0].dtype.base_dtype
    if dtypes.is_differentiable(src) and dtypes.is_differentiable(op.outputs[0].dtype):
        return cast(grad, src)
    return None


def _cast_jvp(op: Any, t: Any) -> Any:
    y = op.outputs[0]
    if t is None or y.dtype.base_dtype.np.kind not in "fc":
        return None
    return cast(t, y.dtype.base_dtype)


register_jvp("Cast", _cast_jvp)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def cast(x: TensorLike, dtype: DTypeLike, name: str | None = None) -> TensorBase:
    """Casts a tensor to a new type, as ``tf.cast``.

    Floats cast to integers truncate toward zero; complex to real keeps the real part.

    Example:

        >>> print(tf.cast(tf.constant([1.8, -2.2]), tf.int32).numpy())  # towards zero
        [ 1 -2]

    Args:
        x: A tensor (or tensor-like value, a SparseTensor or an IndexedSlices) to cast.
        dtype: The destination type.
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s shape with type ``dtype``.

    Raises:
        UnimplementedError: a cast to or from ``tf.string``, or from an integer or bool to a
            float8 type, which TensorFlow has no kernel for either.
    """
    dt = dtypes.as_dtype(dtype).base_dtype
    if type(x).__name__ == "SparseTensor":          # the values cast, as TensorFlow's
        return x.with_values(cast(x.values, dt, name=name))
    if isinstance(x, IndexedSlices):                # so are an IndexedSlices' (TF's)
        return IndexedSlices(cast(x.values, dt, name=name), x.indices, x.dense_shape)
    x = convert_to_tensor(_as_value(x))
    if x.dtype.base_dtype is dt:
        return x
    return apply_op("Cast", (x,), {"DstT": dt}, name=name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_float(x: TensorLike, name: str = "ToFloat") -> Any:
    """TF1: ``cast(x, float32)``.

    Args:
        x: A tensor.
        name: A name for the operation (optional).
    """
    return cast(x, dtypes.float32, name=name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_double(x: TensorLike, name: str = "ToDouble") -> Any:
    """TF1: ``cast(x, float64)``.

    Args:
        x: A tensor.
        name: A name for the operation (optional).
    """
    return cast(x, dtypes.float64, name=name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_int32(x: TensorLike, name: str = "ToInt32") -> Any:
    """TF1: ``cast(x, int32)``.

    Args:
        x: A tensor.
        name: A name for the operation (optional).
    """
    return cast(x, dtypes.int32, name=name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_int64(x: TensorLike, name: str = "ToInt64") -> Any:
    """TF1: ``cast(x, int64)``.

    Args:
        x: A tensor.
        name: A name for the operation (optional).
    """
    return cast(x, dtypes.int64, name=name)


hooks.register(cast=cast)     # for the framework and the array families below
