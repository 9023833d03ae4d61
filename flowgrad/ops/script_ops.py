"""Python functions as ops: ``py_func`` / ``numpy_function`` (PyFunc, PyFuncStateless).

Not differentiable, as in TensorFlow: give them a gradient with
``RegisterGradient`` + ``gradient_override_map({"PyFunc": ..., "PyFuncStateless": ...})``."""
from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.nest import flatten
from flowgrad.ops.array_ops import _as_value
from flowgrad.framework.type_hints import DTypeLike

_tokens = itertools.count()
_TF_NAMES = {"float32": "float", "float64": "double", "string": "string"}


def _tf_name(dtype: dtypes.DType) -> str:
    return _TF_NAMES.get(dtype.name, dtype.name)


def _argument(value: Any) -> Any:
    """An input as the function sees it: a private array copy, a NumPy scalar for rank 0."""
    if type(value) is np.ndarray:
        return value[()] if value.ndim == 0 else value.copy()
    return value


def _convert(value: Any) -> np.ndarray:
    """A returned value as an array (str/bytes become object arrays of bytes, as in TF)."""
    result = np.array(value, order="C")
    if result.dtype.kind == "S":
        return np.array(value, order="C", dtype=object)
    if result.dtype.kind == "U":
        return np.vectorize(lambda x: x.encode(), otypes=[object])(result)
    return result


def _returned_dtype(i: int, value: np.ndarray, token: str) -> dtypes.DType:
    if value.dtype == object:
        bad = next((x for x in value.flat if not isinstance(x, bytes)), None)
        if bad is not None:
            raise TypeError("%d-th value returned by %s has unsupported object type %s"
                            % (i, token, type(bad).__name__))
        return dtypes.string
    try:
        return dtypes.from_numpy(value.dtype)
    except TypeError:
        raise TypeError("%d-th value returned by %s has unsupported dtype %s"
                        % (i, token, value.dtype)) from None


def _py_func_kernel(*args: Any, func: Callable, Tout: tuple, token: str) -> Any:
    ret = func(*[_argument(a) for a in args])
    if isinstance(ret, bytes):
        ret = [ret]
    if isinstance(ret, (list, tuple)):
        outs = [_convert(x) for x in ret]
    else:
        out = _convert(ret)
        outs = [] if out.ndim == 0 and out.dtype == object and out[()] is None else [out]
    if len(outs) != len(Tout):
        raise ValueError("%s returns %d values, but expects to see %d values."
                         % (token, len(outs), len(Tout)))
    for i, (v, dt) in enumerate(zip(outs, Tout)):
        got = _returned_dtype(i, v, token)
        if got is not dt:
            raise ValueError("%d-th value returned by %s is %s, but expects %s"
                             % (i, token, _tf_name(got), _tf_name(dt)))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _py_func_infer(ins: list, attrs: dict) -> list:
    return [(dt, TensorShape(None)) for dt in attrs["Tout"]]


_PY_FUNC = dict(grad=_NO_GRADIENT, num_outputs=lambda attrs: len(attrs["Tout"]),
                input_names=("input",))
register_op("PyFunc", _py_func_kernel, _py_func_infer, stateful=True, **_PY_FUNC)
register_op("PyFuncStateless", _py_func_kernel, _py_func_infer, foldable=False, **_PY_FUNC)


def py_func(func: Callable, inp: list, Tout: DTypeLike, stateful: bool = True,
            name: str | None = None) -> Any:
    """Runs ``func`` on the NumPy values of ``inp`` as an op (PyFunc / PyFuncStateless).

    ``Tout`` a list of dtypes gives a list of tensors (of unknown shape), a single
    dtype one tensor; ``func`` must return values of exactly those dtypes. In eager
    mode ``func`` runs at once and its results are converted to tensors.

    Args:
        func: A Python function taking and returning NumPy arrays.
        inp: The tensors passed to ``func``.
        Tout: The dtype (or list of dtypes) of ``func``'s results.
        stateful: Whether the function has side effects (such ops are never pruned or deduplicated).
        name: A name for the operation (optional).
    """
    if not callable(func):
        raise ValueError("Expected func to be callable. Received func=%r of type %s."
                         % (func, type(func)))
    if executing_eagerly():
        result = [x if x is None else convert_to_tensor(x)
                  for x in flatten(func(*[np.array(x) for x in inp]))]
        return result[0] if len(result) == 1 else result
    is_list = isinstance(Tout, (list, tuple))
    tout = tuple(dtypes.as_dtype(t).base_dtype for t in (Tout if is_list else [Tout]))
    attrs = {"func": func, "Tout": tout, "token": "pyfunc_%d" % next(_tokens)}
    out = apply_op("PyFunc" if stateful else "PyFuncStateless",
                   [convert_to_tensor(_as_value(x)) for x in inp], attrs, name=name)
    if not tout:
        return out
    outs = [out] if len(tout) == 1 else out
    return outs if is_list else outs[0]


def numpy_function(func: Callable | None = None, inp: list | None = None,
                   Tout: DTypeLike | None = None, stateful: bool = True,
                   name: str | None = None) -> Any:
    """Runs ``func`` on the NumPy values of ``inp`` as an op (same semantics as py_func).

    Without ``func`` (``@tf.numpy_function(Tout=...)``) it is a decorator: the decorated
    function, called with tensors, runs as this op on them.

    Args:
        func: A Python function taking and returning NumPy arrays.
        inp: The tensors passed to ``func``.
        Tout: The dtype (or list of dtypes) of ``func``'s results.
        stateful: Whether the function has side effects (such ops are never pruned or deduplicated).
        name: A name for the operation (optional).
    """
    if func is None:
        return _decorator(numpy_function, "tf.numpy_function", inp, Tout, stateful=stateful,
                          name=name)
    return py_func(func, inp, Tout, stateful=stateful, name=name)


def _decorator(fn: Callable, what: str, inp: Any, Tout: Any, **kw: Any) -> Callable:  # noqa: N803
    if inp is not None or Tout is None:
        raise TypeError("%s used as a decorator takes Tout (and no inp): "
                        "@%s(Tout=...)" % (what, what))

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args: Any) -> Any:
            return fn(f, list(args), Tout, **kw)
        return wrapper
    return decorate


def _eagerly(func: Callable, tout: Any) -> Callable:
    """``func`` called on eager tensors made from NumPy values (graph-mode py_function)."""
    def call(*arrays: Any) -> Any:
        saved_eager, saved_stack = state.eager, list(state.graph_stack)
        state.eager, state.graph_stack[:] = True, []
        try:
            out = func(*[convert_to_tensor(a) for a in arrays])
        finally:
            state.eager, state.graph_stack[:] = saved_eager, saved_stack
        outs = flatten(out)
        values = [None if o is None else np.asarray(convert_to_tensor(o)._value) for o in outs]
        return values if isinstance(tout, (list, tuple)) else values[0]
    return call


def py_function(func: Callable | None = None, inp: list | None = None,
                Tout: DTypeLike | None = None, name: str | None = None) -> Any:
    """Runs the Python function ``func`` on tensors (TensorFlow 2's ``tf.py_function``).

    Eagerly, ``func`` runs at once on ``inp`` (so a GradientTape sees its ops and
    differentiates through them, as in TensorFlow); in a graph it becomes an op that calls
    ``func`` on eager tensors when it runs (no gradient there). Without ``func`` it is a
    decorator, as ``numpy_function``.

    Args:
      func: A Python function of tensors returning tensors (or values).
      inp: The input tensors.
      Tout: The output dtype, or a list of them (then a list is returned).
      name: A name for the operation.

    Returns:
      A tensor, or a list of tensors when ``Tout`` is a list.
    """
    if func is None:
        return _decorator(py_function, "tf.py_function", inp, Tout, name=name)
    if not callable(func):
        raise ValueError("Expected func to be callable. Received func=%r of type %s."
                         % (func, type(func)))
    is_list = isinstance(Tout, (list, tuple))
    touts = [dtypes.as_dtype(t) for t in (Tout if is_list else [Tout])]
    if executing_eagerly():
        outs = [None if o is None else convert_to_tensor(o, t)
                for o, t in zip(flatten(func(*[convert_to_tensor(_as_value(x)) for x in inp])),
                                touts)]
        return outs if is_list else outs[0]
    return py_func(_eagerly(func, Tout), inp, Tout, stateful=True, name=name)


__all__ = ["py_func", "numpy_function"]  # py_function: TF2 (and TF1) face only
