"""The text of a traced function's signature, as TensorFlow's ``FunctionType`` prints it.

``Function.pretty_printed_concrete_signatures()`` and ``ConcreteFunction.
pretty_printed_signature()`` show each trace's parameters (a ``TensorSpec`` for a tensor,
``Literal[value]`` for a Python value, ``List[...]``/``Tuple[...]``/``Dict[...]`` for
containers), its output and its captures, in TensorFlow's words::

    Input Parameters:
      x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
    Output Type:
      TensorSpec(shape=(), dtype=tf.float32, name=None)
    Captures:
      None
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from flowgrad.framework.composite_tensor import TypeSpec
from flowgrad.framework.tensor import Tensor
from flowgrad.framework.tensor_shape import as_shape


def type_text(value: Any) -> str:
    """The type TensorFlow shows for an argument or output: a spec for a tensor, the
    container's kind with its items' types, ``Literal[value]`` for a Python value."""
    if isinstance(value, TypeSpec):
        return repr(value)
    if isinstance(value, Tensor) or (hasattr(value, "shape") and hasattr(value, "dtype")
                                     and hasattr(value.dtype, "base_dtype")):
        return "TensorSpec(shape=%s, dtype=tf.%s, name=None)" % (
            as_shape(value.shape), value.dtype.base_dtype.name)
    if isinstance(value, dict):
        return "Dict[%s]" % ", ".join("[%r, %s]" % (k, type_text(v)) for k, v in value.items())
    if isinstance(value, list):
        return "List[%s]" % ", ".join(type_text(v) for v in value)
    if isinstance(value, tuple):
        return "Tuple[%s]" % ", ".join(type_text(v) for v in value)
    return "Literal[%r]" % (value,)


def parameters(fn: Callable, args: tuple, kwargs: dict) -> list:
    """``[(name, kind, argument)]`` of a call of ``fn`` (defaults filled in), in the order of
    ``fn``'s parameters; ``args_<i>`` names where ``fn`` has no signature to bind to."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return [("args_%d" % i, "POSITIONAL_ONLY", a) for i, a in enumerate(args)] + \
            [(k, "KEYWORD_ONLY", v) for k, v in kwargs.items()]
    bound.apply_defaults()
    params = bound.signature.parameters
    return [(name, params[name].kind.name, value) for name, value in bound.arguments.items()]


def signature_text(params: list, outputs: Any, captures: list, verbose: bool = True) -> str:
    """A trace's signature: ``params`` from :func:`parameters`, its structured ``outputs``
    and the variables it captures."""
    if not verbose:
        parts = []
        for n, kind, v in params:
            if kind == "KEYWORD_ONLY" and "*" not in parts:
                parts.append("*")
            parts.append("%s: %s" % (n, type_text(v)))
        return "(%s) -> %s" % (", ".join(parts), type_text(outputs))
    lines = ["Input Parameters:"]
    lines += ["  %s (%s): %s" % (n, kind, type_text(v)) for n, kind, v in params]
    lines += ["Output Type:", "  " + type_text(outputs), "Captures:"]
    lines += ["  %d: TensorSpec(shape=(), dtype=tf.resource, name=None)" % id(v)
              for v in captures] or ["  None"]
    return "\n".join(lines)


__all__ = ["type_text", "parameters", "signature_text"]
