"""``DecodeCompressed`` (``tf.io.decode_compressed``): ZLIB and GZIP streams with Python's
``zlib`` (``""`` passes the bytes through), TensorFlow's errors for corrupt data
(``DataLossError``) and unknown types; and ``tf.io.gfile.get_registered_schemes``."""
from __future__ import annotations

import zlib
from typing import Any

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.string_ops import _like, _map, _strings

#: zlib's ``wbits`` per compression type (ZLIB: a zlib header; GZIP: a gzip header).
_WBITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}


def _inflate(data: bytes, compression_type: str) -> bytes:
    if compression_type == "":
        return data
    if compression_type == "ZSTD":
        raise errors.UnimplementedError(None, None, "DecodeCompressed: ZSTD streams are not "
                                        "supported by flowgrad (ZLIB, GZIP and NONE are)")
    if compression_type not in _WBITS:
        raise errors.InvalidArgumentError(None, None, "Only ZLIB, ZSTD, GZIP or NONE are "
                                          "supported compressions")
    try:
        return zlib.decompress(data, _WBITS[compression_type])
    except zlib.error as exc:     # zlib's "Error -3 while decompressing data: <reason>"
        code, _, reason = str(exc).partition(" while decompressing data: ")
        raise errors.DataLossError(None, None, "inflate() failed with error %s: %s"
                                   % (code.replace("Error ", ""), reason or exc)) from None


register_op("DecodeCompressed",
            lambda x, *, compression_type: _map(lambda b: _inflate(b, compression_type),
                                                _strings(x)),
            _like(dtypes.string), input_names=("bytes",))
NotDifferentiable("DecodeCompressed")


def decode_compressed(bytes: TensorLike, compression_type: str = "",  # noqa: A002
                      name: str | None = None) -> Any:
    """Decompresses each string of ``bytes``.

    Args:
        bytes: A string tensor of compressed data.
        compression_type: ``"ZLIB"``, ``"GZIP"`` or ``""`` (no compression).
        name: A name for the operation (optional).

    Returns:
        A string tensor of ``bytes``' shape.

    Raises:
        DataLossError: if a string is not a valid stream of that type.
        InvalidArgumentError: for an unknown ``compression_type``.
    """
    x = convert_to_tensor(_as_value(bytes), name="bytes")
    if x.dtype.base_dtype != dtypes.string:
        raise argument_error("cannot compute DecodeCompressed as input #0(zero-based) was "
                             "expected to be a string tensor but is a %s tensor"
                             % x.dtype.base_dtype.name, TypeError)
    return apply_op("DecodeCompressed", [x],
                    {"compression_type": str(compression_type)}, name=name)


def get_registered_schemes() -> list:
    """The URI schemes flowgrad's file functions accept: ``""`` (plain paths) and
    ``"file"`` (TensorFlow 2.21 also lists ``"ram"`` and ``"gs"``, which flowgrad lacks).

    Returns:
        A list of scheme strings.
    """
    return ["file", ""]


