"""``tf.distribute.experimental.CentralStorageStrategy``: variables on one parameter device,
computation replicated over the compute devices. flowgrad computes on one device (the CPU),
where TensorFlow's strategy is one replica whose variables and computation share that device,
as :class:`~flowgrad.distribute.distribute_lib.OneDeviceStrategy`."""
from __future__ import annotations

from flowgrad.distribute.distribute_lib import OneDeviceStrategy
from flowgrad.framework import errors


class CentralStorageStrategy(OneDeviceStrategy):
    """Variables on a parameter device, replicas on the compute devices; with the one device
    flowgrad has, one replica with its variables on the CPU (TensorFlow's behaviour on a
    machine with one device).

    Args:
      compute_devices: the replicas' devices (default: every local device, the CPU).
      parameter_device: the variables' device (default: the CPU).

    Raises:
      InvalidArgumentError: more than one compute device (flowgrad has one).
    """

    def __init__(self, compute_devices: list | None = None,
                 parameter_device: str | None = None) -> None:
        devices = list(compute_devices or [])
        if len(devices) > 1:
            raise errors.InvalidArgumentError(
                None, None, "CentralStorageStrategy: flowgrad computes on one device (the "
                "CPU), got compute_devices=%r" % (devices,))
        super().__init__(devices[0] if devices else "/cpu:0")
        self._parameter_device = parameter_device or "/cpu:0"
