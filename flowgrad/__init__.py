"""flowgrad: TensorFlow's gradient machinery rebuilt on NumPy.

``import flowgrad as tf`` is the TF2 face (eager by default, GradientTape);
``import flowgrad.compat.v1 as tf`` is the TF1 face (graph mode, Session)."""
from __future__ import annotations

import sys as _sys

import flowgrad.ops  # registers every op
from flowgrad import nn
from flowgrad.framework import errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.dtypes import *
from flowgrad.framework.dtypes import DType, as_dtype
from flowgrad.framework.graph import Graph, Operation, control_dependencies, device
from flowgrad.framework.graph import name_scope as _v1_name_scope
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.registry import RegisterGradient, no_gradient
from flowgrad.framework.tensor import TensorBase as Tensor  # eager and graph tensors, as in TF2
from flowgrad.framework.tensor import is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.autodiff.backprop import UnconnectedGradients, gradients
import flowgrad.autodiff.control_flow_grad  # noqa: F401 - registers the If and While gradients
from flowgrad.ops.array_ops import *
from flowgrad.ops.control_flow_ops import group, no_op
from flowgrad.ops.cond_v2 import case, cond, switch_case
from flowgrad.ops.while_v2 import while_loop
from flowgrad.ops.functional_ops import foldl, foldr, map_fn, scan
from flowgrad.ops.logging_ops import print_v2 as print  # noqa: A004 - TF's name
from flowgrad.ops.math_ops import *
from flowgrad.ops.math_ops import argmax_v2 as argmax, argmin_v2 as argmin
from flowgrad.ops.array_ops import (boolean_mask_v2 as boolean_mask, gather_v2 as gather,
                                    pad_v2 as pad, transpose_v2 as transpose)
from flowgrad import math_api as math
from flowgrad.ops.state_ops import Variable
from flowgrad import keras, nest
from flowgrad import data
from flowgrad.runtime.function import TensorSpec, function, init_scope
from flowgrad import autograph
from flowgrad.module import Module
from flowgrad.ops.tensor_array_ops import TensorArray
from flowgrad import saved_model
from flowgrad.saved_model.graph_def import import_graph_def
from flowgrad.ops.sequence_ops import linspace
from flowgrad.keras import optimizers
from flowgrad.autodiff.tape import GradientTape
from flowgrad.autodiff.custom_gradient import custom_gradient, recompute_grad
from flowgrad import autodiff
from flowgrad.autodiff.vectorized_jacobians import vectorized_map
from flowgrad.ops.clip_ops import *
from flowgrad.ops.script_ops import numpy_function, py_function
from flowgrad import summary, testing as test
from flowgrad import linalg_api as linalg
from flowgrad.ops.einsum_ops import einsum, tensordot
from flowgrad.ops.linalg_ops import eye
from flowgrad.ops.sort_ops import argsort, sort
from flowgrad.ops.meshgrid_ops import meshgrid
from flowgrad import config
from flowgrad.ops.safe_division_ops import truncatediv, truncatemod
from flowgrad.ops.check_ops import (Assert, assert_equal, assert_greater, assert_less,
                                    assert_rank)
from flowgrad.ops.batch_gather_nd_ops import gather_nd
from flowgrad.ops.scatter_nd_ops import (scatter_nd, tensor_scatter_nd_add,
                                         tensor_scatter_nd_update)
from flowgrad.debug import debugging
from flowgrad.debug.explain import explain_gradient
from flowgrad import initializers, random_api as random
from flowgrad.initializers import (Constant as constant_initializer, Ones as ones_initializer,
                                   RandomNormal as random_normal_initializer,
                                   RandomUniform as random_uniform_initializer,
                                   Zeros as zeros_initializer)

from flowgrad import version
from flowgrad.debug.tf_logging import get_logger
from flowgrad.ops.logging_ops import timestamp
from flowgrad import io_api as io
from flowgrad.ops.complex_ops import complex
from flowgrad.ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh
from flowgrad import ragged_api as ragged, sparse_api as sparse, strings_api as strings
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.data.structure import RaggedTensorSpec, SparseTensorSpec
from flowgrad.ops.string_ops import as_string
from flowgrad.dropin import install_as_tensorflow
from flowgrad import distribute_api as distribute  # TF's; the Ray package: flowgrad.distribute.*
from flowgrad import experimental_api as experimental, types_api as types
from flowgrad import internal_api as __internal__
from flowgrad.framework.composite_tensor import TypeSpec
from flowgrad.ops.variable_enums import VariableAggregation, VariableSynchronization
from flowgrad import image_api as image
from flowgrad import bitwise_api as bitwise
from flowgrad import signal_api as signal
from flowgrad import raw_ops_api as raw_ops
from flowgrad.ops.bucket_ops import (histogram_fixed_width, histogram_fixed_width_bins,
                                     searchsorted)
from flowgrad.ops.manip_ops import (bitcast, broadcast_dynamic_shape, broadcast_static_shape,
                                    ensure_shape, get_static_value, repeat, reverse_sequence,
                                    roll, sequence_mask, unique, unique_with_counts)
from flowgrad.ops.tensor_scatter_ops import tensor_scatter_nd_max, tensor_scatter_nd_min
from flowgrad import lite_api as lite, tpu_api as tpu
from flowgrad import lookup_api as lookup
from flowgrad import feature_column_api as feature_column
from flowgrad import audio_api as audio
from flowgrad import sets_api as sets
from flowgrad.tensor_proto_api import make_ndarray, make_tensor_proto

__version__ = version.VERSION   # TensorFlow API version; flowgrad's: version.FLOWGRAD_VERSION


def name_scope(name: str):  # noqa: ANN201 - TF2 signature: one argument
    """Opens a name scope (TF2 form)."""
    return _v1_name_scope(name)


from flowgrad import compat
from flowgrad.compat import v1 as _v1

compat.v1 = _v1
compat.v2 = _sys.modules[__name__]   # TensorFlow 2's API is this face
_v1.compat = compat


# -- Keep this block last: the face shows TensorFlow 2's names (flowgrad/_tf2_namespace.py) --
from flowgrad import _tf2_namespace

_tf2_namespace.finish(globals())
__all__ = _tf2_namespace.public_names(globals())


def __getattr__(name: str):  # noqa: ANN202 - PEP 562
    """``keras`` (and ``losses``, ``metrics``, ``optimizers``, its namespaces) under the
    drop-in with the keras extra: the real Keras 3's, loaded on first use (flowgrad/dropin.py)."""
    if name == "keras":
        from flowgrad.dropin import tf_keras
        return tf_keras()
    if name in _tf2_namespace.KERAS_ALIASES:     # tf.losses is tf.keras.losses
        from flowgrad.dropin import tf_keras
        return getattr(tf_keras(), name)
    raise AttributeError("module 'flowgrad' has no attribute %r" % name)


def __dir__() -> list:
    """TensorFlow 2's names, flowgrad's extensions; not the implementation modules."""
    return _tf2_namespace.public_names(globals())
