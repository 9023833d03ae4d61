"""The one backward walk over a graph: the ops some tensors or ops depend on.

The plan compiler's pruning, ``tf.function``'s argument pruning, inlining a traced function,
the gradient explainer and the distributed trainer's graph check all ask the same question
("which ops does this depend on?"), each with its own edge to stop at; they ask it here.
"""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import Any

from flowgrad.framework.graph import Operation

_NOTHING: frozenset = frozenset()


def ancestors(roots: Iterable[Any], stop: Container = _NOTHING, control: bool = True,
              visit: Callable[[Operation], bool] | None = None) -> set:
    """The ops ``roots`` depend on: the roots' ops and every op reached backward from them.

    Args:
      roots: Tensors and Operations; a tensor stands for the op that makes it.
      stop: Tensors not to walk through: a root or an input in ``stop`` adds nothing (the
        values a ``Session.run`` feeds, the inputs of a traced function).
      control: Whether to follow control inputs as well as data inputs.
      visit: Called with each op found, once; when it returns True the walk does not go on
        past that op (its inputs are not walked). None walks on everywhere.

    Returns:
      The set of Operations found, roots included.
    """
    found: set = set()
    stack = [r if isinstance(r, Operation) else r.op for r in roots
             if isinstance(r, Operation) or r not in stop]
    while stack:
        op = stack.pop()
        if op in found:
            continue
        found.add(op)
        if visit is not None and visit(op):
            continue
        for t in op._inputs:
            if t not in stop and t.op not in found:
                stack.append(t.op)
        if control:
            stack.extend(c for c in op.control_inputs if c not in found)
    return found
