"""``tf.compat.v1.estimator.tpu``: TPUEstimator and its configuration, as TensorFlow 2.15 had
them. flowgrad has no TPU: a ``TPUEstimator`` runs its ``model_fn`` on the CPU as an
Estimator does (``use_tpu=True`` logs that it does), passing ``params["batch_size"]`` (the
mode's batch size) to ``model_fn`` and ``input_fn`` and turning a ``TPUEstimatorSpec`` into
an ``EstimatorSpec`` (``eval_metrics``'s ``metric_fn`` called on its tensors,
``scaffold_fn`` called)."""
from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

from flowgrad.debug import tf_logging as logging
from flowgrad.estimator.estimator import Estimator, _fn_args
from flowgrad.estimator.mode_keys import ModeKeys
from flowgrad.estimator.model_fn import EstimatorSpec
from flowgrad.estimator.run_config import RunConfig as _RunConfig


class InputPipelineConfig:
    """How a TPU input pipeline is deployed (TensorFlow's values)."""

    PER_SHARD_V1 = 1
    PER_HOST_V1 = 2
    PER_HOST_V2 = 3
    BROADCAST = 4
    SLICED = 5


class TPUConfig(collections.namedtuple("TPUConfig", [
        "iterations_per_loop", "num_shards", "num_cores_per_replica", "per_host_input_for_training",
        "tpu_job_name", "initial_infeed_sleep_secs", "input_partition_dims",
        "eval_training_input_configuration", "experimental_host_call_every_n_steps",
        "experimental_allow_per_host_v2_parallel_get_next",
        "experimental_feed_hook"])):
    """TPU settings of a ``tpu.RunConfig`` (kept; flowgrad runs on the CPU).

    Args:
      iterations_per_loop: Steps per TPU loop.
      num_shards: The number of TPU shards.
      num_cores_per_replica: Cores per replica (model parallelism).
      per_host_input_for_training: An ``InputPipelineConfig`` value.
      tpu_job_name: The TPU job's name.
      initial_infeed_sleep_secs: Infeed start delay.
      input_partition_dims: Input partitioning.
      eval_training_input_configuration: The evaluation's input configuration.
      experimental_host_call_every_n_steps: Host call period.
      experimental_allow_per_host_v2_parallel_get_next: Accepted.
      experimental_feed_hook: Accepted.

    Raises:
      ValueError: ``iterations_per_loop`` not positive.
    """

    def __new__(cls, iterations_per_loop: int = 2, num_shards: int | None = None,
                num_cores_per_replica: int | None = None,
                per_host_input_for_training: Any = True, tpu_job_name: str | None = None,
                initial_infeed_sleep_secs: int | None = None,
                input_partition_dims: list | None = None,
                eval_training_input_configuration: int = InputPipelineConfig.PER_HOST_V1,
                experimental_host_call_every_n_steps: int = 1,
                experimental_allow_per_host_v2_parallel_get_next: bool = False,
                experimental_feed_hook: Any = None) -> TPUConfig:
        if iterations_per_loop is not None and iterations_per_loop <= 0:
            raise ValueError(f"iterations_per_loop must be positive; got {iterations_per_loop}"
                             )
        return super().__new__(cls, iterations_per_loop, num_shards, num_cores_per_replica,
                               per_host_input_for_training, tpu_job_name,
                               initial_infeed_sleep_secs, input_partition_dims,
                               eval_training_input_configuration,
                               experimental_host_call_every_n_steps,
                               experimental_allow_per_host_v2_parallel_get_next,
                               experimental_feed_hook)


class RunConfig(_RunConfig):
    """A RunConfig with ``tpu_config`` (``tf.compat.v1.estimator.tpu.RunConfig``).

    Args:
      tpu_config: A ``TPUConfig`` (a default one when None).
      evaluation_master: Accepted (the evaluation's TPU master).
      master: Accepted (the TPU master).
      cluster: Accepted (a TPU cluster resolver).
      **kwargs: The RunConfig's arguments.
    """

    def __init__(self, tpu_config: TPUConfig | None = None,
                 evaluation_master: str | None = None, master: str | None = None,
                 cluster: object | None = None, **kwargs: object):
        super().__init__(**kwargs)
        self._tpu_config = tpu_config or TPUConfig()
        self._cluster = cluster
        if master:
            self._master = master
        if evaluation_master:
            self._evaluation_master = evaluation_master

    @property
    def tpu_config(self) -> TPUConfig:
        """The TPUConfig."""
        return self._tpu_config

    @property
    def cluster(self) -> object | None:
        """The cluster resolver given."""
        return self._cluster


class TPUEstimatorSpec(collections.namedtuple("TPUEstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metrics", "export_outputs",
        "scaffold_fn", "host_call", "training_hooks", "evaluation_hooks",
        "prediction_hooks"])):
    """What a TPUEstimator's ``model_fn`` returns: ``eval_metrics`` is ``(metric_fn,
    tensors)`` and ``scaffold_fn`` a function returning the Scaffold.

    Args:
      mode: A ModeKeys value.
      predictions: A tensor or dict of tensors.
      loss: The scalar loss.
      train_op: The training op.
      eval_metrics: ``(metric_fn, tensors)``: a list (positional) or dict (keyword) of
        tensors ``metric_fn`` turns into ``{name: (value, update_op)}``.
      export_outputs: A dict of ExportOutputs.
      scaffold_fn: Returns a Scaffold.
      host_call: Accepted (``(fn, tensors)`` run on the host: not run).
      training_hooks: Training hooks.
      evaluation_hooks: Evaluation hooks.
      prediction_hooks: Prediction hooks.
    """

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None,
                train_op: Any = None, eval_metrics: tuple | None = None,
                export_outputs: dict | None = None, scaffold_fn: Callable | None = None,
                host_call: tuple | None = None, training_hooks: list | None = None,
                evaluation_hooks: list | None = None,
                prediction_hooks: list | None = None) -> TPUEstimatorSpec:
        if eval_metrics is not None:
            if not isinstance(eval_metrics, (tuple, list)) or len(eval_metrics) != 2:
                raise ValueError("eval_metrics should be tuple or list with 2 elements, the "
                                 "first being a callable, and the second tensors.")
            if not callable(eval_metrics[0]):
                raise TypeError("eval_metrics[0] should be callable.")
        return super().__new__(cls, mode, predictions, loss, train_op, eval_metrics,
                               export_outputs, scaffold_fn, host_call, training_hooks,
                               evaluation_hooks, prediction_hooks)

    def as_estimator_spec(self) -> EstimatorSpec:
        """The EstimatorSpec it stands for on a CPU.

        Returns:
          An EstimatorSpec.
        """
        eval_metric_ops = None
        if self.eval_metrics is not None:
            metric_fn, tensors = self.eval_metrics
            eval_metric_ops = (metric_fn(**tensors) if isinstance(tensors, dict)
                               else metric_fn(*tensors))
        return EstimatorSpec(
            mode=self.mode, predictions=self.predictions, loss=self.loss,
            train_op=self.train_op, eval_metric_ops=eval_metric_ops,
            export_outputs=self.export_outputs,
            scaffold=self.scaffold_fn() if self.scaffold_fn else None,
            training_hooks=self.training_hooks, evaluation_hooks=self.evaluation_hooks,
            prediction_hooks=self.prediction_hooks)


class TPUEstimator(Estimator):
    """An Estimator for TPU programs, run on the CPU (see the module's docstring).

    Args:
      model_fn: Takes ``features, labels, mode, params`` (``params["batch_size"]`` set);
        returns a TPUEstimatorSpec or an EstimatorSpec.
      model_dir: Where checkpoints go.
      config: A ``tpu.RunConfig`` (or a RunConfig).
      params: Hyperparameters (must not hold ``batch_size``).
      use_tpu: Whether the program asked for a TPU (flowgrad runs on the CPU either way).
      train_batch_size: The global training batch size.
      eval_batch_size: The global evaluation batch size.
      predict_batch_size: The global prediction batch size.
      batch_axis: Accepted.
      eval_on_tpu: Accepted.
      export_to_tpu: Accepted.
      export_to_cpu: Accepted.
      warm_start_from: A checkpoint or WarmStartSettings.
      embedding_config_spec: Accepted (must be None: no TPU embeddings).
      export_saved_model_api_version: Accepted.

    Raises:
      ValueError: ``params`` holding ``batch_size``, or an embedding config.
    """

    def __init__(self, model_fn: Callable, model_dir: str | None = None,
                 config: _RunConfig | None = None, params: dict | None = None,
                 use_tpu: bool = True, train_batch_size: int | None = None,
                 eval_batch_size: int | None = None, predict_batch_size: int | None = None,
                 batch_axis: Any = None, eval_on_tpu: bool = True, export_to_tpu: bool = True,
                 export_to_cpu: bool = True, warm_start_from: Any = None,
                 embedding_config_spec: Any = None,
                 export_saved_model_api_version: Any = None):
        params = dict(params or {})
        if "batch_size" in params:
            raise ValueError("params cannot include batch_size: TPUEstimator sets it from "
                             "train_batch_size, eval_batch_size and predict_batch_size")
        if embedding_config_spec is not None:
            raise ValueError("embedding_config_spec: flowgrad has no TPU embeddings")
        if use_tpu:
            logging.warning("TPUEstimator(use_tpu=True): flowgrad has no TPU; the model runs "
                            "on the CPU.")
        self._batch_sizes = {ModeKeys.TRAIN: train_batch_size,
                             ModeKeys.EVAL: eval_batch_size,
                             ModeKeys.PREDICT: predict_batch_size}
        self._tpu_model_fn = model_fn

        def cpu_model_fn(features: Any, labels: Any, mode: str, params: dict,
                         config: _RunConfig) -> EstimatorSpec:
            kwargs = {}
            args = _fn_args(model_fn)
            if "labels" in args:
                kwargs["labels"] = labels
            if "mode" in args:
                kwargs["mode"] = mode
            if "params" in args:
                kwargs["params"] = self._params_for(params, mode)
            if "config" in args:
                kwargs["config"] = config
            spec = model_fn(features=features, **kwargs)
            if isinstance(spec, TPUEstimatorSpec):
                spec = spec.as_estimator_spec()
            return spec

        super().__init__(cpu_model_fn, model_dir=model_dir, config=config, params=params,
                         warm_start_from=warm_start_from)

    def _params_for(self, params: dict, mode: str) -> dict:
        params = dict(params)
        if self._batch_sizes.get(mode) is not None:
            params["batch_size"] = self._batch_sizes[mode]
        return params

    def _call_input_fn(self, input_fn: Callable, mode: str) -> Any:
        args = _fn_args(input_fn)
        kwargs = {}
        if "params" in args:
            kwargs["params"] = self._params_for(self.params, mode)
        if "mode" in args:
            kwargs["mode"] = mode
        if "config" in args:
            kwargs["config"] = self.config
        return input_fn(**kwargs)
