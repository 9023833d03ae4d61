"""A group of Ray workers that each run the same training function (TensorFlow's
multi-worker model: every worker runs the whole program, and
``tf.distribute.MultiWorkerMirroredStrategy`` inside it all-reduces among them).

The workers are Ray actors placed with a placement group, one bundle of
``cpus_per_worker`` CPUs each (``SPREAD``: one worker per node where the cluster has the
nodes). The driver starts the function once on every worker and waits; the per-step
traffic (the all-reduce) goes from worker to worker (``flowgrad.distribute.collective``)."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from flowgrad.distribute import cluster, collective
from flowgrad.framework import errors


class Worker:
    """One worker process: its end of the collectives and the function it runs."""

    def __init__(self, rank: int, world_size: int):
        self._rank = int(rank)
        self._world_size = int(world_size)
        self._group: collective.CollectiveGroup | None = None

    def setup(self, peers: list, timeout: float, generation: int = 0) -> int:
        """Joins the group whose workers' actor handles are ``peers`` (rank order), and sets
        ``TF_CONFIG`` as a TensorFlow cluster manager does: a program (a TF1 one with
        SyncReplicasOptimizer, or ``TFConfigClusterResolver``) reads its task index there.
        ``generation`` counts the lost workers replaced before this one joined."""
        self._group = collective.CollectiveGroup(self._rank, self._world_size, peers, timeout)
        self._group.generation = int(generation)
        collective.set_current_group(self._group)
        os.environ["TF_CONFIG"] = json.dumps({
            "cluster": {"worker": ["ray-worker-%d:0" % i for i in range(self._world_size)]},
            "task": {"type": "worker", "index": self._rank}})
        return self._rank

    def deliver(self, key: tuple, value: Any) -> None:
        """Receives a peer's chunk (runs in the collective concurrency group)."""
        self._group.deliver(key, value)

    def peer_replaced(self, rank: int, handle: Any, generation: int) -> None:
        """The driver replaced lost worker ``rank`` (runs in the collective group)."""
        self._group.peer_replaced(rank, handle, generation)

    def lookup(self, key: tuple) -> Any:
        """A message this worker received, for a survivor that missed it."""
        return self._group.lookup(key)

    def ping(self) -> int:
        return self._rank

    def run(self, call: tuple, rejoin: bool = False) -> Any:
        """``fn(*args, **kwargs)`` for ``call = (fn, args, kwargs)``; returns its result.
        ``rejoin``: this worker replaces a lost one, and takes the survivors' state."""
        fn, args, kwargs = call
        self._group.rejoining = bool(rejoin)
        return fn(*args, **kwargs)

    def stats(self) -> dict:
        """This worker's collective statistics (bytes sent, time sending and waiting)."""
        return self._group.stats.as_dict()


class _WorkerDied(Exception):
    """A worker of a run died; ``error`` is what the run raises if it is not retried;
    ``counted``: the death is already in ``failures`` (a replacement the survivors could
    not take in: the whole group starts again)."""

    def __init__(self, error: Exception, cause: Exception, counted: bool = False):
        super().__init__(str(error))
        error.__cause__ = cause
        self.error = error
        self.counted = counted


class WorkerGroup:
    """``num_workers`` Ray actors that run a training function together.

    ``run(fn)`` calls ``fn`` on every worker at once; inside it
    ``tf.distribute.MultiWorkerMirroredStrategy()`` has ``num_replicas_in_sync ==
    num_workers`` and all-reduces among them. A worker that dies, or whose function
    raises, fails the run at once (naming the worker) and shuts the group down: the
    others would wait for it in their next collective.

    Args:
      num_workers: the number of workers (replicas).
      cpus_per_worker: the CPUs each worker reserves (default: one, or an equal share when
        the cluster has fewer CPUs than workers).
      address: the Ray cluster to connect to (None: a local instance, or the running one).
      placement_strategy: the placement group's strategy (``"SPREAD"``: one worker per
        node where possible; ``"PACK"``, ``"STRICT_SPREAD"``, ``"STRICT_PACK"``).
      collective_timeout: seconds a collective waits for a peer before it fails.
      max_failures: how many lost workers a run survives. A new worker takes the lost
        one's place; where the program steps through a
        ``tf.distribute.experimental.PreemptionCheckpointHandler``, the survivors give it
        their current state and run the interrupted step again (nothing else restarts),
        else every worker starts the function again (it should resume from its latest
        checkpoint, which worker 0 writes, as with Ray Train's ``FailureConfig``). An
        exception that the function raises is never retried.
      **ray_init_kwargs: passed to ``ray.init``.

    Raises:
      ValueError: ``num_workers`` below 1.
    """

    def __init__(self, num_workers: int = 2, cpus_per_worker: float | None = None,
                 address: str | None = None, placement_strategy: str = "SPREAD",
                 collective_timeout: float = 300.0, max_failures: int = 0,
                 **ray_init_kwargs: Any):
        if int(num_workers) < 1:
            raise ValueError("num_workers must be at least 1, got %r" % (num_workers,))
        ray = self._ray = cluster.connect(address, **ray_init_kwargs)
        from ray.util.placement_group import placement_group, remove_placement_group
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
        self.num_workers = int(num_workers)
        if cpus_per_worker is None:
            cpus = ray.cluster_resources().get("CPU", 1.0)
            cpus_per_worker = min(1.0, cpus / self.num_workers)
        self.cpus_per_worker = float(cpus_per_worker)
        self._remove_pg = remove_placement_group
        self._pg = placement_group([{"CPU": self.cpus_per_worker}] * self.num_workers,
                                   strategy=placement_strategy)
        try:
            ray.get(self._pg.ready(), timeout=120)
        except Exception as e:
            self._remove_pg(self._pg)
            raise errors.UnavailableError(
                None, None, "Ray could not place %d workers of %g CPUs each (%s placement) on "
                "a cluster with %s CPUs" % (self.num_workers, self.cpus_per_worker,
                                            placement_strategy,
                                            ray.cluster_resources().get("CPU", 0))) from e
        self._actor = ray.remote(concurrency_groups={collective.CONCURRENCY_GROUP: 2})(Worker)
        self._placement = PlacementGroupSchedulingStrategy
        self._collective_timeout = float(collective_timeout)
        self.max_failures = int(max_failures)
        self.failures = 0          # worker deaths survived
        self.rejoined = 0          # of which a new worker joined the running survivors
        self._generation = 0
        self._workers: list = []
        self._start_workers()

    def _new_worker(self, rank: int) -> Any:
        return self._actor.options(num_cpus=self.cpus_per_worker, max_restarts=0,
                                   scheduling_strategy=self._placement(
                                       self._pg, placement_group_bundle_index=rank)).remote(
                                           rank, self.num_workers)

    def _start_workers(self) -> None:
        self._generation = 0
        self._workers = [self._new_worker(i) for i in range(self.num_workers)]
        try:
            cluster.get([w.setup.remote(self._workers, self._collective_timeout)
                         for w in self._workers])
        except Exception:
            self.shutdown()
            raise

    def _replace(self, rank: int, call: Any) -> Any:
        """Starts a new worker in lost worker ``rank``'s place, tells the survivors, and
        starts the function on it; returns its run's ObjectRef (None if a survivor is
        gone too)."""
        ray = self._ray
        self._generation += 1
        new = self._new_worker(rank)
        peers = list(self._workers)
        peers[rank] = new
        try:
            cluster.get(new.setup.remote(peers, self._collective_timeout, self._generation))
            cluster.get([w.peer_replaced.options(
                concurrency_group=collective.CONCURRENCY_GROUP).remote(
                    rank, new, self._generation)
                for r, w in enumerate(peers) if r != rank])
        except ray.exceptions.RayActorError:
            ray.kill(new)
            return None
        self._workers = peers
        return new.run.remote(call, True)

    def _dead_ranks(self) -> list:
        """The ranks whose actors are gone."""
        ray = self._ray
        refs = [w.ping.remote() for w in self._workers]
        ray.wait(refs, num_returns=len(refs), timeout=30)
        dead = []
        for rank, ref in enumerate(refs):
            try:
                ray.get(ref, timeout=0)
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                dead.append(rank)
        return dead

    @property
    def workers(self) -> list:
        """The workers' Ray actor handles, in rank order."""
        return list(self._workers)

    def run(self, fn: Callable, *args: Any, **kwargs: Any) -> list:
        """Runs ``fn(*args, **kwargs)`` on every worker; returns their results in rank
        order. ``fn`` and its arguments go through the object store once.

        Raises:
          UnavailableError: a worker died, more than ``max_failures`` times in all (the
            group is shut down).
          RuntimeError: the group was shut down.
          Exception: the first exception a worker's ``fn`` raised (the group is shut down).
        """
        ray = self._ray
        if not self._workers:
            raise RuntimeError("This WorkerGroup was shut down (after a worker failed, or by "
                               "shutdown()); make a new one")
        call = ray.put((fn, args, kwargs))
        while True:
            try:
                return self._run_once(call)
            except _WorkerDied as died:
                if not died.counted:
                    if self.failures >= self.max_failures:
                        self.shutdown()
                        raise died.error from died.error.__cause__
                    self.failures += 1
                for w in self._workers:
                    ray.kill(w)
                self._start_workers()

    def _died(self, rank: int, cause: Exception, counted: bool = False) -> _WorkerDied:
        error = errors.UnavailableError(
            None, None, "Worker %d of %d (Ray actor %s) died: the run cannot go on without "
            "it, and the group is shut down; make a new WorkerGroup and restore the last "
            "checkpoint to resume (WorkerGroup(max_failures=N) does that by itself)"
            % (rank, self.num_workers, getattr(cause, "actor_id", "?")))
        return _WorkerDied(error, cause, counted)

    def _run_once(self, call: Any) -> list:
        ray = self._ray
        pending = {w.run.remote(call): rank for rank, w in enumerate(self._workers)}
        results: list = [None] * self.num_workers
        replaced = 0            # lost workers replaced in this run
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            rank = pending.pop(done[0])
            try:
                results[rank] = cluster.get(done[0])
            except ray.exceptions.RayActorError as e:
                ref = None
                if self.failures < self.max_failures and pending:
                    ref = self._replace(rank, call)
                if ref is None:
                    raise self._died(rank, e) from e
                self.failures += 1
                replaced += 1
                pending[ref] = rank
            except errors.UnavailableError as e:
                # a survivor that could not take a new worker in, or saw a peer die first
                dead = [] if replaced else self._dead_ranks()
                if replaced or dead:
                    raise self._died(dead[0] if dead else rank, e, counted=bool(replaced)) from e
                self.shutdown()
                raise
            except BaseException:
                self.shutdown()
                raise
        self.rejoined += replaced
        return results

    def stats(self) -> list:
        """Every worker's collective statistics, in rank order."""
        return cluster.get([w.stats.remote() for w in self._workers])

    def shutdown(self) -> None:
        """Ends the workers and frees their placement group."""
        for w in self._workers:
            self._ray.kill(w)
        self._workers = []
        if self._pg is not None:
            self._remove_pg(self._pg)
            self._pg = None

    def __enter__(self) -> WorkerGroup:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()
