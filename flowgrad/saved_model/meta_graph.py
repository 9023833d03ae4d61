"""TensorFlow 1's MetaGraphDefs: ``tf.compat.v1.train.import_meta_graph`` and
``export_meta_graph`` on ``.meta`` files (TensorFlow's ``MetaGraphDef`` proto).

``import_meta_graph`` imports the graph, recreates the variables of the ``variables``,
``trainable_variables`` and ``local_variables`` collections from their ``VariableDef``\\ s
(resource variables included), restores the other collections that name nodes
(``train_op``, ``losses``, ...) and returns a ``tf.train.Saver`` over the variables.
TensorFlow's saver ops (``save/SaveV2``, ``save/RestoreV2``, ...) are not imported: flowgrad's
``Saver`` saves and restores without graph ops. ``export_meta_graph`` writes the graph and
the variable collections, so TensorFlow's ``import_meta_graph`` recreates them."""
from __future__ import annotations

from flowgrad.framework import hooks

import os
from typing import Any

from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.ops.partitioned_variables import SaveSliceInfo
from flowgrad.ops.state_ops import RefVariable
from flowgrad.saved_model import tf_protos
from flowgrad.saved_model.graph_export import to_graph_def
from flowgrad.saved_model.graph_import import Importer, source_node

#: Op types of TensorFlow's saver and of initialization checks that flowgrad's Saver and
#: Session do without graph ops: left out on import, with the nodes that depend on them.
SKIPPED_OPS = frozenset({"SaveV2", "RestoreV2", "SaveSlices", "RestoreSlice",
                         "MergeV2Checkpoints", "ShardedFilename", "StringJoin",
                         "StaticRegexFullMatch", "DisableCopyOnRead", "VarIsInitializedOp",
                         "IsVariableInitialized"})
#: The collections TensorFlow stores as ``VariableDef``\ s (its registered proto functions).
_VARIABLE_COLLECTIONS = (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES,
                         GraphKeys.LOCAL_VARIABLES, "model_variables", GraphKeys.GLOBAL_STEP,
                         GraphKeys.MOVING_AVERAGE_VARIABLES, GraphKeys.METRIC_VARIABLES)


def read_meta_graph(path_or_proto: Any) -> Any:
    """A MetaGraphDef from a ``.meta`` file (binary or text) or a proto."""
    cls = tf_protos.pb().meta_graph_pb2.MetaGraphDef
    if isinstance(path_or_proto, cls):
        return path_or_proto
    if hasattr(path_or_proto, "SerializeToString"):
        m = cls()
        m.ParseFromString(path_or_proto.SerializeToString())
        return m
    path = os.fspath(path_or_proto)
    if not os.path.isfile(path):
        raise OSError("File does not exist. Received: %s." % path)
    return tf_protos.read_message(cls(), path)


def skipped_nodes(nodes: list) -> set:
    """Names of the nodes of :data:`SKIPPED_OPS` and of every node that reads one."""
    by_name = {n.name: n for n in nodes}
    skipped: dict = {}

    def skip(n: Any) -> bool:
        if n.name not in skipped:
            skipped[n.name] = False
            skipped[n.name] = n.op in SKIPPED_OPS or any(
                skip(by_name[source_node(r)]) for r in n.input if source_node(r) in by_name)
        return skipped[n.name]

    return {n.name for n in nodes if skip(n)}


def import_meta_graph(meta_graph_or_file: Any, clear_devices: bool = False,
                      import_scope: str | None = None, **saver_kwargs: Any) -> Any:
    """Imports a MetaGraphDef's graph and collections into the default graph.

    Args:
      meta_graph_or_file: a ``.meta`` file's path or a MetaGraphDef proto.
      clear_devices: drop the nodes' device placements.
      import_scope: a name scope the imported names are put under.
      **saver_kwargs: passed to the returned ``Saver``.

    Returns:
      A ``tf.compat.v1.train.Saver`` of the imported variables (None without variables).

    Raises:
      InvalidArgumentError: a node of an op type flowgrad lacks (naming it and the node).
    """
    from flowgrad.train.saver import Saver
    meta = read_meta_graph(meta_graph_or_file)
    nodes = list(meta.graph_def.node)
    if clear_devices:
        for n in nodes:
            n.device = ""
    skipped = skipped_nodes(nodes)
    imp = Importer({f.signature.name: f for f in meta.graph_def.library.function})
    g = get_default_graph()
    with g.name_scope((import_scope + "/") if import_scope else None):
        imp.run(nodes, skip=lambda n: n.name in skipped)
    variables = _restore_collections(meta, g, import_scope, skipped)
    if not variables:
        return None
    return Saver(var_list=variables, **saver_kwargs)


def _restore_collections(meta: Any, g: Any, scope: str | None, skipped: set) -> list:
    """Adds the MetaGraphDef's collections to ``g``; returns the global variables."""
    p = tf_protos.pb()
    made: dict = {}
    for key, col in meta.collection_def.items():
        kind = col.WhichOneof("kind")
        if key in _VARIABLE_COLLECTIONS and kind == "bytes_list":
            for raw in col.bytes_list.value:
                vd = p.variable_pb2.VariableDef()
                vd.ParseFromString(raw)
                var = made.get(vd.variable_name)
                if var is None:
                    var = made[vd.variable_name] = RefVariable(variable_def=vd,
                                                               import_scope=scope)
                    if vd.HasField("save_slice_info_def"):
                        si = vd.save_slice_info_def
                        var._save_slice_info = SaveSliceInfo(
                            si.full_name, list(si.full_shape), list(si.var_offset),
                            list(si.var_shape))
                g.add_to_collection(key, var)
        elif kind == "node_list":
            for name in col.node_list.value:
                if source_node(name) in skipped:
                    continue
                full = "%s/%s" % (scope, name) if scope else name
                g.add_to_collection(key, g.as_graph_element(full))
    return g.get_collection(GraphKeys.GLOBAL_VARIABLES)


def _variable_def(var: Any) -> Any:
    vd = tf_protos.pb().variable_pb2.VariableDef(
        variable_name=var._variable.name, initializer_name=var.initializer.name,
        snapshot_name=var._snapshot.name, trainable=var.trainable)
    if var._initial_value is not None:
        vd.initial_value_name = var._initial_value.name
    info = getattr(var, "_save_slice_info", None)
    if info is not None:                 # a part of a partitioned variable
        vd.save_slice_info_def.full_name = info.full_name
        vd.save_slice_info_def.full_shape.extend(info.full_shape)
        vd.save_slice_info_def.var_offset.extend(info.var_offset)
        vd.save_slice_info_def.var_shape.extend(info.var_shape)
    return vd


def _add_collection(meta: Any, key: str, values: list) -> None:
    """Adds one collection as TensorFlow's ``add_collection_def`` does: variables as
    ``VariableDef`` protos, tensors and ops as node names, numbers and strings as such; a
    collection of other Python objects (queue runners, contexts, ...) is left out, as
    TensorFlow leaves out what it cannot serialize."""
    from flowgrad.framework.graph import Operation
    from flowgrad.framework.tensor import Tensor
    if not values:
        return
    if key in _VARIABLE_COLLECTIONS or all(isinstance(v, RefVariable) for v in values):
        if all(isinstance(v, RefVariable) for v in values):
            meta.collection_def[key].bytes_list.value.extend(
                [_variable_def(v).SerializeToString() for v in values])
    elif all(isinstance(v, (Tensor, Operation)) for v in values):
        meta.collection_def[key].node_list.value.extend([v.name for v in values])
    elif all(isinstance(v, (bool, int)) for v in values):
        meta.collection_def[key].int64_list.value.extend([int(v) for v in values])
    elif all(isinstance(v, float) for v in values):
        meta.collection_def[key].float_list.value.extend(values)
    elif all(isinstance(v, (str, bytes)) for v in values):
        meta.collection_def[key].bytes_list.value.extend(
            [v.encode() if isinstance(v, str) else v for v in values])


def export_meta_graph(filename: str | None = None, meta_info_def: Any = None,
                      graph_def: Any = None, saver_def: Any = None,
                      collection_list: list | None = None, as_text: bool = False,
                      graph: Any = None, export_scope: str | None = None,
                      clear_devices: bool = False, clear_extraneous_savers: bool = False,
                      strip_default_attrs: bool = False, save_debug_info: bool = False,
                      **kwargs: Any) -> Any:
    """The MetaGraphDef of a graph (the default one): its GraphDef and its variable
    collections as ``VariableDef``\\ s; written to ``filename`` when given.

    Args:
      filename: where to write it (binary, or text with ``as_text``).
      meta_info_def: a ``MetaInfoDef`` to include.
      graph_def: the GraphDef to use instead of the graph's.
      saver_def: a ``SaverDef`` to include.
      collection_list: the collections to include (default: all, as TensorFlow's).
      as_text: write the text format.
      graph: the graph (default: the default graph).
      export_scope: unused.
      clear_devices: drop device placements.
      clear_extraneous_savers: unused.
      strip_default_attrs: unused.
      save_debug_info: unused.
      **kwargs: unused.

    Returns:
      The MetaGraphDef.
    """
    from flowgrad.saved_model.graph_export import write_graph
    g = graph or get_default_graph()
    p = tf_protos.pb()
    meta = p.meta_graph_pb2.MetaGraphDef()
    if meta_info_def is not None:
        meta.meta_info_def.CopyFrom(meta_info_def)
    meta.meta_info_def.tensorflow_version = "2.21.0"
    meta.graph_def.CopyFrom(graph_def if graph_def is not None else to_graph_def(g))
    if clear_devices:
        for n in meta.graph_def.node:
            n.device = ""
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    keys = collection_list if collection_list is not None else sorted(
        k for k in g.get_all_collection_keys() if isinstance(k, str))
    for key in keys:
        _add_collection(meta, key, g.get_collection(key))
    if filename:
        write_graph(meta, os.path.dirname(filename) or ".", os.path.basename(filename),
                    as_text=as_text)
    return meta


hooks.register(export_meta_graph=export_meta_graph)
