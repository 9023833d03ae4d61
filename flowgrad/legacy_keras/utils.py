"""``keras.utils``: the progress bar Keras prints during fit/evaluate/predict, and helpers."""
from __future__ import annotations

import math
import sys
import time
from typing import Any

import numpy as np

from flowgrad.legacy_keras.data_utils import get_file
from flowgrad.legacy_keras.migration_utils import DeterministicRandomTestTool
from flowgrad.legacy_keras.variable_scope_shim import track_tf1_style_variables


class Progbar:
    """Keras's progress bar: ``12/50 ━━━━━━━━━━━━━━━━━━━━ 1s 20ms/step - loss: 0.3``.

    ``verbose=1`` redraws one line (``\\r`` on a terminal, a new line otherwise) and ends
    it when ``current`` reaches ``target``; ``verbose=2`` prints only the final line.
    Values of names in ``stateful_metrics`` are shown as given; the others are averaged
    over the steps of the epoch (the final update shows its values as given).

    Args:
        target: The total number of steps; None if unknown.
        width: The bar's width in characters.
        verbose: 0 (silent), 1 (a bar) or 2 (a line at the end).
        interval: The shortest time between updates, in seconds.
        stateful_metrics: Names of metrics shown as they are rather than averaged.
        unit_name: The name of a step in the display.
        file: Where to write; ``sys.stdout`` when None.
    """

    def __init__(self, target: int | None, width: int = 20, verbose: int = 1,
                 interval: float = 0.05, stateful_metrics: Any = None,
                 unit_name: str = "step", file: Any = None):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics or ())
        self._file = file
        out = self._out
        self._dynamic = bool(getattr(out, "isatty", lambda: False)())
        self._values: dict = {}
        self._order: list = []
        self._seen = 0
        self._start = time.time()
        self._last_update = 0.0
        self._prev_width = 0

    @property
    def _out(self) -> Any:
        return self._file if self._file is not None else sys.stdout

    def _per_unit(self, current: int, now: float) -> float:
        return (now - self._start) / current if current else 0.0

    def _format_time(self, per_unit: float) -> str:
        if per_unit >= 1 or per_unit == 0:
            return " %.0fs/%s" % (per_unit, self.unit_name)
        if per_unit >= 1e-3:
            return " %.0fms/%s" % (per_unit * 1e3, self.unit_name)
        return " %.0fus/%s" % (per_unit * 1e6, self.unit_name)

    def _metrics_text(self) -> str:
        text = ""
        for k in self._order:
            v = self._values[k]
            avg = v[0] / max(1, v[1]) if isinstance(v, list) else v
            if isinstance(avg, (float, np.floating)):
                text += " - %s: %s" % (k, ("%.4f" % avg) if abs(avg) > 1e-3 else "%.4e" % avg)
            else:
                text += " - %s: %s" % (k, avg)
        return text

    def update(self, current: int, values: Any = None, finalize: bool | None = None) -> None:
        """Shows progress ``current`` of ``target`` with ``values`` [(name, value)]."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for k, v in values or ():
            if k not in self._order:
                self._order.append(k)
            v = float(v) if np.ndim(v) == 0 else v
            if k in self.stateful_metrics or finalize:
                self._values[k] = [v, 1]
            else:
                n = max(current - self._seen, 1)
                acc = self._values.setdefault(k, [0.0, 0])
                acc[0] += v * n
                acc[1] += n
        self._seen = current
        now = time.time()
        per_unit = self._per_unit(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            if self.target:
                digits = int(math.log10(self.target)) + 1
                filled = int(self.width * current / self.target)
                count = "%*d/%d" % (digits, current, self.target)
                if self._dynamic:       # Keras's colours: bold count, green done, grey to do
                    bar = "\x1b[1m%s\x1b[0m \x1b[32m%s\x1b[0m\x1b[37m%s\x1b[0m" % (
                        count, "━" * filled, "━" * (self.width - filled))
                else:
                    bar = count + " " + "━" * self.width
            else:
                bar = "%7d/Unknown" % current
            if self.target and not finalize:
                eta = per_unit * (self.target - current)
                info = " " + (("%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60))
                              if eta > 3600 else ("%d:%02d" % (eta // 60, eta % 60))
                              if eta > 60 else "%ds" % eta)
            else:
                info = " %.0fs" % (now - self._start)
            line = bar + info + self._format_time(per_unit) + self._metrics_text()
            pad = " " * max(0, self._prev_width - len(line))
            self._prev_width = len(line)
            prefix = "\r" if self._dynamic else ""
            end = "\n" if finalize or not self._dynamic else ""
            if self._dynamic or finalize:
                self._out.write(prefix + line + pad + end)
                self._out.flush()
        elif self.verbose == 2 and finalize and self.target:
            digits = int(math.log10(self.target)) + 1
            line = "%*d/%d - %.0fs -%s%s\n" % (digits, current, self.target, now - self._start,
                                               self._format_time(per_unit),
                                               self._metrics_text())
            self._out.write(line)
            self._out.flush()
        self._last_update = now

    def add(self, n: int, values: Any = None) -> None:
        self.update(self._seen + n, values)


def to_categorical(x: Any, num_classes: int | None = None) -> np.ndarray:
    """One-hot float32 rows for integer class labels.

    Args:
        x: An array of class ids.
        num_classes: The number of classes; ``max(x) + 1`` when None.
    """
    x = np.asarray(x, dtype="int64")
    shape = x.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    num_classes = int(x.max()) + 1 if num_classes is None else num_classes
    out = np.zeros((x.shape[0], num_classes), "float32")
    out[np.arange(x.shape[0]), x] = 1
    return out.reshape(shape + (num_classes,))


def set_random_seed(seed: int) -> None:
    """Seeds Python's, NumPy's and flowgrad's random generators.

    Args:
        seed: The seed of Python's, NumPy's and flowgrad's random generators.
    """
    import random

    from flowgrad.ops.random_ops import set_seed
    random.seed(seed)
    np.random.seed(seed)
    set_seed(seed)


__all__ = ["Progbar", "to_categorical", "set_random_seed", "get_file",
           "DeterministicRandomTestTool", "track_tf1_style_variables"]
