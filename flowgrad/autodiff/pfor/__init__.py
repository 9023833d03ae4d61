"""Vectorization (pfor): ops run once for a batch of examples, by per-op batching rules."""
from flowgrad.autodiff.pfor.rules import batch_rule_types, register_batch_rule
from flowgrad.autodiff.pfor.vectorize import Batch, graph_jacobian, hessians, vectorize_ops

__all__ = ["Batch", "batch_rule_types", "graph_jacobian", "hessians", "register_batch_rule",
           "vectorize_ops"]
