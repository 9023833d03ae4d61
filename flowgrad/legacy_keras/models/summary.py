"""``Model.summary()``: Keras 3's table of layers, output shapes and parameter counts."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _params(weights: list) -> int:
    return int(sum(np.prod(w.shape.as_list()) for w in weights))


def _size(n: int, itemsize: int = 4) -> str:
    b = float(n * itemsize)
    for unit in ("B", "KB", "MB", "GB"):
        if b < 1024 or unit == "GB":
            return "%.2f %s" % (b, unit)
        b /= 1024
    return "%.2f GB" % b


def print_summary(model: Any, print_fn: Callable, line_length: int | None = None) -> None:
    """Prints ``model``'s summary table with ``print_fn``."""
    widths = [31, 24, 15]
    if line_length:
        widths[0] = max(10, line_length - sum(widths[1:]) - 4)
    shapes = model._output_shapes()
    rows = []
    for layer in model.layers:
        shape = shapes.get(id(layer), "?")
        built = layer.built
        rows.append(("%s (%s)" % (layer.name, type(layer).__name__),
                     str(shape) if shape != "?" else "?",
                     f"{_params(layer.weights):,}" if built else "0 (unbuilt)"))

    def line(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def cells(values: tuple) -> str:
        a, b, c = values
        return "│ %s │ %s │ %s │" % (a[:widths[0]].ljust(widths[0]), b[:widths[1]].ljust(
            widths[1]), c.rjust(widths[2]))
    print_fn('Model: "%s"' % model.name)
    print_fn(line("┏", "━", "┳", "┓"))
    print_fn("┃ %s ┃ %s ┃ %s ┃" % ("Layer (type)".ljust(widths[0]),
                                    "Output Shape".ljust(widths[1]),
                                    "Param #".rjust(widths[2])))
    print_fn(line("┡", "━", "╇", "┩"))
    for i, row in enumerate(rows):
        print_fn(cells(row))
        if i < len(rows) - 1:
            print_fn(line("├", "─", "┼", "┤"))
    print_fn(line("└", "─", "┴", "┘"))
    total = _params(model.weights)
    trainable = _params(model.trainable_weights)
    print_fn(f" Total params: {total:,} ({_size(total)})")
    print_fn(f" Trainable params: {trainable:,} ({_size(trainable)})")
    print_fn(f" Non-trainable params: {total - trainable:,} ({_size(total - trainable)})")
