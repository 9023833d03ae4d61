"""``keras.Sequential``: a plain stack of layers, each called on the previous one's output."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import Tensor
from flowgrad.runtime.function import FuncGraph
from flowgrad.legacy_keras.layers.base import KerasTensor, Layer, _keras_scope
from flowgrad.legacy_keras.layers.core import InputLayer
from flowgrad.ops import array_ops
from flowgrad.legacy_keras.models.model import Model
from flowgrad.framework.type_hints import TensorLike


class Sequential(Model):
    """Layers applied in order. Given an ``Input`` (or ``input_shape=`` on its first layer)
    it builds at once; otherwise on its first call.

    Args:
        layers: The layers to add, in order.
        trainable: Whether the model's weights are trainable.
        name: The model's name.
    """

    def __init__(self, layers: Any = None, trainable: bool = True, name: str | None = None):
        super().__init__(trainable=trainable, name=name)
        self._output_shapes_cache: dict = {}
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    def add(self, layer: Any, rebuild: bool = True) -> None:
        """Appends a layer (or an ``Input``) to the stack."""
        if isinstance(layer, KerasTensor) and layer._keras_history is not None and \
                isinstance(layer._keras_history[0].layer, InputLayer):
            layer = layer._keras_history[0].layer
        if isinstance(layer, Tensor) and layer.op.type == "Placeholder":
            return          # keras.Input in a TF1 graph: the model builds on its first call
        if not isinstance(layer, Layer):
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential "
                             "model. Received: %r (of type %s)" % (layer, type(layer)))
        if isinstance(layer, InputLayer):
            if self._layers and isinstance(self._layers[0], InputLayer):
                raise ValueError("Sequential model '%s' has already been configured to use "
                                 "input shape %s. You cannot add a different Input layer to it."
                                 % (self.name, self._layers[0].batch_shape))
            if self.layers:
                raise ValueError("An Input layer must be the first layer of Sequential model "
                                 "'%s'" % self.name)
        if any(x.name == layer.name for x in self._layers):
            raise ValueError("All layers added to a Sequential model should have unique names. "
                             "Name '%s' is already the name of a layer in this model. Update "
                             "the `name` argument to pass a unique name." % layer.name)
        self._layers.append(layer)
        self.built = False
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild: bool = True) -> Layer:
        """Removes and returns the last layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        layer = self._layers.pop()
        self.built = False
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self) -> None:
        if not self._layers or not executing_eagerly():
            return
        first = self._layers[0]
        if isinstance(first, InputLayer):
            self.build(first.batch_shape)
        elif first._input_shape_arg is not None:
            self.build((None,) + tuple(first._input_shape_arg))

    @property
    def layers(self) -> list:
        """The layers of the stack (without the Input layer)."""
        return [x for x in self._layers if not isinstance(x, InputLayer)]

    def build(self, input_shape: Any = None) -> None:
        """Runs the stack symbolically on inputs of ``input_shape`` (builds every layer)."""
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if not executing_eagerly() and not isinstance(get_default_graph(), FuncGraph):
            self.built = True       # TF1 graph: each layer builds on its first call
            return
        if not self._layers or not isinstance(self._layers[0], InputLayer):
            self._layers.insert(0, InputLayer(batch_shape=(None,) + tuple(input_shape)[1:]))
        x = self._layers[0]._input_tensor
        self._output_shapes_cache = {}
        with _keras_scope(self):
            for layer in self.layers:
                x = layer(x)
                self._output_shapes_cache[id(layer)] = x.shape if isinstance(x, KerasTensor) \
                    else [t.shape for t in x]
        self.built = True

    def call(self, inputs: Any, training: Any = None, mask: TensorLike | None = None) -> Any:
        if self._layers and isinstance(self._layers[0], InputLayer) and hasattr(inputs, "shape"):
            inputs = self._adjust_input_rank(inputs, self._layers[0])
        for layer in self.layers:
            inputs = layer(inputs)
        return inputs

    @staticmethod
    def _adjust_input_rank(x: Any, input_layer: Any) -> Any:
        """Keras's rank check of a model's input: a trailing axis of size 1 is squeezed or
        added to match the Input; any other rank is a ValueError."""
        ref = tuple(input_layer.batch_shape)
        shape = getattr(x.shape, "as_list", lambda: list(x.shape))() \
            if getattr(x.shape, "rank", 0) is not None else None
        if shape is None or len(shape) == len(ref):
            return x
        if len(shape) == len(ref) + 1 and shape[-1] == 1:
            return array_ops.squeeze(x, -1)
        if len(shape) == len(ref) - 1 and ref[-1] == 1:
            return array_ops.expand_dims(x, -1)
        raise ValueError("Invalid input shape for input with name '%s'. Expected shape %s, but "
                         "input has incompatible shape %s" % (input_layer.name, ref,
                                                              tuple(shape)))

    @property
    def input_shape(self) -> Any:
        if self._layers and isinstance(self._layers[0], InputLayer):
            return self._layers[0].batch_shape
        raise AttributeError("Sequential model '%s' has no defined input shape yet."
                             % self.name)

    @property
    def output_shape(self) -> Any:
        if not self.built or not self.layers:
            raise AttributeError("Sequential model '%s' has no defined output shape yet."
                                 % self.name)
        return self._output_shapes_cache.get(id(self.layers[-1]))

    def _output_shapes(self) -> dict:
        return dict(self._output_shapes_cache)


__all__ = ["Sequential"]
