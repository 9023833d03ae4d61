"""``apply_op``: the one entry point of every op, in graph and eager mode."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.registry import _ops, get_op_def
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase, convert_to_tensor, to_numpy


def apply_op(op_type: str, inputs: list | tuple = (), attrs: dict | None = None,
             name: str | None = None, dtype: Any = None) -> Any:
    """Applies a registered op: adds it to the default graph, or runs it now (eager).

    Inputs that are not tensors are converted, to ``dtype`` when given. Returns one
    tensor, a list of tensors (several outputs) or the Operation (no outputs)."""
    opdef = _ops.get(op_type) or get_op_def(op_type)
    if attrs is None:
        attrs = {}
    if executing_eagerly():
        return _execute(opdef, inputs, attrs, dtype)
    g = get_default_graph()
    with g.name_scope(name or op_type) as scope:
        tensors = [x if type(x) is Tensor else _graph_input(opdef, i, x, dtype)
                   for i, x in enumerate(inputs)]
        if opdef.same_dtype and len(tensors) > 1:
            _check_same_dtype(opdef, tensors)
        try:
            specs = opdef.infer(tensors, attrs)
        except (ValueError, TypeError) as e:
            raise type(e)("%s (op '%s' of type %s)" % (e, scope[:-1], op_type)) from None
        if type(specs) is tuple:
            specs = [specs]
        op = g._create_op(opdef, tensors, attrs, scope, specs)
    outs = op.outputs
    if len(outs) == 1:
        return outs[0]
    return op if not outs else outs


def _input_name(opdef: Any, i: int) -> str:
    names = opdef.input_names
    return names[i] if i < len(names) else (names[-1] if names else "input_%d" % i)


def _graph_input(opdef: Any, i: int, x: Any, dtype: Any) -> Tensor:
    t = convert_to_tensor(x, dtype if dtype is not None else None, name=_input_name(opdef, i),
                          as_ref=i in opdef.updates)
    if isinstance(t, EagerTensor):
        t = convert_to_tensor(t._value, t.dtype, name=_input_name(opdef, i))
    if not isinstance(t, Tensor):
        raise TypeError("Input '%s' of '%s' Op: expected a Tensor, got %r"
                        % (_input_name(opdef, i), opdef.type, x))
    return t


def _check_same_dtype(opdef: Any, tensors: list) -> None:
    d0 = tensors[0].dtype.base_dtype
    for i in range(1, len(tensors)):
        d = tensors[i].dtype.base_dtype
        if d is not d0:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of "
                            "argument '%s'." % (_input_name(opdef, i), opdef.type, d.name,
                                                d0.name, _input_name(opdef, 0)))


def _eager_input(x: Any, dtype: Any) -> EagerTensor:
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    if isinstance(x, TensorBase):
        if isinstance(x, Tensor):
            raise TypeError("A symbolic Tensor (%s) cannot be used in eager execution; it "
                            "belongs to a graph." % x.name)
        return x
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    arr = to_numpy(x, dt)
    return EagerTensor(arr if arr.ndim else arr[()])


def _execute(opdef: Any, inputs: Any, attrs: dict, dtype: Any) -> Any:
    tensors = [x if type(x) is EagerTensor else _eager_input(x, dtype) for x in inputs]
    if opdef.same_dtype and len(tensors) > 1:
        _check_same_dtype(opdef, tensors)
    if opdef.kernel is None:
        raise RuntimeError("Op %s cannot run eagerly." % opdef.type)
    if opdef.updates:
        return _execute_update(opdef, inputs, tensors, attrs)
    if opdef.rng:
        out = opdef.kernel(eager_rng(attrs), *[t._value for t in tensors], **attrs)
    else:
        out = opdef.kernel(*[t._value for t in tensors], **attrs)
    n = opdef.n_outputs(attrs)
    if n == 1:
        outs = [EagerTensor(out)]
    else:
        outs = [EagerTensor(v) for v in out]
    if state.tapes:
        from flowgrad.tape import record_operation
        record_operation(opdef, tensors, outs, attrs)
    if n == 1:
        return outs[0]
    return outs if n else None


def _execute_update(opdef: Any, inputs: Any, tensors: list, attrs: dict) -> Any:
    """Eager state update: inputs at ``opdef.updates`` are variables, written in place."""
    variables = [inputs[i] for i in opdef.updates]
    for v in variables:
        if not hasattr(v, "_set_value"):
            raise TypeError("Op %s needs a variable as input, got %r" % (opdef.type, v))
    new = opdef.kernel(*[t._value for t in tensors], **attrs)
    if len(variables) == 1:
        new = (new,)
    for v, val in zip(variables, new):
        v._set_value(val)
    return variables[0] if variables else None


_eager_rngs: dict = {}


def eager_rng(attrs: dict) -> Any:
    """The generator of an eager random op: one stream per (seed, seed2) pair."""
    key = (attrs.get("seed", 0), attrs.get("seed2", 0))
    rng = _eager_rngs.get(key)
    if rng is None:
        rng = np.random.default_rng(list(key) if any(key) else None)
        _eager_rngs[key] = rng
    return rng
