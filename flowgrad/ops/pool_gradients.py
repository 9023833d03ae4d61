"""What the 2-D and 3-D pooling ops share: the shape rule of a gradient op shaped like one of
its inputs, the pooling attributes a gradient op is created with, and the gradients of the
max-pool triangle (MaxPool -> MaxPoolGrad -> MaxPoolGradGrad -> MaxPoolGrad, and the 3-D
one)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.op_call import apply_op
from flowgrad.ops.array_ops import zeros_like


def _like_input(i: int) -> Any:
    """The shape rule of an op whose output has input ``i``'s dtype and shape."""
    def infer(ins: list, attrs: dict) -> tuple:
        return ins[i].dtype.base_dtype, ins[i].shape
    return infer


def _pool_attrs(op: Any) -> dict:
    """The pooling attributes of ``op``, for the gradient ops it creates."""
    return {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}


def max_pool_gradients(op_type: str) -> tuple:
    """The gradients of a max-pool op ``op_type`` (MaxPool, MaxPool3D), of its ``...Grad``
    and of its ``...GradGrad``: each routes the incoming gradient through the argmax of the
    original window, so the triangle differentiates to any order."""
    grad_t, grad_grad_t = op_type + "Grad", op_type + "GradGrad"

    def pool_grad(op: Any, grad: Any) -> Any:
        return apply_op(grad_t, (op.inputs[0], op.outputs[0], grad), _pool_attrs(op))

    def grad_grad(op: Any, grad: Any) -> Any:
        x, y, _ = op.inputs
        return zeros_like(x), zeros_like(y), apply_op(grad_grad_t, (x, y, grad),
                                                       _pool_attrs(op))

    def grad_grad_grad(op: Any, grad: Any) -> Any:
        x, y, _ = op.inputs
        return zeros_like(x), zeros_like(y), apply_op(grad_t, (x, y, grad), _pool_attrs(op))
    return pool_grad, grad_grad, grad_grad_grad
