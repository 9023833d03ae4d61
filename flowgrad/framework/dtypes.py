"""TensorFlow data types (``tf.float32`` ...) on top of NumPy dtypes."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

try:  # bfloat16 storage and arithmetic (optional: pip install "flowgrad[bfloat16]")
    import ml_dtypes as _ml_dtypes
except ImportError:
    _ml_dtypes = None


class DType:
    """A tensor element type; ``_ref`` variants describe TF1 variable references.

    Made once per type by this module (``tf.float32``, ...); ``tf.as_dtype`` finds them.

    Args:
        name: TensorFlow's name (``"float32"``, ``"float32_ref"``, ...).
        np_dtype: The NumPy dtype of its values.
        is_ref: Whether it is a TF1 reference type.
        base: The dtype a reference type refers to.
    """

    # ``base_dtype`` (the dtype a ``_ref`` dtype refers to, else the dtype itself);
    # ``kind``: NumPy's kind character of the element type ("f" for bfloat16 too);
    # ``_differentiable``: gradients flow through it (floating or complex). All are fixed
    # at creation, as eager ops and tapes read them for every tensor.
    __slots__ = ("name", "np", "is_ref", "base_dtype", "kind", "_differentiable")

    def __init__(self, name: str, np_dtype: Any, is_ref: bool = False, base: DType | None = None):
        self.name = name
        self.np = np.dtype(np_dtype) if np_dtype is not None else None
        self.is_ref = is_ref
        self.base_dtype = base if is_ref else self
        self._set_kind("f" if name.startswith(("bfloat16", "float8")) else
                       base.kind if base is not None else self.np.kind)

    def _set_kind(self, kind: str) -> None:
        self.kind = kind
        self._differentiable = kind in "fc"

    @property
    def as_numpy_dtype(self) -> type:
        return self.base_dtype.np.type

    @property
    def is_floating(self) -> bool:
        return self.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self.base_dtype.np.kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        return self.base_dtype.np.kind == "u"

    @property
    def is_bool(self) -> bool:
        return self.base_dtype.np.kind == "b"

    @property
    def is_complex(self) -> bool:
        return self.base_dtype.np.kind == "c"

    @property
    def is_quantized(self) -> bool:
        """Whether the dtype is quantized (qint8, ...): never, flowgrad has none."""
        return False

    @property
    def real_dtype(self) -> DType:
        """The dtype of the real and imaginary parts: float32 for complex64, else itself."""
        return {"complex64": float32, "complex128": float64}.get(self.base_dtype.name,
                                                                  self.base_dtype)

    @property
    def is_numeric(self) -> bool:
        """Whether the dtype holds numbers (integers, floats, complex)."""
        return self.is_floating or self.is_integer or self.is_complex

    @property
    def is_numpy_compatible(self) -> bool:
        return True

    @property
    def size(self) -> int:
        return self.base_dtype.np.itemsize

    @property
    def min(self) -> Any:
        """The smallest value of the dtype.

        Raises:
            TypeError: a quantized, bool, string or complex dtype (TensorFlow's message).
        """
        self._check_ordered("minimum")
        d = self.base_dtype.np
        return _finfo(d).min if self.is_floating else np.iinfo(d).min

    @property
    def max(self) -> Any:
        """The largest value of the dtype.

        Raises:
            TypeError: a quantized, bool, string or complex dtype (TensorFlow's message).
        """
        self._check_ordered("maximum")
        d = self.base_dtype.np
        return _finfo(d).max if self.is_floating else np.iinfo(d).max

    def _check_ordered(self, which: str) -> None:
        if self.is_quantized or not (self.is_floating or self.is_integer):
            raise TypeError("Cannot find %s value of %s with %s %s." % (
                which, self, "quantized type" if self.is_quantized else "type", self.base_dtype))

    def _as_ref(self) -> DType:
        return _REFS[self.name]

    def is_compatible_with(self, other: Any) -> bool:
        return self.base_dtype is as_dtype(other).base_dtype

    def __repr__(self) -> str:
        return "tf." + self.name

    def __str__(self) -> str:
        return "<dtype: %r>" % self.name

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self is other
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self):
        return as_dtype, (self.name,)


class _MissingDType(DType):
    """A dtype whose NumPy type needs an optional package: any use raises ImportError."""

    __slots__ = ("_package", "_extra")

    def __init__(self, name: str, package: str, extra: str) -> None:
        self.name, self.is_ref, self.base_dtype = name, False, self
        self._package, self._extra = package, extra
        self._set_kind("f")     # bfloat16 and the float8 types, the optional dtypes

    @property
    def np(self) -> Any:
        raise ImportError("tf.%s needs the %s package, which is not installed: "
                          "pip install \"flowgrad[%s]\"" % (self.name, self._package, self._extra))


def _finfo(d: np.dtype) -> Any:
    """``np.finfo``, also for ml_dtypes' bfloat16 and float8 types."""
    return _ml_dtypes.finfo(d) if _ml_dtypes is not None and \
        d.type.__module__.startswith("ml_dtypes") else np.finfo(d)


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
# TensorFlow's bfloat16 (8 exponent bits, 7 mantissa bits), stored as ml_dtypes.bfloat16.
bfloat16 = (DType("bfloat16", _ml_dtypes.bfloat16) if _ml_dtypes is not None
            else _MissingDType("bfloat16", "ml_dtypes", "bfloat16"))
# tf.dtypes.experimental's 8-bit floats (OCP FP8: 4 exponent bits and 3 mantissa bits, no
# infinities; 5 and 2), stored as ml_dtypes' types; TensorFlow only casts them.
float8_e4m3fn = (DType("float8_e4m3fn", _ml_dtypes.float8_e4m3fn) if _ml_dtypes is not None
                 else _MissingDType("float8_e4m3fn", "ml_dtypes", "bfloat16"))
float8_e5m2 = (DType("float8_e5m2", _ml_dtypes.float8_e5m2) if _ml_dtypes is not None
               else _MissingDType("float8_e5m2", "ml_dtypes", "bfloat16"))
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool = DType("bool", np.bool_)  # noqa: A001 - TensorFlow's name
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.object_)
half = float16
double = float64

_ALL = [float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
        bool, complex64, complex128, string] + (
            [bfloat16, float8_e4m3fn, float8_e5m2] if _ml_dtypes is not None else [])
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME["bfloat16"] = bfloat16
_BY_NAME["float8_e4m3fn"] = float8_e4m3fn
_BY_NAME["float8_e5m2"] = float8_e5m2
_BY_NP = {d.np: d for d in _ALL}
_REFS = {d.name: DType(d.name + "_ref", d.np, True, d) for d in _ALL}
_BY_NAME.update({r.name: r for r in _REFS.values()})
_BY_NAME.update({"half": float16, "double": float64, "float": float32, "int": int32})
_PY = {float: float32, int: int32, builtins.bool: bool, complex: complex64, str: string,
       bytes: string}

float32_ref = _REFS["float32"]
float64_ref = _REFS["float64"]
int32_ref = _REFS["int32"]
int64_ref = _REFS["int64"]


def as_dtype(value: Any) -> DType:
    """Converts a DType, NumPy dtype, type name or Python type to a DType.

    Args:
        value: A DType, a NumPy dtype or type, a Python type, or a name such as ``"float32"``.
    """
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        d = _BY_NAME.get(value)
        if d is not None:
            return d
    elif value in _PY:
        return _PY[value]
    try:
        d = _BY_NP.get(np.dtype(value))
    except TypeError:
        d = None
    if d is None:
        raise TypeError("Cannot convert the argument `type_value`: %r to a TensorFlow DType."
                        % (value,))
    return d


def from_numpy(np_dtype: np.dtype) -> DType:
    """The DType of a NumPy dtype (fast path for kernels' results).

    Args:
        np_dtype: A NumPy dtype.
    """
    d = _BY_NP.get(np_dtype)
    if d is None:
        d = as_dtype(np_dtype)
    return d


def is_differentiable(dtype: DType) -> bool:
    """Whether gradients flow through tensors of this dtype (floating or complex).

    Args:
        dtype: A DType.
    """
    return dtype._differentiable
