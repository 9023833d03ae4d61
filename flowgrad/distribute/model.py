"""Building the user's model function in a graph of its own (the strategy's scope)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from flowgrad.framework.graph import Graph, GraphKeys
from flowgrad.framework.graph_walk import ancestors
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import Tensor
from flowgrad.ops.state_ops import global_variables_initializer, trainable_variables
from flowgrad.runtime.session import Session


@dataclass(frozen=True)
class VariableSpec:
    """What every process agrees on about one trained variable."""
    name: str                  # the variable's op name, e.g. "dense/kernel"
    shape: tuple
    dtype: str                 # NumPy dtype name
    sparse: bool               # its gradient is an IndexedSlices
    index_dtype: str | None    # dtype of the sparse gradient's indices


@dataclass
class BuiltModel:
    """The model function's graph in one process, with its gradients."""
    graph: Graph
    loss: Tensor
    tensors: dict
    variables: list            # the trained variables, in creation order
    gradients: list            # their gradients (Tensor or IndexedSlices), same order
    specs: list


def non_trainable_state_error(what: list) -> str:
    """The message refusing a model whose non-trainable state training would change."""
    return ("flowgrad.distribute trains only trainable variables: the replicas apply no "
            "other update and the parameter servers hold no other state, so the non-trainable "
            "state of this model (%s; e.g. BatchNormalization's moving mean and variance) "
            "would never be trained and the model would predict wrongly. Train it in one "
            "process, or use a model without it (e.g. LayerNormalization instead of "
            "BatchNormalization)." % ", ".join(what))


def _outside_tensor(loss: Tensor, graph: Graph) -> Tensor | None:
    """A tensor (or op) of another graph that the loss depends on, if any."""
    outside = ancestors([loss], visit=lambda op: op.graph is not graph)
    op = min((op for op in outside if op.graph is not graph), key=lambda o: o.name, default=None)
    return op if op is None or not op.outputs else op.outputs[0]


def _as_dict(result: Any) -> dict:
    if isinstance(result, Tensor):
        return {"loss": result}
    if isinstance(result, dict) and isinstance(result.get("loss"), Tensor):
        return dict(result)
    raise TypeError("model_fn must return the loss Tensor or a dict of named tensors with a "
                    "'loss' entry (and the input placeholders under the names the batches "
                    "use); it returned %r" % (result,))


def _np_name(dtype: Any) -> str:
    return np.dtype(dtype.base_dtype.as_numpy_dtype).name


def build(model_fn: Callable, optimizer_fn: Callable) -> BuiltModel:
    """Calls ``model_fn`` in a new graph and ``optimizer_fn().compute_gradients`` on its loss."""
    graph = Graph()
    with graph.as_default():
        tensors = _as_dict(model_fn())
        loss = tensors["loss"]
        outside = _outside_tensor(loss, graph)
        if outside is not None:
            raise ValueError(
                "The loss depends on %r, which was created outside the strategy's scope (in "
                "another graph): create every variable inside model_fn, which each replica "
                "and parameter server calls again in its own process" % outside.name)
        updates = graph.get_collection(GraphKeys.UPDATE_OPS)
        if updates:
            raise ValueError(non_trainable_state_error(sorted({op.name for op in updates})))
        optimizer = optimizer_fn()
        grads_and_vars = [(g, v) for g, v in
                          optimizer.compute_gradients(loss, trainable_variables())
                          if g is not None]
        if not grads_and_vars:
            raise ValueError("No gradients for any trainable variable of model_fn's loss %r"
                             % loss.name)
    specs = []
    for g, v in grads_and_vars:
        sparse = isinstance(g, IndexedSlices)
        specs.append(VariableSpec(v.op.name, tuple(v.get_shape().as_list()), _np_name(v.dtype),
                                  sparse, _np_name(g.indices.dtype) if sparse else None))
    return BuiltModel(graph, loss, tensors, [v for _, v in grads_and_vars],
                      [g for g, _ in grads_and_vars], specs)


def initial_values(model: BuiltModel) -> list:
    """The trained variables' values after their initializers ran once."""
    with model.graph.as_default():
        init = global_variables_initializer()
        with Session(graph=model.graph) as sess:
            sess.run(init)
            return sess.run(model.variables)


def check_same_specs(expected: list, got: list, where: str) -> None:
    """Raises ValueError naming the first variable on which two processes' models differ."""
    if [s.name for s in expected] != [s.name for s in got]:
        raise ValueError("model_fn built different variables in %s: %s, but the strategy "
                         "built %s; model_fn must build the same model in every process"
                         % (where, [s.name for s in got], [s.name for s in expected]))
    for e, g in zip(expected, got):
        if e != g:
            raise ValueError("model_fn built variable %r differently in %s: %s, but the "
                             "strategy built %s" % (e.name, where, g, e))
