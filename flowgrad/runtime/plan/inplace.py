"""In-place safety, flowgrad's destroy handler: where a plan may write an update into the
arrays of a variable and its slots instead of new ones. An update site is rewritten only
when the runner owns the arrays, no other input of the op may share them, nothing after it
may raise (a failed run leaves every variable as it was) and nothing after it reads a
snapshot of the old value."""
from __future__ import annotations

import collections
import re
from collections.abc import Callable, MutableMapping
from typing import Any

import numpy as np

from flowgrad.framework.graph import Operation
from flowgrad.runtime.plan.overlap import in_halves

LOCAL = re.compile(r"\b[stf]\d+\b")     # the generated names of values (state, temps, feeds)


def owner(owned: MutableMapping) -> Callable:
    """``_own(var_op, value)``: value when the runner owns it, else an owned copy of it."""
    def own(vop: Operation, value: Any) -> Any:
        if owned.get(vop) is value:
            return value
        value = np.array(value, copy=True)
        owned[vop] = value
        return value
    return own


def may_raise(op: Operation) -> bool:
    """Whether ``op``'s kernel may raise at run time: False only where the static shapes of
    its inputs prove it cannot (a dense update whose inputs are the variable's shape or
    scalars; an op registered ``may_fail=False`` with fully known shapes)."""
    shapes = [t.shape.as_tuple() for t in op.inputs]
    if any(s is None or None in s for s in shapes):
        return True
    if op._def.updates:
        return any(s != shapes[0] and s != () for s in shapes)
    return op._def.may_fail


def shape_may_change(ops: set) -> bool:
    """Whether a variable among ``ops`` may hold a value of another shape than its static
    one (the graph assigns it with ``validate_shape=False``)."""
    return any(c._def.updates and not c._attrs.get("validate_shape", True)
               for op in ops if op._def.variable for c in op.outputs[0]._consumers)


def inplace_site(op: Operation, args: list, roots: dict, escaped: set, gname: Callable,
                 line: str, kname: str, halves: bool) -> tuple | None:
    """For an update op just emitted as ``line`` (its kernel bound as ``kname``):
    (the versions it writes, its in-place form), when the op has an in-place kernel and no
    other input may share the arrays it writes (whether a later line still reads them is
    decided by ``make_inplace``); with ``halves``, the worker thread updates half of the
    rows. None where it must stay as it is."""
    d, ins = op._def, op._inputs
    kernel = d.bound_inplace(op._attrs)
    if kernel is None:
        return None
    if halves:
        kernel = in_halves(kernel, len(d.updates))
    versions = [args[k] for k in d.updates]
    if len(set(versions)) != len(versions) or escaped.intersection(versions) or any(
            ins[k].shape.rank in (None, 0) for k in d.updates):
        return None
    for k, a in enumerate(args):
        if k not in d.updates and roots.get(a, frozenset()).intersection(versions):
            return None
    new_args = list(args)
    for k in d.updates:
        new_args[k] = "_own(%s, %s)" % (gname("K", ins[k].op), args[k])
    code, comment = line.split("  # ", 1)
    code = code.replace(kname, gname("k", kernel), 1).replace(
        ", ".join(args), ", ".join(new_args), 1)
    return frozenset(versions), "%s  # %s" % (code, comment)


def make_inplace(body: list, sites: list, roots: dict, escaped: set, result: str,
                 may_raise: list) -> None:
    """Rewrites each update site ``(body index, versions, in-place line)`` to its in-place
    form where nothing after it may raise and nothing after it reads an array it writes
    through a name bound before it (a snapshot of the old value)."""
    if not sites:
        return
    defined: dict = {}                  # local -> the line binding it first
    last_read: dict = {}                # local -> the last line reading it (the result: last)
    for i, line in enumerate(body):
        code = line.split("  # ", 1)[0]
        lhs, eq, rhs = code.partition(" = ")
        if not eq or lhs.lstrip().startswith("if "):
            lhs, rhs = "", code
        for n in LOCAL.findall(lhs):
            defined.setdefault(n, i)
        for n in LOCAL.findall(rhs):
            last_read[n] = i
    for n in LOCAL.findall(result):
        last_read[n] = len(body)
    last_raise = max((i for i, r in enumerate(may_raise) if r), default=-1)
    sharing = collections.defaultdict(list)     # version -> the locals that may share it
    for n, r in roots.items():
        for v in r:
            sharing[v].append(n)
    for i, versions, line in sites:
        if escaped & versions or last_raise > i:
            continue
        if any(defined.get(n, -1) < i and last_read.get(n, -1) > i
               for v in versions for n in sharing[v]):
            continue                    # a snapshot of the old value is read later
        body[i] = line
