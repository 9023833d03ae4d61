"""``tensorflow.python.framework.ops`` stand-in: graph, tensor and registry names in one place."""
from flowgrad.framework.context import executing_eagerly, reset_default_graph
from flowgrad.framework.graph import (
    Graph,
    GraphKeys,
    Operation,
    add_to_collection,
    add_to_collections,
    control_dependencies,
    device,
    get_collection,
    get_collection_ref,
    get_default_graph,
    name_scope,
)
from flowgrad.framework.registry import NotDifferentiable, RegisterGradient, no_gradient
from flowgrad.framework.tensor import EagerTensor, Tensor, convert_to_tensor, is_tensor

__all__ = ["Graph", "GraphKeys", "Operation", "Tensor", "EagerTensor", "name_scope",
           "get_default_graph", "reset_default_graph", "convert_to_tensor", "is_tensor",
           "RegisterGradient", "NotDifferentiable", "no_gradient", "control_dependencies",
           "device", "add_to_collection", "add_to_collections", "get_collection",
           "get_collection_ref", "executing_eagerly"]
