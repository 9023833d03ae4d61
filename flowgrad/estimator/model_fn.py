"""``tf.estimator.EstimatorSpec``: what a ``model_fn`` returns, checked as TensorFlow checks it."""
from __future__ import annotations

import collections
from typing import Any

from flowgrad.estimator.export_output import ExportOutput, PredictOutput
from flowgrad.estimator.mode_keys import ModeKeys
from flowgrad.framework.graph import Operation, get_default_graph
from flowgrad.framework.tensor import is_tensor
from flowgrad.train.monitored_session import Scaffold
from flowgrad.train.session_run_hook import SessionRunHook

#: The key of the serving signature a PREDICT spec exports by default.
DEFAULT_SERVING_KEY = "serving_default"
#: The metric every evaluation reports: the mean of the spec's loss.
LOSS_METRIC_KEY = "loss"
#: The evaluation result's global step.
GLOBAL_STEP_KEY = "global_step"

_FIELDS = ["mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
           "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks",
           "prediction_hooks"]


def _check_tensor(value: Any, what: str) -> Any:
    """``value`` as a graph tensor of the default graph, or TensorFlow's TypeError."""
    if not is_tensor(value):
        raise TypeError(f"{what} must be Tensor, given: {value}")
    tensor = value._as_tensor() if hasattr(value, "_as_tensor") else value
    graph = getattr(tensor, "graph", None)
    if graph is not None and graph is not get_default_graph():
        raise ValueError(f"{what} must be from the default graph. Such as {value}.")
    return tensor


def _check_hooks(hooks: Any, what: str) -> tuple:
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook}")
    return hooks


def _check_eval_metric_ops(eval_metric_ops: Any) -> dict:
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops}")
    for key, value in eval_metric_ops.items():
        if hasattr(value, "result") and hasattr(value, "update_state"):
            continue                                    # a Keras metric object
        if not isinstance(value, tuple) or len(value) != 2:
            raise TypeError("Values of eval_metric_ops must be (metric_value, update_op) "
                            f"tuples, given: {value} for key: {key}")
        _check_tensor(value[0], f"eval_metric_ops[{key}]")
    return dict(eval_metric_ops)


def _check_export_outputs(export_outputs: Any, predictions: Any) -> dict:
    if export_outputs is None:
        return {DEFAULT_SERVING_KEY: PredictOutput(predictions)}
    if not isinstance(export_outputs, dict):
        raise TypeError(f"export_outputs must be dict, given: {export_outputs}")
    for value in export_outputs.values():
        if not isinstance(value, ExportOutput):
            raise ValueError("Values in export_outputs must be ExportOutput objects. "
                             f"Given: {export_outputs}")
    export_outputs = dict(export_outputs)
    if len(export_outputs) == 1 and DEFAULT_SERVING_KEY not in export_outputs:
        export_outputs[DEFAULT_SERVING_KEY] = next(iter(export_outputs.values()))
    elif DEFAULT_SERVING_KEY not in export_outputs:
        raise ValueError("Multiple export_outputs were provided, but none of them is "
                         "specified as the default.  Do this by naming one of them with "
                         "signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY.")
    return export_outputs


class EstimatorSpec(collections.namedtuple("EstimatorSpec", _FIELDS)):
    """What a ``model_fn`` returns: the ops and objects of one mode (``tf.estimator.
    EstimatorSpec``).

    TRAIN needs ``loss`` and ``train_op``, EVAL needs ``loss``, PREDICT needs
    ``predictions``; the others are optional.

    Args:
      mode: A ``ModeKeys`` value.
      predictions: A tensor or a dict of tensors (what ``predict`` yields).
      loss: A scalar loss tensor.
      train_op: The op of one training step.
      eval_metric_ops: A dict of metric name to ``(value, update_op)``
        (``tf.compat.v1.metrics``'s results).
      export_outputs: A dict of signature name to ``ExportOutput`` (PREDICT's predictions as
        ``serving_default`` when None).
      training_chief_hooks: Hooks the chief runs while training.
      training_hooks: Hooks every worker runs while training.
      scaffold: A ``tf.compat.v1.train.Scaffold`` (a default one when None).
      evaluation_hooks: Hooks run while evaluating.
      prediction_hooks: Hooks run while predicting.

    Raises:
      ValueError: a mode that is not a ModeKeys value, a field the mode needs is missing, a
        loss that is not scalar, a tensor of another graph.
      TypeError: a field of the wrong type.
    """

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None,
                train_op: Any = None, eval_metric_ops: dict | None = None,
                export_outputs: dict | None = None, training_chief_hooks: list | None = None,
                training_hooks: list | None = None, scaffold: Scaffold | None = None,
                evaluation_hooks: list | None = None,
                prediction_hooks: list | None = None) -> EstimatorSpec:
        if mode not in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT):
            raise ValueError(f"mode={mode} unrecognized.")
        if mode == ModeKeys.TRAIN and train_op is None:
            raise ValueError("Missing train_op.")
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL) and loss is None:
            raise ValueError("Missing loss.")
        if mode == ModeKeys.PREDICT and predictions is None:
            raise ValueError("Missing predictions.")
        if loss is not None:
            loss = _check_tensor(loss, "loss")
            # TensorFlow's rule: a static element count other than 1 fails here; an unknown
            # one ([None]) is reshaped to a scalar and fails when run with another count
            if loss.shape.rank is not None and loss.shape.num_elements() not in (None, 1):
                raise ValueError(f"Loss must be scalar, given: {loss}")
            if loss.shape.rank not in (None, 0):
                from flowgrad.ops.shape_ops import reshape
                loss = reshape(loss, [])
        if train_op is not None and not isinstance(train_op, Operation):
            _check_tensor(train_op, "train_op")
        if predictions is not None:
            if isinstance(predictions, dict):
                predictions = {k: _check_tensor(v, f"predictions[{k}]")
                               for k, v in predictions.items()}
            else:
                predictions = _check_tensor(predictions, "predictions")
        eval_metric_ops = _check_eval_metric_ops(eval_metric_ops)
        if mode == ModeKeys.PREDICT:
            export_outputs = _check_export_outputs(export_outputs, predictions)
        elif export_outputs is not None:
            export_outputs = _check_export_outputs(export_outputs, predictions)
        if scaffold is not None and not isinstance(scaffold, Scaffold):
            raise TypeError(f"scaffold must be tf.train.Scaffold. Given: {scaffold}")
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops=eval_metric_ops, export_outputs=export_outputs,
            training_chief_hooks=_check_hooks(training_chief_hooks, "training_chief_hooks"),
            training_hooks=_check_hooks(training_hooks, "training_hooks"),
            scaffold=scaffold or Scaffold(),
            evaluation_hooks=_check_hooks(evaluation_hooks, "evaluation_hooks"),
            prediction_hooks=_check_hooks(prediction_hooks, "prediction_hooks"))

    def _replace(self, **kwargs: Any) -> EstimatorSpec:
        """A copy with ``kwargs``' fields replaced (checked again).

        Args:
          **kwargs: Fields to replace.

        Returns:
          The new EstimatorSpec.
        """
        if "mode" in kwargs and kwargs["mode"] != self.mode:
            raise ValueError("mode of EstimatorSpec cannot be changed.")
        return EstimatorSpec(**{**self._asdict(), **kwargs})
