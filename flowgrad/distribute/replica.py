"""A replica: the user's model in its own graph and Session (TF1 face) or built eagerly
with a tf.function step (TF2 face), computing gradients."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from flowgrad.distribute import cluster, wire
from flowgrad.distribute.eager_model import EagerModel, check_same_layout
from flowgrad.distribute.model import build, check_same_specs
from flowgrad.ops.array_ops import placeholder
from flowgrad.ops.control_flow_ops import group
from flowgrad.ops.state_ops import assign, global_variables_initializer
from flowgrad.runtime.session import Session


@dataclass
class ReplicaContext:
    """What an asynchronous replica's ``input_fn(ctx)`` sees: it returns the step's feeds
    (a dict from model_fn's tensor names to arrays; with the TF2 face, the batch that
    ``loss_fn`` gets), after the latest values were pulled. With the TF2 face ``session`` is
    None and ``model`` is model_fn's model."""
    replica_id: int
    num_replicas: int
    step: int
    session: Session | None
    tensors: dict
    state: dict = field(default_factory=dict)     # kept across this replica's steps
    metrics: dict = field(default_factory=dict)   # sent back with the step's result
    model: Any = None


class Replica:
    """Builds ``model_fn`` and the gradients of its loss; each step pulls the variables'
    values from the parameter servers, runs the gradients on a batch, and sends them.
    With a ``loss_fn`` (TF2 face) the model is built eagerly (``EagerModel``)."""

    def __init__(self, replica_id: int, num_replicas: int, model_fn: Callable,
                 optimizer_fn: Callable, specs: list, servers: list, layout: list,
                 input_fn: Callable | None = None, loss_fn: Callable | None = None):
        self._id = replica_id
        self._num_replicas = num_replicas
        self._error: Exception | None = None
        self._eager: EagerModel | None = None
        try:
            if loss_fn is not None:
                self._eager = EagerModel(model_fn, loss_fn)
                check_same_layout(specs, self._eager.specs, "replica %d" % replica_id)
            else:
                self._model = build(model_fn, optimizer_fn)
                check_same_specs(specs, self._model.specs, "replica %d" % replica_id)
        except Exception as e:     # reported by ready(): a failed constructor loses its cause
            self._error = e
            return
        self._servers = servers
        self._layout = layout            # layout[s]: positions of server s's variables
        self._versions: list = [None] * len(servers)
        self._input_fn = input_fn
        self._state: dict = {}
        self._compute_s, self._bytes = 0.0, 0
        if self._eager is None:
            self._build_session(layout)

    def _build_session(self, layout: list) -> None:
        with self._model.graph.as_default():
            self._holders = [placeholder(v.dtype.base_dtype, v.get_shape())
                             for v in self._model.variables]
            self._loads = [group(*[assign(self._model.variables[i], self._holders[i])
                                   for i in positions]) for positions in layout]
            self._sess = Session(graph=self._model.graph)
            self._sess.run(global_variables_initializer())
        self._fetches = [self._model.loss] + self._model.gradients

    def _pull(self) -> list:
        """Loads the servers' newest values (only from servers that changed); their versions."""
        answers = cluster.get([ps.pull.remote(v) for ps, v in zip(self._servers, self._versions)])
        loads, feed = [], {}
        for s, (version, values) in enumerate(answers):
            self._versions[s] = version
            if values is not None and self._eager is not None:
                self._eager.load(self._layout[s], values)
                self._bytes += wire.nbytes(values)
            elif values is not None:
                loads.append(self._loads[s])
                feed.update({self._holders[i]: x for i, x in zip(self._layout[s], values)})
                self._bytes += wire.nbytes(values)
        if loads:
            self._sess.run(loads, feed)
        return list(self._versions)

    def _gradients(self, feeds: dict) -> tuple:
        start = time.perf_counter()
        if self._eager is not None:
            loss, grads = self._eager.gradients(feeds)
            specs = self._eager.specs
        else:
            tensors = self._model.tensors
            loss, *grads = self._sess.run(self._fetches, {tensors[k]: v for k, v in feeds.items()})
            specs = self._model.specs
        self._compute_s += time.perf_counter() - start
        packed = [wire.pack(g, s) for g, s in zip(grads, specs)]
        self._bytes += wire.nbytes(packed)
        return float(loss), [[packed[i] for i in positions] for positions in self._layout]

    def _result(self, loss: float, start: float, **extra: Any) -> dict:
        return dict(loss=loss, total_s=time.perf_counter() - start, compute_s=self._compute_s,
                    bytes=self._bytes, **extra)

    def _begin(self) -> float:
        self._compute_s, self._bytes = 0.0, 0
        return time.perf_counter()

    def sync_step(self, version: int, micro: int, feeds: dict) -> dict:
        """One replica's part of a synchronous step: its gradients, kept by every server
        until the step's mean is applied. Returns the loss on its shard and timings."""
        start = self._begin()
        self._pull()
        loss, shards = self._gradients(feeds)
        cluster.get([ps.accumulate.remote(version, (self._id, micro), grads)
                     for ps, grads in zip(self._servers, shards)])
        return self._result(loss, start)

    def async_step(self, step: int, max_staleness: int | None) -> dict:
        """Pull, compute on ``input_fn``'s feeds, push. Returns the loss, timings, whether
        every server applied the push (``applied``) and ``input_fn``'s ``ctx.metrics``."""
        if self._input_fn is None:
            raise ValueError("Asynchronous training needs an input_fn")
        start = self._begin()
        versions = self._pull()
        if self._eager is not None:
            ctx = ReplicaContext(self._id, self._num_replicas, step, None, {}, self._state,
                                 model=self._eager.model)
        else:
            ctx = ReplicaContext(self._id, self._num_replicas, step, self._sess,
                                 self._model.tensors, self._state)
        loss, shards = self._gradients(self._input_fn(ctx))
        applied = cluster.get([ps.push.remote(grads, v, max_staleness)
                               for ps, grads, v in zip(self._servers, shards, versions)])
        return self._result(loss, start, applied=bool(np.all(applied)), metrics=ctx.metrics)

    def set_servers(self, servers: list) -> None:
        """Uses new parameter servers (restarted from a checkpoint) from the next pull."""
        self._servers = servers
        self._versions = [None] * len(servers)

    def ready(self) -> int:
        """Raises the error that building the model gave, if any."""
        if self._error is not None:
            raise self._error
        return self._id
