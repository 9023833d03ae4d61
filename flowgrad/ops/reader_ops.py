"""TensorFlow 1's readers: ``tf.compat.v1.TFRecordReader``, ``TextLineReader``,
``WholeFileReader``, ``FixedLengthRecordReader`` and ``IdentityReader``.

A reader's ``read(queue)`` is an op (ReaderReadV2) that returns the next ``(key, value)``
record of the file it is reading, and dequeues the next file name from ``queue`` (a queue of
strings, usually a ``tf.train.string_input_producer``'s) when that file is done; once the
queue is closed and empty it raises the queue's ``OutOfRangeError``. Keys are TensorFlow's:
``"<file>:<byte offset>"`` for TFRecords, ``"<file>:<line number>"`` for text lines,
``"<file>:<record number>"`` for fixed-length records and the file name for whole files. A
reader's state (the file it is in) lives with its graph, as a queue's does."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError, NotFoundError, OutOfRangeError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.data_flow_ops import QueueBase
from flowgrad.ops.file_io import GFile
from flowgrad.ops.tf_record import iterate_records


class _ReaderState:
    """A reader's position: the records left of its current file, and its counters."""

    def __init__(self, records: Any, **options: Any) -> None:
        self.records = records              # records(path, **options) -> (key, value)s
        self.options = options
        self.current: Iterator | None = None
        self.produced = 0
        self.completed = 0
        self.lock = threading.Lock()

    def next_record(self, queue: Any) -> tuple:
        with self.lock:
            while True:
                if self.current is not None:
                    record = next(self.current, None)
                    if record is not None:
                        self.produced += 1
                        return record
                    self.current = None
                    self.completed += 1
                work = queue.dequeue(1)[0][0]
                path = work.decode() if isinstance(work, bytes) else str(work)
                self.current = iter(self.records(path, **self.options))

    def reset(self) -> None:
        with self.lock:
            self.current = None
            self.produced = self.completed = 0


def _read_bytes(path: str) -> bytes:
    try:
        with GFile(path, "rb") as f:
            return f.read()
    except (FileNotFoundError, NotFoundError):
        raise NotFoundError(None, None, "%s; No such file or directory" % path) from None


def _tf_records(path: str, compression_type: Any = None) -> Iterator:
    offset = 0
    for record in iterate_records(path, compression_type):
        yield ("%s:%d" % (path, offset)).encode(), record
        offset += len(record) + 16          # length, its CRC, the data and its CRC


def _text_lines(path: str, skip_header_lines: int = 0) -> Iterator:
    lines = _read_bytes(path).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if number > skip_header_lines:
            yield ("%s:%d" % (path, number)).encode(), line[:-1] if line.endswith(b"\r") \
                else line


def _whole_file(path: str) -> Iterator:
    yield path.encode(), _read_bytes(path)


def _fixed_length(path: str, record_bytes: int, header_bytes: int, footer_bytes: int,
                  hop_bytes: int) -> Iterator:
    data = _read_bytes(path)
    end = len(data) - footer_bytes
    step = hop_bytes or record_bytes
    for number, start in enumerate(range(header_bytes, end - record_bytes + 1, step)):
        yield ("%s:%d" % (path, number)).encode(), data[start:start + record_bytes]


def _identity(path: str) -> Iterator:
    yield path.encode(), path.encode()


def _queue_state(queue: Any) -> Any:
    if isinstance(queue, QueueBase):
        return queue._state
    return queue.op._attrs["queue"]          # a queue's handle tensor


def _reader_kernel(*, reader: _ReaderState, **attrs: Any) -> np.ndarray:
    return np.array(b"reader", object)


def _read_kernel(reader_handle: Any, queue_handle: Any, *, reader: _ReaderState,
                 queue: Any) -> tuple:
    key, value = reader.next_record(queue)
    return np.array(key, object), np.array(value, object)


def _read_up_to_kernel(reader_handle: Any, queue_handle: Any, n: Any, *,
                       reader: _ReaderState, queue: Any) -> tuple:
    n = int(n)
    if n <= 0:
        raise InvalidArgumentError(None, None, "num_records must be positive, got %d" % n)
    keys, values = [], []
    try:
        while len(keys) < n:
            key, value = reader.next_record(queue)
            keys.append(key)
            values.append(value)
    except OutOfRangeError:
        if not keys:
            raise
    return np.array(keys, object), np.array(values, object)


def _counter_kernel(what: str) -> Any:
    def kernel(reader_handle: Any, *, reader: _ReaderState) -> np.ndarray:
        return np.array(getattr(reader, what), np.int64)
    return kernel


def _reset_kernel(reader_handle: Any, *, reader: _ReaderState) -> None:
    reader.reset()


_S = TensorShape([])
for _type in ("TFRecordReaderV2", "TextLineReaderV2", "WholeFileReaderV2",
              "FixedLengthRecordReaderV2", "IdentityReaderV2"):
    register_op(_type, _reader_kernel, lambda ins, attrs: (dtypes.string, _S),
                grad=_NO_GRADIENT, stateful=True)
register_op("ReaderReadV2", _read_kernel,
            lambda ins, attrs: [(dtypes.string, _S), (dtypes.string, _S)], num_outputs=2,
            grad=_NO_GRADIENT, stateful=True, input_names=("reader_handle", "queue_handle"))
register_op("ReaderReadUpToV2", _read_up_to_kernel,
            lambda ins, attrs: [(dtypes.string, TensorShape([None]))] * 2, num_outputs=2,
            grad=_NO_GRADIENT, stateful=True,
            input_names=("reader_handle", "queue_handle", "num_records"))
register_op("ReaderNumRecordsProducedV2", _counter_kernel("produced"),
            lambda ins, attrs: (dtypes.int64, _S), grad=_NO_GRADIENT, stateful=True,
            input_names=("reader_handle",))
register_op("ReaderNumWorkUnitsCompletedV2", _counter_kernel("completed"),
            lambda ins, attrs: (dtypes.int64, _S), grad=_NO_GRADIENT, stateful=True,
            input_names=("reader_handle",))
register_op("ReaderResetV2", _reset_kernel, lambda ins, attrs: [], num_outputs=0,
            grad=_NO_GRADIENT, stateful=True, input_names=("reader_handle",))


class ReaderBase:
    """A reader of records from the files named in a queue (TensorFlow 1's ``ReaderBase``).

    Args:
        reader_ref: The reader's handle tensor.
        supports_serialize: Whether the reader can save its state (False here).
    """

    def __init__(self, reader_ref: Any, supports_serialize: bool = False) -> None:
        self._reader_ref = reader_ref
        self._state: _ReaderState = reader_ref.op._attrs["reader"]
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self) -> Any:
        return self._reader_ref

    @property
    def supports_serialize(self) -> bool:
        return self._supports_serialize

    def read(self, queue: Any, name: str | None = None) -> tuple:
        """The next ``(key, value)`` record (string scalars).

        Args:
            queue: A queue of file names (a ``QueueBase`` or its handle).
            name: A name for the operation (optional).
        """
        handle = queue.queue_ref if isinstance(queue, QueueBase) else queue
        return tuple(apply_op("ReaderReadV2", [self._reader_ref, handle],
                              {"reader": self._state, "queue": _queue_state(queue)},
                              name=name))

    def read_up_to(self, queue: Any, num_records: Any, name: str | None = None) -> tuple:
        """Up to ``num_records`` records: ``(keys, values)``, string vectors.

        Args:
            queue: A queue of file names (a ``QueueBase`` or its handle).
            num_records: The most records to read.
            name: A name for the operation (optional).
        """
        handle = queue.queue_ref if isinstance(queue, QueueBase) else queue
        n = convert_to_tensor(num_records, dtypes.int64, name="num_records")
        return tuple(apply_op("ReaderReadUpToV2", [self._reader_ref, handle, n],
                              {"reader": self._state, "queue": _queue_state(queue)},
                              name=name))

    def num_records_produced(self, name: str | None = None) -> Any:
        """How many records the reader has produced (an int64 tensor).

        Args:
            name: A name for the operation (optional).
        """
        return apply_op("ReaderNumRecordsProducedV2", [self._reader_ref],
                        {"reader": self._state}, name=name)

    def num_work_units_completed(self, name: str | None = None) -> Any:
        """How many files the reader has finished (an int64 tensor).

        Args:
            name: A name for the operation (optional).
        """
        return apply_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref],
                        {"reader": self._state}, name=name)

    def reset(self, name: str | None = None) -> Any:
        """An op returning the reader to its initial state.

        Args:
            name: A name for the operation (optional).
        """
        return apply_op("ReaderResetV2", [self._reader_ref], {"reader": self._state},
                        name=name)


def _make(op_type: str, name: str | None, records: Any, **options: Any) -> Any:
    return apply_op(op_type, [], {"reader": _ReaderState(records, **options)},
                    name=name or op_type)


class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files.

    Args:
        name: A name for the reader op.
        options: A ``tf.io.TFRecordOptions`` (compression), or None.
    """

    def __init__(self, name: str | None = None, options: Any = None) -> None:
        compression = getattr(options, "compression_type", options)
        super().__init__(_make("TFRecordReaderV2", name, _tf_records,
                               compression_type=compression))


class TextLineReader(ReaderBase):
    """Reads the lines of text files (without their newlines).

    Args:
        skip_header_lines: How many lines to skip at the start of each file.
        name: A name for the reader op.
    """

    def __init__(self, skip_header_lines: int | None = None, name: str | None = None) -> None:
        super().__init__(_make("TextLineReaderV2", name, _text_lines,
                               skip_header_lines=int(skip_header_lines or 0)))


class WholeFileReader(ReaderBase):
    """Reads each file as one record: ``(file name, contents)``.

    Args:
        name: A name for the reader op.
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__(_make("WholeFileReaderV2", name, _whole_file))


class FixedLengthRecordReader(ReaderBase):
    """Reads records of ``record_bytes`` bytes (CIFAR-10's binary files).

    Args:
        record_bytes: The size of a record.
        header_bytes: Bytes to skip at the start of each file.
        footer_bytes: Bytes to ignore at the end of each file.
        hop_bytes: The step between records' starts (``record_bytes`` if 0 or None).
        name: A name for the reader op.
        encoding: Only None (uncompressed files) is supported.

    Raises:
        ValueError: for an ``encoding``.
    """

    def __init__(self, record_bytes: int, header_bytes: int | None = None,
                 footer_bytes: int | None = None, hop_bytes: int | None = None,
                 name: str | None = None, encoding: str | None = None) -> None:
        if encoding:
            raise ValueError("FixedLengthRecordReader: encoding %r is not supported" % encoding)
        super().__init__(_make("FixedLengthRecordReaderV2", name, _fixed_length,
                               record_bytes=int(record_bytes),
                               header_bytes=int(header_bytes or 0),
                               footer_bytes=int(footer_bytes or 0),
                               hop_bytes=int(hop_bytes or 0)))


class IdentityReader(ReaderBase):
    """Outputs each work item (file name) as both key and value.

    Args:
        name: A name for the reader op.
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__(_make("IdentityReaderV2", name, _identity))


__all__ = ["ReaderBase", "TFRecordReader", "TextLineReader", "WholeFileReader",
           "FixedLengthRecordReader", "IdentityReader"]
