"""More of ``tf.strings``: ``to_hash_bucket`` (``StringToHashBucket``: TensorFlow's ``Hash64``,
a MurmurHash64A with TensorFlow's seed, so the buckets are TensorFlow's), and
``unicode_decode_with_offsets`` / ``unicode_split_with_offsets`` (``UnicodeDecodeWithOffsets``:
the code points or characters of each string with the byte offset where each starts).

Invalid text decodes as in TensorFlow (ICU): each maximal invalid subsequence becomes one
replacement character (``errors="replace"``) at the offset where it starts, or nothing
(``"ignore"``), or an ``InvalidArgumentError`` (``"strict"``)."""
from __future__ import annotations

import codecs
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import reshape
from flowgrad.ops.fill_ops import range as range_
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.shape_ops import shape as shape_of
from flowgrad.ops.string_ops import (_buckets, _codec, _elementwise, _errors_arg, _like, _map,
                                     _ragged_like, _string_input, _strings)

_M = 0xC6A4A7935BD1E995
_MASK = (1 << 64) - 1
_SEED = 0xDECAFCAFFE


def hash64(data: bytes, seed: int = _SEED) -> int:
    """TensorFlow's ``Hash64`` (tensorflow/core/lib/hash/hash.cc) of ``data``.

    Args:
        data: The bytes to hash.
        seed: The seed (TensorFlow's default 0xDECAFCAFFE).

    Returns:
        The 64-bit hash as a Python int.
    """
    n = len(data)
    h = (seed ^ (n * _M)) & _MASK
    full = n - n % 8
    if full:
        for k in np.frombuffer(data[:full], dtype="<u8").tolist():
            k = (k * _M) & _MASK
            k ^= k >> 47
            h ^= (k * _M) & _MASK
            h = (h * _M) & _MASK
    rest = data[full:]
    if rest:
        h ^= int.from_bytes(rest, "little")
        h = (h * _M) & _MASK
    h ^= h >> 47
    h = (h * _M) & _MASK
    return h ^ (h >> 47)


register_op("StringToHashBucket",
            lambda x, *, num_buckets: _map(lambda b: hash64(b) % num_buckets, _strings(x),
                                           np.int64),
            _like(dtypes.int64), input_names=("string_tensor",))
NotDifferentiable("StringToHashBucket")


def to_hash_bucket(input: TensorLike, num_buckets: int, name: str | None = None) -> Any:  # noqa: A002
    """TensorFlow's ``Hash64`` of each string, modulo ``num_buckets`` (int64).

    TensorFlow calls this hash unstable across its versions and recommends
    :func:`to_hash_bucket_fast`; flowgrad gives TensorFlow 2.21's buckets.

    Args:
        input: A string tensor (or RaggedTensor).
        num_buckets: The number of buckets (a positive int).
        name: A name for the operation (optional).

    Returns:
        An int64 tensor of ``input``'s shape.

    Raises:
        InvalidArgumentError: if ``num_buckets`` is below 1.
    """
    return _elementwise("StringToHashBucket", input, {"num_buckets": _buckets(num_buckets)},
                        name)


def string_to_hash_bucket_v1(string_tensor: TensorLike | None = None,
                             num_buckets: int | None = None, name: str | None = None,
                             input: TensorLike | None = None) -> Any:  # noqa: A002
    """TF1's ``tf.string_to_hash_bucket`` / ``tf.compat.v1.strings.to_hash_bucket``:
    :func:`to_hash_bucket` with ``string_tensor`` (or ``input``) first.

    Args:
        string_tensor: A string tensor.
        num_buckets: The number of buckets (a positive int).
        name: A name for the operation (optional).
        input: The TF2 name of ``string_tensor``.

    Returns:
        An int64 tensor of the input's shape.
    """
    if (string_tensor is None) == (input is None):
        raise ValueError("Exactly one of 'string_tensor' and 'input' must be given.")
    return to_hash_bucket(string_tensor if input is None else input, num_buckets, name)


class _Recorder:
    """A codec error handler that remembers where each invalid subsequence was."""

    spans: list = []

    @classmethod
    def handler(cls, exc: UnicodeDecodeError) -> tuple:
        cls.spans.append((exc.start, exc.end))
        return "\ufffd", exc.end


codecs.register_error("flowgrad_offsets", _Recorder.handler)


def _decode_with_offsets(b: bytes, enc: str, errors_: str, replacement: int,
                         replace_control: bool) -> tuple:
    """The code points of ``b`` and the byte offset where each starts."""
    _Recorder.spans = []
    text = b.decode(enc, "flowgrad_offsets")
    spans = list(_Recorder.spans)
    if spans and errors_ == "strict":
        raise errors.InvalidArgumentError(None, None, "Invalid formatting on input string")
    chars, offsets, pos, k = [], [], 0, 0
    for c in text:
        if k < len(spans) and spans[k][0] == pos and c == "\ufffd":
            start, pos = spans[k]
            k += 1
            if errors_ == "ignore":
                continue
            chars.append(replacement)
            offsets.append(start)
            continue
        offsets.append(pos)
        code = ord(c)
        chars.append(replacement if replace_control and code < 0x20 else code)
        pos += len(c.encode(enc))
    return chars, offsets


def _decode_offsets_kernel(x: Any, *, input_encoding: str, errors: str,  # noqa: A002
                           replacement_char: int, replace_control_characters: bool,
                           Tsplits: dtypes.DType) -> tuple:  # noqa: N803
    rows = [_decode_with_offsets(b, input_encoding, errors, replacement_char,
                                 replace_control_characters) for b in _strings(x).flat]
    splits = np.concatenate([[0], np.cumsum([len(c) for c, _ in rows])]).astype(Tsplits.np)
    chars = np.array([v for c, _ in rows for v in c], dtype=np.int32)
    offsets = np.array([v for _, o in rows for v in o], dtype=np.int64)
    return splits, chars, offsets


register_op("UnicodeDecodeWithOffsets", _decode_offsets_kernel,
            lambda ins, attrs: [(attrs["Tsplits"], TensorShape([None])),
                                (dtypes.int32, TensorShape([None])),
                                (dtypes.int64, TensorShape([None]))],
            num_outputs=3, input_names=("input",))
NotDifferentiable("UnicodeDecodeWithOffsets")


def _decode(input: Any, input_encoding: str, errors_: str, replacement_char: int,  # noqa: A002
            replace_control_characters: bool, name: str | None) -> tuple:
    if isinstance(input, RaggedTensor):
        chars, offsets = _decode(input.flat_values, input_encoding, errors_, replacement_char,
                                 replace_control_characters, name)
        return input.with_flat_values(chars), input.with_flat_values(offsets)
    t = _string_input(input)
    if t.shape.rank is None:
        raise ValueError("unicode_decode_with_offsets needs an input of known rank")
    splits, chars, offsets = apply_op("UnicodeDecodeWithOffsets", [reshape(t, [-1])], {
        "input_encoding": _codec(input_encoding), "errors": _errors_arg(errors_),
        "replacement_char": int(replacement_char),
        "replace_control_characters": bool(replace_control_characters),
        "Tsplits": dtypes.int64}, name=name)
    return _ragged_like(chars, splits, t), _ragged_like(offsets, splits, t)


def unicode_decode_with_offsets(input: TensorLike, input_encoding: str,  # noqa: A002
                                errors: str = "replace", replacement_char: int = 65533,  # noqa: A002
                                replace_control_characters: bool = False,
                                name: str | None = None) -> tuple:
    """The code points of each string and the byte offset where each starts.

    Args:
        input: A string tensor (or RaggedTensor) of rank N.
        input_encoding: ``"UTF-8"``, ``"UTF-16-BE"`` or ``"UTF-32-BE"``.
        errors: ``"replace"``, ``"ignore"`` or ``"strict"``: what to do with invalid text.
        replacement_char: The code point that replaces invalid text with ``errors="replace"``.
        replace_control_characters: Whether C0 control characters are replaced too.
        name: A name for the operation (optional).

    Returns:
        ``(codepoints, start_offsets)``: int32 and int64 tensors of rank N + 1, ragged in
        their last dimension (vectors for a scalar string).

    Raises:
        InvalidArgumentError: on invalid text with ``errors="strict"``.
    """
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                   name)


def unicode_split_with_offsets(input: TensorLike, input_encoding: str,  # noqa: A002
                               errors: str = "replace", replacement_char: int = 65533,  # noqa: A002
                               name: str | None = None) -> tuple:
    """Each string as its characters (each a string, invalid text replaced by
    ``replacement_char``'s encoding) and the byte offset where each starts.

    Args:
        input: A string tensor (or RaggedTensor) of rank N.
        input_encoding: ``"UTF-8"``, ``"UTF-16-BE"`` or ``"UTF-32-BE"``.
        errors: ``"replace"``, ``"ignore"`` or ``"strict"``: what to do with invalid text.
        replacement_char: The code point that replaces invalid text with ``errors="replace"``.
        name: A name for the operation (optional).

    Returns:
        ``(chars, start_offsets)``: string and int64 tensors of rank N + 1, ragged in their
        last dimension (vectors for a scalar string).
    """
    codes, offsets = _decode(input, input_encoding, errors, replacement_char, False, name)
    flat = codes.flat_values if isinstance(codes, RaggedTensor) else codes
    n = shape_of(flat, out_type=dtypes.int64)[0]
    chars = apply_op("UnicodeEncode", [flat, range_(0, n + 1, dtype=dtypes.int64)], {
        "errors": _errors_arg(errors), "output_encoding": _codec(input_encoding),
        "replacement_char": int(replacement_char)})
    if isinstance(codes, RaggedTensor):
        return codes.with_flat_values(chars), offsets
    return chars, offsets
