"""Behaviour that the layers above lend to the framework, ops and gradients layers.

A lower layer never imports a higher one. Where it needs the higher layer's behaviour it
calls a hook held here, which the higher layer installs with ``register`` when it is
imported (``import flowgrad`` imports them all):

* ``flowgrad.framework.graph``: ``new_graph`` (the default graph ``context`` creates) and
  ``flowgrad.framework.op_call``: ``graph_constant`` (``constant()`` in graph mode), for the
  framework modules they import (``context``, ``tensor``);
* ``flowgrad.ops.overloads``: the ops behind tensor ``==``/``!=``, converting lists of
  tensors, iterating an eager tensor, and IndexedSlices negation and densification
  (``equal``, ``not_equal``, ``stack``, ``unstack``, ``negative``, ``unsorted_segment_sum``);
* the math op families, for ``constant(tensor)`` and the array op families below them (their
  gradients use array ops): ``cast`` (``cast_ops``), ``add`` and ``subtract``
  (``arithmetic_ops``; also ``conj``, which the registry's elementwise JVPs of complex ops
  use), ``greater`` and ``where`` (``comparison_ops``), ``reduce_sum`` and
  ``sum_to`` (``sum_ops``);
* ``flowgrad.autodiff.tape``: ``record_operation`` (an eager op ran) and ``variable_accessed``
  (an eager variable was read), called while a tape is active;
* ``flowgrad.debug.numerics``: ``check_eager_numerics`` (an eager op's outputs, in
  check-numerics mode) and ``numerics_plan_compiler`` (the session's plan compiler then);
* ``flowgrad.saved_model.graph_export``: ``graph_def`` (``Graph.as_graph_def``), and
  ``flowgrad.saved_model.meta_graph``: ``export_meta_graph`` (the ``.meta`` file that
  ``tf.compat.v1.train.Saver.save`` writes beside a checkpoint);
* ``flowgrad.debug``: ``explain_gradient`` (why a gradient is None),
  ``warn_unsafe_where`` (a ``tf.where`` whose gradient may be NaN) and ``log_warning``
  (a warning on TensorFlow's logger, as ``tf.function``'s retracing warning);
* ``flowgrad.debug.timeline``: ``fill_step_stats`` (a traced ``Session.run``'s per-op
  timings written into ``run_metadata.step_stats``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PROVIDERS = {
    "new_graph": "flowgrad.framework.graph", "graph_constant": "flowgrad.framework.op_call",
    "equal": "flowgrad.ops.overloads", "not_equal": "flowgrad.ops.overloads",
    "cast": "flowgrad.ops.cast_ops", "stack": "flowgrad.ops.overloads",
    "unstack": "flowgrad.ops.overloads", "negative": "flowgrad.ops.overloads",
    "unsorted_segment_sum": "flowgrad.ops.overloads",
    "add": "flowgrad.ops.arithmetic_ops", "subtract": "flowgrad.ops.arithmetic_ops",
    "conj": "flowgrad.ops.arithmetic_ops",
    "greater": "flowgrad.ops.comparison_ops", "where": "flowgrad.ops.comparison_ops",
    "reduce_sum": "flowgrad.ops.sum_ops", "sum_to": "flowgrad.ops.sum_ops",
    "record_operation": "flowgrad.autodiff.tape", "variable_accessed": "flowgrad.autodiff.tape",
    "check_eager_numerics": "flowgrad.debug.numerics",
    "numerics_plan_compiler": "flowgrad.debug.numerics",
    "explain_gradient": "flowgrad.debug.explain",
    "warn_unsafe_where": "flowgrad.debug.unsafe_where",
    "log_warning": "flowgrad.debug.tf_logging",
    "graph_def": "flowgrad.saved_model.graph_export",
    "export_meta_graph": "flowgrad.saved_model.meta_graph",
    "fill_step_stats": "flowgrad.debug.timeline",
}


def _unregistered(name: str) -> Callable:
    def hook(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("flowgrad hook '%s' is not registered: import %s (or flowgrad) "
                           "first." % (name, _PROVIDERS[name]))
    hook.__name__ = name
    return hook


new_graph: Callable = _unregistered("new_graph")
graph_constant: Callable = _unregistered("graph_constant")
equal: Callable = _unregistered("equal")
not_equal: Callable = _unregistered("not_equal")
cast: Callable = _unregistered("cast")
stack: Callable = _unregistered("stack")
unstack: Callable = _unregistered("unstack")
negative: Callable = _unregistered("negative")
unsorted_segment_sum: Callable = _unregistered("unsorted_segment_sum")
add: Callable = _unregistered("add")
subtract: Callable = _unregistered("subtract")
conj: Callable = _unregistered("conj")
greater: Callable = _unregistered("greater")
where: Callable = _unregistered("where")
reduce_sum: Callable = _unregistered("reduce_sum")
sum_to: Callable = _unregistered("sum_to")
record_operation: Callable = _unregistered("record_operation")
variable_accessed: Callable = _unregistered("variable_accessed")
check_eager_numerics: Callable = _unregistered("check_eager_numerics")
numerics_plan_compiler: Callable = _unregistered("numerics_plan_compiler")
explain_gradient: Callable = _unregistered("explain_gradient")
warn_unsafe_where: Callable = _unregistered("warn_unsafe_where")
log_warning: Callable = _unregistered("log_warning")
graph_def: Callable = _unregistered("graph_def")
export_meta_graph: Callable = _unregistered("export_meta_graph")
fill_step_stats: Callable = _unregistered("fill_step_stats")


def register(**hooks: Callable) -> None:
    """Installs the given hooks (keyword = hook name), replacing what was there."""
    for name, fn in hooks.items():
        if name not in _PROVIDERS:
            raise ValueError("Unknown flowgrad hook '%s'; the hooks are: %s"
                             % (name, ", ".join(sorted(_PROVIDERS))))
        if not callable(fn):
            raise TypeError("Hook '%s' must be callable, got %r" % (name, fn))
        globals()[name] = fn
