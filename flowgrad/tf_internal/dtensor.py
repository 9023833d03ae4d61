"""``tf.experimental.dtensor``: TensorFlow 2.21's names, none of which flowgrad implements.

DTensor programs rely on its SPMD expansion: every op on a sharded tensor runs per device and
its result carries a layout that the program reads back (``fetch_layout``, ``unpack``,
``numpy()`` refusing a sharded value). flowgrad runs each op once, on one device, and has no
layout propagation, so an emulation would give programs layouts that mean nothing. Each name
exists (libraries import them) and using one raises ``NotImplementedError`` naming it, except
the facts that hold for flowgrad: no tensor is a DTensor (:func:`is_dtensor`), and a program
is one client (:func:`client_id`, :func:`num_clients`). Sharding over devices is
``tf.distribute``'s (``MirroredStrategy``, ``MultiWorkerMirroredStrategy``).

The module is the namespace (its ``dir()`` is TensorFlow's), so it binds no other public
name."""
from typing import Any as _Any

UNSHARDED = "unsharded"
MATCH = "match"

_WHY = ("flowgrad runs each op on one device and has no DTensor layout propagation (SPMD), "
        "so meshes, layouts and sharded tensors are not supported; tf.distribute's "
        "strategies shard over devices instead")


def _unsupported(name: str) -> _Any:
    def fail(*args: _Any, **kwargs: _Any) -> _Any:
        raise NotImplementedError("tf.experimental.dtensor.%s: %s." % (name, _WHY))
    fail.__name__ = fail.__qualname__ = name
    fail.__doc__ = """TensorFlow's ``tf.experimental.dtensor.%s``: not supported by flowgrad.

    Args:
        *args: TensorFlow's arguments (unused).
        **kwargs: Likewise.

    Raises:
        NotImplementedError: always (flowgrad has no DTensor layout propagation).
    """ % name
    return fail


def _unsupported_class(name: str) -> type:
    def __init__(self: _Any, *args: _Any, **kwargs: _Any) -> None:  # noqa: N807
        raise NotImplementedError("tf.experimental.dtensor.%s: %s." % (name, _WHY))
    doc = """TensorFlow's ``tf.experimental.dtensor.%s``: not supported by flowgrad.

    Args:
        *args: TensorFlow's arguments (unused).
        **kwargs: Likewise.

    Raises:
        NotImplementedError: on construction (flowgrad has no DTensor layout propagation).
    """ % name
    return type(name, (), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


DTensorCheckpoint = _unsupported_class("DTensorCheckpoint")
DTensorDataset = _unsupported_class("DTensorDataset")
DVariable = _unsupported_class("DVariable")
Layout = _unsupported_class("Layout")
Mesh = _unsupported_class("Mesh")

_FUNCTIONS = (
    "barrier", "call_with_layout", "check_layout", "copy_to_mesh", "create_distributed_mesh",
    "create_mesh", "create_tpu_mesh", "default_mesh", "device_name", "enable_save_as_bf16",
    "fetch_layout", "full_job_name", "get_default_mesh", "heartbeat_enabled",
    "initialize_accelerator_system", "initialize_multi_client", "initialize_tpu_system",
    "job_name", "jobs", "local_devices", "name_based_restore", "name_based_save",
    "num_global_devices", "num_local_devices", "pack", "preferred_device_type", "relayout",
    "relayout_like", "run_on", "sharded_save", "shutdown_accelerator_system",
    "shutdown_tpu_system", "unpack")
globals().update({name: _unsupported(name) for name in _FUNCTIONS})


def is_dtensor(tensor: _Any) -> bool:
    """Whether ``tensor`` is a DTensor: never, in flowgrad (it has no meshes).

    Args:
        tensor: A tensor.

    Returns:
        False.
    """
    del tensor
    return False


def client_id() -> int:
    """This client's index among the DTensor clients: 0 (a flowgrad program is one client).

    Returns:
        0.
    """
    return 0


def num_clients() -> int:
    """The number of DTensor clients: 1 (a flowgrad program is one client).

    Returns:
        1.
    """
    return 1


__all__ = ["DTensorCheckpoint", "DTensorDataset", "DVariable", "Layout", "MATCH", "Mesh",
           "UNSHARDED", "client_id", "is_dtensor", "num_clients", *_FUNCTIONS]
