"""TensorFlow's sparse dispatch (the end of ``tensorflow/python/ops/sparse_ops.py``): the unary
ops TensorFlow lists (``tf.abs``, ``tf.math.negative``, ``tf.sin``, ``tf.sign``,
``tf.square``, ``tf.sqrt``, ``tf.math.erf``, ``tf.tanh``, ...) applied to a SparseTensor map
its values and keep its indices and dense shape. Registered as TensorFlow does, through the
fallback dispatchers of flowgrad/framework/dispatch.py (asked when the op rejects its input),
so the dense path pays nothing."""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from flowgrad.framework import dispatch
from flowgrad.ops import arithmetic_ops, bessel_ops, elementwise_ops, special_math_ops, trig_ops
from flowgrad.ops.sparse_tensor import SparseTensor

dispatch.register_dispatchable_type(SparseTensor)


class _UnaryMapValueDispatcher(dispatch.OpDispatcher):
    """Maps a unary op over a SparseTensor's values."""

    def __init__(self, original_func: Callable) -> None:
        self._original_func = original_func
        self._x = next(iter(inspect.signature(original_func).parameters))

    def handle(self, args: tuple, kwargs: dict) -> Any:
        if args:
            x, args = args[0], args[1:]
        else:
            kwargs = dict(kwargs)
            x = kwargs.pop(self._x, None)
        if not isinstance(x, SparseTensor):
            return self.NOT_SUPPORTED
        return SparseTensor(x.indices, self._original_func(x.values, *args, **kwargs),
                            x.dense_shape)


for _op in (elementwise_ops.abs, arithmetic_ops.negative, trig_ops.asinh, elementwise_ops.sin,
            elementwise_ops.tan, trig_ops.atan, trig_ops.asin, trig_ops.atanh,
            elementwise_ops.sign, elementwise_ops.square, elementwise_ops.sqrt,
            special_math_ops.erf, elementwise_ops.tanh, bessel_ops.bessel_i0e,
            bessel_ops.bessel_i1e):
    _UnaryMapValueDispatcher(_op).register(_op)
