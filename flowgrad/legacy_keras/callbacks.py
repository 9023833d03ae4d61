"""``keras.callbacks``: hooks into fit/evaluate/predict (History, ProgbarLogger,
EarlyStopping, TensorBoard, LambdaCallback)."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from flowgrad.legacy_keras.utils import Progbar


class Callback:
    """Base class: override the ``on_*`` hooks; ``self.model`` is the model being fit."""

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict = {}

    def set_model(self, model: Any) -> None:
        self.model = model

    def set_params(self, params: dict) -> None:
        self.params = params

    def on_train_begin(self, logs: dict | None = None) -> None: ...
    def on_train_end(self, logs: dict | None = None) -> None: ...
    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None: ...
    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None: ...
    def on_test_begin(self, logs: dict | None = None) -> None: ...
    def on_test_end(self, logs: dict | None = None) -> None: ...
    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None: ...
    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None: ...
    def on_predict_begin(self, logs: dict | None = None) -> None: ...
    def on_predict_end(self, logs: dict | None = None) -> None: ...
    def on_predict_batch_begin(self, batch: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None: ...


class CallbackList(Callback):
    """Calls each hook on every callback in order.

    Args:
        callbacks: The callbacks to call in turn.
        model: The model they are attached to.
        **params: The training parameters (``epochs``, ``steps``, ``verbose``) passed to each
            callback's ``set_params``.
    """

    def __init__(self, callbacks: Any = None, model: Any = None, **params: Any):
        super().__init__()
        self.callbacks = list(callbacks or [])
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model: Any) -> None:
        super().set_model(model)
        for c in self.callbacks:
            c.set_model(model)

    def set_params(self, params: dict) -> None:
        super().set_params(params)
        for c in self.callbacks:
            c.set_params(params)

    def _call(self, hook: str, *args: Any) -> None:
        for c in self.callbacks:
            getattr(c, hook)(*args)

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._call("on_train_begin", logs)

    def on_train_end(self, logs: dict | None = None) -> None:
        self._call("on_train_end", logs)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._call("on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._call("on_train_batch_end", batch, logs)

    def on_test_begin(self, logs: dict | None = None) -> None:
        self._call("on_test_begin", logs)

    def on_test_end(self, logs: dict | None = None) -> None:
        self._call("on_test_end", logs)

    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._call("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._call("on_test_batch_end", batch, logs)

    def on_predict_begin(self, logs: dict | None = None) -> None:
        self._call("on_predict_begin", logs)

    def on_predict_end(self, logs: dict | None = None) -> None:
        self._call("on_predict_end", logs)

    def on_predict_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._call("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._call("on_predict_batch_end", batch, logs)


class History(Callback):
    """Records each epoch's logs: ``history.history['loss']`` is the list of epoch losses."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epoch = []

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self


def _ordered(logs: dict) -> list:
    """Log items as Keras prints them: metrics by name, then validation metrics by name."""
    keys = sorted(k for k in logs if not k.startswith("val_")) + \
        sorted(k for k in logs if k.startswith("val_"))
    return [(k, logs[k]) for k in keys]


class ProgbarLogger(Callback):
    """Prints 'Epoch i/n' and a progress bar per epoch (fit), or one bar (evaluate/predict)."""

    def __init__(self) -> None:
        super().__init__()
        self._bar: Progbar | None = None
        self._seen = 0

    def _start(self, steps: int | None) -> None:
        self._seen = 0
        self._bar = Progbar(target=steps, verbose=self.params.get("verbose", 1),
                            stateful_metrics=())

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        if self.params.get("verbose", 1) and self.params.get("epochs", 1) > 1:
            print("Epoch %d/%d" % (epoch + 1, self.params.get("epochs", 1)))
        self._start(self.params.get("steps"))

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._seen = batch + 1
        self._bar.update(self._seen, _ordered(logs or {}), finalize=False)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self._bar.target is None:
            self._bar.target = self._seen
            self.params["steps"] = self._seen
        self._bar.update(self._seen, _ordered(logs or {}), finalize=True)

    def on_test_begin(self, logs: dict | None = None) -> None:
        if self.model is not None and getattr(self.model, "_in_fit", False):
            return
        self._start(self.params.get("steps"))

    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if self.model is not None and getattr(self.model, "_in_fit", False):
            return
        self._seen = batch + 1
        self._bar.update(self._seen, _ordered(logs or {}), finalize=False)

    def on_test_end(self, logs: dict | None = None) -> None:
        if self.model is not None and getattr(self.model, "_in_fit", False):
            return
        if self._bar.target is None:
            self._bar.target = self._seen
        self._bar.update(self._seen, _ordered(logs or {}), finalize=True)

    def on_predict_begin(self, logs: dict | None = None) -> None:
        self._start(self.params.get("steps"))

    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._seen = batch + 1
        self._bar.update(self._seen, finalize=False)

    def on_predict_end(self, logs: dict | None = None) -> None:
        if self._bar.target is None:
            self._bar.target = self._seen
        self._bar.update(self._seen, finalize=True)


class LambdaCallback(Callback):
    """A callback from functions: ``on_epoch_end=lambda epoch, logs: ...`` and so on.

    Args:
        on_epoch_begin: Called with (epoch, logs).
        on_epoch_end: Called with (epoch, logs).
        on_train_begin: Called with (logs).
        on_train_end: Called with (logs).
        on_train_batch_begin: Called with (batch, logs).
        on_train_batch_end: Called with (batch, logs).
        **kwargs: More ``on_*`` hooks by name.
    """

    def __init__(self, on_epoch_begin: Any = None, on_epoch_end: Any = None,
                 on_train_begin: Any = None, on_train_end: Any = None,
                 on_train_batch_begin: Any = None, on_train_batch_end: Any = None,
                 **kwargs: Any):
        super().__init__()
        hooks = dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                     on_train_begin=on_train_begin, on_train_end=on_train_end,
                     on_train_batch_begin=on_train_batch_begin,
                     on_train_batch_end=on_train_batch_end, **kwargs)
        for name, fn in hooks.items():
            if fn is not None:
                setattr(self, name, fn)


class EarlyStopping(Callback):
    """Stops training when ``monitor`` has not improved by ``min_delta`` for ``patience``
    epochs; optionally restores the weights of the best epoch.

    Args:
        monitor: The logged quantity to watch (such as ``"val_loss"``).
        min_delta: The smallest change that counts as an improvement.
        patience: How many epochs without improvement to wait before stopping.
        verbose: 0 (silent) or 1 (print a line when the callback acts).
        mode: ``"min"``, ``"max"`` or ``"auto"`` (from ``monitor``'s name): which way is better.
        baseline: A value ``monitor`` must improve on; None for none.
        restore_best_weights: Whether to restore the best epoch's weights when stopping.
        start_from_epoch: How many epochs to wait before watching.
    """

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0, patience: int = 0,
                 verbose: int = 0, mode: str = "auto", baseline: float | None = None,
                 restore_best_weights: bool = False, start_from_epoch: int = 0):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        if mode not in ("auto", "min", "max"):
            raise ValueError("EarlyStopping mode %s is unknown, expected one of (auto, min, "
                             "max)" % mode)
        if mode == "auto":
            mode = "max" if monitor.endswith(("acc", "accuracy", "auc")) else "min"
        self._sign = 1.0 if mode == "max" else -1.0
        self.wait = 0
        self.stopped_epoch = 0
        self.best: float = -np.inf
        self.best_weights: Any = None
        self.best_epoch = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def _improved(self, value: float, reference: float) -> bool:
        return self._sign * value - self.min_delta > reference

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        value = (logs or {}).get(self.monitor)
        if value is None:
            import warnings
            warnings.warn("Early stopping conditioned on metric `%s` which is not available. "
                          "Available metrics are: %s" % (self.monitor, ",".join(logs or {})),
                          stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._improved(value, self.best):
            self.best = self._sign * value
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._improved(value, self._sign * self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs: dict | None = None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print("Epoch %d: early stopping" % (self.stopped_epoch + 1))
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: %d."
                      % (self.best_epoch + 1))
            self.model.set_weights(self.best_weights)


class TerminateOnNaN(Callback):
    """Stops training as soon as a batch's loss is NaN or infinite."""

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and not np.isfinite(loss):
            print("Batch %d: Invalid loss, terminating training" % batch)
            self.model.stop_training = True


class ModelCheckpoint(Callback):
    """Saves the model's weights (``model.save_weights``) after each epoch, or only when
    ``monitor`` improved (``save_best_only``). ``filepath`` may hold ``{epoch}`` and log
    names, e.g. ``'ckpt-{epoch:02d}-{val_loss:.2f}.weights.h5'``.

    Args:
        filepath: Where to save; may hold ``{epoch}`` and logged values (``{val_loss:.2f}``).
        monitor: The logged quantity to watch (such as ``"val_loss"``).
        verbose: 0 (silent) or 1 (print a line when the callback acts).
        save_best_only: Whether to save only when ``monitor`` improved.
        save_weights_only: Whether to save only the weights (``.weights.h5``) rather than the model
            (``.keras``).
        mode: ``"min"``, ``"max"`` or ``"auto"`` (from ``monitor``'s name): which way is better.
        save_freq: ``"epoch"``, or a number of batches between saves.
        initial_value_threshold: The value ``monitor`` must beat for the first save.
    """

    def __init__(self, filepath: str, monitor: str = "val_loss", verbose: int = 0,
                 save_best_only: bool = False, save_weights_only: bool = False,
                 mode: str = "auto", save_freq: Any = "epoch",
                 initial_value_threshold: float | None = None):
        super().__init__()
        if not save_weights_only:
            raise NotImplementedError("flowgrad saves weights only (no whole-model files): pass "
                                      "save_weights_only=True")
        if save_freq != "epoch":
            raise NotImplementedError("flowgrad's ModelCheckpoint saves once per epoch "
                                      "(save_freq='epoch')")
        if mode not in ("auto", "min", "max"):
            raise ValueError("ModelCheckpoint mode %s is unknown, expected one of (auto, min, "
                             "max)" % mode)
        if mode == "auto":
            mode = "max" if monitor.endswith(("acc", "accuracy", "auc")) else "min"
        self.filepath = os.fspath(filepath)
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self._sign = 1.0 if mode == "max" else -1.0
        self.best = -np.inf if initial_value_threshold is None else \
            self._sign * initial_value_threshold

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            value = logs.get(self.monitor)
            if value is None:
                import warnings
                warnings.warn("Can save best model only with %s available, skipping."
                              % self.monitor, stacklevel=2)
                return
            if self._sign * value <= self.best:
                if self.verbose > 0:
                    print("\nEpoch %d: %s did not improve from %.5f"
                          % (epoch + 1, self.monitor, self._sign * self.best))
                return
            if self.verbose > 0:
                print("\nEpoch %d: %s improved from %.5f to %.5f, saving model to %s"
                      % (epoch + 1, self.monitor, self._sign * self.best, value, path))
            self.best = self._sign * value
        elif self.verbose > 0:
            print("\nEpoch %d: saving model to %s" % (epoch + 1, path))
        self.model.save_weights(path)


class TensorBoard(Callback):
    """Writes epoch metrics to TensorBoard event files: ``log_dir/train`` gets
    ``epoch_loss``, ``epoch_<metric>`` (and ``epoch_learning_rate``), ``log_dir/validation``
    the validation metrics under the same names. ``update_freq='batch'`` or N also
    writes ``batch_<metric>`` every N training steps. Needs ``pip install
    flowgrad[tensorboard]``.

    Args:
        log_dir: The directory of the event files (``train/`` and ``validation/`` under it).
        histogram_freq: Every how many epochs to write the weights' histograms; 0 for never.
        write_graph: Accepted for Keras's signature.
        write_images: Accepted for Keras's signature.
        write_steps_per_second: Accepted for Keras's signature.
        update_freq: ``"epoch"``, ``"batch"`` or a number of batches between writes.
        profile_batch: Accepted for Keras's signature (no profiler).
        embeddings_freq: Accepted for Keras's signature.
        embeddings_metadata: Accepted for Keras's signature.
    """

    def __init__(self, log_dir: str = "logs", histogram_freq: int = 0,
                 write_graph: bool = True, write_images: bool = False,
                 write_steps_per_second: bool = False, update_freq: Any = "epoch",
                 profile_batch: int = 0, embeddings_freq: int = 0,
                 embeddings_metadata: Any = None):
        super().__init__()
        self.log_dir = str(log_dir)
        self.histogram_freq = histogram_freq
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._writers: dict = {}
        self._step = 0

    def _writer(self, which: str) -> Any:
        from flowgrad import summary
        if which not in self._writers:
            self._writers[which] = summary.create_file_writer(os.path.join(self.log_dir,
                                                                           which))
        return self._writers[which]

    def _write(self, which: str, items: dict, step: int) -> None:
        from flowgrad import summary
        with self._writer(which).as_default():
            for name, value in items.items():
                summary.scalar(name, float(value), step=step)

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._writer("train")

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._step += 1
        if isinstance(self.update_freq, int) and self._step % self.update_freq == 0:
            self._write("train", {"batch_" + k: v for k, v in (logs or {}).items()},
                        self._step)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        train = {"epoch_" + k: v for k, v in logs.items() if not k.startswith("val_")}
        lr = getattr(getattr(self.model, "optimizer", None), "learning_rate", None)
        if lr is not None:
            train["epoch_learning_rate"] = float(np.asarray(lr))
        self._write("train", train, epoch)
        val = {"epoch_" + k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        if val:
            self._write("validation", val, epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            from flowgrad import summary
            with self._writer("train").as_default():
                for w in self.model.weights:
                    summary.histogram(getattr(w, "path", w.name), w.numpy(), step=epoch)

    def on_train_end(self, logs: dict | None = None) -> None:
        for w in self._writers.values():
            w.close()
        self._writers.clear()


__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "LambdaCallback",
           "TerminateOnNaN", "EarlyStopping", "ModelCheckpoint", "TensorBoard"]
