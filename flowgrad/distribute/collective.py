"""The all-reduce among a group of Ray workers, with no driver in the path.

Each worker holds a ``CollectiveGroup`` with the actor handles of its peers. A collective
is a reduce-scatter followed by an all-gather over Ray's object store: every worker cuts
its flat buffer into one chunk per worker and sends chunk ``j`` straight to worker ``j``
(an actor call whose array argument goes through the object store); worker ``j`` sums the
chunks it owns in rank order and sends the sum to every worker. Each worker sends and
receives ``2 (K - 1) / K`` times the buffer per collective, as in a ring all-reduce, in
two rounds of messages instead of ``2 (K - 1)``; every worker ends with the same bits.

Ray's ``ray.util.collective`` would do this with gloo, but its gloo backend needs PyTorch
(``torch.distributed``); flowgrad's core needs NumPy only."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from flowgrad.framework import errors

#: The concurrency group of the actor methods that receive chunks, so that they run while
#: the worker's training function waits in a collective.
CONCURRENCY_GROUP = "collective"

_current: list = []       # the CollectiveGroup of this process, when it is a Ray worker


def current_group() -> CollectiveGroup | None:
    """This process's group when it runs as a worker of a ``WorkerGroup``, else None."""
    return _current[-1] if _current else None


def set_current_group(group: CollectiveGroup | None) -> None:
    """Makes ``group`` this process's group (None: none)."""
    _current.clear()
    if group is not None:
        _current.append(group)


@dataclass
class CollectiveStats:
    """Where this worker's collectives spent their time, and what they moved."""
    collectives: int = 0
    bytes_sent: int = 0          # array bytes this worker handed to Ray for its peers
    send_s: float = 0.0          # submitting the sends (serialising into the object store)
    wait_s: float = 0.0          # waiting for the peers' chunks (their compute and transfer)
    reduce_s: float = 0.0        # cutting, summing and joining buffers here

    def as_dict(self) -> dict:
        return {"collectives": self.collectives, "bytes_sent": self.bytes_sent,
                "send_s": self.send_s, "wait_s": self.wait_s, "reduce_s": self.reduce_s}


class CollectiveGroup:
    """One worker's end of the collectives among ``world_size`` workers.

    Args:
      rank: this worker's index in the group.
      world_size: the number of workers.
      peers: every worker's Ray actor handle, in rank order (this one's included); each has
        a ``deliver(key, value)`` method that calls ``deliver`` of its group.
      timeout: seconds a collective waits for a peer before it fails.
    """

    def __init__(self, rank: int, world_size: int, peers: list, timeout: float = 300.0):
        self.rank = int(rank)
        self.world_size = int(world_size)
        self._peers = list(peers)
        self._timeout = float(timeout)
        self._inbox: dict = {}
        self._cond = threading.Condition()
        self._seq = 0
        self._sent: list = []          # (peer rank, ObjectRef of its deliver call)
        self.stats = CollectiveStats()

    # -- receiving (runs in the actor's collective threads) ------------------------------
    def deliver(self, key: tuple, value: Any) -> None:
        """Stores a peer's message ``(kind, sequence number, sender)``."""
        with self._cond:
            self._inbox[key] = value
            self._cond.notify_all()

    def _check_sends(self) -> None:
        """Raises UnavailableError naming a peer that a send could not reach (it died)."""
        if not self._sent:
            return
        import ray
        refs = [ref for _, ref in self._sent]
        done, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        done_ids = {id(r) for r in done}
        kept = []
        for peer, ref in self._sent:
            if id(ref) not in done_ids:
                kept.append((peer, ref))
                continue
            try:
                ray.get(ref)
            except ray.exceptions.RayActorError as e:
                raise errors.UnavailableError(
                    None, None, "Worker %d of %d is gone (its Ray actor died): collective "
                    "%d on worker %d cannot complete" % (peer, self.world_size, self._seq,
                                                         self.rank)) from e
        self._sent = kept

    def _collect(self, kind: str, seq: int, senders: list) -> dict:
        start = time.perf_counter()
        deadline = time.monotonic() + self._timeout
        keys = [(kind, seq, s) for s in senders]
        with self._cond:
            while not all(k in self._inbox for k in keys):
                self._cond.wait(0.05)
                if all(k in self._inbox for k in keys):
                    break
                self._cond.release()
                try:
                    self._check_sends()
                finally:
                    self._cond.acquire()
                if time.monotonic() > deadline:
                    missing = [k[2] for k in keys if k not in self._inbox]
                    raise errors.DeadlineExceededError(
                        None, None, "Worker %d waited %.0f s in collective %d for workers %s"
                        % (self.rank, self._timeout, seq, missing))
            out = {k[2]: self._inbox.pop(k) for k in keys}
        self.stats.wait_s += time.perf_counter() - start
        return out

    def _send(self, peer: int, key: tuple, value: list) -> None:
        start = time.perf_counter()
        ref = self._peers[peer].deliver.options(
            concurrency_group=CONCURRENCY_GROUP).remote(key, value)
        self._sent.append((peer, ref))
        self.stats.bytes_sent += sum(int(np.asarray(v).nbytes) for v in value)
        self.stats.send_s += time.perf_counter() - start

    def _next(self) -> int:
        self._seq += 1
        self.stats.collectives += 1
        return self._seq

    # -- the collectives -----------------------------------------------------------------
    def all_reduce(self, arrays: list, op: str = "SUM") -> list:
        """The element-wise sum (``op="SUM"``) or mean (``"MEAN"``) of every worker's
        ``arrays`` (the same shapes and dtypes on each), the same bits on every worker.

        Raises:
          UnavailableError: a peer died. DeadlineExceededError: a peer did not answer.
        """
        arrays = [np.asarray(a) for a in arrays]
        k = self.world_size
        if k == 1 or not arrays:
            return [a.copy() for a in arrays]
        seq = self._next()
        t0 = time.perf_counter()
        dtypes = sorted({a.dtype.str for a in arrays})
        flats = [np.concatenate([a.ravel() for a in arrays if a.dtype.str == d]) for d in dtypes]
        chunks = [np.array_split(f, k) for f in flats]      # [dtype][owner]
        self.stats.reduce_s += time.perf_counter() - t0
        for peer in range(k):
            if peer != self.rank:
                self._send(peer, ("scatter", seq, self.rank), [c[peer] for c in chunks])
        got = self._collect("scatter", seq, [r for r in range(k) if r != self.rank])
        got[self.rank] = [c[self.rank] for c in chunks]
        t0 = time.perf_counter()
        mine = []
        for d in range(len(dtypes)):
            total = got[0][d].copy()
            for r in range(1, k):
                total += got[r][d]
            if op == "MEAN":
                total = (total / k).astype(total.dtype)
            mine.append(total)
        self.stats.reduce_s += time.perf_counter() - t0
        for peer in range(k):
            if peer != self.rank:
                self._send(peer, ("gather", seq, self.rank), mine)
        parts = self._collect("gather", seq, [r for r in range(k) if r != self.rank])
        parts[self.rank] = mine
        t0 = time.perf_counter()
        out: list = [None] * len(arrays)
        for d, dt in enumerate(dtypes):
            flat = np.concatenate([parts[r][d] for r in range(k)])
            offset = 0
            for i, a in enumerate(arrays):
                if a.dtype.str == dt:
                    out[i] = flat[offset:offset + a.size].reshape(a.shape)
                    offset += a.size
        self.stats.reduce_s += time.perf_counter() - t0
        return out

    def broadcast(self, arrays: list, root: int = 0) -> list:
        """Worker ``root``'s ``arrays`` on every worker."""
        arrays = [np.asarray(a) for a in arrays]
        if self.world_size == 1:
            return arrays
        seq = self._next()
        if self.rank == root:
            for peer in range(self.world_size):
                if peer != root:
                    self._send(peer, ("broadcast", seq, root), arrays)
            return arrays
        return self._collect("broadcast", seq, [root])[root]

    def all_gather(self, arrays: list) -> list:
        """Every worker's ``arrays``, as a list per worker in rank order."""
        arrays = [np.asarray(a) for a in arrays]
        if self.world_size == 1:
            return [arrays]
        seq = self._next()
        for peer in range(self.world_size):
            if peer != self.rank:
                self._send(peer, ("all_gather", seq, self.rank), arrays)
        got = self._collect("all_gather", seq,
                            [r for r in range(self.world_size) if r != self.rank])
        got[self.rank] = arrays
        return [got[r] for r in range(self.world_size)]
