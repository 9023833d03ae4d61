"""Helpers shared by the array op families: static values of shape-like arguments,
error messages, and JVP rules that only re-apply an op.

Builds no op of its own, so every array op module can import it."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors, hooks
from flowgrad.framework.graph import Operation
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import EagerTensor, Tensor, convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape, dimension_value
from flowgrad.framework.type_hints import TensorLike



# --------------------------------------------------------------------------------------
# Helpers used by gradient functions across op families


def static_shape(x: TensorLike) -> tuple | None:
    """The fully known shape of ``x`` as a tuple, else None.

    Args:
        x: A tensor.

    Returns:
        Its shape as a tuple of ints, or None when any dimension is unknown.
    """
    s = x.shape.as_tuple()
    return s if s is not None and None not in s else None


# --------------------------------------------------------------------------------------
# Helpers used by forward-mode (JVP) rules across op families. A rule is
# ``rule(op, *input_tangents) -> output tangent(s)`` (None: zero tangent), registered with
# ``register_jvp`` after the op's gradient and built from ordinary ops so that it can be
# differentiated again; an op with a diagonal Jacobian (a unary elementwise op) registers
# ``jvp="elementwise"`` instead (its gradient applied to the tangent), and op types without
# either get their JVP from their gradient (``flowgrad.autodiff.forward_mode``).


def reapply(op: Operation, inputs: list) -> Any:
    """The op applied again, with its attributes, to other inputs.

    Args:
        op: The Operation to copy.
        inputs: The new inputs, one per input of ``op``.

    Returns:
        The new op's output(s).
    """
    return apply_op(op.type, inputs, dict(op._attrs))


def linear_in_first_jvp(op: Operation, t: TensorLike, *rest: Any) -> Any:
    """JVP rule of ops linear in input 0 whose other inputs are indices, shapes or axes.

    Args:
        op: The op whose JVP is taken.
        t: The tangent of its first input (None: zero).
        *rest: The tangents of its other inputs (ignored: they are not differentiable).

    Returns:
        The output tangent: the op applied to ``t``, or None.
    """
    if t is None:
        return None
    return reapply(op, [t] + list(op.inputs[1:]))


# --------------------------------------------------------------------------------------
# Argument values: variables and IndexedSlices as plain tensors, static int lists, casts


def _as_value(x: Any) -> Any:
    """Variables and IndexedSlices as plain tensors; other values unchanged."""
    if type(x) in _PLAIN:
        return x
    if hasattr(x, "_as_tensor") or type(x).__name__ == "IndexedSlices":
        return convert_to_tensor(x)
    return x


_PLAIN = frozenset((Tensor, EagerTensor, float, int, bool, np.ndarray, list, tuple))


def _static_int_list(v: Any) -> list | None:
    """A Python list of ints for a static shape-like value, else None."""
    if type(v) is tuple or type(v) is list:
        for d in v:
            if type(d) is not int:
                break
        else:
            return list(v)      # the common case: ints already
    if isinstance(v, TensorShape):
        return v.as_list() if v.is_fully_defined() else None
    if is_tensor(v):
        c = constant_value(v)
        return None if c is None else [int(d) for d in np.ravel(c)]
    if isinstance(v, (list, tuple)):
        if any(is_tensor(d) for d in v):
            vals = [constant_value(d) if is_tensor(d) else d for d in v]
            if any(d is None for d in vals):
                return None
            return [int(np.asarray(d)) for d in vals]
        return [int(d) for d in v]
    return [int(d) for d in np.ravel(v)]


# --------------------------------------------------------------------------------------
# Helpers for shape-like arguments: static attrs when known, int tensors otherwise


_UNKNOWN = object()     # a value not known when the graph is built (static shape rules)


def _fmt(shape: Any) -> str:
    """A shape the way TensorFlow's messages write it: [2,?,3]."""
    dims = as_shape(shape).as_tuple()
    if dims is None:
        return "<unknown>"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def _invalid(msg: str) -> errors.InvalidArgumentError:
    """The error a kernel raises for bad input values (TensorFlow's InvalidArgumentError)."""
    return errors.InvalidArgumentError(None, None, msg)


def _tensor_dtypes_in(v: Any) -> set:
    """The dtypes of the tensors inside a (nested) list."""
    if isinstance(v, (list, tuple)):
        return set().union(*map(_tensor_dtypes_in, v))
    return {_as_value(v).dtype.base_dtype} if is_tensor(v) else set()


def _cast_tensors_in(v: Any, dt: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_cast_tensors_in(x, dt) for x in v]
    return hooks.cast(v, dt) if is_tensor(v) else v


def _int_tensor(v: Any) -> Any:
    """An integer tensor for a shape-like argument (lists of tensors and ints are packed;
    int32 and int64 tensors in one list give int64)."""
    v = _as_value(v)
    if is_tensor(v):
        return v
    found = _tensor_dtypes_in(v)
    if len(found) > 1:
        return convert_to_tensor(_cast_tensors_in(v, dtypes.int64), dtypes.int64)
    return convert_to_tensor(v, found.pop() if found else dtypes.int32)


def _known_ints(v: Any, what: str) -> list | None:
    """The integers of a shape-like argument when known at graph-build time, else None.

    Builds no ops: tensors (also inside lists) count as known when constant."""
    if isinstance(v, TensorShape):
        return v.as_list() if v.is_fully_defined() else None
    c = _python_value(v, what)
    if c is None:
        return None
    arr = np.asarray(c)
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError("%s must be integers, got %r" % (what, v))
    return [int(d) for d in arr.ravel()]


def _python_value(v: Any, what: str) -> Any:
    """``v`` with its tensors replaced by their constant values; None if one is not known."""
    if isinstance(v, (list, tuple)):
        items = [_python_value(x, what) for x in v]
        return None if any(x is None for x in items) else items
    if is_tensor(v):
        v = _as_value(v)
        if not v.dtype.is_integer:
            raise TypeError("%s must be an int32 or int64 tensor, got a %s tensor"
                            % (what, v.dtype.base_dtype.name))
        c = constant_value(v)
        return None if c is None else np.asarray(c).tolist()
    return dimension_value(v)


def _known_scalar(v: Any, what: str) -> int | None:
    """A scalar integer argument (an axis) when known at graph-build time, else None."""
    vals = _known_ints(v, what)
    if vals is not None and len(vals) != 1:
        raise ValueError("%s must be a scalar, got %r" % (what, v))
    return None if vals is None else vals[0]


def _partial_ints(t: Tensor, n: int | None) -> list | None:
    """Per-element static values of an int vector tensor (``_UNKNOWN`` where not known)."""
    if n is None:
        return None
    c = constant_value(t)
    if c is not None:
        return [int(d) for d in np.ravel(c)]
    if isinstance(t, Tensor) and t.op.type == "Pack":
        vals = [constant_value(x) for x in t.op.inputs]
        return [_UNKNOWN if d is None else int(d) for d in vals]
    return [_UNKNOWN] * n


def _vector_length(t: Tensor) -> int | None:
    dims = t.shape.as_tuple()
    return dims[0] if dims is not None and len(dims) == 1 else None


def _norm_axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < rank:
        raise ValueError("%s: axis %d is out of range for a tensor of rank %d (expected an axis "
                         "in [%d, %d))" % (what, axis, rank, -rank, rank))
    return axis % rank


def _with_nones(first: Any, op: Any) -> list:
    """``first`` as the gradient of input 0 and None for the (shape-like) other inputs."""
    return [first] + [None] * (len(op.inputs) - 1)


# --------------------------------------------------------------------------------------
# Index dtypes


def _check_int_indices(t: Any, what: str, allowed: tuple = (dtypes.int32, dtypes.int64)) -> None:
    if t.dtype.base_dtype not in allowed:
        raise argument_error("Value passed to parameter '%s' has DataType %s not in list of "
                             "allowed values: %s" % (what, t.dtype.base_dtype.name,
                                                     ", ".join(d.name for d in allowed)),
                             TypeError)
