"""``tf.summary.trace_on``/``trace_export``/``trace_off``: the graphs of the tf.functions
called between ``trace_on`` and ``trace_export``, written as TensorFlow writes them (a
``RunMetadata`` whose ``function_graphs`` hold each graph, under the
``graph_run_metadata_graph`` plugin TensorBoard's graph dashboard reads)."""
from __future__ import annotations

import logging
from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.runtime import function as _function
from flowgrad.summary import protos
from flowgrad.summary.experimental import summary_scope
from flowgrad.summary.graph_def import to_graph_def
from flowgrad.summary.write_ops import write

_log = logging.getLogger("tensorflow")


def trace_on(graph: bool = True, profiler: bool = False,
             profiler_outdir: str | None = None) -> None:
    """Starts collecting the graphs of the tf.functions called from now on (eager mode).

    Args:
        graph: Collect the graphs (TensorFlow's default).
        profiler: TensorFlow's profiler; flowgrad has none, so only graphs are collected
            (with a warning).
        profiler_outdir: The profiler's folder (unused without a profiler).
    """
    del profiler_outdir
    if not executing_eagerly():
        _log.warning("Must enable trace in eager mode.")
        return
    if _function.collected_graphs is not None:
        _log.warning("Trace already enabled")
        return
    if profiler:
        _log.warning("flowgrad has no profiler: tf.summary.trace_on collects graphs only")
    _function.collected_graphs = [] if graph or profiler else None


def trace_off() -> None:
    """Stops the trace and discards what it collected."""
    _function.collected_graphs = None


def trace_export(name: str, step: Any = None, profiler_outdir: str | None = None) -> None:
    """Stops the trace and writes the graphs it collected to the default writer.

    Args:
        name: The summary's name (its tag under the current name scope).
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        profiler_outdir: Unused (TensorFlow's argument is a no-op too).

    Raises:
        ValueError: the trace was not started with ``trace_on``, or there is a writer but
            no step.
    """
    del profiler_outdir
    if not executing_eagerly():
        _log.warning("Can only export trace while executing eagerly.")
        return
    graphs = _function.collected_graphs
    if graphs is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    from tensorboard.compat.proto import config_pb2

    run_metadata = config_pb2.RunMetadata()
    for g in graphs:
        run_metadata.function_graphs.add().pre_optimization_graph.CopyFrom(to_graph_def(g))
    meta = protos.pb().summary_pb2.SummaryMetadata()
    meta.plugin_data.plugin_name = "graph_run_metadata_graph"
    meta.plugin_data.content = b"1"
    try:
        with summary_scope(name, "graph_run_metadata_graph_summary") as (tag, _):
            write(tag=tag, tensor=run_metadata.SerializeToString(), step=step, metadata=meta)
    finally:
        trace_off()
