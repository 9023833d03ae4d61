"""Partitioned variables (TensorFlow 1): ``tf.compat.v1.get_variable(...,
partitioner=...)`` and the partitioners ``fixed_size_partitioner``,
``min_max_variable_partitioner`` and ``variable_axis_size_partitioner``.

A partitioner maps a variable's full shape and dtype to the number of parts along each
axis (one axis at most); ``get_variable`` then creates one variable per part, named
``<name>/part_<i>``, the first ``n % parts`` of them one row longer (TensorFlow's
``_iter_slices``), each holding a :class:`SaveSliceInfo` (its full name, full shape,
offset and shape). A ``Saver`` stores them as slices of one tensor ``<name>`` of the
full shape (TensorFlow's slice keys, see ``flowgrad.train.tensor_bundle``), so
TensorFlow restores them into its own partitioned variable, or a whole one, and the
reverse. :class:`PartitionedVariable` is TensorFlow's container: iterable over its parts,
``as_tensor()`` (and conversion to a tensor) concatenates them, ``assign`` splits a
value over them, and ``tf.nn.embedding_lookup`` looks rows up across them."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.graph import control_dependencies, name_scope
from flowgrad.framework.tensor import register_tensor_conversion_function
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import array_ops
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


class SaveSliceInfo:
    """Where a part of a partitioned variable lies in the full variable (TensorFlow's
    ``Variable.SaveSliceInfo``).

    Args:
        full_name: The name of the full variable (its checkpoint key).
        full_shape: The full variable's shape.
        var_offset: The part's offset in each dimension.
        var_shape: The part's shape.
    """

    def __init__(self, full_name: str | None = None, full_shape: Any = None,
                 var_offset: Any = None, var_shape: Any = None):
        self.full_name = full_name
        self.full_shape = list(full_shape or [])
        self.var_offset = list(var_offset or [])
        self.var_shape = list(var_shape or [])

    @property
    def spec(self) -> str:
        """TensorFlow's slice spec: ``"<full shape> <offset>,<length>:..."``."""
        return " ".join("%d" % d for d in self.full_shape) + " " + ":".join(
            "%d,%d" % (o, s) for o, s in zip(self.var_offset, self.var_shape))


def save_slice_info(v: TensorLike) -> SaveSliceInfo | None:
    """The SaveSliceInfo of a variable that is a part of a partitioned one, else None."""
    return getattr(v, "_save_slice_info", None)


class PartitionInfo:
    """What a partitioned variable's initializer is told about the part it initializes
    (``partition_info``): the full shape and the part's offset.

    Args:
        full_shape: The full variable's shape.
        var_offset: The part's offset in each dimension.
    """

    def __init__(self, full_shape: Any, var_offset: Any):
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)

    def single_offset(self, shape: ShapeLike | TensorLike) -> int:
        """The part's offset along its one sliced dimension."""
        dim = self.single_slice_dim(shape)
        return 0 if dim is None else self.var_offset[dim]

    def single_slice_dim(self, shape: ShapeLike | TensorLike) -> int | None:
        """The dimension the variable is sliced along (None: not sliced)."""
        for i, (full, part) in enumerate(zip(self.full_shape, shape)):
            if full != part:
                return i
        return None


class PartitionedVariable:
    """A variable stored as parts along one axis (TensorFlow's ``PartitionedVariable``).

    Args:
        name: The full variable's name.
        shape: The full variable's shape.
        dtype: The variables' dtype.
        variable_list: The parts, each with a SaveSliceInfo.
        partitions: The number of parts along each axis.

    Raises:
        TypeError: ``variable_list`` or ``partitions`` is not a list.
        ValueError: no parts, a part without a SaveSliceInfo, or shapes that disagree.
    """

    def __init__(self, name: str, shape: ShapeLike | TensorLike, dtype: DTypeLike,
                 variable_list: Any, partitions: Any):
        if not isinstance(variable_list, (list, tuple)):
            raise TypeError("variable_list is not a list or tuple: %s" % (variable_list,))
        if not isinstance(partitions, (list, tuple)):
            raise TypeError("partitions is not a list or tuple: %s" % (partitions,))
        if not all(p >= 1 for p in partitions):
            raise ValueError("partition values must be positive: %s" % (partitions,))
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        shape = TensorShape(shape)
        if any(save_slice_info(v) is None for v in variable_list):
            raise ValueError("All variables must have a save_slice_info available: %s"
                             % [v.name for v in variable_list])
        if shape.rank != len(partitions):
            raise ValueError("len(shape) != len(partitions): %s vs. %s" % (shape, partitions))
        for v in variable_list:
            if save_slice_info(v).full_shape != shape.as_list():
                raise ValueError("All variables' full shapes must match shape: %s; but full "
                                 "shapes were: %s" % (shape, [save_slice_info(v).full_shape]))
        self._variable_list = sorted(variable_list, key=lambda v: save_slice_info(v).var_offset)
        self._name = name
        self._shape = shape
        self._dtype = dtypes.as_dtype(dtype)
        self._partitions = list(partitions)

    def __iter__(self) -> Any:
        return iter(self._variable_list)

    def __len__(self) -> int:
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError("Cannot get a length for %d > 1 partition axes" % len(axes))
        return len(self._variable_list)

    def _partition_axes(self) -> list:
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self) -> Any:
        if len(self._variable_list) == 1:
            with name_scope(None):
                return array_ops.identity(self._variable_list[0], name=self._name)
        axis = self._partition_axes()[0]
        with name_scope(self._name + "/ConcatPartitions/"):
            concatenated = array_ops.concat(self._variable_list, axis)
        with name_scope(None):
            return array_ops.identity(concatenated, name=self._name)

    def as_tensor(self) -> Any:
        """The full value: the parts concatenated (free of the caller's control
        dependencies, like a variable's value)."""
        with control_dependencies(None):
            return self._concat()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        """The full variable's shape."""
        return self._shape

    def _get_variable_list(self) -> list:
        return self._variable_list

    def _get_partitions(self) -> list:
        return self._partitions

    def _apply(self, method: str, value: Any, kwargs: dict) -> list:
        if isinstance(value, (list, PartitionedVariable)):
            values = list(value)
            if len(values) != len(self._variable_list):
                raise ValueError("%s: %d values for %d parts" % (self._name, len(values),
                                                                len(self._variable_list)))
        else:
            axis = self._partition_axes()[0]
            sizes = [int(v.shape[axis]) for v in self._variable_list]
            values = array_ops.split(value, sizes, axis=axis)
        return [getattr(v, method)(x, **kwargs) for v, x in zip(self._variable_list, values)]

    def assign(self, value: TensorLike, use_locking: bool = False, name: str | None = None,
               read_value: bool = True) -> list:
        """Assigns ``value`` (the full value, or one value per part) to the parts.

        Args:
            value: The full value, a list of one value per part, or a PartitionedVariable.
            use_locking: Accepted for TensorFlow's signature.
            name: A name for the operations (optional).
            read_value: Whether to return the parts' new values (else the assign ops).

        Returns:
            One result per part.
        """
        out = self._apply("assign", value, {"name": name})
        return out if read_value else [getattr(t, "op", t) for t in out]

    def assign_add(self, value: TensorLike, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> list:
        """Adds ``value`` (split over the parts) to the parts; see :meth:`assign`."""
        out = self._apply("assign_add", value, {"name": name})
        return out if read_value else [getattr(t, "op", t) for t in out]

    def assign_sub(self, value: TensorLike, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> list:
        """Subtracts ``value`` (split over the parts) from the parts; see :meth:`assign`."""
        out = self._apply("assign_sub", value, {"name": name})
        return out if read_value else [getattr(t, "op", t) for t in out]

    def __repr__(self) -> str:
        return "<PartitionedVariable %s shape=%s dtype=%s parts=%d>" % (
            self._name, self._shape, self._dtype.name, len(self._variable_list))


def _convert(v: PartitionedVariable, dtype: Any = None, name: str | None = None,
             as_ref: bool = False) -> Any:
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(v.dtype):
        raise ValueError("Incompatible type conversion requested to type '%s' for variable "
                         "of type '%s'" % (dtypes.as_dtype(dtype).name, v.dtype.name))
    if as_ref:
        raise NotImplementedError("PartitionedVariable doesn't support being used as a "
                                  "reference.")
    return v.as_tensor()


register_tensor_conversion_function(PartitionedVariable, _convert)


# --------------------------------------------------------------------------------------
# Partitioners


def _element_size(dtype: Any, bytes_per_string_element: int) -> int:
    dtype = dtypes.as_dtype(dtype).base_dtype
    return bytes_per_string_element if dtype is dtypes.string else dtype.size


def variable_axis_size_partitioner(max_shard_bytes: int, axis: int = 0,
                                   bytes_per_string_element: int = 16,
                                   max_shards: int | None = None) -> Callable:
    """A partitioner that keeps each part under ``max_shard_bytes`` (slicing along ``axis``).

    Args:
        max_shard_bytes: The most bytes a part may hold.
        axis: The axis to slice along.
        bytes_per_string_element: The size counted for a string element.
        max_shards: The most parts (None: no limit).

    Returns:
        A partitioner ``f(shape, dtype) -> partitions``.

    Raises:
        ValueError: a non-positive ``max_shard_bytes``, ``bytes_per_string_element`` or
            ``max_shards``.
    """
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. "
                         "Currently, max_shard_bytes is %s and bytes_per_string_element is %s"
                         % (max_shard_bytes, bytes_per_string_element))
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape: Any, dtype: Any) -> list:
        if not isinstance(shape, TensorShape):
            raise ValueError("shape is not a TensorShape: %s" % (shape,))
        if not shape.is_fully_defined():
            raise ValueError("shape is not fully defined: %s" % (shape,))
        partitions = [1] * shape.rank
        dim = shape.as_list()[axis]
        bytes_per_slice = 1.0 * (shape.num_elements() / dim) * _element_size(
            dtype, bytes_per_string_element)
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * dim / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions
    return _partitioner


def min_max_variable_partitioner(max_partitions: int = 1, axis: int = 0,
                                 min_slice_size: int = 256 << 10,
                                 bytes_per_string_element: int = 16) -> Callable:
    """A partitioner giving each part at least ``min_slice_size`` bytes, in at most
    ``max_partitions`` parts along ``axis``.

    Args:
        max_partitions: The most parts.
        axis: The axis to slice along.
        min_slice_size: The fewest bytes per part (the last may hold fewer).
        bytes_per_string_element: The size counted for a string element.

    Returns:
        A partitioner ``f(shape, dtype) -> partitions``.
    """
    def _partitioner(shape: Any, dtype: Any) -> list:
        shape = TensorShape(shape)
        if axis >= shape.rank:
            raise ValueError("Cannot partition variable along axis %d when shape is only %s"
                             % (axis, shape))
        total = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
        partitions = [1] * shape.rank
        partitions[axis] = max(1, min(shape.as_list()[axis], max_partitions,
                                      int(math.ceil(total / min_slice_size))))
        return partitions
    return _partitioner


def fixed_size_partitioner(num_shards: int, axis: int = 0) -> Callable:
    """A partitioner of ``num_shards`` parts along ``axis`` (fewer for a shorter axis).

    Args:
        num_shards: The number of parts.
        axis: The axis to slice along.

    Returns:
        A partitioner ``f(shape, **unused) -> partitions``.
    """
    def _partitioner(shape: Any, **unused_args: Any) -> list:
        shape = TensorShape(shape)
        partitions = [1] * shape.rank
        partitions[axis] = min(num_shards, shape.as_list()[axis])
        return partitions
    return _partitioner


# --------------------------------------------------------------------------------------
# get_variable's side


def call_partitioner(partitioner: Callable, shape: TensorShape, dtype: DTypeLike) -> list:
    """The partitions ``partitioner`` gives, checked as TensorFlow checks them."""
    if not shape.is_fully_defined():
        raise ValueError("Shape of a new partitioned variable must be fully defined, but "
                         "instead was %s." % (shape,))
    if shape.rank < 1:
        raise ValueError("A partitioned Variable must have rank at least 1, shape: %s" % shape)
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, Sequence):
        raise ValueError("Partitioner must return a sequence, but saw: %s" % (slicing,))
    if len(slicing) != shape.rank:
        raise ValueError("Partitioner returned a partition list that does not match the "
                         "Variable's rank: %s vs. %s" % (slicing, shape))
    if any(p < 1 for p in slicing):
        raise ValueError("Partitioner returned zero partitions for some axes: %s" % (slicing,))
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError("Can only slice a variable along one dimension: shape: %s, "
                         "partitioning: %s" % (shape, slicing))
    return list(slicing)


def iter_slices(full_shape: list, partitions: list) -> list:
    """[(offset, shape)] of the parts (TensorFlow's ``_iter_slices``: the first
    ``n % parts`` parts are one longer)."""
    dim = next((i for i, p in enumerate(partitions) if p > 1), 0)
    num = partitions[dim] if partitions else 1
    excess = full_shape[dim] % num
    offset = [0] * len(full_shape)
    out = []
    for i in range(num):
        shape = list(full_shape)
        shape[dim] = full_shape[dim] // num + (i < excess)
        out.append((list(offset), shape))
        offset[dim] += shape[dim]
    return out


__all__ = ["PartitionedVariable", "SaveSliceInfo", "fixed_size_partitioner",
           "min_max_variable_partitioner", "variable_axis_size_partitioner"]
