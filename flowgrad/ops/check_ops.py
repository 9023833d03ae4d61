"""Assertions: the ``Assert`` op and ``tf.debugging.assert_*``.

As in TensorFlow: eagerly a failed assertion raises InvalidArgumentError at once; in a
graph the functions return an Assert op (run it, or make it a control dependency) that
raises InvalidArgumentError when its condition is false, and they raise at graph
construction already when the values are known then. Static shape/rank mismatches
are ValueErrors. TF1 signatures (with ``data`` third) carry a ``_v1`` suffix."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.dtypes import _finfo
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import get_default_graph, name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.ops.array_ops import _as_value, rank, reshape, shape, stack
from flowgrad.ops.control_flow_ops import no_op
from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.ops.math_ops import (abs as abs_, add, equal, greater, greater_equal, less,
                                   less_equal, multiply, not_equal, reduce_all, reduce_any,
                                   subtract)
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework import dispatch


def _element(x: Any, kind: str, wide: bool) -> str:
    """One value as TensorFlow's ``Tensor::SummarizeValue`` prints it: floats with the
    shortest of %.6g/%.9g (%.15g/%.17g for doubles) that reads back, bools as 1/0."""
    if kind == "f":
        short, full = ("%.15g", "%.17g") if wide else ("%.6g", "%.9g")
        text = short % x
        narrow = float if wide else np.float32
        return text if narrow(text) == narrow(x) or x != x else full % x
    if kind == "b":
        return "1" if x else "0"
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    return str(x)


def _text(v: Any, summarize: int | None) -> str:
    """One piece of an assertion message: a string, or up to ``summarize`` values nested in
    brackets by dimension, as TensorFlow's ``Tensor::SummarizeValue`` writes them."""
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, str):
        return v
    arr = np.asarray(v)
    kind, wide = arr.dtype.kind, arr.dtype == np.float64
    flat = arr.reshape(-1).tolist()
    n = 3 if summarize is None else summarize
    limit = len(flat) if n < 0 else min(n, len(flat))
    at = 0
    out: list = []

    def dim(k: int) -> None:
        nonlocal at
        if k == arr.ndim - 1:
            count = arr.shape[k]
            shown = []
            while len(shown) < count and at < limit:
                shown.append(_element(flat[at], kind, wide))
                at += 1
            # a cut row below the top says so itself; the whole value's cut is added below
            out.append(" ".join(shown) + ("..." if len(shown) < count and k else ""))
            return
        for _ in range(arr.shape[k]):
            if at >= limit:
                return
            out.append("[")
            dim(k + 1)
            out.append("]")

    if arr.ndim == 0:
        out.append(_element(flat[0], kind, wide) if limit else "")
    else:
        dim(0)
    return "".join(out) + ("..." if limit < len(flat) else "")


def _message(data: list, summarize: int | None) -> str:
    return "assertion failed: " + " ".join("[%s]" % _text(d, summarize) for d in data)


def _assert_kernel(condition: Any, *data: Any, summarize: int | None = None,
                   texts: tuple = ()) -> None:
    if not np.all(condition):
        values = iter(data)
        parts = [t if t is not None else next(values) for t in texts]
        raise InvalidArgumentError(None, None, _message(parts, summarize))


register_op("Assert", _assert_kernel, lambda ins, attrs: [], num_outputs=0,
            grad=_NO_GRADIENT, stateful=True, input_names=("condition", "data"))


def Assert(condition: TensorLike, data: list, summarize: int | None = None,  # noqa: N802
           name: str | None = None) -> Any:
    """Raises InvalidArgumentError with ``data`` printed if ``condition`` is false (an op in
    graph mode; eagerly at once, returning None).

    Args:
        condition: A bool scalar.
        data: The tensors to print when ``condition`` is false.
        summarize: How many entries of each tensor to print.
        name: A name for the operation (optional).
    """
    data = list(data)
    if executing_eagerly():
        c = condition if isinstance(condition, (bool, np.bool_)) else \
            convert_to_tensor(_as_value(condition))
        if not np.all(c if isinstance(c, (bool, np.bool_)) else c.numpy()):
            raise InvalidArgumentError(None, None, "Expected '%s' to be true. Summarized data: %s"
                                       % (c, "\n".join(_summarize_eager(d, summarize)
                                                        for d in data)))
        return None
    texts = tuple(d if isinstance(d, str) else None for d in data)
    tensors = [convert_to_tensor(_as_value(d)) for d in data if not isinstance(d, str)]
    c = convert_to_tensor(_as_value(condition), dtypes.bool)
    op = apply_op("Assert", [c] + tensors, {"summarize": summarize, "texts": texts}, name=name)
    # In a tf.function the assertion runs on every call whether or not anything depends on
    # it (TensorFlow's automatic control dependencies); a TF1 graph runs it when asked.
    get_default_graph().add_to_collection(SIDE_EFFECTS, op)
    return op


def _summarize_eager(d: Any, summarize: int | None) -> str:
    """One datum of an eager Assert's message, as TensorFlow's ``_summarize_eager``."""
    if isinstance(d, str):      # a string becomes a string tensor: its bytes print
        d = d.encode()
    v = np.asarray(d.numpy() if hasattr(d, "numpy") else d,
                   dtype=object if isinstance(d, bytes) else None)
    n = 3 if summarize is None else (v.size if summarize < 0 else summarize)
    if v.ndim:
        flat = v.reshape(-1)
        parts = [str(x) for x in flat[:n]] + (["..."] if flat.size > n else [])
    else:
        parts = [str(v.item() if v.dtype.kind != "O" else v[()])] if n else []
    return ", ".join(parts)


def _pretty(d: Any, summarize: int) -> str:
    """One datum of an eager assertion's message, as TensorFlow's ``_pretty_print``."""
    if not is_tensor(d):
        return str(d)
    v = np.asarray(d.numpy())
    if not v.ndim:
        return str(v[()])
    flat = v.reshape(-1)
    return str([str(x) for x in flat[:summarize]] + (["..."] if flat.size > summarize else []))


def _failed_eagerly(sym: str, x: Any, y: Any, data: Any, summarize: Any,
                    message: Any) -> InvalidArgumentError:
    """TensorFlow's eager message for a failed ``x sym y``: the values that differ and the
    first entries of both (``data`` replaces them when given), one per line."""
    n = 3 if summarize is None else (10 ** 9 if summarize < 0 else summarize)
    if data is None:
        xv, yv = np.asarray(x.numpy()), np.asarray(y.numpy())
        data = ["Condition x %s y did not hold." % sym]
        if n > 0:
            if xv.shape == yv.shape and xv.ndim:
                bad = ~_SYMBOLS[sym](xv, yv)
                idx = np.argwhere(bad)
                k = min(n, idx.shape[0])
                data += ["Indices of first %d different values:" % k, idx[:k],
                         "Corresponding x values:", xv[bad].reshape(-1)[:k],
                         "Corresponding y values:", yv[bad].reshape(-1)[:k]]
            xf, yf = xv.reshape(-1), yv.reshape(-1)
            data += ["First %d elements of x:" % min(xf.size, n), xf[:n],
                     "First %d elements of y:" % min(yf.size, n), yf[:n]]
    if message is not None:
        data = [message] + list(data)
    return InvalidArgumentError(None, None, "\n".join(_pretty(d, int(n)) for d in data))


_SYMBOLS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
            ">": np.greater, ">=": np.greater_equal}


def _shape_and_dtype(t: Any) -> str:
    return "shape=%s dtype=%s" % (t.shape, t.dtype.base_dtype.name)


def _static(t: Any) -> Any:
    return t.numpy() if executing_eagerly() else constant_value(t)


def _binary_assert(sym: str, default: str, op_func: Any, np_func: Any, x: Any, y: Any,
                   data: Any, summarize: Any, message: Any, name: Any) -> Any:
    with name_scope(name, default, [x, y]):
        x = convert_to_tensor(_as_value(x), name="x")
        y = convert_to_tensor(_as_value(y), x.dtype.base_dtype, name="y")
        if executing_eagerly():
            if not np.all(np_func(np.asarray(x.numpy()), np.asarray(y.numpy()))):
                raise _failed_eagerly(sym, x, y, data, summarize, message)
            return None
        xn = "x (%s) = " % getattr(x, "name", "x") if not executing_eagerly() else "x = "
        yn = "y (%s) = " % getattr(y, "name", "y") if not executing_eagerly() else "y = "
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym, xn, x, yn, y]
        if message is not None:
            data = [message] + list(data)
        xs, ys = _static(x), _static(y)
        if xs is not None and ys is not None:
            if not np.all(np_func(np.asarray(xs), np.asarray(ys))):
                values = [_static(d) if is_tensor(d) else d for d in data]
                raise InvalidArgumentError(None, None, _message(values, summarize))
            if executing_eagerly():
                return None
        return Assert(reduce_all(op_func(x, y)), data, summarize=summarize)


def _unary_assert(sym: str, default: str, op_func: Any, np_func: Any, x: Any, data: Any,
                  summarize: Any, message: Any, name: Any) -> Any:
    with name_scope(name, default, [x]):
        x = convert_to_tensor(_as_value(x), name="x")
        zero = np.zeros((), x.dtype.base_dtype.as_numpy_dtype)
        if data is None:
            data = ["%s.  " % message if message else "",
                    "Condition x %s 0 did not hold element-wise:" % sym,
                    "x (%s) = " % (_shape_and_dtype(x) if executing_eagerly() else x.name), x]
            message = None
        return _binary_assert(sym, default, lambda a, _: op_func(a, zero),
                              lambda a, _: np_func(a, zero), x, zero, data, summarize,
                              message, None)


_ASSERT_DOC = """Asserts x %s element-wise.

    Args:
%s        message: A string to start the error message with.
        summarize: How many entries of each tensor the message shows.
        name: A name for the operation (optional).

    Returns:
        Eagerly None; in a graph, the assertion op (a control dependency for what must wait
        for the check). In a ``tf.function`` the check runs with the function.

    Raises:
        InvalidArgumentError: the condition does not hold (eagerly at once, in a graph when
          the op runs).
    """
_X = "        x: A numeric tensor.\n"
_Y = "        y: A numeric tensor, broadcastable with ``x``.\n"
_DATA = ("        data: Tensors whose values the error message shows (TensorFlow 1); the\n"
         "          default shows ``x`` (and ``y``).\n")


def _named(f: Callable, name: str) -> Callable:
    """``f`` under the module-level name it is bound to (for help(), the docs and pickle)."""
    f.__name__ = f.__qualname__ = name
    return f


def _make_binary(sym: str, default: str, op_func: Any, np_func: Any) -> tuple:
    def v1(x: TensorLike, y: TensorLike, data: list | None = None, summarize: int | None = None,
           message: str | None = None, name: str | None = None) -> Any:
        return _binary_assert(sym, default, op_func, np_func, x, y, data, summarize,
                              message, name)

    def v2(x: TensorLike, y: TensorLike, message: str | None = None,
           summarize: int | None = None, name: str | None = None) -> Any:
        return _binary_assert(sym, default, op_func, np_func, x, y, None, summarize,
                              message, name)
    v1.__doc__ = _ASSERT_DOC % (sym + " y", _X + _Y + _DATA)
    v2.__doc__ = _ASSERT_DOC % (sym + " y", _X + _Y)
    v2 = dispatch.register_binary_elementwise_assert_api(
        dispatch.add_dispatch_support(_named(v2, default)))
    return _named(v1, default + "_v1"), v2


def _make_unary(sym: str, default: str, op_func: Any, np_func: Any) -> tuple:
    def v1(x: TensorLike, data: list | None = None, summarize: int | None = None,
           message: str | None = None, name: str | None = None) -> Any:
        return _unary_assert(sym, default, op_func, np_func, x, data, summarize, message,
                             name)

    def v2(x: TensorLike, message: str | None = None, summarize: int | None = None,
           name: str | None = None) -> Any:
        return _unary_assert(sym, default, op_func, np_func, x, None, summarize, message,
                             name)
    v1.__doc__ = _ASSERT_DOC % (sym + " 0", _X + _DATA)
    v2.__doc__ = _ASSERT_DOC % (sym + " 0", _X)
    return _named(v1, default + "_v1"), _named(v2, default)


assert_equal_v1, assert_equal = _make_binary("==", "assert_equal", equal, np.equal)
assert_none_equal_v1, assert_none_equal = _make_binary("!=", "assert_none_equal", not_equal,
                                                       np.not_equal)
assert_less_v1, assert_less = _make_binary("<", "assert_less", less, np.less)
assert_less_equal_v1, assert_less_equal = _make_binary("<=", "assert_less_equal", less_equal,
                                                       np.less_equal)
assert_greater_v1, assert_greater = _make_binary(">", "assert_greater", greater, np.greater)
assert_greater_equal_v1, assert_greater_equal = _make_binary(
    ">=", "assert_greater_equal", greater_equal, np.greater_equal)
assert_positive_v1, assert_positive = _make_unary(">", "assert_positive", greater, np.greater)
assert_negative_v1, assert_negative = _make_unary("<", "assert_negative", less, np.less)
assert_non_negative_v1, assert_non_negative = _make_unary(">=", "assert_non_negative",
                                                          greater_equal, np.greater_equal)
assert_non_positive_v1, assert_non_positive = _make_unary("<=", "assert_non_positive",
                                                          less_equal, np.less_equal)


def assert_rank(x: TensorLike, rank: int, message: str | None = None,
                name: str | None = None) -> Any:
    """Asserts that ``x`` has rank ``rank``: ValueError when known statically, else an op.

    Args:
        x: The tensor to check.
        rank: The rank it must have.
        message: A prefix of the error message.
        name: A name for the operation (optional).
    """
    return _assert_rank(x, rank, message, name, at_least=False)


def assert_rank_at_least(x: TensorLike, rank: int, message: str | None = None,
                         name: str | None = None) -> Any:
    """Asserts that ``x`` has rank >= ``rank``.

    Args:
        x: The tensor to check.
        rank: The rank it must at least have.
        message: A prefix of the error message.
        name: A name for the operation (optional).
    """
    return _assert_rank(x, rank, message, name, at_least=True)


def _assert_rank(x: Any, r: int, message: Any, name: Any, at_least: bool) -> Any:
    with name_scope(name, "assert_rank_at_least" if at_least else "assert_rank", [x]):
        x = convert_to_tensor(_as_value(x))
        want = int(r)
        have = x.shape.rank
        what = "rank at least" if at_least else "rank"
        if have is not None:
            if have < want if at_least else have != want:
                raise ValueError("%sTensor %s must have %s %d.  Received rank %d, shape %s"
                                 % ("" if message is None else message + ".  ",
                                    "" if executing_eagerly() else x.name, what, want, have,
                                    x.shape))
            return None if executing_eagerly() else no_op()
        cond = greater_equal(rank(x), want) if at_least else equal(rank(x), want)
        return Assert(cond, [message or "", "Tensor %s must have %s" % (x.name, what), want])


def assert_type(tensor: TensorLike, tf_type: Any, message: str | None = None,
                name: str | None = None) -> None:
    """TypeError unless ``tensor`` has dtype ``tf_type``.

    Args:
        tensor: The tensor to check.
        tf_type: The dtype it must have.
        message: A prefix of the error message.
        name: A name for the operation (optional).
    """
    t = convert_to_tensor(_as_value(tensor))
    want = dtypes.as_dtype(tf_type)
    if t.dtype.base_dtype != want.base_dtype:
        raise TypeError("%s%s must be of type %r; got %r" % (
            "" if message is None else message + "  ", getattr(t, "name", "tensor"), want,
            t.dtype.base_dtype))


def assert_shapes(shapes: Any, data: TensorLike | None = None, summarize: int | None = None,
                  message: str | None = None, name: str | None = None) -> Any:
    """Asserts that tensors have the given shapes, where a dimension is an int, None/'.'
    (anything) or a symbol (a string) that must mean the same size everywhere. Static
    mismatches are ValueErrors; dimensions unknown statically are checked when run.

    Args:
        shapes: A list of (tensor, shape) pairs; a shape is a list of ints, symbol strings and None
            (any size).
        data: The tensors to print on failure; by default the checked ones.
        summarize: How many entries of each tensor to print.
        message: A prefix of the error message.
        name: A name for the operation (optional).
    """
    items = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    sizes: dict = {}
    checks = []
    with name_scope(name, "assert_shapes"):
        for x, spec in items:
            x = convert_to_tensor(_as_value(x))
            spec = list(spec)
            s = x.shape
            if s.rank is not None and s.rank != len(spec):
                raise ValueError("%sSpecified by tensor %s dimension %d.  Tensor %s must have "
                                 "rank %d. Received rank %d, shape %s" % (
                                     "" if message is None else message + "  ",
                                     getattr(x, "name", "x"), 0, getattr(x, "name", "x"),
                                     len(spec), s.rank, s))
            dims = s.as_list() if s.rank is not None else [None] * len(spec)
            for i, (d, want) in enumerate(zip(dims, spec)):
                if want is None or want == ".":
                    continue
                if isinstance(want, str):
                    if want not in sizes:
                        sizes[want] = d if d is not None else shape(x)[i]
                        continue
                    want = sizes[want]
                if d is not None and not is_tensor(want):
                    if d != int(want):
                        raise ValueError("%sdimension %d of tensor %s must be %d, got shape %s"
                                         % ("" if message is None else message + "  ", i,
                                            getattr(x, "name", "x"), int(want), s))
                    continue
                checks.append(equal(shape(x)[i], want))
        if not checks or executing_eagerly():
            return None
        return Assert(reduce_all(stack(checks)), [message or "", "assert_shapes failed"])


@dispatch.register_binary_elementwise_assert_api
@dispatch.add_dispatch_support
def assert_near(x: TensorLike, y: TensorLike, rtol: Any = None, atol: Any = None,
                message: str | None = None, summarize: int | None = None,
                name: str | None = None) -> Any:
    """Asserts ``|x - y| <= atol + rtol * |y|`` element-wise (InvalidArgumentError).

    Args:
        x: A float or complex tensor.
        y: A tensor of ``x``'s dtype.
        rtol: The relative tolerance; 10 * the dtype's machine epsilon when None.
        atol: The absolute tolerance; 10 * the dtype's machine epsilon when None.
        message: A prefix of the error message.
        summarize: How many entries of each tensor to print.
        name: A name for the operation (optional).

    Returns:
        None eagerly; the Assert op in a graph.
    """
    with name_scope(name, "assert_near", [x, y, rtol, atol]):
        x = convert_to_tensor(_as_value(x), name="x")
        y = convert_to_tensor(_as_value(y), x.dtype.base_dtype, name="y")
        eps = float(_finfo(x.dtype.base_dtype.real_dtype.np).eps)
        rtol = convert_to_tensor(10 * eps if rtol is None else rtol,
                                 x.dtype.base_dtype.real_dtype, name="rtol")
        atol = convert_to_tensor(10 * eps if atol is None else atol,
                                 x.dtype.base_dtype.real_dtype, name="atol")
        data = [message or "",
                "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
                "x (%s) = " % _shape_and_dtype(x), x, "y (%s) = " % _shape_and_dtype(y), y]
        close = less_equal(abs_(subtract(x, y)), add(atol, multiply(rtol, abs_(y))))
        return Assert(reduce_all(close), data, summarize=summarize)


def assert_integer(x: TensorLike, message: str | None = None, name: str | None = None) -> Any:
    """TypeError unless ``x`` has an integer dtype.

    Args:
        x: The tensor to check.
        message: A prefix of the error message.
        name: A name for the operation (optional).

    Returns:
        None eagerly, a no-op in a graph.

    Raises:
        TypeError: If ``x`` is not of an integer dtype.
    """
    with name_scope(name, "assert_integer", [x]):
        x = convert_to_tensor(_as_value(x), name="x")
        if not x.dtype.is_integer:
            what = "x" if executing_eagerly() else x.name
            raise TypeError('%sExpected "%s" to be integer type.  Found: %s of dtype %s' % (
                "%s.  " % message if message else "", what,
                "tensor" if executing_eagerly() else x.name, x.dtype))
        return None if executing_eagerly() else no_op("statically_determined_was_integer")


def assert_scalar(tensor: TensorLike, message: str | None = None, name: str | None = None) -> Any:
    """``tensor`` itself, after checking that its static shape is a scalar's.

    Args:
        tensor: The tensor to check.
        message: A prefix of the error message.
        name: A name for the operation (optional).

    Returns:
        None eagerly (``tf.debugging.assert_scalar``), ``tensor`` in a graph (TF1's).

    Raises:
        ValueError: If the static shape is not ``()``.
    """
    with name_scope(name, "assert_scalar", [tensor]):
        t = convert_to_tensor(_as_value(tensor), name=name)
        r = t.shape.rank
        if r != 0:
            if executing_eagerly():
                raise ValueError("%sExpected scalar shape, saw shape: %s."
                                 % ("%s.  " % message if message else "", t.shape))
            raise ValueError("%sExpected scalar shape for %s, saw shape: %s."
                             % ("%s.  " % message if message else "", t.name, t.shape))
        return None if executing_eagerly() else t


def assert_rank_in(x: TensorLike, ranks: Any, message: str | None = None,
                   name: str | None = None) -> Any:
    """Asserts that the rank of ``x`` is one of ``ranks``: ValueError when known statically,
    else an op.

    Args:
        x: The tensor to check.
        ranks: The allowed ranks.
        message: A prefix of the error message.
        name: A name for the operation (optional).

    Returns:
        None eagerly; a no-op or the Assert op in a graph.

    Raises:
        ValueError: If the static rank is not one of ``ranks``.
    """
    with name_scope(name, "assert_rank_in", [x]):
        x = convert_to_tensor(_as_value(x), name="x")
        allowed = tuple(int(r) for r in ranks)
        have = x.shape.rank
        if have is not None:
            if have not in allowed:
                raise ValueError("%sTensor %s must have rank in %s.  Received rank %d, shape %s"
                                 % ("%s.  " % message if message else "",
                                    "" if executing_eagerly() else x.name, allowed, have,
                                    x.shape))
            return None if executing_eagerly() else no_op()
        r = rank(x)
        ok = reduce_any(stack([equal(r, a) for a in allowed]))
        return Assert(ok, [message or "", "Tensor %s must have rank in" % x.name,
                           list(allowed), "Received shape: ", shape(x)])


def assert_same_float_dtype(tensors: TensorLike | None = None,
                            dtype: DTypeLike | None = None) -> Any:
    """The float dtype that ``tensors`` (and ``dtype``) share; float32 when both are empty.

    Args:
        tensors: Tensors (or variables) whose dtypes must agree.
        dtype: The dtype they must have, or None.

    Returns:
        The common float dtype.

    Raises:
        ValueError: If the dtypes differ or are not floating.
    """
    if tensors:
        dtype = _same_dtype(tensors, dtype)
    if not dtype:
        return dtypes.float32
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError("Expected floating point type, got %s." % dtype)
    return dtype


def _same_dtype(tensors: Any, dtype: Any) -> Any:
    first = None
    for t in tensors:
        if t is None:
            continue
        if not dtype:
            dtype, first = t.dtype.base_dtype, t
        elif t.dtype.base_dtype != dtypes.as_dtype(dtype).base_dtype:
            raise ValueError("%s, type=%s, must be of the same type (%s)%s." % (
                t, t.dtype, dtypes.as_dtype(dtype),
                "" if first is None else " as %s" % first))
    return dtype


def assert_proper_iterable(values: TensorLike) -> None:
    """TypeError unless ``values`` is an iterable other than a tensor, an array or a string.

    Args:
        values: The object to check.

    Raises:
        TypeError: If ``values`` is a tensor, a NumPy array, a string or not iterable.
    """
    unwanted = (np.ndarray, np.generic, str, bytes)
    if is_tensor(values) or isinstance(values, unwanted):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: %s'
                        % type(values))
    if not hasattr(values, "__iter__"):
        raise TypeError('Expected argument "values" to be iterable.  Found: %s'
                        % type(values))


def is_numeric_tensor(tensor: TensorLike) -> bool:
    """Whether ``tensor`` is a tensor of a numeric dtype (not bool, string, resource).

    Args:
        tensor: Any object.
    """
    if not is_tensor(tensor):
        return False
    dt = tensor.dtype.base_dtype
    return dt.is_numeric


def _monotonic_differences(x: Any) -> Any:
    """x[i + 1] - x[i] over the flattened ``x`` (empty when it has fewer than 2 entries)."""
    x = reshape(convert_to_tensor(_as_value(x), name="x"), [-1])
    if not (x.dtype.is_floating or x.dtype.is_integer or x.dtype.is_complex):
        raise TypeError("Expected x to be numeric, got dtype %s" % x.dtype.name)
    return subtract(x[1:], x[:-1])


def is_non_decreasing(x: TensorLike, name: str | None = None) -> Any:
    """Whether ``x`` (flattened in row-major order) never decreases.

    Args:
        x: A numeric tensor.
        name: A name for the operation.

    Returns:
        A scalar bool tensor: True if ``x[i] <= x[i + 1]`` for every i (so for fewer than
        two entries), False otherwise (also where a NaN takes part).

    Raises:
        TypeError: If ``x`` is not numeric.
    """
    with name_scope(name, "is_non_decreasing", [x]):
        return reduce_all(less_equal(0, _monotonic_differences(x)))


def is_strictly_increasing(x: TensorLike, name: str | None = None) -> Any:
    """Whether ``x`` (flattened in row-major order) always increases.

    Args:
        x: A numeric tensor.
        name: A name for the operation.

    Returns:
        A scalar bool tensor: True if ``x[i] < x[i + 1]`` for every i (so for fewer than
        two entries), False otherwise.

    Raises:
        TypeError: If ``x`` is not numeric.
    """
    with name_scope(name, "is_strictly_increasing", [x]):
        return reduce_all(less(0, _monotonic_differences(x)))


__all__ = ["Assert", "assert_equal", "assert_greater", "assert_greater_equal", "assert_less",
           "assert_less_equal", "assert_negative", "assert_non_negative", "assert_non_positive",
           "assert_none_equal", "assert_positive", "assert_rank", "assert_rank_at_least",
           "assert_shapes", "assert_type", "assert_near", "assert_integer", "assert_scalar",
           "assert_rank_in", "assert_same_float_dtype", "assert_proper_iterable",
           "is_numeric_tensor"]
