"""Matrix multiplication: MatMul for rank-2 inputs, BatchMatMulV2 (batched, broadcasting
the leading axes) for others, with transposed or adjoint inputs, in the inputs' dtype."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks, threads
from flowgrad.framework.errors import ShapeRuleError, dims_text
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework import dispatch
from flowgrad.ops.array_ops import _as_value, reapply, sum_tangents
from flowgrad.ops.arithmetic_ops import conj_if_complex
from flowgrad.ops.math_helpers import _NUMERIC, _check_kind, _dtype_of, _skipped_inputs
from flowgrad.ops.sum_ops import sum_to


def _matmul_same_dtype(a: Any, b: Any) -> Any:
    """a @ b in a's dtype (NumPy computes bfloat16 products in float32)."""
    threads.check()
    r = np.matmul(a, b)
    return r if r.dtype == a.dtype else r.astype(a.dtype)


def _matmul_kernel(a: Any, b: Any, *, transpose_a: bool = False,
                   transpose_b: bool = False) -> Any:
    if a.ndim != 2 or b.ndim != 2:      # the shape rule words the error
        raise ValueError("MatMul needs two matrices")
    return _transposed_matmul(a, b, transpose_a, transpose_b)


def _transposed_matmul(a: Any, b: Any, transpose_a: bool, transpose_b: bool) -> Any:
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return _matmul_same_dtype(a, b)


def _matmul_specialize(attrs: dict) -> Any:
    if not attrs.get("transpose_a") and not attrs.get("transpose_b"):
        return _matmul_same_dtype
    return lambda a, b: _matmul_kernel(a, b, **attrs)


def _matmul_flags(attrs: dict) -> tuple:
    """(transpose a?, transpose b?) from MatMul's or BatchMatMulV2's attrs."""
    if "adj_x" in attrs:
        return attrs["adj_x"], attrs["adj_y"]
    return attrs.get("transpose_a", False), attrs.get("transpose_b", False)


def _rank_error(a: TensorShape, b: TensorShape, attrs: dict) -> None:
    """TensorFlow's errors for inputs that are not matrices: MatMul takes two of rank 2,
    BatchMatMulV2 two of rank 2 or more."""
    texts = [dims_text(x.as_tuple()) if x.rank is not None else "?" for x in (a, b)]
    if "adj_x" not in attrs:
        bad = [x.rank for x in (a, b) if x.rank is not None and x.rank != 2]
        if bad:
            raise ShapeRuleError(
                "Shape must be rank 2 but is rank %d for 'MatMul' with input shapes: %s, %s."
                % (bad[0], texts[0], texts[1]),
                "In[0] and In[1] has different ndims: %s vs. %s" % tuple(texts)
                if a.rank != b.rank else "In[0] and In[1] ndims must be == 2: %d" % bad[0])
        return
    for i, x in enumerate((a, b)):
        if x.rank is not None and x.rank < 2:
            raise ShapeRuleError(
                "Shape must be at least rank 2 but is rank %d for 'BatchMatMulV2' with input "
                "shapes: %s, %s." % (x.rank, texts[0], texts[1]),
                "In[%d] ndims must be >= 2: %d" % (i, x.rank))


def _matmul_infer(ins: list, attrs: dict) -> tuple:
    a, b = ins[0].shape, ins[1].shape
    _rank_error(a, b, attrs)
    if a.rank is None or b.rank is None:
        return ins[0].dtype.base_dtype, TensorShape(None)
    ad, bd = list(a.as_tuple()), list(b.as_tuple())
    ta, tb = _matmul_flags(attrs)
    if ta:
        ad[-1], ad[-2] = ad[-2], ad[-1]
    if tb:
        bd[-1], bd[-2] = bd[-2], bd[-1]
    if ad[-1] is not None and bd[-2] is not None and ad[-1] != bd[-2]:
        raise ShapeRuleError("Dimensions must be equal, but are %d and %d for MatMul with input "
                             "shapes %s and %s." % (ad[-1], bd[-2], a, b),
                             "Matrix size-incompatible: In[0]: %s, In[1]: %s"
                             % (dims_text(a.as_tuple()), dims_text(b.as_tuple())))
    try:
        batch = broadcast_shapes(TensorShape(ad[:-2]), TensorShape(bd[:-2]))
    except ShapeRuleError as e:
        raise ShapeRuleError(str(e), "In[0] and In[1] must have compatible batch dimensions: "
                             "%s vs. %s" % (dims_text(a.as_tuple()), dims_text(b.as_tuple()))
                             ) from None
    return ins[0].dtype.base_dtype, batch.concatenate([ad[-2], bd[-1]])


def _batch_matmul_kernel(a: Any, b: Any, *, adj_x: bool = False, adj_y: bool = False) -> Any:
    # adj_x / adj_y conjugate complex inputs as well as transposing them (TensorFlow's)
    if adj_x and np.iscomplexobj(a):
        a = np.conj(a)
    if adj_y and np.iscomplexobj(b):
        b = np.conj(b)
    if a.ndim < 2 or b.ndim < 2:        # the shape rule words the error
        raise ValueError("BatchMatMulV2 needs matrices")
    return _transposed_matmul(a, b, adj_x, adj_y)


def _batch_matmul_specialize(attrs: dict) -> Any:
    if not attrs["adj_x"] and not attrs["adj_y"]:
        return _matmul_same_dtype
    return lambda a, b: _batch_matmul_kernel(a, b, **attrs)


def _matmul_input_grads(op: Any, grad: Any, ta: bool, tb: bool, adjoint: bool = False) -> tuple:
    """The gradients of matmul(a, b, ta, tb) for a and b, before undoing batch broadcasting.

    ``ta`` and ``tb`` are MatMul's transposes of the conjugated inputs (TensorFlow's
    gradient of a complex product) or, with ``adjoint``, BatchMatMulV2's adjoints. Inputs the
    caller does not need (an eager tape's ``skip_input_indices``) get None."""
    a, b = op.inputs
    if adjoint:
        def mm(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Any:
            return matmul(x, y, adjoint_a=transpose_a, adjoint_b=transpose_b)
    else:
        a, b, mm = conj_if_complex(a), conj_if_complex(b), matmul
    skip = _skipped_inputs(op)
    if not ta and not tb:
        fa, fb = (lambda: mm(grad, b, transpose_b=True),
                  lambda: mm(a, grad, transpose_a=True))
    elif not ta:
        fa, fb = lambda: mm(grad, b), lambda: mm(grad, a, transpose_a=True)
    elif not tb:
        fa, fb = lambda: mm(b, grad, transpose_b=True), lambda: mm(a, grad)
    else:
        fa, fb = (lambda: mm(b, grad, transpose_a=True, transpose_b=True),
                  lambda: mm(grad, a, transpose_a=True, transpose_b=True))
    return None if 0 in skip else fa(), None if 1 in skip else fb()


def _matmul_cost(op: Any) -> int:
    """The product of MatMul's known output and contraction sizes (unknown ones count as
    1), 0 when fewer than two are known: how much work the plan may hand to its worker."""
    a, b = (t.shape.as_tuple() for t in op._inputs[:2])
    if not a or not b or len(a) < 2 or len(b) < 2:
        return 0
    ta = op._attrs.get("transpose_a", op._attrs.get("adj_x", False))
    tb = op._attrs.get("transpose_b", op._attrs.get("adj_y", False))
    m, k = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    n = b[-2] if tb else b[-1]
    dims = [d for d in (m, k, n) if d is not None]
    return int(np.prod(dims)) if len(dims) >= 2 else 0


def _matmul_contracted_axes(op: Any) -> tuple | None:
    """For a MatMul of two rank-2 inputs of one dtype: the axes of ``a`` and ``b`` that must
    be equal, the only way left for its kernel to fail."""
    a, b = op.inputs
    if a.shape.rank != 2 or b.shape.rank != 2 or a.dtype.base_dtype != b.dtype.base_dtype:
        return None
    return (0 if op._attrs.get("transpose_a") else 1), (1 if op._attrs.get("transpose_b") else 0)


@defop("MatMul", _matmul_kernel, _matmul_infer, specialize=_matmul_specialize,
       same_dtype=True, input_names=("a", "b"), fresh_output=True, cost=_matmul_cost,
       contracted_axes=_matmul_contracted_axes)
def _matmul_grad(op: Any, grad: Any) -> Any:
    return _matmul_input_grads(op, grad, op.get_attr("transpose_a"), op.get_attr("transpose_b"))


def _matmul_jvp(op: Any, ta: Any, tb: Any) -> Any:
    """Bilinear in its two inputs (MatMul and BatchMatMulV2)."""
    a, b = op.inputs[:2]
    parts = [None if ta is None else reapply(op, [ta, b]),
             None if tb is None else reapply(op, [a, tb])]
    return sum_tangents(op.outputs[0], parts)


register_jvp("MatMul", _matmul_jvp)


@defop("BatchMatMulV2", _batch_matmul_kernel, _matmul_infer,
       specialize=_batch_matmul_specialize, same_dtype=True, input_names=("x", "y"),
       fresh_output=True, cost=_matmul_cost)
def _batch_matmul_grad(op: Any, grad: Any) -> Any:
    ga, gb = _matmul_input_grads(op, grad, op.get_attr("adj_x"), op.get_attr("adj_y"),
                                 adjoint=True)
    a, b = op.inputs
    return (None if ga is None else sum_to(ga, a)), (None if gb is None else sum_to(gb, b))


register_jvp("BatchMatMulV2", _matmul_jvp)


@dispatch.add_dispatch_support
def matmul(a: TensorLike, b: TensorLike, transpose_a: bool = False, transpose_b: bool = False,
           adjoint_a: bool = False, adjoint_b: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, output_type: DTypeLike | None = None,
           name: str | None = None) -> TensorBase:
    """Multiplies matrix ``a`` by matrix ``b``, as ``tf.linalg.matmul``.

    The product is over the last two axes, batched (with broadcasting) over the leading
    axes. Rank-2 inputs make a MatMul op, others a BatchMatMulV2 op, as in TensorFlow. An
    ``output_type`` other than the inputs' dtype (TensorFlow's int8 inputs with an int32
    product) multiplies the inputs cast to it.

    Example:

        >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> print(tf.matmul(a, tf.constant([[1.0], [1.0]])).numpy())
        [[3.]
         [7.]]
        >>> print(tf.matmul(a, a, transpose_b=True).numpy())
        [[ 5. 11.]
         [11. 25.]]

    Args:
        a: A tensor of rank 2 or more.
        b: A tensor of ``a``'s dtype and rank 2 or more.
        transpose_a: If true, ``a`` is transposed before the product.
        transpose_b: If true, ``b`` is transposed before the product.
        adjoint_a: If true, ``a`` is conjugated and transposed before the product.
        adjoint_b: If true, ``b`` is conjugated and transposed before the product.
        a_is_sparse: Accepted for TensorFlow's signature (a hint only).
        b_is_sparse: Accepted for TensorFlow's signature (a hint only).
        output_type: The dtype of the product; the inputs' dtype if None.
        name: A name for the operation.

    Returns:
        A tensor with the product: shape ``[..., M, N]``.

    Raises:
        ValueError: both ``transpose_a`` and ``adjoint_a`` (or ``_b``) are true.
        InvalidArgumentError: the inner dimensions do not match.
    """
    if output_type is not None:
        out_dt = dtypes.as_dtype(output_type)
        a, b = (x if is_tensor(x) and x.dtype.base_dtype is out_dt else
                hooks.cast(convert_to_tensor(x), out_dt) for x in (a, b))
    if transpose_a and adjoint_a:
        raise ValueError("Only one of transpose_a and adjoint_a can be True.")
    if transpose_b and adjoint_b:
        raise ValueError("Only one of transpose_b and adjoint_b can be True.")
    a, b = _as_value(a), _as_value(b)
    if type(a) is EagerTensor and type(b) is EagerTensor:
        dt, ranks = a._dtype, [a._value.ndim, b._value.ndim]
    else:
        dt = _dtype_of(b) if is_tensor(b) and not is_tensor(a) else _dtype_of(a)
        ranks = [x.shape.rank if is_tensor(x) else np.ndim(x) for x in (a, b)]
    if dt.kind not in _NUMERIC:       # bool and string: TensorFlow has no MatMul for them
        _check_kind("MatMul", "a", dt, _NUMERIC)
    if None not in ranks and max(ranks) <= 2:   # MatMul (vectors fail in it, as in TF);
        # its transposes: an adjoint conjugates first (TensorFlow's)
        if dt.is_complex:
            a = apply_op("Conj", (convert_to_tensor(a, dt),)) if adjoint_a else a
            b = apply_op("Conj", (convert_to_tensor(b, dt),)) if adjoint_b else b
        ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
        return apply_op("MatMul", (a, b), {"transpose_a": ta, "transpose_b": tb}, name=name,
                        dtype=dt)
    if dt.is_complex:         # BatchMatMulV2's adjoints: a transpose conjugates first
        a = apply_op("Conj", (convert_to_tensor(a, dt),)) if transpose_a else a
        b = apply_op("Conj", (convert_to_tensor(b, dt),)) if transpose_b else b
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    return apply_op("BatchMatMulV2", (a, b), {"adj_x": ta, "adj_y": tb}, name=name or "MatMul",
                    dtype=dt)
