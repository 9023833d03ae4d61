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


class PeerLostError(errors.UnavailableError):
    """A peer of this worker's group died (an ``UnavailableError`` naming it)."""

    def __init__(self, node_def: Any, op: Any, message: str, ranks: tuple = ()):
        super().__init__(node_def, op, message)
        self.ranks = tuple(ranks)

    def __reduce__(self) -> tuple:
        return (PeerLostError, (None, None, self.message, self.ranks))


#: Collectives whose received messages a worker keeps after it used them (this one and the
#: one before), to hand a lost peer's message to a survivor that missed it: a survivor can
#: be one collective ahead of another, never more (the next one needs the lost peer).
_KEEP_RECENT = 2


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
        # rejoining: messages carry the group's generation, which grows when a lost
        # worker is replaced; the driver tells the survivors (``peer_replaced``)
        self.generation = 0
        self._replaced: dict = {}      # rank -> generation it was replaced in, not yet seen
        self._recent: dict = {}        # key -> message of a completed collective
        self.rejoining = False         # this worker replaces a lost one and catches up
        self.rejoinable = 0            # > 0 while a PreemptionCheckpointHandler runs a step
        self.strategy: Any = None      # the MultiWorkerMirroredStrategy made last here

    @property
    def sequence(self) -> int:
        """The number of collectives this worker started in this group."""
        return self._seq

    # -- a lost peer replaced (runs in the actor's collective threads) -----------------------
    def peer_replaced(self, rank: int, handle: Any, generation: int) -> None:
        """The driver replaced lost worker ``rank`` by the actor ``handle``; the next
        collective that misses its message raises PeerLostError."""
        with self._cond:
            self._peers[rank] = handle
            self._replaced[rank] = generation
            self._cond.notify_all()

    def lookup(self, key: tuple) -> Any:
        """The message of ``key`` this worker received (None if it did not)."""
        with self._cond:
            return self._inbox.get(key, self._recent.get(key))

    def replaced_ranks(self) -> list:
        """The peers replaced since this worker last resumed (a step to retry)."""
        with self._cond:
            return sorted(self._replaced)

    def resume(self, sequence: int) -> int:
        """Enters the group's newest generation at collective number ``sequence`` (the
        start of the step to retry); returns the generation."""
        with self._cond:
            if self._replaced:
                self.generation = max(self.generation, max(self._replaced.values()))
            self._replaced.clear()
            self._inbox = {k: v for k, v in self._inbox.items()
                           if k[0] >= self.generation or k[1] == "preempt"}
            self._recent.clear()
            self._seq = int(sequence)
            self._sent = []
            return self.generation

    def announce(self, step: int) -> None:
        """Tells every peer that this worker got a termination notice: all save a
        checkpoint when their step count reaches ``step``."""
        for peer in range(self.world_size):
            if peer != self.rank:
                self._send(peer, (self.generation, "preempt", 0, self.rank), [int(step)],
                           count=False)

    def announced(self) -> int | None:
        """The step a peer's termination notice says to save at (None: no notice)."""
        with self._cond:
            steps = [v[0] for k, v in self._inbox.items() if k[1] == "preempt"]
        return min(steps) if steps else None

    def send_state(self, rank: int, state: Any) -> None:
        """Sends a rejoining worker the state to start from (``receive_state``)."""
        self._send(rank, (self.generation, "state", 0, self.rank), [state], count=False)

    def receive_state(self, timeout: float | None = None) -> Any:
        """The state a survivor sent this rejoining worker; enters its collective
        sequence."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        with self._cond:
            while True:
                keys = [k for k in self._inbox if k[1] == "state" and k[0] == self.generation]
                if keys:
                    return self._inbox.pop(keys[0])[0]
                if time.monotonic() > deadline:
                    raise errors.DeadlineExceededError(
                        None, None, "Worker %d rejoined the group but no survivor sent it the "
                        "current state within %.0f s (the survivors' program does not step "
                        "through a PreemptionCheckpointHandler)" % (self.rank, self._timeout))
                self._cond.wait(0.05)

    # -- receiving (runs in the actor's collective threads) ------------------------------
    def deliver(self, key: tuple, value: Any) -> None:
        """Stores a peer's message ``(generation, kind, sequence number, sender)``."""
        with self._cond:
            if key[0] >= self.generation or key[1] == "preempt":   # (else: a retried step's)
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
                if peer in self._replaced:       # the driver replaced it: ignore
                    continue
                if self.rejoinable:              # the driver will replace it
                    continue
                raise errors.UnavailableError(
                    None, None, "Worker %d of %d is gone (its Ray actor died): collective "
                    "%d on worker %d cannot complete" % (peer, self.world_size, self._seq,
                                                         self.rank)) from e
        self._sent = kept

    def _collect(self, kind: str, seq: int, senders: list) -> dict:
        start = time.perf_counter()
        deadline = time.monotonic() + self._timeout
        keys = [(self.generation, kind, seq, s) for s in senders]
        with self._cond:
            while not all(k in self._inbox for k in keys):
                if self._replaced:
                    self._repair(keys, seq)
                else:
                    self._cond.wait(0.05)
                    if all(k in self._inbox for k in keys):
                        break
                    self._cond.release()
                    try:
                        self._check_sends()
                    finally:
                        self._cond.acquire()
                if time.monotonic() > deadline:
                    missing = [k[3] for k in keys if k not in self._inbox]
                    raise errors.DeadlineExceededError(
                        None, None, "Worker %d waited %.0f s in collective %d for workers %s"
                        % (self.rank, self._timeout, seq, missing))
            out = {k[3]: self._inbox.pop(k) for k in keys}
            if self.world_size > 2 and kind != "scatter":   # what another survivor may miss
                self._recent.update({k: v for k, v in zip(keys, out.values())})
                for old in [k for k in self._recent if k[2] <= seq - _KEEP_RECENT]:
                    del self._recent[old]
        self.stats.wait_s += time.perf_counter() - start
        return out

    def _repair(self, keys: list, seq: int) -> None:
        """A peer was lost: takes its missing messages from a survivor that received them
        (the same bits go to every worker, except a reduce-scatter's chunks), or raises
        PeerLostError. Called with the lock held."""
        lost = set(self._replaced)
        missing = [k for k in keys if k not in self._inbox and k[3] in lost]
        if not missing:           # waiting for survivors only (they will send, or raise)
            self._cond.wait(0.05)
            return
        survivors = [r for r in range(self.world_size) if r != self.rank and r not in lost]
        peers = [self._peers[r] for r in survivors]
        self._cond.release()
        try:
            import ray
            found = {}
            for key in missing:
                if key[1] == "scatter":
                    continue
                for ref in [p.lookup.options(concurrency_group=CONCURRENCY_GROUP).remote(key)
                            for p in peers]:
                    try:
                        value = ray.get(ref, timeout=self._timeout)
                    except ray.exceptions.RayError:
                        continue
                    if value is not None:
                        found[key] = value
                        break
        finally:
            self._cond.acquire()
        if len(found) < len(missing):
            raise PeerLostError(
                None, None, "Worker(s) %s of %d died in collective %d on worker %d"
                % (sorted(lost), self.world_size, seq, self.rank), tuple(sorted(lost)))
        self._inbox.update(found)

    def _send(self, peer: int, key: tuple, value: list, count: bool = True) -> None:
        start = time.perf_counter()
        if len(key) == 3:
            key = (self.generation,) + key
        ref = self._peers[peer].deliver.options(
            concurrency_group=CONCURRENCY_GROUP).remote(key, value)
        self._sent.append((peer, ref))
        if count:
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
