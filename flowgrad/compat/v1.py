"""The TF1 face: ``import flowgrad.compat.v1 as tf`` (graph mode, Session, tf.train)."""
from __future__ import annotations

import importlib as _importlib

import flowgrad.ops  # registers every op
from flowgrad.compat import v1_nn as nn
from flowgrad.compat import v1_errors as errors
from flowgrad.framework.context import (disable_eager_execution, enable_eager_execution,
                                        executing_eagerly, get_default_session,
                                        reset_default_graph)
from flowgrad.framework.context import state as _state
from flowgrad.framework.dtypes import *
from flowgrad.framework.dtypes import DType, as_dtype
from flowgrad.framework.graph import *
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.registry import NotDifferentiable, RegisterGradient, no_gradient
from flowgrad.framework.tensor import EagerTensor, Tensor, is_tensor
from flowgrad.framework.tensor_shape import (Dimension, TensorShape, disable_v2_tensorshape,
                                             enable_v2_tensorshape)
from flowgrad.autodiff.backprop import AggregationMethod, UnconnectedGradients, gradients
from flowgrad.autodiff.pfor.vectorize import hessians
from flowgrad.ops.array_ops import *
from flowgrad.ops.control_flow_ops import *
from flowgrad.ops.math_ops import *
from flowgrad.compat import v1_math as math
from flowgrad.ops.state_ops import *
from flowgrad.ops.init_ops import *
from flowgrad.ops.random_ops import *
from flowgrad.ops.script_ops import *
from flowgrad.ops.variable_scope import *
from flowgrad.compat import v1_random as random
from flowgrad.compat import v1_initializers as initializers
from flowgrad.runtime.session import InteractiveSession, Session
from flowgrad.runtime.function import function, init_scope
from flowgrad import autograph
from flowgrad.module import Module
from flowgrad.ops.tensor_array_ops import TensorArray
from flowgrad.compat import v1_saved_model as saved_model
from flowgrad.ops.sequence_ops import lin_space, linspace
from flowgrad import version
from flowgrad.version import VERSION, VERSION as __version__  # noqa: N811
from flowgrad.autodiff.tape import GradientTape
from flowgrad.autodiff.custom_gradient import custom_gradient
from flowgrad.autodiff.vectorized_jacobians import vectorized_map
train = _importlib.import_module("flowgrad.train")  # the module: flowgrad.train is TF2's
from flowgrad import distributions, metrics
from flowgrad.ops.special_math_ops import digamma, erf, erfc, lbeta, lgamma, polygamma
from flowgrad.ops.check_ops import is_non_decreasing, is_strictly_increasing
from flowgrad.ops.safe_division_ops import truncatediv, truncatemod
from flowgrad.ops.complex_ops import angle, complex, conj, imag, real
from flowgrad.ops.nn_ops import log_sigmoid
from flowgrad.ops.segment_ops import segment_prod, unsorted_segment_prod
from flowgrad.ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh
from flowgrad import bitwise_api as bitwise
from flowgrad import signal_api as signal
from flowgrad import raw_ops_api as raw_ops
from flowgrad.ops.script_ops import py_function
from flowgrad.ops.bucket_ops import (bincount, histogram_fixed_width, histogram_fixed_width_bins,
                                     searchsorted)
from flowgrad.ops.manip_ops import (bitcast, broadcast_dynamic_shape, broadcast_static_shape,
                                    ensure_shape, get_static_value, repeat, roll, sequence_mask,
                                    unique, unique_with_counts)
from flowgrad.ops.manip_ops import reverse_sequence_v1 as reverse_sequence
from flowgrad.ops.manip_ops import depth_to_space_v1 as depth_to_space
from flowgrad.ops.manip_ops import space_to_depth_v1 as space_to_depth
from flowgrad.ops.tensor_scatter_ops import tensor_scatter_nd_max, tensor_scatter_nd_min
from flowgrad.compat import v1_linalg as linalg
from flowgrad.ops.einsum_ops import einsum, tensordot
from flowgrad.ops.linalg_ops import cholesky_solve, eigh as self_adjoint_eig
from flowgrad.ops.linalg_ops import eigvalsh as self_adjoint_eigvals
from flowgrad.ops.linalg_ops import qr, svd
from flowgrad.ops.meshgrid_ops import meshgrid
from flowgrad.ops.segment_ops import (segment_max, segment_mean, segment_min, segment_sum,
                                     unsorted_segment_max, unsorted_segment_mean,
                                     unsorted_segment_min)
from flowgrad.ops.sort_ops import argsort, sort
from flowgrad import config
from flowgrad.ops.check_ops import (Assert, assert_rank, assert_rank_at_least, assert_type,
                                    assert_equal_v1 as assert_equal,
                                    assert_greater_equal_v1 as assert_greater_equal,
                                    assert_greater_v1 as assert_greater,
                                    assert_less_equal_v1 as assert_less_equal,
                                    assert_less_v1 as assert_less,
                                    assert_negative_v1 as assert_negative,
                                    assert_non_negative_v1 as assert_non_negative,
                                    assert_non_positive_v1 as assert_non_positive,
                                    assert_none_equal_v1 as assert_none_equal,
                                    assert_positive_v1 as assert_positive)
from flowgrad.ops.batch_gather_nd_ops import gather_nd
from flowgrad.ops.scatter_nd_ops import (scatter_nd, tensor_scatter_nd_add,
                                         tensor_scatter_nd_update)
from flowgrad.ops.linalg_ops import (band_part as matrix_band_part, cholesky,
                                     det as matrix_determinant, diag as matrix_diag,
                                     diag_part as matrix_diag_part, eye,
                                     inv as matrix_inverse, matrix_transpose,
                                     set_diag as matrix_set_diag, solve as matrix_solve, trace,
                                     triangular_solve as matrix_triangular_solve)
from flowgrad import layers, losses
from flowgrad.compat import v1_data as data
from flowgrad import keras
from flowgrad.ops.clip_ops import *
from flowgrad.debug import debugging
from flowgrad.debug.explain import explain_gradient
from flowgrad.debug.numerics_ops import add_check_numerics_ops, verify_tensor_all_finite
from flowgrad.debug.numerics_ops import check_numerics
from flowgrad.summary import v1 as summary
from flowgrad.testing import v1 as test
from flowgrad.debug import tf_logging as logging
from flowgrad.debug.tf_logging import get_logger
from flowgrad.ops.logging_ops import timestamp
from flowgrad.ops.reduction_ops import arg_max, arg_min
from flowgrad.runtime import session_config as _session_config
from flowgrad.compat import v1_graph_util as graph_util
from flowgrad.saved_model.graph_def import import_graph_def
from flowgrad.saved_model import tf_protos as _tf_protos
from flowgrad.saved_model import graph_export as _graph_export, meta_graph as _meta_graph
# TF1's tf.train names that live above the flowgrad.train package (they import it):
train.import_meta_graph = _meta_graph.import_meta_graph
train.export_meta_graph = _meta_graph.export_meta_graph
train.write_graph = _graph_export.write_graph
from flowgrad.distribute.sync_replicas import SyncReplicasOptimizer as _SyncReplicasOptimizer
train.SyncReplicasOptimizer = _SyncReplicasOptimizer
from flowgrad.compat import v1_gfile as gfile, v1_io as io, v1_python_io as python_io
from flowgrad import ragged_api as ragged, sparse_api as sparse
from flowgrad.compat import v1_strings as strings
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor, sparse_to_dense
from flowgrad.ops.sparse_tensor import SparseTensorValue, sparse_placeholder
from flowgrad.ops.sparse_tensor import to_dense as sparse_tensor_to_dense
from flowgrad.ops.string_ops import (as_string, reduce_join, regex_replace, string_split,
                                     substr)
from flowgrad.ops.string_ops import join as string_join
from flowgrad.ops.string_ops import strip as string_strip
from flowgrad.ops.string_ops import to_hash_bucket_fast as string_to_hash_bucket_fast
from flowgrad.ops.string_ops import to_hash_bucket_strong as string_to_hash_bucket_strong
from flowgrad.ops.string_ops import to_number as string_to_number
from flowgrad.ops.io_ops import (decode_base64, decode_json_example, decode_raw, encode_base64,
                                 matching_files, parse_tensor, read_file, serialize_tensor,
                                 write_file)
from flowgrad.ops.csv_ops import decode_csv
from flowgrad.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature,
                                      parse_example, parse_single_example,
                                      parse_single_sequence_example)
from flowgrad.compat import v1_image as image
from flowgrad import distribute_api as distribute, lite_api as lite, lookup_api as lookup
from flowgrad import tpu_api as tpu
from flowgrad.ops.confusion_matrix_ops import confusion_matrix
from flowgrad.ops.lookup_ops import tables_initializer
from flowgrad.compat import v1_feature_column as feature_column
from flowgrad import audio_api as audio
from flowgrad.compat import v1_sets as sets
from flowgrad.tensor_proto_api import make_ndarray, make_tensor_proto


def disable_v2_behavior() -> None:
    """TF1 behaviour: graph mode, TF1 shapes (Dimension) and identity-based tensor ==."""
    disable_eager_execution()
    disable_v2_tensorshape()
    _state.tensor_equality = False


def enable_v2_behavior() -> None:
    """TF2 behaviour: eager mode, int shapes and elementwise tensor ==."""
    enable_eager_execution()
    enable_v2_tensorshape()
    _state.tensor_equality = True


def disable_tensor_equality() -> None:
    _state.tensor_equality = False


def enable_tensor_equality() -> None:
    _state.tensor_equality = True


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


# -- Keep this block last: the face shows TensorFlow 1's names (tests/test_namespace.py) --
#: Names the imports above bring in that TensorFlow 1 has no top-level name for: helpers of
#: flowgrad's modules, NumPy and typing, and TF1 names that live in ``tf.math`` only.
_NOT_TF1 = (
    "Any", "annotations", "builtins", "np", "flowgrad", "EagerTensor", "EagerVariable",
    "RefVariable", "broadcast_gradient_args", "float32_ref", "float64_ref", "int32_ref",
    "int64_ref", "from_numpy", "is_differentiable", "state", "sum_to", "with_dependencies",
    "divide_no_nan", "reduce_euclidean_norm", "reduce_std", "reduce_variance",
)
for _name in _NOT_TF1:
    globals().pop(_name, None)
del _name
