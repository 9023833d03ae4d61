"""``tf.distribute``: TensorFlow's strategy API for one process
(``flowgrad.distribute.distribute_lib``); ``MultiWorkerMirroredStrategy`` and
``ParameterServerStrategy`` train on Ray workers (docs/distributed.md)."""
from flowgrad.distribute.distribute_lib import (  # noqa: F401
    DistributedDataset, DistributedIterator, DistributedValues, InputContext,
    OneDeviceStrategy, ReduceOp, ReplicaContext, Strategy,
    StrategyExtended, TPUStrategy, get_replica_context, get_strategy, has_strategy,
    in_cross_replica_context)
from flowgrad.distribute.mirrored import MirroredStrategy  # noqa: F401
from flowgrad import cluster_resolver_api as cluster_resolver  # noqa: F401
from flowgrad.distribute.multi_worker import MultiWorkerMirroredStrategy  # noqa: F401
from flowgrad.distribute.ps_strategy import ParameterServerStrategy  # noqa: F401
from flowgrad import distribute_coordinator_api as coordinator  # noqa: F401
from flowgrad import distribute_experimental_api as experimental  # noqa: F401
from flowgrad.distribute.distribute_lib import \
    get_cross_replica_context as experimental_get_cross_replica_context  # noqa: F401

__all__ = ["DistributedDataset", "DistributedIterator", "DistributedValues", "InputContext",
           "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy",
           "ParameterServerStrategy", "ReduceOp",
           "ReplicaContext", "Strategy", "StrategyExtended", "TPUStrategy",
           "cluster_resolver", "coordinator", "experimental", "get_replica_context",
           "get_strategy", "has_strategy", "in_cross_replica_context"]
