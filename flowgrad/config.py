"""``tf.config``: flowgrad runs on the CPU (NumPy), so there is one physical device.

Device settings (visible devices, memory growth, thread counts, soft placement) are
accepted and remembered, so programs written for GPUs run unchanged."""
from __future__ import annotations

from collections import namedtuple
import types
from typing import Any

from flowgrad.framework import threads as _threads
from flowgrad.framework.context import state

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])

_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_settings: dict = {"visible": [_CPU], "memory_growth": {}, "soft_placement": True}


def list_physical_devices(device_type: str | None = None) -> list:
    """The machine's devices of ``device_type`` (all if None): the CPU."""
    return [d for d in [_CPU] if device_type is None or d.device_type == device_type.upper()]


def list_logical_devices(device_type: str | None = None) -> list:
    """The visible devices as logical devices."""
    return [LogicalDevice(d.name.replace("/physical_device:", "/device:"), d.device_type)
            for d in get_visible_devices(device_type)]


def get_visible_devices(device_type: str | None = None) -> list:
    return [d for d in _settings["visible"]
            if device_type is None or d.device_type == device_type.upper()]


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Accepted (flowgrad computes on the CPU whatever is visible); ValueError for a device
    this machine does not have."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for d in devices:
        if d not in list_physical_devices():
            raise ValueError("Unrecognized device: %s" % (d,))
    keep = [] if device_type is None else [d for d in _settings["visible"]
                                           if d.device_type != device_type.upper()]
    _settings["visible"] = keep + devices


def set_memory_growth(device: Any, enable: bool) -> None:
    _settings["memory_growth"][device] = bool(enable)


def get_memory_growth(device: Any) -> bool:
    return _settings["memory_growth"].get(device, False)


def set_soft_device_placement(enabled: bool) -> None:
    _settings["soft_placement"] = bool(enabled)


def get_soft_device_placement() -> bool:
    return _settings["soft_placement"]


def _set_intra_op_threads(num_threads: int) -> None:
    """The most threads one kernel (NumPy's BLAS pool) may use; 0 lets flowgrad choose
    (the free cores: see ``flowgrad.framework.threads``)."""
    _threads.set_intra_op_threads(num_threads)


def _set_inter_op_threads(num_threads: int) -> None:
    """Sessions made afterwards whose config leaves inter_op_parallelism_threads at 0 take
    this count: 1 (or a negative count) keeps every op of a plan on the calling thread."""
    state.inter_op_threads = int(num_threads)


def _module(name: str, doc: str, **members: Any) -> types.ModuleType:
    """A sub-namespace of tf.config (a module, as in TensorFlow) holding ``members``."""
    module = types.ModuleType("flowgrad.config." + name, doc)
    module.__dict__.update(members)
    module.__all__ = sorted(members)
    return module


experimental = _module(
    "experimental", "``tf.config.experimental``: device listing and memory growth.",
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
    set_memory_growth=set_memory_growth, get_memory_growth=get_memory_growth)
threading = _module(
    "threading", "``tf.config.threading``: thread-pool sizes.",
    set_intra_op_parallelism_threads=_set_intra_op_threads,
    set_inter_op_parallelism_threads=_set_inter_op_threads,
    get_intra_op_parallelism_threads=_threads.intra_op_threads,
    get_inter_op_parallelism_threads=lambda: state.inter_op_threads)

__all__ = ["LogicalDevice", "PhysicalDevice", "experimental", "get_soft_device_placement",
           "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "set_soft_device_placement", "set_visible_devices", "threading"]


def __dir__() -> list:
    """TensorFlow's tf.config names (memory growth is in tf.config.experimental, as in TF)."""
    return sorted(__all__)
