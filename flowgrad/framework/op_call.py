"""``apply_op``: the one entry point of every op, in graph and eager mode."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors, fp_state, hooks
from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.philox import PhiloxStream
from flowgrad.framework.registry import _ops, get_op_def
from flowgrad.framework.tensor import (_PLAIN_TYPES, EagerTensor, Tensor, TensorBase,
                                       convert_to_tensor, eager_value, to_numpy)
from flowgrad.framework.type_hints import DTypeLike


def apply_op(op_type: str, inputs: list | tuple = (), attrs: dict | None = None,
             name: str | None = None, dtype: DTypeLike | None = None) -> Any:
    """Applies a registered op: adds it to the default graph, or runs it now (eager).

    Inputs that are not tensors are converted, to ``dtype`` when given. Returns one
    tensor, a list of tensors (several outputs) or the Operation (no outputs)."""
    opdef = _ops.get(op_type) or get_op_def(op_type)
    if attrs is None:
        attrs = {}
    if state.eager and not state.graph_stack:       # executing_eagerly(), inlined
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


def argument_error(message: str, python_class: type = ValueError) -> Exception:
    """The error for a bad argument: ``python_class`` while building a graph (TensorFlow's
    build-time class), InvalidArgumentError (also a ``python_class``) in eager mode."""
    if executing_eagerly():
        return errors.EAGER_ERROR_CLASSES[python_class](None, None, message)
    return python_class(message)


def _input_name(opdef: Any, i: int) -> str:
    names = opdef.input_names
    return names[i] if i < len(names) else (names[-1] if names else "input_%d" % i)


def _graph_input(opdef: Any, i: int, x: Any, dtype: Any) -> Tensor:
    t = convert_to_tensor(x, dtype if dtype is not None else None, name=_input_name(opdef, i),
                          as_ref=i in opdef.updates)
    if isinstance(t, EagerTensor):
        watched = get_default_graph()._watched_eager.get(id(t))
        t = watched[1] if watched is not None and watched[0] is t else \
            convert_to_tensor(t._value, t.dtype, name=_input_name(opdef, i))
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
    if type(x) not in _PLAIN_TYPES:
        if hasattr(x, "_as_tensor"):
            return x._as_tensor()
        if isinstance(x, TensorBase):
            if isinstance(x, Tensor):
                raise TypeError("A symbolic Tensor (%s) cannot be used in eager execution; it "
                                "belongs to a graph." % x.name)
            return x
        if hasattr(type(x), "__tf_tensor__"):    # TensorFlow's conversion protocol (a
            return convert_to_tensor(x, dtype)   # Keras Variable casts in an autocast scope)
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    arr = to_numpy(x, dt)
    return EagerTensor(eager_value(arr))


def _dtype_mismatch(opdef: Any, tensors: list) -> Exception:
    """The error for a same-dtype op whose inputs' dtypes differ, naming the first odd one."""
    d0 = tensors[0]._dtype
    i, t = next((i, t) for i, t in enumerate(tensors) if t._dtype is not d0)
    names = [errors.dtype_text(d) for d in (d0, t._dtype)]
    return argument_error("cannot compute %s as input #%d(zero-based) was expected to be a %s "
                          "tensor but is a %s tensor [Op:%s]"
                          % (opdef.type, i, names[0], names[1], opdef.type), TypeError)


def _eager_operand(opdef: Any, x: Any, dtype: Any, before: list) -> EagerTensor:
    """Input ``len(before)`` of an eager op, converted to ``dtype`` when it is a Python value.

    Where the value does not fit ``dtype``, AddV2 (``tf.constant(1) + 1.5``) fails as
    TensorFlow's kernel does: InvalidArgumentError naming both dtypes; other ops with the
    conversion's TypeError (``Cannot convert 1.5 to EagerTensor of dtype int32``)."""
    try:
        return _eager_input(x, dtype)
    except TypeError:
        # TensorFlow's add converts the Python value on its own (the kernel then refuses the
        # dtypes); its other binary ops convert it to the tensor's dtype (a TypeError)
        if not (opdef.same_dtype and before) or dtype is None or opdef.type != "AddV2":
            raise
    own = _eager_input(x, None)
    if own._dtype is before[0]._dtype:
        raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (x, dtype))
    return own


def _execute(opdef: Any, inputs: Any, attrs: dict, dtype: Any) -> Any:
    """Runs the kernel now on eager values; returns EagerTensor(s), recorded on active tapes.

    The hot path of eager mode: one- and two-input ops with one output take the shortest
    way (no comprehensions, one check whether a tape or check-numerics observes ops)."""
    n_in = len(inputs)
    if n_in == 2:
        a, b = inputs
        if type(a) is not EagerTensor:
            a = _eager_input(a, dtype)
        if type(b) is not EagerTensor:
            b = _eager_operand(opdef, b, dtype, [a])
        tensors = [a, b]
        if opdef.same_dtype and a._dtype is not b._dtype:
            raise _dtype_mismatch(opdef, tensors)
    elif n_in == 1:
        a = inputs[0]
        if type(a) is not EagerTensor:
            a = _eager_input(a, dtype)
        tensors = [a]
    else:
        tensors = [x if type(x) is EagerTensor else _eager_input(x, dtype) for x in inputs]
        if opdef.same_dtype and n_in > 1:
            d0 = tensors[0]._dtype
            for t in tensors:
                if t._dtype is not d0:
                    raise _dtype_mismatch(opdef, tensors)
    kernel = opdef.kernel
    if kernel is None:
        raise RuntimeError("Op %s cannot run eagerly." % opdef.type)
    if opdef.updates:
        return _execute_update(opdef, inputs, tensors, attrs)
    fp = fp_state.quiet()       # no NumPy RuntimeWarnings from kernels, as in TensorFlow
    try:
        if opdef.rng:
            out = kernel(eager_rng(opdef.type, attrs, tensors), *[t._value for t in tensors],
                         **attrs)
        elif n_in == 2:
            out = kernel(a._value, b._value, **attrs)
        elif n_in == 1:
            out = kernel(a._value, **attrs)
        else:
            out = kernel(*[t._value for t in tensors], **attrs)
    except errors.OpError as e:
        if e.op is not None or "[Op:" in e.message:
            raise
        raise type(e)(e.node_def, None, "%s [Op:%s]" % (e.message, opdef.type)) from e
    except _KERNEL_ERRORS as e:
        raise _eager_error(opdef, tensors, attrs, e) from e
    finally:
        fp_state.restore(fp)
    n = opdef.num_outputs
    if n == 1:
        t = EagerTensor(out)
        if state.tapes or state.check_numerics:
            _observe(opdef, tensors, [t], attrs)
        return t
    if n.__class__ is not int:
        n = n(attrs)
    # The kernel returns one value for one output (as the plan expects), a sequence for more.
    outs = [EagerTensor(out)] if n == 1 else [EagerTensor(v) for v in out] if n else []
    if outs and (state.tapes or state.check_numerics):
        _observe(opdef, tensors, outs, attrs)
    if n == 1:
        return outs[0]
    return outs if n else None


def _observe(opdef: Any, tensors: list, outs: list, attrs: dict) -> None:
    """Numerics checks (flowgrad.debug) and tape recording of an eager op's outputs."""
    if state.check_numerics:
        hooks.check_eager_numerics(opdef, tensors, outs)
    if state.tapes:
        hooks.record_operation(opdef, tensors, outs, attrs)


_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError)


def _eager_error(opdef: Any, tensors: list, attrs: dict, e: Exception) -> errors.OpError:
    """TensorFlow's eager error for a failing kernel: the shape rule's message if it objects."""
    msg = str(e)
    try:
        opdef.infer(tensors, attrs)
    except (ValueError, TypeError) as bad:
        msg = getattr(bad, "kernel_message", None) or str(bad)
    return errors.InvalidArgumentError(None, None, "%s [Op:%s]" % (msg, opdef.type))


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
# Attrs that are inputs in TensorFlow (not part of its kernel cache key).
_INPUT_ATTRS = frozenset({"shape", "num_samples"})


def eager_rng(op_type: str, attrs: dict, tensors: list = ()) -> Any:
    """The generator of an eager random op, as TensorFlow's eager kernel cache keeps it: one
    Philox stream per op type, attrs (``seed``, ``seed2``, dtypes) and input dtypes, so
    the same op with the same seeds continues its stream from call to call."""
    key = (op_type, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                 for k, v in attrs.items() if k not in _INPUT_ATTRS)),
           tuple(t._dtype for t in tensors))
    rng = _eager_rngs.get(key)
    if rng is None:
        rng = PhiloxStream(attrs.get("seed", 0), attrs.get("seed2", 0))
        _eager_rngs[key] = rng
    return rng


def op_rng(op: Any) -> PhiloxStream:
    """A new generator for the random op ``op`` of a graph (its own kernel's stream)."""
    return PhiloxStream(op._attrs.get("seed", 0), op._attrs.get("seed2", 0))


def _graph_constant(value: np.ndarray, dtype: Any, name: str | None) -> Tensor:
    """A Const op holding ``value`` in the default graph (``constant()`` in graph mode)."""
    return apply_op("Const", [], {"value": value, "dtype": dtype}, name=name)


hooks.register(graph_constant=_graph_constant)
