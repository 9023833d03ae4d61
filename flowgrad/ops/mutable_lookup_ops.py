"""``tf.lookup.experimental.MutableHashTable`` and ``DenseHashTable``: tables that ops fill
and read at run time (TensorFlow's ``LookupTableInsertV2``, ``LookupTableFindV2``,
``LookupTableRemoveV2``, ``LookupTableExportV2`` and ``LookupTableSizeV2``), as Keras's
``StringLookup`` / ``IntegerLookup`` / ``TextVectorization`` count tokens in ``adapt``.

The table's state is a Python dict the ops' kernels share. In a ``tf.function`` each op of
a table runs after the table's previous op there (TensorFlow's automatic control
dependencies on the table's resource), and an ``insert`` or ``remove`` runs on every call
whether or not an output depends on it; a TF1 graph runs what the session asks for. Keys may
have any shape (each element is a key); a value has the shape of ``default_value``, and a
lookup returns ``keys.shape + value_shape``. ``export`` lists the entries in insertion order
(TensorFlow's order is its hash map's; a DenseHashTable's export here is its entries, not
its buckets)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly, get_default_graph
from flowgrad.framework.graph import control_dependencies, name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.framework.trackable import Trackable
from flowgrad.ops.manip_ops import get_static_value
from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework.type_hints import DTypeLike

def _key_list(keys: np.ndarray) -> list:
    """The elements of a key array as hashable Python values (bytes, int, float)."""
    return np.asarray(keys).reshape(-1).tolist()


class _Storage:
    """A table's entries: key -> value array (of the table's value shape)."""

    def __init__(self, value_dtype: dtypes.DType, value_shape: TensorShape) -> None:
        self.entries: dict = {}
        self.value_np = object if value_dtype == dtypes.string else value_dtype.as_numpy_dtype
        self.value_shape = tuple(value_shape.as_list())
        self.forbidden: dict = {}          # key -> message (a DenseHashTable's special keys)

    def find(self, keys: np.ndarray, default: np.ndarray) -> np.ndarray:
        keys = np.asarray(keys)
        default = np.asarray(default, self.value_np)
        n = keys.size
        out = np.empty((n,) + self.value_shape, self.value_np)
        per_key = default.shape == keys.shape + self.value_shape and n > 0 and \
            default.shape != self.value_shape
        flat_default = default.reshape((n,) + self.value_shape) if per_key else default
        get = self.entries.get
        for i, k in enumerate(_key_list(keys)):
            v = get(k)
            out[i] = (flat_default[i] if per_key else flat_default) if v is None else v
        return out.reshape(keys.shape + self.value_shape)

    def insert(self, keys: np.ndarray, values: np.ndarray) -> None:
        keys, values = np.asarray(keys), np.asarray(values, self.value_np)
        want = keys.shape + self.value_shape
        if values.shape != want:
            raise errors.InvalidArgumentError(
                None, None, "Expected shape %s for value, got %s"
                % (list(want), list(values.shape)))
        rows = values.reshape((keys.size,) + self.value_shape)
        for k, v in zip(_key_list(keys), rows):
            if k in self.forbidden:
                raise errors.InvalidArgumentError(None, None, self.forbidden[k])
            self.entries[k] = v.copy()

    def remove(self, keys: np.ndarray) -> None:
        for k in _key_list(keys):
            if k in self.forbidden:
                raise errors.InvalidArgumentError(None, None, self.forbidden[k])
            self.entries.pop(k, None)


def _find_kernel(keys: Any, default: Any, *, table: Any, Tout: Any = None) -> np.ndarray:
    return table._storage.find(keys, default)


def _find_infer(ins: list, attrs: dict) -> tuple:
    table = attrs["table"]
    keys = ins[0].shape
    shape = keys.concatenate(table._value_shape) if keys.rank is not None else TensorShape(None)
    return table.value_dtype, shape


def _insert_kernel(keys: Any, values: Any, *, table: Any) -> None:
    table._storage.insert(keys, values)


def _remove_kernel(keys: Any, *, table: Any) -> None:
    table._storage.remove(keys)


def _size_kernel(*, table: Any) -> np.ndarray:
    return np.int64(len(table._storage.entries))


def _export_kernel(*, table: Any) -> tuple:
    s = table._storage
    key_np = object if table.key_dtype == dtypes.string else table.key_dtype.as_numpy_dtype
    keys = np.array(list(s.entries), key_np).reshape(-1)
    values = np.array(list(s.entries.values()), s.value_np).reshape(
        (len(s.entries),) + s.value_shape)
    return keys, values


def _export_infer(ins: list, attrs: dict) -> list:
    table = attrs["table"]
    return [(table.key_dtype, TensorShape([None])),
            (table.value_dtype, TensorShape([None]).concatenate(table._value_shape))]


_STATEFUL = dict(stateful=True, foldable=False)
register_op("LookupTableFindV2", _find_kernel, _find_infer, input_names=("keys",
            "default_value"), **_STATEFUL)
register_op("LookupTableInsertV2", _insert_kernel, lambda ins, attrs: [], num_outputs=0,
            input_names=("keys", "values"), **_STATEFUL)
register_op("LookupTableRemoveV2", _remove_kernel, lambda ins, attrs: [], num_outputs=0,
            input_names=("keys",), **_STATEFUL)
register_op("LookupTableSizeV2", _size_kernel,
            lambda ins, attrs: (dtypes.int64, TensorShape([])), **_STATEFUL)
register_op("LookupTableExportV2", _export_kernel, _export_infer, num_outputs=2, **_STATEFUL)
for _t in ("LookupTableFindV2", "LookupTableInsertV2", "LookupTableRemoveV2",
           "LookupTableSizeV2", "LookupTableExportV2"):
    NotDifferentiable(_t)


class MutableHashTable(Trackable):
    """A table from keys to values that ``insert`` and ``remove`` change.

    Args:
      key_dtype: the keys' dtype.
      value_dtype: the values' dtype.
      default_value: the value of a missing key; its shape is every value's shape.
      name: the table's name.
      checkpoint: accepted, as in TensorFlow.
      experimental_is_anonymous: accepted, as in TensorFlow.
    """

    def __init__(self, key_dtype: DTypeLike, value_dtype: DTypeLike, default_value: TensorLike,
                 name: str = "MutableHashTable", checkpoint: bool = True,
                 experimental_is_anonymous: bool = False) -> None:
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, self._value_dtype,
                                                name="default_value")
        self._value_shape = as_shape(self._default_value.shape)
        self._name = name
        self._storage = _Storage(self._value_dtype, self._value_shape)
        self._last_op: tuple = (None, None)        # (graph, the table's last op there)

    def _apply(self, op_type: str, inputs: list, writes: bool = False) -> Any:
        """Runs (eagerly) or adds one of the table's ops, ordered after its previous op in
        the same graph."""
        if executing_eagerly():
            return apply_op(op_type, inputs, {"table": self})
        graph = get_default_graph()
        if not graph.building_function:           # a TF1 graph: no automatic ordering
            return apply_op(op_type, inputs, {"table": self})
        last = self._last_op[1] if self._last_op[0] is graph else None
        with control_dependencies([last] if last is not None else []):
            out = apply_op(op_type, inputs, {"table": self})
        op = out[0].op if isinstance(out, list) else getattr(out, "op", out)
        self._last_op = (graph, op)
        if writes:
            graph.add_to_collection(SIDE_EFFECTS, op)
        return out

    @property
    def key_dtype(self) -> dtypes.DType:
        """The keys' dtype."""
        return self._key_dtype

    @property
    def value_dtype(self) -> dtypes.DType:
        """The values' dtype."""
        return self._value_dtype

    @property
    def name(self) -> str:
        """The table's name."""
        return self._name

    def _keys(self, keys: Any) -> Any:
        return convert_to_tensor(keys, self._key_dtype, name="keys")

    def size(self, name: str | None = None) -> Any:
        """The number of entries (an int64 scalar).

        Args:
          name: the op's name.

        Returns:
          The size.
        """
        with name_scope(name, "%s_Size" % self._name):
            return self._apply("LookupTableSizeV2", [])

    def lookup(self, keys: Any, dynamic_default_values: Any = None,
               name: str | None = None) -> Any:
        """The value of each key (the default value where a key is missing).

        Args:
          keys: keys of the table's key dtype, any shape.
          dynamic_default_values: defaults of shape ``keys.shape + value_shape`` to use
            instead of the table's default value.
          name: the op's name.

        Returns:
          Values of shape ``keys.shape + value_shape``.

        Raises:
          ValueError: the keys have another dtype.
        """
        with name_scope(name, "%s_lookup_table_find" % self._name):
            keys = self._keys(keys)
            default = self._default_value if dynamic_default_values is None else \
                convert_to_tensor(dynamic_default_values, self._value_dtype)
            return self._apply("LookupTableFindV2", [keys, default])

    __getitem__ = lookup

    def insert(self, keys: Any, values: TensorLike, name: str | None = None) -> Any:
        """Sets the value of each key.

        Args:
          keys: keys of the table's key dtype.
          values: values of shape ``keys.shape + value_shape``.
          name: the op's name.

        Returns:
          The op (None eagerly).

        Raises:
          ValueError: the keys or values have another dtype.
          InvalidArgumentError: the values have another shape.
        """
        with name_scope(name, "%s_lookup_table_insert" % self._name):
            keys = self._keys(keys)
            values = convert_to_tensor(values, self._value_dtype, name="values")
            return self._apply("LookupTableInsertV2", [keys, values], writes=True)

    def remove(self, keys: Any, name: str | None = None) -> Any:
        """Removes the keys (missing keys are ignored).

        Args:
          keys: keys of the table's key dtype.
          name: the op's name.

        Returns:
          The op (None eagerly).

        Raises:
          TypeError: the keys have another dtype.
        """
        keys = convert_to_tensor(keys)
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError("Signature mismatch. Keys must be dtype %s, got %s."
                            % (self._key_dtype, keys.dtype))
        with name_scope(name, "%s_lookup_table_remove" % self._name):
            return self._apply("LookupTableRemoveV2", [keys], writes=True)

    def export(self, name: str | None = None) -> tuple:
        """Every entry: (keys, values).

        Args:
          name: the op's name.

        Returns:
          The keys (1-D) and their values.
        """
        with name_scope(name, "%s_lookup_table_export_values" % self._name):
            keys, values = self._apply("LookupTableExportV2", [])
            return keys, values


class DenseHashTable(MutableHashTable):
    """A mutable table with open addressing in TensorFlow: ``empty_key`` and
    ``deleted_key`` mark free buckets there and may not be used as keys.

    Args:
      key_dtype: the keys' dtype.
      value_dtype: the values' dtype.
      default_value: the value of a missing key.
      empty_key: a key that is never inserted.
      deleted_key: another key that is never inserted.
      initial_num_buckets: accepted, as in TensorFlow.
      name: the table's name.
      checkpoint: accepted, as in TensorFlow.
      experimental_is_anonymous: accepted, as in TensorFlow.

    Raises:
      InvalidArgumentError: ``empty_key`` equals ``deleted_key``.
    """

    def __init__(self, key_dtype: DTypeLike, value_dtype: DTypeLike, default_value: TensorLike,
                 empty_key: Any, deleted_key: Any, initial_num_buckets: int | None = None,
                 name: str = "MutableDenseHashTable", checkpoint: bool = True,
                 experimental_is_anonymous: bool = False) -> None:
        super().__init__(key_dtype, value_dtype, default_value, name=name)
        empty = _key_list(get_static_value(convert_to_tensor(empty_key, self._key_dtype)))
        deleted = _key_list(get_static_value(convert_to_tensor(deleted_key, self._key_dtype)))
        if empty == deleted:
            raise errors.InvalidArgumentError(None, None,
                                              "empty_key and deleted_key cannot be equal")
        for k in empty:
            self._storage.forbidden[k] = "Using the empty_key as a table key is not allowed"
        for k in deleted:
            self._storage.forbidden[k] = "Using the deleted_key as a table key is not allowed"


__all__ = ["DenseHashTable", "MutableHashTable"]
