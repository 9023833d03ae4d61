"""``tf.estimator.train_and_evaluate`` with its ``TrainSpec`` and ``EvalSpec``, and the
exporters an ``EvalSpec`` runs after evaluations (``FinalExporter``, ``LatestExporter``).

A local run (no ``TF_CONFIG`` cluster) trains to ``TrainSpec.max_steps`` and evaluates
after each new checkpoint once ``EvalSpec.throttle_secs`` have passed since the last
evaluation, and once more after the last step, as TensorFlow's ``run_local`` did."""
from __future__ import annotations

import collections
import os
import shutil
import time
from collections.abc import Callable
from typing import Any

from flowgrad.debug import tf_logging as logging
from flowgrad.estimator.estimator import Estimator, _check_hooks_type
from flowgrad.train.basic_session_run_hooks import CheckpointSaverListener


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks",
                                                     "saving_listeners"])):
    """The training half of ``train_and_evaluate``.

    Args:
      input_fn: The training ``input_fn``.
      max_steps: Train until this global step (None: until the input ends).
      hooks: ``SessionRunHook``s of training.
      saving_listeners: ``CheckpointSaverListener``s.

    Raises:
      TypeError: ``input_fn`` not callable, a hook that is no SessionRunHook.
      ValueError: ``max_steps`` not positive.
    """

    def __new__(cls, input_fn: Callable, max_steps: int | None = None,
                hooks: list | None = None, saving_listeners: list | None = None) -> TrainSpec:
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: {input_fn}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        return super().__new__(cls, input_fn, max_steps, tuple(_check_hooks_type(hooks)),
                               tuple(saving_listeners or ()))


class EvalSpec(collections.namedtuple("EvalSpec", [
        "input_fn", "steps", "name", "hooks", "exporters", "start_delay_secs",
        "throttle_secs"])):
    """The evaluation half of ``train_and_evaluate``.

    Args:
      input_fn: The evaluation ``input_fn``.
      steps: Batches per evaluation (None: until the input ends).
      name: The evaluation's name (results in ``model_dir/eval_<name>``).
      hooks: ``SessionRunHook``s of evaluation.
      exporters: An ``Exporter`` or a list of them, run after each evaluation.
      start_delay_secs: Accepted (a distributed evaluator's first wait).
      throttle_secs: At least this many seconds between evaluations.

    Raises:
      TypeError: ``input_fn`` not callable, an exporter that is not an Exporter.
      ValueError: ``steps`` not positive, a negative delay, exporters sharing a name.
    """

    def __new__(cls, input_fn: Callable, steps: int | None = 100, name: str | None = None,
                hooks: list | None = None, exporters: Any = None,
                start_delay_secs: int = 120, throttle_secs: int = 600) -> EvalSpec:
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: {input_fn}")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name}")
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        if exporters is None:
            exporters = ()
        elif isinstance(exporters, Exporter):
            exporters = (exporters,)
        exporters = tuple(exporters)
        names = set()
        for exporter in exporters:
            if not isinstance(exporter, Exporter):
                raise TypeError("`exporters` must be an Exporter, an iterable of Exporter, or "
                                f"`None`, found {exporter}.")
            if exporter.name in names:
                raise ValueError("`exporters` must have unique names. Such a name cannot be "
                                 f"`None`. {len(exporters)} exporters: {exporters}")
            names.add(exporter.name)
        return super().__new__(cls, input_fn, steps, name, tuple(_check_hooks_type(hooks)),
                               exporters, start_delay_secs, throttle_secs)


class Exporter:
    """Exports a model after an evaluation (``tf.estimator.Exporter``)."""

    @property
    def name(self) -> str:
        """The exporter's name (its folder under ``model_dir/export``)."""
        raise NotImplementedError

    def export(self, estimator: Estimator, export_path: str, checkpoint_path: str,
               eval_result: dict, is_the_final_export: bool) -> bytes | None:
        """Exports ``estimator``'s model.

        Args:
          estimator: The Estimator.
          export_path: The folder this exporter's exports go in.
          checkpoint_path: The checkpoint evaluated.
          eval_result: The evaluation's results.
          is_the_final_export: Whether training has ended.
        """
        raise NotImplementedError


class _SavedModelExporter(Exporter):
    def __init__(self, name: str, serving_input_receiver_fn: Callable,
                 assets_extra: dict | None = None, as_text: bool = False):
        if not name:
            raise ValueError("`name` must be defined.")
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra = assets_extra
        self._as_text = as_text

    @property
    def name(self) -> str:
        """The exporter's name."""
        return self._name

    def _export(self, estimator: Estimator, export_path: str,
                checkpoint_path: str) -> bytes:
        return estimator.export_saved_model(export_path, self._serving_input_receiver_fn,
                                            assets_extra=self._assets_extra,
                                            as_text=self._as_text,
                                            checkpoint_path=checkpoint_path)


class FinalExporter(_SavedModelExporter):
    """Exports a SavedModel once, after the final evaluation.

    Args:
      name: The exporter's name.
      serving_input_receiver_fn: Returns the ``ServingInputReceiver``.
      assets_extra: ``{destination: source}`` files for ``assets.extra``.
      as_text: Write the SavedModel as text.
    """

    def export(self, estimator: Estimator, export_path: str, checkpoint_path: str,
               eval_result: dict, is_the_final_export: bool) -> bytes | None:
        """Exports when ``is_the_final_export``.

        Args:
          estimator: The Estimator.
          export_path: The folder of this exporter's exports.
          checkpoint_path: The checkpoint evaluated.
          eval_result: The evaluation's results.
          is_the_final_export: Whether training has ended.

        Returns:
          The export's path, or None when it did not export.
        """
        if not is_the_final_export:
            return None
        return self._export(estimator, export_path, checkpoint_path)


class LatestExporter(_SavedModelExporter):
    """Exports a SavedModel after every evaluation, keeping the newest ``exports_to_keep``.

    Args:
      name: The exporter's name.
      serving_input_receiver_fn: Returns the ``ServingInputReceiver``.
      assets_extra: ``{destination: source}`` files for ``assets.extra``.
      as_text: Write the SavedModel as text.
      exports_to_keep: How many exports to keep (None: all).

    Raises:
      ValueError: ``exports_to_keep`` not positive.
    """

    def __init__(self, name: str, serving_input_receiver_fn: Callable,
                 assets_extra: dict | None = None, as_text: bool = False,
                 exports_to_keep: int | None = 5):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be a positive number. Got "
                             f"{exports_to_keep}")
        self._exports_to_keep = exports_to_keep

    def export(self, estimator: Estimator, export_path: str, checkpoint_path: str,
               eval_result: dict, is_the_final_export: bool) -> bytes:
        """Exports, then removes the oldest exports past ``exports_to_keep``.

        Args:
          estimator: The Estimator.
          export_path: The folder of this exporter's exports.
          checkpoint_path: The checkpoint evaluated.
          eval_result: The evaluation's results.
          is_the_final_export: Whether training has ended.

        Returns:
          The export's path.
        """
        result = self._export(estimator, export_path, checkpoint_path)
        if self._exports_to_keep is not None:
            exports = sorted((d for d in os.listdir(export_path) if d.isdigit()), key=int)
            for old in exports[:-self._exports_to_keep]:
                shutil.rmtree(os.path.join(export_path, old), ignore_errors=True)
        return result


class _Evaluator:
    """Evaluates the latest checkpoint and runs the exporters."""

    def __init__(self, estimator: Estimator, eval_spec: EvalSpec, max_training_steps: Any):
        self._estimator = estimator
        self._eval_spec = eval_spec
        self._max_training_steps = max_training_steps
        self.eval_result: dict | None = None
        self.export_results: list = []

    def evaluate_and_export(self) -> None:
        checkpoint = self._estimator.latest_checkpoint()
        if not checkpoint:
            logging.warning("Estimator is not trained yet. Will start an evaluation when a "
                            "checkpoint is ready.")
            return
        spec = self._eval_spec
        result = self._estimator.evaluate(spec.input_fn, steps=spec.steps, hooks=spec.hooks,
                                          checkpoint_path=checkpoint, name=spec.name)
        if not result:
            raise RuntimeError("Internal error: `Estimator.evaluate` should never return "
                               "empty metrics.")
        step = result["global_step"]
        final = bool(self._max_training_steps and step >= self._max_training_steps)
        base = os.path.join(self._estimator.model_dir, "export")
        for exporter in spec.exporters:
            path = exporter.export(self._estimator, os.path.join(base, exporter.name),
                                   checkpoint, result, final)
            self.export_results.append(path)
        self.eval_result = result


class _NewCheckpointListenerForEvaluate(CheckpointSaverListener):
    """Evaluates after a checkpoint save once ``throttle_secs`` passed, and at the end."""

    def __init__(self, evaluator: _Evaluator, throttle_secs: float):
        self._evaluator = evaluator
        self._throttle_secs = throttle_secs
        self._last_eval_step: Any = None

    def begin(self) -> None:
        """Starts the throttle timer."""
        self._last_eval_time = time.time()
        self._is_first_run = True

    def after_save(self, session: Any, global_step_value: int) -> None:
        """Evaluates the new checkpoint unless throttled (not the first one, of the
        untrained model).

        Args:
          session: The training session.
          global_step_value: The checkpoint's step.
        """
        if self._is_first_run:
            self._is_first_run = False
            return
        if time.time() - self._last_eval_time >= self._throttle_secs:
            self._evaluate(global_step_value)

    def end(self, session: Any, global_step_value: int) -> None:
        """Evaluates the last checkpoint unless it was just evaluated.

        Args:
          session: The training session.
          global_step_value: The last step.
        """
        if global_step_value != self._last_eval_step:
            self._evaluate(global_step_value)

    def _evaluate(self, step: int) -> None:
        self._last_eval_time = time.time()
        self._last_eval_step = step
        self._evaluator.evaluate_and_export()


def train_and_evaluate(estimator: Estimator, train_spec: TrainSpec,
                       eval_spec: EvalSpec) -> tuple:
    """Trains ``estimator`` with ``train_spec`` and evaluates it with ``eval_spec`` along
    the way (a local run: see the module's docstring).

    Args:
      estimator: An ``Estimator``.
      train_spec: A ``TrainSpec``.
      eval_spec: An ``EvalSpec``.

    Returns:
      ``(the last evaluation's metrics, the exporters' results)``; the metrics are None when
      ``model_dir`` was at ``max_steps`` already (nothing trained, nothing evaluated).

    Raises:
      TypeError: arguments of the wrong types.
      ValueError: a RunConfig that saves no checkpoints (nothing to evaluate).
    """
    if not isinstance(estimator, Estimator):
        raise TypeError("`estimator` must have type `tf.estimator.Estimator`. Got: "
                        f"{type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError("`train_spec` must have type `tf.estimator.TrainSpec`. Got: "
                        f"{type(train_spec)}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError("`eval_spec` must have type `tf.estimator.EvalSpec`. Got: "
                        f"{type(eval_spec)}")
    config = estimator.config
    if not (config.save_checkpoints_steps or config.save_checkpoints_secs):
        raise ValueError("Estimator.config must have one of `save_checkpoints_steps` or "
                         "`save_checkpoints_secs` set.")
    logging.info("Running training and evaluation locally (non-distributed).")
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    listener = _NewCheckpointListenerForEvaluate(evaluator, eval_spec.throttle_secs)
    estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps,
                    hooks=list(train_spec.hooks),
                    saving_listeners=list(train_spec.saving_listeners) + [listener])
    # None when training had nothing to do (max_steps reached already), as TensorFlow's
    return evaluator.eval_result, evaluator.export_results
