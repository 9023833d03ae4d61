"""``tf.linalg.tensor_diag`` and ``tensor_diag_part`` (TensorFlow 1's ``tf.diag`` /
``tf.diag_part``): the ops Diag and DiagPart, a rank-k tensor put on (or read off) the
diagonal of a rank-2k one, each the other's gradient."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import _as_value


def _diag_kernel(d: Any) -> Any:
    d = np.asarray(d)
    if d.ndim == 0:
        raise InvalidArgumentError(None, None, "Input must be at least rank 1, got 0")
    n = d.size
    out = np.zeros((n, n), d.dtype)
    out[np.arange(n), np.arange(n)] = d.reshape(-1)
    return out.reshape(d.shape + d.shape)


def _diag_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    if s.rank == 0:
        raise argument_error("Input must be at least rank 1, got 0")
    dims = None if s.rank is None else s.as_list() * 2
    return ins[0].dtype.base_dtype, TensorShape(dims)


def _diag_part_kernel(x: Any) -> Any:
    x = np.asarray(x)
    message = _diag_part_problem(list(x.shape))
    if message:
        raise InvalidArgumentError(None, None, message)
    k = x.ndim // 2
    n = int(np.prod(x.shape[:k], dtype=np.int64))
    return np.array(x.reshape(n, n).diagonal().reshape(x.shape[:k]))


def _diag_part_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    if s.rank is None:
        return ins[0].dtype.base_dtype, TensorShape(None)
    dims = s.as_list()
    message = _diag_part_problem(dims)
    if message:
        raise argument_error(message)
    k = len(dims) // 2
    out = [a if a is not None else b for a, b in zip(dims[:k], dims[k:])]
    return ins[0].dtype.base_dtype, TensorShape(out)


def _diag_part_problem(dims: list) -> str | None:
    """TensorFlow's message for a shape DiagPart rejects, None for a good one."""
    text = str(dims).replace(" ", "").replace("None", "?")
    if len(dims) % 2:
        return ("The rank of the tensor should be" + " " * 42       # TensorFlow's spacing
                + "even and positive, got shape %s" % text)
    k = len(dims) // 2
    for i in range(k):
        a, b = dims[i], dims[i + k]
        if a is not None and b is not None and a != b:
            return "Invalid shape %s: dimensions %d and %d do not match." % (text, i, i + k)
    return None


@defop("Diag", _diag_kernel, _diag_infer, input_names=("diagonal",))
def _diag_grad(op: Any, grad: Any) -> Any:
    return tensor_diag_part(grad)


@defop("DiagPart", _diag_part_kernel, _diag_part_infer, input_names=("input",))
def _diag_part_grad(op: Any, grad: Any) -> Any:
    return tensor_diag(grad)


def tensor_diag(diagonal: TensorLike, name: str | None = None) -> TensorBase:
    """A tensor with ``diagonal`` on its diagonal: for ``diagonal`` of shape
    ``[D1, ..., Dk]`` the result has shape ``[D1, ..., Dk, D1, ..., Dk]`` and
    ``output[i1, ..., ik, i1, ..., ik] = diagonal[i1, ..., ik]``, zeros elsewhere.

    Args:
        diagonal: A tensor of rank at least 1.
        name: A name for the operation (optional).

    Returns:
        A tensor of ``diagonal``'s dtype and twice its rank.

    Raises:
        ValueError: ``diagonal`` is a scalar (InvalidArgumentError eagerly).
    """
    return apply_op("Diag", [convert_to_tensor(_as_value(diagonal), name="diagonal")],
                    name=name)


def tensor_diag_part(input: TensorLike, name: str | None = None) -> TensorBase:  # noqa: A002
    """The diagonal of a tensor of shape ``[D1, ..., Dk, D1, ..., Dk]``: the inverse of
    ``tensor_diag``.

    Args:
        input: A tensor of even rank whose first and second halves of dimensions match.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``[D1, ..., Dk]`` and ``input``'s dtype.

    Raises:
        ValueError: the rank is odd or the halves differ (InvalidArgumentError eagerly).
    """
    return apply_op("DiagPart", [convert_to_tensor(_as_value(input), name="input")], name=name)
