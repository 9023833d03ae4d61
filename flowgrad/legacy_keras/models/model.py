"""``keras.Model``: a Layer with ``compile``/``fit``/``evaluate``/``predict``, weights files
and ``summary``.

``fit`` runs ``train_step`` once per batch: forward pass under a GradientTape, the
compiled loss (plus ``model.losses``), the optimizer's ``apply_gradients`` and the
metric updates. Unless ``compile(run_eagerly=True)``, each step runs inside a
flowgrad ``tf.function`` (traced once per batch shape). Before the first step the
model, the optimizer's slots and the metrics are built eagerly on the first batch.

``save_weights``/``load_weights`` use flowgrad's own file format, not HDF5: a NumPy
``.npz`` archive with one array per weight (in ``model.weights`` order) and the
weights' paths, written to a temporary file in the same directory and moved into
place with ``os.replace``, so a crash never leaves a half-written file."""
from __future__ import annotations

import json
import os
import warnings
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.tensor import EagerTensor, TensorBase
from flowgrad.runtime.function import function
from flowgrad.legacy_keras import callbacks as callbacks_lib
from flowgrad.legacy_keras import losses as losses_lib
from flowgrad.legacy_keras import metrics as metrics_lib
from flowgrad.legacy_keras import optimizers as optimizers_lib
from flowgrad.legacy_keras.layers.base import Layer, _keras_scope, _training_stack
from flowgrad.ops import math_ops
from flowgrad.autodiff.tape import GradientTape
from flowgrad.framework.type_hints import TensorLike

_WEIGHTS_FORMAT = "flowgrad-keras-weights-1"


# --------------------------------------------------------------------------------------
# Data


def _to_numpy(x: Any) -> Any:
    if isinstance(x, EagerTensor):
        return x.numpy()
    if isinstance(x, (list, tuple)) and x and all(np.ndim(v) > 0 or isinstance(v, TensorBase)
                                                  for v in x) and not np.isscalar(x[0]):
        return type(x)(_to_numpy(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    if x is None:
        return None
    arr = np.asarray(x)
    if arr.dtype.kind == "U":       # Keras's standardize_dtype refuses NumPy unicode arrays
        raise ValueError("Invalid dtype: %s" % arr.dtype.name)
    return arr


def _num_samples(x: Any) -> int:
    sizes = {int(np.shape(v)[0]) for v in nest.flatten(x)}
    if len(sizes) != 1:
        raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the same "
                         "number of samples. Sizes found: %s" % sorted(sizes))
    return sizes.pop()


def _take(x: Any, idx: Any) -> Any:
    return None if x is None else nest.map_structure(lambda a: a[idx], x)


def _is_dataset(x: Any) -> bool:
    return x is not None and not isinstance(x, (np.ndarray, list, tuple, dict, TensorBase)) \
        and hasattr(x, "__iter__")


def _unpack(data: Any) -> tuple:
    """(x, y, sample_weight) from a data element: x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, tuple):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
        raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                         "`(x, y, sample_weight)`, found: %r" % (data,))
    return data, None, None


class _Batches:
    """Batches of arrays (optionally shuffled each epoch) or the elements of a dataset."""

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None,
                 batch_size: int | None = None, shuffle: Any = False, steps: int | None = None,
                 rng: Any = None):
        self.dataset = x if _is_dataset(x) else None
        self.steps = steps
        self.ran_out = False
        self._iterator: Any = None
        self._continue = steps is not None     # steps_per_epoch: epochs share one iterator
        if self.dataset is not None:
            if y is not None:
                raise ValueError("`y` argument is not supported when using a dataset as input "
                                 "(the dataset yields (x, y) pairs).")
            if steps is None:
                try:
                    self.steps = len(self.dataset)
                except TypeError:
                    self.steps = None
            return
        if x is None:
            raise ValueError("Unrecognized data: x=None")
        self.x, self.y, self.sw = _to_numpy(x), _to_numpy(y), _to_numpy(sample_weight)
        self.n = _num_samples([v for v in (self.x, self.y, self.sw) if v is not None])
        self.batch_size = batch_size or 32
        self.shuffle = shuffle
        self.rng = rng
        n_batches = -(-self.n // self.batch_size)
        self.steps = n_batches if steps is None else min(steps, n_batches)

    def __iter__(self) -> Any:
        if self.dataset is not None:
            yield from self._dataset_epoch()
            return
        order = np.arange(self.n)
        if self.shuffle:
            order = self.rng.permutation(self.n)
        for b in range(self.steps):
            idx = order[b * self.batch_size:(b + 1) * self.batch_size]
            if not self.shuffle:
                idx = slice(b * self.batch_size, (b + 1) * self.batch_size)
            yield _take(self.x, idx), _take(self.y, idx), _take(self.sw, idx)


    def _dataset_epoch(self) -> Any:
        """One epoch of dataset elements; ``ran_out`` when it ended before ``steps``."""
        if self._iterator is None or not self._continue:
            self._iterator = iter(self.dataset)
        n = 0
        while self.steps is None or n < self.steps:
            try:
                element = next(self._iterator)
            except StopIteration:
                self._iterator = None
                self.ran_out = n == 0 or self._continue
                return
            n += 1
            yield _unpack(element if isinstance(element, tuple) else (element,))


def _class_sample_weight(class_weight: dict, x: Any, y: Any, sample_weight: Any) -> Any:
    """Per-sample weights ``class_weight[label]`` (times ``sample_weight`` if given)."""
    if _is_dataset(x):
        raise NotImplementedError("flowgrad's Model.fit applies class_weight to arrays only, "
                                  "not to datasets")
    y = _to_numpy(y)
    if nest.is_nested(y):
        raise ValueError("`class_weight` is only supported for Models with a single output.")
    labels = y.argmax(-1) if y.ndim > 1 and y.shape[-1] > 1 else y.reshape(len(y))
    labels = labels.astype(np.int64)
    missing = sorted(set(np.unique(labels).tolist()) - set(class_weight))
    if missing:
        raise ValueError("Expected `class_weight` to be a dict with keys from 0 to one less "
                         "than the number of classes, found %s; labels %s have no weight"
                         % (class_weight, missing))
    weights = np.array([class_weight[int(c)] for c in labels], np.float32)
    return weights if sample_weight is None else weights * _to_numpy(sample_weight)


def _shuffle_rng() -> np.random.Generator:
    from flowgrad.ops.random_ops import get_seed
    s1, s2 = get_seed(None)
    return np.random.default_rng(None if s1 is None else [s1, s2])


def _floats(logs: dict) -> dict:
    return {k: float(np.asarray(v)) for k, v in logs.items()}


def is_functional_call(args: tuple, kwargs: dict) -> bool:
    """Whether Model(...) arguments are (inputs, outputs) of the functional API.

    Args:
        args: The positional arguments given to ``Model(...)``.
        kwargs: The keyword arguments given to ``Model(...)``.

    Returns:
        True if they hold both ``inputs`` and ``outputs`` (positionally or by keyword),
        so that ``Model`` builds a functional model; False for a subclassed model.
    """
    return (len(args) >= 2) or ("inputs" in kwargs and "outputs" in kwargs) or (
        len(args) == 1 and "outputs" in kwargs)


# --------------------------------------------------------------------------------------
# Model


class Model(Layer):
    """A Layer that trains: subclass it (layers in ``__init__``, computation in ``call``) or
    build it from ``keras.Input`` tensors: ``Model(inputs, outputs)``.

    ``compile`` sets the optimizer, loss and metrics; ``fit``, ``evaluate`` and ``predict``
    train and run it on arrays, ``tf.data`` datasets or generators.

    Args:
        *args: ``(inputs, outputs)`` for the functional API (then ``Model`` returns a
            ``Functional``; see it for the arguments); a subclass takes none.
        **kwargs: For a subclassed model, the base ``Layer``'s arguments (``name``,
            ``trainable``, ``dtype``, ...); with ``inputs`` and ``outputs``, the
            functional API's.

    Raises:
        TypeError: If a subclassed model is given positional arguments or ``inputs``
            without ``outputs``.
    """

    # The subclass Model(inputs, outputs) makes; keras.models.functional registers it.
    _functional_class: type | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Model and is_functional_call(args, kwargs):
            return object.__new__(Model._functional_class)
        return object.__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any):
        if args or "inputs" in kwargs:
            raise TypeError("Model() takes (inputs, outputs) for the functional API, or only "
                            "keyword arguments (name, trainable, dtype) when subclassed")
        super().__init__(**kwargs)
        self.optimizer: Any = None
        self.compiled = False
        self.stop_training = False
        self.history: Any = None
        self.run_eagerly = False
        self._loss_spec: Any = None
        self._metric_specs: list = []
        self._compile_metrics: list | None = None
        self._loss_tracker: Any = None
        self._steps: dict = {}
        self._in_fit = False

    # -- building -------------------------------------------------------------------------
    def build(self, input_shape: Any = None) -> None:
        """Builds a subclassed model's layers by running ``call`` symbolically on inputs of
        ``input_shape`` (batch dimension included)."""
        from flowgrad.framework.tensor_shape import TensorShape
        from flowgrad.runtime.function import FuncGraph
        from flowgrad.ops.array_ops import placeholder
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")

        def ph(s: Any) -> Any:
            return placeholder(self._dtype, TensorShape(list(s)))
        nested = isinstance(input_shape, (list, tuple)) and input_shape and \
            isinstance(input_shape[0], (list, tuple))
        g = FuncGraph("keras_build")
        with g.as_default(), _keras_scope(self):
            inputs = [ph(s) for s in input_shape] if nested else ph(input_shape)
            kwargs = {"training": False} if self._call_has_training else {}
            _training_stack.append(False)
            try:
                self.call(inputs, **kwargs)
            finally:
                _training_stack.pop()
        self.built = True

    build._lazy = True      # type: ignore[attr-defined]  # __call__ builds sub-layers lazily

    # -- compile --------------------------------------------------------------------------
    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, loss_weights: Any = None,
                metrics: Any = None, weighted_metrics: Any = None, run_eagerly: bool = False,
                steps_per_execution: int = 1, jit_compile: Any = "auto",
                auto_scale_loss: bool = True) -> None:
        """Sets the optimizer (a name or an optimizer), the loss and the metrics for fit."""
        self.optimizer = optimizers_lib.get(optimizer)
        self._loss_spec = loss
        self._loss_weights = loss_weights
        self._metric_specs = list(metrics) if isinstance(metrics, (list, tuple)) else (
            [] if metrics is None else [metrics])
        self._compile_metrics = None
        self._loss_tracker = metrics_lib.Mean(name="loss")
        self.run_eagerly = bool(run_eagerly)
        self._steps = {}
        self.compiled = True

    @property
    def metrics(self) -> list:
        """The loss tracker, then the compiled metrics (once built by a first batch)."""
        out = [self._loss_tracker] if self._loss_tracker is not None else []
        return out + list(self._compile_metrics or [])

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        for m in self.metrics:
            m.reset_state()

    def _loss_fn(self, spec: Any) -> Any:
        fn = losses_lib.get(spec)
        if fn is not None and not isinstance(fn, losses_lib.Loss):
            fn = losses_lib.LossFunctionWrapper(fn)
        return fn

    def _build_metrics(self, y: Any, y_pred: Any) -> None:
        if self._compile_metrics is not None:
            return
        y_t = nest.flatten(y)[0] if y is not None else None
        y_p = nest.flatten(y_pred)[0]
        built = []
        for spec in self._metric_specs:
            if isinstance(spec, str) and spec.lower() in ("accuracy", "acc") and y_t is not None:
                t_shape, p_shape = np.shape(y_t), tuple(y_p.shape.as_list())
                if p_shape[-1] == 1:
                    m = metrics_lib.BinaryAccuracy(name=spec)
                elif len(t_shape) < len(p_shape) or (t_shape[-1] == 1 and p_shape[-1] > 1):
                    m = metrics_lib.SparseCategoricalAccuracy(name=spec)
                else:
                    m = metrics_lib.CategoricalAccuracy(name=spec)
            else:
                m = metrics_lib.get(spec)
                if isinstance(spec, str):
                    m.name = spec
            built.append(m)
        self._compile_metrics = built

    # -- steps ----------------------------------------------------------------------------
    def compute_loss(self, x: Any = None, y: Any = None, y_pred: TensorLike | None = None,
                     sample_weight: Any = None, training: bool = True) -> Any:
        """The compiled loss of (y, y_pred) plus the model's regularization losses."""
        terms = []
        if self._loss_spec is not None:
            specs = self._loss_spec
            preds, targets = nest.flatten(y_pred), nest.flatten(y)
            if not isinstance(specs, (list, tuple)):
                specs = [specs] * len(preds)
            if len(specs) != len(preds) or len(targets) != len(preds):
                raise ValueError("The model has %d outputs, but got %d losses and %d targets"
                                 % (len(preds), len(specs), len(targets)))
            weights = self._loss_weights or [1.0] * len(preds)
            for spec, t, p, w in zip(specs, targets, preds, weights):
                value = self._loss_fn(spec)(t, p, sample_weight)
                terms.append(value if w == 1.0 else value * w)
        terms.extend(math_ops.cast(v, "float32") if hasattr(v, "dtype") else v
                     for v in self.losses)
        if not terms:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        total = terms[0]
        for t in terms[1:]:
            total = total + t
        return total

    def compute_metrics(self, x: Any, y: Any, y_pred: TensorLike,
                        sample_weight: Any = None) -> dict:
        """Updates the compiled metrics with one batch; returns every metric's result."""
        first_pred = nest.flatten(y_pred)[0]
        first_true = nest.flatten(y)[0] if y is not None else None
        for m in self._compile_metrics or []:
            m.update_state(first_true, first_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        return {m.name: m.result() for m in self.metrics}

    def _batch_size(self, x: Any) -> Any:
        from flowgrad.ops.array_ops import shape
        first = nest.flatten(x)[0]
        return math_ops.cast(shape(first)[0], "float32")

    def train_step(self, data: Any) -> dict:
        """One optimization step on a batch ``(x, y[, sample_weight])``; returns the metrics."""
        x, y, sample_weight = _unpack(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
        self._loss_tracker.update_state(loss, sample_weight=self._batch_size(x))
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data: Any) -> dict:
        """Loss and metrics of one batch, without training."""
        x, y, sample_weight = _unpack(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=self._batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data: Any) -> Any:
        x, _, _ = _unpack(data)
        return self(x, training=False)

    def _step_function(self, kind: str) -> Any:
        fn = self._steps.get(kind)
        if fn is None:
            method = {"train": self.train_step, "test": self.test_step,
                      "predict": self.predict_step}[kind]

            def step(x: Any, y: Any, sample_weight: Any) -> Any:
                data = (x,) if y is None else ((x, y) if sample_weight is None
                                               else (x, y, sample_weight))
                return method(data)
            fn = self._steps[kind] = step if self.run_eagerly else function(step)
        return fn

    def _prepare(self, x: Any, y: Any, training: bool) -> None:
        """Builds the model, the optimizer's slots and the metrics on a first batch, eagerly."""
        if not executing_eagerly():
            raise RuntimeError("Model.fit/evaluate/predict run eagerly (TF2). In a TF1 graph, "
                               "call the model on placeholders and train with a "
                               "tf.compat.v1.train optimizer in a Session.")
        if not self.built or self._compile_metrics is None and self.compiled:
            y_pred = self(x, training=False)
            if self.compiled:
                self._build_metrics(y, y_pred)
        if training and not self.optimizer.built:
            self.optimizer.build(self.trainable_variables)

    def _require_compiled(self) -> None:
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    def _callbacks(self, callbacks: Any, verbose: int, **params: Any) -> Any:
        cbs = list(callbacks or [])
        if verbose and not any(isinstance(c, callbacks_lib.ProgbarLogger) for c in cbs):
            cbs.insert(0, callbacks_lib.ProgbarLogger())
        if params.pop("history", False):
            cbs.insert(1 if verbose else 0, callbacks_lib.History())
        return callbacks_lib.CallbackList(cbs, model=self, verbose=verbose, **params)

    # -- fit / evaluate / predict ---------------------------------------------------------
    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1,
            verbose: Any = "auto", callbacks: Any = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: Any = True, class_weight: Any = None,
            sample_weight: Any = None, initial_epoch: int = 0,
            steps_per_epoch: int | None = None, validation_steps: int | None = None,
            validation_batch_size: int | None = None, validation_freq: int = 1) -> Any:
        """Trains for ``epochs`` passes over the data; returns the History callback."""
        self._require_compiled()
        if class_weight is not None:
            sample_weight = _class_sample_weight(class_weight, x, y, sample_weight)
        verbose = 1 if verbose == "auto" else int(verbose)
        if validation_split and validation_data is None:
            if _is_dataset(x):
                raise ValueError("`validation_split` is only supported for NumPy arrays and "
                                 "tensors, not datasets.")
            x, y, sample_weight = _to_numpy(x), _to_numpy(y), _to_numpy(sample_weight)
            n = _num_samples(x)
            split = int(n * (1.0 - validation_split))
            validation_data = (_take(x, slice(split, None)), _take(y, slice(split, None)))
            x, y = _take(x, slice(0, split)), _take(y, slice(0, split))
            sample_weight = _take(sample_weight, slice(0, split))
        rng = _shuffle_rng() if shuffle and not _is_dataset(x) else None
        data = _Batches(x, y, sample_weight, batch_size, bool(shuffle), steps_per_epoch, rng)
        cbs = self._callbacks(callbacks, verbose, history=True, epochs=epochs, steps=data.steps)
        train = None
        self.stop_training = False
        self._in_fit = True
        logs: dict = {}
        try:
            cbs.on_train_begin()
            for epoch in range(initial_epoch, epochs):
                self.reset_metrics()
                cbs.on_epoch_begin(epoch)
                step_count = 0
                for step, (xb, yb, swb) in enumerate(data):
                    step_count += 1
                    if train is None:
                        self._prepare(xb, yb, training=True)
                        self.reset_metrics()
                        train = self._step_function("train")
                    cbs.on_train_batch_begin(step)
                    logs = _floats(train(xb, yb, swb))
                    cbs.on_train_batch_end(step, logs)
                    if self.stop_training:
                        break
                if data.ran_out:
                    warnings.warn("Your input ran out of data; interrupting training. Make sure "
                                  "that your dataset or generator can generate at least "
                                  "`steps_per_epoch * epochs` batches.", stacklevel=2)
                    self.stop_training = True
                    if step_count == 0:       # nothing trained in this epoch: do not log it
                        break
                epoch_logs = dict(logs)
                if validation_data is not None and (epoch + 1) % validation_freq == 0:
                    vx, vy, vsw = _unpack(validation_data) if isinstance(validation_data,
                                                                         tuple) else (
                        validation_data, None, None)
                    val = self.evaluate(vx, vy, batch_size=validation_batch_size or batch_size,
                                        sample_weight=vsw, steps=validation_steps, verbose=0,
                                        return_dict=True)
                    epoch_logs.update({"val_" + k: v for k, v in val.items()})
                cbs.on_epoch_end(epoch, epoch_logs)
                logs = epoch_logs
                if self.stop_training:
                    break
            cbs.on_train_end(logs)
        finally:
            self._in_fit = False
        return self.history

    def evaluate(self, x: Any = None, y: Any = None, batch_size: int | None = None,
                 verbose: Any = "auto", sample_weight: Any = None, steps: int | None = None,
                 callbacks: Any = None, return_dict: bool = False, **kwargs: Any) -> Any:
        """The loss and metrics over the data: a scalar (loss only), a list or a dict."""
        self._require_compiled()
        verbose = 1 if verbose == "auto" else int(verbose)
        data = _Batches(x, y, sample_weight, batch_size, False, steps)
        in_fit, self._in_fit = self._in_fit, False
        cbs = self._callbacks(callbacks, verbose, steps=data.steps) if not in_fit else \
            callbacks_lib.CallbackList([], model=self)
        test = None
        logs: dict = {}
        try:
            cbs.on_test_begin()
            self.reset_metrics() if self._compile_metrics is not None else None
            for step, (xb, yb, swb) in enumerate(data):
                if test is None:
                    self._prepare(xb, yb, training=False)
                    self.reset_metrics()
                    test = self._step_function("test")
                cbs.on_test_batch_begin(step)
                logs = _floats(test(xb, yb, swb))
                cbs.on_test_batch_end(step, logs)
            cbs.on_test_end(logs)
        finally:
            self._in_fit = in_fit
        if return_dict:
            return logs
        values = [logs[m.name] for m in self.metrics if m.name in logs]
        return values[0] if len(values) == 1 else values

    def predict(self, x: Any, batch_size: int | None = None, verbose: Any = "auto",
                steps: int | None = None, callbacks: Any = None) -> Any:
        """The model's outputs on ``x`` (NumPy arrays, batched and concatenated)."""
        verbose = 1 if verbose == "auto" else int(verbose)
        data = _Batches(x, None, None, batch_size, False, steps)
        cbs = self._callbacks(callbacks, verbose, steps=data.steps)
        outputs: list = []
        fn = None
        cbs.on_predict_begin()
        for step, (xb, _, _) in enumerate(data):
            if fn is None:
                if not self.built:
                    self(xb, training=False)
                fn = self._step_function("predict")
            cbs.on_predict_batch_begin(step)
            outputs.append(nest.map_structure(lambda t: np.asarray(t.numpy()), fn(xb, None,
                                                                                  None)))
            cbs.on_predict_batch_end(step, {})
        cbs.on_predict_end()
        if not outputs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). "
                             "Please use `Model.compile(..., run_eagerly=True)`, or "
                             "`tf.config.run_functions_eagerly(True)` for more information of "
                             "where went wrong, or file a issue/bug to `tf.keras`.")
        return nest.map_structure(lambda *xs: np.concatenate(xs, axis=0), *outputs)

    def train_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                       return_dict: bool = False) -> Any:
        """One training step on one batch; returns the metrics after it."""
        self._require_compiled()
        x, y, sample_weight = _to_numpy(x), _to_numpy(y), _to_numpy(sample_weight)
        self._prepare(x, y, training=True)
        logs = _floats(self._step_function("train")(x, y, sample_weight))
        if return_dict:
            return logs
        values = [logs[m.name] for m in self.metrics]
        return values[0] if len(values) == 1 else values

    def test_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                      return_dict: bool = False) -> Any:
        """Loss and metrics of one batch (the metrics are reset first)."""
        return self.evaluate(x, y, batch_size=_num_samples(_to_numpy(x)),
                             sample_weight=sample_weight, verbose=0, return_dict=return_dict)

    def predict_on_batch(self, x: Any) -> Any:
        return nest.map_structure(lambda t: np.asarray(t.numpy()),
                                  self(_to_numpy(x), training=False))

    # -- weights files --------------------------------------------------------------------
    def save_weights(self, filepath: str, overwrite: bool = True) -> None:
        """Writes every weight to ``filepath`` atomically (flowgrad's .npz-based format)."""
        filepath = os.fspath(filepath)
        if not overwrite and os.path.exists(filepath):
            raise FileExistsError("%s exists and overwrite=False" % filepath)
        weights = self.weights
        header = {"format": _WEIGHTS_FORMAT,
                  "paths": [getattr(w, "path", w.name) for w in weights]}
        arrays = {"w%d" % i: v for i, v in enumerate(self.get_weights())}
        from flowgrad.train.checkpoint_management import write_atomically  # train imports keras
        # a hidden temporary file renamed into place, written with the process's umask (not
        # mkstemp's 0600), orphans of killed saves removed, as checkpoints are written
        write_atomically(filepath, lambda f: np.savez(
            f, __header__=np.array(json.dumps(header)), **arrays))

    def load_weights(self, filepath: str, skip_mismatch: bool = False) -> None:
        """Reads weights written by ``save_weights`` (same architecture, same order)."""
        filepath = os.fspath(filepath)
        if not os.path.exists(filepath):
            raise FileNotFoundError("No such file or directory: %r" % filepath)
        foreign = ("it is not a flowgrad Keras weights file (flowgrad reads only the "
                   ".npz-based files model.save_weights writes, not HDF5)")
        try:
            try:
                archive = np.load(filepath, allow_pickle=False)
            except ValueError:
                raise ValueError(foreign) from None
            with archive as f:
                if not hasattr(f, "files") or "__header__" not in f.files:
                    raise ValueError(foreign)
                header = json.loads(str(f["__header__"]))
                if header.get("format") != _WEIGHTS_FORMAT:
                    raise ValueError("unknown weights format %r" % (header.get("format"),))
                values = [f["w%d" % i] for i in range(len(header["paths"]))]
        except FileNotFoundError:
            raise
        except Exception as e:      # any damage: a truncated zip, a flipped bit, bad JSON
            # Keras raises OSError for a weights file it cannot read
            raise OSError("Unable to read the weights file %s: %s: %s" % (
                filepath, type(e).__name__, e)) from e
        weights = self.weights
        if len(values) != len(weights):
            raise ValueError("Weights file %s holds %d weights, but model '%s' has %d"
                             % (filepath, len(values), self.name, len(weights)))
        for w, v, path in zip(weights, values, header["paths"]):
            if tuple(w.shape.as_list()) != v.shape and not skip_mismatch:
                raise ValueError("Weight %s of model '%s' has shape %s, but the file holds "
                                 "shape %s (saved as %s)"
                                 % (getattr(w, "path", w.name), self.name,
                                    tuple(w.shape.as_list()), v.shape, path))
        self.set_weights([v if tuple(w.shape.as_list()) == v.shape else w.numpy()
                          for w, v in zip(weights, values)])

    def save(self, filepath: str, overwrite: bool = True, **kwargs: Any) -> None:
        raise NotImplementedError("flowgrad does not save whole models (architecture + "
                                  "optimizer); use model.save_weights(path) and rebuild the "
                                  "model in code")

    # -- summary --------------------------------------------------------------------------
    def _output_shapes(self) -> dict:
        return {}

    def summary(self, line_length: int | None = None, positions: Any = None,
                print_fn: Any = None, expand_nested: bool = False,
                show_trainable: bool = False, layer_range: Any = None) -> None:
        """Prints the layers, their output shapes and parameter counts (Keras's table)."""
        from flowgrad.legacy_keras.models.summary import print_summary
        print_summary(self, print_fn or print, line_length)


__all__ = ["Model"]
