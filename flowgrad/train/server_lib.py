"""``tf.distribute.Server`` (``tf.compat.v1.train.Server``): one task of a cluster, as the
TF programs that build an in-process cluster make one per task.

flowgrad's multi-process strategies run their tasks themselves, as Ray actors
(``ParameterServerStrategy`` reads only the number of tasks per job from the cluster spec), so
a Server serves no work of its own: it checks its task against the cluster as TensorFlow does,
gives TensorFlow's ``target`` and ``server_def``, and ``join`` waits, as a TensorFlow server's
does, until the process ends."""
from __future__ import annotations

import collections
import socket
import threading
from typing import Any

from flowgrad.framework import errors

#: What ``Server.server_def`` describes (TensorFlow's ``ServerDef`` fields).
ServerDef = collections.namedtuple("ServerDef", ["cluster", "job_name", "task_index",
                                                 "protocol", "default_session_config"])


class Server:
    """One task of a cluster.

    Args:
      server_or_cluster_def: a ``tf.train.ClusterSpec``, a dict of jobs or a ServerDef.
      job_name: this task's job (may be left out when the cluster has one job).
      task_index: this task's index in its job (may be left out when the job has one task).
      protocol: ``"grpc"`` (the default) or another RPC layer's name.
      config: a session ``ConfigProto`` (kept as ``default_session_config``).
      start: accepted, as TensorFlow (the server is ready at once).

    Raises:
      ValueError: ``job_name`` or ``task_index`` left out where the cluster does not fix it.
      TypeError: ``server_or_cluster_def`` of another type.
      InternalError: a job or task the cluster does not define.
    """

    def __init__(self, server_or_cluster_def: Any, job_name: str | None = None,
                 task_index: int | None = None, protocol: str | None = None,
                 config: Any = None, start: bool = True) -> None:
        if isinstance(server_or_cluster_def, ServerDef):
            given = server_or_cluster_def
            job_name = given.job_name if job_name is None else job_name
            task_index = given.task_index if task_index is None else task_index
            protocol = protocol or given.protocol
            server_or_cluster_def = given.cluster
        spec = server_or_cluster_def
        jobs = _jobs(spec)
        if job_name is None:
            if len(jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = next(iter(jobs))
        if job_name not in jobs:
            raise errors.InternalError(None, None, 'Job "%s" was not defined in cluster'
                                       % job_name)
        tasks = jobs[job_name]
        if task_index is None:
            if len(tasks) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = next(iter(tasks))
        if task_index not in tasks:
            raise errors.InternalError(None, None, 'Task %d was not defined in job "%s"'
                                       % (task_index, job_name))
        address = tasks[task_index]
        host, _, port = address.rpartition(":")
        if port == "0":         # TensorFlow binds a free port
            address = "%s:%d" % (host, _free_port())
        self._server_def = ServerDef(spec, job_name, task_index, protocol or "grpc", config)
        self._target = "%s://%s" % (protocol or "grpc", address)
        self._stopped = threading.Event()

    @property
    def target(self) -> str:
        """The address sessions connect to (``grpc://host:port``)."""
        return self._target

    @property
    def server_def(self) -> ServerDef:
        """The cluster, this task and the protocol."""
        return self._server_def

    def start(self) -> None:
        """Starts the server (it is ready from the start)."""

    def join(self) -> None:
        """Blocks until the server shuts down (with the process, as TensorFlow's)."""
        self._stopped.wait()

    @staticmethod
    def create_local_server(config: Any = None, start: bool = True) -> Server:
        """A server of a one-task cluster on this machine (job ``localhost``).

        Args:
          config: a session ``ConfigProto``.
          start: accepted, as TensorFlow.

        Returns:
          The Server.
        """
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config,
                      start=start)


def _jobs(cluster: Any) -> dict:
    """``{job: {task index: address}}`` of a ClusterSpec (or anything with ``as_dict``) or a
    dict of jobs, as ``tf.train.ClusterSpec`` reads them."""
    if hasattr(cluster, "as_dict"):
        cluster = cluster.as_dict()
    if not isinstance(cluster, dict):
        raise TypeError("`server_or_cluster_def` must be a tf.train.ClusterSpec, a dict of "
                        "jobs or a ServerDef, got %r" % (cluster,))
    return {job: ({int(i): str(a) for i, a in tasks.items()} if isinstance(tasks, dict)
                  else dict(enumerate(map(str, tasks))))
            for job, tasks in cluster.items()}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]
