"""File-reading datasets: ``tf.data.TFRecordDataset`` and ``tf.data.TextLineDataset`` (one
string element per record or line), with TensorFlow's compression types ("", "ZLIB",
"GZIP") and its interleaving of ``num_parallel_reads`` files. The file names may be a
string, a list or vector of strings, or a dataset of strings."""
from __future__ import annotations

import collections
import csv
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad.data.dataset_ops import Dataset
from flowgrad.data.structure import IterationContext
from flowgrad.framework import dtypes, errors
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.runtime.function import TensorSpec
from flowgrad.ops.array_ops import reshape
from flowgrad.ops import csv_ops, file_io, tf_record
from flowgrad.ops.io_ops import scalar_bytes
from flowgrad.ops.tf_record import TFRecordOptions, iterate_records, read_stream


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

    _tf_name = "TFRecordDatasetV2"

    def __init__(self, filenames: Any, compression_type: str | None = None,
                 buffer_size: int | None = None, num_parallel_reads: int | None = None,
                 name: str | None = None):
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

    _tf_name = "TextLineDatasetV2"

    def __init__(self, filenames: Any, compression_type: str | None = None,
                 buffer_size: int | None = None, num_parallel_reads: int | None = None,
                 name: str | None = None):
        kind = _compression(compression_type)
        super().__init__(filenames, num_parallel_reads, lambda p: _lines(p, kind))


class FixedLengthRecordDataset(_FileReaderDataset):
    """Records of ``record_bytes`` bytes from files with an optional header and footer
    (``tf.data.FixedLengthRecordDataset``).

    Args:
        filenames: a string, strings, or a dataset of strings naming the files.
        record_bytes: the size of each record.
        header_bytes: bytes skipped at the start of each file.
        footer_bytes: bytes ignored at the end of each file.
        buffer_size: accepted for TensorFlow's signature.
        compression_type: "" (none), "ZLIB" or "GZIP".
        num_parallel_reads: how many files are read interleaved.

    Raises:
        InvalidArgumentError: (when iterated) a file whose body is not a whole number of
            records.
    """

    _tf_name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames: Any, record_bytes: int, header_bytes: int | None = None,
                 footer_bytes: int | None = None, buffer_size: int | None = None,
                 compression_type: str | None = None, num_parallel_reads: int | None = None,
                 name: str | None = None):
        size, head, foot = int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0)
        if size <= 0 or head < 0 or foot < 0:
            raise errors.InvalidArgumentError(None, None, "record_bytes must be positive and "
                                              "header_bytes/footer_bytes non-negative")
        kind = _compression(compression_type)

        def read(path: str) -> Iterator[bytes]:
            data = read_stream(path, kind)
            body = data[head:len(data) - foot]
            if len(body) % size:
                raise errors.InvalidArgumentError(
                    None, None, "Excluding the header (%d bytes) and footer (%d bytes), input "
                    "file \"%s\" has body length %d bytes, which is not an exact multiple of "
                    "the record length (%d bytes)." % (head, foot, path, len(body), size))
            return (body[i:i + size] for i in range(0, len(body), size))
        super().__init__(filenames, num_parallel_reads, read)


def _lines(path: str, compression: str) -> Iterator[bytes]:
    data = read_stream(path, compression)
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    for line in lines:
        yield line[:-1] if line.endswith(b"\r") else line




class CsvDataset(Dataset):
    """The records of CSV files as tuples of column tensors
    (``tf.data.experimental.CsvDataset``); fields are parsed as ``tf.io.decode_csv`` does.

    Args:
        filenames: a string, strings, or a dataset of strings naming the files.
        record_defaults: per column, a default or an empty tensor (a required column), or
            a dtype (a required column of it).
        compression_type: "" (none), "ZLIB" or "GZIP".
        buffer_size: accepted for TensorFlow's signature.
        header: whether each file's first line is a header (skipped).
        field_delim: the one-character field separator.
        use_quote_delim: whether double quotes delimit fields.
        na_value: a field that reads as missing.
        select_cols: the (increasing) columns to return.
        exclude_cols: the columns not to return (instead of ``select_cols``).
    """

    _tf_name = "CsvDatasetV2"

    def __init__(self, filenames: Any, record_defaults: Any, compression_type: str | None = None,
                 buffer_size: int | None = None, header: bool = False, field_delim: str = ",",
                 use_quote_delim: bool = True, na_value: str = "", select_cols: Any = None,
                 exclude_cols: Any = None, name: str | None = None):
        defaults = csv_ops.record_default_tensors(
            [np.zeros(0, dtypes.as_dtype(d).np) if _is_dtype(d) else d
             for d in record_defaults])
        if select_cols is not None and exclude_cols is not None:
            raise ValueError("Either select_cols or exclude_cols should be set, but not both.")
        self._exclude = None if exclude_cols is None else sorted(int(c) for c in exclude_cols)
        self._attrs = csv_ops.csv_attrs(defaults, field_delim, use_quote_delim, na_value,
                                        select_cols)
        values = [constant_value(d) for d in defaults]
        if any(v is None for v in values):
            raise ValueError("CsvDataset needs constant record_defaults.")
        self._defaults = [csv_ops.default_of(v, d.dtype.base_dtype)
                          for v, d in zip(values, defaults)]
        self._header = bool(header)
        self._kind = _compression(compression_type)
        spec = tuple(TensorSpec([], d.dtype.base_dtype) for d in defaults)
        super().__init__(spec, (_filenames(filenames),))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        a = self._attrs
        for flat in self._inputs[0]._iterate(ctx):
            path = scalar_bytes(flat[0]).decode("utf-8")
            lines = _lines(path, self._kind)
            if self._header:
                next(lines, None)
            for line in lines:
                cols = a["select_cols"]
                if self._exclude is not None:
                    n = len(csv_ops.split_record(line, a["field_delim"], a["use_quote_delim"]))
                    cols = tuple(c for c in range(n) if c not in self._exclude)
                    if len(cols) != len(a["OUT_TYPE"]):
                        raise errors.InvalidArgumentError(
                            None, None, "Expect %d fields but have %d in record"
                            % (len(a["OUT_TYPE"]) + len(self._exclude), n))
                values = csv_ops.parse_record(line, None, a["OUT_TYPE"], self._defaults,
                                              a["field_delim"], a["use_quote_delim"],
                                              a["na_value"], cols)
                yield [np.array(v, dtype=object if dt is dtypes.string else dt.np)
                       for v, dt in zip(values, a["OUT_TYPE"])]


def _is_dtype(value: Any) -> bool:
    return isinstance(value, dtypes.DType)


_INFER_ORDER = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string)


def _fits(text: str, dt: dtypes.DType) -> bool:
    try:
        if dt is dtypes.int32:
            return np.int32(text) == np.int64(text)
        if dt is dtypes.int64:
            np.int64(text)
            return True
        if dt.is_floating:
            return dt.np.type(text) < np.inf
    except (ValueError, OverflowError):
        return False
    return True


def _infer_type(text: str, na_value: str, prev: dtypes.DType | None) -> dtypes.DType | None:
    """TensorFlow's column type inference: the least permissive type all values fit."""
    if text in ("", na_value):
        return prev
    for i, dt in enumerate(_INFER_ORDER):
        if _fits(text, dt) and (prev is None or prev in _INFER_ORDER[:i + 1]):
            return dt
    return dtypes.string


def _csv_rows(path: str, compression: str, delim: str, use_quote: bool) -> Iterator[list]:
    text = (line.decode("utf-8") for line in _lines(path, compression))
    return csv.reader(text, delimiter=delim,
                      quoting=csv.QUOTE_MINIMAL if use_quote else csv.QUOTE_NONE)


def make_csv_dataset(file_pattern: Any, batch_size: int, column_names: Any = None,
                     column_defaults: Any = None, label_name: str | None = None,
                     select_columns: Any = None, field_delim: str = ",",
                     use_quote_delim: bool = True, na_value: str = "", header: bool = True,
                     num_epochs: int | None = None, shuffle: bool = True,
                     shuffle_buffer_size: int = 10000, shuffle_seed: int | None = None,
                     prefetch_buffer_size: Any = None, num_parallel_reads: int | None = None,
                     sloppy: bool = False, num_rows_for_inference: int = 100,
                     compression_type: str | None = None, ignore_errors: bool = False,
                     encoding: str = "utf-8") -> Dataset:
    """Batches of CSV records as (features dict, label) pairs, as TensorFlow's
    ``tf.data.experimental.make_csv_dataset``: column names from the header, column types
    inferred from the first ``num_rows_for_inference`` rows unless ``column_defaults``,
    files and records shuffled unless ``shuffle=False``, repeated ``num_epochs`` times
    (forever when None, dropping the last partial batch then).

    Args:
        file_pattern: A glob pattern or a list of CSV file paths.
        batch_size: The number of records per batch.
        column_names: The columns' names; from the header when None.
        column_defaults: One default (or dtype) per selected column; inferred when None.
        label_name: The column returned as the label; None returns only features.
        select_columns: The names or indices of the columns to keep.
        field_delim: The field separator.
        use_quote_delim: Whether double quotes enclose fields.
        na_value: The string read as a missing value.
        header: Whether the first line of each file is a header.
        num_epochs: How often to repeat the data; None repeats forever.
        shuffle: Whether to shuffle the files and records.
        shuffle_buffer_size: The size of the shuffle buffer.
        shuffle_seed: The shuffle's seed.
        prefetch_buffer_size: Accepted for TensorFlow's signature (batches are made on demand).
        num_parallel_reads: Accepted for TensorFlow's signature (files are read in turn).
        sloppy: Accepted for TensorFlow's signature.
        num_rows_for_inference: How many rows the column types are inferred from.
        compression_type: ``""``, ``"GZIP"`` or ``"ZLIB"``.
        ignore_errors: Whether to skip records that do not parse.
        encoding: The files' text encoding.

    Raises:
        ValueError: no file matches, duplicate or unknown column names, or a ``label_name``
            that is not a column.
    """
    names = file_io.glob(file_pattern)
    if not names:
        raise ValueError("No files match `file_pattern` %s." % (file_pattern,))
    kind = _compression(compression_type)
    files = Dataset.from_tensor_slices(names)
    if shuffle:
        files = files.shuffle(len(names), shuffle_seed)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        headers = [next(_csv_rows(n, kind, field_delim, use_quote_delim), None) for n in names]
        if headers[0] is None:
            raise ValueError("Failed when reading the header line of %s. Is it an empty file?"
                             % names[0])
        for n, h in zip(names[1:], headers[1:]):
            if h != headers[0]:
                raise ValueError("All input CSV files should have the same column names in "
                                 "the header row. File %s has different column names." % n)
        column_names = headers[0]
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        dup = sorted({c for c in column_names if column_names.count(c) > 1})
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate "
                         "column names: %s." % set(dup))
    cols = None
    if select_columns is not None:
        index = {n: i for i, n in enumerate(column_names)}
        cols = sorted(index[c] if isinstance(c, str) else int(c) for c in select_columns)
    if column_defaults is not None:
        defaults = [np.zeros(0, dtypes.as_dtype(d).np) if _is_dtype(d) else d
                    for d in column_defaults]
    else:
        picked = cols if cols is not None else range(len(column_names))
        types: list = [None] * len(picked)
        rows = (r for n in names for i, r in enumerate(_csv_rows(n, kind, field_delim,
                                                                 use_quote_delim))
                if not (header and i == 0))
        for k, row in enumerate(rows):
            if num_rows_for_inference is not None and k >= num_rows_for_inference:
                break
            if len(row) != len(column_names):
                raise ValueError("Problem inferring types: CSV row %d has %d number of fields. "
                                 "Expected: %d." % (k + 1 + header, len(row),
                                                    len(column_names)))
            types = [_infer_type(row[c], na_value, t) for c, t in zip(picked, types)]
        defaults = [np.array([b"" if (t or dtypes.string) is dtypes.string else 0],
                             dtype=(t or dtypes.string).np) for t in types]
    if cols is not None and len(column_names) > len(cols):
        column_names = [column_names[i] for i in cols]
    if label_name is not None and label_name not in column_names:
        raise ValueError("`label_name` provided must be one of the columns: %s. Received: %s."
                         % (column_names, label_name))
    data = files.interleave(
        lambda f: CsvDataset(f, defaults, compression_type=kind, header=header,
                             field_delim=field_delim, use_quote_delim=use_quote_delim,
                             na_value=na_value, select_cols=cols),
        cycle_length=1 if num_parallel_reads in (None, -1) else int(num_parallel_reads),
        block_length=1)
    if num_epochs != 1 and shuffle:
        data = data.shuffle(shuffle_buffer_size, shuffle_seed).repeat(num_epochs)
    elif shuffle:
        data = data.shuffle(shuffle_buffer_size, shuffle_seed)
    elif num_epochs != 1:
        data = data.repeat(num_epochs)
    data = data.batch(batch_size, drop_remainder=num_epochs is None)

    def to_features(*columns: Any) -> Any:
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label
    return data.map(to_features)



class TFRecordWriter:
    """Writes a dataset of string scalars to a TFRecord file
    (``tf.data.experimental.TFRecordWriter``).

    Args:
        filename: the file to write.
        compression_type: "" (none), "ZLIB" or "GZIP".
    """

    def __init__(self, filename: str, compression_type: str | None = None):
        self._filename = filename
        self._kind = _compression(compression_type)

    def write(self, dataset: Dataset) -> None:
        """Writes every element of ``dataset`` (eager mode).

        Raises:
            TypeError: the elements are not string scalars.
        """
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.string or \
                spec.shape.rank not in (0, None):
            raise TypeError("`dataset` must produce scalar `DT_STRING` tensors whereas it "
                            "produces shape %s and types %s" % (getattr(spec, "shape", spec),
                                                                getattr(spec, "dtype", spec)))
        with tf_record.TFRecordWriter(self._filename, self._kind) as writer:
            for flat in dataset._iterate(IterationContext()):
                writer.write(scalar_bytes(flat[0]))


__all__ = ["TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "CsvDataset",
           "make_csv_dataset", "TFRecordWriter"]
