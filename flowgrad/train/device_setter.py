"""``tf.compat.v1.train.replica_device_setter``: the device function that places variables
on parameter-server tasks round robin and other ops on the worker, as TensorFlow's
``python/training/device_setter.py``. flowgrad runs every op on the local CPU; the device
strings are what TensorFlow would record."""
from __future__ import annotations

from typing import Any, Callable

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable",
                   "MutableHashTableV2", "MutableHashTableOfTensors",
                   "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp")

_FIELDS = ("job", "replica", "task", "device")


def _parse(spec: str) -> dict:
    """``/job:ps/task:1/device:CPU:0`` as {"job": "ps", "task": "1", "device": "CPU:0"}."""
    fields: dict = {}
    for part in (spec or "").strip("/").split("/"):
        if not part:
            continue
        key, _, value = part.partition(":")
        if key.lower() in ("cpu", "gpu"):
            key, value = "device", part.upper()
        fields[key] = value
    return fields


def _merge(base: str, current: str) -> str:
    """``base`` with the fields ``current`` sets overriding it."""
    fields = _parse(base)
    fields.update(_parse(current))
    return "".join("/%s:%s" % (k, fields[k]) for k in _FIELDS if k in fields)


class _RoundRobinStrategy:
    def __init__(self, num_tasks: int):
        self._num_tasks = num_tasks
        self._next_task = 0

    def __call__(self, unused_op: Any) -> int:
        task = self._next_task
        self._next_task = (self._next_task + 1) % self._num_tasks
        return task


def replica_device_setter(ps_tasks: int = 0, ps_device: str = "/job:ps",
                          worker_device: str = "/job:worker", merge_devices: bool = True,
                          cluster: Any = None, ps_ops: list | None = None,
                          ps_strategy: Callable | None = None) -> Callable | None:
    """A device function for ``tf.device``: variable ops go to ``ps_device/task:i`` (i round
    robin, or chosen by ``ps_strategy``), the others to ``worker_device``.

    Args:
        ps_tasks: The number of parameter-server tasks (taken from ``cluster`` when given).
        ps_device: The parameter servers' job.
        worker_device: The worker's device.
        merge_devices: Whether a device an op already has overrides the chosen fields.
        cluster: A ClusterSpec (or its dict) whose "ps" job gives ``ps_tasks``.
        ps_ops: The op types placed on the parameter servers (variables by default).
        ps_strategy: A function from an op to its parameter-server task.

    Returns:
        The device function, or None when there are no parameter servers.

    Raises:
        TypeError: If ``ps_strategy`` is not callable.
    """
    if cluster is not None:
        jobs = cluster.as_dict() if hasattr(cluster, "as_dict") else dict(cluster)
        ps = jobs.get("ps", [])
        ps_tasks = len(ps)
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if not merge_devices:
        from flowgrad.debug import tf_logging
        tf_logging.warning("DEPRECATION: It is recommended to set merge_devices=true in "
                           "replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")

    def device_function(op: Any) -> str:
        current = getattr(op, "device", "") or ""
        node_op = getattr(op, "type", None)
        if node_op in ps_ops:
            spec = "%s/task:%d" % (ps_device, ps_strategy(op)) if ps_device else ""
        else:
            spec = worker_device or ""
        if merge_devices:
            return _merge(spec, current)
        return current or _merge(spec, "")
    return device_function
