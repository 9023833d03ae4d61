"""``tf.io.decode_csv`` (the DecodeCSV op) and the record parser that
``tf.data.experimental.CsvDataset`` shares: TensorFlow's quoting (``"a,b"``, ``""`` for a
quote), defaults for empty and ``na_value`` fields, ``select_cols`` and its error messages.
Not differentiable."""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import TensorLike

CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_INT = re.compile(rb"\s*[-+]?\d+\s*")


def split_record(record: bytes, delim: bytes, use_quote: bool) -> list:
    """The fields of one CSV record (quotes removed, ``""`` inside quotes kept as ``"``).

    Raises:
        InvalidArgumentError: a quote that is not closed or not escaped.
    """
    fields, i, n = [], 0, len(record)
    while True:
        if use_quote and i < n and record[i:i + 1] == b'"':
            buf, i = bytearray(), i + 1
            while True:
                j = record.find(b'"', i)
                if j < 0:
                    raise errors.InvalidArgumentError(
                        None, None, "Quoted field has to end with quote followed by delim or "
                        "end")
                buf += record[i:j]
                if record[j + 1:j + 2] == b'"':
                    buf += b'"'
                    i = j + 2
                    continue
                i = j + 1
                break
            if i < n and record[i:i + 1] != delim:
                raise errors.InvalidArgumentError(
                    None, None, "Quote inside a string has to be escaped by another quote")
            fields.append(bytes(buf))
        else:
            j = record.find(delim, i)
            j = n if j < 0 else j
            field = record[i:j]
            if use_quote and b'"' in field:
                raise errors.InvalidArgumentError(
                    None, None, "Unquoted fields cannot have quotes inside")
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += len(delim)
        if i == n:
            fields.append(b"")
            return fields


def convert_field(field: bytes, dt: dtypes.DType, default: Any, na_value: bytes, col: int,
                  row: int | None) -> Any:
    """One field as a value of ``dt`` (``default`` when empty or ``na_value``); ``row`` is
    None for CsvDataset, whose messages name no record number."""
    at = "" if row is None else " %d" % row
    if field == b"" or field == na_value:
        if default is None:
            raise errors.InvalidArgumentError(None, None, "Field %d is required but missing in "
                                              "record%s!" % (col, at))
        return default
    if dt is dtypes.string:
        return field
    try:
        if dt.is_integer:
            if not _INT.fullmatch(field):
                raise ValueError
            v = int(field)
            info = np.iinfo(dt.np)
            if not info.min <= v <= info.max:
                raise ValueError
            return v
        return float(field)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, "Field %d in record%s is not a valid %s: %s"
            % (col, at, {"float32": "float", "float64": "double"}.get(dt.name, dt.name),
               field.decode("utf-8", "replace"))) from None


def parse_record(record: bytes, row: int | None, types: tuple, defaults: list, delim: bytes,
                 use_quote: bool, na_value: bytes, select_cols: tuple | None) -> list:
    """The converted fields of one record (the selected columns)."""
    fields = split_record(record, delim, use_quote)
    if select_cols is not None:
        if select_cols and select_cols[-1] >= len(fields):
            raise errors.InvalidArgumentError(None, None, "Expect %d fields but have %d in "
                                              "record%s" % (select_cols[-1] + 1, len(fields),
                                                            "" if row is None else " %d" % row))
        fields = [fields[c] for c in select_cols]
    elif len(fields) != len(types):
        raise errors.InvalidArgumentError(None, None, "Expect %d fields but have %d in record%s"
                                          % (len(types), len(fields),
                                             "" if row is None else " %d" % row))
    return [convert_field(f, dt, d, na_value, c, row)
            for c, (f, dt, d) in enumerate(zip(fields, types, defaults))]


def default_of(value: TensorLike, dt: dtypes.DType) -> Any:
    """A column's default (None: the column is required)."""
    arr = np.asarray(value, dtype=object if dt is dtypes.string else dt.np).reshape(-1)
    return arr[0] if arr.size else None


def _decode_csv_kernel(records: Any, *defaults: Any, OUT_TYPE: tuple, field_delim: bytes,
                       use_quote_delim: bool, na_value: bytes, select_cols: tuple | None) -> Any:
    recs = np.asarray(records, dtype=object)
    defs = [default_of(d, dt) for d, dt in zip(defaults, OUT_TYPE)]
    rows = [parse_record(r, i, OUT_TYPE, defs, field_delim, use_quote_delim, na_value,
                         select_cols) for i, r in enumerate(recs.reshape(-1))]
    outs = []
    for c, dt in enumerate(OUT_TYPE):
        col = np.empty(len(rows), dtype=object if dt is dtypes.string else dt.np)
        col[:] = [r[c] for r in rows]
        outs.append(col.reshape(recs.shape))
    return outs[0] if len(outs) == 1 else tuple(outs)


register_op("DecodeCSV", _decode_csv_kernel,
            lambda ins, attrs: [(dt, ins[0].shape) for dt in attrs["OUT_TYPE"]],
            num_outputs=lambda attrs: len(attrs["OUT_TYPE"]),
            input_names=("records", "record_defaults"))
NotDifferentiable("DecodeCSV")


def record_default_tensors(record_defaults: Any) -> list:
    """The record defaults as tensors of the CSV types (an empty one: a required column).

    Raises:
        InvalidArgumentError: a default of another type.
    """
    out = []
    for d in record_defaults:
        t = convert_to_tensor(d)
        if t.dtype.base_dtype not in CSV_TYPES:
            if np.size(np.asarray(d, dtype=object)) == 0:    # [] of no type: float32
                t = convert_to_tensor(np.zeros(0, np.float32))
            else:
                raise errors.InvalidArgumentError(
                    None, None, "Value for attr 'OUT_TYPE' of %s is not in the list of allowed "
                    "values: float, double, int32, int64, string" % t.dtype.name)
        if t.shape.rank not in (0, 1, None):
            raise ValueError("Shape must be at most rank 1 but is rank %d" % t.shape.rank)
        out.append(t)
    return out


def _bytes(v: Any) -> bytes:
    return v.encode("utf-8") if isinstance(v, str) else bytes(v)


def csv_attrs(defaults: list, field_delim: Any, use_quote_delim: bool, na_value: Any,
              select_cols: Any) -> dict:
    """The DecodeCSV attributes (checked)."""
    cols = None if select_cols is None else tuple(int(c) for c in select_cols)
    if cols is not None:
        if list(cols) != sorted(set(cols)):
            raise ValueError("select_cols is not strictly increasing.")
        if cols and cols[0] < 0:
            raise ValueError("select_cols contains negative values.")
        if len(cols) != len(defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    delim = _bytes(field_delim)
    if len(delim) != 1:
        raise errors.InvalidArgumentError(None, None, "field_delim should be only 1 char")
    return {"OUT_TYPE": tuple(t.dtype.base_dtype for t in defaults), "field_delim": delim,
            "use_quote_delim": bool(use_quote_delim), "na_value": _bytes(na_value),
            "select_cols": cols}


def decode_csv(records: Any, record_defaults: Any, field_delim: str = ",",
               use_quote_delim: bool = True, na_value: str = "", select_cols: Any = None,
               name: str | None = None) -> list:
    """The columns of CSV records: one tensor per column, of its default's type.

    Args:
        records: a string tensor, one record per element.
        record_defaults: per column, a default (a scalar or a one-element list) or an empty
            tensor of the column's type for a required column.
        field_delim: the one-character field separator.
        use_quote_delim: whether double quotes delimit fields (``""`` is a quote inside).
        na_value: a field that reads as missing (its default).
        select_cols: the (increasing) columns to return.
        name: the op's name.

    Returns:
        A list of tensors of ``records``' shape.

    Raises:
        InvalidArgumentError: (when run) a wrong field count, an unparsable or missing
            required field, or bad quoting.
    """
    defaults = record_default_tensors(record_defaults)
    attrs = csv_attrs(defaults, field_delim, use_quote_delim, na_value, select_cols)
    out = apply_op("DecodeCSV", [convert_to_tensor(records, dtypes.string)] + defaults, attrs,
                   name=name)
    return list(out) if isinstance(out, (list, tuple)) else [out]


