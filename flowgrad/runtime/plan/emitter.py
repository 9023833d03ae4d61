"""The emitter of the plan compiler: writes the source of the plan function, op by op in
the order the graph-order and overlap passes chose, asking the simplification pass what
need not run and the in-place pass (``inplace``) which updates may write in place."""
from __future__ import annotations

import concurrent.futures
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import errors, fp_state
from flowgrad.framework.graph import Operation
from flowgrad.framework.tensor import Tensor, as_bytes_array
from flowgrad.runtime.plan import graph_order, inplace
from flowgrad.runtime.plan.overlap import submit
from flowgrad.runtime.plan.simplify import Simplifier


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


def _bad_feed(t: Tensor, v: Any) -> None:
    raise ValueError("Cannot feed value of shape %s for Tensor %s, which has shape %s"
                     % (tuple(np.shape(v)), t.name, t.shape))


def _covers(t: Tensor, op: Operation) -> bool:
    """Whether ``op``'s output (an elementwise op's) has input ``t``'s shape, of rank 1 or
    more: by the op's contract (``same_shape``: its inputs must have one shape; a forward
    kernel's ``out=`` rejects a larger other input), or as the static shapes prove it
    (every other input broadcasts into ``t``'s shape: each of its dimensions is 1 or the
    same known size as ``t``'s)."""
    dims = t.shape.as_tuple()
    if not dims or op.outputs[0].shape.rank != len(dims):
        return False
    if op._def.same_shape:
        return True
    for x in op._inputs:
        if x is t:
            continue
        xd = x.shape.as_tuple()
        if xd is None or len(xd) > len(dims):
            return False
        if any(a != 1 and (a is None or a != b) for a, b in zip(reversed(xd), reversed(dims))):
            return False
    return True


class Emitter:
    """The source of one plan being written, and what is known about its names.

    Generated names: ``f<i>`` fed values, ``s<n>`` values of variables (each update makes a
    new "version"), ``t<n>`` other values, ``_f<n>`` futures of kernels on the worker;
    globals ``c`` constants, ``k`` kernels, ``K`` variable ops, ``D`` dtypes, ``R`` random
    generators."""

    def __init__(self, compiler: Any, fed: list, fed_index: dict, targets: list, needed: set,
                 run_async: frozenset, heavy: frozenset):
        self.compiler = compiler
        self.fed, self.fed_index, self.targets, self.needed = fed, fed_index, targets, needed
        self.run_async, self.heavy = run_async, heavy
        self.g: dict = {"np": np, "_sc": _sc, "_out": _out, "asarray": np.asarray,
                        "S": compiler.state_ref, "as_bytes_array": as_bytes_array}
        if compiler.owned is not None:
            self.g["O"], self.g["_own"] = compiler.owned, inplace.owner(compiler.owned)
        if run_async:
            self.g["_go"], self.g["_wait"] = submit, concurrent.futures.wait
        self.simplify = Simplifier(compiler.fold_constants)
        self.counter = itertools.count()
        self.names: dict = {}           # tensor -> expression (local or global name)
        self.persistent: set = set()    # local names whose value may alias state/feeds/consts
        self.from_feed: set = set()
        self.body: list = []
        self.may_raise: list = []       # per body line: whether it may raise at run time
        self.checked: set = set()       # MatMuls on the worker whose shapes were checked here
        self.ops_by_line: dict = {}
        self.var_local: dict = {}       # variable op -> current local name
        self.var_alias: dict = {}       # tensor reading a variable (Identity) -> variable op
        self.written: dict = {}         # variable op -> the local of the value to commit
        self.roots: dict = {}           # local -> the versions whose array it may share
        self.version_op: dict = {}      # version local -> its variable op
        self.escaped: set = set()       # versions handed to stateful ops that may keep them
        self.inplace_sites: list = []   # (body index, versions it writes, in-place line)
        self.futures: dict = {}         # op running on the worker -> (future, outputs, args)
        self.pending: dict = {}         # output local of such an op -> the op
        self.fresh: dict = {}           # local of a new array of one tensor -> that tensor
        self.overwritten: set = set()   # locals whose arrays a forwarding kernel wrote into
        self.target_set = set(targets)
        self.header = 4 if run_async else 3     # lines before the body: def, quiet(), [_P,] try

    # -- names and lines -------------------------------------------------------------
    def gname(self, prefix: str, value: Any) -> str:
        """A new global bound to ``value``."""
        n = "%s%d" % (prefix, next(self.counter))
        self.g[n] = value
        return n

    def local(self, prefix: str) -> str:
        return "%s%d" % (prefix, next(self.counter))

    def set_const(self, t: Tensor, v: Any) -> None:
        self.simplify.consts[t] = v
        self.names[t] = self.gname("c", v)
        self.persistent.add(self.names[t])

    def emit(self, line: str, op: Operation | None) -> None:
        self.may_raise.append(op is not None and inplace.may_raise(op))
        if op is None:
            self.body.append("        " + line)
        else:
            self.body.append("        %s  # %s (%s)" % (line, op.name, op.type))
            self.ops_by_line[self.header + len(self.body)] = op

    def wait_for(self, op: Operation) -> None:
        """Emits the wait for ``op``'s kernel on the worker."""
        fut, lhs, _ = self.futures.pop(op)
        self.emit("%s = %s.result()" % (lhs, fut), op)
        if op in self.checked:
            self.may_raise[-1] = False
        for n in inplace.LOCAL.findall(lhs):
            self.pending.pop(n, None)

    def var_value(self, vop: Operation) -> str:
        """The local holding variable ``vop``'s current value (loaded on first use)."""
        if vop not in self.var_local:
            local = self.local("s")
            self.emit("%s = S[%s]" % (local, self.gname("K", vop)), vop)
            self.var_local[vop] = local
            self.roots[local] = frozenset((local,))
            self.version_op[local] = vop
        return self.var_local[vop]

    # -- feeds -----------------------------------------------------------------------
    def feeds(self) -> None:
        """Binds ``f<i>`` to each fed value: converted and shape-checked, unless the
        compiler takes values as they are (control-flow bodies)."""
        for t, i in self.fed_index.items():
            local = "f%d" % i
            self.names[t] = local
            self.persistent.add(local)
            self.from_feed.add(local)
            if not self.compiler.check_feeds:
                if any(x is t for x in self.targets) or any(c in self.needed
                                                            for c in t._consumers):
                    self.emit("%s = F[%d]" % (local, i), None)
                continue
            dt = t.dtype.base_dtype.np
            if dt.kind == "O":      # strings: bytes, as TensorFlow feeds them
                self.emit("%s = as_bytes_array(F[%d])" % (local, i), None)
            else:
                self.emit("%s = asarray(F[%d], %s)" % (local, i, self.gname("D", dt)), None)
            dims = t.shape.as_tuple()
            if dims is not None:
                cond = ["%s.ndim != %d" % (local, len(dims))]
                cond += ["%s.shape[%d] != %d" % (local, k, d) for k, d in enumerate(dims)
                         if d is not None]
                self.emit("if %s: _bad_feed(%d, %s)" % (" or ".join(cond), i, local), None)
            if not dims:
                self.emit("%s = %s[()]" % (local, local), None)
        fed = self.fed
        self.g["_bad_feed"] = lambda i, v: _bad_feed(fed[i], v)

    # -- ops -------------------------------------------------------------------------
    def ops(self, order: list) -> None:
        """Emits ``order``'s ops."""
        first_update = next((i for i, op in enumerate(order) if op._def.updates), None)
        for at, op in enumerate(order):
            if at == first_update:
                # the variables read from here on are loaded before any update, as a load
                # may fail (uninitialized) and must not follow an update made in place
                for vop in graph_order.read_later(order[at:], self.targets):
                    self.var_value(vop)
            self.op(op)

    def op(self, op: Operation) -> None:
        """Emits one op: nothing for what is known without running it (variables, static
        values, folded constants, aliases, x * 1, repeats), else its kernel's call."""
        d = op._def
        for c in op.control_inputs:
            if c in self.futures:
                self.wait_for(c)
        if d.variable or (not op.outputs and d.kernel is None):
            return                  # a variable's output is resolved by its consumers
        if d.must_feed and op.outputs[0] in self.fed_index:
            return                  # a fed placeholder that is a control input: its feed
        if d.static_value is not None:
            v = d.static_value(op)
            if v is not None:
                self.set_const(op.outputs[0], v)
                return
        args = self.args_of(op)
        for a in args:
            if a in self.pending:
                self.wait_for(self.pending[a])
        if d.alias and op._inputs:
            return self.alias(op, args)
        if d.must_feed:
            raise errors.InternalError(None, op, "unfed placeholder %s" % op.name)
        if d.updates:
            return self.update(op, args)
        folded = self.simplify.fold(op)
        if folded is not None:
            for t, v in zip(op.outputs, folded):
                self.set_const(t, v)
            return
        k = self.simplify.unit_operand(op)
        if k is not None:
            self.names[op.outputs[0]] = args[k]
            self.fresh.pop(args[k], None)       # two tensors name that array now
            return
        key = self.simplify.key(op, args)
        prev = self.simplify.same_as(key)
        if prev is not None and not any(self.names[t2] in self.overwritten
                                        for t2 in prev.outputs):
            for t, t2 in zip(op.outputs, prev.outputs):
                self.names[t] = self.names[t2]
                self.fresh.pop(self.names[t2], None)
            return
        self.call(op, args)
        self.simplify.emitted(key, op)

    def args_of(self, op: Operation) -> list:
        """The names of ``op``'s input values; a variable input names its current value
        (or None for a ref the op overwrites without reading)."""
        d = op._def
        args = []
        for k, t in enumerate(op._inputs):
            if t in self.names:
                args.append(self.names[t])
            elif t in self.var_alias:
                args.append(self.var_value(self.var_alias[t]))
            elif t.op._def.variable:
                if k in d.updates and not d.reads_refs:
                    args.append("None")
                elif not d.updates and not d.reads_refs:
                    # an op that asks whether the variable holds a value (IsVariableInitialized)
                    args.append("True" if t.op in self.var_local
                                else "(%s in S)" % self.gname("K", t.op))
                else:
                    args.append(self.var_value(t.op))
            else:
                raise errors.InternalError(None, op, "input %s of %s was not computed"
                                           % (t.name, op.name))
        return args

    def alias(self, op: Operation, args: list) -> None:
        """Output 0 of an alias op names input 0's value. A read of a variable (``w/read``,
        ``tf.identity(w)``) names the variable itself: each consumer gets its value when the
        consumer runs, as TensorFlow's reads of a reference variable share its buffer (an op
        after ``tf.control_dependencies([assign])`` sees the assigned value). In a
        ``tf.function``'s graph the variables are TensorFlow 2's resource variables, whose
        reads (``ReadVariableOp``) copy: there a read snapshots the value at its place."""
        src = op._inputs[0]
        if src in self.names:
            self.names[op.outputs[0]] = self.names[src]
            self.fresh.pop(self.names[src], None)
        elif getattr(op.graph, "building_function", False) and src not in self.var_alias:
            self.names[op.outputs[0]] = out = self.local("t")
            self.emit("%s = %s" % (out, args[0]), None)
            self.roots[out] = self.roots[args[0]]
        else:
            self.var_alias[op.outputs[0]] = self.var_alias.get(src, src.op)

    def update(self, op: Operation, args: list) -> None:
        """Emits an update op, on the worker where the overlap pass chose so and the worker
        is free, and records its in-place form."""
        d, ins = op._def, op._inputs
        # one kernel at a time on the worker: when it is busy, this one runs here
        fut = self.local("_f") if op in self.run_async and not self.futures else None
        if fut is None and self.futures:     # the worker may still read what it writes
            mine = {v for k in d.updates for v in self.roots.get(args[k], ())}
            for p, (_, _, read) in list(self.futures.items()):
                if any(self.roots.get(a, frozenset()) & mine for a in read):
                    self.wait_for(p)
        at = len(self.body)
        kname = self.update_call(op, args, fut)
        if fut is not None:
            new = [self.var_local[ins[k].op] for k in d.updates]
            self.futures[op] = (fut, "%s%s" % (", ".join(new), "," if len(new) > 1 else ""),
                                list(args))
            for n in new:
                self.pending[n] = op
        if self.compiler.owned is not None:
            halves = fut is None and not self.futures and op in self.heavy
            site = inplace.inplace_site(op, args, self.roots, self.escaped, self.gname,
                                        self.body[at], kname, halves)
            if site is not None:
                self.inplace_sites.append((at,) + site)
        for k in d.updates:
            self.version_op[self.var_local[ins[k].op]] = ins[k].op

    def update_call(self, op: Operation, args: list, fut: str | None) -> str:
        """Emits the update's kernel call (submitted to the worker as ``fut`` if given);
        its kernel's global name."""
        d, ins = op._def, op._inputs
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
            if k not in d.updates and (a in self.from_feed or (a in self.roots
                                                               and ins[k].shape.rank != 0)):
                args[k] = "np.array(%s)" % a
        kname = self.gname("k", d.bound_kernel(op._attrs))
        new = [self.local("s") for _ in vops]
        if fut is None:
            self.emit("%s%s = %s(%s)" % (", ".join(new), "," if len(new) > 1 else "", kname,
                                         ", ".join(args)), op)
        else:
            self.emit("%s = _go(_P, %s, %s)" % (fut, kname, ", ".join(args)), op)
        for vop, n in zip(vops, new):
            self.var_local[vop] = n
            self.written[vop] = n
            self.roots[n] = frozenset((n,))
        if op.outputs and fut is not None:
            self.names[op.outputs[0]] = new[0]
        elif op.outputs:
            out = self.local("t")
            self.emit("%s = %s" % (out, new[0]), None)
            self.names[op.outputs[0]] = out
            self.roots[out] = self.roots[new[0]]
        return kname

    def call(self, op: Operation, args: list) -> None:
        """Emits the kernel call of an op that computes new values (on the worker where
        the overlap pass chose so and the worker is free)."""
        d = op._def
        into = self.forwarded_input(op, args)
        attrs = op._attrs
        if d.live_outputs and self.compiler.fold_constants:
            # tell the kernel which outputs this plan reads (not where every output is
            # checked: flowgrad.debug.numerics)
            live = frozenset(i for i, t in enumerate(op.outputs) if t in self.target_set or
                             any(c in self.needed for c in t._consumers))
            if len(live) < len(op.outputs):
                attrs = dict(attrs, live_outputs=live)
        kernel = d.bound_kernel(attrs) if into is None else d.bound_forward(into, attrs)
        kname = self.gname("k", kernel)
        if d.rng:
            args.insert(0, self.gname("R", self.compiler.rng_for(op)))
        outs = [self.local("t") for _ in op.outputs]
        call = "%s(%s)" % (kname, ", ".join(args))
        if into is not None:
            # the kernel writes into that input's array (its last reader): the comment
            # says so in the plan's source
            self.emit("%s = %s" % (outs[0], call), op)
            self.body[-1] += " into %s" % args[into]
            self.overwritten.add(args[into])    # a repeat of its op must compute anew
        elif op in self.run_async and outs and not self.futures:
            self.submit(op, args, outs, kname, call)
        elif len(outs) == 1:
            self.emit("%s = %s" % (outs[0], call), op)
        elif outs:
            self.emit("%s, = %s" % (", ".join(outs), call), op)
        else:
            self.emit(call, op)
        extra = self.compiler.after_op(op, args[1:] if d.rng else args, outs, self.gname)
        if extra is not None:
            self.emit(extra, op)
        self.outputs(op, args, outs)

    def forwarded_input(self, op: Operation, args: list) -> int | None:
        """The input whose array ``op``'s ``forward`` kernel may write its output into
        (TensorFlow's buffer forwarding), or None: an array a kernel of this plan made
        for that input's tensor alone (``fresh_output`` or a ufunc), which no other op of
        the plan reads (but for its shape: ``shape_only``), nothing fetches, no other tensor
        names and no worker kernel still computes, of the output's dtype and (as the static
        shapes prove) shape."""
        d = op._def
        if not d.forward or op in self.run_async or d.rng or len(op.outputs) != 1:
            return None
        out = op.outputs[0]
        for k in d.forward:
            t = op._inputs[k]
            local = args[k]
            if self.fresh.get(local) is not t or local in self.pending or \
                    t in self.target_set or t.dtype != out.dtype or not _covers(t, op):
                continue
            if sum(x is t for x in op._inputs) == 1 and all(
                    c is op or c not in self.needed or all(
                        j in c._def.shape_only for j, x in enumerate(c._inputs) if x is t)
                    for c in t._consumers):
                return k
        return None

    def submit(self, op: Operation, args: list, outs: list, kname: str, call: str) -> None:
        """Emits the submission of ``op``'s kernel to the worker."""
        d = op._def
        fut = self.local("_f")
        inner = d.contracted_axes(op) if d.contracted_axes is not None else None
        if inner is not None:   # checked here, the product cannot fail on the worker
            self.emit("if %s.shape[%d] != %s.shape[%d]: %s" % (
                args[0], inner[0], args[1], inner[1], call), op)
            self.checked.add(op)
        self.emit("%s = _go(_P, %s, %s)" % (fut, kname, ", ".join(args)), op)
        self.futures[op] = (fut, outs[0] if len(outs) == 1 else ", ".join(outs) + ",",
                            list(args))
        for o in outs:
            self.pending[o] = op

    def outputs(self, op: Operation, args: list, outs: list) -> None:
        """Names ``op``'s outputs and records which variable arrays they may share (a
        stateful op that may keep its inputs makes them no longer owned)."""
        d = op._def
        shared = frozenset().union(*[self.roots.get(a, ()) for a in args])
        if shared and d.stateful and self.compiler.owned is not None:
            # the op may keep the arrays (a queue, a py_func): they are no longer owned
            self.escaped.update(shared)
            for v in sorted(shared):
                self.emit("O.pop(%s, None)" % self.gname("K", self.version_op[v]), None)
        for t, o in zip(op.outputs, outs):
            self.names[t] = o
            if d.view:
                self.persistent.add(o)
            elif d.fresh_output or isinstance(d.kernel, np.ufunc):
                self.fresh[o] = t
            if shared and not (d.fresh_output or isinstance(d.kernel, np.ufunc)):
                self.roots[o] = shared

    # -- the result ------------------------------------------------------------------
    def expr_of(self, leaf: Any) -> str:
        """The expression of a fetched value (copied where the caller must own it)."""
        if not isinstance(leaf, Tensor):
            return "None"
        if leaf in self.names:
            local = self.names[leaf]
        elif leaf.op._def.variable or leaf in self.var_alias:
            local = self.var_value(self.var_alias.get(leaf, leaf.op))
            self.persistent.add(local)
        else:
            raise errors.InternalError(None, leaf.op, "fetch %s was not computed" % leaf.name)
        rank = leaf.shape.rank
        copy = local in self.persistent or local in self.var_local.values() \
            or local in self.roots
        if rank == 0:
            return "_sc(%s)" % local
        if rank is None:
            return "_out(%s, %s)" % (local, copy)
        return "%s.copy()" % local if copy else local

    def source(self, build_result: Callable[[Callable, Callable], str]) -> str:
        """The plan function's source, with the result ``build_result(expr_of, gname)``,
        the commits of the written variables and the in-place rewrites."""
        for p in list(self.futures):
            self.wait_for(p)
        result = build_result(self.expr_of, self.gname)
        for vop, local in self.written.items():
            self.emit("S[%s] = %s" % (self.gname("K", vop), local), None)
        if not inplace.shape_may_change(self.needed):   # else static shapes prove nothing
            inplace.make_inplace(self.body, self.inplace_sites, self.roots, self.escaped,
                                 result, self.may_raise)
        # NumPy's RuntimeWarnings (log(0), 0/0) stay off while kernels run, as TensorFlow
        # prints nothing there (flowgrad.framework.fp_state).
        self.g["_quiet"], self.g["_restore"] = fp_state.quiet, fp_state.restore
        # a run that fails leaves no kernel of it running on the worker (one that succeeds
        # has waited for each of them)
        start, wait = ("    _P = []\n", "    except BaseException:\n        _wait(_P)\n"
                       "        raise\n") if self.run_async else ("", "")
        return ("def _plan(F):\n    _fp = _quiet()\n%s    try:\n%s\n        return %s\n"
                "%s    finally:\n        _restore(_fp)\n") % (start, "\n".join(self.body),
                                                               result, wait)
