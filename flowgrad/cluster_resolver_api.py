"""``tf.distribute.cluster_resolver`` and ``tf.train.ClusterSpec``: the description of a
cluster of TensorFlow servers, read from ``$TF_CONFIG`` or given directly.

flowgrad runs in one process (multi-process training runs on Ray: ``flowgrad.distribute``),
so a resolver describes a cluster but nothing connects to it. There are no TPUs:
:class:`TPUClusterResolver` raises the ``ValueError`` TensorFlow raises on a machine without
one, so the usual ``try: TPUClusterResolver() except ValueError:`` falls back to the default
strategy as it does on TensorFlow (docs/differences.md)."""
from __future__ import annotations

import collections
import json
import os
from typing import Any

from flowgrad.framework import errors


class ClusterSpec:
    """A cluster as a map from job names to their tasks' network addresses.

    Args:
      cluster: a dict ``{job: [address, ...]}`` or ``{job: {task_index: address}}``, or
        another ClusterSpec.

    Raises:
      TypeError: ``cluster`` is neither.
    """

    def __init__(self, cluster: Any) -> None:
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterSpec`.")
        self._jobs: dict = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, dict):
                self._jobs[job] = {int(i): str(a) for i, a in tasks.items()}
            elif isinstance(tasks, (list, tuple)):
                self._jobs[job] = {i: str(a) for i, a in enumerate(tasks)}
            else:
                raise TypeError("The tasks for job %r must be a list or a dictionary from "
                                "integers to strings." % job)

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return "ClusterSpec(%r)" % {k: self.as_dict()[k] for k in sorted(self._jobs)}

    def as_dict(self) -> dict:
        """``{job: [address, ...]}``, or ``{job: {index: address}}`` where the indices of a
        job are not 0..n-1."""
        out = {}
        for job, tasks in self._jobs.items():
            indices = sorted(tasks)
            dense = indices == list(range(len(indices)))
            out[job] = [tasks[i] for i in indices] if dense else dict(tasks)
        return out

    @property
    def jobs(self) -> list:
        """The job names."""
        return list(self._jobs)

    def num_tasks(self, job_name: str) -> int:
        """How many tasks ``job_name`` has.

        Raises:
          ValueError: there is no such job.
        """
        return len(self._job(job_name))

    def task_indices(self, job_name: str) -> list:
        """The task indices of ``job_name``, sorted."""
        return sorted(self._job(job_name))

    def task_address(self, job_name: str, task_index: int) -> str:
        """The address of task ``task_index`` of ``job_name``.

        Raises:
          ValueError: there is no such job or task.
        """
        tasks = self._job(job_name)
        if task_index not in tasks:
            raise ValueError("No task with index %r in job %r" % (task_index, job_name))
        return tasks[task_index]

    def job_tasks(self, job_name: str) -> list:
        """The addresses of ``job_name``'s tasks, by index (None where an index is missing)."""
        tasks = self._job(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []

    def as_cluster_def(self) -> Any:
        """The cluster as TensorFlow's ``ClusterDef`` proto (jobs by name, tasks by index).

        Returns:
          A ``ClusterDef``.
        """
        try:
            from tensorboard.compat.proto import cluster_pb2
        except ImportError as e:
            raise ImportError("ClusterSpec.as_cluster_def needs TensorFlow's protocol buffers "
                              "from the optional 'tensorboard' package: pip install "
                              "flowgrad[tf-formats]") from e
        cluster_def = cluster_pb2.ClusterDef()
        for job in sorted(self._jobs):
            job_def = cluster_def.job.add(name=job)
            for i, address in sorted(self._jobs[job].items()):
                job_def.tasks[i] = address
        return cluster_def

    def _job(self, job_name: str) -> dict:
        if job_name not in self._jobs:
            raise ValueError("No such job in cluster: %r" % (job_name,))
        return self._jobs[job_name]


class ClusterResolver:
    """The base class of the resolvers: a cluster spec plus this task's role."""

    task_type: str | None = None
    task_id: int | None = None
    rpc_layer: str | None = None

    def cluster_spec(self) -> ClusterSpec:
        """The cluster."""
        raise NotImplementedError

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        """The address of task ``task_id`` of ``task_type`` (this task's by default), with
        ``rpc_layer://`` in front where one is set; ``""`` when there is no such task."""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        spec = self.cluster_spec()
        if task_type is None or task_id is None or task_type not in spec.jobs:
            return ""
        address = spec.task_address(task_type, task_id)
        layer = self.rpc_layer if rpc_layer is None else rpc_layer
        return "%s://%s" % (layer, address) if layer else address

    def num_accelerators(self, task_type: str | None = None, task_id: int | None = None,
                         config_proto: Any = None) -> dict:
        """Accelerators per type: none (flowgrad computes on the CPU)."""
        return collections.defaultdict(int)

    @property
    def environment(self) -> str:
        """The environment the cluster runs in (``""``: not a managed one)."""
        return ""


class SimpleClusterResolver(ClusterResolver):
    """A resolver of a given :class:`ClusterSpec`.

    Args:
      cluster_spec: the cluster.
      master: this task's address (by default taken from the spec).
      task_type: this task's job.
      task_id: this task's index in its job.
      environment: the environment string.
      num_accelerators: accelerators per type.
      rpc_layer: the protocol, e.g. ``"grpc"``.
    """

    def __init__(self, cluster_spec: ClusterSpec, master: str = "", task_type: str | None = None,
                 task_id: int | None = None, environment: str = "",
                 num_accelerators: dict | None = None, rpc_layer: str | None = None) -> None:
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        self._spec = cluster_spec
        self._master = master
        self.task_type, self.task_id, self.rpc_layer = task_type, task_id, rpc_layer
        self._environment = environment
        self._accelerators = dict(num_accelerators or {})

    def cluster_spec(self) -> ClusterSpec:
        return self._spec

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        if task_type is not None and task_id is not None:
            return super().master(task_type, task_id, rpc_layer)
        return self._master

    def num_accelerators(self, task_type: str | None = None, task_id: int | None = None,
                         config_proto: Any = None) -> dict:
        return collections.defaultdict(int, self._accelerators)

    @property
    def environment(self) -> str:
        return self._environment


class TFConfigClusterResolver(ClusterResolver):
    """The cluster described by the ``$TF_CONFIG`` environment variable (JSON with
    ``cluster``, ``task`` ``{type, index}``, ``rpc_layer`` and ``environment``), read on
    each call as TensorFlow does.

    Args:
      task_type: overrides ``task.type``.
      task_id: overrides ``task.index``.
      rpc_layer: overrides ``rpc_layer``.
      environment: overrides ``environment``.
    """

    def __init__(self, task_type: str | None = None, task_id: int | None = None,
                 rpc_layer: str | None = None, environment: str | None = None) -> None:
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer, self._environment = rpc_layer, environment

    @staticmethod
    def _config() -> dict:
        text = os.environ.get("TF_CONFIG")
        if not text:
            return {}
        try:
            return json.loads(text)
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None,
                                              "TF_CONFIG is not valid JSON: %s" % e) from e

    @property
    def task_type(self) -> str | None:
        return self._task_type or self._config().get("task", {}).get("type")

    @task_type.setter
    def task_type(self, value: str | None) -> None:
        self._task_type = value

    @property
    def task_id(self) -> int | None:
        if self._task_id is not None:
            return self._task_id
        index = self._config().get("task", {}).get("index")
        return None if index is None else int(index)

    @task_id.setter
    def task_id(self, value: int | None) -> None:
        self._task_id = value

    @property
    def rpc_layer(self) -> str | None:
        return self._rpc_layer or self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value: str | None) -> None:
        self._rpc_layer = value

    @property
    def environment(self) -> str | None:
        return self._environment or self._config().get("environment")

    def cluster_spec(self) -> ClusterSpec:
        return ClusterSpec(self._config().get("cluster", {}))


class TPUClusterResolver(ClusterResolver):
    """A Cloud TPU's cluster. flowgrad has no TPUs: constructing one fails as TensorFlow's
    does on a machine without a TPU (docs/differences.md).

    Args:
      tpu: The TPU's name or address.
      zone: The TPU's Cloud zone.
      project: The TPU's Cloud project.
      job_name: The job name of the TPU workers.
      coordinator_name: The job name of the coordinator.
      coordinator_address: The coordinator's address.
      credentials: The Cloud credentials.
      service: A Cloud TPU API client.
      discovery_url: The Cloud TPU API's discovery URL.

    Raises:
      ValueError: ``tpu`` is not given (``"Please provide a TPU Name to connect to."``, as
        TensorFlow says when it finds no TPU).
      UnimplementedError: a TPU is named: flowgrad cannot run on it.
    """

    def __init__(self, tpu: Any = None, zone: str | None = None, project: str | None = None,
                 job_name: str = "worker", coordinator_name: str | None = None,
                 coordinator_address: str | None = None, credentials: str = "default",
                 service: Any = None, discovery_url: str | None = None) -> None:
        if not tpu:
            raise ValueError("Please provide a TPU Name to connect to.")
        raise errors.UnimplementedError(
            None, None, "TPUClusterResolver(tpu=%r): flowgrad computes with NumPy on the CPU "
            "and cannot run on a TPU (docs/differences.md)" % (tpu,))

    @staticmethod
    def connect(tpu: Any = None, zone: str | None = None,
                project: str | None = None) -> TPUClusterResolver:
        """Resolves and initializes a TPU, as in TensorFlow: fails as the constructor does."""
        return TPUClusterResolver(tpu, zone, project)


def initialize_tpu_system(cluster_resolver: Any = None) -> None:
    """``tf.tpu.experimental.initialize_tpu_system``: there is no TPU to initialize.

    Args:
      cluster_resolver: The TPU's cluster resolver.

    Raises:
      ValueError: no resolver (TensorFlow then looks for a TPU and finds none).
      UnimplementedError: a resolver is given.
    """
    if cluster_resolver is None:
        TPUClusterResolver("")
    raise errors.UnimplementedError(None, None, "initialize_tpu_system: flowgrad cannot run "
                                    "on a TPU (docs/differences.md)")


def shutdown_tpu_system(cluster_resolver: Any = None) -> None:
    """``tf.tpu.experimental.shutdown_tpu_system``: fails as :func:`initialize_tpu_system`.

    Args:
      cluster_resolver: The TPU's cluster resolver.
    """
    initialize_tpu_system(cluster_resolver)


__all__ = ["ClusterResolver", "SimpleClusterResolver", "TFConfigClusterResolver",
           "TPUClusterResolver"]
