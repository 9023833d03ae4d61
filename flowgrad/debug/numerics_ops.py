"""The CheckNumerics op: ``tf.debugging.check_numerics`` and ``tf.add_check_numerics_ops``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import control_dependencies, get_default_graph
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import unary
from flowgrad.ops.array_ops import _as_value
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


def _check_numerics_kernel(x: Any, *, message: str) -> Any:
    finite = np.isfinite(x)
    if not finite.all():
        has_nan, has_inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
        what = "Inf and NaN" if has_nan and has_inf else ("NaN" if has_nan else "Inf")
        raise errors.InvalidArgumentError(None, None, "%s : Tensor had %s values"
                                          % (message, what))
    return x


def _check_numerics_infer(ins: list, attrs: dict) -> tuple:
    dt = ins[0].dtype.base_dtype
    if not dt.is_floating:
        raise TypeError("Value passed to parameter 'tensor' has DataType %s not in list of "
                        "allowed values: float16, bfloat16, float32, float64" % dt.name)
    return unary(ins, attrs)


@defop("CheckNumerics", _check_numerics_kernel, _check_numerics_infer, view=True,
       input_names=("tensor",), batching="elementwise")
def _check_numerics_grad(op: Any, grad: Any) -> Any:
    return check_numerics(grad, "Not a number (NaN) or infinity (Inf) values detected in "
                                "gradient. %s" % op.get_attr("message"))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def check_numerics(tensor: TensorLike, message: str, name: str | None = None) -> Any:
    """``tensor`` unchanged; running it raises InvalidArgumentError if it holds NaN or Inf.

    The gradient passes through, checked the same way.

    Args:
        tensor: A floating tensor.
        message: The prefix of the error message.
        name: A name for the operation (optional).
    """
    if not isinstance(message, str):
        raise TypeError("check_numerics: message must be a string, got %r" % (message,))
    return apply_op("CheckNumerics", [_as_value(tensor)], {"message": message}, name=name)


def verify_tensor_all_finite(t: Any = None, msg: str | None = None, name: str | None = None,
                             x: Any = None, message: str | None = None) -> Any:
    """``t`` checked by check_numerics (TF1's ``tf.verify_tensor_all_finite``).

    Args:
        t: A floating tensor.
        msg: The prefix of the error message.
        name: A name for the operation (optional).
        x: TensorFlow 2's name for ``t``.
        message: TensorFlow 2's name for ``msg``.
    """
    t = x if t is None else t
    msg = message if msg is None else msg
    return check_numerics(t, msg or "", name=name)


def add_check_numerics_ops() -> Any:
    """A group op running check_numerics on every float tensor of the default graph.

    As in TensorFlow, the checks are chained with control dependencies, each named
    after the tensor it checks ('op_name:index'); run the returned op with the
    training op (it needs the same feeds)."""
    if executing_eagerly():
        raise RuntimeError("add_check_numerics_ops() is not compatible with eager execution. "
                           "To check for Inf's and NaN's under eager execution, call "
                           "tf.debugging.enable_check_numerics() once before executing the "
                           "checked operations.")
    from flowgrad.ops.control_flow_ops import group
    check_op: list = []
    for op in get_default_graph().get_operations():
        for out in op.outputs:
            if out.dtype in (dtypes.float16, dtypes.float32, dtypes.float64):  # not refs
                with control_dependencies(check_op):
                    check_op = [check_numerics(out, message="%s:%d" % (op.name,
                                                                        out.value_index))]
    return group(*check_op)


__all__ = ["check_numerics", "verify_tensor_all_finite", "add_check_numerics_ops"]
