"""flowgrad: TensorFlow's gradient machinery rebuilt on NumPy.

``import flowgrad as tf`` is the TF2 face (eager by default, GradientTape);
``import flowgrad.compat.v1 as tf`` is the TF1 face (graph mode, Session)."""
from __future__ import annotations

import flowgrad.ops  # noqa: F401 - registers every op
from flowgrad import nn  # noqa: F401
from flowgrad.framework import errors  # noqa: F401
from flowgrad.framework.context import executing_eagerly  # noqa: F401
from flowgrad.framework.dtypes import *  # noqa: F401,F403
from flowgrad.framework.dtypes import DType, as_dtype  # noqa: F401
from flowgrad.framework.graph import Graph, Operation, control_dependencies, device  # noqa: F401
from flowgrad.framework.graph import name_scope as _v1_name_scope
from flowgrad.framework.indexed_slices import IndexedSlices  # noqa: F401
from flowgrad.framework.registry import RegisterGradient, no_gradient  # noqa: F401
from flowgrad.framework.tensor import Tensor, is_tensor  # noqa: F401
from flowgrad.framework.tensor_shape import TensorShape  # noqa: F401
from flowgrad.gradients import UnconnectedGradients  # noqa: F401
from flowgrad.ops.array_ops import *  # noqa: F401,F403
from flowgrad.ops.control_flow_ops import group, no_op  # noqa: F401
from flowgrad.ops.math_ops import *  # noqa: F401,F403
from flowgrad.ops.state_ops import Variable  # noqa: F401

__version__ = "0.1.0"


def name_scope(name: str):  # noqa: ANN201 - TF2 signature: one argument
    """Opens a name scope (TF2 form)."""
    return _v1_name_scope(name)


from flowgrad import compat  # noqa: E402,F401
from flowgrad.compat import v1 as _v1  # noqa: E402

compat.v1 = _v1
