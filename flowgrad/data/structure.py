"""Elements of a tf.data pipeline: nested tuples/dicts of NumPy arrays, and their specs.

Inside a pipeline an element travels as a flat list of NumPy arrays; its
structure and each component's dtype and shape are the dataset's
``element_spec`` (a nested structure of ``tf.TensorSpec``). As in TensorFlow,
tuples and dicts (namedtuples included) are structure, while a Python list is
a value to be converted into one tensor."""
from __future__ import annotations

import threading
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import dtypes, errors
from flowgrad.framework.philox import PhiloxWords, seeded_key_counter
from flowgrad.framework.tensor import constant as constant_op
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase, eager_value, to_numpy
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.composite_tensor import TypeSpec, register
from flowgrad.framework.none_tensor import NoneTensorSpec
from flowgrad.runtime.function import TensorSpec
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import DTypeLike, ShapeLike


class ElementStructure:
    """``element_spec`` and TF1's ``output_types/shapes/classes`` of ``self._element_spec``."""

    _element_spec: Any

    @property
    def element_spec(self) -> Any:
        """The nested structure of ``tf.TensorSpec`` of each element."""
        return self._element_spec

    @property
    def output_types(self) -> Any:
        return nest.map_structure(lambda s: s.dtype, self._element_spec)

    @property
    def output_shapes(self) -> Any:
        return nest.map_structure(lambda s: s.shape, self._element_spec)

    @property
    def output_classes(self) -> Any:
        return nest.map_structure(lambda s: Tensor, self._element_spec)


def normalize(value: Any) -> Any:
    """``value`` with every list that is not inside a tuple/dict structure left as a leaf."""
    if isinstance(value, dict):
        return type(value)((k, normalize(v)) for k, v in value.items())
    if isinstance(value, tuple):
        children = [normalize(v) for v in value]
        return type(value)(*children) if hasattr(value, "_fields") else tuple(children)
    return _Leaf(value)


class _Leaf:
    """Wraps one component so that nest functions do not descend into lists."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


def flatten(structure: Any) -> list:
    """The leaves of a normalized structure (unwrapped)."""
    return [x.value if isinstance(x, _Leaf) else x for x in nest.flatten(structure)]


def to_array(value: Any, dtype: DTypeLike | None = None) -> np.ndarray:
    """A component as a NumPy array with TensorFlow's dtype rules."""
    if hasattr(value, "_as_tensor") and not isinstance(value, TensorBase):
        value = value._as_tensor()
    if isinstance(value, EagerTensor):
        arr = np.asarray(value._value)
        if dtype is not None and arr.dtype != dtypes.as_dtype(dtype).np:
            arr = arr.astype(dtypes.as_dtype(dtype).np)
        return arr
    return np.asarray(to_numpy(value, None if dtype is None else dtypes.as_dtype(dtype)))


def spec_of(arr: np.ndarray) -> TensorSpec:
    return TensorSpec(arr.shape, dtypes.from_numpy(arr.dtype))


@register("tf.SparseTensorSpec")
class SparseTensorSpec(TypeSpec):
    """``tf.SparseTensorSpec``: the dense ``shape`` and ``dtype`` of a SparseTensor.

    Args:
        shape: the dense shape (dimensions may be None).
        dtype: the values' dtype.
    """

    def __init__(self, shape: ShapeLike = None, dtype: DTypeLike = dtypes.float32):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def value_type(self) -> type:
        return SparseTensor

    @classmethod
    def from_value(cls, value: SparseTensor) -> SparseTensorSpec:
        return cls(value.shape, value.dtype.base_dtype)

    def _serialize(self) -> tuple:
        return self._shape, self._dtype

    def _component_specs(self) -> list:
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _to_components(self, value: SparseTensor) -> list:
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, parts: list) -> SparseTensor:
        indices, values, dense_shape = parts
        if self._shape.is_fully_defined() and isinstance(dense_shape, Tensor):
            # as TensorFlow: a fully known spec shape makes the dense shape a constant
            dense_shape = constant_op(np.asarray(self._shape.as_list(), np.int64))
        return SparseTensor(indices, values, dense_shape)

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._shape.as_tuple() == \
            other._shape.as_tuple() and self._dtype == other._dtype

    def __hash__(self) -> int:
        return hash((type(self), self._shape.as_tuple(), self._dtype))

    def __repr__(self) -> str:
        return "SparseTensorSpec(%s, %r)" % (_shape_text(self._shape), self._dtype)


@register("tf.RaggedTensorSpec")
class RaggedTensorSpec(TypeSpec):
    """``tf.RaggedTensorSpec``: shape, dtype and ``ragged_rank`` of a RaggedTensor.

    Args:
        shape: the shape (ragged dimensions are None).
        dtype: the flat values' dtype.
        ragged_rank: the number of ragged dimensions (default ``rank - 1``).
        row_splits_dtype: int64 or int32.
        flat_values_spec: unused (TensorFlow's argument, accepted for the signature).
    """

    def __init__(self, shape: ShapeLike = None, dtype: DTypeLike = dtypes.float32,
                 ragged_rank: int | None = None, row_splits_dtype: DTypeLike = dtypes.int64,
                 flat_values_spec: Any = None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        if ragged_rank is None:
            if self._shape.rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = self._shape.rank - 1
        self._ragged_rank = int(ragged_rank)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def ragged_rank(self) -> int:
        return self._ragged_rank

    @property
    def row_splits_dtype(self) -> dtypes.DType:
        return self._row_splits_dtype

    @property
    def value_type(self) -> type:
        return RaggedTensor

    @classmethod
    def from_value(cls, value: RaggedTensor) -> RaggedTensorSpec:
        return cls(value.shape, value.dtype.base_dtype, value.ragged_rank,
                   value.row_splits_dtype.base_dtype)

    def _serialize(self) -> tuple:
        return self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype

    def _component_specs(self) -> list:
        dims = self._shape.as_tuple()
        inner = None if dims is None else [None] + list(dims[self._ragged_rank + 1:])
        return [TensorSpec(inner, self._dtype)] + \
            [TensorSpec([None], self._row_splits_dtype)] * self._ragged_rank

    def _to_components(self, value: RaggedTensor) -> list:
        return [value.flat_values] + list(value.nested_row_splits)

    def _from_components(self, parts: list) -> RaggedTensor:
        rt = RaggedTensor.from_nested_row_splits(parts[0], parts[1:], validate=False)
        dims, level = self._shape.as_tuple(), rt
        for k in range(self._ragged_rank if dims is not None else 0):
            level._uniform_row_length = dims[k + 1]     # a known dimension is uniform rows
            level = level.values
        return rt

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and (
            self._shape.as_tuple(), self._dtype, self._ragged_rank, self._row_splits_dtype) == (
            other._shape.as_tuple(), other._dtype, other._ragged_rank, other._row_splits_dtype)

    def __hash__(self) -> int:
        return hash((type(self), self._shape.as_tuple(), self._dtype, self._ragged_rank))

    def __repr__(self) -> str:
        return "RaggedTensorSpec(%s, %r, %d, %r)" % (
            _shape_text(self._shape), self._dtype, self._ragged_rank, self._row_splits_dtype)


class DatasetSpec(TypeSpec):
    """``tf.data.DatasetSpec``: the type of a dataset that is itself an element (the windows
    of ``Dataset.window``, the groups ``group_by_window`` hands its ``reduce_func``).

    Inside a pipeline such an element is one component: a 0-d object array holding the
    window's elements (a ``WindowElements``).

    Args:
        element_spec: The spec of the inner dataset's elements.
        dataset_shape: The shape of the dataset value (``()`` for one dataset).
    """

    def __init__(self, element_spec: Any, dataset_shape: ShapeLike = ()):
        self._element_spec = element_spec
        self._dataset_shape = as_shape(dataset_shape)

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def shape(self) -> TensorShape:
        return self._dataset_shape

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.string

    @property
    def value_type(self) -> type:
        return _WINDOWS["dataset_type"]

    @classmethod
    def from_value(cls, value: Any) -> DatasetSpec:
        return cls(value.element_spec)

    def _component_specs(self) -> list:
        return [TensorSpec([], dtypes.string)]

    def _to_components(self, value: Any) -> list:
        raise TypeError("A dataset is an element of a pipeline only as the window of "
                        "Dataset.window or group_by_window; got %r" % (value,))

    def _from_components(self, parts: list) -> Any:
        return _WINDOWS["window_dataset"](self._element_spec, parts[0])

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._element_spec == other._element_spec and \
            self._dataset_shape.as_tuple() == other._dataset_shape.as_tuple()

    def __hash__(self) -> int:
        return hash((type(self), self._dataset_shape.as_tuple()))

    def __repr__(self) -> str:
        return "DatasetSpec(%r, %s)" % (self._element_spec, _shape_text(self._dataset_shape))


#: Filled by flowgrad.data.windowing (which imports this module): ``dataset_type`` (the
#: ``tf.data.Dataset`` class) and ``window_dataset(element_spec, component)``.
_WINDOWS: dict = {}


def register_windows(dataset_type: type, window_dataset: Any) -> None:
    """Lets :class:`DatasetSpec` make the datasets of windows (called by the module that
    defines them).

    Args:
        dataset_type: The ``tf.data.Dataset`` class.
        window_dataset: ``(element_spec, component) -> Dataset`` of a window's component.
    """
    _WINDOWS.update(dataset_type=dataset_type, window_dataset=window_dataset)


class WindowElements:
    """The elements of one window (flat lists of arrays), carried through a pipeline as the
    single component of a :class:`DatasetSpec` element."""

    __slots__ = ("elements",)

    def __init__(self, elements: list):
        self.elements = elements


def window_component(elements: list) -> np.ndarray:
    """The component that carries a window of ``elements`` through a pipeline."""
    out = np.empty((), object)
    out[()] = WindowElements(elements)
    return out


def _shape_text(shape: TensorShape) -> str:
    return "TensorShape(None)" if shape.rank is None else "TensorShape(%s)" % shape.as_list()


_COMPOSITE_SPECS = (SparseTensorSpec, RaggedTensorSpec, DatasetSpec)


def is_composite(spec: Any) -> bool:
    """Whether ``spec`` describes a SparseTensor, RaggedTensor or ExtensionType (several
    components)."""
    return isinstance(spec, _COMPOSITE_SPECS) or _is_extension_spec(spec)


def _is_extension_spec(spec: Any) -> bool:
    """An ExtensionType's spec (TensorFlow's TypeSpec API: ``_component_specs`` a property)."""
    return isinstance(getattr(type(spec), "_component_specs", None), property)


def component_specs(spec: Any) -> list:
    """The specs of a composite spec's component tensors.

    Args:
        spec: A SparseTensorSpec, RaggedTensorSpec or ExtensionType spec.

    Returns:
        A list of TensorSpecs.
    """
    if _is_extension_spec(spec):
        return list(spec._component_specs)
    return spec._component_specs()


def spec_of_value(value: Any) -> Any:
    """The spec of one graph/eager tensor, SparseTensor or RaggedTensor."""
    if isinstance(value, SparseTensor):
        return SparseTensorSpec.from_value(value)
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if value is None:
        return NoneTensorSpec()
    if _is_extension_spec(getattr(value, "_type_spec", None)):
        return value._type_spec
    return TensorSpec(as_shape(value.shape), value.dtype.base_dtype)


def type_spec_from_value(value: Any) -> Any:
    """The spec of ``value``, as ``tf.type_spec_from_value``: a ``TensorSpec`` for a tensor
    or anything ``tf.convert_to_tensor`` takes (NumPy arrays, lists, numbers), a
    ``SparseTensorSpec`` or ``RaggedTensorSpec`` for those tensors. A variable gives the
    ``TensorSpec`` of its value (TensorFlow gives a ``VariableSpec``, which flowgrad lacks).

    Args:
        value: The value.

    Returns:
        A ``tf.TypeSpec``.

    Raises:
        TypeError: no spec can describe ``value``.
    """
    if value is None:
        return NoneTensorSpec()
    if _is_extension_spec(getattr(value, "_type_spec", None)):
        return value._type_spec
    if isinstance(value, (SparseTensor, RaggedTensor, TensorBase)) or (
            hasattr(value, "shape") and hasattr(getattr(value, "dtype", None), "base_dtype")):
        return spec_of_value(value)
    try:
        t = constant_op(value)
    except (TypeError, ValueError):
        raise TypeError("Could not build a TypeSpec for %r with type %s"
                        % (value, type(value).__name__)) from None
    return spec_of_value(t)


def components_of(value: Any) -> list:
    """The component tensors of one (possibly composite) value."""
    if isinstance(value, SparseTensor):
        return [value.indices, value.values, value.dense_shape]
    if isinstance(value, RaggedTensor):
        return [value.flat_values] + list(value.nested_row_splits)
    if value is None:
        return []
    if _is_extension_spec(getattr(value, "_type_spec", None)):
        return list(value._type_spec._to_components(value))
    return [value]


def flat_specs(spec: Any) -> list:
    """The TensorSpecs of an element's flat components (composites expanded)."""
    out = []
    for s in nest.flatten(spec):
        out.extend(component_specs(s) if is_composite(s) else [s])
    return out


def group(spec: Any, flat: list) -> list:
    """``flat`` components grouped per leaf of ``spec`` (a list of lists)."""
    out, i = [], 0
    for s in nest.flatten(spec):
        n = len(component_specs(s)) if is_composite(s) else 1
        out.append(flat[i:i + n])
        i += n
    return out


def pack(spec: Any, flat: list) -> Any:
    """``flat`` components packed into the structure of ``spec`` (composites rebuilt)."""
    leaves = [s._from_components(parts) if is_composite(s) else parts[0]
              for s, parts in zip(nest.flatten(spec), group(spec, flat))]
    return nest.pack_sequence_as(spec, leaves)


def with_shapes(spec: Any, shape_fn: Any) -> Any:
    """``spec`` with each TensorSpec's shape replaced by ``shape_fn(shape)``."""
    def one(s: Any) -> Any:
        if isinstance(s, SparseTensorSpec):
            return SparseTensorSpec(shape_fn(s.shape), s.dtype)
        if isinstance(s, RaggedTensorSpec):
            return RaggedTensorSpec(shape_fn(s.shape), s.dtype, s.ragged_rank,
                                    s.row_splits_dtype)
        if _is_extension_spec(s):
            return s._with_component_shapes(shape_fn)
        return TensorSpec(shape_fn(s.shape), s.dtype)
    return nest.map_structure(one, spec)


def same_structure(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` nest the same way (same container types, keys and lengths)."""
    if not nest.is_nested(a) or not nest.is_nested(b):
        return nest.is_nested(a) == nest.is_nested(b)
    if type(a) is not type(b) or len(a) != len(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(same_structure(a[k], b[k]) for k in a)
    return all(same_structure(x, y) for x, y in zip(a, b))


def most_specific_compatible(a: TensorShape, b: TensorShape) -> TensorShape:
    """The shape compatible with both ``a`` and ``b`` that keeps the dims they agree on."""
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_tuple(), b.as_tuple())])


def _flatten_up_to(structure: Any, value: Any) -> list:
    """``value`` flattened only as deep as the normalized ``structure`` goes."""
    if isinstance(structure, _Leaf):
        return [value]
    if isinstance(structure, dict):
        if not isinstance(value, dict) or set(value) != set(structure):
            raise ValueError("The two structures don't have the same keys: %r and %r"
                             % (structure, value))
        return [x for k in sorted(structure) for x in _flatten_up_to(structure[k], value[k])]
    if not isinstance(value, (tuple, list)) or len(value) != len(structure):
        raise ValueError("The two structures don't have the same sequence length: output_types "
                         "%r and output_shapes %r" % (structure, value))
    return [x for s, v in zip(structure, value) for x in _flatten_up_to(s, v)]


def spec_from_types(output_types: Any, output_shapes: Any) -> Any:
    """A spec structure from TF1-style ``output_types`` / ``output_shapes``."""
    types = normalize(output_types)
    flat_t = [dtypes.as_dtype(t.value) for t in nest.flatten(types)]
    flat_s = [None] * len(flat_t) if output_shapes is None else \
        _flatten_up_to(types, output_shapes)
    return nest.pack_sequence_as(types, [TensorSpec(as_shape(s), t)
                                         for t, s in zip(flat_t, flat_s)])


def to_eager(spec: Any, flat: list) -> Any:
    """An element as a structure of EagerTensors (a window as its dataset)."""
    if any(isinstance(s, DatasetSpec) for s in nest.flatten(spec)):
        leaves = []
        for s, parts in zip(nest.flatten(spec), group(spec, flat)):
            if isinstance(s, DatasetSpec):
                leaves.append(s._from_components(parts))
            else:
                leaves.append(to_eager(s, parts))
        return nest.pack_sequence_as(spec, leaves)
    return pack(spec, [EagerTensor(eager_value(np.asarray(a, s.dtype.np)), s.dtype)
                       for a, s in zip(flat, flat_specs(spec))])



def to_numpy_element(spec: Any, flat: list) -> Any:
    """An element as NumPy values (a NumPy scalar, or a str or bytes, for rank 0).

    Raises:
        TypeError: an element holds a dataset (a window), which has no NumPy value.
    """
    if any(isinstance(s, DatasetSpec) for s in nest.flatten(spec)):
        raise TypeError("Dataset.as_numpy_iterator() is not supported for datasets that "
                        "produce values of type %s" % DatasetSpec.__name__)
    if any(is_composite(s) for s in nest.flatten(spec)):
        return nest.map_structure(_numpy_of, to_eager(spec, flat))
    return pack(spec, [a[()] if type(a) is np.ndarray and not a.ndim else a for a in flat])


def _numpy_of(value: Any) -> Any:
    """As TensorFlow's ``as_numpy_iterator``: a SparseTensor gives its dense array, a
    RaggedTensor its ``numpy()`` (an object array of rows when ragged)."""
    if isinstance(value, SparseTensor):
        out = np.zeros(value.dense_shape.numpy(), value.dtype.np)
        idx = value.indices.numpy()
        if len(idx):
            out[tuple(idx.T)] = value.values.numpy()
        return out
    arr = value.numpy()
    return arr[()] if type(arr) is np.ndarray and not arr.ndim else arr


class SeedStream:
    """The seed pairs a random dataset keys its iterations with: its own pair, or (re-randomized
    each iteration) a new pair each time from a Philox stream keyed by it, TensorFlow's
    RandomSeedGenerator; ``position`` counts the pairs drawn.

    Args:
      seeds: the dataset's seed pair.
      rerandomize: whether each iteration draws a new pair.
    """

    def __init__(self, seeds: tuple, rerandomize: bool):
        self._seeds = seeds
        self._rerandomize = rerandomize
        self._lock = threading.Lock()
        self.position = 0
        self._words = PhiloxWords(*seeded_key_counter(*seeds))

    def draw(self) -> tuple:
        """The seed pair of the next iteration."""
        if not self._rerandomize:
            return self._seeds
        with self._lock:
            self.position += 1
            return (self._words.next(), self._words.next())

    def seek(self, position: int) -> None:
        """Puts the stream where it was after ``position`` pairs (a restored iterator)."""
        if not self._rerandomize:
            return
        with self._lock:
            self._words = PhiloxWords(*seeded_key_counter(*self._seeds))
            for _ in range(2 * position):
                self._words.next()
            self.position = position


__all__ = ["normalize", "flatten", "to_array", "spec_of", "flat_specs", "pack", "with_shapes",
           "most_specific_compatible", "same_structure", "spec_from_types", "to_eager",
           "to_numpy_element", "IterationContext", "SparseTensorSpec", "RaggedTensorSpec",
           "is_composite", "spec_of_value", "components_of", "group", "DatasetSpec",
           "WindowElements", "window_component", "SeedStream"]


class IterationContext:
    """The values of captured graph tensors for one iteration (id(tensor) -> array), and
    ``on_error``: None, or what to call with an op error a ``map``/``filter`` function raised
    for one element before that element is dropped (under ``Dataset.ignore_errors``)."""

    def __init__(self, bindings: dict | None = None):
        self.bindings = bindings or {}
        self.on_error: Any = None
        self.seeds_drawn: list = []       # the seed pairs the random datasets drew, in order
        self.seeds_to_replay: list = []   # (a restored iterator) seed pairs to draw again

    def draw_seeds(self, stream: SeedStream) -> tuple:
        """The seed pair a random dataset (shuffle, random) keys this iteration with: the next
        of its ``stream``, or the one a restored iterator replays (its stream put back where
        it was then); recorded either way, so a checkpoint of the iterator can replay it."""
        if self.seeds_to_replay:
            seeds, position = self.seeds_to_replay.pop(0)
            seeds = tuple(seeds)
            stream.seek(position)
        else:
            seeds = stream.draw()
        self.seeds_drawn.append((seeds, stream.position))
        return seeds


    def value(self, t: Any) -> np.ndarray:
        if isinstance(t, Tensor):
            try:
                return self.bindings[id(t)]
            except KeyError:
                raise errors.FailedPreconditionError(
                    None, None, "The dataset captures tensor %s, which has no value here: run "
                    "the iterator's initializer in a Session first." % t.name) from None
        return t
