"""``tf.linalg`` of the TF1 face (``import flowgrad.compat.v1 as tf``): TF2's ``tf.linalg``
plus TensorFlow 1's ``tf.linalg.transpose`` (the matrix transpose)."""
from flowgrad.linalg_api import *  # noqa: F401,F403
from flowgrad.linalg_api import __all__ as _tf2_names
from flowgrad.ops.linalg_ops import matrix_transpose as transpose

del eig, eigvals  # noqa: F821 - TF2 only: TensorFlow's tf.compat.v1.linalg has neither
__all__ = [*(n for n in _tf2_names if n not in ("eig", "eigvals")), "transpose"]
