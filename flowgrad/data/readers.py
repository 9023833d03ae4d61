"""File-reading datasets: ``tf.data.TFRecordDataset`` and ``tf.data.TextLineDataset`` (one
string element per record or line), with TensorFlow's compression types ("", "ZLIB",
"GZIP") and its interleaving of ``num_parallel_reads`` files. The file names may be a
string, a list or vector of strings, or a dataset of strings."""
from __future__ import annotations

import gzip
import itertools
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad.data.dataset_ops import Dataset
from flowgrad.data.structure import IterationContext
from flowgrad.framework import dtypes, errors
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.function import TensorSpec
from flowgrad.ops.array_ops import reshape
from flowgrad.ops.file_io import os_error
from flowgrad.ops.io_ops import scalar_bytes
from flowgrad.ops.tf_record import TFRecordOptions, iterate_records


def _filenames(filenames: Any) -> Dataset:
    """A dataset of file names (string scalars)."""
    if isinstance(filenames, Dataset):
        spec = filenames.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.string or \
                spec.shape.rank not in (0, None):
            raise TypeError("`filenames` must be a `tf.data.Dataset` of scalar `tf.string` "
                            "elements, got %s." % (spec,))
        return filenames
    t = convert_to_tensor(filenames, dtypes.string)
    if t.shape.rank not in (0, 1, None):
        raise TypeError("`filenames` must be a `tf.Tensor` of rank 0 or 1, got shape %s."
                        % t.shape)
    return Dataset.from_tensor_slices(reshape(t, [-1]))


def _compression(compression_type: Any) -> str:
    if compression_type is not None and not isinstance(compression_type, (str, bytes)):
        compression_type = np.asarray(compression_type).item()
    if isinstance(compression_type, bytes):
        compression_type = compression_type.decode()
    return TFRecordOptions.get_compression_type_string(compression_type)


def _file_bytes(path: str, compression: str) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise os_error(e, path) from None
    try:
        if compression == "GZIP":
            return gzip.decompress(data)
        if compression == "ZLIB":
            return zlib.decompress(data)
    except (OSError, EOFError, zlib.error) as e:
        raise errors.DataLossError(None, None, "%s: corrupted %s stream (%s)"
                                   % (path, compression, e)) from None
    return data


class _FileReaderDataset(Dataset):
    """String elements read from each file in turn (or ``num_parallel_reads`` at a time,
    one element from each in turn, as TensorFlow's parallel interleave)."""

    def __init__(self, filenames: Any, num_parallel_reads: Any,
                 read: Callable[[str], Iterator[bytes]]):
        self._read = read
        n = num_parallel_reads
        self._cycle = 1 if n is None else int(n if not hasattr(n, "numpy") else n.numpy())
        if self._cycle < 1 and self._cycle != -1:      # -1: AUTOTUNE
            raise ValueError("`num_parallel_reads` must be positive or AUTOTUNE, got %d."
                             % self._cycle)
        super().__init__(TensorSpec([], dtypes.string), (_filenames(filenames),))

    def _records(self, flat: list) -> Iterator[list]:
        path = scalar_bytes(flat[0]).decode("utf-8")
        for record in self._read(path):
            yield [np.array(record, dtype=object)]

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        names = self._inputs[0]._iterate(ctx)
        if self._cycle == 1:
            for flat in names:
                yield from self._records(flat)
            return
        cycle = self._cycle if self._cycle > 0 else 8
        open_ = [self._records(flat) for flat in itertools.islice(names, cycle)]
        while open_:
            for i, it in enumerate(list(open_)):
                try:
                    yield next(it)
                except StopIteration:
                    nxt = next(names, None)     # the new file's turn comes next round
                    open_[i] = None if nxt is None else self._records(nxt)
            open_ = [it for it in open_ if it is not None]


class TFRecordDataset(_FileReaderDataset):
    """The records of TFRecord files (``tf.data.TFRecordDataset``).

    Args:
        filenames: a string, strings, or a dataset of strings naming the files.
        compression_type: "" (none), "ZLIB" or "GZIP".
        buffer_size: accepted for TensorFlow's signature (files are read whole).
        num_parallel_reads: how many files are read interleaved (None: one after another).
        name: accepted for TensorFlow's signature.

    Raises:
        DataLossError: (when iterated) a damaged record, naming the file.
    """

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None):
        kind = _compression(compression_type)
        super().__init__(filenames, num_parallel_reads, lambda p: iterate_records(p, kind))


class TextLineDataset(_FileReaderDataset):
    """The lines of text files, without their line endings (``tf.data.TextLineDataset``).

    Args:
        filenames: a string, strings, or a dataset of strings naming the files.
        compression_type: "" (none), "ZLIB" or "GZIP".
        buffer_size: accepted for TensorFlow's signature (files are read whole).
        num_parallel_reads: how many files are read interleaved (None: one after another).
        name: accepted for TensorFlow's signature.
    """

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None):
        kind = _compression(compression_type)
        super().__init__(filenames, num_parallel_reads, lambda p: _lines(p, kind))


def _lines(path: str, compression: str) -> Iterator[bytes]:
    data = _file_bytes(path, compression)
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    for line in lines:
        yield line[:-1] if line.endswith(b"\r") else line


__all__ = ["TFRecordDataset", "TextLineDataset"]

