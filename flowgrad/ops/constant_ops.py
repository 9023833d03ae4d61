"""Constants, placeholders and pass-through ops: Const, Placeholder,
PlaceholderWithDefault, Identity, IdentityN, StopGradient."""
from __future__ import annotations

from typing import Any


from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.shape_rules import unary
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.type_hints import DTypeLike, ShapeLike
from flowgrad.ops.array_op_util import _as_value, linear_in_first_jvp
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# Constants, placeholders, identity


def _const_infer(ins: list, attrs: dict) -> tuple:
    v = attrs["value"]
    return attrs["dtype"], TensorShape(v.shape)


register_op("Const", lambda *, value, dtype: value, _const_infer, grad=_NO_GRADIENT,
            static_value=lambda op: op._attrs["value"])


def _placeholder_infer(ins: list, attrs: dict) -> tuple:
    return attrs["dtype"], attrs["shape"]


register_op("Placeholder", None, _placeholder_infer, grad=_NO_GRADIENT, stateful=True,
            must_feed=True)


def placeholder(dtype: DTypeLike, shape: ShapeLike = None, name: str | None = None) -> Tensor:
    """Inserts a placeholder for a tensor that will always be fed, as TF1's ``tf.placeholder``.

    Example:

        >>> tf1 = tf.compat.v1
        >>> with tf1.Graph().as_default():
        ...     x = tf1.placeholder(tf.float32, shape=[None, 2])
        ...     y = tf.reduce_sum(x, axis=1)
        ...     with tf1.Session() as sess:
        ...         print(sess.run(y, {x: [[1.0, 2.0], [3.0, 4.0]]}))
        [3. 7.]

    Args:
        dtype: The element type of the tensor to feed.
        shape: The shape of the tensor to feed; None (or None dimensions) takes any.
        name: A name for the operation.

    Returns:
        A ``Tensor`` to feed through ``Session.run``'s ``feed_dict``.

    Raises:
        RuntimeError: called in eager mode (use ``tf.compat.v1.disable_eager_execution``).
    """
    if executing_eagerly():
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    return apply_op("Placeholder", [], {"dtype": dtypes.as_dtype(dtype),
                                        "shape": as_shape(shape)}, name=name)


@defop("PlaceholderWithDefault", lambda x, **_: x,
       lambda ins, attrs: (ins[0].dtype.base_dtype, attrs["shape"]), view=True, stateful=True,
       alias=True, input_names=("input",))
def _placeholder_with_default_grad(op: Any, grad: Any) -> Any:
    return grad


def placeholder_with_default(input: TensorLike, shape: ShapeLike | TensorLike,
                             name: str | None = None) -> Tensor:
    """A placeholder that yields ``input`` when it is not fed.

    Args:
        input: The value when nothing is fed.
        shape: The shape of the placeholder (may be less defined than ``input``'s).
        name: A name for the operation (optional).
    """
    x = convert_to_tensor(input)
    shape = as_shape(shape)
    if not shape.is_compatible_with(x.shape):
        raise ValueError("Shape %s of the default is not compatible with %s" % (x.shape, shape))
    return apply_op("PlaceholderWithDefault", [x], {"shape": shape}, name=name)


@defop("Identity", lambda x: x, unary, view=True, alias=True, may_fail=False,
       input_names=("input",), batching="elementwise")
def _identity_grad(op: Any, grad: Any) -> Any:
    return grad


register_jvp("Identity", linear_in_first_jvp)


@dispatch.add_dispatch_support
def identity(input: TensorLike, name: str | None = None) -> Any:
    """Returns a tensor with the same value as ``input``.

    Args:
        input: A tensor (or a variable).
        name: A name for the operation (optional).
    """
    return apply_op("Identity", [_as_value(input)], name=name)


register_op("StopGradient", lambda x: x, unary, grad=_NO_GRADIENT, view=True, alias=True,
            input_names=("input",), batching="elementwise")


def stop_gradient(input: TensorLike, name: str | None = None) -> Any:
    """The identity forward; blocks every gradient flowing back through it.

    Args:
        input: A tensor.
        name: A name for the operation (optional).
    """
    return apply_op("StopGradient", [_as_value(input)], name=name)


# --------------------------------------------------------------------------------------
# identity_n


def _identity_n_infer(ins: list, attrs: dict) -> list:
    return [(t.dtype.base_dtype, t.shape) for t in ins]


@defop("IdentityN", lambda *xs, N: xs if N != 1 else xs[0], _identity_n_infer, view=True,
       num_outputs=lambda attrs: attrs["N"], input_names=("input",))
def _identity_n_grad(op: Any, *grads: Any) -> Any:
    return list(grads)


def identity_n(input: list, name: str | None = None) -> list:
    """Identities of a list of tensors, as one op.

    Args:
        input: A list of tensors.
        name: A name for the operation (optional).
    """
    values = [_as_value(v) for v in input]
    out = apply_op("IdentityN", values, {"N": len(values)}, name=name)
    return [out] if len(values) == 1 else list(out)
