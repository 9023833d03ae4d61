"""``tf.experimental.numpy.experimental_enable_numpy_behavior``: NumPy's dtype promotion in
tensor operators, NumPy's methods on tensors (``.T``, ``.reshape``, ``.astype``, ...) and
NumPy's advanced indexing, as TensorFlow 2.21 turns them on (for the rest of the program)."""
from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.experimental_numpy import array_api as aa
from flowgrad.experimental_numpy import dtypes_config as dc
from flowgrad.experimental_numpy import math_api as ma
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import indexing_ops, shape_ops
from flowgrad.ops.batch_gather_nd_ops import gather_nd
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.state_ops import Variable
from flowgrad.framework.type_hints import TensorLike

_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor")
_COMPARISONS = ("lt", "le", "gt", "ge")
_CLASSES = (TensorBase, Tensor, EagerTensor, Variable)
_saved: dict = {}


def _flatten(values: Any) -> list:
    out = []
    for v in values:
        out.extend(_flatten(v) if isinstance(v, (list, tuple)) else [v])
    return out


def _operand_dtype(x: Any) -> Any:
    if isinstance(x, numbers.Number) and not isinstance(x, np.generic):
        if dc.is_prefer_float32() and isinstance(x, float):
            return np.float32(x)
        if dc.is_prefer_float32() and isinstance(x, complex):
            return np.complex64(x)
        return x
    if isinstance(x, (TensorBase, Variable)):
        return x.dtype.base_dtype.as_numpy_dtype
    if isinstance(x, dtypes.DType):
        return x.as_numpy_dtype
    if isinstance(x, TensorShape):
        return np.int32
    return x


def promote_tensors(*values: Any) -> list:
    """The operands of a tensor operator cast to NumPy's ``result_type`` of their dtypes
    (Python scalars weak), as TensorFlow's ``maybe_promote_tensors`` with NumPy behaviour.

    Args:
      *values: Tensors, variables and Python or NumPy values (a list's elements count one by
        one, as TensorFlow's ``nest.flatten`` of the operands).

    Returns:
      The tensors, each of the common dtype.
    """
    target = dtypes.as_dtype(np.result_type(*[_operand_dtype(v) for v in _flatten(values)]))
    out = []
    for v in values:
        if isinstance(v, (TensorBase, Variable)):
            out.append(v if v.dtype.base_dtype == target else cast(v, target))
        else:
            out.append(convert_to_tensor(v, target))
    return out


def _promoting(fn: Callable, reflected: bool = False) -> Callable:
    def op(self: Any, other: Any) -> Any:
        x, y = promote_tensors(self, other)
        return fn(x, y)
    if reflected:
        def rop(self: Any, other: Any) -> Any:
            y, x = promote_tensors(self, other)
            return fn(y, x)
        return rop
    return op


def _is_advanced(item: Any) -> bool:
    if isinstance(item, (list, np.ndarray)):
        return True
    if isinstance(item, (TensorBase, Variable)):
        return item.shape.rank != 0 or item.dtype.base_dtype == dtypes.bool
    return False


def numpy_getitem(tensor: TensorLike, key: Any, basic: Callable) -> Any:
    """``tensor[key]`` with NumPy's indexing: basic indexing as ``basic`` does it, plus
    integer-array and boolean-array (advanced) indices.

    Args:
      tensor: The tensor.
      key: The index.
      basic: The basic indexing function (``tf.Tensor.__getitem__`` without NumPy behaviour).

    Returns:
      A tensor.

    Raises:
      IndexError: An advanced index this implementation does not cover (advanced indices
        with np.newaxis).
    """
    items = list(key) if isinstance(key, tuple) else [key]
    # A tuple inside the index is a sequence, as NumPy reads it: ``x[:, (True, False)]``.
    items = [list(v) if isinstance(v, tuple) else v for v in items]
    if not any(_is_advanced(i) for i in items):
        return basic(tensor, key)
    tensor = convert_to_tensor(tensor)
    # Boolean arrays become integer arrays of their true positions (one per axis they span).
    expanded = []
    for v in items:
        is_bool = (isinstance(v, (list, np.ndarray)) and np.asarray(v).dtype == np.bool_) or (
            isinstance(v, (TensorBase, Variable)) and v.dtype.base_dtype == dtypes.bool)
        expanded.extend(aa.nonzero(v) if is_bool else [v])
    items = expanded
    # Expand the ellipsis so that every position names an input axis.
    at = [j for j, v in enumerate(items) if v is Ellipsis]
    if at:
        named = sum(1 for v in items if v is not None and v is not Ellipsis)
        items[at[0]:at[0] + 1] = [slice(None)] * (tensor.shape.rank - named)
    scalar = (int, np.integer, TensorBase, Variable)
    if all(v is not None for v in items):
        # TensorFlow takes scalar indices as basic ones: those outside the arrays' span first
        arrays = [j for j, v in enumerate(items) if _is_advanced(v)]
        outside = {j for j, v in enumerate(items) if isinstance(v, scalar) and not
                   _is_advanced(v) and not arrays[0] < j < arrays[-1]}
        if outside:
            tensor = basic(tensor, tuple(v if j in outside else slice(None)
                                         for j, v in enumerate(items)))
            items = [v for j, v in enumerate(items) if j not in outside]
    advanced = [j for j, v in enumerate(items) if _is_advanced(v) or isinstance(v, scalar)]
    if advanced != list(range(advanced[0], advanced[-1] + 1)):
        if any(v is None for v in items):
            raise IndexError("flowgrad's NumPy indexing takes advanced (array) indices apart "
                             "only without np.newaxis; got %r" % (key,))
        # Array indices apart: their broadcast axes come first, as if the indexed axes came
        # first (TensorFlow's moveaxis and gather_nd).
        items += [slice(None)] * (tensor.shape.rank - len(items))
        rest = [j for j in range(len(items)) if j not in advanced]
        tensor = shape_ops.transpose(tensor, advanced + rest)
        items = [items[j] for j in advanced + rest]
        advanced = list(range(len(advanced)))
    elif any(v is None for v in items):
        raise IndexError("flowgrad's NumPy indexing takes advanced (array) indices without "
                         "np.newaxis; got %r" % (key,))
    # Basic-index the axes before and after the advanced block first.
    start, stop = advanced[0], advanced[-1] + 1
    leading = items[:start]
    trailing = items[stop:]
    rank = tensor.shape.rank
    n_adv = stop - start
    prefix = basic(tensor, tuple(leading + [slice(None)] * (rank - start)))
    kept = prefix.shape.rank - (rank - start)          # axes the leading block left
    moved = shape_ops.transpose(prefix, list(range(kept, kept + n_adv)) + list(range(kept)) +
                                list(range(kept + n_adv, prefix.shape.rank)))
    dims = moved.shape.as_list()
    index = [aa.asarray(items[j], np.int64) for j in advanced]
    index = aa.broadcast_arrays(*index)
    index = [ma.mod(i, np.int64(d)) if d is not None else i for i, d in zip(index, dims)]
    picked = gather_nd(moved, shape_ops.stack(index, axis=-1)) if n_adv > 1 else \
        indexing_ops.gather_v2(moved, index[0], axis=0)
    bshape = index[0].shape.rank
    # picked: broadcast index dims, then the leading kept axes, then the rest.
    perm = list(range(bshape, bshape + kept)) + list(range(bshape)) + list(
        range(bshape + kept, picked.shape.rank))
    result = shape_ops.transpose(picked, perm)
    if trailing:
        result = basic(result, tuple([slice(None)] * (kept + bshape) + trailing))
    return result


def _tensor_t(self: Any) -> Any:
    return aa.transpose(self)


def _tensor_size(self: Any) -> Any:
    if not self.shape.is_fully_defined():
        return None
    return np.prod(self.shape.as_list())


def _tensor_tolist(self: Any) -> Any:
    if not isinstance(self, (EagerTensor, Variable)):
        raise ValueError("Symbolic Tensors do not support the tolist API.")
    return np.asarray(self).tolist()


def _reshape_method(a: Any, *newshape: Any, **kwargs: Any) -> Any:
    order = kwargs.pop("order", "C")
    if kwargs:
        raise ValueError(f"Unsupported arguments: {kwargs.keys()}")
    if len(newshape) == 1 and not isinstance(newshape[0], int):
        newshape = newshape[0]
    return aa.reshape(a, newshape, order=order)


def _astype(self: Any, dtype: Any) -> Any:
    return cast(self, dc.result_type(dtype))


_METHODS: dict[str, Any] = {
    "T": property(_tensor_t),
    "size": property(_tensor_size),
    "data": property(lambda self: self),
    "__pos__": lambda self: self,
    "tolist": _tensor_tolist,
    "transpose": aa.transpose,
    "flatten": aa.flatten,
    "reshape": _reshape_method,
    "ravel": aa.ravel,
    "clip": ma.clip,
    "astype": _astype,
    "__round__": aa.around,
    "max": aa.amax,
    "mean": aa.mean,
    "min": aa.amin,
}


def _install() -> None:
    for cls in _CLASSES:
        saved = _saved.setdefault(cls, {})
        for name in (["__%s__" % o for o in _OPERATORS] + ["__r%s__" % o for o in _OPERATORS]
                     + ["__%s__" % o for o in _COMPARISONS] + ["__eq__", "__ne__",
                                                               "__getitem__"] + list(_METHODS)):
            if name in cls.__dict__ and name not in saved:
                saved[name] = cls.__dict__[name]
    for cls in (TensorBase, Variable):
        for o in _OPERATORS:
            fwd = cls.__dict__["__%s__" % o]
            setattr(cls, "__%s__" % o, _promoting(lambda x, y, f=fwd: f(x, y)))
            setattr(cls, "__r%s__" % o, _promoting(lambda y, x, f=fwd: f(x, y), True))
        for o in _COMPARISONS:
            setattr(cls, "__%s__" % o, _promoting(cls.__dict__["__%s__" % o]))
    for cls in (Tensor, EagerTensor):
        for o in ("eq", "ne"):
            orig = _saved[cls]["__%s__" % o]

            def compare(self: Any, other: Any, f: Any = orig) -> Any:
                if other is None or not isinstance(
                        other, (numbers.Number, np.ndarray, np.generic, TensorBase, Variable)):
                    return f(self, other)
                x, y = promote_tensors(self, other)
                return f(x, y)
            setattr(cls, "__%s__" % o, compare)
    basic = _saved[TensorBase]["__getitem__"]
    TensorBase.__getitem__ = lambda self, key: numpy_getitem(self, key, basic)
    for cls in (TensorBase, Variable):
        for name, value in _METHODS.items():
            setattr(cls, name, value)


def is_enabled() -> bool:
    """Whether :func:`experimental_enable_numpy_behavior` has been called."""
    return bool(_saved)


def experimental_enable_numpy_behavior(prefer_float32: bool = False,
                                       dtype_conversion_mode: str = "legacy") -> None:
    """Turns on NumPy behaviour for tensors, as TensorFlow 2.21: operators promote their
    operands with NumPy's rules (``tf.constant(1) + 1.5`` is a float64 2.5), tensors gain
    NumPy's methods (``T``, ``reshape``, ``ravel``, ``flatten``, ``transpose``, ``astype``,
    ``clip``, ``max``, ``min``, ``mean``, ``tolist``, ``size``, ``data``) and indexing
    takes NumPy's integer and boolean arrays.

    Args:
      prefer_float32: Whether Python floats become float32 (else float64, NumPy's choice).
      dtype_conversion_mode: ``"legacy"`` (NumPy's promotion); ``"off"``, ``"safe"`` and
        ``"all"`` (TensorFlow's experimental auto dtype conversion) are not supported.

    Raises:
      ValueError: Another ``dtype_conversion_mode``.
    """
    if dtype_conversion_mode != "legacy":
        raise ValueError("flowgrad supports dtype_conversion_mode='legacy' only (NumPy's "
                         "promotion); got %r" % (dtype_conversion_mode,))
    dc.set_prefer_float32(prefer_float32)
    if not _saved:
        _install()


def disable_numpy_behavior() -> None:
    """Undoes :func:`experimental_enable_numpy_behavior` (TensorFlow cannot; flowgrad's own
    tests use it to keep one process's other tests unaffected)."""
    for cls, saved in _saved.items():
        for name in (["__%s__" % o for o in _OPERATORS] + ["__r%s__" % o for o in _OPERATORS]
                     + ["__%s__" % o for o in _COMPARISONS] + ["__eq__", "__ne__",
                                                               "__getitem__"] + list(_METHODS)):
            if name in saved:
                setattr(cls, name, saved[name])
            elif name in cls.__dict__:
                delattr(cls, name)
    _saved.clear()
    dc.set_prefer_float32(False)
