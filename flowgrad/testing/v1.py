"""``tf.compat.v1.test``: TF1's gradient checkers (graph tensors and the default session)."""
from __future__ import annotations

from flowgrad.testing import gpu_device_name, is_built_with_cuda, is_gpu_available
from flowgrad.testing.test_case import TestCase, main
from flowgrad.testing.benchmark import Benchmark
from flowgrad.testing.gradient_checker import compute_gradient_error_v1 as compute_gradient_error
from flowgrad.testing.gradient_checker import compute_gradient_v1 as compute_gradient

__all__ = ["Benchmark", "TestCase", "main", "compute_gradient", "compute_gradient_error",
           "is_gpu_available",
           "is_built_with_cuda", "gpu_device_name"]
