"""IndexedSlices: a sparse gradient (rows ``indices`` of a dense tensor hold ``values``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.tensor import register_tensor_conversion_function
from flowgrad.framework.type_hints import DTypeLike, TensorLike


class IndexedSlices:
    """Sparse representation of a tensor's rows: ``dense[indices[i]] += values[i]``.

    Args:
        values: The slices: a tensor [N, ...].
        indices: A 1-D int tensor: the row of each slice.
        dense_shape: The shape of the dense tensor they are slices of, if known.
    """

    def __init__(self, values: Any, indices: TensorLike, dense_shape: Any = None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self) -> Any:
        return self._values

    @property
    def indices(self) -> Any:
        return self._indices

    @property
    def dense_shape(self) -> Any:
        return self._dense_shape

    @property
    def dtype(self) -> Any:
        return self._values.dtype

    @property
    def shape(self) -> Any:
        from flowgrad.framework.shape_rules import shape_from_value
        from flowgrad.framework.tensor import is_tensor
        from flowgrad.framework.tensor_shape import TensorShape
        if self._dense_shape is None:
            return TensorShape(None)
        if not is_tensor(self._dense_shape):
            return TensorShape([int(d) for d in np.ravel(self._dense_shape)])
        return shape_from_value(self._dense_shape)

    def get_shape(self) -> Any:
        return self.shape

    @property
    def name(self) -> str:
        return self._values.name

    @property
    def op(self) -> Any:
        return self._values.op

    @property
    def graph(self) -> Any:
        return self._values.graph

    @property
    def device(self) -> str:
        return self._values.device

    def __neg__(self) -> IndexedSlices:
        return IndexedSlices(hooks.negative(self._values), self._indices, self._dense_shape)

    def __repr__(self) -> str:
        return "IndexedSlices(indices=%s, values=%s%s)" % (
            self._indices, self._values,
            ", dense_shape=%s" % (self._dense_shape,) if self._dense_shape is not None else "")


def to_dense(s: IndexedSlices, dtype: DTypeLike | None = None, name: Any = None,
             as_ref: bool = False) -> Any:
    """The dense tensor an IndexedSlices stands for (rows of duplicate indices add up)."""
    if dtype is not None and dtypes.as_dtype(dtype).base_dtype is not s.dtype.base_dtype:
        raise ValueError("Tensor conversion requested dtype %s for IndexedSlices with dtype %s: %r"
                         % (dtypes.as_dtype(dtype).name, s.dtype.base_dtype.name, s))
    if s.dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: %r"
                         % (s,))
    shape = s.shape
    rows = shape.as_tuple()[0] if shape.rank else None
    out = hooks.unsorted_segment_sum(s.values, s.indices,
                                     s.dense_shape[0] if rows is None else rows, name=name)
    out.set_shape(shape)
    return out


register_tensor_conversion_function(IndexedSlices, to_dense)
