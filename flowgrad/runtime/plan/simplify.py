"""The simplification pass of the plan compiler, asked op by op while the plan is emitted:
constant folding, x * 1, and common subexpressions (alias removal, which only renames,
is the emitter's). What it knows of an op comes from the op's registration."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.graph import Operation

FOLD_LIMIT = 1 << 22            # largest folded constant, in elements


class Simplifier:
    """The constants known so far (tensor -> value) and the ops already emitted, by what
    they compute."""

    def __init__(self, fold_constants: bool):
        self.fold_constants = fold_constants
        self.consts: dict = {}          # tensor -> constant value (folded)
        self._cse: dict = {}            # (type, argument names, attributes) -> op

    def fold(self, op: Operation) -> list | None:
        """The values of ``op``'s outputs when its inputs are all constants and its kernel
        gives them here (small enough to keep), else None (an error is left to run time,
        where it gets its context)."""
        d, ins = op._def, op._inputs
        if not (self.fold_constants and d.foldable and d.kernel is not None
                and all(t in self.consts for t in ins)):
            return None
        try:
            with np.errstate(all="ignore"):
                val = d.bound_kernel(op._attrs)(*[self.consts[t] for t in ins])
        except Exception:  # leave it to run time, where the error gets its context
            return None
        if val is None:
            return None
        outs = [val] if len(op.outputs) == 1 else list(val)
        return outs if all(np.size(v) <= FOLD_LIMIT for v in outs) else None

    def unit_operand(self, op: Operation) -> int | None:
        """For x * 1, the op's identity element (a constant that cannot change x's shape or
        dtype): x's index; None for other ops."""
        e = op._def.identity_element
        if e is None:
            return None
        ins = op._inputs
        for k in (0, 1):
            v, x = self.consts.get(ins[1 - k]), ins[k]
            if v is not None and np.size(v) == 1 and np.all(v == e) and x not in self.consts:
                r = x.shape.rank
                if r is not None and np.ndim(v) <= r and \
                        x.dtype.base_dtype is op.outputs[0].dtype.base_dtype:
                    return k
        return None

    def key(self, op: Operation, args: list) -> tuple | None:
        """What ``op`` computes from the values named ``args``; None for a stateful op,
        which is never merged."""
        if op._def.stateful:
            return None
        return (op.type, tuple(args), tuple(sorted((k, _attr_key(v))
                                                   for k, v in op._attrs.items())))

    def same_as(self, key: tuple | None) -> Operation | None:
        """An op already emitted that computes ``key``."""
        return None if key is None else self._cse.get(key)

    def emitted(self, key: tuple | None, op: Operation) -> None:
        if key is not None:
            self._cse[key] = op


def _attr_key(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return ("nd", v.dtype.str, v.shape, v.tobytes()) if v.size <= 64 else ("id", id(v))
    if isinstance(v, list):
        return tuple(_attr_key(x) for x in v)
    try:
        hash(v)
    except TypeError:
        return ("id", id(v))
    return v
