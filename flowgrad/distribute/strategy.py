"""ParameterServerStrategy: replicas and parameter servers as Ray actors."""
from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.distribute import cluster
from flowgrad.framework import errors
from flowgrad.distribute.eager_model import EagerModel
from flowgrad.distribute.model import build, initial_values
from flowgrad.distribute.parameter_server import ParameterServer
from flowgrad.distribute.replica import Replica


class ParameterServerStrategy:
    """Trains one model with ``num_replicas`` replicas and ``num_ps`` parameter servers, each
    a Ray actor (a process of its own).

    The model is a function, ``model_fn()``, that builds it in the current graph with the
    TF1 face and returns its loss, or a dict of named tensors with a ``'loss'`` entry and
    the input placeholders under the names that batches use. ``optimizer_fn()`` returns a
    ``tf.train`` optimizer. Each process calls them in a graph of its own (the strategy's
    scope): every variable must be created inside ``model_fn``. The trained variables are
    placed round-robin on the parameter servers, in creation order, as
    ``tf.train.replica_device_setter`` did.

    The TF2 face: pass ``loss_fn``; then ``model_fn()`` returns a tf.Module or (built) Keras
    model, made eagerly in each process, and each replica's step is a tf.function that
    returns ``loss_fn(model, batch)`` and its GradientTape gradients (sent dense). The
    servers apply them with ``optimizer_fn()``'s ``tf.compat.v1.train`` optimizer, as for
    the TF1 face; ``variables()`` names them by Keras path ('dense/kernel') or name.

    ``address=None`` starts a local Ray instance with the machine's CPUs (or uses the
    running one); a cluster's address (``"host:6379"``, ``"ray://host:10001"``, ``"auto"``)
    connects to it. Each replica reserves ``cpus_per_replica`` CPUs (default: one, or an
    equal share when there are fewer CPUs than replicas). A replica that dies is restarted
    by Ray up to ``max_restarts`` times; a synchronous step waits up to ``restart_timeout``
    seconds for it and runs its part again.

    A parameter server that dies loses the updates it held. With ``checkpoint_dir`` and
    ``checkpoint_every=N`` the trainers save every server every N updates (synchronous) or
    N pushes (asynchronous), keeping the two latest, and a lost server makes them restart
    every server from the latest checkpoint and run the failed step again (the updates
    since that checkpoint are lost; ``trainer.server_restarts`` counts). Without them a
    lost server fails the step at once with ``UnavailableError`` saying how to resume.
    Keyword arguments left over go to ``ray.init``."""

    def __init__(self, num_replicas: int = 2, num_ps: int = 1, address: str | None = None,
                 max_restarts: int = 3, cpus_per_replica: float | None = None,
                 restart_timeout: float = 120.0, checkpoint_dir: str | None = None,
                 checkpoint_every: int | None = None, **ray_init_kwargs: Any):
        if int(num_replicas) < 1 or int(num_ps) < 1:
            raise ValueError("num_replicas and num_ps must be at least 1, got %r and %r"
                             % (num_replicas, num_ps))
        self._ray = cluster.connect(address, **ray_init_kwargs)
        self.num_replicas = int(num_replicas)
        self.num_ps = int(num_ps)
        self.max_restarts = int(max_restarts)
        if cpus_per_replica is None:     # one CPU each, or an equal share of too few CPUs
            cpus = self._ray.cluster_resources().get("CPU", 1.0)
            cpus_per_replica = min(1.0, cpus / self.num_replicas)
        self.cpus_per_replica = float(cpus_per_replica)
        self.restart_timeout = float(restart_timeout)
        if (checkpoint_dir is None) != (checkpoint_every is None) or (
                checkpoint_every is not None and int(checkpoint_every) < 1):
            raise ValueError("checkpoint_dir and checkpoint_every (>= 1) go together, got %r "
                             "and %r" % (checkpoint_dir, checkpoint_every))
        self.checkpoint_dir = checkpoint_dir
        self.checkpoint_every = None if checkpoint_every is None else int(checkpoint_every)

    def synchronous(self, model_fn: Callable, optimizer_fn: Callable,
                    accumulate_steps: int = 1, loss_fn: Callable | None = None) -> SyncTrainer:
        """Synchronous data-parallel training (as SyncReplicasOptimizer): the optimizer
        applies the mean of every replica's gradients once every ``accumulate_steps``
        micro-batches. With ``loss_fn(model, batch)``, the TF2 face."""
        return SyncTrainer(self, model_fn, optimizer_fn, accumulate_steps, loss_fn)

    def asynchronous(self, model_fn: Callable, optimizer_fn: Callable, input_fn: Callable,
                     max_staleness: int | None = None,
                     loss_fn: Callable | None = None) -> AsyncTrainer:
        """Asynchronous training (between-graph replication, A3C): each replica pulls the
        values, computes gradients on ``input_fn(ctx)``'s feeds and pushes them; the servers
        apply each push as it comes, dropping those more than ``max_staleness`` updates old.
        With ``loss_fn(model, batch)``, the TF2 face."""
        return AsyncTrainer(self, model_fn, optimizer_fn, input_fn, max_staleness, loss_fn)


class _ServersRestarted(Exception):
    """The parameter servers were restarted from the latest checkpoint: redo the step."""


class _Trainer:
    """Actors of one model: the servers holding its variables, and the replicas."""

    def __init__(self, strategy: ParameterServerStrategy, model_fn: Callable,
                 optimizer_fn: Callable, input_fn: Callable | None,
                 loss_fn: Callable | None = None):
        ray = strategy._ray
        self._ray = ray
        self._strategy = strategy
        if loss_fn is None:
            model = build(model_fn, optimizer_fn)
            values = initial_values(model)
        else:
            model = EagerModel(model_fn, loss_fn)
            values = model.values()
        self._model = model
        self.specs = model.specs
        n_ps = min(strategy.num_ps, len(model.specs))
        self._layout = [list(range(s, len(model.specs), n_ps)) for s in range(n_ps)]
        self._server_cls = ray.remote(ParameterServer).options(num_cpus=0)
        self._server_args = [(s, [model.specs[i] for i in pos], [values[i] for i in pos],
                              optimizer_fn) for s, pos in enumerate(self._layout)]
        self._servers = [self._server_cls.remote(*a) for a in self._server_args]
        self.server_restarts = 0
        self._checkpoints: list = []      # prefixes written by checkpoint_every, oldest first
        replica_cls = ray.remote(Replica).options(num_cpus=strategy.cpus_per_replica,
                                                  max_restarts=strategy.max_restarts)
        # held here so that Ray can restart a replica with them (ray-project/ray#53727)
        self._replica_args = [ray.put(a) for a in (model_fn, optimizer_fn, model.specs,
                                                    self._servers, self._layout, input_fn,
                                                    loss_fn)]
        self._replicas = [replica_cls.remote(i, strategy.num_replicas, *self._replica_args)
                          for i in range(strategy.num_replicas)]
        try:
            cluster.get([r.ready.remote() for r in self._replicas])
        except Exception:
            self.shutdown()
            raise
        self.retries = 0
        self.last_stats: dict = {}

    @property
    def replicas(self) -> list:
        """The replicas' Ray actor handles."""
        return list(self._replicas)

    def variables(self) -> dict:
        """The variables' current values on the parameter servers, by name."""
        out = {}
        for pos, (_, values) in zip(self._layout,
                                    cluster.get([s.pull.remote() for s in self._servers])):
            out.update({self.specs[i].name: v for i, v in zip(pos, values)})
        return {s.name: out[s.name] for s in self.specs}

    def save(self, save_path: str) -> str:
        """Checkpoints every parameter server (variables, optimizer slots, update count)
        with the atomic tf.train.Saver, as ``<save_path>-ps<i>-of-<n>``; returns save_path."""
        n = len(self._servers)
        cluster.get([s.save.remote("%s-ps%d-of-%d" % (save_path, i, n))
                     for i, s in enumerate(self._servers)])
        return save_path

    def restore(self, save_path: str) -> None:
        """Restores every parameter server from a checkpoint written by ``save``."""
        n = len(self._servers)
        cluster.get([s.restore.remote("%s-ps%d-of-%d" % (save_path, i, n))
                     for i, s in enumerate(self._servers)])

    def _maybe_checkpoint(self, count: int) -> None:
        """Saves every server when ``count`` (updates or pushes) is a multiple of
        ``checkpoint_every``, keeping the two latest checkpoints."""
        every, directory = self._strategy.checkpoint_every, self._strategy.checkpoint_dir
        if every is None or count % every:
            return
        prefix = self.save(os.path.join(directory, "ps-%d" % count))
        self._checkpoints.append(prefix)
        while len(self._checkpoints) > 2:
            for path in glob.glob(glob.escape(self._checkpoints.pop(0)) + "-ps*"):
                os.remove(path)

    def _dead_servers(self) -> list:
        """The indices of the parameter servers whose actors died."""
        ray = self._ray
        refs = [s.stats.remote() for s in self._servers]
        ray.wait(refs, num_returns=len(refs), timeout=30)
        dead = []
        for i, ref in enumerate(refs):
            try:
                ray.get(ref, timeout=0)
            except ray.exceptions.RayActorError:
                dead.append(i)
            except ray.exceptions.GetTimeoutError:
                pass
        return dead

    def _recover_servers(self, cause: Exception) -> bool:
        """After a failed call: False when every server lives; else restarts them all from
        the latest checkpoint (True), or raises UnavailableError saying how to resume."""
        dead = self._dead_servers()
        if not dead:
            return False
        if not self._checkpoints:
            raise errors.UnavailableError(
                None, None, "Parameter server%s %s died and %s updates are lost: %s. To "
                "resume, make a new trainer and call trainer.restore(prefix) with the last "
                "prefix given to trainer.save; or make the strategy with checkpoint_dir=... "
                "and checkpoint_every=N to checkpoint every N updates and restart lost "
                "servers from the latest checkpoint by itself." % (
                    "s" if len(dead) > 1 else "", ", ".join(map(str, dead)),
                    "their" if len(dead) > 1 else "its",
                    "no checkpoint was written yet" if self._strategy.checkpoint_every
                    else "this trainer does not checkpoint")) from cause
        for actor in self._servers:
            self._ray.kill(actor)
        self._servers = [self._server_cls.remote(*a) for a in self._server_args]
        _Trainer.restore(self, self._checkpoints[-1])
        cluster.get([r.set_servers.remote(self._servers) for r in self._replicas])
        self.server_restarts += 1
        return True

    def _get_retrying(self, ref: Any, resubmit: Callable, what: str = "a replica") -> Any:
        """The result of ``ref``, calling ``resubmit()`` again while its replica restarts;
        a replica dead for good (no restarts left) fails the step at once."""
        deadline = time.monotonic() + self._strategy.restart_timeout
        delay = 0.05
        while True:
            try:
                return cluster.get(ref)
            except self._ray.exceptions.RayActorError as e:
                if self._recover_servers(e):
                    raise _ServersRestarted() from e
                self._raise_if_dead_for_good(e, what)
                if time.monotonic() > deadline:
                    raise
                self.retries += 1
                time.sleep(delay)
                delay = min(2 * delay, 1.0)
                ref = resubmit()

    def _raise_if_dead_for_good(self, e: Exception, what: str) -> None:
        """Raises UnavailableError naming ``what`` when Ray says its actor is DEAD (its
        restarts are used up) rather than RESTARTING: waiting for it could only time out."""
        actor_id = getattr(e, "actor_id", None)
        try:
            from ray._private import state as ray_state   # Ray's GCS view of an actor
            info = ray_state.actors(actor_id) if actor_id else {}
        except Exception:                          # noqa: BLE001 - no GCS view: wait
            return
        if (info or {}).get("State") == "DEAD":
            raise errors.UnavailableError(
                None, None, "%s (Ray actor %s) is dead for good: it died %d time(s), more "
                "than max_restarts=%d allows. Start a new trainer (and restore its last "
                "checkpoint with trainer.restore) to resume." % (
                    what, actor_id, int(info.get("NumRestarts", 0)) + 1,
                    self._strategy.max_restarts)) from e

    def _record(self, results: list, start: float) -> None:
        step_s = time.perf_counter() - start
        compute_s = max(r["compute_s"] for r in results)
        self.last_stats = {"step_s": step_s, "compute_s": compute_s,
                           "comm_share": max(0.0, 1.0 - compute_s / step_s),
                           "bytes": sum(r["bytes"] for r in results)}

    def shutdown(self) -> None:
        """Ends the trainer's actors."""
        for actor in self._replicas + self._servers:
            self._ray.kill(actor)
        self._replicas, self._servers = [], []

    def __enter__(self) -> _Trainer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()


class SyncTrainer(_Trainer):
    """Synchronous data parallelism; made by ``ParameterServerStrategy.synchronous``."""

    def __init__(self, strategy: ParameterServerStrategy, model_fn: Callable,
                 optimizer_fn: Callable, accumulate_steps: int = 1,
                 loss_fn: Callable | None = None):
        if int(accumulate_steps) < 1:
            raise ValueError("accumulate_steps must be at least 1, got %r" % accumulate_steps)
        super().__init__(strategy, model_fn, optimizer_fn, None, loss_fn)
        self.accumulate_steps = int(accumulate_steps)
        self._micro = 0
        self.version = 0      # updates applied

    def _shards(self, batch: dict) -> list:
        n = len(self._replicas)
        tensors = getattr(self._model, "tensors", None)     # None with the TF2 face
        shards: list = [{} for _ in range(n)]
        for key, value in batch.items():
            t = None if tensors is None else tensors.get(key)
            if tensors is not None and (t is None or t.op.type != "Placeholder"):
                raise ValueError("Batch key %r is not an input placeholder that model_fn "
                                 "returned; its placeholders: %s" % (key, sorted(
                                     k for k, v in tensors.items()
                                     if getattr(getattr(v, "op", None), "type", "")
                                     == "Placeholder")))
            value = np.asarray(value)
            if value.ndim == 0 or value.shape[0] % n:
                raise ValueError("Batch %r of shape %s does not split evenly among %d "
                                 "replicas (equal shards make the mean of their gradients "
                                 "the batch's)" % (key, value.shape, n))
            for shard, part in zip(shards, np.split(value, n)):
                shard[key] = part
        return shards

    def step(self, batch: dict) -> float:
        """Runs one micro-batch: ``batch`` (name -> array) split evenly among the replicas.
        The update is applied after every ``accumulate_steps`` calls. Returns the loss,
        the mean over the replicas' shards, before the update. A parameter server lost
        during the step restarts every server from the latest checkpoint and the step runs
        again (with ``checkpoint_every``), or fails at once."""
        try:
            return self._step(batch)
        except _ServersRestarted:
            self.version = cluster.get(self._servers[0].stats.remote())["version"]
            self._micro = 0
            return self._step(batch)

    def _step(self, batch: dict) -> float:
        start = time.perf_counter()
        shards = self._shards(batch)
        micro = self._micro
        refs = [r.sync_step.remote(self.version, micro, shard)
                for r, shard in zip(self._replicas, shards)]
        results = []
        for i, ref in enumerate(refs):
            results.append(self._get_retrying(
                ref, lambda i=i: self._replicas[i].sync_step.remote(self.version, micro,
                                                                     shards[i]),
                "replica %d" % i))
        self._micro += 1
        if self._micro == self.accumulate_steps:
            keys = [(i, m) for i in range(len(self._replicas))
                    for m in range(self.accumulate_steps)]
            try:
                cluster.get([s.apply_accumulated.remote(self.version, keys)
                             for s in self._servers])
            except self._ray.exceptions.RayActorError as e:
                if self._recover_servers(e):
                    raise _ServersRestarted() from e
                raise
            self.version += 1
            self._micro = 0
            self._maybe_checkpoint(self.version)
        self._record(results, start)
        return float(np.mean([r["loss"] for r in results]))

    def restore(self, save_path: str) -> None:
        super().restore(save_path)
        self.version = cluster.get(self._servers[0].stats.remote())["version"]
        self._micro = 0


class AsyncTrainer(_Trainer):
    """Asynchronous parameter servers; made by ``ParameterServerStrategy.asynchronous``."""

    def __init__(self, strategy: ParameterServerStrategy, model_fn: Callable,
                 optimizer_fn: Callable, input_fn: Callable, max_staleness: int | None = None,
                 loss_fn: Callable | None = None):
        if max_staleness is not None and int(max_staleness) < 0:
            raise ValueError("max_staleness must be None or >= 0, got %r" % max_staleness)
        super().__init__(strategy, model_fn, optimizer_fn, input_fn, loss_fn)
        self.max_staleness = max_staleness
        self.dropped = 0      # pushes staler than max_staleness
        self.pushes = 0       # pushes the servers answered
        self.lost = 0         # pushes lost with a replica that died

    def run(self, steps_per_replica: int, callback: Callable | None = None) -> list:
        """Runs ``steps_per_replica`` steps on every replica, as they come; calls
        ``callback(replica_id, step, result)`` after each. Returns the losses in the order
        the steps finished."""
        ray = self._ray
        pending: dict = {}
        next_step = [0] * len(self._replicas)

        def submit(i: int) -> None:
            ref = self._replicas[i].async_step.remote(next_step[i], self.max_staleness)
            pending[ref] = (i, next_step[i])
            next_step[i] += 1

        for i in range(len(self._replicas)):
            submit(i)
        losses = []
        while pending:
            (ref,), _ = ray.wait(list(pending), num_returns=1)
            i, step = pending.pop(ref)
            try:
                result = cluster.get(ref)
            except ray.exceptions.RayActorError as e:
                if not self._recover_servers(e):
                    self._raise_if_dead_for_good(e, "replica %d" % i)
                self.lost += 1          # its push is dropped; Ray restarts what died
                result = None
                time.sleep(0.1)
            if result is not None:
                self.pushes += 1
                self._maybe_checkpoint(self.pushes)
                losses.append(result["loss"])
                self.dropped += not result["applied"]
                self._record([result], time.perf_counter() - result["total_s"])
                if callback is not None:
                    callback(i, step, result)
            if next_step[i] < steps_per_replica:
                submit(i)
        return losses
