"""``tf.estimator.Estimator``: trains, evaluates, predicts with and exports a ``model_fn``,
on flowgrad's TF1 graph machinery, as TensorFlow 2.15 did (TF 2.16+ removed the API).

Each call builds a fresh graph: the graph-level seed of the RunConfig, the global step, the
features and labels of ``input_fn`` (a ``tf.data.Dataset`` or ``(features, labels)``), then
the ``model_fn``'s ``EstimatorSpec``, and runs it in a ``MonitoredSession``. Checkpoints go to
``model_dir`` with TensorFlow's names (``model.ckpt-<step>``, ``checkpoint``, ``graph.pbtxt``),
so ``tf.compat.v1.train.Saver`` and ``tf.train.load_checkpoint`` (of TensorFlow too) read
them, and the next call resumes from the latest one.
"""
from __future__ import annotations

import collections
import contextlib
import copy
import inspect
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad.data.dataset_ops import DatasetV2
from flowgrad.data.iterator_ops import make_initializable_iterator
from flowgrad.debug import tf_logging as logging
from flowgrad.estimator import model_fn as model_fn_lib
from flowgrad.estimator.mode_keys import ModeKeys
from flowgrad.estimator.run_config import RunConfig
from flowgrad.framework import dtypes
from flowgrad.framework.graph import Graph, GraphKeys, add_to_collection, get_collection
from flowgrad.metrics.metrics_impl import mean as metric_mean
from flowgrad.ops.control_flow_ops import group
from flowgrad.ops.random_ops import set_random_seed
from flowgrad.ops.state_ops import assign_add
from flowgrad.ops.variable_scope import get_variable
from flowgrad.train import basic_session_run_hooks as hooks_lib
from flowgrad.train.checkpoint_management import latest_checkpoint
from flowgrad.train.checkpoint_utils import list_variables, load_checkpoint, load_variable
from flowgrad.train.monitored_session import (ChiefSessionCreator, MonitoredSession, Scaffold,
                                              MonitoredTrainingSession)
from flowgrad.train.saver import Saver
from flowgrad.train.session_run_hook import SessionRunArgs, SessionRunHook
from flowgrad.train.training_util import get_global_step, get_or_create_global_step
from flowgrad.train.warm_start import warm_start

#: Keras 3's global record of the layer names given so far (``keras.src.utils.naming``).
_KERAS_NAME_UIDS = "object_name_uids"
_VALID_MODEL_FN_ARGS = frozenset({"features", "labels", "mode", "params", "self", "config"})
#: The local variable counting evaluation batches, and its collection (TensorFlow's
#: ``tf.compat.v1.GraphKeys.EVAL_STEP``).
_EVAL_STEP = "eval_step"


def _fn_args(fn: Callable) -> tuple:
    """The names of ``fn``'s parameters (functools.partial's bound ones left out)."""
    params = inspect.signature(fn).parameters
    return tuple(n for n, p in params.items()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))


def _check_hooks_type(hooks: Any) -> list:
    hooks = list(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"Hooks must be a SessionRunHook, given: {hook}")
    return hooks


def _check_listeners_type(listeners: Any) -> list:
    listeners = list(listeners or [])
    for listener in listeners:
        if not isinstance(listener, hooks_lib.CheckpointSaverListener):
            raise TypeError("saving_listeners must be a list of CheckpointSaverListener, "
                            f"given: {listener}")
    return listeners


class _DatasetInitializerHook(SessionRunHook):
    """Initializes the iterator of an ``input_fn``'s dataset once the session exists."""

    def __init__(self, iterator: Any):
        self._iterator = iterator

    def begin(self) -> None:
        """Takes the iterator's initializer."""
        self._initializer = self._iterator.initializer

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Runs the initializer.

        Args:
          session: The new session.
          coord: The coordinator.
        """
        session.run(self._initializer)


def parse_input_fn_result(result: Any) -> tuple:
    """``(features, labels, hooks)`` of what an ``input_fn`` returned: a dataset (iterated,
    with the hook that initializes it) or ``features`` or ``(features, labels)``.

    Args:
      result: The ``input_fn``'s return value.

    Returns:
      ``(features, labels or None, list of hooks)``.

    Raises:
      ValueError: a tuple or list that is not ``(features, labels)``.
    """
    hooks = []
    if isinstance(result, DatasetV2):
        iterator = make_initializable_iterator(result)
        hooks.append(_DatasetInitializerHook(iterator))
        result = iterator.get_next()
    if isinstance(result, (list, tuple)):
        if len(result) != 2:
            raise ValueError("input_fn should return (features, labels) as a len 2 tuple.")
        return result[0], result[1], hooks
    return result, None, hooks


def _load_global_step_from_checkpoint_dir(checkpoint_dir: str) -> int:
    try:
        return int(load_checkpoint(latest_checkpoint(checkpoint_dir))
                   .get_tensor(GraphKeys.GLOBAL_STEP))
    except Exception:  # noqa: BLE001 - no checkpoint, or none with a global step: step 0
        return 0


def _get_or_create_eval_step() -> Any:
    """The ``eval_step`` local variable (counts the batches of one evaluation)."""
    found = get_collection(_EVAL_STEP)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise ValueError("Multiple tensors added to tf.GraphKeys.EVAL_STEP")
    from flowgrad.ops.init_ops import Zeros
    return get_variable(_EVAL_STEP, shape=[], dtype=dtypes.int64, initializer=Zeros(),
                        trainable=False,
                        collections=[GraphKeys.LOCAL_VARIABLES, _EVAL_STEP])


class _StopAfterNEvalsHook(SessionRunHook):
    """Stops an evaluation after ``num_evals`` batches (at the input's end when None)."""

    def __init__(self, num_evals: int | None):
        self._num_evals = num_evals

    def begin(self) -> None:
        """Finds the eval step."""
        self._eval_step = _get_or_create_eval_step()

    def before_run(self, run_context: Any) -> SessionRunArgs:
        """Fetches the eval step.

        Args:
          run_context: The run's context.
        """
        return SessionRunArgs({"evals_completed": self._eval_step})

    def after_run(self, run_context: Any, run_values: Any) -> None:
        """Stops once ``num_evals`` batches ran.

        Args:
          run_context: The run's context.
          run_values: The fetched eval step.
        """
        done = run_values.results["evals_completed"]
        if self._num_evals is None:
            logging.info("Evaluation [%d]", done)
        else:
            logging.info("Evaluation [%d/%d]", done, self._num_evals)
        if self._num_evals is not None and done >= self._num_evals:
            run_context.request_stop()


class _DefaultSaverHook(SessionRunHook):
    """Adds the Estimator's Saver (keeping ``keep_checkpoint_max`` checkpoints) once every
    other hook's ``begin`` has run, unless the scaffold or the graph has one."""

    def __init__(self, scaffold: Scaffold, config: RunConfig):
        self._scaffold = scaffold
        self._config = config

    def begin(self) -> None:
        """Adds the Saver to the SAVERS collection."""
        if not (self._scaffold.saver or get_collection(GraphKeys.SAVERS)):
            add_to_collection(GraphKeys.SAVERS, Saver(
                sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                keep_checkpoint_every_n_hours=self._config.keep_checkpoint_every_n_hours,
                defer_build=True, save_relative_paths=True))


def _write_dict_to_summary(output_dir: str, dictionary: dict, current_global_step: int) -> None:
    """Writes the scalar results of an evaluation as summaries at ``current_global_step``."""
    from flowgrad.summary import protos
    from flowgrad.summary.writer import FileWriter

    logging.info("Saving dict for global step %d: %s", current_global_step,
                 ", ".join("%s = %s" % (k, dictionary[k]) for k in sorted(dictionary)))
    summary = protos.pb().summary_pb2.Summary()
    for key, value in dictionary.items():
        if key == GraphKeys.GLOBAL_STEP or value is None:
            continue
        array = np.asarray(value)
        if array.ndim == 0 and array.dtype.kind in "fiub":
            summary.value.add(tag=key, simple_value=float(array))
    with Graph().as_default():          # FileWriter is graph-mode API
        writer = FileWriter(output_dir)
        writer.add_summary(summary, current_global_step)
        writer.close()


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info",
        "var_name_to_prev_var_name"])):
    """What to warm-start an Estimator's variables from (``tf.estimator.WarmStartSettings``).

    Args:
      ckpt_to_initialize_from: A checkpoint prefix or a folder of checkpoints.
      vars_to_warm_start: A regex over the trainable variables' names, a list of regexes or
        variables (``".*"``: every trainable variable).
      var_name_to_vocab_info: Vocabulary remapping (not supported: must be empty).
      var_name_to_prev_var_name: ``{name in this graph: name in the checkpoint}``.
    """

    def __new__(cls, ckpt_to_initialize_from: str, vars_to_warm_start: Any = ".*",
                var_name_to_vocab_info: dict | None = None,
                var_name_to_prev_var_name: dict | None = None) -> WarmStartSettings:
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in WarmStartSettings")
        return super().__new__(cls, os.fspath(ckpt_to_initialize_from), vars_to_warm_start,
                               var_name_to_vocab_info or {}, var_name_to_prev_var_name or {})


class Estimator:
    """Trains, evaluates and predicts with a ``model_fn`` (``tf.estimator.Estimator``).

    ``model_fn(features, labels, mode, params, config)`` (any subset but ``features``) builds
    the model for one ``ModeKeys`` mode and returns an ``EstimatorSpec``.

    Args:
      model_fn: The model function.
      model_dir: Where checkpoints and summaries go (a new temporary folder when None and
        the config names none).
      config: A ``RunConfig``.
      params: A dict of hyperparameters passed to ``model_fn`` (a deep copy).
      warm_start_from: A checkpoint (file or folder), a SavedModel folder or a
        ``WarmStartSettings`` to initialize the variables from when ``model_dir`` has no
        checkpoint.

    Raises:
      ValueError: ``model_fn`` lacks ``features`` or has parameters Estimator cannot pass, or
        ``model_dir`` differs from the config's.
      TypeError: ``config`` is not a RunConfig.
    """

    def __init__(self, model_fn: Callable, model_dir: str | None = None,
                 config: RunConfig | None = None, params: dict | None = None,
                 warm_start_from: str | None = None):
        if config is None:
            config = RunConfig()
        elif not isinstance(config, RunConfig):
            raise ValueError(f"config must be an instance of `RunConfig`, but provided {config}.")
        if model_dir is not None:
            model_dir = os.fspath(model_dir)
            if config.model_dir is not None and config.model_dir != model_dir:
                raise ValueError(
                    "`model_dir` are set both in constructor and `RunConfig`, but with "
                    f"different values. In constructor: '{model_dir}', in `RunConfig`: "
                    f"'{config.model_dir}' ")
        model_dir = model_dir or config.model_dir
        if model_dir is None:
            model_dir = tempfile.mkdtemp()
            logging.warning("Using temporary folder as model directory: %s", model_dir)
        self._config = config.replace(model_dir=model_dir)
        self._model_dir = model_dir
        logging.info("Using config: %s", {k[1:]: v for k, v in vars(self._config).items()})
        self._verify_model_fn_args(model_fn, params)
        self._model_fn = model_fn
        self._params = copy.deepcopy(params or {})
        self._warm_start_from = warm_start_from

    @staticmethod
    def _verify_model_fn_args(model_fn: Callable, params: dict | None) -> None:
        if not callable(model_fn):
            raise ValueError("model_fn must be provided to Estimator.")
        args = set(_fn_args(model_fn))
        if "features" not in args:
            raise ValueError(f"model_fn ({model_fn}) must include features argument.")
        if params is not None and "params" not in args:
            raise ValueError(f"model_fn ({model_fn}) does not include params argument, but "
                             f"params ({params}) "
                             "is passed to Estimator.")
        if params is None and "params" in args:
            logging.warning("Estimator's model_fn (%s) includes params argument, but params "
                            "are not passed to Estimator.", model_fn)
        unexpected = sorted(args - _VALID_MODEL_FN_ARGS)
        if unexpected:
            raise ValueError(f"model_fn ({model_fn}) has following not expected args: {unexpected}")

    @property
    def model_dir(self) -> str:
        """The directory of the checkpoints and summaries."""
        return self._model_dir

    @property
    def config(self) -> RunConfig:
        """A copy of the RunConfig."""
        return copy.deepcopy(self._config)

    @property
    def params(self) -> dict:
        """A copy of the hyperparameters."""
        return copy.deepcopy(self._params)

    @property
    def model_fn(self) -> Callable:
        """The ``model_fn`` as ``fn(features, labels, mode, config)``."""
        def public_model_fn(features: Any, labels: Any, mode: str,
                            config: RunConfig) -> model_fn_lib.EstimatorSpec:
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn

    # -- checkpoints --------------------------------------------------------------------

    def latest_checkpoint(self) -> str | None:
        """The path of the latest checkpoint in ``model_dir``, None when there is none.

        Returns:
          A checkpoint prefix or None.
        """
        return latest_checkpoint(self._model_dir)

    def _check_checkpoint_available(self) -> str:
        path = self.latest_checkpoint()
        if not path:
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}.")
        return path

    def get_variable_names(self) -> list:
        """The names of the variables of the latest checkpoint.

        Returns:
          A list of names.

        Raises:
          ValueError: no checkpoint in ``model_dir``.
        """
        self._check_checkpoint_available()
        return [name for name, _ in list_variables(self._model_dir)]

    def get_variable_value(self, name: str) -> np.ndarray:
        """A variable's value in the latest checkpoint.

        Args:
          name: The variable's name.

        Returns:
          The value as a NumPy array.

        Raises:
          ValueError: no checkpoint in ``model_dir``.
        """
        self._check_checkpoint_available()
        return load_variable(self._model_dir, name)

    def eval_dir(self, name: str | None = None) -> str:
        """The folder of an evaluation's summaries: ``model_dir/eval`` (``eval_<name>``).

        Args:
          name: The evaluation's name.

        Returns:
          The path.
        """
        return os.path.join(self._model_dir, "eval" if not name else "eval_" + name)

    # -- calling input_fn and model_fn ----------------------------------------------------

    def _call_input_fn(self, input_fn: Callable, mode: str) -> Any:
        args = _fn_args(input_fn)
        kwargs = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = self.config
        return input_fn(**kwargs)

    def _get_features_and_labels_from_input_fn(self, input_fn: Callable, mode: str) -> tuple:
        return parse_input_fn_result(self._call_input_fn(input_fn, mode))

    def _call_model_fn(self, features: Any, labels: Any, mode: str,
                       config: RunConfig) -> model_fn_lib.EstimatorSpec:
        args = _fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = config
        logging.info("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        logging.info("Done calling model_fn.")
        if not isinstance(spec, model_fn_lib.EstimatorSpec):
            raise ValueError("model_fn should return an EstimatorSpec.")
        return spec

    @contextlib.contextmanager
    def _new_graph(self) -> Iterator[Graph]:
        """A new default graph with the config's seed and a global step, in which Keras names
        its layers afresh (``dense``, ``dense_1``, ... in every graph, as TF 2.15's Keras
        did per graph: the checkpoint's variable names match the next call's)."""
        graph = Graph()
        state = sys.modules.get("keras.src.backend.common.global_state")
        saved = state.get_global_attribute(_KERAS_NAME_UIDS) if state else None
        if state:
            state.set_global_attribute(_KERAS_NAME_UIDS, collections.defaultdict(int))
        try:
            with graph.as_default():
                set_random_seed(self._config.tf_random_seed)
                get_or_create_global_step(graph)
                yield graph
        finally:
            if state:
                state.set_global_attribute(_KERAS_NAME_UIDS, saved)

    def _maybe_warm_start(self, checkpoint_path: str | None = None) -> None:
        """Warm-starts the variables from ``warm_start_from`` unless a checkpoint of
        ``model_dir`` (restored instead) is used."""
        settings = self._warm_start_from
        if settings is None or checkpoint_path:
            return
        if not isinstance(settings, WarmStartSettings):
            path = os.fspath(settings)
            variables = os.path.join(path, "variables", "variables")
            if os.path.isdir(path) and os.path.exists(variables + ".index"):
                path = variables                # a SavedModel's variables
            settings = WarmStartSettings(ckpt_to_initialize_from=path)
        logging.info("Warm-starting with WarmStartSettings: %s", settings)
        warm_start(*settings)

    # -- train ----------------------------------------------------------------------------

    def train(self, input_fn: Callable, hooks: list | None = None, steps: int | None = None,
              max_steps: int | None = None, saving_listeners: list | None = None) -> Estimator:
        """Trains the model on ``input_fn``'s data, resuming from the latest checkpoint.

        Args:
          input_fn: Returns a ``tf.data.Dataset`` of ``(features, labels)``, or
            ``(features, labels)`` tensors; may take ``mode``, ``params``, ``config``.
          hooks: More ``SessionRunHook``s.
          steps: Train this many more steps (else until the input ends).
          max_steps: Train until the global step reaches this.
          saving_listeners: ``CheckpointSaverListener``s called around each checkpoint.

        Returns:
          ``self``.

        Raises:
          ValueError: both ``steps`` and ``max_steps``, or one that is not positive.
        """
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None:
            start_step = _load_global_step_from_checkpoint_dir(self._model_dir)
            if max_steps <= start_step:
                logging.info("Skipping training since max_steps has already saved.")
                return self
        hooks = _check_hooks_type(hooks)
        if steps is not None or max_steps is not None:
            hooks.append(hooks_lib.StopAtStepHook(steps, max_steps))
        saving_listeners = _check_listeners_type(saving_listeners)
        loss = self._train_model(input_fn, hooks, saving_listeners)
        logging.info("Loss for final step: %s.", loss)
        return self

    def _train_model(self, input_fn: Callable, hooks: list, saving_listeners: list) -> Any:
        with self._new_graph() as graph:
            global_step = get_global_step(graph)
            features, labels, input_hooks = self._get_features_and_labels_from_input_fn(
                input_fn, ModeKeys.TRAIN)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN, self.config)
            return self._train_with_estimator_spec(spec, list(input_hooks), hooks,
                                                   global_step, saving_listeners)

    def _train_with_estimator_spec(self, spec: model_fn_lib.EstimatorSpec, worker_hooks: list,
                                   hooks: list, global_step: Any,
                                   saving_listeners: list) -> Any:
        from flowgrad.summary import summary_ops
        self._maybe_warm_start()
        if not any(getattr(s.op, "name", None) == "loss"
                   for s in get_collection(GraphKeys.SUMMARIES)):
            summary_ops.scalar("loss", spec.loss)
        add_to_collection(GraphKeys.LOSSES, spec.loss)
        worker_hooks.extend(hooks)
        worker_hooks.append(hooks_lib.NanTensorHook(spec.loss))
        if self._config.log_step_count_steps is not None:
            worker_hooks.append(hooks_lib.LoggingTensorHook(
                {"loss": spec.loss, "step": global_step},
                every_n_iter=self._config.log_step_count_steps))
        worker_hooks.extend(spec.training_hooks)
        # TensorFlow's deferred-build Saver takes the variables the hooks' begin() made too
        # (early stopping's signal_early_stopping): made by the last hook's begin()
        worker_hooks.append(_DefaultSaverHook(spec.scaffold, self._config))
        chief_hooks: list = []
        all_hooks = worker_hooks + list(spec.training_chief_hooks)
        saver_hooks = [h for h in all_hooks if isinstance(h, hooks_lib.CheckpointSaverHook)]
        if self._config.save_checkpoints_secs or self._config.save_checkpoints_steps:
            if not saver_hooks:
                chief_hooks = [hooks_lib.CheckpointSaverHook(
                    self._model_dir, save_secs=self._config.save_checkpoints_secs,
                    save_steps=self._config.save_checkpoints_steps, scaffold=spec.scaffold,
                    save_graph_def=self._config.checkpoint_save_graph_def)]
                saver_hooks = [chief_hooks[0]]
        if saving_listeners:
            if not saver_hooks:
                raise ValueError(
                    "There should be a CheckpointSaverHook to use saving_listeners. Please set "
                    "one of the RunConfig.save_checkpoints_steps or "
                    "RunConfig.save_checkpoints_secs.")
            for listener in saving_listeners:
                if listener not in saver_hooks[0]._listeners:
                    saver_hooks[0]._listeners.append(listener)
        save_summary_steps = self._config.save_summary_steps
        with MonitoredTrainingSession(
                master=self._config.master, is_chief=self._config.is_chief,
                checkpoint_dir=self._model_dir, scaffold=spec.scaffold, hooks=worker_hooks,
                chief_only_hooks=tuple(chief_hooks) + tuple(spec.training_chief_hooks),
                save_checkpoint_secs=0, save_summaries_steps=save_summary_steps,
                config=self._config.session_config,
                max_wait_secs=self._config.session_creation_timeout_secs,
                log_step_count_steps=self._config.log_step_count_steps,
                save_graph_def=self._config.checkpoint_save_graph_def) as mon_sess:
            loss = None
            any_step_done = False
            while not mon_sess.should_stop():
                _, loss = mon_sess.run([spec.train_op, spec.loss])
                any_step_done = True
        if not any_step_done:
            logging.warning("Training with estimator made no steps. Perhaps input is empty or "
                            "misspecified.")
        return loss

    # -- evaluate -------------------------------------------------------------------------

    def evaluate(self, input_fn: Callable, steps: int | None = None, hooks: list | None = None,
                 checkpoint_path: str | None = None, name: str | None = None) -> dict:
        """Evaluates the model of the latest checkpoint (or ``checkpoint_path``) on
        ``input_fn``'s data.

        Args:
          input_fn: Returns a dataset of ``(features, labels)`` or the two tensors.
          steps: Evaluate this many batches (else until the input ends).
          hooks: More ``SessionRunHook``s.
          checkpoint_path: The checkpoint to evaluate (the latest when None; an untrained,
            initialized model when there is none).
          name: The evaluation's name: results go to ``model_dir/eval_<name>``.

        Returns:
          The metrics of ``eval_metric_ops``, ``loss`` (the mean of the spec's loss) and
          ``global_step``.

        Raises:
          ValueError: ``steps`` not positive, a metric named ``loss`` or ``global_step``.
        """
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        hooks = _check_hooks_type(hooks)
        hooks.append(_StopAfterNEvalsHook(steps))
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
            if not checkpoint_path:
                logging.info("Could not find trained model in model_dir: %s, running "
                             "initialization to evaluate.", self._model_dir)
        output_dir = self.eval_dir(name)
        with self._new_graph() as graph:
            global_step = get_global_step(graph)
            features, labels, input_hooks = self._get_features_and_labels_from_input_fn(
                input_fn, ModeKeys.EVAL)
            spec = self._call_model_fn(features, labels, ModeKeys.EVAL, self.config)
            self._maybe_warm_start(checkpoint_path)
            eval_metric_ops = dict(spec.eval_metric_ops)
            if model_fn_lib.LOSS_METRIC_KEY in eval_metric_ops:
                raise ValueError("Metric with name \"loss\" is not allowed, because Estimator "
                                 "already defines a default metric with the same name.")
            eval_metric_ops[model_fn_lib.LOSS_METRIC_KEY] = metric_mean(spec.loss)
            if GraphKeys.GLOBAL_STEP in eval_metric_ops:
                raise ValueError("Metric with name `global_step` is not allowed, because "
                                 "Estimator already defines a default metric with the same "
                                 "name.")
            update_ops, eval_dict = [], {}
            for key in sorted(eval_metric_ops):
                value = eval_metric_ops[key]
                if hasattr(value, "update_state") and not isinstance(value, tuple):
                    raise TypeError(f"eval_metric_ops[{key}]: Keras metric objects need TF2 "
                                    "behaviour; give (value, update_op) from "
                                    "tf.compat.v1.metrics")
                eval_dict[key] = value[0]
                update_ops.append(value[1])
            eval_dict[GraphKeys.GLOBAL_STEP] = global_step
            eval_step = _get_or_create_eval_step()
            update_op = group(*update_ops, assign_add(eval_step, 1))
            all_hooks = list(input_hooks) + hooks + list(spec.evaluation_hooks)
            final_ops_hook = hooks_lib.FinalOpsHook(eval_dict)
            all_hooks.append(final_ops_hook)
            logging.info("Starting evaluation at %s",
                         time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime()))
            creator = ChiefSessionCreator(scaffold=spec.scaffold, master=self._config.master,
                                          config=self._config.session_config,
                                          checkpoint_filename_with_path=checkpoint_path)
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as session:
                while not session.should_stop():
                    session.run(update_op)
            results = final_ops_hook.final_ops_values
        logging.info("Finished evaluation at %s",
                     time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime()))
        results = {key: (value.item() if isinstance(value, np.ndarray) and value.ndim == 0
                         and key == GraphKeys.GLOBAL_STEP else value)
                   for key, value in results.items()}
        _write_dict_to_summary(output_dir, results, int(results[GraphKeys.GLOBAL_STEP]))
        return results

    # -- predict --------------------------------------------------------------------------

    def predict(self, input_fn: Callable, predict_keys: list | None = None,
                hooks: list | None = None, checkpoint_path: str | None = None,
                yield_single_examples: bool = True) -> Iterator:
        """Yields the predictions of the latest checkpoint's model on ``input_fn``'s
        features (labels, if any, are ignored), one example at a time.

        Args:
          input_fn: Returns a dataset or the features (a tensor or dict of tensors).
          predict_keys: The keys of dict predictions to yield (all when None).
          hooks: More ``SessionRunHook``s.
          checkpoint_path: The checkpoint to use (the latest when None; an initialized model
            when there is none).
          yield_single_examples: Yield one example at a time (else whole batches).

        Yields:
          A dict of NumPy values per example for dict predictions, else the arrays.

        Raises:
          ValueError: ``predict_keys`` with predictions that are not a dict, or naming none of
            their keys; predictions whose batch sizes differ.
        """
        hooks = _check_hooks_type(hooks)
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
            if not checkpoint_path:
                logging.info("Could not find trained model in model_dir: %s, running "
                             "initialization to predict.", self._model_dir)
        with self._new_graph():
            features, _, input_hooks = self._get_features_and_labels_from_input_fn(
                input_fn, ModeKeys.PREDICT)
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT, self.config)
            self._maybe_warm_start(checkpoint_path)
            predictions = self._extract_keys(spec.predictions, predict_keys)
            all_hooks = list(input_hooks) + hooks + list(spec.prediction_hooks)
            creator = ChiefSessionCreator(scaffold=spec.scaffold, master=self._config.master,
                                          config=self._config.session_config,
                                          checkpoint_filename_with_path=checkpoint_path)
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as session:
                while not session.should_stop():
                    values = session.run(predictions)
                    if not yield_single_examples:
                        yield values
                    elif not isinstance(predictions, dict):
                        yield from values
                    else:
                        for i in range(self._extract_batch_length(values)):
                            yield {key: value[i] for key, value in values.items()}

    @staticmethod
    def _extract_keys(predictions: Any, predict_keys: Any) -> Any:
        if not predict_keys:
            return predictions
        if isinstance(predict_keys, str):
            predict_keys = [predict_keys]
        if not isinstance(predictions, dict):
            raise ValueError("predict_keys argument is not valid in case of non-dict "
                             "predictions.")
        existing = predictions.keys()
        chosen = {k: v for k, v in predictions.items() if k in predict_keys}
        if not chosen:
            raise ValueError(f"Expected to run at least one output from {existing}, provided "
                             f"{predict_keys}.")
        return chosen

    @staticmethod
    def _extract_batch_length(values: dict) -> int:
        length = None
        for key, value in values.items():
            length = length or value.shape[0]
            if value.shape[0] != length:
                raise ValueError("Batch length of predictions should be same. %s has "
                                 "different batch length than others." % key)
        return length or 0

    # -- export ---------------------------------------------------------------------------

    def export_saved_model(self, export_dir_base: str, serving_input_receiver_fn: Callable,
                           assets_extra: dict | None = None, as_text: bool = False,
                           checkpoint_path: str | None = None,
                           experimental_mode: str = ModeKeys.PREDICT) -> bytes:
        """Exports the latest checkpoint's model as a TF1 SavedModel for serving, in a new
        timestamped folder of ``export_dir_base``.

        Args:
          export_dir_base: The folder the export's folder goes in.
          serving_input_receiver_fn: Returns a ``ServingInputReceiver`` (the serving inputs
            and the features they give).
          assets_extra: ``{destination: source}`` files copied to ``assets.extra``.
          as_text: Write ``saved_model.pbtxt`` instead of ``saved_model.pb``.
          checkpoint_path: The checkpoint to export (the latest when None).
          experimental_mode: The mode ``model_fn`` is called in (PREDICT).

        Returns:
          The export's path, as bytes (TensorFlow's).

        Raises:
          ValueError: no checkpoint to export.
        """
        from flowgrad.estimator.export import export_estimator_savedmodel
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
        if not checkpoint_path:
            raise ValueError(f"Couldn't find trained model at {self._model_dir}.")
        return export_estimator_savedmodel(self, export_dir_base, serving_input_receiver_fn,
                                           assets_extra, as_text, checkpoint_path,
                                           experimental_mode)

    def export_savedmodel(self, export_dir_base: str, serving_input_receiver_fn: Callable,
                          assets_extra: dict | None = None, as_text: bool = False,
                          checkpoint_path: str | None = None,
                          strip_default_attrs: bool = False) -> bytes:
        """TF1's name of :meth:`export_saved_model`.

        Args:
          export_dir_base: The folder the export's folder goes in.
          serving_input_receiver_fn: Returns a ``ServingInputReceiver``.
          assets_extra: ``{destination: source}`` files copied to ``assets.extra``.
          as_text: Write ``saved_model.pbtxt``.
          checkpoint_path: The checkpoint to export (the latest when None).
          strip_default_attrs: Accepted for TensorFlow's signature.

        Returns:
          The export's path, as bytes.
        """
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn,
                                       assets_extra, as_text, checkpoint_path)


_METRIC_FN_ARGS = ("predictions", "features", "labels", "config")


def add_metrics(estimator: Estimator, metric_fn: Callable) -> Estimator:
    """A new Estimator (same ``model_dir`` and config) whose evaluations also report
    ``metric_fn``'s metrics (``tf.estimator.add_metrics``).

    Args:
      estimator: The Estimator.
      metric_fn: Takes any of ``predictions``, ``features``, ``labels``, ``config``; returns
        ``{name: (value, update_op)}``.

    Returns:
      The new Estimator.

    Raises:
      ValueError: ``metric_fn`` takes other arguments.
    """
    args = _fn_args(metric_fn)
    unexpected = sorted(set(args) - set(_METRIC_FN_ARGS))
    if unexpected:
        raise ValueError(f"metric_fn ({metric_fn}) has following not expected args: {unexpected}"
                         )

    def new_model_fn(features: Any, labels: Any, mode: str,
                     config: RunConfig) -> model_fn_lib.EstimatorSpec:
        spec = estimator.model_fn(features, labels, mode, config)
        if mode != ModeKeys.EVAL:
            return spec
        given = {"predictions": spec.predictions, "features": features, "labels": labels,
                 "config": config}
        metrics = dict(spec.eval_metric_ops or {})
        metrics.update(metric_fn(**{k: given[k] for k in args}))
        return spec._replace(eval_metric_ops=metrics)

    return Estimator(new_model_fn, model_dir=estimator.model_dir, config=estimator.config,
                     warm_start_from=estimator._warm_start_from)
