"""Distributed training on Ray (``pip install flowgrad[distributed]``), shaped like
``tf.distribute``: ``WorkerGroup`` runs a program on Ray workers, in which
``tf.distribute.MultiWorkerMirroredStrategy`` (or TF1's ``SyncReplicasOptimizer``)
all-reduces among them; ``RayClusterResolver`` gives
``tf.distribute.experimental.ParameterServerStrategy`` its Ray workers and parameter
servers. ``tf.distribute``'s own classes are in ``distribute_lib``, ``mirrored``,
``multi_worker``, ``ps_strategy`` (docs/distributed.md)."""
from flowgrad.distribute.cluster import connect
from flowgrad.distribute.ps_strategy import RayClusterResolver
from flowgrad.distribute.workers import WorkerGroup

__all__ = ["RayClusterResolver", "WorkerGroup", "connect"]
