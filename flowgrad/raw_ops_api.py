"""``tf.raw_ops`` of both faces: flowgrad's registered ops under TensorFlow's op type names,
called as TensorFlow's raw ops are -- keyword arguments only, inputs by TensorFlow's input
names, attributes by name, and an optional ``name``::

    tf.raw_ops.Bucketize(input=x, boundaries=[0.0, 1.0])
    y, idx = tf.raw_ops.UniqueV2(x=x, axis=[0])

Type attributes TensorFlow infers from the inputs (``T``, ``Tidx``, ...) are accepted and
ignored; attributes flowgrad's kernel does not know are a TypeError naming them. The ops that
exist only inside flowgrad (gradient helpers) are not shown. flowgrad's ops take TensorFlow's
inputs and attributes where TensorFlow's graph functions call them; a raw op whose
flowgrad form takes some input as an attribute (or the reverse) is called through its public
``tf.*`` function instead."""
from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _ops, get_op_def
from flowgrad.framework.tensor import EagerTensor

#: Registered op types that TensorFlow does not have (flowgrad's internal helpers, and
#: TF 1.15 contrib's ``GatherTree``).
FLOWGRAD_ONLY = frozenset({
    "BroadcastToShapeOf", "GatherTree", "GatherGradAlongAxis", "IteratorGetNextFromStringHandle",
    "ReduceToShapeOf", "ReducedShape", "ReducedSize", "TensorArrayPadRows", "TensorArrayZeros",
})

#: TensorFlow's defaults of attributes flowgrad's kernels need.
_DEFAULTS = {
    "Unique": {"out_idx": dtypes.int32}, "UniqueV2": {"out_idx": dtypes.int32},
    "UniqueWithCounts": {"out_idx": dtypes.int32},
    "UniqueWithCountsV2": {"out_idx": dtypes.int32},
    "LowerBound": {"out_type": dtypes.int32}, "UpperBound": {"out_type": dtypes.int32},
    "HistogramFixedWidth": {"dtype": dtypes.int32},
    "DenseBincount": {"binary_output": False},
    "ImageProjectiveTransformV2": {"fill_mode": "CONSTANT"},
    "ImageProjectiveTransformV3": {"fill_mode": "CONSTANT"},
    "ConcatV2": {"axis": None},
}

#: Inputs that are lists of tensors in TensorFlow's op definitions (``AddN(inputs=[a, b])``):
#: their tensors are the op's inputs one by one, and ``N`` (where the kernel takes it) is the
#: length of the first list.
_LIST_INPUTS = {"AddN": ("inputs",), "Pack": ("values",), "ConcatV2": ("values",),
                "IdentityN": ("input",), "DynamicStitch": ("indices", "data"),
                "ParallelDynamicStitch": ("indices", "data"), "Einsum": ("inputs",),
                "StringJoin": ("inputs",), "MergeSummary": ("inputs",)}


def _kernel_attrs(op_type: str) -> tuple:
    """(names of the keyword attributes the kernel takes, whether it takes any)."""
    kernel = get_op_def(op_type).kernel
    if kernel is None:
        return frozenset(), True
    try:
        params = inspect.signature(kernel).parameters.values()
    except (TypeError, ValueError):
        return frozenset(), True
    names = frozenset(p.name for p in params if p.kind is p.KEYWORD_ONLY)
    return names, any(p.kind is p.VAR_KEYWORD for p in params)


def _is_type_attr(name: str) -> bool:
    return name == "T" or (len(name) > 1 and name[0] == "T" and name[1].isupper())


def _raw_op(op_type: str) -> Callable:
    opdef = get_op_def(op_type)

    def call(**kwargs: Any) -> Any:
        name = kwargs.pop("name", None)
        inputs: list = []
        count = None
        for i, arg in enumerate(opdef.input_names):
            if arg not in kwargs:
                if any(a in kwargs for a in opdef.input_names[i + 1:]):
                    raise TypeError("raw_ops.%s: missing input '%s'" % (op_type, arg))
                break
            value = kwargs.pop(arg)
            if arg in _LIST_INPUTS.get(op_type, ()):
                if isinstance(value, (np.ndarray, EagerTensor)) and np.ndim(value):
                    value = list(value)         # a tensor's rows, as TensorFlow eagerly
                if not isinstance(value, (list, tuple)):
                    raise TypeError("Expected list for '%s' argument to '%s' Op, not %r."
                                    % (arg, op_type, value))
                count = len(value) if count is None else count
                inputs.extend(value)
            else:
                inputs.append(value)
        known, takes_any = _kernel_attrs(op_type)
        attrs = dict(_DEFAULTS.get(op_type, {}))
        if count is not None and "N" in known:
            attrs["N"] = count
        for key, value in kwargs.items():
            if key in known or takes_any:
                attrs[key] = dtypes.as_dtype(value) if isinstance(value, dtypes.DType) else value
            elif not _is_type_attr(key):
                raise TypeError("raw_ops.%s got an unexpected argument '%s' (inputs: %s)"
                                % (op_type, key, ", ".join(opdef.input_names)))
        if op_type == "Bucketize" and "boundaries" in attrs:
            attrs["boundaries"] = tuple(float(b) for b in attrs["boundaries"])
        out = apply_op(op_type, inputs, attrs, name=name)
        return tuple(out) if isinstance(out, list) else out

    call.__name__ = call.__qualname__ = op_type
    call.__doc__ = ("TensorFlow's raw op %s; keyword arguments only.\n\nArgs:\n%s"
                    "  name: a name for the op.\n"
                    "  **attrs: the op's attributes, by TensorFlow's names (type attributes such "
                    "as ``T`` are taken from the inputs).\n\nReturns:\n"
                    "  The op's output tensor, or a tuple of them.\n" % (
                        op_type, "".join("  %s: the input %s.\n" % (a, a)
                                         for a in opdef.input_names)))
    return call


def _names() -> list:
    return sorted(t for t in _ops if t not in FLOWGRAD_ONLY)


def __getattr__(name: str) -> Callable:
    if name.startswith("_") or name not in _ops or name in FLOWGRAD_ONLY:
        raise AttributeError("module 'tf.raw_ops' has no attribute %r" % name)
    fn = _raw_op(name)
    globals()[name] = fn
    return fn


def __dir__() -> list:
    return _names()
