"""TensorFlow's ragged dispatch: ``tf.math``'s element-wise ops, ``tf.cast``, ``tf.where``,
``tf.ones_like``, ``tf.nn.relu`` & co. applied to RaggedTensors work on their flat values
(the row partitions are kept), ``tf.reduce_*`` reduce along ragged axes, and ``tf.concat``
joins ragged rows. Each public op function listed here is replaced, in its module, by a
wrapper that hands ragged arguments to flowgrad/ops/ragged_ops.py and calls the op otherwise
(TensorFlow's ``dispatch.add_dispatch_support`` does the same with a decorator). Importing
this module installs the wrappers; ``flowgrad.ops`` imports it after every op module, before
the faces bind their names."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flowgrad.framework import hooks
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.ops import (arithmetic_ops, cast_ops, comparison_ops, complex_ops, concat_ops,
                          elementwise_ops, fill_ops, nn_ops, reduction_ops, safe_division_ops,
                          special_math_ops, string_ops, sum_ops, trig_ops)
from flowgrad.ops import array_ops, math_ops, ragged_ops
from flowgrad.ops.ragged_tensor import RaggedTensor

_UNARY = {
    elementwise_ops: "abs ceil cos exp expm1 floor is_finite is_inf is_nan log log1p "
                     "reciprocal rint round rsqrt sigmoid sign sin sqrt square tan tanh",
    trig_ops: "acos acosh asin asinh atan atanh cosh sinh",
    complex_ops: "conj imag real",
    special_math_ops: "digamma erf erfc lgamma",
    nn_ops: "log_sigmoid softplus relu relu6 elu selu leaky_relu softsign",
    comparison_ops: "logical_not",
    arithmetic_ops: "negative",
    cast_ops: "cast",
    fill_ops: "ones_like zeros_like",
    string_ops: "as_string",
}
_BINARY = {
    elementwise_ops: "pow",
    trig_ops: "atan2",
    comparison_ops: "equal greater greater_equal less less_equal logical_and logical_or "
                    "logical_xor not_equal",
    arithmetic_ops: "add div_no_nan divide floordiv floormod maximum minimum multiply "
                    "squared_difference subtract truediv",
    safe_division_ops: "xdivy xlogy",
}
_REDUCTIONS = {
    sum_ops: {"reduce_sum": "sum"},
    reduction_ops: {"reduce_mean": "mean", "reduce_max": "max", "reduce_min": "min",
                    "reduce_prod": "prod", "reduce_any": "any", "reduce_all": "all",
                    "reduce_std": "std", "reduce_variance": "variance"},
}


def _flat_operand(x: Any, like: RaggedTensor) -> Any:
    """``x`` aligned with ``like``'s flat values: a RaggedTensor's flat values, a scalar or a
    tensor of the inner dimensions as it is, a dense ``[nrows, 1, ...]`` row-wise."""
    if isinstance(x, RaggedTensor):
        return x.flat_values
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        return x
    t = convert_to_tensor(x) if not isinstance(x, TensorBase) else x
    rank = t.shape.rank
    flat_rank = like.flat_values.shape.rank
    if rank is None or rank <= flat_rank - 1:
        return t
    if like.ragged_rank == 1 and rank == like.shape.rank and t.shape.as_list()[1] == 1:
        from flowgrad.ops.indexing_ops import gather_v2
        from flowgrad.ops.shape_ops import squeeze
        return gather_v2(squeeze(t, [1]), ragged_ops.value_rowids(like))
    raise ValueError("A dense tensor of shape %s does not broadcast against a RaggedTensor "
                     "of shape %s" % (t.shape, like.shape))


def _elementwise(fn: Callable, positions: int) -> Callable:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        head = args[:positions]
        if not any(type(a) is RaggedTensor for a in head) and not any(
                type(v) is RaggedTensor for v in kwargs.values()):
            return fn(*args, **kwargs)
        like = next(a for a in list(head) + list(kwargs.values()) if type(a) is RaggedTensor)
        flat_args = [_flat_operand(a, like) if i < positions else a
                     for i, a in enumerate(args)]
        flat_kwargs = {k: _flat_operand(v, like) if type(v) is RaggedTensor else v
                       for k, v in kwargs.items()}
        return like.with_flat_values(fn(*flat_args, **flat_kwargs))
    wrapper.__wrapped_op__ = fn
    return wrapper


def _reduction(fn: Callable, kind: str) -> Callable:
    @functools.wraps(fn)
    def wrapper(input_tensor: Any = None, axis: Any = None, keepdims: Any = False,
                *args: Any, **kwargs: Any) -> Any:
        if type(input_tensor) is RaggedTensor:
            return ragged_ops.reduce(kind, input_tensor, axis, bool(keepdims))
        return fn(input_tensor, axis, keepdims, *args, **kwargs)
    wrapper.__wrapped_op__ = fn
    return wrapper


def _where(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
        if type(condition) is RaggedTensor and x is not None:
            return condition.with_flat_values(fn(condition.flat_values,
                                                 _flat_operand(x, condition),
                                                 _flat_operand(y, condition), name=name))
        return fn(condition, x, y, name=name)
    wrapper.__wrapped_op__ = fn
    comparison_ops.DISPATCH_FRAMES.add(wrapper.__code__)
    return wrapper


def _clip(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Any:
        if type(t) is RaggedTensor:
            return t.with_flat_values(fn(t.flat_values, clip_value_min, clip_value_max,
                                         name=name))
        return fn(t, clip_value_min, clip_value_max, name=name)
    wrapper.__wrapped_op__ = fn
    return wrapper


def _concat(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(values: Any, axis: Any, name: str = "concat") -> Any:
        if isinstance(values, (list, tuple)) and any(type(v) is RaggedTensor for v in values):
            rank = next(v for v in values if type(v) is RaggedTensor).shape.rank
            ax = int(axis) + rank if int(axis) < 0 else int(axis)
            if ax == 0:
                return ragged_ops.concat_rows(list(values))
            if ax == 1:
                return ragged_ops.merge_dims(ragged_ops.stack(list(values), axis=1), 1, 2)
            raise NotImplementedError("flowgrad concatenates RaggedTensors along axis 0 or 1")
        return fn(values, axis, name=name)
    wrapper.__wrapped_op__ = fn
    return wrapper


def _install() -> None:
    wrapped: dict = {}      # one wrapper per function (an op may have several names)

    def wrap(module: Any, name: str, make: Callable) -> None:
        fn = getattr(module, name)
        if id(fn) not in wrapped:
            wrapped[id(fn)] = make(fn)
        # Every name of the op in its module (mod is floormod), in the re-exporting modules
        # (math_ops, array_ops) and among the framework's hooks gets the wrapper.
        for holder in (module, math_ops, array_ops, hooks):
            for alias, value in list(vars(holder).items()):
                if value is fn:
                    setattr(holder, alias, wrapped[id(fn)])

    for module, names in _UNARY.items():
        for name in names.split():
            wrap(module, name, lambda fn: _elementwise(fn, 1))
    for module, names in _BINARY.items():
        for name in names.split():
            wrap(module, name, lambda fn: _elementwise(fn, 2))
    for module, kinds in _REDUCTIONS.items():
        for name, kind in kinds.items():
            wrap(module, name, lambda fn, kind=kind: _reduction(fn, kind))
    wrap(comparison_ops, "where", _where)
    wrap(arithmetic_ops, "clip_by_value", _clip)
    wrap(concat_ops, "concat", _concat)


_install()


def _operator(fn_module: Any, name: str, reflected: bool = False) -> Callable:
    def op(self: RaggedTensor, other: Any) -> Any:
        fn = getattr(fn_module, name)
        return fn(other, self) if reflected else fn(self, other)
    return op


for _dunder, (_module, _name) in {
        "add": (arithmetic_ops, "add"), "sub": (arithmetic_ops, "subtract"),
        "mul": (arithmetic_ops, "multiply"), "truediv": (arithmetic_ops, "truediv"),
        "floordiv": (arithmetic_ops, "floordiv"), "mod": (arithmetic_ops, "floormod"),
        "pow": (elementwise_ops, "pow"), "and": (comparison_ops, "logical_and"),
        "or": (comparison_ops, "logical_or"), "xor": (comparison_ops, "logical_xor")}.items():
    setattr(RaggedTensor, "__%s__" % _dunder, _operator(_module, _name))
    setattr(RaggedTensor, "__r%s__" % _dunder, _operator(_module, _name, reflected=True))
for _dunder, _name in {"lt": "less", "le": "less_equal", "gt": "greater",
                       "ge": "greater_equal"}.items():
    setattr(RaggedTensor, "__%s__" % _dunder, _operator(comparison_ops, _name))
RaggedTensor.__neg__ = lambda self: arithmetic_ops.negative(self)
RaggedTensor.__abs__ = lambda self: elementwise_ops.abs(self)
RaggedTensor.__invert__ = lambda self: comparison_ops.logical_not(self)
