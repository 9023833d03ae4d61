"""The inter-op overlap pass: which big kernels of a plan run on a worker thread while the
plan goes on with work that does not need their results (TensorFlow's inter-op
parallelism), and the worker thread itself."""
from __future__ import annotations

import collections
import concurrent.futures
import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import fp_state, threads
from flowgrad.framework.graph import Operation

HEAVY = 1 << 17                 # an op this big (elements x contraction) may run on the worker

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


def inter_op_executor() -> concurrent.futures.Executor:
    """This process's worker thread for the big kernels of Session plans (TensorFlow's
    inter-op parallelism)."""
    global _worker
    if _worker is None:
        with _worker_lock:
            if _worker is None:
                _worker = concurrent.futures.ThreadPoolExecutor(
                    1, "flowgrad-inter-op", initializer=fp_state.quiet)
    return _worker


def cost(op: Operation) -> int:
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


def overlap(order: list, fed: dict) -> tuple:
    """(order, ops to run on the worker, big ops): ``order`` rearranged so that work
    independent of a big kernel's result comes before the ops that wait for it, the big
    kernels that then have another big kernel to overlap with, and all big kernels.

    Ops other than updates still come first, and updates of one variable keep their
    order, as in ``order``."""
    heavy = frozenset(op for op in order if cost(op) >= HEAVY)
    if len(heavy) < 2:
        return order, frozenset(), heavy
    rank = {op: i for i, op in enumerate(order)}
    preds = {op: {t.op for t in op._inputs if t not in fed and t.op in rank}
             | {c for c in op.control_inputs if c in rank} for op in order}
    users: dict = collections.defaultdict(list)
    for op in order:
        for p in preds[op]:
            users[p].append(op)
    out = _overlapped_order(order, rank, preds, users, heavy)
    pos = {op: i for i, op in enumerate(out)}
    run_async = set()
    for h in heavy:
        until = min((pos[u] for u in users[h]), default=len(out))
        if any(op in heavy for op in out[pos[h] + 1:until]):
            run_async.add(h)
    return out, frozenset(run_async), heavy


def _overlapped_order(order: list, rank: dict, preds: dict, users: dict,
                      heavy: frozenset) -> list:
    """A topological order that, among the ready ops, picks first one that waits for no
    big kernel still running (updates last, and one variable's updates in ``order``)."""
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
    return out


def submit(futures: list, kernel: Callable, *args: Any) -> concurrent.futures.Future:
    """The future of ``kernel(*args)`` on the worker thread, appended to ``futures``; run
    here at once (its future already done) while the budget allows no second kernel."""
    if threads.overlap_allowed():
        f = inter_op_executor().submit(kernel, *args)
    else:
        f = concurrent.futures.Future()
        try:
            f.set_result(kernel(*args))
        except Exception as e:          # raised where the plan waits for it, as the worker's
            f.set_exception(e)
    futures.append(f)
    return f


def in_halves(kernel: Callable, n_updated: int) -> Callable:
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
        f = inter_op_executor().submit(kernel, *first)
        try:
            kernel(*[a[h:] if type(a) is np.ndarray and a.ndim else a for a in args])
        finally:
            f.result()
        return var if n_updated == 1 else args[:n_updated]
    return run
