"""The TF1 ``tf.layers.Layer``: variables through ``variable_scope``/``get_variable``.

A layer opens its variable scope once (``name`` if given, else a unique
``default_name`` such as ``dense``, ``dense_1``, ...), creates its variables on
the first call and reuses them on later calls, as TensorFlow 1's layers do."""
from __future__ import annotations

import re
from typing import Any

from flowgrad import nest
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, add_to_collection, name_scope
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import array_ops
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.variable_scope import VariableScope, get_variable, variable_scope
from collections.abc import Callable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


def _snake_case(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def _value_of(x: Any) -> Any:
    return x._as_tensor() if hasattr(x, "_as_tensor") else x


class Layer:
    """Base class of the TF1 layers: scope handling, ``add_weight``, ``add_update``.

    Args:
        trainable: Whether the layer's variables join ``TRAINABLE_VARIABLES``.
        name: The layer's name (its variable scope).
        dtype: The dtype of the layer's variables and computation; float32 when None.
        _scope: The variable scope to build in (TF1's internal argument).
        _reuse: Whether to reuse the variables of ``_scope`` (TF1's internal argument).
        **kwargs: Accepted and ignored, as TF1's base layer does for Keras's arguments.
    """

    def __init__(self, trainable: bool = True, name: str | None = None,
                 dtype: DTypeLike | None = None, _scope: Any = None, _reuse: Any = None,
                 **kwargs: Any):
        unknown = set(kwargs) - {"activity_regularizer", "input_shape", "_keras_style"}
        if unknown:
            raise TypeError("Keyword argument not understood: %s" % sorted(unknown)[0])
        self.trainable = trainable
        self.activity_regularizer = kwargs.get("activity_regularizer")
        self.built = False
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype).base_dtype
        self._reuse = _reuse
        self._base_name = name if isinstance(name, str) and name else \
            _snake_case(type(self).__name__)
        self._name = name if isinstance(name, str) else None
        self._scope: VariableScope | None = None
        self._trainable_weights: list = []
        self._non_trainable_weights: list = []
        self._updates: list = []
        self._losses: list = []
        if _scope:
            with variable_scope(_scope) as captured:
                self._scope = captured

    # -- properties -------------------------------------------------------------------
    @property
    def name(self) -> str:
        if self._name is None and self._scope is not None:
            return self._scope.name.split("/")[-1]
        return self._name or self._base_name

    @property
    def dtype(self) -> Any:
        return self._dtype

    @property
    def scope_name(self) -> str:
        if self._scope is None:
            raise ValueError("No name available for layer scope because the layer \"%s\" has "
                             "not been used yet." % self.name)
        return self._scope.name

    @property
    def trainable_weights(self) -> list:
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        if self.trainable:
            return list(self._non_trainable_weights)
        return self._trainable_weights + self._non_trainable_weights

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def updates(self) -> list:
        return list(self._updates)

    @property
    def losses(self) -> list:
        return list(self._losses)

    # -- building blocks for subclasses -----------------------------------------------
    def build(self, input_shape: TensorShape) -> None:
        """Creates the layer's variables (subclasses override)."""
        self.built = True

    def call(self, inputs: Any, **kwargs: Any) -> Any:
        """The layer's computation (subclasses override)."""
        return inputs

    def add_weight(self, name: str, shape: ShapeLike, dtype: DTypeLike | None = None,
                   initializer: Any = None, regularizer: Callable | None = None,
                   trainable: bool | None = None, constraint: Callable | None = None,
                   **kwargs: Any) -> Any:
        """A variable ``<layer scope>/name`` made with ``get_variable``."""
        trainable = True if trainable is None else trainable
        var = get_variable(name, shape=shape, dtype=dtype or self._dtype or dtypes.float32,
                           initializer=initializer, regularizer=regularizer,
                           trainable=trainable and self.trainable, constraint=constraint)
        if not any(var is w for w in self._trainable_weights + self._non_trainable_weights):
            (self._trainable_weights if trainable else self._non_trainable_weights).append(var)
        return var

    add_variable = add_weight

    def add_update(self, updates: TensorLike, inputs: Any = None) -> None:
        """Records update ops; in graph mode they join the UPDATE_OPS collection as
        Operations (a tensor's op), as TensorFlow's legacy layers add them."""
        updates = list(updates) if isinstance(updates, (list, tuple)) else [updates]
        if not executing_eagerly():
            updates = [u.op if isinstance(u, Tensor) else u for u in updates]
        self._updates.extend(updates)
        if not executing_eagerly():
            for u in updates:
                add_to_collection(GraphKeys.UPDATE_OPS, u)

    def add_loss(self, losses: Any, inputs: Any = None) -> None:
        """Records losses; in graph mode they join the REGULARIZATION_LOSSES collection."""
        losses = list(losses) if isinstance(losses, (list, tuple)) else [losses]
        self._losses.extend(losses)
        if not executing_eagerly():
            for loss in losses:
                add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)

    def _check_input(self, inputs: Any) -> None:
        """Raises ValueError when ``inputs`` do not fit this layer (subclasses override)."""

    # -- calling -----------------------------------------------------------------------
    def _set_scope(self, scope: Any) -> None:
        if self._scope is not None:
            return
        if self._reuse:
            with variable_scope(scope if scope is not None else self._base_name) as captured:
                self._scope = captured
        else:
            with variable_scope(scope, default_name=self._base_name) as captured:
                self._scope = captured

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """Builds the layer on its first call (creating variables), then applies it."""
        self._set_scope(kwargs.pop("scope", None))
        reuse = True if self.built else self._reuse
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as vs:
            with name_scope(vs.original_name_scope or None):
                inputs = convert_to_tensor(_value_of(inputs))
                self._check_input(inputs)
                if not self.built:
                    if self._dtype is None and inputs.dtype.base_dtype.is_floating:
                        self._dtype = inputs.dtype.base_dtype
                    self.build(inputs.shape)
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
                self._add_activity_losses(outputs)
                return outputs

    def _add_activity_losses(self, outputs: Any) -> None:
        """Adds ``activity_regularizer(output) / batch size`` of each output to the losses."""
        if self.activity_regularizer is None:
            return
        with name_scope("ActivityRegularizer"):
            for output in nest.flatten(outputs):
                loss = convert_to_tensor(self.activity_regularizer(output))
                batch_size = cast(array_ops.shape(output)[0], loss.dtype)
                self.add_loss(loss / batch_size, inputs=outputs)

    apply = __call__


__all__ = ["Layer"]
