"""The global step: ``get_or_create_global_step``, ``get_global_step``, ``global_step``."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import Graph, GraphKeys, get_default_graph
from flowgrad.framework.tensor import Tensor
from flowgrad.ops.state_ops import Variable


def global_step(sess: Any, global_step_tensor: Any) -> int:
    """The current value of the global step as a Python int.

    Args:
        sess: The session to read it with.
        global_step_tensor: The global step tensor or variable.
    """
    if executing_eagerly():
        return int(global_step_tensor.numpy())
    return int(sess.run(global_step_tensor))


def assert_global_step(global_step_tensor: Any) -> None:
    """Raises TypeError unless ``global_step_tensor`` is an integer scalar Variable or Tensor.

    Args:
        global_step_tensor: The tensor or variable to check.
    """
    if not isinstance(global_step_tensor, (Variable, Tensor)):
        raise TypeError('Existing "global_step" must be a Variable or Tensor: %s.'
                        % (global_step_tensor,))
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError('Existing "global_step" does not have integer type: %s'
                        % global_step_tensor.dtype)
    shape = global_step_tensor.shape
    if shape.rank != 0 and shape.is_fully_defined():
        raise TypeError('Existing "global_step" is not scalar: %s' % shape)


def get_global_step(graph: Graph | None = None) -> Any:
    """The global step variable of ``graph`` (default graph), or None if there is none.

    Args:
        graph: The graph; the default graph when None.
    """
    graph = graph or get_default_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(found) > 1:
        logging.getLogger(__name__).error("Multiple tensors in global_step collection.")
        return None
    if found:
        step = found[0]
    else:
        try:
            step = _variable_of(graph, graph.get_tensor_by_name("global_step:0"))
        except KeyError:
            return None
    assert_global_step(step)
    return step


def _variable_of(graph: Graph, tensor: Tensor) -> Any:
    """The Variable whose value ``tensor`` is (found in the variable collections), else
    ``tensor``: a step found by name must be assignable, for ``minimize(global_step=...)``."""
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
        for v in graph.get_collection(key):
            if isinstance(v, Variable) and v.op is tensor.op:
                return v
    return tensor


def create_global_step(graph: Graph | None = None) -> Any:
    """Creates the int64 scalar variable ``global_step`` (0) in ``graph``; error if it exists.

    Args:
        graph: The graph; the default graph when None.
    """
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    if executing_eagerly():
        step = Variable(np.int64(0), trainable=False, name="global_step")
        graph.add_to_collection(GraphKeys.GLOBAL_STEP, step)
        return step
    with graph.as_default(), graph.name_scope(""):
        return Variable(np.int64(0), trainable=False, name="global_step",
                        collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph: Graph | None = None) -> Any:
    """The global step of ``graph``, created (int64, 0) if it does not exist yet.

    Args:
        graph: The graph; the default graph when None.
    """
    graph = graph or get_default_graph()
    step = get_global_step(graph)
    return step if step is not None else create_global_step(graph)
