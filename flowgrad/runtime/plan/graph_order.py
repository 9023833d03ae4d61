"""The graph-order pass of the plan compiler: the ops a plan needs (pruning), one order to
run them in (updates as late as possible), and the checks made on that set."""
from __future__ import annotations

import collections
import heapq
from typing import Any

from flowgrad.framework import errors
from flowgrad.framework.graph_walk import ancestors
from flowgrad.framework.tensor import Tensor


def prune(targets: list, fed: dict) -> set:
    """The ops needed to compute ``targets`` (tensors/ops) given the fed tensors."""
    return ancestors(targets, stop=fed)


def order(needed: set, fed: dict) -> list:
    """A topological order that runs variable updates as late as possible."""
    indeg = {op: 0 for op in needed}
    users: dict = collections.defaultdict(list)
    for op in needed:
        preds = {t.op for t in op._inputs if t not in fed and t.op in needed}
        preds.update(c for c in op.control_inputs if c in needed)
        indeg[op] = len(preds)
        for p in preds:
            users[p].append(op)
    ready: list = []
    for op, d in indeg.items():
        if d == 0:
            heapq.heappush(ready, (1 if op._def.updates else 0, op._id, op))
    out = []
    while ready:
        _, _, op = heapq.heappop(ready)
        out.append(op)
        for u in users[op]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready, (1 if u._def.updates else 0, u._id, u))
    if len(out) != len(needed):
        raise errors.InvalidArgumentError(None, None, "Graph has a cycle among ops %s"
                                          % sorted(op.name for op in needed if op not in out))
    return out


def check_placeholders(needed: set, fed: dict) -> None:
    """Raises TensorFlow's error for the first needed op that must be fed and is not."""
    for op in sorted(needed, key=lambda o: o._id):
        if op._def.must_feed and op.outputs[0] not in fed:
            t = op.outputs[0]
            raise errors.InvalidArgumentError(
                None, op, "You must feed a value for placeholder tensor '%s' with dtype %s "
                "and shape %s" % (op.name, _tf_dtype_name(t.dtype), _dims_str(t.shape)))


def read_later(ops: list, targets: list) -> list:
    """The variables whose values ``ops`` (in this order) and then the fetch ``targets`` read
    before any op overwrites them (an Assign, which does not read its variable)."""
    seen: dict = {}
    for op in ops:
        d = op._def
        if d.static_value is not None and d.static_value(op) is not None:
            continue                    # a constant: reads no value
        for k, t in enumerate(op._inputs):
            if t.op._def.variable and t.op not in seen:
                # an Assign overwrites its ref, an IsVariableInitialized only looks at it
                seen[t.op] = d.reads_refs or bool(d.updates) and k not in d.updates
    for t in targets:
        if isinstance(t, Tensor) and t.op._def.variable and t.op not in seen:
            seen[t.op] = True
    return [vop for vop, read in seen.items() if read]


def _tf_dtype_name(dt: Any) -> str:
    return {"float32": "float", "float64": "double"}.get(dt.base_dtype.name, dt.base_dtype.name)


def _dims_str(shape: Any) -> str:
    dims = shape.as_tuple()
    if dims is None:
        return "<unknown>"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)
