"""Keras 2's ``tf.keras`` names that Keras 3 (``tf.keras`` of TensorFlow 2.16+) dropped and
that programs written for TensorFlow 2.0-2.15 still use, added to the real Keras 3's
``tf.keras`` modules (``keras._tf_keras.keras``) when flowgrad serves them:

- ``tf.keras.losses.mean_squared_error`` and the other long loss function names Keras 2
  exported (``mean_absolute_error``, ``mean_absolute_percentage_error``,
  ``mean_squared_logarithmic_error``, ``kl_divergence``, ``log_cosh``), in ``tf.keras.losses``
  and ``tf.keras.metrics``: Keras 3's functions of those names (the short aliases ``mse``,
  ``mae``, ... are the same functions in both versions);
- ``tf.keras.layers.experimental.preprocessing.*`` (Keras 2.3-2.5's home of the preprocessing
  layers, kept as aliases through Keras 2.15) and ``tf.keras.layers.experimental.EinsumDense``:
  Keras 3's layers of those names;
- ``tf.keras.layers.DenseFeatures``: feature columns as a Keras 3 layer;
- ``tf.keras.utils.generic_utils`` with ``has_arg``, ``to_list``, ``Progbar``, ...

Each name is listed in :data:`KERAS2_NAMES` (the golden name tests allow exactly these beyond
Keras 3's own, tests/test_keras2_names.py), and behaves as tests/data/keras2_names/ recorded
from Keras 2 (``tf_keras`` 2.21, TensorFlow's legacy Keras).
"""
from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

#: The loss functions Keras 2 exported under their long names in ``tf.keras.losses`` and
#: ``tf.keras.metrics``, which Keras 3's ``tf.keras`` exports only as ``mse``, ``mae``, ...
LOSS_FUNCTIONS = ("kl_divergence", "log_cosh", "mean_absolute_error",
                  "mean_absolute_percentage_error", "mean_squared_error",
                  "mean_squared_logarithmic_error")

#: Keras 2's ``tf.keras.layers.experimental.preprocessing`` layers Keras 3 has (as
#: ``tf.keras.layers.<name>``).
PREPROCESSING = ("CategoryEncoding", "CenterCrop", "Discretization", "HashedCrossing", "Hashing",
                 "IntegerLookup", "Normalization", "RandomContrast", "RandomCrop", "RandomFlip",
                 "RandomHeight", "RandomRotation", "RandomTranslation", "RandomWidth",
                 "RandomZoom", "Rescaling", "Resizing", "StringLookup", "TextVectorization")

#: ``tf.keras.utils.generic_utils`` as Keras 2 had it (the names programs import from it).
GENERIC_UTILS = ("Progbar", "func_dump", "func_load", "has_arg", "to_list", "to_snake_case")

#: namespace of ``tf.keras`` -> the Keras 2 names flowgrad adds there (TF 2.16+ removed them).
KERAS2_NAMES: dict[str, tuple[str, ...]] = {
    "losses": LOSS_FUNCTIONS,
    "metrics": LOSS_FUNCTIONS,
    "layers": ("DenseFeatures", "experimental"),
    "layers.experimental": ("EinsumDense", "preprocessing"),
    "layers.experimental.preprocessing": PREPROCESSING,
    "utils": ("generic_utils",),
    "utils.generic_utils": GENERIC_UTILS,
}


def has_arg(fn: Callable, name: str, accept_all: bool = False) -> bool:
    """Whether ``fn`` accepts a keyword argument ``name`` (Keras 2's
    ``generic_utils.has_arg``).

    Args:
      fn: the callable to inspect.
      name: the keyword argument's name.
      accept_all: what to answer when ``fn`` has no parameter ``name`` but takes
        ``**kwargs``.

    Returns:
      True when ``fn`` can be called with ``name=...``.
    """
    spec = inspect.getfullargspec(fn)
    if accept_all and spec.varkw is not None:
        return True
    return name in spec.args or name in spec.kwonlyargs


def _dense_features_class(keras: types.ModuleType) -> type:
    """Keras 2's ``tf.keras.layers.DenseFeatures`` as a Keras 3 layer (made once Keras is
    loaded: the class derives from Keras 3's Layer)."""
    from flowgrad import feature_column_lib as fc
    from flowgrad.ops.array_ops import concat

    class DenseFeatures(keras.layers.Layer):
        """A layer giving the dense tensor of ``feature_columns`` from a dict of features:
        each column's ``[batch, width]`` tensor, in the order of the columns' names,
        concatenated (``tf.compat.v1.feature_column.input_layer`` as a layer). Embedding
        columns' tables are the layer's weights.

        Args:
          feature_columns: dense columns (numeric, bucketized, indicator, embedding).
          trainable: whether the embedding tables are trained.
          name: the layer's name.
          partitioner: accepted, as Keras 2 (flowgrad does not partition).
          **kwargs: Keras's Layer arguments.

        Raises:
          ValueError: no columns, or a column that is not dense.
        """

        def __init__(self, feature_columns: Any, trainable: bool = True,
                     name: str | None = None, partitioner: Any = None, **kwargs: Any) -> None:
            super().__init__(trainable=trainable, name=name, **kwargs)
            columns = [feature_columns] if isinstance(feature_columns, fc.FeatureColumn) \
                else list(feature_columns)
            if not columns:
                raise ValueError("Expected feature_columns to be iterable, found list.")
            for column in columns:
                if not isinstance(column, fc.DenseColumn):
                    raise ValueError(
                        "Items of feature_columns must be a DenseColumn. You can wrap a "
                        "categorical column with an embedding_column or indicator_column. "
                        "Given: %s" % (column,))
            self._feature_columns = sorted(columns, key=lambda c: c.name)
            self._tables: dict = {}

        def build(self, input_shape: Any = None) -> None:
            """Makes the embedding columns' tables.

            Args:
              input_shape: the features' shapes (not needed).
            """
            for column in self._feature_columns:
                if isinstance(column, fc.EmbeddingColumn) and column.name not in self._tables:
                    cat = column.categorical_column
                    self._tables[column.name] = self.add_weight(
                        name=column.name + "_weights", shape=(cat.num_buckets, column.dimension),
                        initializer=column.initializer, trainable=column.trainable)
            self.built = True

        def call(self, features: dict, cols_to_output_tensors: dict | None = None,
                 training: Any = None) -> Any:
            """The columns' dense tensors of ``features``, concatenated.

            Args:
              features: the raw features by key (tensors or SparseTensors).
              cols_to_output_tensors: if a dict, filled with each column's tensor.
              training: accepted, as Keras 2.

            Returns:
              A float32 tensor ``[batch, sum of the columns' widths]``.

            Raises:
              ValueError: ``features`` is not a dict.
            """
            if not isinstance(features, dict):
                raise ValueError("We expected a dictionary here. Instead we got: %s"
                                 % (features,))
            outputs = []
            for column in self._feature_columns:
                state = {column.name: self._tables[column.name].value} \
                    if column.name in self._tables else {}
                out = column._dense(features, state)   # noqa: SLF001 - the columns' protocol
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = out
                outputs.append(out)
            return concat(outputs, axis=1)

        def compute_output_shape(self, input_shape: Any) -> tuple:
            width = sum(_column_width(c) for c in self._feature_columns)
            batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) \
                else None
            return (batch, width)

    return DenseFeatures


def _column_width(column: Any) -> int:
    """The width of a dense column's output (the product of its variable shape)."""
    width = 1
    for d in column.variable_shape:
        width *= int(d)
    return width


def _module(name: str, doc: str, names: dict) -> types.ModuleType:
    module = types.ModuleType(name, doc)
    module.__dict__.update(names)
    module.__all__ = sorted(names)
    return module


def install(tf_keras: types.ModuleType) -> None:
    """Adds the Keras 2 names to Keras 3's ``tf.keras`` (once; the names Keras 3 has stay).

    Args:
      tf_keras: ``keras._tf_keras.keras``, the module flowgrad serves as ``tf.keras``.
    """
    import keras
    from keras.src.utils import naming, python_utils

    for name in LOSS_FUNCTIONS:
        for namespace in (tf_keras.losses, tf_keras.metrics):
            if not hasattr(namespace, name):
                setattr(namespace, name, getattr(keras.losses, name))
    layers = tf_keras.layers
    if not hasattr(layers, "DenseFeatures"):
        layers.DenseFeatures = _dense_features_class(keras)
    if not hasattr(layers, "experimental"):
        preprocessing = _module(
            "flowgrad.keras.layers.experimental.preprocessing",
            "Keras 2's ``tf.keras.layers.experimental.preprocessing``: Keras 3's layers.",
            {name: getattr(layers, name) for name in PREPROCESSING})
        layers.experimental = _module(
            "flowgrad.keras.layers.experimental",
            "Keras 2's ``tf.keras.layers.experimental``.",
            {"EinsumDense": layers.EinsumDense, "preprocessing": preprocessing})
    utils = tf_keras.utils
    if not hasattr(utils, "generic_utils"):
        utils.generic_utils = _module(
            "flowgrad.keras.utils.generic_utils",
            "Keras 2's ``tf.keras.utils.generic_utils``.",
            {"Progbar": utils.Progbar, "func_dump": python_utils.func_dump,
             "func_load": python_utils.func_load, "has_arg": has_arg,
             "to_list": python_utils.to_list, "to_snake_case": naming.to_snake_case})
