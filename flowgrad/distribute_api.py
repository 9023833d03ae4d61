"""``tf.distribute``: TensorFlow's strategy API for one process
(``flowgrad.distribute.distribute_lib``; multi-process training on Ray is
``flowgrad.distribute.ParameterServerStrategy``)."""
from flowgrad.distribute.distribute_lib import (  # noqa: F401
    DistributedDataset, DistributedIterator, DistributedValues, InputContext,
    OneDeviceStrategy, ReduceOp, ReplicaContext, Strategy,
    StrategyExtended, TPUStrategy, get_replica_context, get_strategy, has_strategy,
    in_cross_replica_context)
from flowgrad.distribute.mirrored import MirroredStrategy  # noqa: F401
from flowgrad import cluster_resolver_api as cluster_resolver  # noqa: F401
from flowgrad.distribute.multi_worker import MultiWorkerMirroredStrategy  # noqa: F401
from flowgrad.distribute.distribute_lib import \
    get_cross_replica_context as experimental_get_cross_replica_context  # noqa: F401

__all__ = ["DistributedDataset", "DistributedIterator", "DistributedValues", "InputContext",
           "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "ReduceOp",
           "ReplicaContext", "Strategy", "StrategyExtended", "TPUStrategy",
           "cluster_resolver", "get_replica_context", "get_strategy", "has_strategy",
           "in_cross_replica_context"]
