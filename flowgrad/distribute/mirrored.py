"""``tf.distribute.MirroredStrategy``: synchronous data parallelism on this machine.

Variables created under ``scope()`` are shared by the replicas (one copy, as mirrored
variables are equal on every replica). Non-trainable ones that a replica writes (batch
normalization's moving statistics: TensorFlow's ON_READ variables aggregated by MEAN) are
kept per replica during a step and set to the replicas' mean at its end. ``run`` runs the
replicas in threads of their own, one at a time as TensorFlow's ``mirrored_run`` does: a
replica runs until it meets the others (``merge_call``, ``all_reduce``, an optimizer's
``apply_gradients``), and the merge runs once when all have arrived."""
from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.distribute import distribute_lib
from flowgrad.distribute.distribute_lib import ReplicaContext, Strategy
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly, get_default_graph, state
from flowgrad.autograph.conversion import tf_convert
from flowgrad.ops import math_ops
from flowgrad.runtime.function import Function


def _canonical_device(device: str) -> str:
    """``device`` as TensorFlow's ``device_util.canonicalize`` writes it:
    ``"/gpu:1"`` is ``"/job:localhost/replica:0/task:0/device:GPU:1"``."""
    parts = {"job": "localhost", "replica": "0", "task": "0", "device": "CPU:0"}
    for piece in str(device).strip().split("/"):
        if not piece:
            continue
        name, _, value = piece.partition(":")
        if name.lower() in ("cpu", "gpu", "tpu") and value:
            parts["device"] = "%s:%s" % (name.upper(), value)
        elif name == "device" and ":" in value:
            kind, _, index = value.partition(":")
            parts["device"] = "%s:%s" % (kind.upper(), index)
        elif name in ("job", "replica", "task") and value:
            parts[name] = value
        else:
            raise ValueError("Unknown attribute '%s' is encountered while parsing the device "
                             "spec: '%s'." % (name, device))
    return "/job:{job}/replica:{replica}/task:{task}/device:{device}".format(**parts)


class MirroredStrategy(Strategy):
    """Synchronous training on several replicas of one machine
    (``tf.distribute.MirroredStrategy``).

    Args:
        devices: the replicas' devices (``["/gpu:0", "/gpu:1"]``); one replica per device.
            flowgrad computes every replica on the CPU, as TensorFlow's soft device placement
            does for GPUs a machine lacks (the names stay, in TensorFlow's canonical form).
            None or empty (``list_logical_devices('GPU')`` without GPUs): all local devices,
            one replica on the CPU, as TensorFlow's MirroredStrategy on a machine without
            GPUs.
        cross_device_ops: accepted for TensorFlow's signature; the replicas share memory.

    Raises:
        ValueError: a repeated device, or a device name TensorFlow cannot parse.
    """

    def __init__(self, devices: Any = None, cross_device_ops: Any = None):
        devices = tuple(devices) if devices is not None else ()
        if not devices:     # TensorFlow's ``devices or all_local_devices()``: none is all
            devices = ("/job:localhost/replica:0/task:0/device:CPU:0",)
        devices = tuple(_canonical_device(d) for d in devices)
        if len(set(devices)) != len(devices):
            raise ValueError("No duplicates allowed in `devices` argument: %s" % (devices,))
        super().__init__(num_replicas=len(devices))
        self._devices = devices
        self._run_state: _Run | None = None
        self._replicated: Any = weakref.WeakKeyDictionary()   # tf.function -> its wrapper

    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None,
            options: Any = None) -> Any:
        kwargs = dict(kwargs or {})
        if self._num_replicas == 1:
            return super().run(fn, args, kwargs)
        if isinstance(fn, Function) and executing_eagerly():
            return self._replicated_function(fn)(args, kwargs)
        outer = self._run_state
        if outer is not None and not outer.merging:
            raise RuntimeError("strategy.run was called inside strategy.run of the same "
                               "MirroredStrategy")
        # From a merge_call's function (the cross-replica context of a run, all replicas
        # paused), a run is a new round of replicas, as TensorFlow's call_for_each_replica
        # there (Keras's LossScaleOptimizer applies its inner optimizer so).
        run = self._run_state = _Run(self, fn, args, kwargs)
        try:
            return run.execute()
        finally:
            self._run_state = outer

    def _replicated_function(self, fn: Function) -> Function:
        """A tf.function whose trace runs every replica of ``fn``'s Python function, as
        TensorFlow's ``mirrored_run`` wraps a ``tf.function`` (the replicas do not each call
        it: the first would trace while the others wait for the trace to end)."""
        wrapped = self._replicated.get(fn)
        if wrapped is None:
            body = tf_convert(fn.python_function, fn._autograph)

            def replicated(args: tuple, kwargs: dict) -> Any:
                return self.run(body, args, kwargs)

            wrapped = Function(replicated, fn._name, None, fn._autograph,
                               fn._reduce_retracing)
            self._replicated[fn] = wrapped
        return wrapped

    def _merge_call(self, replica_id: int, merge_fn: Callable, args: tuple, kwargs: dict
                    ) -> Any:
        if self._run_state is None or self._num_replicas == 1:
            return super()._merge_call(replica_id, merge_fn, args, kwargs)
        return self._run_state.merge(replica_id, merge_fn, args, kwargs)


class _Run:
    """One ``strategy.run`` of several replicas: threads that take turns."""

    def __init__(self, strategy: MirroredStrategy, fn: Callable, args: tuple, kwargs: dict):
        self.strategy = strategy
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        k = strategy.num_replicas_in_sync
        self.should_run = [threading.Event() for _ in range(k)]
        self.has_paused = [threading.Event() for _ in range(k)]
        self.done = [False] * k
        self.results: list = [None] * k
        self.errors: list = [None] * k
        self.pending: list = [None] * k        # (merge_fn, args, kwargs) at a merge point
        self.merge_results: list = [None] * k
        self.abort = False
        self.merging = False                   # in a merge_call's function

    def merge(self, replica_id: int, merge_fn: Callable, args: tuple, kwargs: dict) -> Any:
        self.pending[replica_id] = (merge_fn, args, kwargs)
        self._pause(replica_id)
        if self.abort:
            raise _Aborted()
        return self.merge_results[replica_id]

    def _pause(self, replica_id: int) -> None:
        self.should_run[replica_id].clear()
        self.has_paused[replica_id].set()
        self.should_run[replica_id].wait()

    def _thread_main(self, r: int, parent_stack: list, parent_state: tuple) -> None:
        distribute_lib._state.stack = list(parent_stack)
        # inside a tf.function trace the replicas add their ops to the graph being built,
        # as TensorFlow's mirrored_run enters the caller's graph in each replica thread
        state.graph_stack, state.autograph, state.eager_name_scope = (
            list(parent_state[0]), list(parent_state[1]), parent_state[2])
        self.should_run[r].wait()
        try:
            if not self.abort:
                args = distribute_lib.select_replica(r, self.args)
                kwargs = distribute_lib.select_replica(r, self.kwargs)
                with ReplicaContext(self.strategy, r):
                    self.results[r] = self.fn(*args, **kwargs)
        except _Aborted:
            pass
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            self.errors[r] = e
        finally:
            self.done[r] = True
            self.has_paused[r].set()

    def execute(self) -> Any:
        k = self.strategy.num_replicas_in_sync
        candidates = self.strategy._sync_on_read_variables()
        eager = executing_eagerly()
        graph = None if eager else get_default_graph()

        def read(v: Any) -> Any:
            return np.array(v.numpy(), copy=True) if eager else v.read_value()

        def writes() -> dict:       # id(variable) -> its last write in this graph
            if hasattr(graph, "var_slots"):     # a cond/while body: the slots' last values
                return {id(sl.var): sl.written for sl in graph.var_slots.values()
                        if sl.var is not None}
            return dict(getattr(graph, "_last_write", {}))

        def mark() -> Any:          # what tells which variables a replica's turn wrote
            if eager:
                return {id(v): v.numpy() for v in candidates}
            return writes()

        def wrote(v: Any, before: Any) -> bool:
            if eager:
                return not np.array_equal(v.numpy(), before[id(v)])
            return writes().get(id(v)) is not before.get(id(v))

        start = {id(v): read(v) for v in candidates}
        local: list = [{} for _ in range(k)]     # replica -> {id: value} of its ON_READ copies
        on_read: dict = {}                      # id -> variable written inside a replica
        parent = list(distribute_lib._state.stack)
        parent_state = (list(state.graph_stack), list(state.autograph), state.eager_name_scope)
        threads = [threading.Thread(target=self._thread_main, args=(r, parent, parent_state),
                                    name="replica_%d" % r, daemon=True) for r in range(k)]
        for t in threads:
            t.start()
        try:
            while True:
                for r in range(k):
                    if self.done[r]:
                        continue
                    for key, v in on_read.items():
                        v.assign(local[r].get(key, start[key]))
                    before = mark()
                    self.has_paused[r].clear()
                    self.should_run[r].set()
                    self.has_paused[r].wait()
                    for v in candidates:
                        if id(v) in on_read or wrote(v, before):
                            on_read[id(v)] = v
                            local[r][id(v)] = read(v)
                    if self.errors[r] is not None:
                        raise self.errors[r]
                if all(self.done):
                    break
                if any(self.done):
                    raise RuntimeError("Some replicas of %r made a merge_call (or all_reduce, "
                                       "or apply_gradients) and others did not: every "
                                       "replica must meet the others the same number of "
                                       "times" % (self.strategy,))
                self._run_merge(k)
        except BaseException:
            self.abort = True
            for r in range(k):
                self.should_run[r].set()
            raise
        finally:
            for t in threads:
                t.join()
            for key, v in on_read.items():
                v.assign(combine(v, start[key], [local[r].get(key, start[key])
                                                 for r in range(k)]))
        return distribute_lib.regroup(self.results)

    def _run_merge(self, k: int) -> None:
        merge_fn = self.pending[0][0]
        args = distribute_lib.regroup([p[1] for p in self.pending])
        kwargs = distribute_lib.regroup([p[2] for p in self.pending])
        self.merging = True
        try:
            with distribute_lib._cross_replica(self.strategy):
                result = merge_fn(self.strategy, *args, **kwargs)
        finally:
            self.merging = False
        for r in range(k):
            self.merge_results[r] = distribute_lib.select_replica(r, result)
            self.pending[r] = None


def combine(variable: Any, start: Any, values: list) -> Any:
    """The value of a variable the replicas wrote, from each replica's copy (TensorFlow's
    ON_READ variables read in the cross-replica context): a SUM-aggregated one (a Keras
    metric's total and count) gets every replica's change, an ONLY_FIRST_REPLICA one (a
    Keras optimizer's ``iterations``) the first replica's value, the others (batch
    normalization's moving statistics) the replicas' mean. NumPy values or tensors."""
    aggregation = getattr(getattr(variable, "aggregation", None), "name", "NONE")
    if aggregation == "ONLY_FIRST_REPLICA":
        return values[0]
    sums = aggregation == "SUM" and getattr(
        getattr(variable, "synchronization", None), "name", "") == "ON_READ"
    if isinstance(start, np.ndarray):
        if sums:
            return (start + sum(v - start for v in values)).astype(start.dtype)
        return np.mean(np.stack(values), axis=0).astype(start.dtype)
    if sums:
        return start + math_ops.add_n([v - start for v in values])
    total = math_ops.add_n([math_ops.cast(v, dtypes.float64) for v in values])
    return math_ops.cast(total / float(len(values)), variable.dtype.base_dtype)


class _Aborted(BaseException):
    """Stops a paused replica thread when another replica failed."""
