"""``tf.estimator.RunConfig``: where and how often an Estimator saves, logs and summarizes."""
from __future__ import annotations

import copy
import json
import os
from typing import Any

#: ``save_checkpoints_secs``'s default when neither it nor ``save_checkpoints_steps`` is set.
_DEFAULT_CHECKPOINT_SECS = 600
_UNSET = object()


class TaskType:
    """The task types of a cluster (``TF_CONFIG``'s ``task.type``)."""

    MASTER = "master"
    PS = "ps"
    WORKER = "worker"
    CHIEF = "chief"
    EVALUATOR = "evaluator"


def _positive(name: str, value: int | float | None, allow_zero: bool = False) -> None:
    """Raises TensorFlow's ValueError unless ``value`` is None or positive."""
    if value is None:
        return
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError("%s must be %s, given: %s" % (
            name, "non-negative" if allow_zero else "positive", value))


class RunConfig:
    """The configuration of an Estimator run (``tf.estimator.RunConfig``).

    Args:
      model_dir: Where checkpoints and summaries go (the Estimator's ``model_dir`` when None).
      tf_random_seed: The graph-level random seed of every graph the Estimator builds.
      save_summary_steps: Steps between summaries (None or 0: none).
      save_checkpoints_steps: Steps between checkpoints (exclusive with
        ``save_checkpoints_secs``).
      save_checkpoints_secs: Seconds between checkpoints; 600 when neither is given.
      session_config: The ``ConfigProto`` of the sessions.
      keep_checkpoint_max: How many recent checkpoints the Saver keeps.
      keep_checkpoint_every_n_hours: Keep one checkpoint every this many hours.
      log_step_count_steps: Steps between the loss and ``global_step/sec`` logs.
      train_distribute: A distribution strategy for training (accepted; flowgrad trains on
        one device).
      device_fn: A function from an Operation to its device.
      protocol: Accepted for TensorFlow's signature.
      eval_distribute: A distribution strategy for evaluation (accepted).
      experimental_distribute: Accepted for TensorFlow's signature.
      experimental_max_worker_delay_secs: Accepted for TensorFlow's signature.
      session_creation_timeout_secs: How long a worker waits for the chief's session.
      checkpoint_save_graph_def: Whether checkpoints write the graph (``graph.pbtxt``, .meta).

    Raises:
      ValueError: both checkpoint intervals are given, or an interval or count is negative.
    """

    def __init__(self, model_dir: str | None = None, tf_random_seed: int | None = None,
                 save_summary_steps: int | None = 100,
                 save_checkpoints_steps: Any = _UNSET, save_checkpoints_secs: Any = _UNSET,
                 session_config: object | None = None, keep_checkpoint_max: int | None = 5,
                 keep_checkpoint_every_n_hours: float = 10000,
                 log_step_count_steps: int | None = 100, train_distribute: object | None = None,
                 device_fn: object | None = None, protocol: str | None = None,
                 eval_distribute: object | None = None,
                 experimental_distribute: object | None = None,
                 experimental_max_worker_delay_secs: int | None = None,
                 session_creation_timeout_secs: int = 7200,
                 checkpoint_save_graph_def: bool = True):
        steps = None if save_checkpoints_steps is _UNSET else save_checkpoints_steps
        secs = None if save_checkpoints_secs is _UNSET else save_checkpoints_secs
        if steps is not None and secs is not None:
            raise ValueError("Can not specify both save_checkpoints_steps and "
                             "save_checkpoints_secs.")
        if save_checkpoints_steps is _UNSET and save_checkpoints_secs is _UNSET:
            secs = _DEFAULT_CHECKPOINT_SECS
        _positive("save_summary_steps", save_summary_steps, allow_zero=True)
        _positive("save_checkpoints_steps", steps, allow_zero=True)
        _positive("save_checkpoints_secs", secs, allow_zero=True)
        _positive("keep_checkpoint_max", keep_checkpoint_max, allow_zero=True)
        _positive("keep_checkpoint_every_n_hours", keep_checkpoint_every_n_hours)
        _positive("log_step_count_steps", log_step_count_steps, allow_zero=True)
        _positive("session_creation_timeout_secs", session_creation_timeout_secs)
        self._model_dir = os.fspath(model_dir) if model_dir is not None else None
        self._tf_random_seed = tf_random_seed
        self._save_summary_steps = save_summary_steps
        self._save_checkpoints_steps = steps
        self._save_checkpoints_secs = secs
        self._session_config = session_config
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._log_step_count_steps = log_step_count_steps
        self._train_distribute = train_distribute
        self._device_fn = device_fn
        self._protocol = protocol
        self._eval_distribute = eval_distribute
        self._experimental_distribute = experimental_distribute
        self._experimental_max_worker_delay_secs = experimental_max_worker_delay_secs
        self._session_creation_timeout_secs = session_creation_timeout_secs
        self._checkpoint_save_graph_def = checkpoint_save_graph_def
        self._read_tf_config()

    def _read_tf_config(self) -> None:
        """The cluster, this task's type and index, from ``TF_CONFIG`` (a local run
        without it)."""
        tf_config = json.loads(os.environ.get("TF_CONFIG") or "{}")
        cluster = tf_config.get("cluster") or {}
        task = tf_config.get("task") or {}
        self._cluster_spec_dict = cluster
        self._task_type = task.get("type", TaskType.WORKER)
        self._task_id = int(task.get("index", 0))
        if cluster:
            self._num_ps_replicas = len(cluster.get(TaskType.PS, []))
            self._num_worker_replicas = (len(cluster.get(TaskType.WORKER, []))
                                         + len(cluster.get(TaskType.CHIEF, []))
                                         + len(cluster.get(TaskType.MASTER, [])))
            self._is_chief = self._task_type in (TaskType.CHIEF, TaskType.MASTER) or (
                self._task_type == TaskType.WORKER and self._task_id == 0
                and TaskType.CHIEF not in cluster and TaskType.MASTER not in cluster)
        else:
            self._num_ps_replicas, self._num_worker_replicas = 0, 1
            self._is_chief = True
        self._master = ""
        self._evaluation_master = ""

    @property
    def model_dir(self) -> str | None:
        """Where checkpoints and summaries go."""
        return self._model_dir

    @property
    def tf_random_seed(self) -> int | None:
        """The graph-level random seed."""
        return self._tf_random_seed

    @property
    def save_summary_steps(self) -> int | None:
        """Steps between summaries."""
        return self._save_summary_steps

    @property
    def save_checkpoints_steps(self) -> int | None:
        """Steps between checkpoints."""
        return self._save_checkpoints_steps

    @property
    def save_checkpoints_secs(self) -> float | None:
        """Seconds between checkpoints."""
        return self._save_checkpoints_secs

    @property
    def session_config(self) -> object | None:
        """The sessions' ConfigProto."""
        return self._session_config

    @property
    def keep_checkpoint_max(self) -> int | None:
        """How many recent checkpoints are kept."""
        return self._keep_checkpoint_max

    @property
    def keep_checkpoint_every_n_hours(self) -> float:
        """Keep one checkpoint every this many hours."""
        return self._keep_checkpoint_every_n_hours

    @property
    def log_step_count_steps(self) -> int | None:
        """Steps between the loss logs."""
        return self._log_step_count_steps

    @property
    def train_distribute(self) -> object | None:
        """The training distribution strategy."""
        return self._train_distribute

    @property
    def eval_distribute(self) -> object | None:
        """The evaluation distribution strategy."""
        return self._eval_distribute

    @property
    def experimental_distribute(self) -> object | None:
        """Accepted for TensorFlow's signature."""
        return self._experimental_distribute

    @property
    def experimental_max_worker_delay_secs(self) -> int | None:
        """Accepted for TensorFlow's signature."""
        return self._experimental_max_worker_delay_secs

    @property
    def device_fn(self) -> object | None:
        """The device function."""
        return self._device_fn

    @property
    def protocol(self) -> str | None:
        """Accepted for TensorFlow's signature."""
        return self._protocol

    @property
    def session_creation_timeout_secs(self) -> int:
        """How long a worker waits for the chief's session."""
        return self._session_creation_timeout_secs

    @property
    def checkpoint_save_graph_def(self) -> bool:
        """Whether checkpoints write the graph."""
        return self._checkpoint_save_graph_def

    @property
    def task_type(self) -> str:
        """This task's type (``"worker"`` without ``TF_CONFIG``)."""
        return self._task_type

    @property
    def task_id(self) -> int:
        """This task's index in its job."""
        return self._task_id

    @property
    def is_chief(self) -> bool:
        """Whether this task initializes, saves and writes summaries."""
        return self._is_chief

    @property
    def master(self) -> str:
        """The session target (``""``: in process)."""
        return self._master

    @property
    def evaluation_master(self) -> str:
        """The evaluation session target."""
        return self._evaluation_master

    @property
    def num_ps_replicas(self) -> int:
        """How many parameter servers the cluster has."""
        return self._num_ps_replicas

    @property
    def num_worker_replicas(self) -> int:
        """How many workers (the chief included) the cluster has."""
        return self._num_worker_replicas

    @property
    def global_id_in_cluster(self) -> int:
        """This task's index among all tasks (chief, workers, then the others)."""
        return 0 if self._is_chief and not self._cluster_spec_dict else self._task_id

    @property
    def service(self) -> object | None:
        """``TF_CONFIG``'s ``service`` entry."""
        return json.loads(os.environ.get("TF_CONFIG") or "{}").get("service")

    _REPLACEABLE = frozenset({
        "model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
        "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
        "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute",
        "device_fn", "protocol", "eval_distribute", "experimental_distribute",
        "experimental_max_worker_delay_secs", "session_creation_timeout_secs",
        "checkpoint_save_graph_def"})

    def replace(self, **kwargs: object) -> RunConfig:
        """A copy with the given properties replaced.

        Args:
          **kwargs: Properties to replace (``model_dir``, ``save_checkpoints_steps``, ...).

        Returns:
          A new RunConfig.

        Raises:
          ValueError: a property that cannot be replaced, or both checkpoint intervals.
        """
        for key in kwargs:
            if key not in self._REPLACEABLE:
                raise ValueError(f"Replacing {key} is not supported. Allowed properties are "
                                 f"{sorted(self._REPLACEABLE)}.")
        new = copy.copy(self)
        steps = kwargs.pop("save_checkpoints_steps", _UNSET)
        secs = kwargs.pop("save_checkpoints_secs", _UNSET)
        if steps is not _UNSET and secs is not _UNSET:
            if steps is not None and secs is not None:
                raise ValueError("Can not specify both save_checkpoints_steps and "
                                 "save_checkpoints_secs.")
            new._save_checkpoints_steps, new._save_checkpoints_secs = steps, secs
        elif steps is not _UNSET:           # setting one interval clears the other
            new._save_checkpoints_steps = steps
            if steps is not None:
                new._save_checkpoints_secs = None
        elif secs is not _UNSET:
            new._save_checkpoints_secs = secs
            if secs is not None:
                new._save_checkpoints_steps = None
        for key, value in kwargs.items():
            setattr(new, "_" + key, os.fspath(value) if key == "model_dir" and value else value)
        return new
