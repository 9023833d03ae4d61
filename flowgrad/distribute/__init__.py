"""Distributed training on Ray (``pip install flowgrad[distributed]``).

``ParameterServerStrategy`` runs replicas of a model function and parameter servers as Ray
actors: ``synchronous`` data parallelism (mean of the replicas' gradients, optional
accumulation) or ``asynchronous`` parameter servers (each push applied as it comes).
Replicas build the model in a graph and Session of their own (TF1 face: ``model_fn``
returns the loss), or eagerly with a tf.function step (TF2 face: ``model_fn`` returns a
tf.Module or Keras model and ``loss_fn(model, batch)`` its loss)."""
from flowgrad.distribute.cluster import connect
from flowgrad.distribute.ps_strategy import RayClusterResolver
from flowgrad.distribute.replica import ReplicaContext
from flowgrad.distribute.strategy import AsyncTrainer, ParameterServerStrategy, SyncTrainer
from flowgrad.distribute.workers import WorkerGroup

__all__ = ["AsyncTrainer", "ParameterServerStrategy", "RayClusterResolver", "ReplicaContext",
           "SyncTrainer",
           "WorkerGroup", "connect"]
