"""The tasks of a ``ParameterServerStrategy`` cluster, as Ray actors: parameter servers that
hold the variables' values (or row shards of them), and workers that run the functions a
``ClusterCoordinator`` schedules.

A worker keeps a copy of every variable a scheduled function uses. Each call pulls the
values that changed on the servers since its last pull, runs the function, and pushes what
the function changed: per variable (shard), the difference between its value after and
before the function, as rows (indices and values) when few rows changed, e.g. an
embedding's sparse update, else dense. A server adds the pushed differences to what it
holds, in the order they arrive, so the workers' updates interleave as TensorFlow's
asynchronous parameter-server training does. Functions travel pickled by cloudpickle
(Ray's); a ``tf.function`` is traced again on the worker, and the strategy's variables
travel as keys of the workers' copies (``Pickler``)."""
from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.distribute import cluster, distribute_lib, per_worker
from flowgrad.framework import errors
from flowgrad.framework.context import state
from flowgrad.ops import state_ops

class VariableToken:
    """What a worker needs to make its copy of one strategy variable."""

    def __init__(self, key: int, name: str, dtype: str, shape: tuple, trainable: bool,
                 placement: list):
        self.key = key
        self.name = name
        self.dtype = dtype
        self.shape = shape
        self.trainable = trainable
        self.placement = placement        # [(ps index, shard key, row start, row stop)]


def dumps(obj: Any, tokens: Callable, strategy: Any) -> bytes:
    """``obj`` pickled with cloudpickle for a worker (read it with ``loads`` there):
    ``tokens(v)`` gives the token of a strategy variable (None for others), which travels
    as a reference to the worker's copy; so do the keys of dicts keyed by such a
    variable's ``id`` (Keras optimizers index their variables so). A ``tf.function``
    travels as its Python function (traced again on the worker); per-worker datasets,
    iterators and values as references to the worker's own; ``strategy`` as the worker's
    one-replica strategy."""
    try:
        import cloudpickle
    except ImportError as e:
        raise ImportError("ParameterServerStrategy sends functions to its workers with "
                          "cloudpickle, which is not installed; install it with `pip install "
                          "flowgrad[distributed]`") from e

    from flowgrad.runtime.function import Function
    by_id = {}

    class Pickler(cloudpickle.CloudPickler):
        def persistent_id(self, o: Any) -> Any:
            if isinstance(o, state_ops.EagerVariable):
                token = tokens(o)
                if token is not None:
                    by_id[id(o)] = token
                    return ("variable", token)
            elif type(o) is dict and o and any(type(k) is int and k in by_id for k in o):
                return ("id_dict", [(("variable", by_id[k]) if type(k) is int and k in by_id
                                     else ("key", k), v) for k, v in o.items()])
            elif isinstance(o, Function):
                return ("function", o.python_function, o.input_signature, o._autograph)
            elif isinstance(o, per_worker.PerWorkerDatasetIterator):
                return ("iterator", o._dataset._key, o._key)
            elif isinstance(o, per_worker.PerWorkerValues):
                return ("per_worker", o._values)
            elif o is strategy:
                return ("strategy",)
            return None

    # ids of the strategy's variables are known before any dict keyed by them is reached
    for v in getattr(strategy, "_variables", ()):
        token = tokens(v)
        if token is not None:
            by_id[id(v)] = token
    buffer = io.BytesIO()
    Pickler(buffer).dump(obj)
    return buffer.getvalue()


def loads(data: bytes, worker: WorkerTask) -> Any:
    """What ``dumps`` pickled, with its references resolved on ``worker``."""
    import pickle

    class Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: tuple) -> Any:
            kind = pid[0]
            if kind == "variable":
                return worker.variable(pid[1])
            if kind == "id_dict":
                return {(id(worker.variable(k[1])) if k[0] == "variable" else k[1]): v
                        for k, v in pid[1]}
            if kind == "function":
                from flowgrad.runtime.function import function
                return function(pid[1], input_signature=pid[2], autograph=pid[3])
            if kind == "iterator":
                return worker.iterator(pid[1], pid[2])
            if kind == "per_worker":
                return pid[1][worker.index]
            if kind == "strategy":
                return worker.strategy
            raise pickle.UnpicklingError("unknown reference %r" % (kind,))

    return Unpickler(io.BytesIO(data)).load()


class ParameterServerTask:
    """One parameter server: shards (whole variables, or row ranges of one) by key, each
    with the server's update count at its last change."""

    def __init__(self, index: int):
        self._index = index
        self._values: dict = {}
        self._changed: dict = {}      # shard key -> update count at its last change
        self._count = 0

    def create(self, items: list) -> None:
        """Stores new shards ``[(key, value)]`` (a new value replaces an old one)."""
        self.assign(items)

    def assign(self, items: list) -> None:
        """Sets shards ``[(key, value)]`` (the coordinator's own writes)."""
        self._count += 1
        for key, value in items:
            self._values[key] = np.array(value, copy=True)
            self._changed[key] = self._count

    def ping(self) -> int:
        """This server's index (answers once the actor runs)."""
        return self._index

    def read(self, since: int | None) -> tuple:
        """(update count, {key: value} of the shards changed after ``since``; all for None)."""
        return self._count, {k: v for k, v in self._values.items()
                             if since is None or self._changed[k] > since}

    def apply(self, updates: list) -> int:
        """Adds a worker's differences ``[(key, kind, payload)]``: kind "dense" (an array),
        "rows" ((indices, rows)) or "assign" (a value, for non-numeric variables)."""
        self._count += 1
        for key, kind, payload in updates:
            value = self._values[key]
            if kind == "dense":
                value += payload
            elif kind == "rows":
                indices, rows = payload
                value[indices] += rows
            else:
                self._values[key] = np.array(payload, copy=True)
            self._changed[key] = self._count
        return self._count


class _WorkerStrategy(distribute_lib.Strategy):
    """``strategy`` inside a scheduled function: the worker's one replica."""

    def __init__(self, num_workers: int):
        super().__init__()
        self._num_workers = num_workers


class WorkerTask:
    """One worker: copies of the strategy's variables, the functions and per-worker
    datasets it was sent, and the calls that run them."""

    def __init__(self, index: int, num_workers: int, servers: list):
        self.index = int(index)
        self._num_workers = int(num_workers)
        self._servers = servers
        self._servers_version = 0      # which servers the coordinator last sent
        self.strategy = _WorkerStrategy(num_workers)
        self._vars: dict = {}          # key -> (EagerVariable, token)
        self._since: list = [None] * len(servers)
        self._functions: dict = {}
        self._datasets: dict = {}      # dataset key -> dataset_fn reference
        self._iterators: dict = {}
        self._creating = False
        self.bytes_pushed = 0
        self.bytes_pulled = 0

    # -- what unpickling resolves ------------------------------------------------------------
    def variable(self, token: VariableToken) -> Any:
        """This worker's copy of the strategy's variable ``token.key`` (made on first use)."""
        held = self._vars.get(token.key)
        if held is None:
            self._creating = True
            try:
                v = state_ops.EagerVariable(np.zeros(token.shape, token.dtype),
                                            trainable=token.trainable, name=token.name)
            finally:
                self._creating = False
            held = self._vars[token.key] = (v, token)
            self._since = [None] * len(self._servers)     # read its value at the next pull
        return held[0]

    def iterator(self, dataset_key: int, iterator_key: int) -> Any:
        """This worker's iterator ``iterator_key`` over its copy of a per-worker dataset."""
        it = self._iterators.get((dataset_key, iterator_key))
        if it is None:
            dataset_fn = loads(cluster.get(self._datasets[dataset_key]), self)
            ctx = distribute_lib.InputContext(self._num_workers, self.index, 1)
            try:
                dataset = dataset_fn(ctx)
            except TypeError:
                dataset = dataset_fn()
            it = self._iterators[(dataset_key, iterator_key)] = iter(dataset)
        return it

    # -- a call ------------------------------------------------------------------------------
    def _pull(self) -> None:
        answers = cluster.get([ps.read.remote(s) for ps, s in zip(self._servers, self._since)])
        shards: dict = {}
        for i, (count, values) in enumerate(answers):
            self._since[i] = count
            shards.update(values)
            self.bytes_pulled += sum(v.nbytes for v in values.values())
        for v, token in self._vars.values():
            parts = [shards.get(key) for _, key, _, _ in token.placement]
            if all(p is None for p in parts):
                continue
            if len(parts) == 1:
                v.assign(parts[0])
                continue
            value = v.numpy()
            for part, (_, _, lo, hi) in zip(parts, token.placement):
                if part is not None:
                    value[lo:hi] = part
            v.assign(value)

    def _push(self, before: dict) -> None:
        updates: list = [[] for _ in self._servers]
        for key, (v, token) in self._vars.items():
            new = np.asarray(v.numpy())
            old = before[key]
            numeric = new.dtype.kind in "iufc"
            if numeric and np.array_equal(new, old):
                continue
            if not numeric:
                if not np.array_equal(new, old):
                    for ps, skey, lo, hi in token.placement:
                        updates[ps].append((skey, "assign", new if lo is None else new[lo:hi]))
                continue
            delta = new - old
            for ps, skey, lo, hi in token.placement:
                part = delta if lo is None else delta[lo:hi]
                if not part.any():
                    continue
                if part.ndim >= 1 and part.shape[0] > 1:
                    rows = np.flatnonzero(part.reshape(part.shape[0], -1).any(axis=1))
                    if 2 * len(rows) <= part.shape[0]:
                        updates[ps].append((skey, "rows", (rows, part[rows])))
                        self.bytes_pushed += rows.nbytes + part[rows].nbytes
                        continue
                updates[ps].append((skey, "dense", part))
                self.bytes_pushed += part.nbytes
        refs = [ps.apply.remote(u) for ps, u in zip(self._servers, updates) if u]
        cluster.get(refs)

    def _use_servers(self, servers: tuple) -> None:
        """Takes the coordinator's ``(version, server handles)`` where they are newer than
        this worker's (a lost server was restarted): everything is pulled again."""
        version, handles = servers
        if version != self._servers_version:
            self._servers = list(handles)
            self._servers_version = version
            self._since = [None] * len(self._servers)

    def run(self, function_key: int, function_ref: list, datasets: dict, call: bytes,
            servers: tuple) -> Any:
        """Runs the scheduled function ``function_key`` (its pickle in ``function_ref[0]``)
        on the pickled ``(args, kwargs)`` of ``call``: pull, run, push. ``servers`` is the
        coordinator's ``(version, server handles)``. Returns the result as NumPy values."""
        ray = cluster.ray_module()
        self._use_servers(servers)
        self._datasets.update({k: r[0] for k, r in datasets.items()})
        created: list = []

        def on_create(v: Any) -> None:
            if not self._creating:
                created.append(v)

        state_ops.VARIABLE_CREATED.append(on_create)
        saved_eager = state.eager
        state.eager = True
        try:
            fn = self._functions.get(function_key)
            if fn is None:
                fn = self._functions[function_key] = loads(cluster.get(function_ref[0]), self)
            args, kwargs = loads(call, self)
            try:
                self._pull()
            except ray.exceptions.RayActorError as e:
                raise _server_lost(e) from None
            before = {key: np.array(v.numpy(), copy=True) for key, (v, _) in self._vars.items()}
            with self.strategy.scope():
                try:
                    result = fn(*args, **kwargs)
                except errors.OpError as e:      # its op lives in this worker's graph
                    raise type(e)(None, None, e.message) from None
            if created:
                raise ValueError(
                    "The scheduled function created variable(s) %s on worker %d, where they "
                    "would live apart from the parameter servers: create every variable "
                    "under strategy.scope() on the coordinator (ClusterCoordinator.schedule "
                    "traces a tf.function there first, which creates an optimizer's slots)"
                    % ([v.name for v in created], self.index))
            try:
                self._push(before)
            except ray.exceptions.RayActorError as e:
                raise _server_lost(e) from None
            return nest.map_structure(_as_numpy, result)
        finally:
            state.eager = saved_eager
            state_ops.VARIABLE_CREATED.remove(on_create)

    def stats(self) -> dict:
        """Bytes this worker pushed (differences) and pulled (values)."""
        return {"bytes_pushed": self.bytes_pushed, "bytes_pulled": self.bytes_pulled}

    def ping(self) -> int:
        return self.index


def _as_numpy(value: Any) -> Any:
    if hasattr(value, "numpy"):
        return value.numpy()
    return value


class ServerLostError(errors.UnavailableError):
    """A parameter server's Ray actor is gone (an ``UnavailableError``)."""

    def __reduce__(self) -> tuple:
        return (_rebuild_server_lost, (self.message,))


def _rebuild_server_lost(message: str) -> ServerLostError:
    return ServerLostError(None, None, message)


def _server_lost(e: Exception) -> ServerLostError:
    return ServerLostError(
        None, None, "A parameter server (Ray actor %s) is lost, and with it the variables "
        "it held: training cannot go on. Save checkpoints on the coordinator after "
        "coordinator.join() (tf.train.Checkpoint), and to resume make a new strategy and "
        "coordinator and restore the last one, or register a tf.train.CheckpointManager "
        "with coordinator.restart_lost_servers_from(manager) to restart lost servers from "
        "its latest checkpoint. (%s)" % (getattr(e, "actor_id", "?"),
                                         str(e).splitlines()[0]))


def wait_ready(actors: list, timeout: float) -> None:
    """Waits until every actor answers ``ping`` (raises what starting one raised)."""
    deadline = time.monotonic() + timeout
    ray = cluster.ray_module()
    refs = [a.ping.remote() for a in actors]
    ready, _ = ray.wait(refs, num_returns=len(refs), timeout=max(1.0, deadline - time.monotonic()))
    if len(ready) < len(refs):
        raise errors.DeadlineExceededError(
            None, None, "%d of %d parameter-server cluster tasks did not start within %g s"
            % (len(refs) - len(ready), len(refs), timeout))
    cluster.get(refs)
