"""``tf.distribute.experimental.coordinator`` (and ``tf.distribute.coordinator``): the
ClusterCoordinator of ParameterServerStrategy and its values."""
from flowgrad.distribute.per_worker import PerWorkerValues  # noqa: F401
from flowgrad.distribute.ps_strategy import ClusterCoordinator, RemoteValue  # noqa: F401

PerWorkerValue = PerWorkerValues

__all__ = ["ClusterCoordinator", "PerWorkerValues", "RemoteValue"]
