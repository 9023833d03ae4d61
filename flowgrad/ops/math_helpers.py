"""Helpers shared by the math op families: the dtype kinds an op accepts (rejecting others
with TensorFlow's error class), and the wrappers that convert Python values to the other
input's dtype and apply a unary or binary op."""
from __future__ import annotations

from typing import Any

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor, infer_dtype, is_tensor
from flowgrad.ops.array_ops import _as_value


_KIND_TYPES = {"f": "bfloat16, half, float32, float64", "c": "complex64, complex128",
               "i": "int8, int16, int32, int64", "u": "uint8, uint16, uint32, uint64",
               "b": "bool", "O": "string"}
_FLOATING = "fc"    # dtype kinds accepted by an op: floating point (and complex)
_REAL = "fiu"       # ... real numbers
_NUMERIC = "fciu"   # ... any number (not bool or string)
_SIGNED = "fci"     # ... any signed number (TensorFlow's Abs, Neg, Sign, Pow, ...)
_BOOL = "b"


# Op signatures as TensorFlow's attr errors show them (the others: the first line only).
_SIGNATURES = {"x": "x:T -> y:T", "x, y": "x:T, y:T -> z:T"}


def attr_type_error(op_type: str, dtype: dtypes.DType, allowed: list,
                    signature: str | None = None) -> str:
    """TensorFlow's eager message for an op that does not take ``dtype``: ``Value for attr
    'T' of int32 is not in the list of allowed values: ...``, with the NodeDef line where the
    op's ``signature`` (``x:T -> y:T``) is known.

    Args:
        op_type: The op's type name.
        dtype: The DType given.
        allowed: The DTypes the op takes, in TensorFlow's order.
        signature: The op's signature text, if known.
    """
    message = "Value for attr 'T' of %s is not in the list of allowed values: %s" % (
        errors.dtype_text(dtype), ", ".join(errors.dtype_text(d) for d in allowed))
    if signature is not None:
        message += ("\n\t; NodeDef: {{node %s}}; Op<name=%s; signature=%s; attr=T:type,"
                    "allowed=[%s]>" % (op_type, op_type, signature,
                                       ", ".join("DT_" + errors.dtype_text(d).upper()
                                                 for d in allowed)))
    return message + " [Op:%s]" % op_type


def _check_kind(op_type: str, arg: str, dt: dtypes.DType, kinds: str,
                inputs: str | None = None) -> None:
    """Raises TensorFlow's error when ``op_type`` does not accept dtype ``dt``: a TypeError
    while building a graph, an InvalidArgumentError (also a TypeError) in eager mode, with
    TensorFlow's eager message (``inputs``: the op's input names, ``"x"`` or ``"x, y"``, for
    its signature)."""
    if dt.kind in kinds:
        return
    if kinds == _BOOL:
        raise argument_error("Input '%s' of '%s' Op has type %s that does not match expected "
                             "type of bool." % (arg, op_type, dt.name), TypeError)
    allowed = ", ".join(_KIND_TYPES[k] for k in kinds)
    if executing_eagerly():
        raise argument_error(attr_type_error(
            op_type, dt, [dtypes.as_dtype(n) for n in allowed.split(", ")],
            _SIGNATURES.get(inputs)), TypeError)
    raise argument_error("Value passed to parameter '%s' has DataType %s not in list of "
                         "allowed values: %s (op %s)" % (arg, dt.name, allowed, op_type),
                         TypeError)


def _dtype_of(x: Any) -> dtypes.DType:
    if not is_tensor(x):
        return infer_dtype(x)
    dt = x.dtype      # a DType; a tensor-like object's may be its name (Keras 3 Variables)
    return dt.base_dtype if isinstance(dt, dtypes.DType) else dtypes.as_dtype(dt)


def _binary(op_type: str, x: Any, y: Any, name: str | None, kinds: str | None = None) -> Any:
    """Applies a same-dtype binary op, converting Python values to the other input's dtype.

    ``kinds`` (NumPy dtype kinds, e.g. "fc") restricts the dtypes the op accepts."""
    if type(x) is EagerTensor and type(y) is EagerTensor:
        dt = x._dtype
    else:
        x, y = _as_value(x), _as_value(y)
        if type(x) is EagerTensor:
            dt = x._dtype
        else:
            dt = _dtype_of(y) if is_tensor(y) and not is_tensor(x) else _dtype_of(x)
    if kinds is not None and dt.kind not in kinds:
        _check_kind(op_type, "x", dt, kinds, "x, y")
    return apply_op(op_type, (x, y), name=name, dtype=dt)


def _unary(op_type: str, x: Any, name: str | None, kinds: str | None = None) -> Any:
    if type(x) is not EagerTensor:
        x = _as_value(x)
    if kinds is not None:
        dt = x._dtype if type(x) is EagerTensor else _dtype_of(x)
        if dt.kind not in kinds:
            _check_kind(op_type, "x", dt, kinds, "x")
    return apply_op(op_type, (x,), name=name)


def _pair(x: Any, y: Any) -> tuple:
    """``x`` and ``y`` as tensors; a non-tensor takes the other one's dtype."""
    x, y = _as_value(x), _as_value(y)
    dt = _dtype_of(y) if is_tensor(y) and not is_tensor(x) else _dtype_of(x)
    return convert_to_tensor(x, None if is_tensor(x) else dt, name="x"), \
        convert_to_tensor(y, None if is_tensor(y) else dt, name="y")


def _skipped_inputs(op: Any) -> tuple:
    """The inputs whose gradient nobody needs (an eager tape's ``skip_input_indices``); a
    gradient function may return None for them, as TensorFlow's do."""
    return getattr(op, "skip_input_indices", None) or ()


def _same_shape(ins: list, attrs: dict) -> tuple:
    """Fused gradient ops: output like input 0, whose shape must match input 1's."""
    return ins[0].dtype.base_dtype, ins[0].shape.merge_with(ins[1].shape)
