"""``tf.test`` (TF2): gradient checking for custom gradients, and device queries.

``compute_gradient(f, x)`` gives the theoretical and numerical Jacobians of ``f``;
``compute_gradient_error`` (a flowgrad helper) their largest gap. ``check_gradients(f, args,
order=k)`` (a flowgrad helper, as JAX's ``check_grads``) asserts that derivatives up to order
k match central differences, in graph and eager mode. The TF1 versions
(``compute_gradient(x, x_shape, y, y_shape, ...)``) are ``flowgrad.compat.v1.test``."""
from __future__ import annotations

from flowgrad.testing.derivative_check import check_gradients
from flowgrad.testing.gradient_checker import compute_gradient, compute_gradient_error, max_error
from flowgrad.testing.test_case import TestCase, main
from flowgrad.testing.benchmark import Benchmark
from flowgrad.testing.markers import (assert_equal_graph_def, benchmark_config,
                                      disable_with_predicate, is_built_with_gpu_support,
                                      is_built_with_rocm, is_built_with_xla,
                                      with_eager_op_as_function)
from flowgrad.testing import experimental


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: object = None) -> bool:
    """False: flowgrad runs on the CPU.

    Args:
        cuda_only: Accepted for TensorFlow's signature.
        min_cuda_compute_capability: Accepted for TensorFlow's signature.
    """
    return False


def is_built_with_cuda() -> bool:
    """False: flowgrad runs on the CPU."""
    return False


def gpu_device_name() -> str:
    """'' (no GPU)."""
    return ""


__all__ = ["TestCase", "main", "compute_gradient", "compute_gradient_error", "max_error",
           "check_gradients",
           "is_gpu_available",
           "is_built_with_cuda", "gpu_device_name", "Benchmark", "assert_equal_graph_def",
           "benchmark_config", "disable_with_predicate", "is_built_with_gpu_support",
           "is_built_with_rocm", "is_built_with_xla", "with_eager_op_as_function",
           "experimental"]
