"""``tf.autograph``: converts Python control flow on Tensors into cond/while_loop.

``tf.function`` converts the functions it traces (``autograph=True``, the default); see
``transformer`` for the rewriting and ``operators`` for the run-time dispatch."""
from __future__ import annotations

from typing import Any

from flowgrad.autograph import conversion
from flowgrad.autograph.conversion import (control_status, convert, converted_call,
                                           do_not_convert, maybe_convert, tf_convert, to_code,
                                           to_graph)
from flowgrad.autograph.transformer import ConversionError


def set_verbosity(level: int, alsologtostdout: bool = False) -> None:
    """AutoGraph's log level: from 3 on, the source of each function converted from then on
    is printed (TensorFlow logs it at that level); 0 (the default) prints nothing.

    Args:
        level: The verbosity, 0 to 10.
        alsologtostdout: Accepted for TensorFlow's signature (the source goes to stdout).
    """
    conversion.verbosity = int(level)


def trace(*args: Any) -> None:
    """Prints its arguments when the converted code runs in Python (tracing time).

    Args:
        *args: The values to print, as ``print`` does.
    """
    print(*args)


__all__ = ["to_graph", "to_code", "do_not_convert", "set_verbosity", "trace",
           "tf_convert", "convert", "converted_call", "control_status", "maybe_convert",
           "ConversionError"]
