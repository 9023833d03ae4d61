"""``tf.distribute.experimental.ParameterServerStrategy`` and
``tf.distribute.experimental.coordinator.ClusterCoordinator`` on Ray: asynchronous
parameter-server training as in TensorFlow's tutorials.

The program runs on the coordinator (this process). Variables created under
``strategy.scope()`` live on the parameter servers (Ray actors), placed round-robin, a
variable split into row shards over several servers where ``variable_partitioner`` says so
(TensorFlow's ShardedVariable layout). ``coordinator.schedule(step_fn, args)`` sends a
``tf.function`` to a free worker (a Ray actor) and returns a ``RemoteValue`` at once; the
worker pulls the current values, runs the function (its ``strategy.run`` is the worker's
one replica), and pushes what it changed (``flowgrad.distribute.ps_tasks``). The workers
run without waiting for one another, each update applied as it arrives.

As in TensorFlow, ``schedule`` traces the function on the coordinator first, under the
strategy's scope, so that the variables its first trace creates (an optimizer's slots) are
the strategy's too. On the coordinator, the variables hold the servers' values after
``coordinator.join()`` (read them, evaluate, or save a checkpoint then); what the
coordinator writes into them (restoring a checkpoint) reaches the servers at the next
``schedule``.

A worker that dies is restarted by Ray; the functions it was running run again on another
worker, and the restarted worker rejoins from the servers' current values. A lost parameter
server fails ``join``/``fetch``/``schedule`` with ``UnavailableError``: resume from the last
checkpoint, as in TensorFlow. flowgrad's opt-in improvement:
``coordinator.restart_lost_servers_from(checkpoint_manager)`` makes the coordinator restart
a lost server itself, set every server's variables to the manager's latest checkpoint, run
the lost functions again and go on."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.distribute import cluster, distribute_lib, ps_tasks
from flowgrad.distribute.per_worker import (PerWorkerDataset, PerWorkerDatasetIterator,
                                            PerWorkerValues)
from flowgrad.debug import tf_logging
from flowgrad.distribute.partitioners import row_ranges
from flowgrad.framework import errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import state_ops
from flowgrad.framework.type_hints import TensorLike

#: How many times Ray restarts a worker that died.
WORKER_MAX_RESTARTS = 3
#: Functions queued on one worker at a time (the next runs as soon as one ends).
_IN_FLIGHT_PER_WORKER = 2


class _JobCounts:
    """The part of a ``tf.train.ClusterSpec`` the strategy reads: its jobs' sizes."""

    def __init__(self, jobs: dict):
        self._jobs = jobs

    def __bool__(self) -> bool:
        return bool(self._jobs)

    @property
    def jobs(self) -> list:
        return list(self._jobs)

    def num_tasks(self, job_name: str) -> int:
        return self._jobs[job_name]

    def as_dict(self) -> dict:
        return {job: ["ray:%s/%d" % (job, i) for i in range(n)] for job, n in self._jobs.items()}


class RayClusterResolver:
    """A cluster of ``num_workers`` workers and ``num_ps`` parameter servers that
    ``ParameterServerStrategy`` starts as Ray actors (flowgrad's stand-in for TensorFlow's
    servers; a ``SimpleClusterResolver`` or ``TFConfigClusterResolver`` with ``worker`` and
    ``ps`` jobs works too, only the number of tasks counts).

    Args:
      num_workers: the workers.
      num_ps: the parameter servers.
      address: the Ray cluster (None: a local instance, or the running one).
      cpus_per_worker: the CPUs each worker reserves, in a placement group that spreads
        the workers over the nodes (default: one, or an equal share of fewer CPUs than
        workers); parameter servers reserve none.
      **ray_init_kwargs: passed to ``ray.init``.
    """

    def __init__(self, num_workers: int = 2, num_ps: int = 1, address: str | None = None,
                 cpus_per_worker: float | None = None, **ray_init_kwargs: Any):
        self._spec = _JobCounts({"worker": int(num_workers), "ps": int(num_ps)})
        self.address = address
        self.cpus_per_worker = cpus_per_worker
        self.ray_init_kwargs = ray_init_kwargs
        self.task_type, self.task_id = "chief", 0

    def cluster_spec(self) -> _JobCounts:
        """The cluster's jobs: ``worker`` and ``ps``."""
        return self._spec


class _PSExtended(distribute_lib.StrategyExtended):
    """``strategy.extended`` of a ParameterServerStrategy."""

    @property
    def parameter_devices(self) -> tuple:
        return tuple("/job:ps/replica:0/task:%d/device:CPU:0" % i
                     for i in range(self._strategy._num_ps))

    @property
    def worker_devices(self) -> tuple:
        return tuple("/job:worker/replica:0/task:%d/device:CPU:0" % i
                     for i in range(self._strategy._num_workers))

    @property
    def should_checkpoint(self) -> bool:
        return True

    def _in_multi_worker_mode(self) -> bool:
        return True


class ParameterServerStrategy(distribute_lib.Strategy):
    """Asynchronous training with workers and parameter servers
    (``tf.distribute.experimental.ParameterServerStrategy``), on Ray; see the module
    docstring. Train with a ``ClusterCoordinator``.

    Args:
      cluster_resolver: the cluster (a ``tf.distribute.cluster_resolver`` resolver): its
        spec's ``worker`` and ``ps`` jobs give the number of each (a
        ``flowgrad.distribute.RayClusterResolver`` also says where Ray runs).
      variable_partitioner: a ``tf.distribute.experimental.partitioners`` partitioner:
        variables it splits in more than one shard along their first axis are held in row
        shards on several parameter servers (the variable stays one ``tf.Variable`` on the
        coordinator and the workers).

    Raises:
      ValueError: a cluster without workers or parameter servers.
    """

    def __init__(self, cluster_resolver: Any, variable_partitioner: Callable | None = None):
        resolver = cluster_resolver
        spec = resolver.cluster_spec()
        if not spec:
            raise ValueError("Cluster spec must be non-empty in "
                             "`tf.distribute.cluster_resolver.ClusterResolver`.")
        jobs = spec.jobs
        if "ps" not in jobs or spec.num_tasks("ps") < 1:
            raise ValueError("There must be at least one ps.")
        if "worker" not in jobs or spec.num_tasks("worker") < 1:
            raise ValueError("There must be at least one worker.")
        super().__init__(_PSExtended(self, ""), num_replicas=1)
        self._cluster_resolver = resolver
        self._num_workers = spec.num_tasks("worker")
        self._num_ps = spec.num_tasks("ps")
        self._partitioner = variable_partitioner
        self._tokens: dict = {}        # id(variable) -> VariableToken
        self._placed = 0               # self._variables[:placed] are on the servers
        self._shards = 0               # shards placed (round-robin counter)
        self._synced: dict = {}        # key -> the value the servers had at the last sync
        self._servers: list = []
        self._pg: Any = None           # the workers' placement group
        self._servers_version = 0      # counts the server restarts; workers compare it
        self._workers: list = []
        self._ray: Any = None
        self._being_scheduled = False  # a ClusterCoordinator is tracing a scheduled function

    def _warn_unless_scheduled(self) -> None:
        """TensorFlow's warning when ``run``/``reduce`` run on the coordinator (Keras
        ``fit`` under the scope, a direct call): the step trains the coordinator's copies,
        which reach the servers at the next ``schedule``."""
        # (a step pickled with ``strategy.run`` bound calls this on the worker's strategy,
        # which schedules nothing)
        if not getattr(self, "_being_scheduled", True):
            tf_logging.warning(
                "A `tf.distribute.experimental.ParameterServerStrategy` method is invoked "
                "without using `ClusterCoordinator.schedule`. If you are not tracing a "
                "tf.function, this method is possibly executed on the coordinator, which can "
                "be slow. To properly dispatch functions to run on workers, methods like `run` "
                "or `reduce` should be used within a function passed to "
                "`tf.distribute.experimental.coordinator.ClusterCoordinator.schedule`.")

    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None,
            options: Any = None) -> Any:
        """``fn(*args, **kwargs)`` in the replica context; outside a scheduled function it
        runs on the coordinator, with TensorFlow's warning."""
        ParameterServerStrategy._warn_unless_scheduled(self)
        return distribute_lib.Strategy.run(self, fn, args, kwargs)

    def reduce(self, reduce_op: Any, value: Any, axis: int | None = None) -> Any:
        """``value`` reduced as by the default strategy (one replica here), with TensorFlow's
        warning outside a scheduled function."""
        ParameterServerStrategy._warn_unless_scheduled(self)
        return distribute_lib.Strategy.reduce(self, reduce_op, value, axis)

    @property
    def cluster_resolver(self) -> Any:
        return self._cluster_resolver

    # -- the Ray actors --------------------------------------------------------------------
    def _start(self) -> None:
        """Starts the parameter servers and workers (once)."""
        if self._servers:
            return
        if not executing_eagerly():
            raise RuntimeError("ParameterServerStrategy trains TF2 programs: eager execution "
                               "is disabled in this process (tf.disable_v2_behavior)")
        r = self._cluster_resolver
        ray = self._ray = cluster.connect(getattr(r, "address", None),
                                          **getattr(r, "ray_init_kwargs", {}))
        cpus = getattr(r, "cpus_per_worker", None)
        if cpus is None:
            cpus = min(1.0, ray.cluster_resources().get("CPU", 1.0) / self._num_workers)
        server_cls = self._server_cls = ray.remote(ps_tasks.ParameterServerTask).options(
            num_cpus=0)
        self._servers = [server_cls.remote(i) for i in range(self._num_ps)]
        from ray.util.placement_group import placement_group
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
        self._pg = placement_group([{"CPU": cpus}] * self._num_workers, strategy="SPREAD")
        try:
            ray.get(self._pg.ready(), timeout=120)
        except Exception as e:
            self._shutdown()
            raise errors.UnavailableError(
                None, None, "Ray could not place %d workers of %g CPUs each on a cluster "
                "with %s CPUs" % (self._num_workers, cpus,
                                  ray.cluster_resources().get("CPU", 0))) from e
        worker_cls = ray.remote(ps_tasks.WorkerTask)
        self._workers = [worker_cls.options(
            num_cpus=cpus, max_restarts=WORKER_MAX_RESTARTS, max_task_retries=0,
            scheduling_strategy=PlacementGroupSchedulingStrategy(
                self._pg, placement_group_bundle_index=i)).remote(
                    i, self._num_workers, self._servers)
            for i in range(self._num_workers)]
        try:
            ps_tasks.wait_ready(self._workers, 300.0)
        except Exception:
            self._shutdown()
            raise

    def _shutdown(self) -> None:
        for actor in self._workers + self._servers:
            self._ray.kill(actor)
        self._workers, self._servers = [], []
        if getattr(self, "_pg", None) is not None:
            from ray.util.placement_group import remove_placement_group
            remove_placement_group(self._pg)
            self._pg = None

    # -- the variables ---------------------------------------------------------------------
    def _token(self, v: Any) -> ps_tasks.VariableToken | None:
        return self._tokens.get(id(v))

    def _place(self, key: int, v: Any) -> list:
        """Gives variable ``key`` its shards on the servers (round-robin, in creation
        order, a shard per server in turn as TensorFlow places them)."""
        shape = tuple(v.shape.as_list())
        shards = 1
        if self._partitioner is not None and shape and shape[0] > 1:
            shards = int(self._partitioner(v.shape, v.dtype)[0])
        ranges = [(None, None)] if shards <= 1 else row_ranges(shape[0], shards)
        placement = []
        for i, (lo, hi) in enumerate(ranges):
            placement.append((self._shards % self._num_ps, "%d/%d" % (key, i), lo, hi))
            self._shards += 1
        self._tokens[id(v)] = ps_tasks.VariableToken(
            key, v.name.split(":")[0], np.dtype(v.dtype.as_numpy_dtype).name, shape,
            bool(v.trainable), placement)
        return placement

    def _write(self, items: list, method: str) -> None:
        """Writes ``[(variable, value)]`` to the servers (``create`` or ``assign``)."""
        per_server: list = [[] for _ in self._servers]
        for v, value in items:
            token = self._tokens[id(v)]
            for ps, skey, lo, hi in token.placement:
                per_server[ps].append((skey, value if lo is None else value[lo:hi]))
            self._synced[token.key] = np.array(value, copy=True)
        self._get([getattr(s, method).remote(p)
                   for s, p in zip(self._servers, per_server) if p])

    def _push_variables(self, check_written: bool) -> None:
        """Puts new variables on the servers and, with ``check_written``, the values the
        coordinator wrote since the last sync."""
        new = []
        for v in self._variables[self._placed:]:
            if isinstance(v, state_ops.EagerVariable):
                self._place(len(self._tokens), v)
                new.append((v, np.asarray(v.numpy())))
        self._placed = len(self._variables)
        if new:
            self._write(new, "create")
        if check_written:
            written = [(v, np.asarray(v.numpy())) for v in self._variables
                       if id(v) in self._tokens and not any(v is n for n, _ in new)]
            written = [(v, x) for v, x in written
                       if not np.array_equal(x, self._synced[self._tokens[id(v)].key])]
            if written:
                self._write(written, "assign")

    def _pull_variables(self, servers: list | None = None) -> None:
        """Sets the coordinator's variables to the servers' values (only the shards held
        by the servers of index ``servers`` where given; the others keep theirs)."""
        ask = range(len(self._servers)) if servers is None else servers
        answers = self._get([self._servers[i].read.remote(None) for i in ask])
        shards: dict = {}
        for _, values in answers:
            shards.update(values)
        for v in self._variables:
            token = self._tokens.get(id(v))
            if token is None:
                continue
            value = np.array(v.numpy(), copy=True)
            for _, skey, lo, hi in token.placement:
                if skey in shards:
                    if lo is None:
                        value = shards[skey]
                    else:
                        value[lo:hi] = shards[skey]
            v.assign(value)
            self._synced[token.key] = np.array(value, copy=True)

    def _lost_servers(self, timeout: float = 30.0) -> list:
        """The indices of the servers whose Ray actors are gone."""
        ray = self._ray
        refs = [s.ping.remote() for s in self._servers]
        ray.wait(refs, num_returns=len(refs), timeout=timeout)
        lost = []
        for i, ref in enumerate(refs):
            try:
                ray.get(ref, timeout=0)
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                lost.append(i)
        return lost

    def _restart_servers(self, checkpoint_manager: Any) -> list:
        """Starts new actors for the lost servers and sets every server's variables to
        ``checkpoint_manager``'s latest checkpoint (the variables it does not hold keep the
        surviving servers' values, or the coordinator's for the lost shards). Returns the
        indices of the restarted servers."""
        lost = self._lost_servers()
        if not lost:
            return []
        latest = checkpoint_manager.latest_checkpoint
        if latest is None:
            raise errors.UnavailableError(
                None, None, "Parameter server(s) %s are lost and no checkpoint was saved yet "
                "in %r to restart them from: save one with the CheckpointManager after "
                "coordinator.join()" % (lost, checkpoint_manager.directory))
        alive = [i for i in range(len(self._servers)) if i not in lost]
        if alive:
            self._pull_variables(alive)
        for i in lost:
            self._servers[i] = self._server_cls.remote(i)
        ps_tasks.wait_ready(self._servers, 120.0)
        self._servers_version += 1
        checkpoint_manager.checkpoint.restore(latest)
        self._write([(v, np.asarray(v.numpy())) for v in self._variables
                     if id(v) in self._tokens], "create")
        tf_logging.warning("Restarted parameter server(s) %s from checkpoint %s", lost, latest)
        return lost

    def _get(self, refs: Any) -> Any:
        try:
            return cluster.get(refs)
        except self._ray.exceptions.RayActorError as e:
            raise ps_tasks._server_lost(e) from None

    def __repr__(self) -> str:
        return "<ParameterServerStrategy: %d workers, %d ps>" % (self._num_workers,
                                                                  self._num_ps)


class RemoteValue:
    """The result of a scheduled function, available once it ran
    (``tf.distribute.experimental.coordinator.RemoteValue``).

    Args:
      coordinator: the coordinator that scheduled the function.
    """

    def __init__(self, coordinator: ClusterCoordinator):
        self._coordinator = coordinator
        self._done = False
        self._value: Any = None
        self._error: Exception | None = None

    def fetch(self) -> Any:
        """Waits for the function; its result as NumPy values.

        Raises:
          Exception: what the function raised (or ``UnavailableError`` for a lost task).
        """
        self._coordinator._wait_for(self)
        if self._error is not None:
            raise self._error
        return self._value

    def get(self) -> Any:
        """Waits for the function; its result as tensors."""
        return nest.map_structure(lambda x: x if x is None else convert_to_tensor(x),
                                  self.fetch())


class _Closure:
    def __init__(self, function_key: int, call: bytes, value: RemoteValue):
        self.function_key = function_key
        self.call = call
        self.value = value
        self.worker = -1


class ClusterCoordinator:
    """Schedules functions on the workers of a ``ParameterServerStrategy``
    (``tf.distribute.experimental.coordinator.ClusterCoordinator``).

    Args:
      strategy: the ParameterServerStrategy.

    Raises:
      ValueError: another kind of strategy.
    """

    def __init__(self, strategy: ParameterServerStrategy):
        if not isinstance(strategy, ParameterServerStrategy):
            raise ValueError("Only `tf.distribute.experimental.ParameterServerStrategy` is "
                             "supported to work with "
                             "`tf.distribute.experimental.coordinator.ClusterCoordinator` "
                             "currently.")
        self._strategy = strategy
        strategy._start()
        self._ray = strategy._ray
        self._functions: dict = {}       # id(tf.function) -> (key, [ref], function)
        self._traced: set = set()
        self._datasets: dict = {}        # key -> [ref]
        self._pending: dict = {}         # ref -> closure
        self._load = [0] * len(strategy._workers)
        self._worker_failures = [0] * len(strategy._workers)
        self._error: Exception | None = None
        self._synced = False             # the coordinator's writes were pushed since join
        self.retries = 0                 # functions run again after their worker died
        self._checkpoint_manager: Any = None
        self._server_lost: list = []     # closures that failed because a server was lost
        self._restarting = False
        self.server_restarts = 0         # lost parameter servers restarted from checkpoints

    @property
    def strategy(self) -> ParameterServerStrategy:
        return self._strategy

    # -- scheduling ------------------------------------------------------------------------
    def _trace_args(self, value: Any) -> Any:
        """A scheduled call's arguments as the coordinator's trace sees them: a per-worker
        iterator is an iterator over a dataset made here, a per-worker value worker 0's."""
        if isinstance(value, PerWorkerDatasetIterator):
            dataset_fn = value._dataset._fn
            ctx = distribute_lib.InputContext(self._strategy._num_workers, 0, 1)
            try:
                return iter(dataset_fn(ctx))
            except TypeError:
                return iter(dataset_fn())
        if isinstance(value, PerWorkerValues):
            return value._values[0]
        return value

    def _function(self, fn: Any, args: tuple, kwargs: dict) -> tuple:
        held = self._functions.get(id(fn))
        if held is not None:
            return held
        from flowgrad.runtime.function import Function
        if not isinstance(fn, Function):
            raise TypeError("`tf.distribute.experimental.coordinator.ClusterCoordinator."
                            "schedule` only accepts a `tf.function` or a concrete function.")
        strategy = self._strategy
        strategy._being_scheduled = True
        try:
            with strategy.scope():     # the first trace creates slot variables: the strategy's
                trace = [self._trace_args(a) for a in args]
                fn.get_concrete_function(*trace, **{k: self._trace_args(v)
                                                    for k, v in kwargs.items()})
        finally:
            strategy._being_scheduled = False
        strategy._push_variables(check_written=False)
        held = self._functions[id(fn)] = (len(self._functions), [self._ray.put(
            ps_tasks.dumps(fn, strategy._token, strategy))], fn)
        return held

    def schedule(self, fn: Any, args: Any = None, kwargs: Any = None) -> RemoteValue:
        """Runs ``fn(*args, **kwargs)`` on a free worker, asynchronously.

        Args:
          fn: a ``tf.function``.
          args: its positional arguments (per-worker iterators and values included).
          kwargs: its keyword arguments.

        Returns:
          A RemoteValue of its result.

        Raises:
          TypeError: ``fn`` is not a tf.function.
          Exception: the error of a function scheduled before (it is cleared).
        """
        self._raise_error()
        args, kwargs = tuple(args or ()), dict(kwargs or {})
        strategy = self._strategy
        function_key, _, _ = self._function(fn, args, kwargs)
        self._with_servers(lambda: strategy._push_variables(check_written=not self._synced))
        self._synced = True
        call = ps_tasks.dumps((args, kwargs), strategy._token, strategy)
        value = RemoteValue(self)
        closure = _Closure(function_key, call, value)
        while self._pending and min(self._load[i] for i in self._live()) >= \
                _IN_FLIGHT_PER_WORKER:
            self._process(block=True)
        self._submit(closure)
        self._process(block=False)
        return value

    def _live(self) -> list:
        """The workers that did not die more often than Ray restarts them."""
        return [i for i, n in enumerate(self._worker_failures) if n <= WORKER_MAX_RESTARTS] \
            or [0]

    def _submit(self, closure: _Closure) -> None:
        live = [i for i, n in enumerate(self._worker_failures) if n <= WORKER_MAX_RESTARTS]
        if not live:
            self._fail(closure, errors.UnavailableError(
                None, None, "Every worker died more than %d times: no worker is left to run "
                "the scheduled functions" % WORKER_MAX_RESTARTS))
            return
        i = min(live, key=lambda w: self._load[w])
        _, ref_list, _ = next(h for h in self._functions.values() if h[0] == closure.function_key)
        strategy = self._strategy
        ref = strategy._workers[i].run.remote(closure.function_key, ref_list,
                                              dict(self._datasets), closure.call,
                                              (strategy._servers_version, strategy._servers))
        closure.worker = i
        self._load[i] += 1
        self._pending[ref] = closure

    def _fail(self, closure: _Closure, error: Exception) -> None:
        closure.value._error = error
        closure.value._done = True
        if self._error is None:
            self._error = error

    def _process(self, block: bool) -> None:
        """Collects the functions that ended (waiting for one with ``block``); runs again
        those whose worker died."""
        if not self._pending:
            return
        ray = self._ray
        done, _ = ray.wait(list(self._pending), num_returns=1 if block else len(self._pending),
                           timeout=None if block else 0)
        for ref in done:
            closure = self._pending.pop(ref)
            self._load[closure.worker] -= 1
            try:
                closure.value._value = cluster.get(ref)
                closure.value._done = True
            except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError):
                self._worker_failures[closure.worker] += 1
                self.retries += 1
                time.sleep(0.05)
                self._submit(closure)          # on another worker, or the restarted one
            except ps_tasks.ServerLostError as e:
                if self._checkpoint_manager is None:
                    self._fail(closure, e)
                else:
                    self._server_lost.append(closure)
            except Exception as e:             # noqa: BLE001 - the function's own error
                self._fail(closure, e)
        if self._server_lost and not self._restarting:
            self._restart_servers()

    # -- lost parameter servers (flowgrad's opt-in) ----------------------------------------
    def restart_lost_servers_from(self, checkpoint_manager: Any) -> None:
        """Restarts a lost parameter server from ``checkpoint_manager``'s latest checkpoint
        instead of failing (flowgrad's opt-in improvement over TensorFlow, whose
        coordinator raises ``UnavailableError`` and leaves the restart to the program).

        When a server's Ray actor is lost, the coordinator waits for the functions in
        flight, starts a new server actor, restores the latest checkpoint into the
        coordinator's variables and sets every server's variables to it (all of them go
        back to the checkpoint, as a restarted TensorFlow program's would; variables the
        checkpoint does not hold keep their values), runs again the functions that failed
        because of the lost server, and goes on. The updates made since that checkpoint
        are lost: save one regularly (``manager.save()`` after ``coordinator.join()``).

        Args:
          checkpoint_manager: the ``tf.train.CheckpointManager`` whose checkpoint tracks
            the strategy's variables (the model and the optimizer); None turns the
            restart off again (TensorFlow's behaviour, the default).

        Raises:
          TypeError: ``checkpoint_manager`` is not a CheckpointManager.
        """
        if checkpoint_manager is not None and not (
                hasattr(checkpoint_manager, "latest_checkpoint")
                and hasattr(checkpoint_manager, "checkpoint")):
            raise TypeError("restart_lost_servers_from takes a tf.train.CheckpointManager, "
                            "got %r" % (checkpoint_manager,))
        self._checkpoint_manager = checkpoint_manager

    def _restart_servers(self) -> None:
        """Waits for the functions in flight, restarts the lost servers from the
        checkpoint and runs again the functions they failed."""
        self._restarting = True
        try:
            while self._pending:
                self._process(block=True)
            lost = self._strategy._restart_servers(self._checkpoint_manager)
            self.server_restarts += len(lost)
            again, self._server_lost = self._server_lost, []
        except Exception as e:                 # noqa: BLE001 - fails the lost functions
            again, self._server_lost = self._server_lost, []
            for closure in again:
                self._fail(closure, e)
            return
        finally:
            self._restarting = False
        for closure in again:
            self.retries += 1
            self._submit(closure)

    def _with_servers(self, action: Callable) -> Any:
        """``action()`` (a call of the coordinator's to the servers), run again once after
        restarting a lost server where ``restart_lost_servers_from`` is set."""
        try:
            return action()
        except ps_tasks.ServerLostError:
            if self._checkpoint_manager is None or self._restarting:
                raise
        self._restart_servers()
        self._raise_error()
        return action()

    def _wait_for(self, value: RemoteValue) -> None:
        while not value._done:
            if not self._pending:
                raise RuntimeError("This RemoteValue's function was never scheduled")
            self._process(block=True)

    def _raise_error(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def join(self) -> None:
        """Waits for every scheduled function, then sets the coordinator's variables to
        the parameter servers' values.

        Raises:
          Exception: the error of a scheduled function (it is cleared).
        """
        while True:
            while self._pending:
                self._process(block=True)
            self._raise_error()
            self._with_servers(self._strategy._pull_variables)
            if not self._pending:        # (unless a server restart ran functions again)
                break
        self._synced = False

    def done(self) -> bool:
        """Whether every scheduled function has ended (raises the error of one that
        failed)."""
        self._process(block=False)
        self._raise_error()
        return not self._pending

    def fetch(self, val: TensorLike) -> Any:
        """``val`` with every RemoteValue in it replaced by its result."""
        return nest.map_structure(lambda v: v.fetch() if isinstance(v, RemoteValue) else v,
                                  val)

    def create_per_worker_dataset(self, dataset_fn: Any) -> PerWorkerDataset:
        """A dataset that every worker makes with ``dataset_fn`` (called with an
        ``InputContext`` of the worker's index where it takes one argument).

        Args:
          dataset_fn: a function returning a ``tf.data.Dataset``.
        """
        if isinstance(dataset_fn, PerWorkerDataset):
            return dataset_fn
        if not callable(dataset_fn):
            raise TypeError("create_per_worker_dataset takes a function that returns a "
                            "tf.data.Dataset on each worker (a dataset made here cannot be "
                            "sent to the workers); got %r" % (dataset_fn,))
        key = len(self._datasets)
        ref = self._ray.put(ps_tasks.dumps(dataset_fn, self._strategy._token, self._strategy))
        self._datasets[key] = [ref]
        return PerWorkerDataset(self, key, ref, dataset_fn)

    def _worker_stats(self) -> list:
        """Every worker's bytes pushed and pulled (waiting for restarting workers)."""
        for attempt in range(100):
            try:
                return cluster.get([w.stats.remote() for w in self._strategy._workers])
            except self._ray.exceptions.ActorUnavailableError:
                time.sleep(0.1 * min(attempt + 1, 10))
        return cluster.get([w.stats.remote() for w in self._strategy._workers])

    def shutdown(self) -> None:
        """Ends the workers and parameter servers (flowgrad's: Ray actors)."""
        self._strategy._shutdown()
