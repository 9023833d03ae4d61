"""TensorFlow's tensor bundle: the checkpoint format of ``tf.train.Saver`` (V2),
``tf.train.Checkpoint`` and a SavedModel's ``variables/``.

A bundle ``<prefix>`` is two kinds of file:

- ``<prefix>.index``: a table in TensorFlow's SSTable format (LevelDB's): data blocks of
  prefix-compressed, sorted keys with restart points, each block followed by its type byte and
  masked CRC32C; an empty meta-index block; an index block (one ``BlockHandle`` per data
  block, keyed by a separator); and a 48-byte footer ending in the table's magic number. Its
  entries are a ``BundleHeaderProto`` under the empty key and a ``BundleEntryProto`` (dtype,
  shape, shard, offset, size, masked CRC32C of the bytes, slices) per tensor;
- ``<prefix>.data-<shard>-of-<shards>``: the tensors' bytes, back to back (little-endian
  numbers; a string tensor is the varint64 lengths of its elements, the masked CRC32C of the
  lengths (as uint32), then the bytes of each element).

A slice of a partitioned variable is stored under TensorFlow's encoded key
(``EncodeTensorNameSlice``: ordered-code encoded name and extents); the full tensor's entry
lists its slices and holds no bytes. :func:`write_bundle` writes what TensorFlow 2.21 writes,
byte for byte; :class:`BundleReader` reads TensorFlow's bundles (any number of shards, either
byte order) and checks every checksum, so a damaged or truncated file is a
``DataLossError`` naming the file, never wrong values.

The bundle protos are TensorFlow's definitions (tensor_bundle.proto, tensor_slice.proto),
declared with protobuf's descriptor API over the ``tensorboard`` package's copies of
types.proto, tensor_shape.proto and versions.proto in a pool of their own; CRC32C comes from
``google-crc32c``. Both are optional: ``pip install flowgrad[tf-formats]``."""
from __future__ import annotations

import functools
import os
import struct
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.train import checkpoint_management as cm

INSTALL_HINT = "pip install flowgrad[tf-formats]"
INDEX_SUFFIX = cm.INDEX_SUFFIX
_MAGIC = 0xDB4775248B80FB57
_FOOTER_LEN = 48
_MASK_DELTA = 0xA282EAD8
_BLOCK_SIZE = 262144          # TensorFlow's table::Options defaults
_RESTART_INTERVAL = 16

#: TensorFlow's DataType enum name of each dtype a bundle can hold.
_DT_NAMES = {"float16": "DT_HALF", "float32": "DT_FLOAT", "float64": "DT_DOUBLE",
             "bfloat16": "DT_BFLOAT16", "int8": "DT_INT8", "int16": "DT_INT16",
             "int32": "DT_INT32", "int64": "DT_INT64", "uint8": "DT_UINT8",
             "uint16": "DT_UINT16", "uint32": "DT_UINT32", "uint64": "DT_UINT64",
             "bool": "DT_BOOL", "string": "DT_STRING", "complex64": "DT_COMPLEX64",
             "complex128": "DT_COMPLEX128", "variant": "DT_VARIANT"}

#: TensorFlow's variant dtype, as a checkpoint holds it (a tf.data iterator's state): each
#: element a serialized ``VariantTensorDataProto``.
VARIANT = dtypes.DType("variant", np.object_)


class VariantArray:
    """A variant tensor to write (a tf.data iterator's state): its elements as serialized
    ``VariantTensorDataProto`` bytes.

    Args:
      items: a NumPy object array (or list) of bytes.
    """

    def __init__(self, items: Any):
        self.items = items


def data_path(prefix: str, shard: int = 0, num_shards: int = 1) -> str:
    """The path of one data file of the bundle ``prefix``."""
    return "%s.data-%05d-of-%05d" % (prefix, shard, num_shards)


# --------------------------------------------------------------------------------------
# Optional dependencies: protos and CRC32C


@functools.cache
def _pb() -> SimpleNamespace:
    """The bundle message classes, built once in a descriptor pool of their own."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
        from tensorboard.compat.proto import tensor_shape_pb2, types_pb2, versions_pb2
    except ImportError as e:
        raise ImportError("TensorFlow's checkpoint format needs the optional 'protobuf' and "
                          "'tensorboard' packages: %s" % INSTALL_HINT) from e
    pool = descriptor_pool.DescriptorPool()
    for module in (types_pb2, tensor_shape_pb2, versions_pb2):
        fdp = descriptor_pb2.FileDescriptorProto()
        module.DESCRIPTOR.CopyToProto(fdp)
        pool.Add(fdp)
    pkg = types_pb2.DESCRIPTOR.package
    F = descriptor_pb2.FieldDescriptorProto
    f = descriptor_pb2.FileDescriptorProto(
        name="flowgrad/tensor_bundle.proto", package=pkg, syntax="proto3",
        dependency=[m.DESCRIPTOR.name for m in (types_pb2, tensor_shape_pb2, versions_pb2)])
    sl = f.message_type.add(name="TensorSliceProto")
    ext = sl.nested_type.add(name="Extent")
    ext.oneof_decl.add(name="has_length")
    ext.field.add(name="start", number=1, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    ext.field.add(name="length", number=2, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL,
                  oneof_index=0)
    sl.field.add(name="extent", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                 type_name=".%s.TensorSliceProto.Extent" % pkg)
    h = f.message_type.add(name="BundleHeaderProto")
    e = h.enum_type.add(name="Endianness")
    e.value.add(name="LITTLE", number=0)
    e.value.add(name="BIG", number=1)
    h.field.add(name="num_shards", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    h.field.add(name="endianness", number=2, type=F.TYPE_ENUM, label=F.LABEL_OPTIONAL,
                type_name=".%s.BundleHeaderProto.Endianness" % pkg)
    h.field.add(name="version", number=3, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL,
                type_name=".%s.VersionDef" % pkg)
    b = f.message_type.add(name="BundleEntryProto")
    b.field.add(name="dtype", number=1, type=F.TYPE_ENUM, label=F.LABEL_OPTIONAL,
                type_name=".%s.DataType" % pkg)
    b.field.add(name="shape", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL,
                type_name=".%s.TensorShapeProto" % pkg)
    for name, number, kind in (("shard_id", 3, F.TYPE_INT32), ("offset", 4, F.TYPE_INT64),
                               ("size", 5, F.TYPE_INT64), ("crc32c", 6, F.TYPE_FIXED32)):
        b.field.add(name=name, number=number, type=kind, label=F.LABEL_OPTIONAL)
    b.field.add(name="slices", number=7, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                type_name=".%s.TensorSliceProto" % pkg)
    fd = pool.Add(f) or pool.FindFileByName(f.name)
    del fd

    def cls(name: str) -> Any:
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(pkg + "." + name))
    return SimpleNamespace(BundleHeaderProto=cls("BundleHeaderProto"),
                           BundleEntryProto=cls("BundleEntryProto"),
                           TensorSliceProto=cls("TensorSliceProto"),
                           DataType=pool.FindEnumTypeByName(pkg + ".DataType"))


def _crc32c(data: Any, crc: int = 0) -> int:
    try:
        import google_crc32c
    except ImportError as e:
        raise ImportError("TensorFlow's checkpoint format needs the optional 'google-crc32c' "
                          "package: %s" % INSTALL_HINT) from e
    return google_crc32c.extend(crc, bytes(data))


def _mask(crc: int) -> int:
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def _unmask(masked: int) -> int:
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def _dtype_enum(dt: dtypes.DType) -> int:
    name = _DT_NAMES.get(dt.base_dtype.name)
    if name is None:
        raise TypeError("A checkpoint cannot hold a tensor of dtype %s" % dt.name)
    return _pb().DataType.values_by_name[name].number


def _dtype_of(enum: int, path: str, key: str) -> dtypes.DType:
    value = _pb().DataType.values_by_number.get(enum)
    for k, v in _DT_NAMES.items():
        if value is not None and v == value.name:
            return VARIANT if k == "variant" else dtypes.as_dtype(k)
    raise errors.UnimplementedError(None, None, "Tensor %s in %s has dtype %s, which flowgrad "
                                    "cannot read" % (key, path, value.name if value else enum))


# --------------------------------------------------------------------------------------
# Varints and TensorFlow's ordered code (slice keys)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError("bad varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _num_increasing(n: int) -> bytes:
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return bytes([len(body)]) + body


_SIGNED_HEADER = [b"", b"\x80", b"\xc0", b"\xe0", b"\xf0", b"\xf8", b"\xfc", b"\xfe", b"\xff",
                  b"\xff\x80", b"\xff\xc0"]


def _signed_num_increasing(n: int) -> bytes:
    x = ~n if n < 0 else n
    length = x.bit_length() // 7 + 1
    body = bytearray((n & ((1 << (8 * length)) - 1)).to_bytes(length, "big"))
    for i, bits in enumerate(_SIGNED_HEADER[length]):
        body[i] ^= bits
    return bytes(body)


def slice_key(name: str, starts: Iterable[int], lengths: Iterable[int]) -> str:
    """TensorFlow's key of one slice of the tensor ``name`` (``EncodeTensorNameSlice``);
    a full extent has start 0 and length -1."""
    starts, lengths = list(starts), list(lengths)
    raw = name.encode("utf-8").replace(b"\xff", b"\xff\x00").replace(b"\x00", b"\x00\xff")
    out = _num_increasing(0) + raw + b"\x00\x01" + _num_increasing(len(starts))
    for s, n in zip(starts, lengths):
        out += _signed_num_increasing(s) + _signed_num_increasing(n)
    return out.decode("latin-1")


# --------------------------------------------------------------------------------------
# The table (.index)


class _BlockBuilder:
    """LevelDB's block: entries sharing key prefixes, a restart point every few entries."""

    def __init__(self, restart_interval: int):
        self.restart_interval = restart_interval
        self.buf = bytearray()
        self.restarts = [0]
        self.count = 0          # entries since the last restart point
        self.last = b""

    def add(self, key: bytes, value: bytes) -> None:
        if self.count < self.restart_interval:
            shared = len(os.path.commonprefix([self.last, key]))
        else:
            self.restarts.append(len(self.buf))
            self.count = shared = 0
        self.buf += _varint(shared) + _varint(len(key) - shared) + _varint(len(value))
        self.buf += key[shared:] + value
        self.last = key
        self.count += 1

    def size_estimate(self) -> int:
        return len(self.buf) + 4 * len(self.restarts) + 4

    def finish(self) -> bytes:
        return bytes(self.buf + struct.pack("<%dI" % len(self.restarts), *self.restarts)
                     + struct.pack("<I", len(self.restarts)))


def _separator(start: bytes, limit: bytes) -> bytes:
    """TensorFlow's FindShortestSeparator: a short key in [start, limit)."""
    n = len(os.path.commonprefix([start, limit]))
    if n < min(len(start), len(limit)) and start[n] < 0xFF and start[n] + 1 < limit[n]:
        return start[:n] + bytes([start[n] + 1])
    return start


def _successor(key: bytes) -> bytes:
    """TensorFlow's FindShortSuccessor: a short key >= ``key``."""
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


def _table(entries: list, block_size: int = _BLOCK_SIZE) -> bytes:
    """The bytes of a table holding the sorted (key, value) byte pairs, as TensorFlow's
    TableBuilder writes them (uncompressed blocks)."""
    out = bytearray()

    def write_block(block: _BlockBuilder) -> bytes:
        contents = block.finish()
        handle = _varint(len(out)) + _varint(len(contents))
        out.extend(contents + b"\x00" + struct.pack("<I", _mask(_crc32c(contents + b"\x00"))))
        return handle

    index = _BlockBuilder(1)
    data = _BlockBuilder(_RESTART_INTERVAL)
    pending = None              # the handle of a data block waiting for its index key
    last = b""
    for key, value in entries:
        if pending is not None:
            index.add(_separator(last, key), pending)
            pending = None
        data.add(key, value)
        last = key
        if data.size_estimate() >= block_size:
            pending = write_block(data)
            data = _BlockBuilder(_RESTART_INTERVAL)
    if data.count:
        pending = write_block(data)
    meta = write_block(_BlockBuilder(_RESTART_INTERVAL))
    if pending is not None:
        index.add(_successor(last), pending)
    footer = meta + write_block(index)
    out += footer + b"\x00" * (40 - len(footer)) + struct.pack("<Q", _MAGIC)
    return bytes(out)


def _read_table(data: bytes, path: str) -> dict:
    """{key: value} of the table file ``path`` (whose bytes are ``data``)."""
    def bad(why: str) -> errors.DataLossError:
        return errors.DataLossError(None, None, "Unable to read checkpoint index %s: %s. The "
                                    "file is truncated or corrupted." % (path, why))

    def block(handle: bytes, pos: int) -> tuple[list, int]:
        offset, pos = _read_varint(handle, pos)
        size, pos = _read_varint(handle, pos)
        if offset + size + 5 > len(data):
            raise bad("block at %d runs past the end of the file" % offset)
        contents = data[offset:offset + size + 1]
        (crc,) = struct.unpack_from("<I", data, offset + size + 1)
        if _unmask(crc) != _crc32c(contents):
            raise bad("block checksum mismatch")
        if contents[-1] != 0:
            raise bad("compressed block (type %d)" % contents[-1])
        return _block_entries(contents[:-1]), pos

    if len(data) < _FOOTER_LEN or struct.unpack_from("<Q", data, len(data) - 8)[0] != _MAGIC:
        raise bad("not an sstable (bad magic number)")
    footer = data[-_FOOTER_LEN:]
    try:
        _, pos = _read_varint(footer, _read_varint(footer, 0)[1])    # the meta-index handle
        index, _ = block(footer, pos)
        entries: dict = {}
        for _, handle in index:
            entries.update(block(handle, 0)[0])
    except (ValueError, IndexError, struct.error) as e:
        raise bad(str(e)) from None
    return entries


def _block_entries(contents: bytes) -> list:
    (n_restarts,) = struct.unpack_from("<I", contents, len(contents) - 4)
    end = len(contents) - 4 - 4 * n_restarts
    if end < 0:
        raise ValueError("bad block")
    out, pos, last = [], 0, b""
    while pos < end:
        shared, pos = _read_varint(contents, pos)
        unshared, pos = _read_varint(contents, pos)
        vlen, pos = _read_varint(contents, pos)
        if shared > len(last) or pos + unshared + vlen > end:
            raise ValueError("bad block entry")
        key = last[:shared] + contents[pos:pos + unshared]
        pos += unshared
        out.append((key, contents[pos:pos + vlen]))
        pos += vlen
        last = key
    return out


# --------------------------------------------------------------------------------------
# Tensor bytes


def _as_bytes(x: Any) -> bytes:
    if isinstance(x, bytes):
        return x
    if isinstance(x, str):
        return x.encode("utf-8")
    raise TypeError("A string tensor holds bytes or str, not %r" % (x,))


def _length_bytes(lengths: list) -> bytes:
    """What TensorFlow's string-length checksum covers: each length's low 4 bytes."""
    return struct.pack("<%dI" % len(lengths), *[n & 0xFFFFFFFF for n in lengths])


def _encode(value: np.ndarray, dt: dtypes.DType) -> tuple[bytes, int]:
    """(bytes, masked CRC32C) of one tensor as TensorFlow writes it."""
    if dt is VARIANT:         # each element: its length, its bytes, the running checksum
        out, crc = bytearray(), 0
        for item in (_as_bytes(x) for x in value.ravel()):
            crc = _crc32c(item, _crc32c(struct.pack("<Q", len(item)), crc))
            checksum = struct.pack("<I", _mask(crc))
            out += _varint(len(item)) + item + checksum
            crc = _crc32c(checksum, crc)
        return bytes(out), _mask(crc)
    if dt.name == "string":
        items = [_as_bytes(x) for x in value.ravel()]
        lengths = b"".join(_varint(len(x)) for x in items)
        crc = _crc32c(_length_bytes([len(x) for x in items]))
        length_crc = struct.pack("<I", _mask(crc))
        body = b"".join(items)
        crc = _crc32c(body, _crc32c(length_crc, crc))
        return lengths + length_crc + body, _mask(crc)
    data = np.ascontiguousarray(value, dtype=np.dtype(dt.as_numpy_dtype).newbyteorder("<"))
    raw = data.tobytes()
    return raw, _mask(_crc32c(raw))


def _decode(raw: bytes, crc: int, dt: dtypes.DType, shape: list,
            big_endian: bool) -> np.ndarray:
    """The array of one tensor's bytes; ValueError unless they match the masked ``crc``."""
    n = int(np.prod(shape, dtype=np.int64))
    if dt is VARIANT:
        out, pos, running = np.empty(n, dtype=object), 0, 0
        for i in range(n):
            length, pos = _read_varint(raw, pos)
            out[i] = bytes(raw[pos:pos + length])
            running = _crc32c(out[i], _crc32c(struct.pack("<Q", length), running))
            pos += length
            if raw[pos:pos + 4] != struct.pack("<I", _mask(running)):
                raise ValueError("checksum mismatch in variant element %d" % i)
            running = _crc32c(raw[pos:pos + 4], running)
            pos += 4
        if pos != len(raw) or _mask(running) != crc:
            raise ValueError("checksum mismatch")
        return out.reshape(shape)
    if dt.name == "string":
        pos, lengths = 0, []
        for _ in range(n):
            length, pos = _read_varint(raw, pos)
            lengths.append(length)
        if pos + 4 + sum(lengths) != len(raw):
            raise ValueError("string lengths do not match the tensor's size")
        lengths_crc = _crc32c(_length_bytes(lengths))
        if struct.unpack_from("<I", raw, pos)[0] != _mask(lengths_crc):
            raise ValueError("checksum mismatch in the string lengths")
        if _unmask(crc) != _crc32c(raw[pos:], lengths_crc):
            raise ValueError("checksum mismatch")
        pos += 4
        out = np.empty(n, dtype=object)
        for i, length in enumerate(lengths):
            out[i] = bytes(raw[pos:pos + length])
            pos += length
        return out.reshape(shape)
    if _unmask(crc) != _crc32c(raw):
        raise ValueError("checksum mismatch")
    np_dtype = np.dtype(dt.as_numpy_dtype).newbyteorder(">" if big_endian else "<")
    if len(raw) != n * np_dtype.itemsize:
        raise ValueError("%d bytes for %d elements of %s" % (len(raw), n, dt.name))
    return np.frombuffer(raw, np_dtype).astype(dt.as_numpy_dtype).reshape(shape)


# --------------------------------------------------------------------------------------
# Writing


def _shape_proto(entry: Any, shape: Iterable[int]) -> None:
    entry.shape.SetInParent()
    for d in shape:
        entry.shape.dim.add(size=int(d))


def write_bundle(prefix: str, tensors: dict, slices: dict | None = None) -> None:
    """Writes the tensors as the bundle ``prefix`` (``.index`` and ``.data-00000-of-00001``),
    byte for byte as TensorFlow 2.21 writes them.

    The data follow the keys' order (a partitioned tensor's slices in their order, at its
    name), as TensorFlow's Saver writes them. Both files are written to temporary files,
    and only when both are on disk renamed into place (the index last), so a bundle is
    either complete or (the previous one) untouched.

    Args:
        prefix: the checkpoint's path prefix; its directory must exist.
        tensors: ``{key: array}``; strings as bytes/str arrays (``dtype=object``).
        slices: ``{key: (full shape, [(starts, array), ...])}`` for partitioned variables:
            each slice is stored under TensorFlow's slice key, the full tensor's entry lists
            the slices.

    Raises:
        TypeError: a dtype TensorFlow cannot checkpoint.
        ValueError: a key appears twice, or a slice does not fit its full shape.
    """
    pb = _pb()
    items: list = []            # (name, slice number, encoded key, array, dtype)
    index: dict = {}
    for key, value in tensors.items():
        items.append((key, 0, key.encode("utf-8")) + _as_array(value))
    for key, (full_shape, parts) in (slices or {}).items():
        if key in tensors:
            raise ValueError("Tensor %s is given whole and as slices" % key)
        full = pb.BundleEntryProto()
        _shape_proto(full, full_shape)
        for i, (starts, value) in enumerate(parts):
            value, dt = _as_array(value)
            full.dtype = _dtype_enum(dt)
            if len(starts) != len(full_shape) or any(
                    s < 0 or s + n > d for s, n, d in zip(starts, value.shape, full_shape)):
                raise ValueError("Slice at %s of shape %s does not fit %s of shape %s" % (
                    list(starts), list(value.shape), key, list(full_shape)))
            extent = full.slices.add()
            for s, n in zip(starts, value.shape):
                extent.extent.add(start=int(s), length=int(n))
            skey = slice_key(key, starts, value.shape).encode("latin-1")
            items.append((key, i, skey, value, dt))
        index[key.encode("utf-8")] = full.SerializeToString()
    data = bytearray()
    for _, _, key, value, dt in sorted(items, key=lambda item: item[:2]):
        if key in index:
            raise ValueError("At least two tensors have the key %s" % key.decode("latin-1"))
        raw, crc = _encode(value, dt)
        entry = pb.BundleEntryProto(dtype=_dtype_enum(dt), offset=len(data), size=len(raw),
                                    crc32c=crc)
        _shape_proto(entry, value.shape)
        index[key] = entry.SerializeToString()
        data += raw
    header = pb.BundleHeaderProto(num_shards=1)
    header.version.producer = 1
    index[b""] = header.SerializeToString()
    table = _table(sorted(index.items()))
    cm.write_files_atomically([(data_path(prefix), lambda f: f.write(data)),
                               (prefix + INDEX_SUFFIX, lambda f: f.write(table))])


def _as_array(value: Any) -> tuple[np.ndarray, dtypes.DType]:
    if isinstance(value, VariantArray):
        return np.asarray(value.items, dtype=object), VARIANT
    a = np.asarray(value)
    if a.dtype.kind in "SUO":
        return np.asarray(value, dtype=object), dtypes.string
    return a, dtypes.as_dtype(a.dtype)


# --------------------------------------------------------------------------------------
# Reading


class BundleReader:
    """Reads the bundle ``prefix`` (the index at once, each tensor's bytes when asked).

    Raises:
        NotFoundError: there is no ``<prefix>.index``.
        DataLossError: the index is damaged or truncated.
    """

    def __init__(self, prefix: str):
        self.prefix = os.fspath(prefix)
        self._index_path = self.prefix + INDEX_SUFFIX
        try:
            with open(self._index_path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader "
                                       "constructor: Failed to find any matching files for "
                                       "%s" % self.prefix) from None
        table = _read_table(raw, self._index_path)
        pb = _pb()
        self._entries: dict = {}
        try:
            header = pb.BundleHeaderProto.FromString(table.pop(b""))
            for key, value in table.items():
                self._entries[key.decode("latin-1")] = pb.BundleEntryProto.FromString(value)
        except Exception as e:      # noqa: BLE001 - protobuf's DecodeError or a missing header
            raise errors.DataLossError(None, None, "Unable to read checkpoint index %s: %s"
                                       % (self._index_path, e)) from None
        self._num_shards = max(header.num_shards, 1)
        self._big_endian = header.endianness == 1
        # The keys users see: whole tensors by name (slice keys start with a 0 byte).
        self._names = {k.encode("latin-1").decode("utf-8"): k for k in self._entries
                       if not k.startswith("\x00")}

    def keys(self) -> list:
        """The tensors' keys (partitioned tensors once, by name), sorted."""
        return sorted(self._names)

    def has_tensor(self, key: str) -> bool:
        return key in self._names

    def _entry(self, key: str) -> Any:
        if key not in self._names:
            raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % key)
        return self._entries[self._names[key]]

    def dtype(self, key: str) -> dtypes.DType:
        """The dtype of the tensor ``key``."""
        return _dtype_of(self._entry(key).dtype, self._index_path, key)

    def shape(self, key: str) -> list:
        """The shape of the tensor ``key``."""
        return [d.size for d in self._entry(key).shape.dim]

    def get_variable_to_shape_map(self) -> dict:
        """{key: shape as a list}."""
        return {k: self.shape(k) for k in self._names}

    def get_variable_to_dtype_map(self) -> dict:
        """{key: DType}."""
        return {k: self.dtype(k) for k in self._names}

    def get_tensor(self, key: str) -> np.ndarray:
        """The value of ``key`` (a partitioned tensor assembled from its slices).

        Raises:
            NotFoundError: no such key.
            DataLossError: the data file is missing, short or fails its checksum.
        """
        entry = self._entry(key)
        if not entry.slices:
            return self._read(entry, key)
        dt = self.dtype(key)
        shape = self.shape(key)
        out = np.zeros(shape, dtype=object if dt.name == "string" else dt.as_numpy_dtype)
        for sl in entry.slices:
            starts = [e.start for e in sl.extent]
            lengths = [e.length if e.HasField("length") else -1 for e in sl.extent]
            skey = slice_key(key, starts, lengths)
            part = self._entries.get(skey)
            if part is None:
                raise errors.DataLossError(None, None, "Slice %s of %s is missing from %s" % (
                    list(zip(starts, lengths)), key, self._index_path))
            region = tuple(slice(s, None if n < 0 else s + n) for s, n in zip(starts, lengths))
            out[region] = self._read(part, key)
        return out

    def _read(self, entry: Any, key: str) -> np.ndarray:
        path = data_path(self.prefix, entry.shard_id, self._num_shards)
        dt = _dtype_of(entry.dtype, self._index_path, key)
        shape = [d.size for d in entry.shape.dim]
        try:
            with open(path, "rb") as f:
                f.seek(entry.offset)
                raw = f.read(entry.size)
            if len(raw) != entry.size:
                raise ValueError("the file ends %d bytes early" % (entry.size - len(raw)))
            return _decode(raw, entry.crc32c, dt, shape, self._big_endian)
        except (OSError, ValueError, struct.error) as e:
            raise errors.DataLossError(None, None, "Unable to read tensor %s from checkpoint "
                                       "data file %s: %s. The file is truncated or corrupted."
                                       % (key, path, e)) from None


def is_bundle(prefix: str) -> bool:
    """Whether ``<prefix>.index`` exists."""
    return os.path.isfile(os.fspath(prefix) + INDEX_SUFFIX)


__all__ = ["BundleReader", "write_bundle", "slice_key", "data_path", "is_bundle",
           "INDEX_SUFFIX", "VARIANT", "VariantArray"]
