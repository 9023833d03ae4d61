"""The TF1 face: ``import flowgrad.compat.v1 as tf`` (graph mode, Session, tf.train).

It shows the names of the export table's ``tf.compat.v1`` namespace
(flowgrad/api/exports.py), and TF1's protobuf messages on first use."""
import importlib as _importlib

import flowgrad.ops as _ops  # noqa: F401 - registers every op
from flowgrad.api import namespaces as _namespaces
from flowgrad.cluster_resolver_api import ClusterSpec as _ClusterSpec
from flowgrad.distribute.sync_replicas import SyncReplicasOptimizer as _SyncReplicasOptimizer
from flowgrad.runtime import session_config as _session_config
from flowgrad.saved_model import graph_export as _graph_export, meta_graph as _meta_graph
from flowgrad.saved_model import tf_protos as _tf_protos
from flowgrad.version import VERSION as __version__  # noqa: N811

__all__ = _namespaces.populate(globals(), "tf.compat.v1")

# TF1's tf.train is the flowgrad.train package, plus the names that live above it (they import
# it): the meta-graph and graph writers, and SyncReplicasOptimizer.
train.import_meta_graph = _meta_graph.import_meta_graph  # noqa: F821 - bound by populate
train.export_meta_graph = _meta_graph.export_meta_graph  # noqa: F821
train.write_graph = _graph_export.write_graph  # noqa: F821
train.SyncReplicasOptimizer = _SyncReplicasOptimizer  # noqa: F821
train.ClusterSpec = _ClusterSpec  # noqa: F821


def __getattr__(name: str) -> type:
    """TF1's session option messages (``ConfigProto``, ``GPUOptions``, ``RunOptions``, ...),
    graph messages (``GraphDef``, ``NodeDef``, ``MetaGraphDef``, ...) and summary messages
    (``Summary``, ``SummaryMetadata``, ``Event``, ...), loaded on first
    use (see :mod:`flowgrad.runtime.session_config`, :mod:`flowgrad.saved_model.tf_protos`);
    and ``app`` and ``flags``, absl's (the ``flags`` extra), loaded on first use."""
    if name in ("app", "flags"):
        module = _importlib.import_module("flowgrad.compat.v1_" + name)
        globals()[name] = module
        return module
    if name in _session_config.MESSAGES:
        return _session_config.message_class(name)
    if name in _tf_protos.GRAPH_MESSAGES:
        return _tf_protos.message_class(name)
    if name in ("Summary", "SummaryMetadata", "HistogramProto", "Event", "SessionLog"):
        from flowgrad.summary import v1 as _summary_v1   # TensorBoard's protos, as tf.summary's
        return getattr(_summary_v1, name)
    raise AttributeError("module 'flowgrad.compat.v1' has no attribute %r" % name)
