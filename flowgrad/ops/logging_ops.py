"""``tf.print`` (PrintV2) and the TF1 ``tf.Print`` identity that prints.

Eagerly ``tf.print`` prints at once. In a TF1 graph it returns the print op, which
runs when fetched or used as a control dependency. While ``tf.function`` traces,
or inside a cond branch / loop body, the op is registered as a side effect of the
graph (collection ``SIDE_EFFECTS``), and runs on every call of the function (or
every run of the branch/body), as TensorFlow's automatic control dependencies
make it."""
from __future__ import annotations

import logging
import pprint
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
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.string_ops import _as_string_kernel
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


def _stream_name(output_stream: Any) -> Any:
    """TensorFlow's name of a stream (``"stderr"``, ``"stdout"``, ``"log(info)"``, ...), kept
    in the op as a plain value; another writable object stays as it is."""
    if output_stream is sys.stderr:
        return "stderr"
    if output_stream is sys.stdout:
        return "stdout"
    if callable(output_stream) and getattr(output_stream, "__module__", "").startswith(
            "logging"):
        name = getattr(output_stream, "__name__", "")
        if name in ("info", "warning", "error"):
            return "log(%s)" % name
    return output_stream


def _as_array(v: Any) -> np.ndarray:
    """A printed value as an array (a string scalar as a 0-d object array)."""
    return np.asarray(v, dtype=object) if isinstance(v, bytes) else np.asarray(v)


def _ragged_text(values: np.ndarray, splits: list, summarize: int) -> str:
    """A ragged value as ``tf.print`` formats it (``ragged_tensor_to_string``): nested rows
    joined by ", ", numbers as ``tf.strings.as_string`` writes them, strings in quotes."""
    if values.dtype.kind in "SUO":
        flat = np.array(["'%s'" % (v.decode("utf-8", "replace") if isinstance(v, bytes)
                                   else str(v)).replace("\\", "\\\\").replace("'", "\\'")
                         for v in values.reshape(-1)], dtype=object)
    else:
        flat = np.array([t.decode() for t in _as_string_kernel(
            values.reshape(-1), precision=-1, scientific=False, shortest=False, width=-1,
            fill="")], dtype=object)
    pieces = flat.reshape(values.shape)

    def rows(x: np.ndarray) -> list:      # the uniform inner dimensions of the flat values
        if x.ndim == 1:
            return list(x)
        return ["[" + ", ".join(_summarized(rows(r), summarize)) + "]" for r in x]
    texts = rows(pieces)
    for row_splits in reversed(splits):
        texts = ["[" + ", ".join(_summarized(texts[int(lo):int(hi)], summarize)) + "]"
                 for lo, hi in zip(row_splits[:-1], row_splits[1:])]
    return "[" + ", ".join(_summarized(texts, summarize)) + "]"


def _summarized(pieces: list, summarize: int) -> list:
    if summarize >= 0 and len(pieces) > 2 * summarize:
        return pieces[:summarize] + ["..."] + pieces[len(pieces) - summarize:]
    return pieces


def _print_kernel(*values: Any, template: Any = (-1,), summarize: int = -1, end: str = "\n",
                  output_stream: Any = "stderr") -> None:
    """Prints the inputs into ``template``: texts and slots (-1: a string tensor as it is,
    TensorFlow's one-input PrintV2; 0: a tensor; k > 0: a ragged tensor's k + 1 parts)."""
    it = iter(values)
    parts = []
    for item in template:
        if isinstance(item, str):
            parts.append(item)
        elif item == -1:
            parts.append(_scalar_text(np.asarray(next(it))[()]))
        elif item == 0:
            parts.append(_array_text(_as_array(next(it)), summarize, True))
        else:       # a ragged tensor: its flat values, then ``item`` row splits
            flat = np.asarray(next(it))
            splits = [np.asarray(next(it)) for _ in range(item)]
            parts.append(_ragged_text(flat, splits, summarize))
    _stream_writer(output_stream)("".join(parts) + end)


register_op("PrintV2", _print_kernel, lambda ins, attrs: [], num_outputs=0, grad=_NO_GRADIENT,
            stateful=True, input_names=("input",))


_MARK = "\u2980%d\u2980"     # a printable character ``pformat`` leaves as it is


def _template(inputs: tuple, sep: str, tensors: list) -> tuple:
    """TensorFlow's print template: each input formatted by ``pprint.pformat`` (a string
    input as itself) with a placeholder for every tensor (a SparseTensor shows as
    ``SparseTensor(indices=..., values=..., shape=...)``), the quotes around bare
    placeholders removed; returned as a tuple of texts and slots (0: a dense tensor, k > 0: a
    ragged tensor's flat values and k row splits)."""
    slots: list = []

    def slot(kind: int) -> str:
        slots.append(kind)
        return _MARK % (len(slots) - 1)

    texts = []
    for x in inputs:
        if isinstance(x, str):
            texts.append(x)
            continue
        held = []
        for leaf in nest.flatten(x):
            if isinstance(leaf, SparseTensor):
                tensors.extend([leaf.indices, leaf.values, leaf.dense_shape])
                held.append("SparseTensor(indices=%s, values=%s, shape=%s)"
                            % (slot(0), slot(0), slot(0)))
            elif isinstance(leaf, RaggedTensor):
                tensors.append(leaf.flat_values)
                tensors.extend(leaf.nested_row_splits)
                held.append(slot(len(leaf.nested_row_splits)))
            elif isinstance(leaf, TensorBase) or hasattr(leaf, "_as_tensor"):
                tensors.append(convert_to_tensor(leaf))
                held.append(slot(0))
            else:
                held.append(leaf)
        texts.append(pprint.pformat(nest.pack_sequence_as(x, held)))
    text = sep.join(texts)
    for k in range(len(slots)):
        text = text.replace("'%s'" % (_MARK % k), _MARK % k)
    template: list = []
    for i, chunk in enumerate(text.split("\u2980")):
        if i % 2:
            template.append(slots[int(chunk)])
        elif chunk:
            template.append(chunk)
    return tuple(template)


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
    _stream_writer(output_stream)           # refuses an unsupported stream at once
    tensors: list = []
    template = _template(inputs, sep, tensors)
    attrs = {"template": template, "summarize": -1 if summarize is None else summarize,
             "end": end, "output_stream": _stream_name(output_stream)}
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
