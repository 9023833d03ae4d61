"""``tf.experimental.dtensor``: DTensor meshes and layouts need several devices, which
flowgrad does not have. The names exist (libraries import them); using one raises
``NotImplementedError``."""
from __future__ import annotations

from typing import Any

UNSHARDED = "unsharded"
MATCH = "match"


def _unsupported(name: str) -> Any:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("tf.experimental.dtensor.%s: DTensor (sharding over device "
                                  "meshes) is not supported by flowgrad." % name)
    fail.__name__ = fail.__qualname__ = name
    fail.__doc__ = """TensorFlow's ``tf.experimental.dtensor.%s``: not supported by flowgrad.

    Args:
        *args: TensorFlow's arguments (unused).
        **kwargs: Likewise.

    Raises:
        NotImplementedError: always (DTensor shards over several devices).
    """ % name
    return fail


Layout = _unsupported("Layout")
Mesh = _unsupported("Mesh")
create_mesh = _unsupported("create_mesh")
create_distributed_mesh = _unsupported("create_distributed_mesh")
call_with_layout = _unsupported("call_with_layout")
relayout = _unsupported("relayout")

__all__ = ["Layout", "MATCH", "Mesh", "UNSHARDED", "call_with_layout", "create_distributed_mesh",
           "create_mesh", "relayout"]
