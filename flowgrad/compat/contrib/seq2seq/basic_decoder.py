"""TF 1.15's ``tf.contrib.seq2seq.BasicDecoder``: at each step the cell runs on the helper's
inputs, the optional ``output_layer`` maps its output (to logits, typically), and the helper
picks the sample ids and the next inputs; the outputs are ``BasicDecoderOutput(rnn_output,
sample_id)``."""
from __future__ import annotations

import collections
from typing import Any

from flowgrad import nest
from flowgrad.compat import v1 as _tf
from flowgrad.compat.contrib.seq2seq.decoder import Decoder
from flowgrad.compat.contrib.seq2seq.helper import Helper
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.rnn.cells import assert_like_rnncell

__all__ = ["BasicDecoderOutput", "BasicDecoder"]


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
    """A step's (or the stacked) outputs of a ``BasicDecoder``.

    Args:
      rnn_output: The cell's output, through the output layer.
      sample_id: The helper's sample ids.
    """

    __slots__ = ()


def _output_layer_size(output_layer: Any, size: Any) -> Any:
    """The per-entry output size of ``output_layer`` applied to outputs of ``size``."""
    shape = nest.map_structure(lambda s: TensorShape([None]).concatenate(
        TensorShape([s]) if isinstance(s, int) else TensorShape(s)), size)
    out = output_layer.compute_output_shape(shape)
    return nest.map_structure(lambda s: TensorShape(s)[1:], out)


def _check_output_layer(output_layer: Any) -> None:
    if output_layer is not None and not callable(output_layer):
        raise TypeError("output_layer must be a Layer, received: %s" % type(output_layer))


class BasicDecoder(Decoder):
    """A decoder that runs a cell, an optional output layer and a sampling helper.

    Args:
      cell: An RNN cell.
      helper: A ``Helper``.
      initial_state: The cell's starting state (a tensor or a structure of them).
      output_layer: A layer (``tf.layers.Dense``, typically) applied to the cell's output
        before sampling.

    Raises:
      TypeError: ``cell`` is not an RNN cell, ``helper`` not a ``Helper`` or
        ``output_layer`` not a layer.
    """

    def __init__(self, cell: Any, helper: Helper, initial_state: Any,
                 output_layer: Any = None):
        assert_like_rnncell("cell", cell)
        if not isinstance(helper, Helper):
            raise TypeError("helper must be a Helper, received: %s" % type(helper))
        _check_output_layer(output_layer)
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self) -> Any:
        return self._helper.batch_size

    def _rnn_output_size(self) -> Any:
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        return _output_layer_size(self._output_layer, size)

    @property
    def output_size(self) -> BasicDecoderOutput:
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self) -> BasicDecoderOutput:
        dtype = nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                  self._helper.sample_ids_dtype)

    def initialize(self, name: str | None = None) -> tuple:
        """Returns ``(finished, first_inputs, initial_state)``."""
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple:
        """One step: ``(BasicDecoderOutput, next_state, next_inputs, finished)``."""
        with _tf.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        outputs = BasicDecoderOutput(cell_outputs, sample_ids)
        return outputs, next_state, next_inputs, finished
