"""The gradients of the convolution triangle, written once for the 2-D and the 3-D ops.

A convolution ``y = conv(x, f)`` is linear in each input, and so are its two backprop ops
(``dx = backprop_input(sizes(x), f, dy)``, ``df = backprop_filter(x, sizes(f), dy)``); the
gradient of each of the three is made of the other two and the convolution itself, with the
same attributes, so the triangle differentiates to any order. The max-pool triangle is in
flowgrad/ops/pool_gradients.py.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework.graph import Operation
from flowgrad.framework.op_call import apply_op
from flowgrad.ops.conv_nd import _sizes


def conv_gradients(conv_t: str, input_t: str, filter_t: str,
                   attrs: Callable[[Operation], dict]) -> tuple:
    """The gradients of a convolution op, of its input backprop and of its filter backprop.

    Args:
        conv_t: The convolution's op type (``Conv2D``, ``Conv3D``).
        input_t: Its input backprop's op type (``Conv2DBackpropInput``, ...).
        filter_t: Its filter backprop's op type (``Conv2DBackpropFilter``, ...).
        attrs: ``attrs(op)``: the attributes of ``op`` the ops of the triangle are created
          with (strides, padding, data format, dilations, ...).

    Returns:
        ``(conv_grad, input_grad, filter_grad)``, gradient functions ``(op, grad)`` for
        ``conv_t``, ``input_t`` and ``filter_t``.
    """
    def conv_grad(op: Operation, grad: Any) -> tuple:
        x, f = op.inputs
        a = attrs(op)
        return (apply_op(input_t, (_sizes(x), f, grad), a),
                apply_op(filter_t, (x, _sizes(f), grad), a))

    def input_grad(op: Operation, grad: Any) -> tuple:
        _, f, dy = op.inputs
        a = attrs(op)
        return None, apply_op(filter_t, (grad, _sizes(f), dy), a), apply_op(conv_t, (grad, f), a)

    def filter_grad(op: Operation, grad: Any) -> tuple:
        x, _, dy = op.inputs
        a = attrs(op)
        return apply_op(input_t, (_sizes(x), grad, dy), a), None, apply_op(conv_t, (x, grad), a)
    return conv_grad, input_grad, filter_grad
