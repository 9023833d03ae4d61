"""The canned estimators of ``tf.estimator`` (TensorFlow 2.15's): ``DNNClassifier``,
``DNNRegressor``, ``LinearClassifier``, ``LinearRegressor`` over ``tf.feature_column``\\ s.

The networks and their variables are TensorFlow's (``dnn/hiddenlayer_<i>/kernel``,
``dnn/logits/bias``, ``linear/linear_model/<column>/weights``,
``linear/linear_model/bias_weights``), the heads TensorFlow's: two classes are one logit with
the sigmoid cross entropy, more classes a softmax, regression the squared error; their
predictions and evaluation metrics carry TensorFlow's keys. ``tf.estimator``'s classes
reduce the loss over the batch as a mean (``SUM_OVER_BATCH_SIZE``, TF2's), the
``tf.compat.v1.estimator`` ones as a sum (TF1's ``SUM``). The optimizers are
``tf.compat.v1.train``'s (a name, an instance, or a callable returning one)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from flowgrad.estimator.estimator import Estimator
from flowgrad.estimator.export_output import (ClassificationOutput, PredictOutput,
                                              RegressionOutput)
from flowgrad.estimator.mode_keys import ModeKeys
from flowgrad.estimator.model_fn import EstimatorSpec
from flowgrad.estimator.run_config import RunConfig
from flowgrad.feature_column_lib import input_layer, linear_logits
from flowgrad.framework import dtypes
from flowgrad.layers.core import dense
from flowgrad.metrics import metrics_impl as metrics
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat, tile
from flowgrad.ops.constant_ops import identity
from flowgrad.ops.elementwise_ops import sigmoid, square
from flowgrad.ops.fill_ops import ones_like, range as range_
from flowgrad.ops.init_ops import GlorotUniform, Zeros
from flowgrad.ops.lookup_ops import KeyValueTensorInitializer, StaticHashTable
from flowgrad.ops.nn_impl import sigmoid_cross_entropy_with_logits_v2
from flowgrad.ops.nn_ops import dropout_v2, relu, softmax
from flowgrad.ops.nn_ops import sparse_softmax_cross_entropy_with_logits_v2 as sparse_xent
from flowgrad.ops.reduction_ops import argmax_v2
from flowgrad.ops.shape_ops import expand_dims, reshape, shape, squeeze
from flowgrad.ops.string_ops import as_string
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.ops.variable_scope import get_variable, variable_scope
from flowgrad.train import adagrad, adam, ftrl, gradient_descent, rmsprop
from flowgrad.train.training_util import get_global_step
from flowgrad.framework.graph import GraphKeys, control_dependencies, get_collection
from flowgrad.ops.control_flow_ops import group
from flowgrad.ops.state_ops import assign_add

_OPTIMIZERS = {"Adagrad": adagrad.AdagradOptimizer, "Adam": adam.AdamOptimizer,
               "Ftrl": ftrl.FtrlOptimizer, "RMSProp": rmsprop.RMSPropOptimizer,
               "SGD": gradient_descent.GradientDescentOptimizer}
#: The DNN estimators' learning rate for an optimizer given by name (TensorFlow's).
_DNN_LEARNING_RATE = 0.05
_SUM = "sum"
_SUM_OVER_BATCH_SIZE = "sum_over_batch_size"


def _optimizer(optimizer: Any, learning_rate: float) -> Any:
    """An optimizer from a name (``"Adagrad"``...), an instance, or a callable."""
    if isinstance(optimizer, str):
        if optimizer not in _OPTIMIZERS:
            raise ValueError(f"Unsupported optimizer name: {optimizer}. Supported names are: "
                             f"{tuple(sorted(_OPTIMIZERS))}")
        return _OPTIMIZERS[optimizer](learning_rate=learning_rate)
    if callable(optimizer) and not hasattr(optimizer, "minimize"):
        optimizer = optimizer()
    if not hasattr(optimizer, "minimize"):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {optimizer}")
    return optimizer


class _Head:
    """A loss, predictions and metrics over logits: TensorFlow's canned heads."""

    def __init__(self, n_classes: int | None, label_dimension: int, weight_column: Any,
                 label_vocabulary: list | None, loss_reduction: str):
        if n_classes is not None and n_classes < 2:
            raise ValueError(f"n_classes must be > 1 for classification: {n_classes}")
        if loss_reduction not in (_SUM, _SUM_OVER_BATCH_SIZE):
            raise ValueError(f"Invalid loss_reduction: {loss_reduction}")
        self.n_classes = n_classes
        self.logits_dimension = (label_dimension if n_classes is None else
                                 1 if n_classes == 2 else n_classes)
        self._weight_column = weight_column
        self._vocabulary = list(label_vocabulary) if label_vocabulary else None
        self._reduction = loss_reduction

    def _weights(self, features: dict) -> Any:
        if self._weight_column is None:
            return 1.0
        key = getattr(self._weight_column, "key", self._weight_column)
        return reshape(cast(features[key], dtypes.float32), [-1, 1])

    def _label_ids(self, labels: Any) -> Any:
        labels = reshape(labels, [-1, 1])
        if self._vocabulary is not None:
            table = StaticHashTable(KeyValueTensorInitializer(
                self._vocabulary, list(range(len(self._vocabulary))),
                value_dtype=dtypes.int64), -1)
            return table.lookup(labels)
        return cast(labels, dtypes.int64)

    def _class_names(self) -> list:
        if self._vocabulary is not None:
            return [v.encode() if isinstance(v, str) else v for v in self._vocabulary]
        return [str(i).encode() for i in range(self.n_classes)]

    def _unreduced_loss(self, logits: Any, labels: Any) -> Any:
        if self.n_classes is None:
            return square(logits - cast(reshape(labels, [-1, self.logits_dimension]),
                                        dtypes.float32))
        ids = self._label_ids(labels)
        if self.n_classes == 2:
            return sigmoid_cross_entropy_with_logits_v2(cast(ids, dtypes.float32), logits)
        return expand_dims(sparse_xent(squeeze(ids, [1]), logits), 1)

    def predictions(self, logits: Any) -> dict:
        """TensorFlow's prediction dict of a head."""
        if self.n_classes is None:
            return {"predictions": logits}
        out = {"logits": logits}
        if self.n_classes == 2:
            logistic = sigmoid(logits)
            out["logistic"] = logistic
            probabilities = concat([1.0 - logistic, logistic], 1)
        else:
            probabilities = softmax(logits)
        out["probabilities"] = probabilities
        class_ids = expand_dims(argmax_v2(probabilities, 1), 1)
        out["class_ids"] = class_ids
        names = self._class_names()
        if self._vocabulary is not None:
            table = StaticHashTable(KeyValueTensorInitializer(
                list(range(len(names))), names, key_dtype=dtypes.int64,
                value_dtype=dtypes.string), b"")
            out["classes"] = table.lookup(class_ids)
        else:
            out["classes"] = as_string(class_ids)
        batch = shape(logits)[:1]
        all_ids = expand_dims(range_(self.n_classes, dtype=dtypes.int32), 0)
        out["all_class_ids"] = tile(all_ids, concat([batch, [1]], 0))
        from flowgrad.framework.tensor import constant
        out["all_classes"] = tile(expand_dims(constant(names), 0), concat([batch, [1]], 0))
        return out

    def spec(self, features: dict, mode: str, logits: Any, labels: Any,
             train_op_fn: Callable) -> EstimatorSpec:
        """The EstimatorSpec of a mode."""
        predictions = self.predictions(logits)
        if mode == ModeKeys.PREDICT:
            if self.n_classes is None:
                outputs = {"serving_default": RegressionOutput(predictions["predictions"])
                           if self.logits_dimension == 1 else
                           PredictOutput(predictions["predictions"]),
                           "predict": PredictOutput(predictions)}
                if self.logits_dimension == 1:
                    outputs["regression"] = outputs["serving_default"]
            else:
                classify = ClassificationOutput(scores=predictions["probabilities"],
                                                classes=predictions["all_classes"])
                outputs = {"serving_default": classify, "classification": classify,
                           "predict": PredictOutput(predictions)}
            return EstimatorSpec(mode, predictions=predictions, export_outputs=outputs)
        weights = self._weights(features)
        unreduced = self._unreduced_loss(logits, labels)
        weighted = unreduced * weights
        loss = reduce_sum(weighted)
        if self._reduction == _SUM_OVER_BATCH_SIZE:
            loss = loss / cast(reduce_sum(ones_like(unreduced)), dtypes.float32)
        loss = identity(loss, name="loss" if mode == ModeKeys.TRAIN else "eval_loss")
        if mode == ModeKeys.EVAL:
            return EstimatorSpec(mode, predictions=predictions, loss=loss,
                                 eval_metric_ops=self._metrics(predictions, labels,
                                                               unreduced, weights))
        return EstimatorSpec(mode, predictions=predictions, loss=loss,
                             train_op=train_op_fn(loss))

    def _metrics(self, predictions: dict, labels: Any, unreduced: Any, weights: Any) -> dict:
        w = None if isinstance(weights, float) else weights
        out = {"average_loss": metrics.mean(unreduced, weights=w)}
        if self.n_classes is None:
            out["label/mean"] = metrics.mean(cast(reshape(labels, [-1, self.logits_dimension]),
                                                  dtypes.float32), weights=w)
            out["prediction/mean"] = metrics.mean(predictions["predictions"], weights=w)
            return out
        ids = self._label_ids(labels)
        out["accuracy"] = metrics.accuracy(ids, predictions["class_ids"], weights=w)
        if self.n_classes == 2:
            labels_f = cast(ids, dtypes.float32)
            logistic = predictions["logistic"]
            out["prediction/mean"] = metrics.mean(logistic, weights=w)
            out["label/mean"] = metrics.mean(labels_f, weights=w)
            out["accuracy_baseline"] = _accuracy_baseline(out["label/mean"])
            out["auc"] = metrics.auc(labels_f, logistic, weights=w)
            out["auc_precision_recall"] = metrics.auc(labels_f, logistic, weights=w,
                                                      curve="PR")
            out["precision"] = metrics.precision(labels_f, predictions["class_ids"],
                                                 weights=w)
            out["recall"] = metrics.recall(labels_f, predictions["class_ids"], weights=w)
        return out


def _accuracy_baseline(label_mean: tuple) -> tuple:
    """TensorFlow's ``accuracy_baseline``: the accuracy of always predicting the majority
    class, ``max(mean, 1 - mean)`` of the labels."""
    from flowgrad.ops.arithmetic_ops import maximum
    value, update = label_mean
    return maximum(value, 1.0 - value), maximum(update, 1.0 - update)


def _dnn_logits(features: dict, feature_columns: list, hidden_units: list,
                activation_fn: Callable, dropout: float | None, units: int,
                training: bool) -> Any:
    with variable_scope("dnn"):
        with variable_scope("input_from_feature_columns"):
            net = input_layer(features, feature_columns)
        for i, width in enumerate(hidden_units):
            net = dense(net, width, activation=activation_fn,
                        kernel_initializer=GlorotUniform(), name="hiddenlayer_%d" % i)
            if dropout is not None and training:
                net = dropout_v2(net, rate=dropout)
        return dense(net, units, kernel_initializer=GlorotUniform(), name="logits")


def _linear_logits(features: dict, feature_columns: list, units: int) -> Any:
    """TensorFlow's ``linear_model`` in the canned estimators' scope ``linear``."""
    with variable_scope("linear"), variable_scope("linear_model"):
        return linear_logits(features, feature_columns, units)


def _check_columns(feature_columns: Any) -> list:
    columns = list(feature_columns or [])
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    return columns


class _Canned(Estimator):
    """An Estimator over a head and a network of logits."""

    _default_reduction = _SUM_OVER_BATCH_SIZE

    def _build(self, logits_fn: Callable, head: _Head, optimizer: Any, learning_rate: float,
               model_dir: str | None, config: RunConfig | None, warm_start_from: Any,
               towers: list | None = None) -> None:
        """``towers``: ``[(scope, optimizer, learning_rate)]`` trained each by its own
        optimizer (the combined estimators); else ``optimizer`` trains every variable."""
        def model_fn(features: dict, labels: Any, mode: str) -> EstimatorSpec:
            logits = logits_fn(features, mode == ModeKeys.TRAIN, head.logits_dimension)

            def train_op_fn(loss: Any) -> Any:
                if towers is None:
                    opt = _optimizer(optimizer, learning_rate)
                    return opt.minimize(loss, global_step=get_global_step())
                ops = [_optimizer(opt, rate).minimize(
                    loss, var_list=get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=scope))
                    for scope, opt, rate in towers]
                with control_dependencies([group(*ops)]):
                    return assign_add(get_global_step(), 1).op
            return head.spec(features, mode, logits, labels, train_op_fn)
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNClassifier(_Canned):
    """A feed-forward classifier (``tf.estimator.DNNClassifier``).

    Args:
      hidden_units: The widths of the hidden layers.
      feature_columns: The input columns (dense columns).
      model_dir: Where checkpoints go.
      n_classes: The number of classes (2: one logit, the sigmoid cross entropy).
      weight_column: A key or numeric column of example weights.
      label_vocabulary: String labels, in class order (else integer labels).
      optimizer: An optimizer, its name or a callable returning one (``"Adagrad"``,
        learning rate 0.05).
      activation_fn: The hidden layers' activation.
      dropout: The dropout rate while training (None: none).
      config: A RunConfig.
      warm_start_from: A checkpoint or WarmStartSettings.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
      batch_norm: Accepted (False only).
    """

    def __init__(self, hidden_units: list, feature_columns: list, model_dir: str | None = None,
                 n_classes: int = 2, weight_column: Any = None,
                 label_vocabulary: list | None = None, optimizer: Any = "Adagrad",
                 activation_fn: Callable = relu, dropout: float | None = None,
                 config: RunConfig | None = None, warm_start_from: Any = None,
                 loss_reduction: str | None = None, batch_norm: bool = False):
        columns = _check_columns(feature_columns)
        head = _Head(n_classes, 1, weight_column, label_vocabulary,
                     loss_reduction or self._default_reduction)
        self._build(lambda f, training, units: _dnn_logits(
            f, columns, list(hidden_units), activation_fn, dropout, units, training),
            head, optimizer, _DNN_LEARNING_RATE, model_dir, config, warm_start_from)


class DNNRegressor(_Canned):
    """A feed-forward regressor (``tf.estimator.DNNRegressor``).

    Args:
      hidden_units: The widths of the hidden layers.
      feature_columns: The input columns (dense columns).
      model_dir: Where checkpoints go.
      label_dimension: The number of regressed values per example.
      weight_column: A key or numeric column of example weights.
      optimizer: An optimizer, its name or a callable returning one (``"Adagrad"``,
        learning rate 0.05).
      activation_fn: The hidden layers' activation.
      dropout: The dropout rate while training.
      config: A RunConfig.
      warm_start_from: A checkpoint or WarmStartSettings.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
      batch_norm: Accepted (False only).
    """

    def __init__(self, hidden_units: list, feature_columns: list, model_dir: str | None = None,
                 label_dimension: int = 1, weight_column: Any = None,
                 optimizer: Any = "Adagrad", activation_fn: Callable = relu,
                 dropout: float | None = None, config: RunConfig | None = None,
                 warm_start_from: Any = None, loss_reduction: str | None = None,
                 batch_norm: bool = False):
        columns = _check_columns(feature_columns)
        head = _Head(None, label_dimension, weight_column, None,
                     loss_reduction or self._default_reduction)
        self._build(lambda f, training, units: _dnn_logits(
            f, columns, list(hidden_units), activation_fn, dropout, units, training),
            head, optimizer, _DNN_LEARNING_RATE, model_dir, config, warm_start_from)


def _linear_learning_rate(columns: list) -> float:
    """TensorFlow's default FTRL learning rate: ``min(0.2, 1 / sqrt(#columns))``."""
    return min(0.2, 1.0 / math.sqrt(len(columns)))


class LinearClassifier(_Canned):
    """A linear classifier (``tf.estimator.LinearClassifier``).

    Args:
      feature_columns: The input columns (dense or categorical).
      model_dir: Where checkpoints go.
      n_classes: The number of classes.
      weight_column: A key or numeric column of example weights.
      label_vocabulary: String labels, in class order.
      optimizer: An optimizer, its name or a callable (``"Ftrl"``, learning rate
        ``min(0.2, 1/sqrt(#columns))``).
      config: A RunConfig.
      partitioner: Accepted for TensorFlow's signature.
      warm_start_from: A checkpoint or WarmStartSettings.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
      sparse_combiner: ``"sum"`` (the only one supported).
    """

    def __init__(self, feature_columns: list, model_dir: str | None = None, n_classes: int = 2,
                 weight_column: Any = None, label_vocabulary: list | None = None,
                 optimizer: Any = "Ftrl", config: RunConfig | None = None,
                 partitioner: Any = None, warm_start_from: Any = None,
                 loss_reduction: str | None = None, sparse_combiner: str = "sum"):
        columns = _check_columns(feature_columns)
        _check_combiner(sparse_combiner)
        head = _Head(n_classes, 1, weight_column, label_vocabulary,
                     loss_reduction or self._default_reduction)
        self._build(lambda f, training, units: _linear_logits(f, columns, units), head,
                    optimizer, _linear_learning_rate(columns), model_dir, config,
                    warm_start_from)


class LinearRegressor(_Canned):
    """A linear regressor (``tf.estimator.LinearRegressor``).

    Args:
      feature_columns: The input columns (dense or categorical).
      model_dir: Where checkpoints go.
      label_dimension: The number of regressed values per example.
      weight_column: A key or numeric column of example weights.
      optimizer: An optimizer, its name or a callable (``"Ftrl"``).
      config: A RunConfig.
      partitioner: Accepted for TensorFlow's signature.
      warm_start_from: A checkpoint or WarmStartSettings.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
      sparse_combiner: ``"sum"`` (the only one supported).
    """

    def __init__(self, feature_columns: list, model_dir: str | None = None,
                 label_dimension: int = 1, weight_column: Any = None,
                 optimizer: Any = "Ftrl", config: RunConfig | None = None,
                 partitioner: Any = None, warm_start_from: Any = None,
                 loss_reduction: str | None = None, sparse_combiner: str = "sum"):
        columns = _check_columns(feature_columns)
        _check_combiner(sparse_combiner)
        head = _Head(None, label_dimension, weight_column, None,
                     loss_reduction or self._default_reduction)
        self._build(lambda f, training, units: _linear_logits(f, columns, units), head,
                    optimizer, _linear_learning_rate(columns), model_dir, config,
                    warm_start_from)


def _check_combiner(sparse_combiner: str) -> None:
    if sparse_combiner != "sum":
        from flowgrad.framework import errors
        raise errors.UnimplementedError(
            None, None, f"sparse_combiner={sparse_combiner!r}: flowgrad's linear estimators "
            "combine categorical weights by 'sum' only")


class DNNClassifierV1(DNNClassifier):
    _default_reduction = _SUM


class DNNRegressorV1(DNNRegressor):
    _default_reduction = _SUM


class LinearClassifierV1(LinearClassifier):
    _default_reduction = _SUM


class LinearRegressorV1(LinearRegressor):
    _default_reduction = _SUM


#: The combined estimators' learning rates for optimizers given by name (TensorFlow's).
_COMBINED_DNN_LEARNING_RATE = 0.001
_COMBINED_LINEAR_LEARNING_RATE = 0.005
#: The baseline estimators' FTRL learning rate (TensorFlow's).
_BASELINE_LEARNING_RATE = 0.3


def _combined(self: _Canned, head: _Head, model_dir: str | None, linear_feature_columns: Any,
              linear_optimizer: Any, dnn_feature_columns: Any, dnn_optimizer: Any,
              dnn_hidden_units: Any, dnn_activation_fn: Callable, dnn_dropout: float | None,
              config: RunConfig | None, warm_start_from: Any,
              linear_sparse_combiner: str) -> None:
    linear_columns = list(linear_feature_columns or [])
    dnn_columns = list(dnn_feature_columns or [])
    if not linear_columns and not dnn_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    if dnn_columns and not dnn_hidden_units:
        raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is "
                         f"specified. Given: {dnn_hidden_units}, {dnn_columns}")
    _check_combiner(linear_sparse_combiner)
    towers = []
    if dnn_columns:
        towers.append(("dnn", dnn_optimizer, _COMBINED_DNN_LEARNING_RATE))
    if linear_columns:
        linear_rate = min(_COMBINED_LINEAR_LEARNING_RATE,
                          1.0 / math.sqrt(len(linear_columns)))
        towers.append(("linear", linear_optimizer, linear_rate))

    def logits_fn(features: dict, training: bool, units: int) -> Any:
        logits = None
        if dnn_columns:
            logits = _dnn_logits(features, dnn_columns, list(dnn_hidden_units),
                                 dnn_activation_fn, dnn_dropout, units, training)
        if linear_columns:
            linear = _linear_logits(features, linear_columns, units)
            logits = linear if logits is None else logits + linear
        return logits
    self._build(logits_fn, head, None, 0.0, model_dir, config, warm_start_from, towers)


class DNNLinearCombinedClassifier(_Canned):
    """A wide (linear) and deep (DNN) classifier: the two logits summed, each tower trained
    by its own optimizer (``tf.estimator.DNNLinearCombinedClassifier``).

    Args:
      model_dir: Where checkpoints go.
      linear_feature_columns: The linear tower's columns.
      linear_optimizer: Its optimizer (``"Ftrl"``: learning rate
        ``min(0.005, 1/sqrt(#columns))``).
      dnn_feature_columns: The DNN tower's columns (dense).
      dnn_optimizer: Its optimizer (``"Adagrad"``: learning rate 0.001).
      dnn_hidden_units: The widths of the DNN's hidden layers.
      dnn_activation_fn: Their activation.
      dnn_dropout: The DNN's dropout rate while training.
      n_classes: The number of classes.
      weight_column: A key or numeric column of example weights.
      label_vocabulary: String labels, in class order.
      config: A RunConfig.
      warm_start_from: A checkpoint or WarmStartSettings.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
      batch_norm: Accepted (False only).
      linear_sparse_combiner: ``"sum"``.

    Raises:
      ValueError: neither tower has columns, or the DNN has columns but no hidden units.
    """

    def __init__(self, model_dir: str | None = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None,
                 dnn_optimizer: Any = "Adagrad", dnn_hidden_units: Any = None,
                 dnn_activation_fn: Callable = relu, dnn_dropout: float | None = None,
                 n_classes: int = 2, weight_column: Any = None,
                 label_vocabulary: list | None = None, config: RunConfig | None = None,
                 warm_start_from: Any = None, loss_reduction: str | None = None,
                 batch_norm: bool = False, linear_sparse_combiner: str = "sum"):
        head = _Head(n_classes, 1, weight_column, label_vocabulary,
                     loss_reduction or self._default_reduction)
        _combined(self, head, model_dir, linear_feature_columns, linear_optimizer,
                  dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
                  dnn_dropout, config, warm_start_from, linear_sparse_combiner)


class DNNLinearCombinedRegressor(_Canned):
    """A wide (linear) and deep (DNN) regressor (``tf.estimator.DNNLinearCombinedRegressor``).

    Args:
      model_dir: Where checkpoints go.
      linear_feature_columns: The linear tower's columns.
      linear_optimizer: Its optimizer (``"Ftrl"``).
      dnn_feature_columns: The DNN tower's columns (dense).
      dnn_optimizer: Its optimizer (``"Adagrad"``: learning rate 0.001).
      dnn_hidden_units: The widths of the DNN's hidden layers.
      dnn_activation_fn: Their activation.
      dnn_dropout: The DNN's dropout rate while training.
      label_dimension: The number of regressed values per example.
      weight_column: A key or numeric column of example weights.
      config: A RunConfig.
      warm_start_from: A checkpoint or WarmStartSettings.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
      batch_norm: Accepted (False only).
      linear_sparse_combiner: ``"sum"``.

    Raises:
      ValueError: neither tower has columns, or the DNN has columns but no hidden units.
    """

    def __init__(self, model_dir: str | None = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None,
                 dnn_optimizer: Any = "Adagrad", dnn_hidden_units: Any = None,
                 dnn_activation_fn: Callable = relu, dnn_dropout: float | None = None,
                 label_dimension: int = 1, weight_column: Any = None,
                 config: RunConfig | None = None, warm_start_from: Any = None,
                 loss_reduction: str | None = None, batch_norm: bool = False,
                 linear_sparse_combiner: str = "sum"):
        head = _Head(None, label_dimension, weight_column, None,
                     loss_reduction or self._default_reduction)
        _combined(self, head, model_dir, linear_feature_columns, linear_optimizer,
                  dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
                  dnn_dropout, config, warm_start_from, linear_sparse_combiner)


def _baseline_logits(features: Any, units: int) -> Any:
    """TensorFlow's baseline: one bias (``baseline/bias``) for every example."""
    first = features if not isinstance(features, dict) else next(
        features[k] for k in sorted(features))
    if hasattr(first, "dense_shape"):
        batch = first.dense_shape[:1]
    else:
        batch = shape(first)[:1]
    with variable_scope("baseline"):
        bias = get_variable("bias", [units], initializer=Zeros())
    return tile(expand_dims(bias, 0), concat([cast(batch, dtypes.int32), [1]], 0))


class BaselineClassifier(_Canned):
    """Predicts the classes' prior (one learned bias), ignoring the features
    (``tf.estimator.BaselineClassifier``).

    Args:
      model_dir: Where checkpoints go.
      n_classes: The number of classes.
      weight_column: A key or numeric column of example weights.
      label_vocabulary: String labels, in class order.
      optimizer: An optimizer, its name or a callable (``"Ftrl"``, learning rate 0.3).
      config: A RunConfig.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
    """

    def __init__(self, model_dir: str | None = None, n_classes: int = 2,
                 weight_column: Any = None, label_vocabulary: list | None = None,
                 optimizer: Any = "Ftrl", config: RunConfig | None = None,
                 loss_reduction: str | None = None):
        head = _Head(n_classes, 1, weight_column, label_vocabulary,
                     loss_reduction or self._default_reduction)
        self._build(lambda f, training, units: _baseline_logits(f, units), head, optimizer,
                    _BASELINE_LEARNING_RATE, model_dir, config, None)


class BaselineRegressor(_Canned):
    """Predicts the labels' mean (one learned bias), ignoring the features
    (``tf.estimator.BaselineRegressor``).

    Args:
      model_dir: Where checkpoints go.
      label_dimension: The number of regressed values per example.
      weight_column: A key or numeric column of example weights.
      optimizer: An optimizer, its name or a callable (``"Ftrl"``, learning rate 0.3).
      config: A RunConfig.
      loss_reduction: ``"sum_over_batch_size"`` (tf.estimator's) or ``"sum"``.
    """

    def __init__(self, model_dir: str | None = None, label_dimension: int = 1,
                 weight_column: Any = None, optimizer: Any = "Ftrl",
                 config: RunConfig | None = None, loss_reduction: str | None = None):
        head = _Head(None, label_dimension, weight_column, None,
                     loss_reduction or self._default_reduction)
        self._build(lambda f, training, units: _baseline_logits(f, units), head, optimizer,
                    _BASELINE_LEARNING_RATE, model_dir, config, None)


class DNNLinearCombinedClassifierV1(DNNLinearCombinedClassifier):
    _default_reduction = _SUM


class DNNLinearCombinedRegressorV1(DNNLinearCombinedRegressor):
    _default_reduction = _SUM


class BaselineClassifierV1(BaselineClassifier):
    _default_reduction = _SUM


class BaselineRegressorV1(BaselineRegressor):
    _default_reduction = _SUM


def _v1_doc(cls: type) -> None:
    """``cls``'s docstring: its base's, saying that it sums the loss (TF1's ``SUM``)."""
    base = cls.__mro__[1]
    _, _, args = base.__doc__.partition("\n\n")
    cls.__doc__ = ("``tf.compat.v1.estimator.%s``: the loss summed over the batch (TF1's "
                   "``SUM``).\n\n%s" % (base.__name__, args))


for _cls in (DNNClassifierV1, DNNRegressorV1, LinearClassifierV1, LinearRegressorV1,
             DNNLinearCombinedClassifierV1, DNNLinearCombinedRegressorV1, BaselineClassifierV1,
             BaselineRegressorV1):
    _v1_doc(_cls)
