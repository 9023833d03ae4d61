"""Compiles a pruned subgraph into one generated Python function (a Session plan).

Pruning, ordering, constant folding, common-subexpression merging and identity
elimination happen once here; the generated function then only calls kernels."""
from __future__ import annotations

import collections
import concurrent.futures
import heapq
import itertools
import os
import re
import threading
from collections.abc import Callable, MutableMapping
from typing import Any

import numpy as np

from flowgrad.framework import errors, fp_state, threads
from flowgrad.framework.graph import Operation
from flowgrad.framework.op_call import eager_rng
from flowgrad.framework.tensor import Tensor, as_bytes_array
from flowgrad.ops.subgraph import register_function_compiler

_FOLD_LIMIT = 1 << 22          # largest folded constant, in elements
_LOCAL = re.compile(r"\b[stf]\d+\b")
_HEAVY = 1 << 17               # an op this big (elements x contraction) may run on the worker


def _sc(v: Any) -> Any:
    """A fetched rank-0 value as a NumPy scalar."""
    return v[()] if type(v) is np.ndarray else v


def _out(v: Any, copy: bool) -> Any:
    """A fetched value of unknown rank: scalar for rank 0, else an (owned) array."""
    if type(v) is np.ndarray:
        if not v.ndim:
            return v[()]
        return v.copy() if copy else v
    return v


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


_worker: concurrent.futures.Executor | None = None
_worker_lock = threading.Lock()


def _forget_worker() -> None:
    """In a forked child: the parent's worker thread, and its lock's state, are not ours."""
    global _worker, _worker_lock
    _worker, _worker_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_worker)


def inter_op_parallelism() -> bool:
    """Whether plans may run big kernels on a worker thread: on two or more cores where each
    kernel keeps to one BLAS thread (``flowgrad.framework.threads.intra_op_cap``: the
    intra-op setting or the environment's OPENBLAS_NUM_THREADS and the like is 1), so that
    a second GEMM finds a core of its own. A threaded BLAS already spreads each GEMM over
    the cores, and two GEMMs at once would fight over them. At run time a kernel goes to
    the worker only while the BLAS pool has one thread (``threads.overlap_allowed``)."""
    return threads.usable_cores() >= 2 and threads.intra_op_cap() == 1


def _inter_op_executor() -> concurrent.futures.Executor:
    """This process's worker thread for the big kernels of Session plans (TensorFlow's
    inter-op parallelism)."""
    global _worker
    if _worker is None:
        with _worker_lock:
            if _worker is None:
                _worker = concurrent.futures.ThreadPoolExecutor(
                    1, "flowgrad-inter-op", initializer=fp_state.quiet)
    return _worker


def _cost(op: Operation) -> int:
    """A static size of ``op``'s work: its op type's ``cost`` (MatMul's known output and
    contraction sizes), an update's variable size when it has an in-place kernel; 0 for
    other ops."""
    d = op._def
    if d.cost is not None:
        return d.cost(op)
    if d.updates and d.inplace is not None:
        n = op._inputs[0].shape.num_elements()
        return n or 0
    return 0


class Plan:
    """A compiled (fetches, feeds) signature: ``plan(feed_values)`` runs it."""

    __slots__ = ("fn", "var_ops", "ops_by_line", "source", "written", "locks")

    def __init__(self, fn: Callable, var_ops: set, ops_by_line: dict, source: str,
                 written: frozenset = frozenset()):
        self.fn = fn
        self.var_ops = var_ops
        self.ops_by_line = ops_by_line
        self.source = source
        self.written = written      # the variable ops whose values the plan commits
        self.locks: tuple = ()      # what the runner holds while the plan runs (Session)


class PlanCompiler:
    """Builds a Plan for given fetch leaves and fed tensors.

    ``state_ref`` is the mapping variable-op -> value the plan reads and commits;
    ``rng_for(op)`` gives the random generator of a random op."""

    fold_constants = True    # subclasses that check every op's output turn folding off
    check_feeds = True       # convert and shape-check fed values (not for control-flow bodies)

    def __init__(self, state_ref: Any, rng_for: Callable[[Operation], Any],
                 owned: MutableMapping | None = None, parallel: bool = False):
        self.state_ref = state_ref
        self.rng_for = rng_for
        # big kernels with other work to overlap run on a worker thread (see ``overlap``)
        self.parallel = parallel
        # variable op -> the array of its value that the runner allocated and never handed
        # out; update ops with an in-place kernel write those arrays in place. None: no
        # in-place updates (values may be shared with the caller, as in tf.function).
        self.owned = owned

    def after_op(self, op: Operation, args: list, outs: list, gname: Callable) -> str | None:
        """Source of a statement to run right after ``op``'s kernel call, or None.

        ``args``/``outs`` are the generated names of its input and output values and
        ``gname(prefix, value)`` binds a global. Plans emit nothing here; instrumented
        plans (flowgrad.debug.numerics) override it."""
        return None

    # -- pruning and ordering --------------------------------------------------------
    @staticmethod
    def prune(targets: list, fed: dict) -> set:
        """The ops needed to compute ``targets`` (tensors/ops) given the fed tensors."""
        needed: set = set()
        stack = []
        for t in targets:
            if isinstance(t, Tensor):
                if t not in fed:
                    stack.append(t.op)
            else:
                stack.append(t)
        while stack:
            op = stack.pop()
            if op in needed:
                continue
            needed.add(op)
            for t in op._inputs:
                if t not in fed and t.op not in needed:
                    stack.append(t.op)
            for c in op.control_inputs:
                if c not in needed:
                    stack.append(c)
        return needed

    @staticmethod
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

    @staticmethod
    def overlap(order: list, fed: dict) -> tuple:
        """(order, ops to run on the worker, big ops): ``order`` rearranged so that work
        independent of a big kernel's result comes before the ops that wait for it, the big
        kernels that then have another big kernel to overlap with, and all big kernels.

        Ops other than updates still come first, and updates of one variable keep their
        order, as in ``order``."""
        heavy = frozenset(op for op in order if _cost(op) >= _HEAVY)
        if len(heavy) < 2:
            return order, frozenset(), heavy
        rank = {op: i for i, op in enumerate(order)}
        preds = {op: {t.op for t in op._inputs if t not in fed and t.op in rank}
                 | {c for c in op.control_inputs if c in rank} for op in order}
        users: dict = collections.defaultdict(list)
        for op in order:
            for p in preds[op]:
                users[p].append(op)
        indeg = {op: len(preds[op]) for op in order}
        ready = [op for op in order if not indeg[op]]
        pending: set = set()
        out: list = []
        while ready:
            plain = [op for op in ready if not op._def.updates]
            cands = plain or ready
            pick, seen = cands[0], set()
            for op in cands:
                written = {op._inputs[k].op for k in op._def.updates}
                if seen & written:
                    break
                if not preds[op] & pending:
                    pick = op
                    break
                seen |= written
            ready.remove(pick)
            pending -= preds[pick]
            if pick in heavy:
                pending.add(pick)
            out.append(pick)
            for u in users[pick]:
                indeg[u] -= 1
                if not indeg[u]:
                    ready.append(u)
            ready.sort(key=rank.__getitem__)
        pos = {op: i for i, op in enumerate(out)}
        run_async = set()
        for h in heavy:
            until = min((pos[u] for u in users[h]), default=len(out))
            if any(op in heavy for op in out[pos[h] + 1:until]):
                run_async.add(h)
        return out, frozenset(run_async), heavy

    # -- code generation -------------------------------------------------------------
    def compile(self, leaves: list, fed: list,
                build_result: Callable[[Callable, Callable], str]) -> Plan:
        """Compiles; ``build_result(expr_of, gname)`` returns the result expression source."""
        fed_index = {t: i for i, t in enumerate(fed)}
        targets = [x for x in leaves if x is not None]
        needed = self.prune(targets, fed_index)
        self._check_placeholders(needed, fed_index)
        order = self.order(needed, fed_index)
        run_async: frozenset = frozenset()
        heavy_ops: frozenset = frozenset()
        if self.parallel:
            order, run_async, heavy_ops = self.overlap(order, fed_index)

        g: dict = {"np": np, "_sc": _sc, "_out": _out, "asarray": np.asarray, "S": self.state_ref,
             "as_bytes_array": as_bytes_array}
        if self.owned is not None:
            g["O"], g["_own"] = self.owned, _owner(self.owned)
        if run_async:
            g["_go"], g["_wait"] = _submit, concurrent.futures.wait
        counter = itertools.count()
        names: dict = {}                # tensor -> expression (local or global name)
        persistent: set = set()         # local names whose value may alias state/feeds/consts
        from_feed: set = set()
        consts: dict = {}               # tensor -> constant value (folded)
        body: list = []
        may_raise: list = []            # per body line: whether it may raise at run time
        checked: set = set()            # MatMuls on the worker whose shapes were checked here
        ops_by_line: dict = {}
        cse: dict = {}
        var_local: dict = {}            # variable op -> current local name
        loaded: set = set()
        written: dict = {}
        # local -> the variable-value locals ("versions") whose array it may share
        roots: dict = {}
        version_op: dict = {}           # version local -> its variable op
        escaped: set = set()            # versions handed to stateful ops that may keep them
        inplace_sites: list = []        # (body index, versions it writes, in-place line)
        futures: dict = {}              # op running on the worker -> (future, outputs, args)
        pending: dict = {}              # output local of such an op -> the op
        header = 4 if run_async else 3  # lines before the body: def, quiet(), [_P,] try

        def gname(prefix: str, value: Any) -> str:
            n = "%s%d" % (prefix, next(counter))
            g[n] = value
            return n

        def set_const(t: Tensor, v: Any) -> None:
            consts[t] = v
            names[t] = gname("c", v)
            persistent.add(names[t])

        def emit(line: str, op: Operation | None) -> None:
            may_raise.append(op is not None and _may_raise(op))
            if op is None:
                body.append("        " + line)
            else:
                body.append("        %s  # %s (%s)" % (line, op.name, op.type))
                ops_by_line[header + len(body)] = op

        # feeds
        for t, i in fed_index.items():
            local = "f%d" % i
            if not self.check_feeds:    # values of flowgrad's own kernels: taken as they are
                if any(x is t for x in targets) or any(c in needed for c in t._consumers):
                    emit("%s = F[%d]" % (local, i), None)
                names[t] = local
                persistent.add(local)
                from_feed.add(local)
                continue
            dt = t.dtype.base_dtype.np
            if dt.kind == "O":      # strings: bytes, as TensorFlow feeds them
                emit("%s = as_bytes_array(F[%d])" % (local, i), None)
            else:
                emit("%s = asarray(F[%d], %s)" % (local, i, gname("D", dt)), None)
            dims = t.shape.as_tuple()
            if dims is not None:
                cond = ["%s.ndim != %d" % (local, len(dims))]
                cond += ["%s.shape[%d] != %d" % (local, k, d) for k, d in enumerate(dims)
                         if d is not None]
                emit("if %s: _bad_feed(%d, %s)" % (" or ".join(cond), i, local), None)
            if not dims:
                emit("%s = %s[()]" % (local, local), None)
            names[t] = local
            persistent.add(local)
            from_feed.add(local)
        g["_bad_feed"] = lambda i, v: _bad_feed(fed[i], v)

        def wait_for(op: Operation) -> None:
            fut, lhs, _ = futures.pop(op)
            emit("%s = %s.result()" % (lhs, fut), op)
            if op in checked:
                may_raise[-1] = False
            for n in _LOCAL.findall(lhs):
                pending.pop(n, None)

        def value_of(t: Tensor) -> str:
            return names[t]

        def var_value(vop: Operation) -> str:
            if vop not in var_local:
                local = "s%d" % next(counter)
                key = gname("K", vop)
                emit("%s = S[%s]" % (local, key), vop)
                var_local[vop] = local
                roots[local] = frozenset((local,))
                version_op[local] = vop
                loaded.add(vop)
            return var_local[vop]

        first_update = next((i for i, op in enumerate(order) if op._def.updates), None)
        for at_op, op in enumerate(order):
            typ = op.type
            d = op._def
            ins = op._inputs
            if at_op == first_update:
                # the variables read from here on are loaded before any update, as a load
                # may fail (uninitialized) and must not follow an update made in place
                for vop in _read_later(order[at_op:], targets):
                    var_value(vop)
            for c in op.control_inputs:
                if c in futures:
                    wait_for(c)
            if d.variable:
                continue            # its output is resolved by the consumers (state access)
            if not op.outputs and d.kernel is None:
                continue
            if d.static_value is not None:
                v = d.static_value(op)
                if v is not None:
                    set_const(op.outputs[0], v)
                    continue
            # refs: inputs produced by VariableV2 read the variable's current local
            args = []
            for k, t in enumerate(ins):
                if t in names:
                    args.append(names[t])
                elif t.op._def.variable:
                    if k in d.updates and not d.reads_refs:
                        args.append("None")
                    else:
                        args.append(var_value(t.op))
                else:
                    raise errors.InternalError(None, op, "input %s of %s was not computed"
                                               % (t.name, op.name))
            for a in args:
                if a in pending:
                    wait_for(pending[a])
            if d.alias and ins:
                if ins[0] in names:
                    names[op.outputs[0]] = names[ins[0]]
                else:           # a read of a variable: snapshot its current value here
                    names[op.outputs[0]] = out = "t%d" % next(counter)
                    emit("%s = %s" % (out, args[0]), None)
                    roots[out] = roots[args[0]]
                continue
            if d.must_feed:
                raise errors.InternalError(None, op, "unfed placeholder %s" % op.name)
            if d.updates:
                # one kernel at a time on the worker: when it is busy, this one runs here
                fut = "_f%d" % next(counter) if op in run_async and not futures else None
                if fut is None and futures:     # the worker may still read what it writes
                    mine = {v for k in d.updates for v in roots.get(args[k], ())}
                    for p, (_, _, read) in list(futures.items()):
                        if any(roots.get(a, frozenset()) & mine for a in read):
                            wait_for(p)
                at = len(body)
                kname = self._emit_update(op, args, ins, g, gname, emit, var_local, written,
                                          from_feed, names, counter, roots, fut)
                if fut is not None:
                    new = [var_local[ins[k].op] for k in d.updates]
                    futures[op] = (fut, "%s%s" % (", ".join(new), "," if len(new) > 1 else ""),
                                   list(args))
                    for n in new:
                        pending[n] = op
                halves = fut is None and not futures and op in heavy_ops
                site = self._inplace_site(op, args, ins, roots, escaped, gname, body, at, kname,
                                          halves)
                if site is not None:
                    inplace_sites.append(site)
                for k in d.updates:
                    version_op[var_local[ins[k].op]] = ins[k].op
                continue
            # constant folding
            if self.fold_constants and d.foldable and all(t in consts for t in ins) \
                    and d.kernel is not None:
                try:
                    with np.errstate(all="ignore"):
                        val = d.bound_kernel(op._attrs)(*[consts[t] for t in ins])
                except Exception:  # leave it to run time, where the error gets its context
                    val = None
                if val is not None:
                    outs = [val] if len(op.outputs) == 1 else list(val)
                    if all(np.size(v) <= _FOLD_LIMIT for v in outs):
                        for t, v in zip(op.outputs, outs):
                            set_const(t, v)
                        continue
            if d.identity_element is not None:
                k = self._times_one(ins, consts, op)
                if k is not None:
                    names[op.outputs[0]] = args[k]
                    continue
            # common subexpressions
            key = None
            if not d.stateful:
                key = (typ, tuple(args), tuple(sorted((k, _attr_key(v))
                                                      for k, v in op._attrs.items())))
                prev = cse.get(key)
                if prev is not None:
                    for t, t2 in zip(op.outputs, prev.outputs):
                        names[t] = names[t2]
                    continue
            kname = gname("k", self._kernel(op))
            if d.rng:
                args.insert(0, gname("R", self.rng_for(op)))
            outs = ["t%d" % next(counter) for _ in op.outputs]
            call = "%s(%s)" % (kname, ", ".join(args))
            if op in run_async and outs and not futures:
                fut = "_f%d" % next(counter)
                inner = d.contracted_axes(op) if d.contracted_axes is not None else None
                if inner is not None:   # checked here, the product cannot fail on the worker
                    emit("if %s.shape[%d] != %s.shape[%d]: %s" % (
                        args[0], inner[0], args[1], inner[1], call), op)
                    checked.add(op)
                emit("%s = _go(_P, %s, %s)" % (fut, kname, ", ".join(args)), op)
                futures[op] = (fut, outs[0] if len(outs) == 1 else ", ".join(outs) + ",",
                               list(args))
                for o in outs:
                    pending[o] = op
            elif len(outs) == 1:
                emit("%s = %s" % (outs[0], call), op)
            elif outs:
                emit("%s, = %s" % (", ".join(outs), call), op)
            else:
                emit(call, op)
            extra = self.after_op(op, args[1:] if d.rng else args, outs, gname)
            if extra is not None:
                emit(extra, op)
            shared = frozenset().union(*[roots.get(a, ()) for a in args])
            if shared and d.stateful and self.owned is not None:
                # the op may keep the arrays (a queue, a py_func): they are no longer owned
                escaped.update(shared)
                for v in sorted(shared):
                    emit("O.pop(%s, None)" % gname("K", version_op[v]), None)
            for t, o in zip(op.outputs, outs):
                names[t] = o
                if d.view:
                    persistent.add(o)
                if shared and not (d.fresh_output or isinstance(d.kernel, np.ufunc)):
                    roots[o] = shared
            if key is not None:
                cse[key] = op

        def expr_of(leaf: Any) -> str:
            if not isinstance(leaf, Tensor):
                return "None"
            if leaf in names:
                local = names[leaf]
            elif leaf.op._def.variable:
                local = var_value(leaf.op)
                persistent.add(local)
            else:
                raise errors.InternalError(None, leaf.op, "fetch %s was not computed" % leaf.name)
            rank = leaf.shape.rank
            copy = local in persistent or local in var_local.values() or local in roots
            if rank == 0:
                return "_sc(%s)" % local
            if rank is None:
                return "_out(%s, %s)" % (local, copy)
            return "%s.copy()" % local if copy else local

        for p in list(futures):
            wait_for(p)
        result = build_result(expr_of, gname)
        for vop, local in written.items():
            emit("S[%s] = %s" % (gname("K", vop), local), None)
        if not _shape_may_change(needed):   # else static shapes cannot prove a line safe
            _make_inplace(body, inplace_sites, roots, escaped, result, may_raise)
        # NumPy's RuntimeWarnings (log(0), 0/0) stay off while kernels run, as TensorFlow
        # prints nothing there (flowgrad.framework.fp_state).
        g["_quiet"], g["_restore"] = fp_state.quiet, fp_state.restore
        # a run that fails leaves no kernel of it running on the worker (one that succeeds
        # has waited for each of them)
        start, wait = ("    _P = []\n", "    except BaseException:\n        _wait(_P)\n"
                       "        raise\n") if run_async else ("", "")
        src = ("def _plan(F):\n    _fp = _quiet()\n%s    try:\n%s\n        return %s\n"
               "%s    finally:\n        _restore(_fp)\n") % (start, "\n".join(body), result, wait)
        code = compile(src, "<flowgrad plan>", "exec")
        exec(code, g)
        return Plan(g["_plan"], set(var_local) | set(written), ops_by_line, src,
                    frozenset(written))

    @staticmethod
    def _times_one(ins: list, consts: dict, op: Operation) -> int | None:
        """For x * 1, the op's identity element (a constant that cannot change x's shape or
        dtype): x's index."""
        e = op._def.identity_element
        for k in (0, 1):
            v, x = consts.get(ins[1 - k]), ins[k]
            if v is not None and np.size(v) == 1 and np.all(v == e) and x not in consts:
                r = x.shape.rank
                if r is not None and np.ndim(v) <= r and \
                        x.dtype.base_dtype is op.outputs[0].dtype.base_dtype:
                    return k
        return None

    def _kernel(self, op: Operation) -> Callable:
        return op._def.bound_kernel(op._attrs)

    def _emit_update(self, op: Operation, args: list, ins: list, g: dict, gname: Callable,
                     emit: Callable, var_local: dict, written: dict, from_feed: set,
                     names: dict, counter: Any, roots: dict, fut: str | None) -> str:
        """Emits the update (submitted to the worker as ``fut`` if given); its kernel's name."""
        d = op._def
        vops = []
        for k in d.updates:
            t = ins[k]
            if not t.op._def.variable:
                raise errors.InvalidArgumentError(None, op, "%s (%s) must update a variable, but "
                                                  "its input %s is not one" % (op.name, op.type,
                                                                               t.name))
            vops.append(t.op)
        for k, a in enumerate(args):
            # a value the op may store must not be the caller's array or another variable's
            if k not in d.updates and (a in from_feed or (a in roots and ins[k].shape.rank != 0)):
                args[k] = "np.array(%s)" % a
        kname = gname("k", self._kernel(op))
        new = ["s%d" % next(counter) for _ in vops]
        if fut is None:
            emit("%s%s = %s(%s)" % (", ".join(new), "," if len(new) > 1 else "", kname,
                                    ", ".join(args)), op)
        else:
            emit("%s = _go(_P, %s, %s)" % (fut, kname, ", ".join(args)), op)
        for vop, n in zip(vops, new):
            var_local[vop] = n
            written[vop] = n
            roots[n] = frozenset((n,))
        if op.outputs and fut is not None:
            names[op.outputs[0]] = new[0]
        elif op.outputs:
            out = "t%d" % next(counter)
            emit("%s = %s" % (out, new[0]), None)
            names[op.outputs[0]] = out
            roots[out] = roots[new[0]]
        return kname

    def _inplace_site(self, op: Operation, args: list, ins: list, roots: dict, escaped: set,
                      gname: Callable, body: list, at: int, kname: str,
                      halves: bool) -> tuple | None:
        """For an update op just emitted (body line ``at``): its in-place form, when the op
        has an in-place kernel and no other input may share the arrays it writes (whether a
        later line still reads them is decided by ``_make_inplace``); with ``halves``, the
        worker thread updates half of the rows."""
        d = op._def
        if self.owned is None:
            return None
        kernel = d.bound_inplace(op._attrs)
        if kernel is None:
            return None
        if halves:
            kernel = _in_halves(kernel, len(d.updates))
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
        code, comment = body[at].split("  # ", 1)
        code = code.replace(kname, gname("k", kernel), 1).replace(
            ", ".join(args), ", ".join(new_args), 1)
        return at, frozenset(versions), "%s  # %s" % (code, comment)

    @staticmethod
    def _check_placeholders(needed: set, fed: dict) -> None:
        for op in sorted(needed, key=lambda o: o._id):
            if op._def.must_feed and op.outputs[0] not in fed:
                t = op.outputs[0]
                raise errors.InvalidArgumentError(
                    None, op, "You must feed a value for placeholder tensor '%s' with dtype %s "
                    "and shape %s" % (op.name, _tf_dtype_name(t.dtype),
                                      _dims_str(t.shape)))


def _read_later(ops: list, targets: list) -> list:
    """The variables whose values ``ops`` (in this order) and then the fetch ``targets`` read
    before any op overwrites them (an Assign, which does not read its variable)."""
    seen: dict = {}
    for op in ops:
        d = op._def
        if d.static_value is not None and d.static_value(op) is not None:
            continue                    # a constant: reads no value
        for k, t in enumerate(op._inputs):
            if t.op._def.variable and t.op not in seen:
                seen[t.op] = not (k in d.updates and not d.reads_refs)
    for t in targets:
        if isinstance(t, Tensor) and t.op._def.variable and t.op not in seen:
            seen[t.op] = True
    return [vop for vop, read in seen.items() if read]


def _owner(owned: MutableMapping) -> Callable:
    """``_own(var_op, value)``: value when the runner owns it, else an owned copy of it."""
    def own(vop: Operation, value: Any) -> Any:
        if owned.get(vop) is value:
            return value
        value = np.array(value, copy=True)
        owned[vop] = value
        return value
    return own


def _may_raise(op: Operation) -> bool:
    """Whether ``op``'s kernel may raise at run time: False only where the static shapes of
    its inputs prove it cannot (a dense update whose inputs are the variable's shape or
    scalars; an elementwise op or assign of fully known shapes)."""
    shapes = [t.shape.as_tuple() for t in op.inputs]
    if any(s is None or None in s for s in shapes):
        return True
    if op._def.updates:
        return any(s != shapes[0] and s != () for s in shapes)
    return op._def.may_fail


def _shape_may_change(ops: set) -> bool:
    """Whether a variable among ``ops`` may hold a value of another shape than its static
    one (the graph assigns it with ``validate_shape=False``)."""
    return any(c._def.updates and not c._attrs.get("validate_shape", True)
               for op in ops if op._def.variable for c in op.outputs[0]._consumers)


def _make_inplace(body: list, sites: list, roots: dict, escaped: set, result: str,
                  may_raise: list) -> None:
    """Rewrites each update site to its in-place form where nothing after it may raise (a
    failed run must leave every variable as it was) and nothing after it reads an array it
    writes through a name bound before it (a snapshot of the old value)."""
    if not sites:
        return
    defined: dict = {}                  # local -> the line binding it first
    last_read: dict = {}                # local -> the last line reading it (the result: last)
    for i, line in enumerate(body):
        code = line.split("  # ", 1)[0]
        lhs, eq, rhs = code.partition(" = ")
        if not eq or lhs.lstrip().startswith("if "):
            lhs, rhs = "", code
        for n in _LOCAL.findall(lhs):
            defined.setdefault(n, i)
        for n in _LOCAL.findall(rhs):
            last_read[n] = i
    for n in _LOCAL.findall(result):
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


def _in_halves(kernel: Callable, n_updated: int) -> Callable:
    """An elementwise in-place update kernel that gives the first half of the rows of the
    variable (and of each input of its shape) to the worker thread and does the rest here."""
    def run(*args: Any) -> Any:
        var = args[0]
        rows = var.shape[0] if type(var) is np.ndarray and var.ndim else 0
        if rows < 2 or any(type(a) is np.ndarray and a.ndim and a.shape != var.shape
                           for a in args):
            return kernel(*args)        # (and its checks raise the error, if any)
        if not threads.overlap_allowed():
            return kernel(*args)        # a threaded BLAS pool now: no second kernel
        h = rows // 2
        first = [a[:h] if type(a) is np.ndarray and a.ndim else a for a in args]
        f = _inter_op_executor().submit(kernel, *first)
        try:
            kernel(*[a[h:] if type(a) is np.ndarray and a.ndim else a for a in args])
        finally:
            f.result()
        return var if n_updated == 1 else args[:n_updated]
    return run


def _submit(futures: list, kernel: Callable, *args: Any) -> concurrent.futures.Future:
    """The future of ``kernel(*args)`` on the worker thread, appended to ``futures``; run
    here at once (its future already done) while the budget allows no second kernel."""
    if threads.overlap_allowed():
        f = _inter_op_executor().submit(kernel, *args)
    else:
        f = concurrent.futures.Future()
        try:
            f.set_result(kernel(*args))
        except Exception as e:          # raised where the plan waits for it, as the worker's
            f.set_exception(e)
    futures.append(f)
    return f


def _tf_dtype_name(dt: Any) -> str:
    return {"float32": "float", "float64": "double"}.get(dt.base_dtype.name, dt.base_dtype.name)


def _dims_str(shape: Any) -> str:
    dims = shape.as_tuple()
    if dims is None:
        return "<unknown>"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def _bad_feed(t: Tensor, v: Any) -> None:
    raise ValueError("Cannot feed value of shape %s for Tensor %s, which has shape %s"
                     % (tuple(np.shape(v)), t.name, t.shape))


def failing_op(plan: Plan, exc: BaseException) -> Operation | None:
    """The op whose generated line raised ``exc`` (from the traceback), if any."""
    tb = exc.__traceback__
    op = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<flowgrad plan>":
            op = plan.ops_by_line.get(tb.tb_lineno, op)
        tb = tb.tb_next
    return op


class _FunctionPlanCompiler(PlanCompiler):
    check_feeds = False


def compile_function(leaves: list, inputs: list, n_outputs: int) -> tuple:
    """A control-flow sub-graph's plan: ``f(input values) -> tuple of output values``, and
    its op of each generated line (for error messages).

    ``leaves`` are the outputs followed by ops to run for their effect only."""
    compiler = _FunctionPlanCompiler({}, lambda op: eager_rng(op._attrs))
    outs = leaves[:n_outputs]
    plan = compiler.compile(leaves, inputs, lambda expr_of, gname: "(%s)" % "".join(
        expr_of(t) + ", " for t in outs))
    return plan.fn, plan.ops_by_line


register_function_compiler(compile_function)
