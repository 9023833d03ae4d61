"""Op definitions by family; importing this package registers every op."""
from flowgrad.ops import array_ops, control_flow_ops, math_ops, overloads, state_ops  # noqa: F401
