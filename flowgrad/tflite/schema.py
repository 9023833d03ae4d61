"""The TensorFlow Lite flatbuffer schema, from LiteRT's generated Python classes."""
from __future__ import annotations

from typing import Any


def schema() -> Any:
    """The generated schema module (``ai_edge_litert.schema_py_generated``).

    Returns:
      The module holding ``ModelT``, ``BuiltinOperator``, the option classes, ...

    Raises:
      ImportError: LiteRT is not installed; the message names the extra to install.
    """
    try:
        from ai_edge_litert import schema_py_generated
    except ImportError as e:
        raise ImportError("TensorFlow Lite files need LiteRT: pip install flowgrad[lite] "
                          "(ai-edge-litert)") from e
    return schema_py_generated
