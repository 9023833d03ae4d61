"""AutoGraph's operators (``ag__``): converted control flow, dispatched at run time.

A condition or iterable that is a symbolic Tensor builds ``cond``/``while_loop``; anything
else (Python values, eager tensors) runs with Python's semantics. The statement operators
receive the statement's bodies as functions and ``get_state``/``set_state`` functions over
the variables the statement assigns, plus, for each, whether it is read after it."""
from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.autograph.transformer import RETVAL
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly, graph_scope
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import EagerTensor, Tensor, convert_to_tensor
from flowgrad.framework.tensor_shape import as_shape
from flowgrad.ops.script_ops import numpy_function
from flowgrad.ops.subgraph import SIDE_EFFECTS, SubGraph
from flowgrad.ops import array_ops, check_ops, math_ops
from flowgrad.ops.cond_v2 import cond as _cond
from flowgrad.ops.while_v2 import while_loop as _while_loop

_LIMITS = ("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
           "g3doc/reference/limitations.md")


class Undefined:
    """The value of a local variable before its first assignment."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name: str):
        self.symbol_name = symbol_name

    def read(self) -> Any:
        raise UnboundLocalError("'%s' is used before assignment" % self.symbol_name)

    def __getattr__(self, name: str) -> Any:
        return self.read()

    def __repr__(self) -> str:
        return "<undefined %s>" % self.symbol_name


def ld(value: Any) -> Any:
    """A read of a local variable: raises if it was never assigned."""
    if isinstance(value, Undefined):
        value.read()
    return value


def is_symbolic(x: Any) -> bool:
    """True for a graph Tensor (whose value is only known when the graph runs)."""
    return isinstance(x, Tensor)


def _dynamic(x: Any) -> bool:
    """Whether a state leaf flows through cond/while_loop as a tensor."""
    return isinstance(x, (Tensor, EagerTensor, bool, int, float, complex, np.ndarray,
                          np.generic))


def _as_bool(x: Any) -> Tensor:
    return x if is_symbolic(x) else convert_to_tensor(bool(x), dtypes.bool)


# -- if ---------------------------------------------------------------------------------------

def if_stmt(cond: Any, body: Callable, orelse: Callable, get_state: Callable,
            set_state: Callable, symbol_names: tuple, live: tuple) -> None:
    """``if cond: body() else: orelse()``; a Tensor ``cond`` builds a ``cond``."""
    if is_symbolic(cond):
        _tf_if(cond, body, orelse, get_state, set_state, symbol_names, live)
    elif cond:
        body()
    else:
        orelse()


_DYN = object()     # marks the places of dynamic leaves in a value's flat leaves


class _Flow:
    """Marks a TensorArray leaf: it travels through cond/while_loop as its flow tensor."""

    def __init__(self, template: Any):
        self.template = template


def _is_dyn(s: Any) -> bool:
    return s is _DYN or isinstance(s, _Flow)


def _leaf(s: Any, t: Any) -> Any:
    """The state leaf for the tensor ``t`` at a dynamic place ``s``."""
    return s.template._from_flow(t) if isinstance(s, _Flow) else t


def _split(value: Any) -> tuple:
    """(dynamic leaves as tensors, the value's flat leaves with _DYN at dynamic positions)."""
    flat = nest.flatten(value)
    dyn, statics = [], []
    for leaf in flat:
        if hasattr(leaf, "_from_flow"):
            dyn.append(leaf.flow)
            statics.append(_Flow(leaf))
        elif _dynamic(leaf):
            dyn.append(leaf if is_symbolic(leaf) else convert_to_tensor(leaf))
            statics.append(_DYN)
        else:
            statics.append(leaf)
    return dyn, statics


def _join(value: Any, statics: list, tensors: list, pos: int) -> tuple:
    """The inverse of ``_split``: ``value``'s structure with its dynamic leaves taken from
    ``tensors[pos:]``; returns (the value, the position after the last tensor used)."""
    leaves = []
    for st in statics:
        if _is_dyn(st):
            leaves.append(_leaf(st, tensors[pos]))
            pos += 1
        else:
            leaves.append(st)
    return (nest.pack_sequence_as(value, leaves) if nest.is_nested(value) else leaves[0]), pos


def _same_static(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and isinstance(a, (str, type(None))) and a == b) or \
        (isinstance(a, _Flow) and isinstance(b, _Flow))


def _check_branches(names: tuple, keep: list, seen: dict) -> None:
    for k, i in enumerate(keep):
        (tv, ts), (fv, fs) = seen["if"][k], seen["else"][k]
        if len(ts) != len(fs) or [_is_dyn(s) for s in ts] != [_is_dyn(s) for s in fs]:
            raise TypeError("'%s' must have the same nested structure in the if and else "
                            "branches: %r in the if branch, %r in the else branch"
                            % (names[i], tv, fv))
        for a, b in zip(ts, fs):
            if not _same_static(a, b):
                raise TypeError("'%s' is a Python value that differs between the if and else "
                                "branches of a condition that is a Tensor: %r in the if "
                                "branch, %r in the else branch" % (names[i], a, b))


def _tf_if(cond: Tensor, body: Callable, orelse: Callable, get_state: Callable,
           set_state: Callable, names: tuple, live: tuple) -> None:
    init = get_state()
    keep = [i for i, v in enumerate(init) if live[i] or not isinstance(v, Undefined)]
    seen: dict = {}
    ret, like = names.index(RETVAL) if RETVAL in names else None, None
    if ret is not None and init[ret] is None:       # a return in one branch only
        for fn in (body, orelse):
            v = _stage(fn, get_state, set_state, init)[ret]
            if v is not None and not isinstance(v, Undefined):
                like = v
                break

    def branch(fn: Callable, label: str) -> Callable:
        def run() -> list:
            set_state(init)
            fn()
            values = get_state()
            out, record = [], []
            for i in keep:
                v = values[i]
                if i == ret and v is None and like is not None:
                    v = _placeholder_value(names[i], like)    # do_return__ is False here
                if isinstance(v, Undefined):
                    raise ValueError("'%s' must also be initialized in the %s branch"
                                     % (names[i], label))
                dyn, statics = _split(v)
                out.extend(dyn)
                record.append((v, statics))
            seen[label] = record
            if label == "else":
                _check_branches(names, keep, seen)
            return out
        return run

    outs = _cond(cond, branch(body, "if"), branch(orelse, "else"))
    outs = [] if outs is None else list(outs) if isinstance(outs, (list, tuple)) else [outs]
    new = list(init)
    pos = 0
    for k, i in enumerate(keep):
        value, statics = seen["if"][k]
        new[i], pos = _join(value, statics, outs, pos)
    set_state(tuple(new))


def assert_stmt(test: Any, message: Callable | None) -> None:
    """``assert test, message()``; a Tensor ``test`` becomes a tf.Assert op that runs on every
    call of the traced function."""
    if not is_symbolic(test):
        assert test, None if message is None else message()
        return
    data = ["Assertion failed" if message is None else message()]
    op = check_ops.Assert(test, data)
    get_default_graph().add_to_collection(SIDE_EFFECTS, op)


def if_exp(cond: Any, if_true: Callable, if_false: Callable) -> Any:
    """``if_true() if cond else if_false()``; a Tensor ``cond`` builds a ``cond``."""
    if is_symbolic(cond):
        return _cond(cond, if_true, if_false)
    return if_true() if cond else if_false()


# -- and / or / not -----------------------------------------------------------------------------

def and_(*operands: Callable) -> Any:
    """Python's ``and`` (lazy); with a Tensor operand, a lazy ``logical_and`` via cond."""
    v = operands[0]()
    for k in builtins.range(1, len(operands)):
        if is_symbolic(v):
            rest = operands[k:]
            return _cond(v, lambda: _as_bool(and_(*rest)), lambda: v)
        if not v:
            return v
        v = operands[k]()
    return v


def or_(*operands: Callable) -> Any:
    """Python's ``or`` (lazy); with a Tensor operand, a lazy ``logical_or`` via cond."""
    v = operands[0]()
    for k in builtins.range(1, len(operands)):
        if is_symbolic(v):
            rest = operands[k:]
            return _cond(v, lambda: v, lambda: _as_bool(or_(*rest)))
        if v:
            return v
        v = operands[k]()
    return v


def not_(x: Any) -> Any:
    """Python's ``not``; ``logical_not`` of a Tensor."""
    return math_ops.logical_not(x) if is_symbolic(x) else not x


# -- loops --------------------------------------------------------------------------------------

def set_loop_options(parallel_iterations: Any = None, swap_memory: Any = None,
                     maximum_iterations: Any = None, shape_invariants: Any = None) -> None:
    """Options of the loop whose body calls this first (``shape_invariants``: a list of
    (tensor, shape) pairs, ``maximum_iterations``). AutoGraph moves the call out of the
    loop body and hands the options to the loop it builds; run as-is, it does nothing.

    Args:
        parallel_iterations: The ``while_loop`` argument of the same name (accepted; flowgrad
          runs iterations one after another).
        swap_memory: Accepted for TensorFlow's signature; ignored.
        maximum_iterations: The most iterations the loop may run.
        shape_invariants: ``(tensor, shape)`` pairs: loop variables whose shape may change
          between iterations within ``shape``.
    """

def while_stmt(test: Callable, body: Callable, get_state: Callable, set_state: Callable,
               symbol_names: tuple, live: tuple, opts: dict | None = None) -> None:
    """``while test(): body()``; once ``test()`` gives a Tensor, the rest is a while_loop."""
    while True:
        t = test()
        if is_symbolic(t):
            _tf_while(test, body, get_state, set_state, symbol_names, live, opts)
            return
        if not t:
            return
        body()


def for_stmt(iter_: Any, extra_test: Callable | None, body: Callable, get_state: Callable,
             set_state: Callable, symbol_names: tuple, live: tuple,
             targets: tuple = (), opts: dict | None = None) -> None:
    """``for x in iter_: body(x)`` while ``extra_test()`` holds; a Tensor ``iter_`` (such as
    ``tf.range(n)``) is iterated along its first dimension by a while_loop."""
    if is_symbolic(iter_):
        _tf_for(iter_, extra_test, body, get_state, set_state, symbol_names, live, targets,
                opts)
        return
    if is_dataset(iter_) and not executing_eagerly():
        _tf_for_dataset(iter_, extra_test, body, get_state, set_state, symbol_names, live,
                        opts)
        return
    for itr in iter_:
        if extra_test is not None:
            t = extra_test()
            if is_symbolic(t):
                raise NotImplementedError(
                    "break and return statements which depend on a TF condition are not "
                    "supported in Python for loops. Did you intend to make it a TF loop?\n"
                    "See %s#consistency-of-control-flow-types for more info." % _LIMITS)
            if not t:
                break
        body(itr)


def is_dataset(x: Any) -> bool:
    """Whether ``x`` is a tf.data.Dataset (what a ``for`` loop iterates as a dataset loop)."""
    return hasattr(x, "element_spec") and hasattr(x, "as_numpy_iterator")


def _tf_for_dataset(ds: Any, extra_test: Callable | None, body: Callable, get_state: Callable,
                    set_state: Callable, names: tuple, live: tuple, opts: dict | None) -> None:
    """A while loop over a tf.data.Dataset: each run of the graph iterates it afresh (one
    element fetched per iteration by a stateful py_func), as TensorFlow's dataset loops do."""
    specs = nest.flatten(ds.element_spec)
    dts = [dtypes.bool] + [s.dtype.base_dtype for s in specs]
    iterator: list = [None]

    def restart() -> np.ndarray:
        iterator[0] = ds.as_numpy_iterator()
        return np.bool_(True)

    def fetch(_: Any) -> list:
        try:
            flat = nest.flatten(next(iterator[0]))
        except StopIteration:
            return [np.bool_(False)] + [
                np.zeros([d or 0 for d in s.shape.as_list()] if s.shape.ndims is not None else
                         [0], s.dtype.base_dtype.as_numpy_dtype) for s in specs]
        return [np.bool_(True)] + [np.asarray(v, s.dtype.base_dtype.as_numpy_dtype)
                                   for v, s in zip(flat, specs)]

    def next_element(token: Any) -> list:
        out = list(numpy_function(fetch, [token], dts))
        for t, s in zip(out[1:], specs):
            t.set_shape(s.shape)
        out[0].set_shape([])
        return out

    current = next_element(numpy_function(restart, [], dtypes.bool))

    def get() -> tuple:
        return tuple(current) + tuple(get_state())

    def put(values: tuple) -> None:
        current[:] = values[:len(dts)]
        set_state(tuple(values[len(dts):]))

    def test() -> Any:
        return current[0] if extra_test is None else and_(lambda: current[0], extra_test)

    def step() -> None:
        body(nest.pack_sequence_as(ds.element_spec, current[1:]))
        current[:] = next_element(current[0])

    n = len(dts)
    _tf_while(test, step, get, put, ("<element>",) * n + tuple(names), (False,) * n + live,
              opts)


def _tf_for(iter_: Tensor, extra_test: Callable | None, body: Callable, get_state: Callable,
            set_state: Callable, names: tuple, live: tuple, targets: tuple,
            opts: dict | None) -> None:
    if iter_.shape.ndims == 0:
        raise TypeError("Cannot iterate over a scalar tensor (%s)." % iter_.name)
    dim0 = iter_.shape.as_tuple()[0] if iter_.shape.ndims is not None else None
    n = dim0 if dim0 is not None else array_ops.shape(iter_)[0]
    index = [convert_to_tensor(0, dtypes.int32)]

    def get() -> tuple:
        return (index[0],) + tuple(get_state())

    def put(values: tuple) -> None:
        index[0] = values[0]
        set_state(tuple(values[1:]))

    def test() -> Any:
        more = math_ops.less(index[0], n)
        return more if extra_test is None else and_(lambda: more, extra_test)

    def step() -> None:
        i = index[0]
        body(array_ops.gather(iter_, i))
        index[0] = i + 1

    live = (False,) + tuple(lv and n not in targets for lv, n in zip(live, names))
    _tf_while(test, step, get, put, ("<index>",) + tuple(names), live, opts)


def _placeholder_value(name: str, like: Any) -> Any:
    """A stand-in entry value of the type ``like`` has after one iteration (TF's rule for a
    variable that is None or undefined before a loop: the loop always overwrites it)."""
    def leaf(t: Any) -> Any:
        if not is_symbolic(t):
            return t
        shape = t.shape
        if shape.ndims is None:
            raise ValueError("'%s' is undefined before the loop, and its shape after one "
                             "iteration (%s) has unknown rank; define it before the loop"
                             % (name, t.name))
        dims = shape.as_list()
        zeros = array_ops.zeros([d or 0 for d in dims], t.dtype.base_dtype)
        if None in dims:
            return array_ops.placeholder_with_default(zeros, shape)
        return zeros
    return nest.map_structure(leaf, like)


def _stage(body: Callable, get_state: Callable, set_state: Callable, init: tuple) -> tuple:
    """The state after ``body`` (one iteration, one branch), traced into a throw-away
    sub-graph; the state is restored after."""
    staging = SubGraph("autograph_staging", get_default_graph())
    try:
        with graph_scope(staging):
            set_state(init)
            body()
            return get_state()
    finally:
        set_state(init)


def _fits(shape: Any, invariant: Any) -> bool:
    """Whether ``shape`` is at least as specific as the shape invariant."""
    if invariant.ndims is None:
        return True
    if shape.ndims != invariant.ndims:
        return False
    return all(i is None or s == i for s, i in zip(shape.as_list(), invariant.as_list()))


def _tf_while(test: Callable, body: Callable, get_state: Callable, set_state: Callable,
              names: tuple, live: tuple, opts: dict | None = None) -> None:
    init = get_state()
    nulls = [i for i, v in enumerate(init)
             if v is None or (isinstance(v, Undefined) and live[i])]
    if nulls:
        first = _stage(body, get_state, set_state, init)
        init = list(init)
        for i in nulls:
            if not isinstance(first[i], Undefined) and first[i] is not None:
                init[i] = _placeholder_value(names[i], first[i])
        init = tuple(init)
    carried = []
    for i, v in enumerate(init):
        if isinstance(v, Undefined):
            if live[i]:
                raise ValueError("'%s' must be defined before the loop." % names[i])
            continue
        carried.append(i)
    entry = {i: _split(init[i]) for i in carried}
    flat = [t for i in carried for t in entry[i][0]]

    def state_of(leaves: list) -> tuple:
        new = list(init)
        pos = 0
        for i in carried:
            new[i], pos = _join(init[i], entry[i][1], leaves, pos)
        return tuple(new)

    opts = opts or {}
    invariants = {id(t): as_shape(s) for t, s in opts.get("shape_invariants", ())}
    shapes = [invariants.get(id(t), t.shape) for t in flat]

    def cond_fn(*leaves: Any) -> Any:
        set_state(state_of(list(leaves)))
        return _as_bool(test())

    def body_fn(*leaves: Any) -> list:
        set_state(state_of(list(leaves)))
        body()
        values = get_state()
        out = []
        for i in carried:
            v = values[i]
            if isinstance(v, Undefined):
                raise ValueError("'%s' must be defined in every iteration of the loop."
                                 % names[i])
            dyn, statics = _split(v)
            old_dyn, old_statics = entry[i]
            if [_is_dyn(s) for s in statics] != [_is_dyn(s) for s in old_statics] or not all(
                    _same_static(a, b) for a, b in zip(statics, old_statics)):
                raise TypeError("'%s' has the value %r before the loop, but %r after one "
                                "iteration; a variable that a loop whose condition is a Tensor "
                                "changes must be a Tensor (or a nested structure of Tensors) "
                                "of the same structure" % (names[i], init[i], v))
            for new_t, old_t in zip(dyn, old_dyn):
                if new_t.dtype.base_dtype != old_t.dtype.base_dtype:
                    raise TypeError("'%s' has dtype %s before the loop, but dtype %s after one "
                                    "iteration" % (names[i], old_t.dtype.name,
                                                   new_t.dtype.name))
                inv = shapes[len(out)]
                if not _fits(new_t.shape, inv):
                    raise ValueError("'%s' has shape %s before the loop, but shape %s after one "
                                     "iteration. Use tf.autograph.experimental.set_loop_options "
                                     "to set shape invariants." % (names[i], inv, new_t.shape))
                out.append(new_t)
        return out

    result = _while_loop(cond_fn, body_fn, flat, shape_invariants=shapes,
                         maximum_iterations=opts.get("maximum_iterations")) if flat else None
    if result is None:
        raise ValueError("a loop whose condition is a Tensor must change at least one "
                         "variable (%s)" % ", ".join(names))
    result = list(result) if isinstance(result, (list, tuple)) else [result]
    set_state(state_of(result))


__all__ = ["Undefined", "ld", "is_symbolic", "if_stmt", "if_exp", "and_", "or_", "not_",
           "while_stmt", "for_stmt", "set_loop_options", "assert_stmt"]
