"""``tf.compat.v1.test``: TF1's gradient checkers (graph tensors and the default session)."""
from __future__ import annotations

from unittest import mock

from flowgrad.testing import experimental, gpu_device_name, is_built_with_cuda, is_gpu_available
from flowgrad.testing.test_case import TestCase, get_temp_dir, main
from flowgrad.testing.benchmark import Benchmark
from flowgrad.testing.markers import assert_equal_graph_def_v1 as assert_equal_graph_def
from flowgrad.testing.markers import (benchmark_config, disable_with_predicate,
                                      is_built_with_gpu_support, is_built_with_rocm,
                                      is_built_with_xla, with_eager_op_as_function)
from flowgrad.testing.gradient_checker import compute_gradient_error_v1 as compute_gradient_error
from flowgrad.testing.gradient_checker import compute_gradient_v1 as compute_gradient

__all__ = ["Benchmark", "TestCase", "main", "compute_gradient", "compute_gradient_error",
           "is_gpu_available",
           "is_built_with_cuda", "gpu_device_name", "assert_equal_graph_def",
           "benchmark_config", "disable_with_predicate", "is_built_with_gpu_support",
           "is_built_with_rocm", "is_built_with_xla", "with_eager_op_as_function",
           "experimental", "mock", "get_temp_dir"]
