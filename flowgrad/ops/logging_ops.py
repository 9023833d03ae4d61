"""``tf.print`` (PrintV2) and the TF1 ``tf.Print`` identity that prints.

Eagerly ``tf.print`` prints at once. In a TF1 graph it returns the print op, which
runs when fetched or used as a control dependency. While ``tf.function`` traces,
or inside a cond branch / loop body, the op is registered as a side effect of the
graph (collection ``SIDE_EFFECTS``), and runs on every call of the function (or
every run of the branch/body), as TensorFlow's automatic control dependencies
make it."""
from __future__ import annotations

import logging
import sys
import time
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.dtypes import float64
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.framework.type_hints import TensorLike



def _scalar_text(v: Any, quote: bool = False) -> str:
    """One element as TensorFlow prints it (floats: shortest of 6/9 or 15/17 digits; strings
    in double quotes for ``tf.print``, bare for TF1's ``tf.Print``)."""
    if isinstance(v, (bytes, np.bytes_)):
        text = v.decode("utf-8", "replace")
        return '"%s"' % text if quote else text
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (np.floating, float)):
        if isinstance(v, np.float64) or type(v) is float:
            s = "%.15g" % v
            return s if float(s) == v else "%.17g" % v
        s = "%.6g" % v
        return s if type(v)(s) == v else "%.9g" % v
    if isinstance(v, (np.complexfloating, complex)):
        return "(%s,%s)" % (_scalar_text(v.real), _scalar_text(v.imag))
    return str(v)


def _array_text(a: np.ndarray, summarize: int, quote: bool = False) -> str:
    """``[0 1 2 ... 7 8 9]`` with the first and last ``summarize`` entries per dimension."""
    if a.ndim == 0:
        return _scalar_text(a[()], quote)

    def rec(x: np.ndarray, depth: int) -> str:
        n = x.shape[0]
        if summarize >= 0 and n > 2 * summarize:
            idx = list(range(summarize)) + [None] + list(range(n - summarize, n))
        else:
            idx = list(range(n))
        if x.ndim == 1:
            return "[%s]" % " ".join("..." if i is None else _scalar_text(x[i], quote)
                                     for i in idx)
        sep = "\n" * (x.ndim - 1) + " " * (depth + 1)
        return "[%s]" % sep.join("..." if i is None else rec(x[i], depth + 1) for i in idx)
    return rec(a, 0)


def _stream_writer(output_stream: Any) -> Any:
    """A function writing one message to ``output_stream`` (resolved when the op runs)."""
    if output_stream is sys.stderr or output_stream == "stderr":
        return lambda s: sys.stderr.write(s)
    if output_stream is sys.stdout or output_stream == "stdout":
        return lambda s: sys.stdout.write(s)
    levels = {"log(info)": logging.INFO, "log(warning)": logging.WARNING,
              "log(error)": logging.ERROR}
    if isinstance(output_stream, str) and output_stream in levels:
        level = levels[output_stream]
        return lambda s: logging.getLogger("flowgrad").log(level, s.rstrip("\n"))
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        path = output_stream[len("file://"):]

        def to_file(s: str) -> None:
            with open(path, "a") as f:
                f.write(s)
        return to_file
    if callable(output_stream) and getattr(output_stream, "__module__", "").startswith(
            "logging"):
        return lambda s: output_stream(s.rstrip("\n"))
    if hasattr(output_stream, "write"):
        return output_stream.write
    raise ValueError("Unsupported output stream or logging level %r. Supported: sys.stdout, "
                     "sys.stderr, 'file://<path>', tf.compat.v1.logging.info/warning/error"
                     % (output_stream,))


def _as_array(v: Any) -> np.ndarray:
    """A printed value as an array (a string scalar as a 0-d object array)."""
    return np.asarray(v, dtype=object) if isinstance(v, bytes) else np.asarray(v)


def _print_kernel(*values: Any, template: Any, summarize: int, sep: str, end: str,
                  writer: Any) -> None:
    it = iter(values)
    parts = []
    for item in template:
        if item is _TENSOR:
            parts.append(_array_text(_as_array(next(it)), summarize, True))
        else:
            parts.append(item(lambda: _array_text(_as_array(next(it)), summarize, True)))
    writer(sep.join(parts) + end)


class _TensorSlot:
    """Marks a top-level tensor argument in a print template."""


_TENSOR = _TensorSlot()

register_op("PrintV2", _print_kernel, lambda ins, attrs: [], num_outputs=0, grad=_NO_GRADIENT,
            stateful=True, input_names=("input",))


def _structure_text(structure: Any, tensors: list) -> Any:
    """A function formatting ``structure`` with its tensors taken (in order) from ``next_text``."""
    flat = nest.flatten(structure)
    for x in flat:
        if isinstance(x, TensorBase):
            tensors.append(x)

    def fmt(next_text: Any) -> str:
        texts = [next_text() if isinstance(x, TensorBase) else x for x in flat]

        class _Raw(str):
            def __repr__(self) -> str:
                return str(self)
        return str(nest.pack_sequence_as(structure, [_Raw(t) if isinstance(x, TensorBase)
                                                     else t for x, t in zip(flat, texts)]))
    return fmt


def print_v2(*inputs: Any, output_stream: Any = sys.stderr, summarize: int | None = 3,
             sep: str = " ", end: str = "\n", name: str | None = None) -> Any:
    """Prints ``inputs`` (tensors, Python objects, structures of them), tensors summarized
    to their first and last ``summarize`` entries per dimension (None or -1: all).

    Args:
        *inputs: The tensors and Python values to print.
        output_stream: Where to print: ``sys.stderr``, ``sys.stdout``, a path prefixed
            ``file://``, or ``"log(info)"``, ``"log(warning)"``, ``"log(error)"``.
        summarize: How many first and last entries per dimension to print; None prints all.
        sep: The string between the inputs.
        end: The string after the last input.
        name: A name for the operation (optional).
    """
    writer = _stream_writer(output_stream)
    template: list = []
    tensors: list = []
    for x in inputs:
        if isinstance(x, TensorBase) or hasattr(x, "_as_tensor"):
            template.append(_TENSOR)
            tensors.append(convert_to_tensor(x))
        elif nest.is_nested(x) and any(isinstance(t, TensorBase) for t in nest.flatten(x)):
            template.append(_structure_text(x, tensors))
        else:
            template.append(lambda _n, s=str(x): s)
    attrs = {"template": tuple(template), "summarize": -1 if summarize is None else summarize,
             "sep": sep, "end": end, "writer": writer}
    op = apply_op("PrintV2", tensors, attrs, name=name)
    if executing_eagerly():
        return None
    get_default_graph().add_to_collection(SIDE_EFFECTS, op)
    return op


class _Counter:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0


def _print_v1_kernel(x: Any, *data: Any, message: str, first_n: int, summarize: int,
                     counter: _Counter) -> Any:
    counter.n += 1
    if first_n < 0 or counter.n <= first_n:
        parts = []
        for v in data:
            a = np.asarray(v).reshape(-1)
            shown = a[:summarize] if summarize >= 0 else a
            parts.append("[%s%s]" % (" ".join(_scalar_text(e) for e in shown),
                                     "..." if len(shown) < a.size else ""))
        sys.stderr.write(message + "".join(parts) + "\n")
    return x


def _print_v1_infer(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, ins[0].shape


def _print_v1_grad(op: Any, grad: Any) -> list:
    return [grad] + [None] * (len(op.inputs) - 1)


register_op("Print", _print_v1_kernel, _print_v1_infer, grad=_print_v1_grad, stateful=True,
            input_names=("input", "data"))


def Print(input_: TensorLike, data: list, message: str | None = None,  # noqa: N802 - TF's name
          first_n: int | None = None, summarize: int | None = None, name: str | None = None
          ) -> Any:
    """``input_`` unchanged, printing ``message`` and ``data`` to stderr when evaluated (the
    first ``first_n`` times; ``summarize`` entries of each tensor, 3 by default).

    Args:
        input_: The tensor returned (and whose evaluation prints).
        data: The tensors to print.
        message: A prefix of the printed line.
        first_n: Print only the first N times; always when None or negative.
        summarize: How many entries of each tensor to print.
        name: A name for the operation (optional).
    """
    attrs = {"message": message or "", "first_n": -1 if first_n is None else first_n,
             "summarize": 3 if summarize is None else summarize, "counter": _Counter()}
    return apply_op("Print", [input_] + list(data), attrs, name=name)


def _timestamp_kernel() -> np.ndarray:
    return np.asarray(time.time(), np.float64)


def _timestamp_infer(ins: list, attrs: dict) -> tuple:
    return float64, ()


register_op("Timestamp", _timestamp_kernel, _timestamp_infer, grad=_NO_GRADIENT, stateful=True)


def timestamp(name: str | None = None) -> Any:
    """The time of evaluation, in seconds since the epoch, as a float64 scalar.

    In a graph (a Session run, a ``tf.function``) the op reads the clock each time it runs,
    as TensorFlow's ``Timestamp`` op does; eagerly it reads it at once.

    Args:
      name: a name for the op.

    Returns:
      A float64 scalar tensor.
    """
    return apply_op("Timestamp", [], {}, name=name)


__all__ = ["print_v2", "Print", "timestamp"]
