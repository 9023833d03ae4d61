"""``tf.distribute.experimental.coordinator`` (and ``tf.distribute.coordinator``): the
ClusterCoordinator of ParameterServerStrategy and its values."""
from flowgrad.distribute.ps_strategy import (  # noqa: F401
    ClusterCoordinator, PerWorkerValues, RemoteValue)

PerWorkerValue = PerWorkerValues

__all__ = ["ClusterCoordinator", "PerWorkerValues", "RemoteValue"]
