"""The TF1 face: ``import flowgrad.compat.v1 as tf`` (graph mode, Session, tf.train)."""
from __future__ import annotations

import flowgrad.ops  # noqa: F401 - registers every op
from flowgrad import nn  # noqa: F401
from flowgrad.framework import errors  # noqa: F401
from flowgrad.framework.context import (
    disable_eager_execution,
    enable_eager_execution,
    state,
)
from flowgrad.framework.dtypes import *  # noqa: F401,F403
from flowgrad.framework.dtypes import DType, as_dtype  # noqa: F401
from flowgrad.framework.graph import *  # noqa: F401,F403
from flowgrad.framework.indexed_slices import IndexedSlices  # noqa: F401
from flowgrad.framework.registry import NotDifferentiable, RegisterGradient, no_gradient  # noqa: F401
from flowgrad.framework.tensor import EagerTensor, Tensor, is_tensor  # noqa: F401
from flowgrad.framework.tensor_shape import (  # noqa: F401
    Dimension,
    TensorShape,
    disable_v2_tensorshape,
    enable_v2_tensorshape,
)
from flowgrad.gradients import AggregationMethod, UnconnectedGradients, gradients, hessians  # noqa: F401  # noqa: F401
from flowgrad.ops.array_ops import *  # noqa: F401,F403
from flowgrad.ops.control_flow_ops import *  # noqa: F401,F403
from flowgrad.ops.math_ops import *  # noqa: F401,F403
from flowgrad.ops.state_ops import *  # noqa: F401,F403
from flowgrad.session import InteractiveSession, Session  # noqa: F401


def disable_v2_behavior() -> None:
    """TF1 behaviour: graph mode, TF1 shapes (Dimension) and identity-based tensor ==."""
    disable_eager_execution()
    disable_v2_tensorshape()
    state.tensor_equality = False


def enable_v2_behavior() -> None:
    """TF2 behaviour: eager mode, int shapes and elementwise tensor ==."""
    enable_eager_execution()
    enable_v2_tensorshape()
    state.tensor_equality = True


def disable_tensor_equality() -> None:
    state.tensor_equality = False


def enable_tensor_equality() -> None:
    state.tensor_equality = True
