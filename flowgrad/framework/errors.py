"""TensorFlow's error classes (``tf.errors``)."""
from __future__ import annotations

from typing import Any


class OpError(Exception):
    """An error raised while running or building an op; carries the op if known.

    Args:
        node_def: The NodeDef of the op that failed, if known.
        op: The op that failed, if known.
        message: The error message.
        *args: Accepted for TensorFlow's signature (its error_code argument).
    """

    error_code = 2

    def __init__(self, node_def: Any = None, op: Any = None, message: str = "", *args: Any):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message


def _make(name: str, code: int) -> type:
    return type(name, (OpError,), {"error_code": code, "__module__": __name__})


CancelledError = _make("CancelledError", 1)
UnknownError = _make("UnknownError", 2)
InvalidArgumentError = _make("InvalidArgumentError", 3)
DeadlineExceededError = _make("DeadlineExceededError", 4)
NotFoundError = _make("NotFoundError", 5)
AlreadyExistsError = _make("AlreadyExistsError", 6)
PermissionDeniedError = _make("PermissionDeniedError", 7)
ResourceExhaustedError = _make("ResourceExhaustedError", 8)
FailedPreconditionError = _make("FailedPreconditionError", 9)
AbortedError = _make("AbortedError", 10)
OutOfRangeError = _make("OutOfRangeError", 11)
UnimplementedError = _make("UnimplementedError", 12)
InternalError = _make("InternalError", 13)
UnavailableError = _make("UnavailableError", 14)
DataLossError = _make("DataLossError", 15)
UnauthenticatedError = _make("UnauthenticatedError", 16)


# The error codes (TensorFlow's ``error_codes.proto``), as tf.errors shows them.
OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16

_CLASS_OF_CODE = {c.error_code: c for c in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
    AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError,
    DataLossError, UnauthenticatedError)}


def exception_type_from_error_code(error_code: int) -> type:
    """The OpError subclass of a TensorFlow error code (TF1's ``tf.errors``).

    Args:
        error_code: One of the codes above (``tf.errors.NOT_FOUND``, ...).

    Raises:
        KeyError: If the code is not one of TensorFlow's.
    """
    return _CLASS_OF_CODE[error_code]


def error_code_from_exception_type(cls: type) -> int:
    """The TensorFlow error code of an OpError subclass (TF1's ``tf.errors``).

    Args:
        cls: An OpError subclass.

    Raises:
        KeyError: If ``cls`` is not one of TensorFlow's error classes.
    """
    for code, c in _CLASS_OF_CODE.items():
        if issubclass(cls, c):
            return code
    raise KeyError(cls)


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation on a symbolic Tensor that only eager execution or AutoGraph allows
    (using it as a ``bool``, iterating over it)."""


def _eager_class(python_class: type) -> type:
    """An InvalidArgumentError that is also ``python_class`` (what graph building raises)."""
    return type("InvalidArgumentError", (InvalidArgumentError, python_class),
                {"__module__": __name__,
                 "__doc__": "InvalidArgumentError, also a %s." % python_class.__name__})


class ShapeRuleError(ValueError):
    """A shape rule's refusal: the ValueError of graph construction, carrying what
    TensorFlow's kernel says about the same inputs (``kernel_message``), which an eager op
    reports instead, as TensorFlow's eager ops run the kernel and not the shape function."""

    def __init__(self, message: str, kernel_message: str | None = None):
        super().__init__(message)
        self.kernel_message = kernel_message or message


def dims_text(shape: Any) -> str:
    """A shape as TensorFlow's kernels print it: ``[2,3]``."""
    return "[%s]" % ",".join("?" if d is None else str(d) for d in shape)


_KERNEL_DTYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def dtype_text(dtype: Any) -> str:
    """A dtype as TensorFlow's kernels name it (DataTypeString): ``float`` for float32."""
    return _KERNEL_DTYPE_NAMES.get(dtype.name, dtype.name)


# Eager execution raises TensorFlow's InvalidArgumentError where building a graph raises
# ValueError/TypeError; these are both, so either ``except`` clause sees them.
EAGER_ERROR_CLASSES = {ValueError: _eager_class(ValueError), TypeError: _eager_class(TypeError)}

__all__ = ["OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
           "DeadlineExceededError", "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
           "ResourceExhaustedError", "FailedPreconditionError", "AbortedError", "OutOfRangeError",
           "UnimplementedError", "InternalError", "UnavailableError", "DataLossError",
           "UnauthenticatedError", "OperatorNotAllowedInGraphError",
           "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
           "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
           "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
           "UNAUTHENTICATED"]


def __dir__() -> list:
    """``tf.errors`` (this module) shows TensorFlow's names, not flowgrad's helpers."""
    return sorted(__all__)
