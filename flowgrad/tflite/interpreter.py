"""LiteRT, Google's TensorFlow Lite runtime, behind ``tf.lite.Interpreter``."""
from __future__ import annotations

from typing import Any


def litert_module() -> Any:
    """LiteRT's interpreter module (``ai_edge_litert.interpreter``).

    Returns:
      The module.

    Raises:
      ImportError: LiteRT is not installed; the message names the extra to install.
    """
    try:
        from ai_edge_litert import interpreter
    except ImportError as e:
        raise ImportError("tf.lite.Interpreter runs models with LiteRT: pip install "
                          "flowgrad[lite] (ai-edge-litert)") from e
    return interpreter


def litert_interpreter() -> type:
    """LiteRT's ``Interpreter`` class (TensorFlow's ``tf.lite.Interpreter`` API)."""
    return litert_module().Interpreter
