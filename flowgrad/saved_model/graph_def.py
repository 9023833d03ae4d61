"""TensorFlow 1's GraphDef functions: ``tf.compat.v1.import_graph_def``,
``tf.compat.v1.graph_util.extract_sub_graph`` and ``convert_variables_to_constants``.

The GraphDefs are TensorFlow's protocol buffers (``tensorboard.compat.proto.graph_pb2``), so
files written by TensorFlow (``tf.io.write_graph``, frozen graphs) load as they are."""
from __future__ import annotations

from typing import Any

from flowgrad.framework import errors
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import Tensor
from flowgrad.saved_model import tf_protos
from flowgrad.saved_model.graph_import import Importer, source_node


def _as_graph_def(graph_def: Any) -> Any:
    gd_class = tf_protos.pb().graph_pb2.GraphDef
    if isinstance(graph_def, gd_class):
        return graph_def
    if isinstance(graph_def, (bytes, bytearray)):
        gd = gd_class()
        gd.ParseFromString(bytes(graph_def))
        return gd
    if hasattr(graph_def, "SerializeToString") and hasattr(graph_def, "node"):
        gd = gd_class()                       # a GraphDef of another proto package
        gd.ParseFromString(graph_def.SerializeToString())
        return gd
    raise TypeError("graph_def must be a GraphDef proto, got %s" % type(graph_def).__name__)


def _tensor_key(name: str) -> str:
    name = name.lstrip("^")
    return name if ":" in name else name + ":0"


def import_graph_def(graph_def: Any, input_map: dict | None = None,
                     return_elements: list | None = None, name: str | None = None,
                     op_dict: Any = None, producer_op_list: Any = None) -> list | None:
    """Imports the graph in ``graph_def`` into the default graph (TF1 graph mode).

    Args:
      graph_def: a ``GraphDef`` proto (or its serialized bytes).
      input_map: maps tensor names in ``graph_def`` (``"x:0"``, or ``"x"`` for output 0) to
        tensors of the default graph that replace them.
      return_elements: names in ``graph_def`` of ops (``"train_op"``) or tensors
        (``"y:0"``) to return.
      name: prefix of the imported names (default ``"import"``; ``""`` for none).
      op_dict: unused (TensorFlow deprecated it).
      producer_op_list: unused.

    Returns:
      The imported ops/tensors named by ``return_elements`` (None without them).

    Raises:
      InvalidArgumentError: a node of an op type flowgrad lacks (naming the op type and the
        node), or an input that names no node.
      ValueError: an ``input_map`` or ``return_elements`` name that is not in the graph.
    """
    del op_dict, producer_op_list
    gd = _as_graph_def(graph_def)
    g = get_default_graph()
    names = {n.name for n in gd.node}
    input_map = {_tensor_key(k): v for k, v in (input_map or {}).items()}
    for k, v in input_map.items():
        if source_node(k) not in names:
            raise ValueError("Attempted to map inputs that were not found in graph_def: [%s]"
                             % k)
        if not isinstance(v, Tensor):
            raise TypeError("input_map values must be Tensors, got %r for %s" % (v, k))
    library = {f.signature.name: f for f in gd.library.function}
    imp = _MappedImporter(library, input_map)
    with g.name_scope("import" if name is None else name):
        imp.run(list(gd.node))
    if return_elements is None:
        return None
    out = []
    for r in return_elements:
        node = source_node(r)
        if node not in names:
            raise ValueError("Requested return_element %r not found in graph_def." % r)
        value = imp.values[node]
        if ":" in r:
            out.append(imp.lookup(r))
        else:
            out.append(value[0].op if isinstance(value, list) and value else value)
    return out


class _MappedImporter(Importer):
    """An importer whose lookups see ``input_map``'s replacements first."""

    def __init__(self, library: dict, input_map: dict):
        super().__init__(library)
        self.input_map = input_map

    def lookup(self, ref: str) -> Any:
        mapped = self.input_map.get(_tensor_key(ref)) if not ref.startswith("^") else None
        return mapped if mapped is not None else super().lookup(ref)


# --------------------------------------------------------------------------------------
# graph_util


def extract_sub_graph(graph_def: Any, dest_nodes: list) -> Any:
    """The GraphDef of the nodes ``dest_nodes`` need (data and control inputs), in the
    original order.

    Args:
        graph_def: A ``GraphDef`` (TensorFlow's protobuf message).
        dest_nodes: The names of the nodes to keep, with everything they depend on.

    Returns:
        A new ``GraphDef``.

    Raises:
      TypeError: ``dest_nodes`` is not a list of names.
      AssertionError: a name in ``dest_nodes`` is not in the graph (TensorFlow's class).
    """
    if isinstance(dest_nodes, str) or not isinstance(dest_nodes, (list, tuple)):
        raise TypeError("dest_nodes must be a list.")
    gd = _as_graph_def(graph_def)
    by_name = {n.name: n for n in gd.node}
    for d in dest_nodes:
        if d not in by_name:
            raise AssertionError("%s is not in graph" % d)
    keep, stack = set(), list(dest_nodes)
    while stack:
        n = stack.pop()
        if n in keep:
            continue
        keep.add(n)
        stack.extend(source_node(r) for r in by_name[n].input)
    out = type(gd)()
    out.versions.CopyFrom(gd.versions)
    out.library.CopyFrom(gd.library)
    out.node.extend([n for n in gd.node if n.name in keep])
    return out


_VARIABLE_OPS = ("VariableV2", "VarHandleOp")


def convert_variables_to_constants(sess: Any, input_graph_def: Any, output_node_names: list,
                                   variable_names_whitelist: list | None = None,
                                   variable_names_blacklist: list | None = None) -> Any:
    """A frozen GraphDef: the sub-graph ``output_node_names`` need, each variable replaced
    by a ``Const`` of its current value in ``sess`` (resource reads by ``Identity``), as
    TensorFlow freezes graphs.

    Args:
      sess: the Session holding the variables' values.
      input_graph_def: the GraphDef (``sess.graph.as_graph_def()``).
      output_node_names: names of the nodes the frozen graph computes.
      variable_names_whitelist: only these variables are frozen (default: all).
      variable_names_blacklist: these variables are not frozen.

    Returns:
      The frozen GraphDef.
    """
    pb = tf_protos.pb()
    gd = extract_sub_graph(input_graph_def, list(output_node_names))
    frozen = [n for n in gd.node if n.op in _VARIABLE_OPS
              and (variable_names_whitelist is None or n.name in variable_names_whitelist)
              and n.name not in (variable_names_blacklist or ())]
    values = sess.run([sess.graph.get_tensor_by_name(n.name + ":0") for n in frozen]) \
        if frozen else []
    value_of = {n.name: v for n, v in zip(frozen, values)}
    out = type(gd)()
    out.versions.CopyFrom(gd.versions)
    out.library.CopyFrom(gd.library)
    AttrValue = pb.attr_value_pb2.AttrValue
    for n in gd.node:
        new = out.node.add()
        if n.name in value_of:
            dtype = n.attr["dtype"].type
            new.name, new.op, new.device = n.name, "Const", n.device
            new.attr["dtype"].CopyFrom(AttrValue(type=dtype))
            new.attr["value"].CopyFrom(AttrValue(tensor=tf_protos.tensor_proto(
                value_of[n.name], tf_protos.as_dtype(dtype))))
        elif n.op == "ReadVariableOp" and source_node(n.input[0]) in value_of:
            new.name, new.op, new.device = n.name, "Identity", n.device
            new.input.extend(n.input)
            new.attr["T"].CopyFrom(AttrValue(type=n.attr["dtype"].type))
        else:
            new.CopyFrom(n)
    if len(out.node) != len(gd.node):
        raise errors.InternalError(None, None, "freezing lost nodes")
    return out
