"""``tf.estimator.experimental``'s early stopping: hooks that stop training once a metric
of the evaluations in ``model_dir/eval`` stops improving or crosses a threshold, or a
predicate says so (TensorFlow 2.15's ``early_stopping.py``)."""
from __future__ import annotations

import collections
import glob
import operator
import os
from collections.abc import Callable
from typing import Any

from flowgrad.debug import tf_logging as logging
from flowgrad.estimator.estimator import Estimator
from flowgrad.framework import dtypes
from flowgrad.framework.graph import GraphKeys
from flowgrad.ops.init_ops import Constant
from flowgrad.ops.state_ops import assign
from flowgrad.ops.variable_scope import AUTO_REUSE, get_variable, variable_scope
from flowgrad.train.basic_session_run_hooks import SecondOrStepTimer
from flowgrad.train.session_run_hook import SessionRunArgs, SessionRunHook
from flowgrad.train.summary_iterator import summary_iterator
from flowgrad.train.training_util import get_global_step

#: The variable a stopping chief sets (TensorFlow's name; it is checkpointed).
_STOP_VAR_NAME = "signal_early_stopping"


def read_eval_metrics(eval_dir: str) -> collections.OrderedDict:
    """The scalar summaries of the event files of ``eval_dir``, by global step.

    Args:
      eval_dir: An evaluation folder (``model_dir/eval``).

    Returns:
      ``{step: {tag: value}}`` in step order.
    """
    found: dict = collections.defaultdict(dict)
    for path in sorted(glob.glob(os.path.join(eval_dir, "*.tfevents.*"))):
        for event in summary_iterator(path):
            if not event.HasField("summary"):
                continue
            metrics = {v.tag: v.simple_value for v in event.summary.value
                       if v.HasField("simple_value")}
            if metrics:
                found[event.step].update(metrics)
    return collections.OrderedDict(sorted(found.items(), key=lambda t: t[0]))


def _get_or_create_stop_var() -> Any:
    with variable_scope("", reuse=AUTO_REUSE):
        return get_variable(_STOP_VAR_NAME, shape=[], dtype=dtypes.bool,
                            initializer=Constant(False),
                            collections=[GraphKeys.GLOBAL_VARIABLES], trainable=False)


class _StopOnPredicateHook(SessionRunHook):
    """Asks ``should_stop_fn`` every so often; stops training when it says so."""

    def __init__(self, should_stop_fn: Callable, run_every_secs: float | None = 60,
                 run_every_steps: int | None = None):
        if not callable(should_stop_fn):
            raise TypeError("`should_stop_fn` must be callable.")
        self._should_stop_fn = should_stop_fn
        self._timer = SecondOrStepTimer(every_secs=run_every_secs, every_steps=run_every_steps)

    def begin(self) -> None:
        """Finds the global step and makes the stop variable."""
        self._global_step_tensor = get_global_step()
        self._stop_var = _get_or_create_stop_var()
        self._stop_op = assign(self._stop_var, True)

    def before_run(self, run_context: Any) -> SessionRunArgs:
        """Fetches the global step.

        Args:
          run_context: The run's context.
        """
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        """Asks the predicate when the timer triggers; stops if it says so.

        Args:
          run_context: The run's context.
          run_values: The fetched global step.
        """
        global_step = run_values.results
        if self._timer.should_trigger_for_step(global_step):
            self._timer.update_last_triggered_step(global_step)
            if self._should_stop_fn():
                logging.info("Requesting early stopping at global step %d", global_step)
                run_context.session.run(self._stop_op)
                run_context.request_stop()


def make_early_stopping_hook(estimator: Estimator, should_stop_fn: Callable,
                             run_every_secs: float | None = 60,
                             run_every_steps: int | None = None) -> SessionRunHook:
    """A training hook that stops when ``should_stop_fn()`` returns True (asked every
    ``run_every_secs`` seconds or ``run_every_steps`` steps).

    Args:
      estimator: The Estimator being trained.
      should_stop_fn: A function of no arguments.
      run_every_secs: Ask every this many seconds.
      run_every_steps: Ask every this many steps (set ``run_every_secs=None``).

    Returns:
      The hook.

    Raises:
      ValueError: both intervals are set.
      TypeError: ``should_stop_fn`` is not callable.
    """
    if run_every_secs is not None and run_every_steps is not None:
        raise ValueError("Only one of run_every_secs and run_every_steps can be set.")
    return _StopOnPredicateHook(should_stop_fn, run_every_secs, run_every_steps)


def _threshold_hook(estimator: Estimator, metric_name: str, threshold: float,
                    higher_is_better: bool, eval_dir: str | None, min_steps: int,
                    run_every_secs: float | None, run_every_steps: int | None) -> SessionRunHook:
    eval_dir = eval_dir or estimator.eval_dir()
    better = operator.gt if higher_is_better else operator.lt
    words = "greater than" if higher_is_better else "less than"

    def stop_if_threshold_crossed_fn() -> bool:
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            value = metrics[metric_name]
            if better(value, threshold):
                logging.info('At step %s, metric "%s" has value %s which is %s the configured '
                             "threshold (%s) for early stopping.", step, metric_name, value,
                             words, threshold)
                return True
        return False
    return make_early_stopping_hook(estimator, stop_if_threshold_crossed_fn, run_every_secs,
                                    run_every_steps)


def _no_improvement_hook(estimator: Estimator, metric_name: str, max_steps: int,
                         higher_is_better: bool, eval_dir: str | None, min_steps: int,
                         run_every_secs: float | None,
                         run_every_steps: int | None) -> SessionRunHook:
    eval_dir = eval_dir or estimator.eval_dir()
    better = operator.gt if higher_is_better else operator.lt
    word = "increase" if higher_is_better else "decrease"

    def stop_if_no_metric_improvement_fn() -> bool:
        best, best_step = None, None
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            value = metrics[metric_name]
            if best is None or better(value, best):
                best, best_step = value, step
            if step - best_step >= max_steps:
                logging.info('No %s in metric "%s" for %s steps, which is greater than or equal '
                             "to max steps (%s) configured for early stopping.", word,
                             metric_name, step - best_step, max_steps)
                return True
        return False
    return make_early_stopping_hook(estimator, stop_if_no_metric_improvement_fn,
                                    run_every_secs, run_every_steps)


def stop_if_higher_hook(estimator: Estimator, metric_name: str, threshold: float,
                        eval_dir: str | None = None, min_steps: int = 0,
                        run_every_secs: float | None = 60,
                        run_every_steps: int | None = None) -> SessionRunHook:
    """Stops training once an evaluation's ``metric_name`` is above ``threshold``.

    Args:
      estimator: The Estimator being trained.
      metric_name: The metric's name in the evaluations.
      threshold: The threshold.
      eval_dir: The evaluations' folder (``estimator.eval_dir()``).
      min_steps: Ignore evaluations before this step.
      run_every_secs: Check every this many seconds.
      run_every_steps: Check every this many steps.

    Returns:
      The hook.
    """
    return _threshold_hook(estimator, metric_name, threshold, True, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_lower_hook(estimator: Estimator, metric_name: str, threshold: float,
                       eval_dir: str | None = None, min_steps: int = 0,
                       run_every_secs: float | None = 60,
                       run_every_steps: int | None = None) -> SessionRunHook:
    """Stops training once an evaluation's ``metric_name`` is below ``threshold``.

    Args:
      estimator: The Estimator being trained.
      metric_name: The metric's name in the evaluations.
      threshold: The threshold.
      eval_dir: The evaluations' folder (``estimator.eval_dir()``).
      min_steps: Ignore evaluations before this step.
      run_every_secs: Check every this many seconds.
      run_every_steps: Check every this many steps.

    Returns:
      The hook.
    """
    return _threshold_hook(estimator, metric_name, threshold, False, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_no_increase_hook(estimator: Estimator, metric_name: str,
                             max_steps_without_increase: int, eval_dir: str | None = None,
                             min_steps: int = 0, run_every_secs: float | None = 60,
                             run_every_steps: int | None = None) -> SessionRunHook:
    """Stops training once ``metric_name`` has not increased for
    ``max_steps_without_increase`` global steps of evaluations.

    Args:
      estimator: The Estimator being trained.
      metric_name: The metric's name in the evaluations.
      max_steps_without_increase: Steps without a new best value.
      eval_dir: The evaluations' folder (``estimator.eval_dir()``).
      min_steps: Ignore evaluations before this step.
      run_every_secs: Check every this many seconds.
      run_every_steps: Check every this many steps.

    Returns:
      The hook.
    """
    return _no_improvement_hook(estimator, metric_name, max_steps_without_increase, True,
                                eval_dir, min_steps, run_every_secs, run_every_steps)


def stop_if_no_decrease_hook(estimator: Estimator, metric_name: str,
                             max_steps_without_decrease: int, eval_dir: str | None = None,
                             min_steps: int = 0, run_every_secs: float | None = 60,
                             run_every_steps: int | None = None) -> SessionRunHook:
    """Stops training once ``metric_name`` has not decreased for
    ``max_steps_without_decrease`` global steps of evaluations.

    Args:
      estimator: The Estimator being trained.
      metric_name: The metric's name in the evaluations.
      max_steps_without_decrease: Steps without a new best value.
      eval_dir: The evaluations' folder (``estimator.eval_dir()``).
      min_steps: Ignore evaluations before this step.
      run_every_secs: Check every this many seconds.
      run_every_steps: Check every this many steps.

    Returns:
      The hook.
    """
    return _no_improvement_hook(estimator, metric_name, max_steps_without_decrease, False,
                                eval_dir, min_steps, run_every_secs, run_every_steps)
