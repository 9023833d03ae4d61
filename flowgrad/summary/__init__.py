"""``tf.summary`` (TF2): write scalars, histograms, text and graphs to TensorBoard event files.

Eager mode: ``with tf.summary.create_file_writer(logdir).as_default():
tf.summary.scalar("loss", loss, step=step)``. The TF1 API (summary ops, merge_all,
FileWriter) is ``flowgrad.compat.v1.summary`` (module ``flowgrad.summary.v1``).
Writing needs the optional ``tensorboard`` package (``pip install flowgrad[tensorboard]``)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from flowgrad.summary import experimental
from flowgrad.summary.gradient_histograms import histogram_gradients
from flowgrad.summary.trace import trace_export, trace_off, trace_on
from flowgrad.summary.write_ops import audio, histogram, image, scalar, text, write
from flowgrad.summary.writer import NoopSummaryWriter, SummaryWriter, default
from flowgrad.framework.type_hints import TensorLike


def create_file_writer(logdir: str, max_queue: int | None = None,
                       flush_millis: int | None = None, filename_suffix: str | None = None,
                       name: str | None = None, experimental_trackable: bool = False,
                       experimental_mesh: Any = None) -> SummaryWriter:
    """A summary writer for an event file in ``logdir``.

    Args:
        logdir: The directory of the event file (created if missing).
        max_queue: How many events to buffer before writing; 10 when None.
        flush_millis: The longest time between flushes, in milliseconds; 120000 when None.
        filename_suffix: Appended to the event file's name.
        name: A name for the operation (optional).
        experimental_trackable: Accepted for TensorFlow's signature.
        experimental_mesh: Accepted for TensorFlow's signature.
    """
    return SummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer() -> SummaryWriter:
    """A writer that writes nothing."""
    return NoopSummaryWriter()


def graph(graph_data: Any) -> bool:
    """Writes a flowgrad Graph to the default writer for TensorBoard's graph tab.

    Args:
        graph_data: A ``tf.Graph`` or a ``GraphDef``.
    """
    writer = default.writer
    if writer is None or isinstance(writer, NoopSummaryWriter):
        return False
    writer._file.add_graph(graph_data)
    return True


def flush(writer: SummaryWriter | None = None, name: str | None = None) -> None:
    """Flushes ``writer`` (default: the default writer).

    Args:
        writer: The writer to flush; the default writer when None.
        name: A name for the operation (optional).
    """
    w = writer if writer is not None else default.writer
    if w is not None:
        w.flush()


@contextlib.contextmanager
def record_if(condition: TensorLike) -> Iterator[None]:
    """Summaries inside are written only when ``condition`` (a bool or a callable) holds.

    Args:
        condition: A bool, a boolean tensor or a callable returning one.
    """
    saved = default.record
    default.record = condition
    try:
        yield
    finally:
        default.record = saved


def should_record_summaries() -> bool:
    """Whether summaries written now would be recorded."""
    record = default.record() if callable(default.record) else default.record
    return default.writer is not None and bool(record)


__all__ = ["create_file_writer", "create_noop_writer", "SummaryWriter", "scalar", "histogram",
           "write",
           "text", "graph", "flush", "record_if", "should_record_summaries", "experimental",
           "histogram_gradients", "image", "audio", "trace_on", "trace_off", "trace_export"]


def __dir__() -> list:
    """TensorFlow 2's tf.summary names (and flowgrad's histogram_gradients); helpers stay out."""
    return sorted(__all__)
