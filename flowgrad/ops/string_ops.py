"""``tf.strings``: string ops with TensorFlow's bytes semantics (each op by its TensorFlow
type name: StringSplitV2, StringJoin, ReduceJoin, StaticRegexReplace, StringToNumber,
AsString, Substr, UnicodeDecode, ...). None is differentiable, as in TensorFlow. Hashing
needs the ``pyfarmhash`` and ``siphash24`` packages (``pip install flowgrad[strings]``)."""
from __future__ import annotations

import re
import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes, unknown_shape
from flowgrad.ops.array_ops import expand_dims, reshape
from flowgrad.ops.fill_ops import range as range_
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.shape_ops import shape as shape_of
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import AxisLike, DTypeLike, TensorLike
from flowgrad.framework import dispatch


def _strings(x: Any) -> np.ndarray:
    """A kernel's string input as an object array of bytes."""
    return np.asarray(x, dtype=object)


def _map(fn: Callable, arr: np.ndarray, dtype: Any = object) -> np.ndarray:
    """``fn`` of each element, in an array of ``arr``'s shape."""
    out = np.empty(arr.shape, dtype=dtype)
    if arr.size:
        out.flat[:] = [fn(x) for x in arr.flat]
    return out


def _string_input(x: Any, name: str = "input") -> Any:
    t = x.flat_values if isinstance(x, RaggedTensor) else convert_to_tensor(x, dtypes.string)
    if t.dtype.base_dtype is not dtypes.string:
        raise TypeError("Input '%s' of a string op has type %s that does not match expected "
                        "type of string." % (name, t.dtype.name))
    return t


def _elementwise(op_type: str, x: Any, attrs: dict, name: str | None) -> Any:
    """An op applied to each string (of a RaggedTensor's flat values too)."""
    if isinstance(x, RaggedTensor):
        return x.with_flat_values(_elementwise(op_type, x.flat_values, attrs, name))
    return apply_op(op_type, [_string_input(x)], attrs, name=name)


def _like(dtype: dtypes.DType) -> Callable:
    return lambda ins, attrs: (dtype, ins[0].shape)


def _register(op_type: str, kernel: Callable, rule: Callable, **kw: Any) -> None:
    register_op(op_type, kernel, rule, **kw)
    NotDifferentiable(op_type)


# -- case, strip, length, substr -----------------------------------------------------------

def _case_kernel(change: str) -> Callable:
    def kernel(x: Any, *, encoding: str) -> np.ndarray:
        if encoding == "utf-8":
            return _map(lambda b: getattr(b.decode("utf-8"), change)().encode("utf-8"),
                        _strings(x))
        return _map(lambda b: getattr(b, change)(), _strings(x))   # ASCII only, as TF's ""
    return kernel


_register("StringLower", _case_kernel("lower"), _like(dtypes.string), input_names=("input",))
_register("StringUpper", _case_kernel("upper"), _like(dtypes.string), input_names=("input",))
_register("StringStrip", lambda x: _map(lambda b: b.strip(), _strings(x)),
          _like(dtypes.string), input_names=("input",))


def _encoding(encoding: str) -> str:
    enc = (encoding or "").lower().replace("_", "-")
    if enc not in ("", "utf-8", "utf8"):
        raise errors.InvalidArgumentError(None, None, "encoding must be '' or 'utf-8', got %r"
                                          % encoding)
    return "utf-8" if enc else ""


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def lower(input: TensorLike, encoding: str = "", name: str | None = None) -> Any:
    """Lower-cased strings: ASCII letters only, unless ``encoding="utf-8"``.

    Args:
        input: A string tensor.
        encoding: ``""`` (ASCII only) or ``"utf-8"``.
        name: A name for the operation (optional).
    """
    return _elementwise("StringLower", input, {"encoding": _encoding(encoding)}, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def upper(input: TensorLike, encoding: str = "", name: str | None = None) -> Any:
    """Upper-cased strings: ASCII letters only, unless ``encoding="utf-8"``.

    Args:
        input: A string tensor.
        encoding: ``""`` (ASCII only) or ``"utf-8"``.
        name: A name for the operation (optional).
    """
    return _elementwise("StringUpper", input, {"encoding": _encoding(encoding)}, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def strip(input: TensorLike, name: str | None = None) -> Any:
    """The strings without leading and trailing whitespace.

    Args:
        input: A string tensor.
        name: A name for the operation (optional).
    """
    return _elementwise("StringStrip", input, {}, name)


def _utf8_chars(b: bytes) -> int:
    """The number of UTF-8 characters (bytes that do not continue a character)."""
    return sum(1 for c in b if c & 0xC0 != 0x80)


def _length_kernel(x: Any, *, unit: str) -> np.ndarray:
    count = len if unit == "BYTE" else _utf8_chars
    return _map(count, _strings(x), np.int32)


_register("StringLength", _length_kernel, _like(dtypes.int32), input_names=("input",))


def _unit(unit: str) -> str:
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError("unit must be one of \"BYTE\", \"UTF8_CHAR\", got %r" % (unit,))
    return unit


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def length(input: TensorLike, unit: str = "BYTE", name: str | None = None) -> Any:
    """The length of each string in bytes (``unit="BYTE"``) or UTF-8 characters.

    Args:
        input: A string tensor.
        unit: ``"BYTE"`` or ``"UTF8_CHAR"``.
        name: A name for the operation (optional).
    """
    return _elementwise("StringLength", input, {"unit": _unit(unit)}, name)


def _char_offsets(b: bytes) -> list:
    """The byte offset of each UTF-8 character of ``b``, then ``len(b)``."""
    return [i for i, c in enumerate(b) if c & 0xC0 != 0x80] + [len(b)]


def _substr_kernel(x: Any, pos: Any, n: Any, *, unit: str) -> np.ndarray:
    x, pos, n = np.broadcast_arrays(_strings(x), np.asarray(pos), np.asarray(n))
    out = np.empty(x.shape, dtype=object)
    for i, (b, p, k) in enumerate(zip(x.flat, pos.flat, n.flat)):
        offsets = _char_offsets(b) if unit == "UTF8_CHAR" else None
        size = len(offsets) - 1 if offsets is not None else len(b)
        p, k = int(p), int(k)
        start = p + size if p < 0 else p
        if not 0 <= start <= size:
            raise errors.InvalidArgumentError(None, None, "pos %d out of range for string b'%s' "
                                              "at index %d" % (p, b.decode("latin-1"), i))
        stop = min(start + max(k, 0), size)
        out.flat[i] = b[offsets[start]:offsets[stop]] if offsets is not None else b[start:stop]
    return out


_register("Substr", _substr_kernel,
          lambda ins, attrs: (dtypes.string, broadcast_shapes(
              broadcast_shapes(ins[0].shape, ins[1].shape), ins[2].shape)),
          input_names=("input", "pos", "len"))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def substr(input: TensorLike, pos: Any, len: Any, unit: str = "BYTE",  # noqa: A002 - TF's name
           name: str | None = None) -> Any:
    """``len`` bytes (or UTF-8 characters) of each string from ``pos`` (negative: from the
    end); broadcasts.

    Args:
        input: A string tensor.
        pos: The start of each substring (negative: from the end).
        len: The length of each substring.
        unit: ``"BYTE"`` or ``"UTF8_CHAR"``.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: ``pos`` is outside a string.
    """
    p, n = convert_to_tensor(pos), convert_to_tensor(len)
    if p.dtype.base_dtype not in (dtypes.int32, dtypes.int64) or p.dtype != n.dtype:
        raise TypeError("pos and len must be int32 or int64 tensors of one dtype")
    return apply_op("Substr", [_string_input(input), p, n], {"unit": _unit(unit)}, name=name)


# -- joining ---------------------------------------------------------------------------

def _join_kernel(*inputs: Any, separator: bytes) -> np.ndarray:
    separator = _bytes(separator)          # str in a node imported from a GraphDef
    arrays = np.broadcast_arrays(*[_strings(x) for x in inputs])
    out = np.empty(arrays[0].shape, dtype=object)
    if out.size:
        out.flat[:] = [separator.join(parts) for parts in zip(*[a.flat for a in arrays])]
    return out


def _join_rule(ins: list, attrs: dict) -> tuple:
    shape = TensorShape([])
    for t in ins:
        shape = broadcast_shapes(shape, t.shape)
    return dtypes.string, shape


_register("StringJoin", _join_kernel, _join_rule, input_names=("inputs",))


def _bytes(value: Any) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def join(inputs: TensorLike, separator: str = "", name: str | None = None) -> Any:
    """The strings of ``inputs`` (a list of tensors, broadcast) joined elementwise.

    Args:
        inputs: A list of string tensors of broadcastable shapes.
        separator: The string put between joined strings.
        name: A name for the operation (optional).
    """
    ts = [_string_input(x, "inputs") for x in inputs]
    return apply_op("StringJoin", ts, {"separator": _bytes(separator)}, name=name)


def _reduce_join_kernel(x: Any, axes: Any, *, keep_dims: bool, separator: bytes) -> np.ndarray:
    separator = _bytes(separator)          # str in a node imported from a GraphDef
    x = _strings(x)
    ax = np.asarray(axes).reshape(-1)
    if ax.size == 0 and np.asarray(axes).ndim == 0:
        ax = np.arange(x.ndim)
    axes_ = sorted({int(a) + x.ndim if a < 0 else int(a) for a in ax})
    for a in axes_:
        if not 0 <= a < x.ndim:
            raise errors.InvalidArgumentError(None, None, "Invalid reduction dimension %d for "
                                              "input with %d dimensions." % (a, x.ndim))
    keep = [d for d in range(x.ndim) if d not in axes_]
    moved = np.transpose(x, keep + axes_)
    lead = moved.shape[:len(keep)]
    flat = moved.reshape(lead + (-1,))
    out = np.empty(lead, dtype=object)
    for idx in np.ndindex(*lead):
        out[idx] = separator.join(flat[idx])
    if keep_dims:
        out = out.reshape([1 if d in axes_ else x.shape[d] for d in range(x.ndim)])
    return out


def _reduce_join_rule(ins: list, attrs: dict) -> tuple:
    dims = ins[0].shape.as_tuple()
    axes = constant_value(ins[1])
    if dims is None or axes is None:
        return dtypes.string, unknown_shape()
    axes = {int(a) % len(dims) for a in np.asarray(axes).reshape(-1)} if len(dims) else set()
    if attrs["keep_dims"]:
        return dtypes.string, TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
    return dtypes.string, TensorShape([d for i, d in enumerate(dims) if i not in axes])


_register("ReduceJoin", _reduce_join_kernel, _reduce_join_rule,
          input_names=("inputs", "reduction_indices"))


def reduce_join(inputs: TensorLike, axis: AxisLike = None, keepdims: bool = False,
                separator: str = "", name: str | None = None) -> Any:
    """The strings joined along ``axis`` (all axes when None).

    Args:
        inputs: A string tensor.
        axis: The axis or axes to join along; None joins all.
        keepdims: Whether to keep the joined axes with length 1.
        separator: The string put between joined strings.
        name: A name for the operation (optional).
    """
    t = _string_input(inputs, "inputs")
    if axis is None:
        rank = t.shape.rank
        axis = list(range(rank)) if rank is not None else range_(0, _rank_of(t))
    axes = convert_to_tensor(axis, dtypes.int32) if not hasattr(axis, "dtype") else axis
    return apply_op("ReduceJoin", [t, axes], {"keep_dims": bool(keepdims),
                                              "separator": _bytes(separator)}, name=name)


def _rank_of(t: Any) -> Any:
    return shape_of(shape_of(t))[0]


# -- regular expressions (RE2 syntax; Python's re for the patterns RE2 and re share) ------------

def _compile(pattern: bytes) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as e:
        raise errors.InvalidArgumentError(None, None, "Invalid pattern: %s, error: %s"
                                          % (pattern.decode("utf-8", "replace"), e)) from None


def _rewrite(rewrite: bytes) -> bytes:
    r"""RE2's rewrite string in ``re``'s syntax (``\0`` is the whole match)."""
    return re.sub(rb"\\([0-9])", rb"\\g<\1>", rewrite)


def _regex_replace(x: Any, pattern: bytes, rewrite: bytes, replace_global: bool) -> np.ndarray:
    # a node imported from a GraphDef holds its string attributes as str
    rx, rw = _compile(_bytes(pattern)), _rewrite(_bytes(rewrite))
    return _map(lambda b: rx.sub(rw, b, count=0 if replace_global else 1), _strings(x))


_register("StaticRegexReplace",
          lambda x, *, pattern, rewrite, replace_global: _regex_replace(x, pattern, rewrite,
                                                                        replace_global),
          _like(dtypes.string), input_names=("input",))
_register("RegexReplace",
          lambda x, p, r, *, replace_global: _regex_replace(
              x, _scalar(p), _scalar(r), replace_global),
          _like(dtypes.string), input_names=("input", "pattern", "rewrite"))


def _scalar(v: Any) -> bytes:
    return v if isinstance(v, bytes) else np.asarray(v, dtype=object).item()


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def regex_replace(input: TensorLike, pattern: TensorLike, rewrite: TensorLike,
                  replace_global: bool = True, name: str | None = None) -> Any:
    r"""Replaces the matches of ``pattern`` (RE2 syntax) by ``rewrite`` (``\1`` for groups).

    Args:
        input: A string tensor.
        pattern: A regular expression in RE2 syntax.
        rewrite: The replacement; ``\1`` refers to a group.
        replace_global: Replace every match if true, else the first only.
        name: A name for the operation (optional).
    """
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return _elementwise("StaticRegexReplace", input,
                            {"pattern": _bytes(pattern), "rewrite": _bytes(rewrite),
                             "replace_global": bool(replace_global)}, name)
    return apply_op("RegexReplace", [_string_input(input),
                                     convert_to_tensor(pattern, dtypes.string),
                                     convert_to_tensor(rewrite, dtypes.string)],
                    {"replace_global": bool(replace_global)}, name=name)


def _full_match(x: Any, pattern: bytes) -> np.ndarray:
    rx = _compile(pattern)
    return _map(lambda b: rx.fullmatch(b) is not None, _strings(x), np.bool_)


_register("StaticRegexFullMatch", lambda x, *, pattern: _full_match(x, pattern),
          _like(dtypes.bool), input_names=("input",))
_register("RegexFullMatch", lambda x, p: _full_match(x, _scalar(p)), _like(dtypes.bool),
          input_names=("input", "pattern"))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def regex_full_match(input: TensorLike, pattern: TensorLike, name: str | None = None) -> Any:
    """Whether each whole string matches ``pattern`` (RE2 syntax).

    Args:
        input: A string tensor.
        pattern: A regular expression in RE2 syntax (a string scalar).
        name: A name for the operation (optional).
    """
    if isinstance(pattern, (str, bytes)):
        return _elementwise("StaticRegexFullMatch", input, {"pattern": _bytes(pattern)}, name)
    return apply_op("RegexFullMatch", [_string_input(input),
                                       convert_to_tensor(pattern, dtypes.string)], name=name)


# -- numbers <-> strings -----------------------------------------------------------------

_NUMBER = re.compile(rb"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|infinity|nan)"
                     rb"\s*", re.IGNORECASE)


_HEX = re.compile(rb"[-+]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][-+]?\d+)?")


def _to_number_kernel(x: Any, *, out_type: dtypes.DType) -> np.ndarray:
    def convert(b: bytes) -> Any:
        text = b.strip()
        try:
            if out_type.is_integer:
                if not re.fullmatch(rb"[-+]?\d+", text):
                    raise ValueError
                v = int(text)
                info = np.iinfo(out_type.np)
                if not info.min <= v <= info.max:
                    raise ValueError
                return v
            if _HEX.fullmatch(text):
                return float.fromhex(text.decode())
            if not _NUMBER.fullmatch(b):
                raise ValueError
            return float(text)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, "StringToNumberOp could not correctly convert string: %s"
                % b.decode("utf-8", "replace")) from None
    return _map(convert, _strings(x), out_type.np)


_register("StringToNumber", _to_number_kernel, lambda ins, attrs: (attrs["out_type"],
                                                                     ins[0].shape),
          input_names=("string_tensor",))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_number(input: TensorLike, out_type: DTypeLike = dtypes.float32,
              name: str | None = None) -> Any:
    """Each string parsed as a number of ``out_type`` (float32, float64, int32 or int64).

    Args:
        input: A string tensor.
        out_type: float32, float64, int32 or int64.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: a string is not a number of that type.
    """
    dt = dtypes.as_dtype(out_type)
    if dt not in (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of "
                        "allowed values: float32, float64, int32, int64" % dt.name)
    return _elementwise("StringToNumber", input, {"out_type": dt}, name)


def _as_string_kernel(x: Any, *, precision: int, scientific: bool, shortest: bool,
                      width: int, fill: str) -> np.ndarray:
    arr = np.asarray(x)
    kind = arr.dtype.kind
    flags = "0" if fill == "0" else ""
    w = str(width) if width > -1 else ""
    if kind == "b":
        fmt = None
    elif kind in "iu":
        fmt = "%" + flags + w + "d"
    elif kind == "f":
        spec = "g" if shortest else "e" if scientific else "f"
        prec = "." + str(precision) if precision > -1 else ""
        fmt = "%" + flags + w + prec + spec
    elif kind == "c":
        spec = "g" if shortest else "e" if scientific else "f"
        prec = "." + str(precision) if precision > -1 else ""
        part = "%" + flags + w + prec + spec
        fmt = "(" + part + "," + part + ")"
    else:
        raise errors.InvalidArgumentError(None, None, "Type %s not supported by AsString"
                                          % arr.dtype)

    def text(v: Any) -> bytes:
        if fmt is None:
            s = "true" if v else "false"
        elif kind == "c":
            s = fmt % (v.real, v.imag)
        else:
            s = fmt % v
        if fill and fill != "0" and len(s) < width:
            s = fill * (width - len(s)) + s
        return s.encode()
    return _map(text, arr)


_register("AsString", _as_string_kernel, _like(dtypes.string), input_names=("input",))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def as_string(input: TensorLike, precision: int = -1, scientific: bool = False,
              shortest: bool = False, width: int = -1, fill: str = "",
              name: str | None = None) -> Any:
    """Each number (or bool) as a string, formatted as TensorFlow's AsString (floats with
    six decimals unless ``precision``/``scientific``/``shortest``).

    Args:
        input: A tensor of numbers or bools.
        precision: Digits after the decimal point for floats; -1 for the default.
        scientific: Use scientific notation for floats.
        shortest: Use the shortest representation (scientific or not) for floats.
        width: Pad each result to this width; -1 for no padding.
        fill: The character to pad with: empty (spaces), a space or ``0``.
        name: A name for the operation (optional).
    """
    t = convert_to_tensor(input)
    if t.dtype.base_dtype is dtypes.string:
        raise TypeError("Value passed to parameter 'input' has DataType string not in list of "
                        "allowed values")
    if len(fill) > 1:
        raise errors.InvalidArgumentError(None, None, "Fill string must be one or fewer "
                                          "characters")
    if scientific and shortest:
        raise errors.InvalidArgumentError(None, None, "Cannot select both scientific and "
                                          "shortest notation")
    return apply_op("AsString", [t], {"precision": int(precision), "scientific": scientific,
                                      "shortest": shortest, "width": int(width),
                                      "fill": fill}, name=name)


# -- hashing (TensorFlow's Fingerprint64 = FarmHash; SipHash-2-4 for the keyed hash) -------

def _fingerprint64(b: bytes) -> int:
    try:
        import farmhash
    except ImportError as e:
        raise ImportError("tf.strings.to_hash_bucket_fast needs the optional 'pyfarmhash' "
                          "package: pip install flowgrad[strings]") from e
    return farmhash.fingerprint64(b)


def _siphash(key: bytes) -> Callable:
    try:
        from siphash24 import siphash24
    except ImportError as e:
        raise ImportError("tf.strings.to_hash_bucket_strong needs the optional 'siphash24' "
                          "package: pip install flowgrad[strings]") from e
    return lambda b: int.from_bytes(siphash24(b, key=key).digest(), "little")


_register("StringToHashBucketFast",
          lambda x, *, num_buckets: _map(lambda b: _fingerprint64(b) % num_buckets,
                                         _strings(x), np.int64),
          _like(dtypes.int64), input_names=("input",))
_register("StringToHashBucketStrong",
          lambda x, *, num_buckets, key: _map(
              lambda b, h=_siphash(struct.pack("<QQ", *key)): h(b) % num_buckets,
              _strings(x), np.int64),
          _like(dtypes.int64), input_names=("input",))


def _buckets(num_buckets: Any) -> int:
    n = int(num_buckets)
    if n < 1:
        raise errors.InvalidArgumentError(None, None, "Value for attr 'num_buckets' of %d must "
                                          "be at least minimum 1" % n)
    return n


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_hash_bucket_fast(input: TensorLike, num_buckets: int, name: str | None = None) -> Any:
    """FarmHash Fingerprint64 of each string, modulo ``num_buckets`` (int64).

    Args:
        input: A string tensor.
        num_buckets: The number of buckets (a positive int).
        name: A name for the operation (optional).
    """
    return _elementwise("StringToHashBucketFast", input,
                        {"num_buckets": _buckets(num_buckets)}, name)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def to_hash_bucket_strong(input: TensorLike, num_buckets: int, key: Any,
                          name: str | None = None) -> Any:
    """SipHash-2-4 of each string under the two-integer ``key``, modulo ``num_buckets``.

    Args:
        input: A string tensor.
        num_buckets: The number of buckets (a positive int).
        key: The SipHash key: a list of two uint64 integers.
        name: A name for the operation (optional).
    """
    k = [int(v) for v in key]
    if len(k) != 2:
        raise errors.InvalidArgumentError(None, None, "Key must have 2 elements")
    return _elementwise("StringToHashBucketStrong", input,
                        {"num_buckets": _buckets(num_buckets),
                         "key": tuple(v & 0xFFFFFFFFFFFFFFFF for v in k)}, name)


# -- splitting -------------------------------------------------------------------------

def _sparse_split(pieces: list) -> tuple:
    """(indices, values, shape) of the rows of ``pieces``, as the StringSplit ops return."""
    indices = [(i, j) for i, row in enumerate(pieces) for j in range(len(row))]
    values = np.empty(len(indices), dtype=object)
    values[:] = [p for row in pieces for p in row]
    width = max((len(r) for r in pieces), default=0)
    return (np.array(indices, dtype=np.int64).reshape(-1, 2), values,
            np.array([len(pieces), width], dtype=np.int64))


def _split_v2_kernel(x: Any, sep: Any, *, maxsplit: int) -> tuple:
    s = _scalar(sep)
    n = -1 if maxsplit < 0 else maxsplit
    if s:
        pieces = [b.split(s, n) for b in _strings(x).flat]
    else:       # runs of whitespace; no empty pieces
        pieces = [b.split(None, n) if n >= 0 else b.split() for b in _strings(x).flat]
    return _sparse_split(pieces)


def _split_kernel(x: Any, delimiter: Any, *, skip_empty: bool) -> tuple:
    d = _scalar(delimiter)
    pieces = []
    for b in _strings(x).flat:
        if not d:
            row = [b[i:i + 1] for i in range(len(b))]
        else:
            row = re.split(b"[" + re.escape(d) + b"]", b)
        pieces.append([p for p in row if p] if skip_empty else row)
    return _sparse_split(pieces)


def _split_rule(ins: list, attrs: dict) -> list:
    return [(dtypes.int64, TensorShape([None, 2])), (dtypes.string, TensorShape([None])),
            (dtypes.int64, TensorShape([2]))]


_register("StringSplitV2", _split_v2_kernel, _split_rule, num_outputs=3,
          input_names=("input", "sep"))
_register("StringSplit", _split_kernel, _split_rule, num_outputs=3,
          input_names=("input", "delimiter"))


def _ragged_of_sparse(indices: Any, values: Any, shape: Any) -> RaggedTensor:
    return RaggedTensor.from_value_rowids(values, indices[:, 0], nrows=shape[0], validate=False)


def _split_into_ragged(op_type: str, t: Any, arg: Any, attrs: dict, name: str | None) -> Any:
    rank = t.shape.rank
    if rank is None:
        raise ValueError("input must have a known rank")
    if rank == 0:
        return _split_into_ragged(op_type, expand_dims(t, 0), arg, attrs, name).values
    flat = reshape(t, [-1]) if rank > 1 else t
    indices, values, shape = apply_op(op_type, [flat, arg], attrs, name=name)
    out = _ragged_of_sparse(indices, values, shape)
    if rank > 1:        # the outer dimensions are uniform: row lengths from the static shape
        dims = t.shape.as_tuple()
        if any(d is None for d in dims[1:]):
            raise ValueError("split of a rank-%d input needs its inner dimensions known" % rank)
        for d in reversed(dims[1:]):
            n = int(np.prod([1 if x is None else x for x in dims])) // d \
                if dims[0] is not None else None
            if n is None:
                raise ValueError("split of a rank-%d input needs its shape known" % rank)
            out = RaggedTensor.from_row_splits(out, np.arange(0, n * d + 1, d, dtype=np.int64),
                                               validate=False)
            dims = dims[:-1]
    return out


def split(input: TensorLike, sep: Any = None, maxsplit: int = -1, name: str | None = None) -> Any:
    """Splits each string at ``sep`` (runs of whitespace when None or empty), at most
    ``maxsplit`` times: a RaggedTensor (a vector for a scalar input).

    Args:
        input: A string tensor.
        sep: The separator string; None or empty splits at runs of whitespace.
        maxsplit: The most splits per string; -1 for no limit.
        name: A name for the operation (optional).
    """
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(split(input.flat_values, sep, maxsplit, name))
    t = _string_input(input)
    s = convert_to_tensor(b"" if sep is None else sep, dtypes.string)
    return _split_into_ragged("StringSplitV2", t, s, {"maxsplit": int(maxsplit)}, name)


def split_to_sparse(input: TensorLike, sep: Any = None, maxsplit: int = -1,  # noqa: A002
                    name: str | None = None) -> Any:
    """TF1's ``tf.strings.split``: the pieces of a vector of strings as a SparseTensor."""
    t = _string_input(input)
    if t.shape.rank not in (1, None):
        raise ValueError("input must be a vector, got: %s" % t.shape)
    s = convert_to_tensor(b"" if sep is None else sep, dtypes.string)
    return SparseTensor(*apply_op("StringSplitV2", [t, s], {"maxsplit": int(maxsplit)},
                                  name=name))


def bytes_split(input: TensorLike, name: str | None = None) -> Any:
    """Each string as its single bytes: a RaggedTensor (a vector for a scalar input).

    Args:
        input: A string tensor.
        name: A name for the operation (optional).
    """
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(bytes_split(input.flat_values, name))
    t = _string_input(input)
    return _split_into_ragged("StringSplit", t, convert_to_tensor(b"", dtypes.string),
                              {"skip_empty": False}, name)


def string_split(source: Any, sep: Any = None, skip_empty: bool = True, delimiter: Any = None,
                 result_type: str = "SparseTensor", name: str | None = None) -> Any:
    """TF1's ``tf.string_split``: any of the characters of ``delimiter`` splits (a space when
    None); a RaggedTensor with ``result_type="RaggedTensor"``.

    Args:
        source: A string vector.
        sep: TensorFlow 2's name for ``delimiter``.
        skip_empty: Whether to drop empty tokens.
        delimiter: The characters that each split; a space if None.
        result_type: ``"SparseTensor"`` or ``"RaggedTensor"``.
        name: A name for the operation (optional).
    """
    d = delimiter if delimiter is not None else sep if sep is not None else " "
    t = _string_input(source, "source")
    if result_type != "RaggedTensor":
        idx, vals, shape = apply_op("StringSplit", [t, convert_to_tensor(d, dtypes.string)],
                                    {"skip_empty": bool(skip_empty)}, name=name)
        return SparseTensor(idx, vals, shape)
    return _split_into_ragged("StringSplit", t, convert_to_tensor(d, dtypes.string),
                              {"skip_empty": bool(skip_empty)}, name)


# -- Unicode ---------------------------------------------------------------------------

def _codec(encoding: str) -> str:
    enc = encoding.upper().replace("_", "-")
    if enc not in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
        raise ValueError("encoding must be one of UTF-8, UTF-16-BE, UTF-32-BE, got %r"
                         % encoding)
    return enc.lower()


def _decode_chars(b: bytes, enc: str, errors_: str, replacement: int,
                  replace_control: bool) -> list:
    if errors_ == "strict":
        try:
            text = b.decode(enc)
        except UnicodeDecodeError as e:
            raise errors.InvalidArgumentError(None, None, "Invalid formatting on input string "
                                              "(%s)" % e) from None
        chars = [ord(c) for c in text]
    elif errors_ == "ignore":
        chars = [ord(c) for c in b.decode(enc, "ignore")]
    else:
        chars = [replacement if c == "\ufffd" else ord(c)
                 for c in b.decode(enc, "replace")]
    if replace_control:
        chars = [replacement if c < 0x20 else c for c in chars]
    return chars


def _unicode_decode_kernel(x: Any, *, input_encoding: str, errors: str,  # noqa: A002
                           replacement_char: int, replace_control_characters: bool,
                           Tsplits: dtypes.DType) -> tuple:
    rows = [_decode_chars(b, input_encoding, errors, replacement_char,
                          replace_control_characters) for b in _strings(x).flat]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(Tsplits.np)
    return splits, np.array([c for r in rows for c in r], dtype=np.int32)


_register("UnicodeDecode", _unicode_decode_kernel,
          lambda ins, attrs: [(attrs["Tsplits"], TensorShape([None])),
                              (dtypes.int32, TensorShape([None]))],
          num_outputs=2, input_names=("input",))


errors_module = errors      # the kernels' ``errors`` attribute (TensorFlow's name) shadows it


def _unicode_encode_kernel(values: Any, splits: Any, *, errors: str,  # noqa: A002
                           output_encoding: str, replacement_char: int) -> np.ndarray:
    values, splits = np.asarray(values), np.asarray(splits)

    def char(c: int) -> str:
        if 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF:
            return chr(c)
        if errors == "strict":
            raise errors_module.InvalidArgumentError(None, None, "Invalid code point %d" % c)
        return "" if errors == "ignore" else chr(replacement_char)
    out = np.empty(max(len(splits) - 1, 0), dtype=object)
    for i in range(out.size):
        out[i] = "".join(char(int(c)) for c in values[splits[i]:splits[i + 1]]).encode(
            output_encoding)
    return out


_register("UnicodeEncode", _unicode_encode_kernel,
          lambda ins, attrs: (dtypes.string, TensorShape([None])), num_outputs=1,
          input_names=("input_values", "input_splits"))


def _errors_arg(value: str) -> str:
    if value not in ("strict", "replace", "ignore"):
        raise ValueError("errors must be one of 'strict', 'replace', 'ignore', got %r"
                         % (value,))
    return value


def _ragged_like(flat: Any, splits: Any, t: Any) -> Any:
    """Rows of ``flat`` (split by ``splits``, one per string of ``t``) shaped as ``t``: a
    vector for a scalar string, a RaggedTensor of ragged rank ``t``'s rank otherwise."""
    rank = t.shape.rank
    if rank == 0:
        return flat
    out = RaggedTensor.from_row_splits(flat, splits, validate=False)
    dims = t.shape.as_list()
    for d in reversed(dims[1:] if rank and rank > 1 else []):
        out = RaggedTensor.from_uniform_row_length(out, d, validate=False)
    return out


def unicode_decode(input: TensorLike, input_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, replace_control_characters: bool = False,
                   name: str | None = None) -> Any:
    """The code points of each string: a RaggedTensor of int32 (a vector for a scalar).

    Args:
        input: A string tensor.
        input_encoding: The strings' encoding: ``"UTF-8"``, ``"UTF-16-BE"`` or ``"UTF-32-BE"``.
        errors: ``"replace"``, ``"ignore"`` or ``"strict"``: what to do with invalid text.
        replacement_char: The code point that replaces invalid text with ``errors="replace"``.
        replace_control_characters: Whether C0 control characters are replaced too.
        name: A name for the operation (optional).
    """
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(unicode_decode(input.flat_values, input_encoding, errors,
                                                     replacement_char,
                                                     replace_control_characters, name))
    t = _string_input(input)
    flat = reshape(t, [-1])
    splits, chars = apply_op("UnicodeDecode", [flat], {
        "input_encoding": _codec(input_encoding), "errors": _errors_arg(errors),
        "replacement_char": int(replacement_char),
        "replace_control_characters": bool(replace_control_characters),
        "Tsplits": dtypes.int64}, name=name)
    return _ragged_like(chars, splits, t)


def unicode_encode(input: TensorLike, output_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, name: str | None = None) -> Any:
    """The strings of code points (a RaggedTensor of rows, or a vector for one string).

    Args:
        input: An int32 tensor or RaggedTensor of code points, one row per string.
        output_encoding: ``"UTF-8"``, ``"UTF-16-BE"`` or ``"UTF-32-BE"``.
        errors: ``"replace"``, ``"ignore"`` or ``"strict"``: what to do with invalid code points.
        replacement_char: The code point that replaces an invalid one with ``errors="replace"``.
        name: A name for the operation (optional).
    """
    if isinstance(input, RaggedTensor):
        if isinstance(input.values, RaggedTensor):
            return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                    replacement_char, name))
        values, splits = input.values, input.row_splits
        single = False
    else:
        t = convert_to_tensor(input, dtypes.int32)
        if t.shape.rank != 1:
            raise ValueError("unicode_encode of a dense tensor needs rank 1 (one string); use "
                             "a RaggedTensor for several")
        values, single = t, True
        splits = convert_to_tensor(np.array([0], np.int64))
        from flowgrad.ops.concat_ops import concat   # noqa: PLC0415 - one use
        splits = concat([splits, reshape(shape_of(t, out_type=dtypes.int64), [1])], 0)
    out = apply_op("UnicodeEncode", [values, splits], {
        "errors": _errors_arg(errors), "output_encoding": _codec(output_encoding),
        "replacement_char": int(replacement_char)}, name=name)
    return reshape(out, []) if single else out


def unicode_split(input: TensorLike, input_encoding: str, errors: str = "replace",  # noqa: A002
                  replacement_char: int = 65533, name: str | None = None) -> Any:
    """Each string as its characters (each a string): a RaggedTensor (a vector for a
    scalar).

    Args:
        input: A string tensor.
        input_encoding: The strings' encoding: ``"UTF-8"``, ``"UTF-16-BE"`` or ``"UTF-32-BE"``.
        errors: ``"replace"``, ``"ignore"`` or ``"strict"``: what to do with invalid text.
        replacement_char: The code point that replaces invalid text with ``errors="replace"``.
        name: A name for the operation (optional).
    """
    codes = unicode_decode(input, input_encoding, errors, replacement_char)
    flat = codes.flat_values if isinstance(codes, RaggedTensor) else codes
    n = shape_of(flat, out_type=dtypes.int64)[0]
    chars = apply_op("UnicodeEncode", [flat, range_(0, n + 1, dtype=dtypes.int64)], {
        "errors": _errors_arg(errors), "output_encoding": _codec(input_encoding),
        "replacement_char": int(replacement_char)}, name=name)
    return codes.with_flat_values(chars) if isinstance(codes, RaggedTensor) else chars


def _transcode_kernel(x: Any, *, input_encoding: str, output_encoding: str,
                      errors: str, replacement_char: int,  # noqa: A002 - TF's attribute
                      replace_control_characters: bool) -> np.ndarray:
    def transcode(b: bytes) -> bytes:
        chars = _decode_chars(b, input_encoding, errors, replacement_char,
                              replace_control_characters)
        return "".join(map(chr, chars)).encode(output_encoding)
    return _map(transcode, _strings(x))


_register("UnicodeTranscode", _transcode_kernel, _like(dtypes.string), input_names=("input",))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def unicode_transcode(input: TensorLike, input_encoding: str, output_encoding: str,
                      errors: str = "replace", replacement_char: int = 65533,  # noqa: A002
                      replace_control_characters: bool = False,
                      name: str | None = None) -> Any:
    """Each string re-encoded from ``input_encoding`` to ``output_encoding``.

    Args:
        input: A string tensor.
        input_encoding: The strings' encoding.
        output_encoding: The encoding of the results.
        errors: ``"replace"``, ``"ignore"`` or ``"strict"``: what to do with invalid text.
        replacement_char: The code point that replaces invalid text with ``errors="replace"``.
        replace_control_characters: Whether C0 control characters are replaced too.
        name: A name for the operation (optional).
    """
    return _elementwise("UnicodeTranscode", input, {
        "input_encoding": _codec(input_encoding), "output_encoding": _codec(output_encoding),
        "errors": _errors_arg(errors), "replacement_char": int(replacement_char),
        "replace_control_characters": bool(replace_control_characters)}, name)


def _segment_join_kernel(x: Any, ids: Any, n: Any, *, separator: bytes) -> np.ndarray:
    x, ids = _strings(x), np.asarray(ids)
    k = int(np.asarray(n))
    inner = x.shape[ids.ndim:]
    flat_x = x.reshape((-1,) + inner)
    flat_ids = ids.reshape(-1)
    if flat_ids.size and (flat_ids.max() >= k or flat_ids.min() < 0):
        raise errors_module.InvalidArgumentError(
            None, None, "segment_ids are not allowed to exceed num_segments or to have "
            "negative values.")
    out = np.empty((k,) + inner, dtype=object)
    for idx in np.ndindex(*out.shape):
        seg, rest = idx[0], idx[1:]
        out[idx] = separator.join(flat_x[(j,) + rest] for j in np.flatnonzero(flat_ids == seg))
    return out


_register("UnsortedSegmentJoin", _segment_join_kernel,
          lambda ins, attrs: (dtypes.string, unknown_shape()),
          input_names=("inputs", "segment_ids", "num_segments"))


def unsorted_segment_join(inputs: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                          separator: str = "", name: str | None = None) -> Any:
    """The strings of each segment joined in order (b"" for an empty segment).

    Args:
        inputs: A string tensor.
        segment_ids: An integer tensor: the segment of each string (a prefix of ``inputs``' shape).
        num_segments: The number of segments.
        separator: The string put between joined strings.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: (when run) an id is negative or not below ``num_segments``.
    """
    return apply_op("UnsortedSegmentJoin", [_string_input(inputs, "inputs"),
                                            convert_to_tensor(segment_ids),
                                            convert_to_tensor(num_segments)],
                    {"separator": _bytes(separator)}, name=name)


# -- format ----------------------------------------------------------------------------

def _element_text(v: Any, quote: bool) -> str:
    if isinstance(v, bytes):
        s = v.decode("utf-8", "replace")
        return '"%s"' % s if quote else s
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, np.floating):
        s = "%.6g" % v if v.dtype != np.float64 else "%.15g" % v
        return s
    return str(v)


def _tensor_text(a: np.ndarray, summarize: int) -> str:
    if a.ndim == 0:
        return _element_text(a[()], True)

    def rec(x: np.ndarray, depth: int) -> str:
        n = x.shape[0]
        idx = list(range(n)) if summarize < 0 or n <= 2 * summarize else \
            list(range(summarize)) + [None] + list(range(n - summarize, n))
        if x.ndim == 1:
            return "[%s]" % " ".join("..." if i is None else _element_text(x[i], True)
                                     for i in idx)
        sep = "\n" * (x.ndim - 1) + " " * (depth + 1)
        return "[%s]" % sep.join("..." if i is None else rec(x[i], depth + 1) for i in idx)
    return rec(a, 0)


def _format_kernel(*inputs: Any, template: str = "%s", placeholder: str = "%s",
                   summarize: int = 3) -> np.ndarray:
    parts = template.split(placeholder)
    texts = [_tensor_text(np.asarray(x, dtype=object if isinstance(x, bytes) else None),
                          summarize) for x in inputs]
    out = parts[0] + "".join(t + p for t, p in zip(texts, parts[1:]))
    return np.array(out.encode("utf-8"), dtype=object)


_register("StringFormat", _format_kernel, lambda ins, attrs: (dtypes.string, TensorShape([])),
          input_names=("inputs",))


def format(template: str, inputs: TensorLike, placeholder: str = "{}",  # noqa: A001 - TF's name
           summarize: int = 3, name: str | None = None) -> Any:
    """``template`` with each ``placeholder`` replaced by the next tensor of ``inputs``,
    printed as ``tf.print`` prints it (``summarize`` first and last entries per dimension).

    Args:
        template: A string with ``placeholder`` where each input goes.
        inputs: A tensor or a list of tensors, one per placeholder.
        placeholder: The substring of ``template`` that each input replaces.
        summarize: How many first and last entries of each dimension to print.
        name: A name for the operation (optional).

    Raises:
        ValueError: the number of placeholders is not the number of inputs.
    """
    ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    if template.count(placeholder) != len(ins):
        raise ValueError("%s placeholder(s) in template does not match %s tensor(s) provided "
                         "as input" % (template.count(placeholder), len(ins)))
    ts = [convert_to_tensor(x) for x in ins]
    return apply_op("StringFormat", ts, {"template": template, "placeholder": placeholder,
                                         "summarize": int(summarize)}, name=name)


# -- ngrams ----------------------------------------------------------------------------

def ngrams(data: TensorLike, ngram_width: Any, separator: str = " ", pad_values: Any = None,
           padding_width: Any = None, preserve_short_sequences: bool = False,
           name: str | None = None) -> Any:
    """The n-grams (joined by ``separator``) of each row of ``data`` (eager values; without
    padding).

    Args:
        data: A string tensor or RaggedTensor of tokens, one row per sequence.
        ngram_width: The width of the n-grams: an int or a list of ints.
        separator: The string joining the tokens of an n-gram.
        pad_values: Accepted for TensorFlow's signature; padding is not supported.
        padding_width: Accepted for TensorFlow's signature; padding is not supported.
        preserve_short_sequences: Whether a row shorter than the width gives one n-gram of the whole
            row.
        name: A name for the operation (optional).
    """
    if pad_values is not None or padding_width is not None:
        raise NotImplementedError("tf.strings.ngrams: padding is not supported yet")
    widths = [ngram_width] if isinstance(ngram_width, int) else list(ngram_width)
    rt = data if isinstance(data, RaggedTensor) else None
    rows = rt.to_list() if rt is not None else [list(np.asarray(_eager(data)).tolist())]
    sep = _bytes(separator)
    out = []
    for row in rows:
        grams = [sep.join(row[i:i + w]) for w in widths for i in range(len(row) - w + 1)]
        if not grams and preserve_short_sequences and row:
            grams = [sep.join(row)]
        out.append(grams)
    if rt is None:
        return convert_to_tensor(np.array(out[0], dtype=object).reshape(-1), dtypes.string)
    from flowgrad.ops.ragged_tensor import constant as ragged_constant   # noqa: PLC0415
    return ragged_constant(out, dtype=dtypes.string)


def _eager(x: Any) -> Any:
    t = convert_to_tensor(x)
    if not isinstance(t, EagerTensor):
        raise ValueError("tf.strings.ngrams needs eager values")
    return t.numpy()
