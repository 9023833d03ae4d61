"""Gradient diagnostics: why a gradient is None, where a NaN came from, graph pictures.

- ``explain_gradient(ys, xs)``: for each x, why d(ys)/dx is (or is not) None.
- ``check_numerics_mode()``: the first NaN/Inf, forward or backward, raises with its origin.
- ``check_numerics`` / ``add_check_numerics_ops``: TensorFlow's explicit checks.
- ``to_dot(graph)``: the graph in Graphviz DOT, gradient ops and stopped edges marked."""
from flowgrad.debug.explain import (
    Blocker,
    GradientExplanation,
    explain_gradient,
    explain_no_gradients,
)
from flowgrad.debug.graphviz import to_dot
from flowgrad.debug.numerics import (
    NumericsPlanCompiler,
    check_numerics_mode,
    disable_check_numerics,
    enable_check_numerics,
)
from flowgrad.debug.numerics_ops import add_check_numerics_ops, check_numerics
from flowgrad.debug import timeline  # noqa: F401 - registers the fill_step_stats hook
from flowgrad.debug.unsafe_where import NumericsWarning

__all__ = ["explain_gradient", "explain_no_gradients", "GradientExplanation", "Blocker",
           "check_numerics_mode", "enable_check_numerics", "disable_check_numerics",
           "NumericsPlanCompiler", "check_numerics", "add_check_numerics_ops",
           "NumericsWarning", "to_dot"]
