"""Event-file writers: TF1's ``FileWriter`` and TF2's ``create_file_writer``.

Both write through TensorBoard's own ``EventFileWriter`` (the optional
``tensorboard`` package), so the files are the ones TensorBoard reads."""
from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Iterator
from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.summary import protos


class _EventFile:
    """An open event file in ``logdir`` (events.out.tfevents.<time>.<host><suffix>)."""

    def __init__(self, logdir: str, max_queue: int, flush_secs: float, filename_suffix: str):
        protos.pb()
        from tensorboard.summary.writer.event_file_writer import EventFileWriter
        self.logdir = str(logdir)
        self._args = (max_queue, flush_secs, filename_suffix)
        self._writer = EventFileWriter(self.logdir, max_queue, flush_secs, filename_suffix)
        self.closed = False

    def add_event(self, event: Any) -> None:
        if self.closed:
            raise RuntimeError("The event writer for %s is closed." % self.logdir)
        if not event.wall_time:
            event.wall_time = time.time()
        self._writer.add_event(event)

    def add_summary(self, summary: Any, step: Any) -> None:
        pb = protos.pb()
        if isinstance(summary, (bytes, bytearray)):
            summary = pb.summary_pb2.Summary.FromString(bytes(summary))
        event = pb.event_pb2.Event(summary=summary)
        if step is not None:
            event.step = int(step)
        self.add_event(event)

    def add_graph(self, graph: Any, step: Any = None, graph_def: Any = None) -> None:
        from flowgrad.summary.graph_def import to_graph_def
        gd = graph_def if graph_def is not None else to_graph_def(graph)
        event = protos.pb().event_pb2.Event(graph_def=gd.SerializeToString())
        if step is not None:
            event.step = int(step)
        self.add_event(event)

    def flush(self) -> None:
        if not self.closed:
            self._writer.flush()

    def close(self) -> None:
        if not self.closed:
            self._writer.close()
            self.closed = True

    def reopen(self) -> None:
        if self.closed:
            from tensorboard.summary.writer.event_file_writer import EventFileWriter
            self._writer = EventFileWriter(self.logdir, *self._args)
            self.closed = False


class FileWriter:
    """Writes summaries, the graph and events to an event file (TF1 ``tf.summary.FileWriter``).

    ``graph`` (or ``session.graph``) is written for TensorBoard's graph tab.

    Args:
        logdir: The directory of the event file (created if missing).
        graph: A graph to write for TensorBoard's graph tab.
        max_queue: How many events to buffer before writing.
        flush_secs: The longest time between flushes, in seconds.
        graph_def: A GraphDef to write instead of ``graph``.
        filename_suffix: Appended to the event file's name.
        session: A session whose graph is written.
    """

    def __init__(self, logdir: str, graph: Any = None, max_queue: int = 10,
                 flush_secs: float = 120, graph_def: Any = None,
                 filename_suffix: str | None = None, session: Any = None):
        if executing_eagerly():
            raise RuntimeError("tf.summary.FileWriter is not compatible with eager execution. "
                               "Use `tf.summary.create_file_writer`, or a `with "
                               "v1.Graph().as_default():` context")
        self._file = _EventFile(logdir, max_queue, flush_secs, filename_suffix or "")
        self._seen_summary_tags: set = set()
        if session is not None and graph is None:
            graph = session.graph
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def get_logdir(self) -> str:
        return self._file.logdir

    def _closed(self) -> bool:
        """Whether the writer is closed, with TensorFlow's warning: writing then does nothing
        (``tf.train.Supervisor.stop`` closes it before ``managed_session`` stops again)."""
        if self._file.closed:
            warnings.warn("Attempting to use a closed FileWriter. The operation will be a noop "
                          "unless the FileWriter is explicitly reopened.", stacklevel=3)
        return self._file.closed

    def add_summary(self, summary: Any, global_step: Any = None) -> None:
        """Writes a Summary (serialized bytes from ``sess.run`` or a proto). As TensorFlow's,
        a tag's plugin metadata is written with its first value only."""
        if self._closed():
            return
        if isinstance(summary, (bytes, bytearray)):
            summary = protos.pb().summary_pb2.Summary.FromString(bytes(summary))
        for value in summary.value:
            if value.HasField("metadata"):
                if value.tag in self._seen_summary_tags:
                    value.ClearField("metadata")
                else:
                    self._seen_summary_tags.add(value.tag)
        self._file.add_summary(summary, global_step)

    def add_event(self, event: Any) -> None:
        if not self._closed():
            self._file.add_event(event)

    def add_graph(self, graph: Any, global_step: Any = None, graph_def: Any = None) -> None:
        """Writes ``graph`` (a flowgrad Graph) as a GraphDef for TensorBoard's graph tab."""
        if not self._closed():
            self._file.add_graph(graph, global_step, graph_def)

    def add_meta_graph(self, meta_graph_def: Any, global_step: Any = None) -> None:
        """Writes a ``MetaGraphDef`` (``tf.train.export_meta_graph()``'s) for TensorBoard.

        Args:
            meta_graph_def: The MetaGraphDef proto.
            global_step: The step of the event.

        Raises:
            TypeError: If ``meta_graph_def`` is not a MetaGraphDef.
        """
        if type(meta_graph_def).__name__ != "MetaGraphDef":
            raise TypeError("meta_graph_def must be type MetaGraphDef, saw type: %s"
                            % type(meta_graph_def))
        event = protos.pb().event_pb2.Event(meta_graph_def=meta_graph_def.SerializeToString())
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_session_log(self, session_log: Any, global_step: Any = None) -> None:
        event = protos.pb().event_pb2.Event(session_log=session_log)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def reopen(self) -> None:
        self._file.reopen()

    def __enter__(self) -> FileWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# --------------------------------------------------------------------------------------
# TF2


class _Default:
    writer: Any = None      # the SummaryWriter set by as_default / set_as_default
    step: Any = None        # tf.summary.experimental.set_step
    record: Any = True      # tf.summary.record_if


default = _Default()


class SummaryWriter:
    """A TF2 summary writer (``tf.summary.create_file_writer``).

    Args:
        logdir: The directory of the event file (created if missing).
        max_queue: How many events to buffer before writing; 10 when None.
        flush_millis: The longest time between flushes, in milliseconds; 120000 when None.
        filename_suffix: Appended to the event file's name.
    """

    def __init__(self, logdir: str, max_queue: int | None = None,
                 flush_millis: int | None = None, filename_suffix: str | None = None):
        self._file = _EventFile(logdir, 10 if max_queue is None else max_queue,
                                120 if flush_millis is None else flush_millis / 1000.0,
                                filename_suffix or ".v2")

    @property
    def logdir(self) -> str:
        return self._file.logdir

    @contextlib.contextmanager
    def as_default(self, step: Any = None) -> Iterator[SummaryWriter]:
        """Makes this the default writer inside the block (and ``step`` the default step)."""
        saved = default.writer, default.step
        default.writer = self
        if step is not None:
            default.step = step
        try:
            yield self
        finally:
            self.flush()
            default.writer, default.step = saved

    def set_as_default(self, step: Any = None) -> None:
        default.writer = self
        if step is not None:
            default.step = step

    def init(self) -> None:
        self._file.reopen()

    def write(self, value: Any, step: Any) -> None:
        self._file.add_summary(protos.pb().summary_pb2.Summary(value=[value]), step)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class NoopSummaryWriter(SummaryWriter):
    """A writer that writes nothing (``tf.summary.create_noop_writer``)."""

    def __init__(self) -> None:
        pass

    @property
    def logdir(self) -> str:
        return ""

    def init(self) -> None:
        pass

    def write(self, value: Any, step: Any) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass
