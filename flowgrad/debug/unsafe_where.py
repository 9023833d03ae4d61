"""The warning for ``tf.where`` over a branch whose gradient blows up where it is masked.

``tf.where(x > 0, tf.sqrt(x), 0.)`` has a finite value everywhere, but its gradient
is NaN at x = 0: the where passes a zero gradient to the masked branch, and Sqrt's
gradient there is 0 * inf = NaN. The backward pass calls ``warn_unsafe_where`` when
it builds the gradient of a where/select, in graph mode."""
from __future__ import annotations

import warnings
import weakref
from typing import Any

from flowgrad.debug._where import created_at
from flowgrad.framework import hooks
from flowgrad.framework.context import user_frame
from flowgrad.autodiff.backprop import gradient_origin
from flowgrad.ops.math_ops import LIBRARY_WHERES


class NumericsWarning(UserWarning):
    """A construct whose value or gradient can become NaN or infinite."""


# op type -> indices of the inputs at which its derivative is singular (0, negatives)
_SINGULAR = {"Sqrt": (0,), "Rsqrt": (0,), "Log": (0,), "Log1p": (0,), "Reciprocal": (0,),
             "Inv": (0,), "RealDiv": (1,), "Div": (1,), "TrueDiv": (1,), "Pow": (0,),
             "Acos": (0,), "Asin": (0,), "Atanh": (0,), "Acosh": (0,)}
_EXAMPLES = {"RealDiv": "a / safe", "Div": "a / safe", "TrueDiv": "a / safe",
             "Pow": "tf.pow(safe, p)", "Reciprocal": "1 / safe"}
_SELECT_TYPES = ("Select", "SelectV2")
_SAFE_SOURCES = ("Const", "Fill", "OnesLike", "Select", "SelectV2", "Exp")
_NONNEGATIVE = ("Exp", "Square", "Abs", "Relu", "Relu6", "Softplus", "Sigmoid", "Sqrt",
                "Softmax")      # safe inputs of Log1p, singular only at -1
_DEPTH = 4
_warned: weakref.WeakSet = weakref.WeakSet()


def unsafe_branch_ops(op: Any) -> list:
    """(branch name, singular op) pairs for a Select op's branches whose singular
    operand is not guarded by an inner where (the double-where rewrite).

    Args:
        op: A Select (``tf.where``) op of a graph.

    Returns:
        A list of (branch name, op) pairs; empty when both branches are safe.
    """
    found = []
    for name, t in (("true", op.inputs[1]), ("false", op.inputs[2])):
        seen: set = set()
        frontier = [t.op]
        for _ in range(_DEPTH):
            nxt = []
            for o in frontier:
                if o in seen or o.type in _SELECT_TYPES:
                    continue
                seen.add(o)
                for i in _SINGULAR.get(o.type, ()):
                    src = o.inputs[i].op.type
                    if src not in _SAFE_SOURCES and not (o.type == "Log1p" and
                                                         src in _NONNEGATIVE):
                        found.append((name, o))
                nxt.extend(t_in.op for t_in in o.inputs)
            frontier = nxt
    return found


def warn_unsafe_where(op: Any) -> None:
    """Warns once per op when a where's branch has a sqrt/log/div/pow that can blow up
    on the masked side, suggesting the double-where rewrite.

    Args:
        op: A Select (``tf.where``) op of a graph.
    """
    if op in _warned or not hasattr(op.inputs[0], "op") or gradient_origin(op) is not None \
            or op in LIBRARY_WHERES:
        return              # eager records, and wheres built by gradient or library functions
    _warned.add(op)
    unsafe = unsafe_branch_ops(op)
    if not unsafe:
        return
    branch, bad = unsafe[0]
    x = bad.inputs[_SINGULAR[bad.type][0]]
    msg = ("gradient of tf.where '%s' (%s): its %s branch goes through %s '%s' (%s), whose "
           "derivative is infinite or NaN where its input %s is 0 or out of its domain. Where "
           "the condition masks that branch out, the where sends it a zero gradient and "
           "0 * inf = NaN poisons the result, although the forward value is fine. Use the "
           "double-where rewrite: make the input safe first, e.g. safe = tf.where(cond, x, "
           "tf.ones_like(x)); y = tf.where(cond, %s, other)."
           % (op.name, created_at(op), branch, bad.type, bad.name, created_at(bad), x.name,
              _EXAMPLES.get(bad.type, "tf.%s(safe)" % bad.type.lower())))
    frame = user_frame()
    if frame is None:
        warnings.warn(msg, NumericsWarning, stacklevel=2)
    else:
        warnings.warn_explicit(msg, NumericsWarning, frame[0], frame[1])


hooks.register(warn_unsafe_where=warn_unsafe_where)
