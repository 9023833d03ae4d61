"""Neural-network ops: activations, softmax, losses, bias_add, dropout."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import unary
from flowgrad.ops.array_ops import _as_value
from flowgrad.ops.math_ops import multiply, reduce_sum, subtract


def _softmax_kernel(x: Any) -> Any:
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    e /= np.sum(e, axis=-1, keepdims=True)
    return e


@defop("Softmax", _softmax_kernel, unary, input_names=("logits",))
def _softmax_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return multiply(subtract(grad, reduce_sum(multiply(grad, y), -1, keepdims=True)), y)


def softmax(logits: Any, axis: int | None = None, name: str | None = None, dim: Any = None) -> Any:
    """exp(logits) / sum(exp(logits)) along the last axis."""
    return apply_op("Softmax", [_as_value(logits)], name=name)


__all__ = ["softmax"]
