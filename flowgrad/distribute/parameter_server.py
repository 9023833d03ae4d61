"""A parameter server: one shard of the variables, their optimizer, and its update rules."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from flowgrad.distribute import wire
from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import Graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.ops.array_ops import placeholder
from flowgrad.ops.state_ops import Variable, global_variables, global_variables_initializer
from flowgrad.runtime.session import Session
from flowgrad.train.saver import Saver
from flowgrad.train.training_util import create_global_step


class ParameterServer:
    """Holds some of the model's variables and applies gradients to them with the user's
    ``tf.train`` optimizer (so the update formulas are TensorFlow's).

    Synchronous training sends each replica's gradients with ``accumulate`` and applies
    their mean with ``apply_accumulated``; asynchronous training applies each ``push`` as it
    arrives. ``version`` counts the updates applied (the shard's global step)."""

    def __init__(self, shard: int, specs: list, values: list, optimizer_fn: Callable):
        self._shard = shard
        self._specs = list(specs)
        self._graph = Graph()
        with self._graph.as_default():
            self._vars = [Variable(np.asarray(v), name=s.name) for s, v in zip(specs, values)]
            self._feeds, grads = [], []
            for s in specs:
                dtype = dtypes.as_dtype(np.dtype(s.dtype))
                if s.sparse:
                    vals = placeholder(dtype, [None, *s.shape[1:]], name=s.name + "/grad_values")
                    idx = placeholder(dtypes.as_dtype(np.dtype(s.index_dtype)), [None],
                                      name=s.name + "/grad_indices")
                    self._feeds.append((vals, idx))
                    grads.append(IndexedSlices(vals, idx, np.asarray(s.shape, np.int64)))
                else:
                    ph = placeholder(dtype, list(s.shape), name=s.name + "/grad")
                    self._feeds.append(ph)
                    grads.append(ph)
            self._step = create_global_step()
            self._apply = optimizer_fn().apply_gradients(list(zip(grads, self._vars)),
                                                         global_step=self._step)
            self._saver = Saver(global_variables(), max_to_keep=None)
            self._sess = Session(graph=self._graph)
            self._sess.run(global_variables_initializer())
        self._version = 0
        self._restores = 0
        self._pending: dict = {}
        self._dropped = 0

    def _run_apply(self, grads: list) -> None:
        feed: dict = {}
        for ph, g in zip(self._feeds, grads):
            if isinstance(ph, tuple):
                feed[ph[0]], feed[ph[1]] = g
            else:
                feed[ph] = g
        self._sess.run(self._apply, feed)
        self._version += 1

    def _check(self, grads: list, sender: str) -> None:
        if len(grads) != len(self._specs):
            raise InvalidArgumentError(
                None, None, "Mismatched replica results: %s sent %d gradients to parameter "
                "server %d, which holds %d variables %s" % (
                    sender, len(grads), self._shard, len(self._specs),
                    [s.name for s in self._specs]))
        for g, s in zip(grads, self._specs):
            wire.check(g, s, sender)

    def pull(self, have: tuple | None = None) -> tuple:
        """((restores, version), values); values is None when the caller has them already."""
        token = (self._restores, self._version)
        if have == token:
            return token, None
        return token, self._sess.run(self._vars)

    def accumulate(self, version: int, key: tuple, grads: list) -> bool:
        """Stores one replica's (micro-batch's) gradients for the update after ``version``.

        Sending the same key again replaces its gradients (a retried step). Gradients for
        an update already applied are ignored; returns whether they were kept."""
        if version < self._version:
            return False
        if version > self._version:
            raise InvalidArgumentError(None, None, "Gradients for update %d reached parameter "
                                       "server %d, which is at update %d"
                                       % (version, self._shard, self._version))
        self._check(grads, "replica %d (micro-batch %d)" % key)
        self._pending[key] = grads
        return True

    def apply_accumulated(self, version: int, keys: list) -> int:
        """Applies the mean of the gradients sent under ``keys``; returns the new version."""
        if version != self._version:
            raise InvalidArgumentError(None, None, "Parameter server %d is at update %d, not %d"
                                       % (self._shard, self._version, version))
        missing = [k for k in keys if k not in self._pending]
        if missing:
            raise InvalidArgumentError(None, None, "Parameter server %d has no gradients from "
                                       "(replica, micro-batch) %s for update %d"
                                       % (self._shard, missing, version))
        per_var = zip(*[self._pending[k] for k in sorted(keys)])
        self._run_apply([wire.mean(list(gs), s) for gs, s in zip(per_var, self._specs)])
        self._pending.clear()
        return self._version

    def push(self, grads: list, pulled_version: tuple, max_staleness: int | None) -> bool:
        """Applies one replica's gradients now, unless they are more than ``max_staleness``
        updates old (then they are dropped and counted); returns whether they were applied."""
        self._check(grads, "a replica")
        if max_staleness is not None and self._version - pulled_version[1] > max_staleness:
            self._dropped += 1
            return False
        self._run_apply(grads)
        return True

    def stats(self) -> dict:
        return {"version": self._version, "dropped": self._dropped}

    def save(self, save_path: str) -> str:
        """Writes the shard (variables, optimizer slots, step) with the atomic tf.train.Saver."""
        with self._graph.as_default():
            return self._saver.save(self._sess, save_path, write_state=False)

    def restore(self, save_path: str) -> int:
        """Reads a checkpoint written by ``save``; returns the restored version."""
        with self._graph.as_default():
            self._saver.restore(self._sess, save_path)
        self._version = int(self._sess.run(self._step))
        self._restores += 1
        self._pending.clear()
        return self._version
