"""``tf.config``: flowgrad runs on the CPU (NumPy), so there is one physical device.

Device settings (visible devices, memory growth, thread counts, soft placement) are
accepted and remembered, so programs written for GPUs run unchanged."""
from __future__ import annotations

from collections import namedtuple
import types
from typing import Any

from flowgrad.runtime.function import RUN_EAGERLY as _RUN_EAGERLY
from flowgrad.framework import errors as _errors
from flowgrad.framework import threads as _threads
from flowgrad.framework.context import state

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = """A device of the machine (``tf.config.list_physical_devices``).

Args:
    name: Its name, such as ``/physical_device:CPU:0``.
    device_type: ``CPU`` (flowgrad runs on the CPU).
"""
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = """A device ops can be placed on (``tf.config.list_logical_devices``).

Args:
    name: Its name, such as ``/device:CPU:0``.
    device_type: ``CPU`` (flowgrad runs on the CPU).
"""


class LogicalDeviceConfiguration(
        namedtuple("LogicalDeviceConfiguration",
                   ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device to make of a physical one (``tf.config.LogicalDeviceConfiguration``;
    ``tf.config.experimental.VirtualDeviceConfiguration`` is the same class).

    Args:
      memory_limit: the device's memory in MB (accepted; flowgrad's CPU has no limit).
      experimental_priority: accepted, as in TensorFlow.
      experimental_device_ordinal: accepted, as in TensorFlow.
    """

    def __new__(cls, memory_limit: int | None = None, experimental_priority: int | None = None,
                experimental_device_ordinal: int | None = None) -> LogicalDeviceConfiguration:
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
def _default_settings() -> dict:
    return {"visible": [_CPU], "memory_growth": {}, "soft_placement": True, "logical": {},
            "initialized": False, "jit": "",
            "optimizer": {"disable_model_pruning": False, "disable_meta_optimizer": False}}


_settings: dict = _default_settings()


def _reset() -> None:
    """Every setting back to its default, the devices not initialized (a new eager
    context: ``tensorflow.python.eager.context._reset_context``)."""
    _settings.clear()
    _settings.update(_default_settings())


def list_physical_devices(device_type: str | None = None) -> list:
    """The machine's devices of ``device_type`` (all if None): the CPU.

    Args:
        device_type: Only devices of this type (``"CPU"``, ``"GPU"``); all when None.
    """
    return [d for d in [_CPU] if device_type is None or d.device_type == device_type.upper()]


def list_logical_devices(device_type: str | None = None) -> list:
    """The visible devices as logical devices: one per physical device, or those that
    :func:`set_logical_device_configuration` made of it (``/device:CPU:0``, ``/device:CPU:1``,
    ...). As in TensorFlow, the logical devices are fixed from the first call on.

    Args:
        device_type: Only devices of this type (``"CPU"``, ``"GPU"``); all when None.
    """
    _settings["initialized"] = True
    out = []
    for d in get_visible_devices(device_type):
        count = len(_settings["logical"].get(d) or [None])
        out += [LogicalDevice("/device:%s:%d" % (d.device_type, i), d.device_type)
                for i in range(count)]
    return out


def set_logical_device_configuration(device: PhysicalDevice, logical_devices: Any) -> None:
    """Splits the physical ``device`` into the logical devices ``logical_devices`` describe
    (as TensorFlow does, for example two CPUs to try a MirroredStrategy on one machine).

    Args:
      device: a PhysicalDevice of :func:`list_physical_devices`.
      logical_devices: a list of :class:`LogicalDeviceConfiguration`, or None to undo.

    Raises:
      ValueError: ``device`` is not this machine's.
      RuntimeError: the logical devices were already listed (initialized), as in TensorFlow.
    """
    if device not in list_physical_devices():
        raise ValueError("Unrecognized device: %s" % (device,))
    configs = None if logical_devices is None else list(logical_devices)
    if _settings["logical"].get(device) == configs:
        return
    if _settings["initialized"]:
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _settings["logical"][device] = configs


def get_logical_device_configuration(device: PhysicalDevice) -> list | None:
    """The list of :class:`LogicalDeviceConfiguration` set for ``device``, or None.

    Args:
      device: A ``PhysicalDevice`` of :func:`list_physical_devices`.

    Returns:
      The configurations given to ``set_logical_device_configuration``, or None.

    Raises:
      ValueError: ``device`` is not one of this machine's physical devices.
    """
    if device not in list_physical_devices():
        raise ValueError("Unrecognized device: %s" % (device,))
    return _settings["logical"].get(device)


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Makes every ``tf.function`` run its Python function eagerly (a debugging switch).

    Args:
      run_eagerly: True to run the functions eagerly, False to trace them again.
    """
    _RUN_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether :func:`run_functions_eagerly` is on."""
    return _RUN_EAGERLY[0]


def experimental_connect_to_cluster(cluster_spec_or_resolver: Any, job_name: str = "localhost",
                                    task_index: int = 0, protocol: Any = None,
                                    make_master_device_default: bool = True,
                                    cluster_device_filters: Any = None) -> None:
    """Connecting to remote TensorFlow servers (TPU workers) is not supported: flowgrad runs
    in this process (Ray-based training: ``flowgrad.distribute``).

    Args:
      cluster_spec_or_resolver: A ``tf.train.ClusterSpec`` or a cluster resolver.
      job_name: The name of this process's job.
      task_index: This process's task index in the job.
      protocol: The communication protocol.
      make_master_device_default: Whether to place ops on the master by default.
      cluster_device_filters: Device filters for the remote tasks.

    Raises:
      ValueError: ``cluster_spec_or_resolver`` is neither a ClusterSpec nor a resolver, as
        TensorFlow says.
      UnimplementedError: otherwise.
    """
    kind = type(cluster_spec_or_resolver).__name__
    if cluster_spec_or_resolver is None or not (kind == "ClusterSpec"
                                                or kind.endswith("ClusterResolver")):
        raise ValueError("`cluster_spec_or_resolver` must be a `ClusterSpec` or a "
                         "`ClusterResolver`.")
    raise _errors.UnimplementedError(
        None, None, "tf.config.experimental_connect_to_cluster: flowgrad runs in one process "
        "and cannot connect to remote TensorFlow servers (docs/differences.md)")


def experimental_connect_to_host(remote_host: Any = None, job_name: str = "worker") -> None:
    """Not supported, as :func:`experimental_connect_to_cluster`.

    Args:
      remote_host: The address (or list of addresses) of the remote server(s).
      job_name: The job name of the remote servers.

    Raises:
      ValueError: no ``remote_host``, as in TensorFlow.
      UnimplementedError: otherwise.
    """
    if not remote_host:
        raise ValueError("Must provide at least one remote_host")
    raise _errors.UnimplementedError(
        None, None, "tf.config.experimental_connect_to_host: flowgrad runs in one process "
        "and cannot connect to remote TensorFlow servers (docs/differences.md)")


def _set_jit(enabled: Any) -> None:
    """Accepted (flowgrad has no XLA); :func:`_get_jit` gives the setting back as TensorFlow
    does: ``"autoclustering"`` when on, ``""`` when off.

    Args:
      enabled: True or ``"autoclustering"`` to turn XLA auto-clustering on, False or ``""``
        to turn it off.
    """
    if enabled is True or enabled == "autoclustering":
        _settings["jit"] = "autoclustering"
    elif enabled is False or enabled == "":
        _settings["jit"] = ""
    else:
        raise ValueError("set_jit: enabled is a bool or 'autoclustering', got %r" % (enabled,))


def _get_jit() -> str:
    return _settings["jit"]


def _set_experimental_options(options: dict) -> None:
    """Grappler's options: accepted and remembered (flowgrad's plan passes are its own).

    Args:
      options: A dict of Grappler option names to values.
    """
    _settings["optimizer"].update(options)


def _get_experimental_options() -> dict:
    return dict(_settings["optimizer"])


def get_visible_devices(device_type: str | None = None) -> list:
    """The physical devices flowgrad may use (the CPU).

    Args:
        device_type: Only devices of this type (``"CPU"``, ``"GPU"``); all when None.

    Returns:
        A list of ``PhysicalDevice``.
    """
    return [d for d in _settings["visible"]
            if device_type is None or d.device_type == device_type.upper()]


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Accepted (flowgrad computes on the CPU whatever is visible); ValueError for a device
    this machine does not have.

    Args:
        devices: The devices to keep visible (a ``PhysicalDevice`` or a list).
        device_type: The type they are of; all types when None.
    """
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for d in devices:
        if d not in list_physical_devices():
            raise ValueError("Unrecognized device: %s" % (d,))
    keep = [] if device_type is None else [d for d in _settings["visible"]
                                           if d.device_type != device_type.upper()]
    _settings["visible"] = keep + devices


def set_memory_growth(device: Any, enable: bool) -> None:
    """Records memory growth for ``device`` (flowgrad has no accelerator memory: it changes
    nothing else).

    Args:
        device: A ``PhysicalDevice`` from ``list_physical_devices``.
        enable: Whether to grow memory as needed.
    """
    _settings["memory_growth"][device] = bool(enable)


def get_memory_growth(device: Any) -> bool:
    """Whether memory growth was set for ``device`` with ``set_memory_growth``.

    Args:
        device: A ``PhysicalDevice`` from ``list_physical_devices``.

    Returns:
        The value set, False when none was.
    """
    return _settings["memory_growth"].get(device, False)


def set_soft_device_placement(enabled: bool) -> None:
    """Sets soft device placement (ops run on the CPU whatever their device).

    Args:
        enabled: Whether an op placed on a missing device falls back to one that exists.
    """
    _settings["soft_placement"] = bool(enabled)


def get_soft_device_placement() -> bool:
    return _settings["soft_placement"]


def _set_intra_op_threads(num_threads: int) -> None:
    """The most threads one kernel (NumPy's BLAS pool) may use; 0 lets flowgrad choose
    (the free cores: see ``flowgrad.framework.threads``).

    Args:
        num_threads: The thread count; 0 for flowgrad's choice.
    """
    _threads.set_intra_op_threads(num_threads)


def _set_inter_op_threads(num_threads: int) -> None:
    """Sessions made afterwards whose config leaves inter_op_parallelism_threads at 0 take
    this count: 1 (or a negative count) keeps every op of a plan on the calling thread.

    Args:
        num_threads: The thread count; 0 for flowgrad's choice.
    """
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
    set_memory_growth=set_memory_growth, get_memory_growth=get_memory_growth,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration)
optimizer = _module(
    "optimizer", "``tf.config.optimizer``: graph-optimizer settings (accepted, remembered).",
    set_jit=_set_jit, get_jit=_get_jit, set_experimental_options=_set_experimental_options,
    get_experimental_options=_get_experimental_options)
threading = _module(
    "threading", "``tf.config.threading``: thread-pool sizes.",
    set_intra_op_parallelism_threads=_set_intra_op_threads,
    set_inter_op_parallelism_threads=_set_inter_op_threads,
    get_intra_op_parallelism_threads=_threads.intra_op_threads,
    get_inter_op_parallelism_threads=lambda: state.inter_op_threads)

__all__ = ["LogicalDevice", "PhysicalDevice", "experimental", "get_soft_device_placement",
           "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "set_soft_device_placement", "set_visible_devices", "threading",
           "LogicalDeviceConfiguration", "set_logical_device_configuration",
           "get_logical_device_configuration", "run_functions_eagerly", "functions_run_eagerly",
           "experimental_run_functions_eagerly", "experimental_functions_run_eagerly",
           "experimental_connect_to_cluster", "experimental_connect_to_host", "optimizer"]

experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly


def __dir__() -> list:
    """TensorFlow's tf.config names (memory growth is in tf.config.experimental, as in TF)."""
    return sorted(__all__)
