"""The int8 form of weights that TensorFlow's converter writes (dynamic-range and full
integer quantization alike)."""
from __future__ import annotations

import numpy as np


def per_channel_int8(w: np.ndarray, axis: int) -> tuple:
    """Symmetric int8 weights with one scale per index of ``axis`` (``max |w| / 127``).

    Args:
      w: float weights.
      axis: the output-channel axis.

    Returns:
      (the int8 array, the float32 scales).
    """
    moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
    scale = np.abs(moved).max(axis=1) / 127.0
    scale = np.where(scale == 0, 1.0, scale).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    return np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8), scale
