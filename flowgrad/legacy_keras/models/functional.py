"""Functional models: ``keras.Model(inputs, outputs)`` over the layer calls recorded on
KerasTensors, run again on real tensors in topological order."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.legacy_keras.layers.base import InputSpec, KerasTensor, Layer, Node
from flowgrad.legacy_keras.layers.core import InputLayer
from flowgrad.legacy_keras.models.model import Model, is_functional_call


def _producer(t: KerasTensor) -> Node:
    if t._keras_history is None:
        raise ValueError("Tensor %r was not produced by a Keras layer (use keras.Input and "
                         "call layers on it)." % (t,))
    return t._keras_history[0]


class Functional(Model):
    """A model whose computation is a graph of layer calls from ``inputs`` to ``outputs``.

    Made by ``Model(inputs, outputs)``: calling it runs the recorded layer calls, in
    topological order, on new inputs.

    Args:
        inputs: The model's input tensor(s), made by ``keras.Input``: one, or a list/dict
            of them (the model is then called with the same structure).
        outputs: The output tensor(s), results of layer calls on ``inputs``: one, or a
            list/dict of them (the model returns the same structure).
        name: The model's name; by default ``functional`` made unique.
        trainable: Whether the model's weights are updated in training.
        **kwargs: The base ``Layer``'s other arguments (``dtype``, ...).

    Raises:
        ValueError: If an input or output is not a Keras tensor, an input was not made by
            ``keras.Input``, an output cannot be reached from the inputs (graph
            disconnected), or the layer graph has a cycle.
    """

    def __init__(self, inputs: Any, outputs: Any, name: str | None = None,
                 trainable: bool = True, **kwargs: Any):
        Model.__init__(self, name=name, trainable=trainable, **kwargs)
        flat_in = nest.flatten(inputs)
        flat_out = nest.flatten(outputs)
        for t in flat_in + flat_out:
            if not isinstance(t, KerasTensor):
                raise ValueError("All `inputs` and `outputs` values of a functional Model must "
                                 "be KerasTensors (from keras.Input and layer calls). Received: "
                                 "%r" % (t,))
        for t in flat_in:
            if not isinstance(_producer(t).layer, InputLayer):
                raise ValueError("Model inputs must come from `keras.Input` (thus holding past "
                                 "layer metadata). They cannot be the output of a previous "
                                 "non-Input layer. Received: %r" % (t,))
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self._inputs_flat = flat_in
        self._nodes = self._topological_nodes(flat_in, flat_out)
        layers: list = []
        for t in flat_in:
            layers.append(_producer(t).layer)
        for node in self._nodes:
            if all(node.layer is not x for x in layers):
                layers.append(node.layer)
        self._layers = layers
        self.input_spec = [InputSpec(shape=(None,) + tuple(t.shape[1:]), name=t.name)
                           for t in flat_in]
        if len(self.input_spec) == 1:
            self.input_spec = self.input_spec[0]
        self.built = True

    @staticmethod
    def _topological_nodes(flat_in: list, flat_out: list) -> list:
        inputs = {id(t) for t in flat_in}
        order: list = []
        state: dict = {}

        def visit(t: KerasTensor) -> None:
            if id(t) in inputs:
                return
            node = _producer(t)
            if isinstance(node.layer, InputLayer):
                raise ValueError("Graph disconnected: cannot find parent for tensor %r. The "
                                 "following previous layers were accessed without issue: %s"
                                 % (t, [n.layer.name for n in order]))
            if state.get(id(node)) == "done":
                return
            if state.get(id(node)) == "open":
                raise ValueError("The functional graph has a cycle at layer %s"
                                 % node.layer.name)
            state[id(node)] = "open"
            for x in node.input_tensors:
                visit(x)
            state[id(node)] = "done"
            order.append(node)
        for t in flat_out:
            visit(t)
        return order

    @property
    def inputs(self) -> list:
        return list(self._inputs_flat)

    @property
    def outputs(self) -> list:
        return nest.flatten(self._outputs_struct)

    @property
    def input_shape(self) -> Any:
        shapes = [t.shape for t in self._inputs_flat]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self) -> Any:
        shapes = [t.shape for t in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def call(self, inputs: Any, training: Any = None) -> Any:
        flat = nest.flatten(inputs) if nest.is_nested(self._inputs_struct) or \
            isinstance(inputs, (list, tuple)) else [inputs]
        if isinstance(inputs, dict) and not isinstance(self._inputs_struct, dict):
            flat = [inputs[t.name] for t in self._inputs_flat]
        if len(flat) != len(self._inputs_flat):
            raise ValueError('Layer "%s" expects %d input(s), but it received %d input tensors.'
                             % (self.name, len(self._inputs_flat), len(flat)))
        values = {id(t): v for t, v in zip(self._inputs_flat, flat)}

        def value_of(x: Any) -> Any:
            return values[id(x)] if isinstance(x, KerasTensor) else x
        for node in self._nodes:
            args, kwargs = nest.map_structure(value_of, (node.args, node.kwargs))
            out = node.layer(*args, **kwargs)
            for t, v in zip(nest.flatten(node.outputs), nest.flatten(out)):
                values[id(t)] = v
        return nest.map_structure(value_of, self._outputs_struct)

    def _output_shapes(self) -> dict:
        shapes = {id(_producer(t).layer): t.shape for t in self._inputs_flat}
        shapes.update({id(n.layer): nest.map_structure(lambda t: t.shape, n.outputs)
                       for n in self._nodes})
        return shapes


Model._functional_class = Functional      # Model(inputs, outputs) builds a Functional

__all__ = ["Functional", "is_functional_call", "Layer"]
