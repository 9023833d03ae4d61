"""TensorFlow's TFRecord files: each record is its length (uint64, little-endian), the masked
CRC32C of the length, the data and the masked CRC32C of the data; the whole stream may be
GZIP or ZLIB compressed. ``tf.io.TFRecordWriter``, ``tf.io.TFRecordOptions`` and the reader
behind ``tf.data.TFRecordDataset`` and ``tf.compat.v1.io.tf_record_iterator``. CRC32C comes
from the ``google-crc32c`` package (``pip install flowgrad[io]``)."""
from __future__ import annotations

import gzip
import struct
import zlib
from collections.abc import Iterator
from typing import Any

from flowgrad.framework import errors
from flowgrad.ops.file_io import _path, os_error

_MASK_DELTA = 0xA282EAD8


def _crc32c(data: bytes) -> int:
    try:
        import google_crc32c
    except ImportError as e:
        raise ImportError("TFRecord files need the optional 'google-crc32c' package: "
                          "pip install flowgrad[io]") from e
    return google_crc32c.value(data)


def masked_crc32c(data: bytes) -> int:
    """TensorFlow's masked CRC32C of ``data`` (rotated right by 15 bits, plus a constant)."""
    crc = _crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def encode_record(data: bytes) -> bytes:
    """One record in TensorFlow's framing."""
    length = struct.pack("<Q", len(data))
    return b"".join((length, struct.pack("<I", masked_crc32c(length)), data,
                     struct.pack("<I", masked_crc32c(data))))


_COMPRESSIONS = {"": "", "ZLIB": "ZLIB", "GZIP": "GZIP"}


class TFRecordOptions:
    """Options for TFRecord files: ``compression_type`` "" (none), "ZLIB" or "GZIP", and zlib's
    ``compression_level``, ``mem_level`` and ``window_bits`` (TensorFlow's defaults); the
    buffer sizes, ``flush_mode`` and ``compression_method``/``compression_strategy`` are
    accepted as in TensorFlow.

    Args:
        compression_type: ``""`` (none), ``"ZLIB"`` or ``"GZIP"``.
        flush_mode: Accepted for TensorFlow's signature.
        input_buffer_size: Accepted for TensorFlow's signature.
        output_buffer_size: Accepted for TensorFlow's signature.
        window_bits: zlib's window size (log2); TensorFlow's default when None.
        compression_level: zlib's compression level (0 to 9); TensorFlow's default when None.
        compression_method: Accepted for TensorFlow's signature.
        mem_level: zlib's memory level; TensorFlow's default when None.
        compression_strategy: Accepted for TensorFlow's signature.
    """

    compression_type_map = {0: "", 1: "ZLIB", 2: "GZIP"}

    def __init__(self, compression_type: str | None = None, flush_mode: Any = None,
                 input_buffer_size: Any = None, output_buffer_size: Any = None,
                 window_bits: Any = None, compression_level: Any = None,
                 compression_method: Any = None, mem_level: Any = None,
                 compression_strategy: Any = None):
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options: Any) -> str:
        """The compression type ("", "ZLIB" or "GZIP") of options, a string or None.

        Raises:
            ValueError: an unknown compression type.
        """
        if not options:
            return ""
        kind = options.compression_type if isinstance(options, TFRecordOptions) else options
        kind = cls.compression_type_map.get(kind, kind)
        if kind is None:
            return ""
        if kind not in _COMPRESSIONS:
            raise ValueError('Unsupported compression type: %s. Supported types: ["", "ZLIB", '
                             '"GZIP"]' % (kind,))
        return kind


def _options(options: Any) -> TFRecordOptions:
    if isinstance(options, TFRecordOptions):
        TFRecordOptions.get_compression_type_string(options)
        return options
    return TFRecordOptions(TFRecordOptions.get_compression_type_string(options))


def _compressor(opts: TFRecordOptions, kind: str) -> Any:
    level = -1 if opts.compression_level is None else opts.compression_level
    bits = 15 if opts.window_bits is None else opts.window_bits
    mem = 9 if opts.mem_level is None else opts.mem_level     # TensorFlow's default
    strategy = 0 if opts.compression_strategy is None else opts.compression_strategy
    return zlib.compressobj(level, zlib.DEFLATED, bits + 16 if kind == "GZIP" else bits, mem,
                            strategy)


class TFRecordWriter:
    """Writes records to a TFRecord file (``tf.io.TFRecordWriter``).

    Args:
        path: the file to write (created or truncated).
        options: a TFRecordOptions or a compression type string.
    """

    def __init__(self, path: str, options: Any = None):
        self._path = _path(path)
        opts = _options(options)
        self._kind = TFRecordOptions.get_compression_type_string(opts)
        self._z = _compressor(opts, self._kind) if self._kind else None
        try:
            self._f: Any = open(self._path, "wb")  # noqa: SIM115 - closed by close()
        except OSError as e:
            raise os_error(e, self._path) from None

    def _raw(self, data: bytes) -> None:
        self._f.write(self._z.compress(data) if self._z is not None else data)

    def write(self, record: Any) -> None:
        """Appends one record (bytes, or str encoded as UTF-8)."""
        if self._f is None:
            raise errors.FailedPreconditionError(None, None, "TFRecordWriter is closed.")
        data = record.encode("utf-8") if isinstance(record, str) else bytes(record)
        self._raw(encode_record(data))

    def flush(self) -> None:
        """Flushes the file (a compressed stream is flushed to a byte boundary)."""
        if self._f is not None:
            if self._z is not None:
                self._f.write(self._z.flush(zlib.Z_SYNC_FLUSH))
            self._f.flush()

    def close(self) -> None:
        """Finishes (and closes) the file."""
        if self._f is not None:
            if self._z is not None:
                self._f.write(self._z.flush())
            self._f.close()
            self._f = None

    def __enter__(self) -> TFRecordWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def read_stream(path: str, kind: str) -> bytes:
    """A file's bytes, decompressed as ``kind`` says (``""``, ``"GZIP"``, ``"ZLIB"``); a
    damaged stream is a DataLossError naming the file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise os_error(e, path) from None
    try:
        if kind == "GZIP":
            return gzip.decompress(data)
        if kind == "ZLIB":
            return zlib.decompress(data)
    except (OSError, EOFError, zlib.error) as e:
        raise errors.DataLossError(None, None, "%s: corrupted %s stream (%s)"
                                   % (path, kind, e)) from None
    return data


def iterate_records(path: str, compression_type: str | None = None) -> Iterator[bytes]:
    """The records of a TFRecord file, checking each CRC.

    Raises:
        NotFoundError: the file does not exist.
        DataLossError: a record is truncated or its CRC does not match (naming the file).
    """
    p = _path(path)
    data = read_stream(p, TFRecordOptions.get_compression_type_string(compression_type))

    def damaged(what: str, at: int, hint: str = "") -> errors.DataLossError:
        return errors.DataLossError(None, None, "%s record at %d%s (file %s)"
                                    % (what, at, hint, p))

    pos, n = 0, len(data)
    while pos < n:
        if n - pos < 12:
            raise damaged("truncated", pos)
        header = data[pos:pos + 8]
        if struct.unpack("<I", data[pos + 8:pos + 12])[0] != masked_crc32c(header):
            raise damaged("corrupted", pos, " (Is this even a TFRecord file?)" if not pos else "")
        end = pos + 12 + struct.unpack("<Q", header)[0]
        if end + 4 > n:
            raise damaged("truncated", pos)
        record = data[pos + 12:end]
        if struct.unpack("<I", data[end:end + 4])[0] != masked_crc32c(record):
            raise damaged("corrupted", pos + 12)
        yield record
        pos = end + 4


def tf_record_iterator(path: str, options: Any = None) -> Iterator[bytes]:
    """TF1's ``tf.compat.v1.io.tf_record_iterator``: the records of ``path`` as bytes.

    Args:
        path: The TFRecord file.
        options: A ``TFRecordOptions`` or a compression type string.
    """
    return iterate_records(path, options)


class TFRecordCompressionType:
    """TF1's compression type constants (``tf.compat.v1.io.TFRecordCompressionType``)."""

    NONE = 0
    ZLIB = 1
    GZIP = 2
