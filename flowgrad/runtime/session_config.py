"""TF1's session option messages: ``tf.compat.v1.ConfigProto``, ``GPUOptions``, ``RunOptions``...

These are TensorFlow's protocol-buffer messages (``tensorflow/core/protobuf/config.proto``).
With protobuf and the tensorboard package installed (the ``tensorboard`` extra), they are the
real message classes that tensorboard ships (``tensorboard.compat.proto.config_pb2``), so
``SerializeToString``, ``CopyFrom`` and unknown-field errors behave exactly as TensorFlow's.
Without them, a small stand-in keeps the fields a program sets as attributes, which is all a
Session reads (``inter_op_parallelism_threads``, ``intra_op_parallelism_threads``); the other
options (GPU memory growth, placement logging, ...) have no effect on flowgrad's CPU runtime.

The classes are loaded on first use (importing protobuf costs tens of milliseconds).
"""
from __future__ import annotations

import functools
from typing import Any

#: The message names the TF1 face shows, and the sub-messages each stand-in creates.
MESSAGES: dict[str, dict[str, str]] = {
    "ConfigProto": {"gpu_options": "GPUOptions", "graph_options": "GraphOptions"},
    "GPUOptions": {},
    "GraphOptions": {"optimizer_options": "OptimizerOptions"},
    "OptimizerOptions": {},
    "RunOptions": {},
    "RunMetadata": {},
}

#: ``RunOptions``'s trace levels (its enum's values).
_TRACE_LEVELS = {"NO_TRACE": 0, "SOFTWARE_TRACE": 1, "HARDWARE_TRACE": 2, "FULL_TRACE": 3}


class _Message:
    """Stand-in for a TensorFlow options message: keyword fields become attributes."""

    _submessages: dict[str, str] = {}

    def __init__(self, **fields: Any) -> None:
        for attr, kind in self._submessages.items():
            setattr(self, attr, message_class(kind)())
        for key, value in fields.items():
            setattr(self, key, value)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return 0   # proto3 scalar fields read as their zero value until set

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % kv for kv in sorted(vars(self).items())))


@functools.cache
def message_class(name: str) -> type:
    """The class of TensorFlow's options message ``name`` (``"ConfigProto"``, ...).

    Args:
      name: one of :data:`MESSAGES`.

    Returns:
      tensorboard's protobuf class when protobuf and tensorboard are installed, else a
      stand-in that keeps fields as attributes.

    Raises:
      AttributeError: ``name`` is not an options message.
    """
    if name not in MESSAGES:
        raise AttributeError(name)
    try:
        from tensorboard.compat.proto import config_pb2
    except ImportError:
        constants = _TRACE_LEVELS if name == "RunOptions" else {}
        return type(name, (_Message,), {"_submessages": MESSAGES[name],
                                        "__module__": __name__, **constants})
    return getattr(config_pb2, name)


__all__ = ["MESSAGES", "message_class"]
