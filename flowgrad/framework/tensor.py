"""Tensors: symbolic graph tensors, eager tensors, and conversion of Python values."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors, hooks, types_core
from flowgrad.framework.context import executing_eagerly, session_for, state
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


class _TensorFlowTensor:
    """The name and module path by which libraries written for TensorFlow recognise a
    ``tf.Tensor`` among a value's base classes (Keras 3's data adapters look for a base
    ``Tensor`` from ``tensorflow.python.``, and slice such arrays with ``tf.gather``: a string
    tensor given to ``predict``): a marker base of :class:`TensorBase`, with nothing of its
    own."""

    __slots__ = ()


_TensorFlowTensor.__name__ = _TensorFlowTensor.__qualname__ = "Tensor"
_TensorFlowTensor.__module__ = "tensorflow.python.framework.tensor"


# The NumPy methods tf.experimental.numpy.experimental_enable_numpy_behavior() adds.
_NUMPY_METHODS = frozenset({"T", "astype", "ravel", "transpose", "reshape", "clip", "size",
                            "tolist", "data"})


class TensorBase(_TensorFlowTensor):
    """Operator overloads shared by graph and eager tensors (methods set by ops.overloads)."""

    __slots__ = ()
    __array_priority__ = 100

    def __getattr__(self, name: str) -> Any:
        """Only for attributes a tensor lacks: NumPy's methods name the switch that adds them,
        as in TensorFlow."""
        if name in _NUMPY_METHODS:
            raise AttributeError(
                "%s object has no attribute '%s'. \n        If you are looking for numpy-related "
                "methods, please run the following:\n        "
                "tf.experimental.numpy.experimental_enable_numpy_behavior()\n      "
                % (type(self).__name__, name))
        return object.__getattribute__(self, name)  # a property's own AttributeError

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self) -> int | None:
        return self.shape.rank


class Tensor(TensorBase):
    """A symbolic output of an Operation in a Graph.

    Args:
        op: The Operation that makes it.
        value_index: Which of the op's outputs it is.
        dtype: Its element type.
        shape: Its static (possibly partial) shape.
    """

    # __dict__: as TensorFlow's tensors, a tensor takes attributes (Keras 3 sets some)
    __slots__ = ("op", "value_index", "_dtype", "_shape", "_name", "_consumers", "__weakref__",
                 "__dict__")

    def __init__(self, op: Any, value_index: int, dtype: dtypes.DType, shape: TensorShape):
        self.op = op
        self.value_index = value_index
        self._dtype = dtype
        self._shape = shape
        self._name = None
        self._consumers: list = []

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = "%s:%d" % (self.op.name, self.value_index)
        return self._name

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def graph(self) -> Any:
        return self.op.graph

    @property
    def device(self) -> str:
        return self.op.device

    def set_shape(self, shape: ShapeLike) -> None:
        """Merges ``shape`` into this tensor's static shape."""
        self._shape = self._shape.merge_with(as_shape(shape))

    def consumers(self) -> list:
        return list(self._consumers)

    def eval(self, feed_dict: dict | None = None, session: Any = None) -> Any:
        """Runs the default (or given) session to compute this tensor."""
        return session_for(session, self).run(self, feed_dict)

    def _ref(self) -> Tensor:
        return self

    def __repr__(self) -> str:
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self._shape, self._dtype.name)

    def __str__(self) -> str:
        dev = ", device=%s" % self.op.device if self.op.device else ""
        shape = "" if self._shape.rank is None else "shape=%s, " % (self._shape,)  # as TF's
        return 'Tensor("%s", %sdtype=%s%s)' % (self.name, shape, self._dtype.name, dev)

    __hash__ = object.__hash__

    def __eq__(self, other: Any) -> Any:
        if state.tensor_equality and not isinstance(other, (type(None),)):
            return hooks.equal(self, other)
        return self is other

    def __ne__(self, other: Any) -> Any:
        if state.tensor_equality and other is not None:
            return hooks.not_equal(self, other)
        return self is not other

    def _disallow(self, task: str) -> None:
        status = state.autograph[-1] if state.autograph else None
        reason = {"enabled": ": AutoGraph did convert this function. This might indicate you "
                             "are trying to use an unsupported feature.",
                  "disabled": ": AutoGraph is disabled in this function. Try decorating it "
                              "directly with @tf.function."}.get(
            status, " in Graph execution. Use Eager execution or decorate this function with "
                    "@tf.function.")
        raise errors.OperatorNotAllowedInGraphError("%s is not allowed%s (tensor %s)"
                                                    % (task, reason, self.name))

    def __bool__(self) -> bool:
        self._disallow("Using a symbolic `tf.Tensor` as a Python `bool`")

    def __iter__(self):
        self._disallow("Iterating over a symbolic `tf.Tensor`")

    def __len__(self) -> int:
        raise TypeError("len is not well defined for a symbolic Tensor (%s). Please call "
                        "`x.shape` rather than `len(x)` for shape information." % self.name)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise NotImplementedError(
            "Cannot convert a symbolic tf.Tensor (%s) to a numpy array. Run it in a Session "
            "(sess.run / .eval()) to get its value." % self.name)


def eager_value(arr: np.ndarray) -> Any:
    """What an EagerTensor holds for ``arr``: the array, or for rank 0 a NumPy scalar (a
    string stays a 0-d object array, which has a dtype and a shape)."""
    return arr if arr.ndim or arr.dtype.kind == "O" else arr[()]


class EagerTensor(TensorBase):
    """A tensor holding a concrete NumPy value (eager mode).

    Args:
        value: The value (converted to a NumPy array).
        dtype: Its element type; None infers it from ``value``.
    """

    __slots__ = ("_value", "_dtype", "__weakref__", "__dict__")  # __dict__: see Tensor

    def __init__(self, value: TensorLike, dtype: dtypes.DType | None = None):
        if type(value) is bytes:    # a string scalar a plan returned: a 0-d object array
            value = np.array(value, dtype=object)
        self._value = value         # an ndarray, or a NumPy scalar for rank 0
        self._dtype = dtype if dtype is not None else (_DTYPE_OF_NP.get(value.dtype)
                                                       or dtypes.as_dtype(value.dtype))

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        s = object.__new__(TensorShape)
        s._dims = self._value.shape
        return s

    @property
    def name(self) -> str:
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    @property
    def op(self) -> Any:
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    @property
    def graph(self) -> Any:
        raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    def numpy(self) -> Any:
        """The value as a NumPy array (a NumPy scalar for rank 0)."""
        v = self._value
        if type(v) is np.ndarray:
            return v.copy() if v.ndim else v[()]
        return v

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        return self.numpy()

    def set_shape(self, shape: ShapeLike) -> None:
        if not self.shape.is_compatible_with(shape):
            raise ValueError("Tensor's shape %s is not compatible with supplied shape %s"
                             % (self.shape, as_shape(shape)))

    def __repr__(self) -> str:
        return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            self.shape, self._dtype.name, numpy_text(self.numpy(), is_repr=True))

    def __str__(self) -> str:
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (numpy_text(self.numpy()), self.shape,
                                                      self._dtype.name)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = np.asarray(self._value)
        return a if dtype is None else a.astype(dtype)

    def __hash__(self) -> int:
        if state.tensor_equality:
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def ref(self) -> Any:
        """A hashable reference to this tensor."""
        return _Ref(self)

    def __eq__(self, other: Any) -> Any:
        if not state.tensor_equality:
            return self is other
        return _compare(hooks.equal, self, other, False)

    def __ne__(self, other: Any) -> Any:
        if not state.tensor_equality:
            return self is not other
        return _compare(hooks.not_equal, self, other, True)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __index__(self) -> int:
        return int(self._value)

    def __len__(self) -> int:
        if not np.ndim(self._value):
            raise TypeError("Scalar tensor has no `len()`")
        return len(self._value)

    def __iter__(self):
        if not np.ndim(self._value):
            raise TypeError("Cannot iterate over a scalar tensor.")
        return iter(hooks.unstack(self))

    def __format__(self, spec: str) -> str:
        return format(self.numpy(), spec)


_DTYPE_OF_NP = dtypes._BY_NP


def numpy_text(value: Any, is_repr: bool = False) -> str:
    """A value as TensorFlow prints it in an eager tensor's repr or str."""
    if is_repr:
        text = repr(value.item()) if np.isscalar(value) and not isinstance(value, bytes) \
            else repr(value)
    else:
        text = str(value)
    return "\n" + text if "\n" in text else text


class _Ref:
    """A hashable reference to a tensor (``tensor.ref()``)."""

    __slots__ = ("_t",)

    def __init__(self, t: Any):
        self._t = t

    def deref(self) -> Any:
        return self._t

    def __hash__(self) -> int:
        return id(self._t)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _Ref) and other._t is self._t


types_core.Tensor.register(TensorBase)
types_core.Symbol.register(Tensor)
types_core.Value.register(EagerTensor)


def _compare(op: Callable, x: EagerTensor, other: Any, unequal: bool) -> Any:
    """``x == other`` (``!=``) as TensorFlow's tensor_equals: ``unequal`` (a Python bool)
    for None, a scalar ``unequal`` for shapes that do not broadcast
    (``incompatible_shape_error=False``), else the elementwise comparison."""
    if other is None:
        return unequal
    try:
        return op(x, other)
    except errors.InvalidArgumentError as e:
        if not e.message.startswith("Incompatible shapes"):
            raise
        return EagerTensor(np.asarray(unequal))


def is_tensor(x: Any) -> bool:
    """True for graph and eager tensors (and tensor-like objects such as Variables).

    Args:
        x: Any object.
    """
    t = type(x)
    if t is EagerTensor:
        return True
    if t in _PLAIN_TYPES:       # no hasattr (a raised and caught AttributeError) for these
        return False
    return (isinstance(x, TensorBase) or hasattr(x, "_as_tensor")
            or isinstance(x, types_core.Tensor))


_PLAIN_TYPES = frozenset({int, float, bool, complex, str, bytes, tuple, list, dict, type(None),
                          np.ndarray})


# Converters of tensor-like classes (Variable, IndexedSlices): type -> fn(value, dtype, as_ref).
_conversion_functions: dict[type, Callable] = {}


def register_tensor_conversion_function(base_type: type, fn: Callable) -> None:
    """Registers ``fn(value, dtype=None, name=None, as_ref=False)`` to convert ``base_type``."""
    _conversion_functions[base_type] = fn


_NON_RECTANGULAR = "Can't convert non-rectangular Python sequence to Tensor."


def _sequence_array(value: Any) -> np.ndarray:
    """``np.asarray(value)``; a nested list whose rows differ in length is TensorFlow's
    ValueError (NumPy's names an "inhomogeneous shape")."""
    try:
        return np.asarray(value)
    except ValueError as e:
        if isinstance(value, (list, tuple)) and "inhomogeneous" in str(e):
            raise ValueError(_NON_RECTANGULAR) from None
        raise


def infer_dtype(value: Any) -> dtypes.DType:
    """TensorFlow's dtype for a Python or NumPy value (Python floats are float32)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return dtypes.string if value.dtype.kind in "US" else dtypes.from_numpy(value.dtype)
    if isinstance(value, TensorBase):
        return value.dtype.base_dtype
    if isinstance(value, bool):
        return dtypes.bool
    if isinstance(value, int):
        if executing_eagerly() and not -2**63 <= value < 2**63:
            raise ValueError(_OUT_OF_RANGE)
        return dtypes.int32 if -2**31 <= value < 2**31 else dtypes.int64
    if isinstance(value, float):
        return dtypes.float32
    if executing_eagerly() and not hasattr(value, "__array__"):
        if isinstance(value, (list, tuple)):
            return _eager_sequence_dtype(value)
        kind = _leaf_kind(value)       # TensorFlow's ValueError for an unsupported type
        return dtypes.string if kind == "string" else dtypes.complex128
    arr = _sequence_array(value)    # a graph's constant: NumPy's dtype (make_tensor_proto)
    k = arr.dtype.kind
    if k == "f":
        return dtypes.float32 if arr.dtype == np.float64 else dtypes.from_numpy(arr.dtype)
    if k in "iu":
        if arr.dtype != np.int64:
            return dtypes.from_numpy(arr.dtype)
        return dtypes.int32 if arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31) \
            else dtypes.int64
    if k == "b":
        return dtypes.bool
    if k == "c":
        return dtypes.complex128
    if k in "US" or k == "O" and all(isinstance(v, (str, bytes)) for v in arr.ravel()):
        return dtypes.string
    if k == "O" and any(isinstance(v, (str, bytes)) for v in arr.ravel()):
        raise ValueError(_MIXED_TYPES)
    raise TypeError("Cannot infer a tensor dtype for %r" % (value,))


_MIXED_TYPES = "Can't convert Python sequence with mixed types to Tensor."
_OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."
_SEQUENCES = (list, tuple, np.ndarray, range)


def _leaf_kind(x: Any) -> str:
    """The kind TensorFlow infers from one Python/NumPy scalar (py_seq_tensor.cc's order)."""
    if isinstance(x, (str, bytes)):
        return "string"
    if isinstance(x, np.float64):
        return "float64"
    if isinstance(x, np.float16):
        return "float16"
    if isinstance(x, (float, np.floating)):
        return "float"
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, (int, np.integer)) or type(x).__name__ == "Dimension":
        return "int"
    if isinstance(x, (complex, np.complexfloating)):
        return "complex"
    raise ValueError("Attempt to convert a value (%r) with an unsupported type (%r) to a "
                     "Tensor." % (x, type(x)))


def _sampled_shape_and_kind(value: Any) -> tuple[list, str]:
    """The shape and element kind TensorFlow's eager conversion infers from a nested sequence:
    from its first element at every level (a 0-d array counts as its scalar)."""
    shape, x = [], value
    while True:
        if type(x) is np.ndarray and x.ndim == 0:
            x = x[()]
        if isinstance(x, (str, bytes)):
            return shape, "string"
        if not isinstance(x, _SEQUENCES):
            return shape, _leaf_kind(x)
        shape.append(len(x))
        if not len(x):
            return shape, "empty"
        x = x[0]


def _first_tensor_dtype(value: Any) -> dtypes.DType | None:
    """The dtype of the first tensor or variable in a nested list or tuple (depth first), as
    TensorFlow's list autopacking takes it; None when it holds none."""
    for x in value:
        if isinstance(x, (list, tuple)):
            found = _first_tensor_dtype(x)
            if found is not None:
                return found
        elif not isinstance(x, np.ndarray) and isinstance(getattr(x, "dtype", None),
                                                           dtypes.DType):
            return x.dtype.base_dtype
    return None


def _sequence_error(value: Any, shape: list, depth: int = 0) -> str | None:
    """TensorFlow's message for the first element that does not fit ``shape`` (walked in
    order): a short or scalar row is non-rectangular, a row where a scalar belongs a mixed
    type."""
    if depth == len(shape):
        return _MIXED_TYPES if isinstance(value, _SEQUENCES) and not (
            type(value) is np.ndarray and value.ndim == 0) else None
    if not isinstance(value, _SEQUENCES) or len(value) != shape[depth]:
        return _NON_RECTANGULAR
    for v in value:
        error = _sequence_error(v, shape, depth + 1)
        if error:
            return error
    return None


_KIND_FITS = {"bool": "b", "int": "iubf", "float": "iubf", "float64": "iubf", "float16": "iubf",
              "complex": "iubfc"}


def _eager_sequence_dtype(value: Any) -> dtypes.DType:
    """TensorFlow's eager dtype for a nested list or tuple (py_seq_tensor.cc): the first
    element decides (a NumPy float64 or float16 keeps its dtype, a Python float is float32,
    integers are int32 unless one needs int64, a float among integers makes float32); an
    element of another kind is TensorFlow's "mixed types" ValueError.

    Raises:
        ValueError: non-rectangular, mixed or unsupported elements, out-of-range integers.
    """
    tensor_dtype = _first_tensor_dtype(value)
    if tensor_dtype is not None:        # autopacking: the first tensor's dtype, as TF's
        return tensor_dtype
    shape, kind = _sampled_shape_and_kind(value)
    if kind == "empty":
        return dtypes.float32
    if kind == "string":
        return dtypes.string
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError, UnicodeError):
        raise ValueError(_sequence_error(value, shape) or _MIXED_TYPES) from None
    k = arr.dtype.kind
    if list(arr.shape) != shape:        # NumPy took a row of NumPy arrays where TF did not
        raise ValueError(_sequence_error(value, shape) or _NON_RECTANGULAR)
    if kind == "int" and (k == "O" and all(isinstance(v, (int, np.integer)) for v in arr.flat)
                          or k == "u" and arr.size and arr.max() >= 2**63):
        raise ValueError(_OUT_OF_RANGE)
    if k not in _KIND_FITS[kind]:
        raise ValueError(_MIXED_TYPES)
    if kind == "int":
        if k == "f":
            return dtypes.float32
        return dtypes.int32 if arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31) \
            else dtypes.int64
    return {"bool": dtypes.bool, "float": dtypes.float32, "float64": dtypes.float64,
            "float16": dtypes.float16, "complex": dtypes.complex128}[kind]


def _to_bytes(x: Any) -> bytes:
    if isinstance(x, bytes):
        return bytes(x)
    if isinstance(x, str):
        return x.encode("utf-8")
    raise TypeError("Cannot convert %r to EagerTensor of dtype string" % (x,))


def as_bytes_array(value: Any) -> np.ndarray:
    """TensorFlow's string value: an object array of ``bytes`` (``str`` is UTF-8 encoded).

    Raises:
        TypeError: an element is neither ``str`` nor ``bytes``.
    """
    arr = np.asarray(value, dtype=object)
    if arr.dtype.kind != "O":
        arr = arr.astype(object)
    if all(type(x) is bytes for x in arr.flat):
        return arr
    out = np.empty(arr.shape, dtype=object)
    out.flat[:] = [_to_bytes(x) for x in arr.flat] if arr.size else []
    return out


def _not_convertible(value: Any, dtype: dtypes.DType) -> str:
    return "Cannot convert %r to EagerTensor of dtype %s" % (value, errors.dtype_text(dtype))


def to_numpy(value: Any, dtype: dtypes.DType | None = None) -> np.ndarray:
    """A NumPy array for a Python value, with TensorFlow's dtype rules and checks.

    Args:
        value: A tensor, variable or array-like.
        dtype: The DType to convert to; the value's own when None.
    """
    dt = dtype.base_dtype if dtype is not None else infer_dtype(value)
    if dt is dtypes.string:
        if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind not in "OUS":
            raise ValueError("Failed to convert a NumPy array to a Tensor (Unsupported object "
                             "type %s)." % type(np.asarray(value).flat[0].item()).__name__
                             if value.size else "Failed to convert a NumPy array to a Tensor.")
        if dtype is None:
            try:
                return as_bytes_array(value)
            except TypeError:
                raise ValueError(_MIXED_TYPES) from None
        try:
            return as_bytes_array(value)
        except TypeError:
            raise TypeError(_not_convertible(value, dt)) from None
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype == dt.np:
            return np.asarray(value)
        return np.asarray(value).astype(dt.np)    # TensorFlow casts as NumPy does (1.5 -> 1)
    if type(value) is float and dt._differentiable:
        return np.asarray(value, dtype=dt.np)   # a Python float for a floating tensor
    try:
        arr = _sequence_array(value)
    except ValueError as e:
        if str(e) == _NON_RECTANGULAR:
            raise
        raise ValueError("Cannot convert %r to a tensor: %s" % (value, e)) from None
    if arr.dtype.kind in "OUS" and dt is not dtypes.string:
        raise TypeError(_not_convertible(value, dt) if executing_eagerly() else
                        "Cannot convert %r to a tensor of dtype %s." % (value, dt.name))
    if arr.size and (arr.dtype.kind in "fc" and dt.np.kind in "iub" or
                     arr.dtype.kind == "i" and dt.np.kind == "b"):     # [] fits any dtype
        raise TypeError(_not_convertible(value, dt))
    # Python integers out of the dtype's range wrap around, as TensorFlow's constants do
    # (tf.constant(300, tf.uint8) is 44); feeding one is the TypeError of Session.run.
    return arr.astype(dt.np, copy=False)


def _packed_element(value: Any, dtype: dtypes.DType | None) -> TensorBase:
    """An element of a list packed into a tensor of ``dtype``: a tensor of another dtype is
    cast (TensorFlow's packing casts, ``tf.reshape(x, (float_tensor, 1))`` works), anything
    else converts as usual."""
    if dtype is not None and isinstance(value, TensorBase) and \
            value.dtype.base_dtype is not dtype.base_dtype:
        return hooks.cast(value, dtype.base_dtype)
    return convert_to_tensor(value, dtype)


def convert_to_tensor(value: TensorLike, dtype: DTypeLike | None = None, name: str | None = None,
                      preferred_dtype: DTypeLike | None = None,
                      dtype_hint: DTypeLike | None = None, as_ref: bool = False) -> TensorBase:
    """Converts a tensor, Variable, NumPy array or Python value to a tensor.

    Args:
        value: A tensor, variable, NumPy array, Python scalar or nested list.
        dtype: The result's dtype; inferred when None.
        name: The name of a constant made for it.
        preferred_dtype: TF1's name for ``dtype_hint``.
        dtype_hint: The dtype to use when ``dtype`` is None and the value converts to it.
        as_ref: Accepted for TensorFlow's signature.
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, TensorBase):
        if dtype is not None and value.dtype.base_dtype is not dtype.base_dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (dtype.name, value.dtype.name, value))
        if isinstance(value, Tensor) and executing_eagerly() and not as_ref:
            return value
        return value
    fn = _conversion_functions.get(type(value))
    if fn is None:
        for t, f in _conversion_functions.items():
            if isinstance(value, t):
                fn = f
                break
    if fn is not None:
        return fn(value, dtype=dtype, name=name, as_ref=as_ref)
    if hasattr(type(value), "__tf_tensor__"):     # TensorFlow's conversion protocol
        return value.__tf_tensor__(dtype, name)
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        # TensorFlow's autopacking: without a dtype, the first tensor's (depth first); the
        # Python values convert to it ([[0.0, 0.0], tf.constant([0.0, 0.0], tf.float64)] is
        # float64)
        return hooks.stack([_packed_element(v, dtype if dtype is not None
                                            else _first_tensor_dtype(value))
                            for v in value], name=name or "packed")
    if dtype is None:
        hint = preferred_dtype if preferred_dtype is not None else dtype_hint
        if hint is not None:
            try:
                return constant(value, dtypes.as_dtype(hint), name=name or "Const")
            except (TypeError, ValueError):
                pass
    return constant(value, dtype, name=name or "Const")


def _first_tensor_dtype(value: Any) -> dtypes.DType | None:
    """The dtype of the first tensor of a nested list, depth first."""
    for v in value:
        if is_tensor(v):
            return v.dtype.base_dtype
        if isinstance(v, (list, tuple)):
            dt = _first_tensor_dtype(v)
            if dt is not None:
                return dt
    return None


def _contains_tensor(value: Any) -> bool:
    for v in value:
        if is_tensor(v) or isinstance(v, (list, tuple)) and _contains_tensor(v):
            return True
    return False


def constant(value: TensorLike, dtype: DTypeLike | None = None, shape: ShapeLike = None,
             name: str = "Const", verify_shape: bool = False) -> TensorBase:
    """Creates a constant tensor from a tensor-like object, as ``tf.constant``.

    Args:
        value: A Python scalar, nested list, NumPy array or tensor.
        dtype: The element type of the result; inferred from ``value`` if None.
        shape: The result's shape. A single value is broadcast to it; otherwise the values
            are reshaped to it.
        name: The name of the Const op (graph mode).
        verify_shape: Accepted for TensorFlow 1's signature.

    Returns:
        A ``Tensor`` holding ``value``: an eager tensor, or a Const op's output in a graph.

    Raises:
        TypeError: ``value`` cannot be converted to ``dtype``.
        ValueError: the values do not fit ``shape``.

    Example:

        >>> import flowgrad as tf
        >>> tf.constant([[1, 2], [3, 4]]).shape
        TensorShape([2, 2])
    """
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    if is_tensor(value) and not isinstance(value, (np.ndarray, np.generic)):
        t = convert_to_tensor(value)
        return t if dt is None or t.dtype == dt else hooks.cast(t, dt)
    arr = to_numpy(value, dt)
    if isinstance(value, np.ndarray) and np.may_share_memory(arr, value):
        arr = arr.copy()        # the caller may change its array later; the constant must not
    if shape is not None:
        shape = tuple(as_shape(shape).as_list())
        if arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape)
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        elif executing_eagerly():
            raise TypeError("Eager execution of tf.constant with unsupported shape. Tensor %s "
                            "(converted from %s) has %d elements, but got `shape` %s with %d "
                            "elements)." % (arr, value, arr.size, TensorShape(shape),
                                            int(np.prod(shape))))
        else:
            raise TypeError("Expected Tensor's shape: %s, but got %s." % (shape, arr.shape))
        arr = np.array(arr)
    if executing_eagerly():
        return EagerTensor(eager_value(arr), dtypes.from_numpy(arr.dtype))
    return hooks.graph_constant(arr, dtypes.from_numpy(arr.dtype), name)
