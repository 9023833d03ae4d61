"""TensorFlow 1.15's ``tf.contrib.rnn``: the RNN cells of ``tf.nn.rnn_cell`` (the same
classes: ``BasicLSTMCell``, ``LSTMCell``, ``GRUCell``, ``MultiRNNCell``, ``DropoutWrapper``,
...), ``static_rnn``, ``static_bidirectional_rnn``, and the stacked bidirectional RNNs."""
from __future__ import annotations

from collections.abc import Sequence

from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.ops import array_ops
from flowgrad.ops.variable_scope import VariableScope, variable_scope
from flowgrad.rnn.cells import (BasicLSTMCell, BasicRNNCell, DeviceWrapper, DropoutWrapper,
                                GRUCell, LSTMCell, LSTMStateTuple, MultiRNNCell,
                                ResidualWrapper, RNNCell)
from flowgrad.rnn.rnn import bidirectional_dynamic_rnn, static_bidirectional_rnn, static_rnn
from flowgrad.compat.contrib.rnn_wrappers import (EmbeddingWrapper, InputProjectionWrapper,
                                                  OutputProjectionWrapper)


def _check_stack(cells_fw: Sequence, cells_bw: Sequence, initial_states_fw: Sequence | None,
                 initial_states_bw: Sequence | None) -> None:
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    if initial_states_fw is not None and (not isinstance(initial_states_fw, list) or
                                          len(initial_states_fw) != len(cells_fw)):
        raise ValueError("initial_states_fw must be a list of state tensors (one per layer).")
    if initial_states_bw is not None and (not isinstance(initial_states_bw, list) or
                                          len(initial_states_bw) != len(cells_bw)):
        raise ValueError("initial_states_bw must be a list of state tensors (one per layer).")


def stack_bidirectional_dynamic_rnn(cells_fw: list, cells_bw: list, inputs: TensorLike,
                                    initial_states_fw: list | None = None,
                                    initial_states_bw: list | None = None,
                                    dtype: DTypeLike | None = None,
                                    sequence_length: TensorLike | None = None,
                                    parallel_iterations: int | None = None,
                                    time_major: bool = False,
                                    scope: str | VariableScope | None = None,
                                    swap_memory: bool = False) -> tuple:
    """Layers of ``bidirectional_dynamic_rnn``, each layer's input the previous layer's
    forward and backward outputs concatenated (scopes ``stack_bidirectional_rnn/cell_<i>``).

    Args:
      cells_fw: The forward cells, one per layer.
      cells_bw: The backward cells, one per layer.
      inputs: [batch, time, depth] (or [time, batch, depth] with ``time_major``).
      initial_states_fw: The forward cells' starting states (one per layer).
      initial_states_bw: The backward cells' starting states (one per layer).
      dtype: The dtype of the zero states.
      sequence_length: An int [batch] vector: each sequence's length.
      parallel_iterations: Accepted for TensorFlow's signature.
      time_major: Whether ``inputs`` are [time, batch, ...].
      scope: The variable scope (``stack_bidirectional_rnn`` when None).
      swap_memory: Accepted for TensorFlow's signature.

    Returns:
      ``(outputs, states_fw, states_bw)``: the last layer's concatenated outputs and tuples
      of the layers' final states.

    Raises:
      ValueError: no cells, lists of different lengths, or bad initial states.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    prev_layer = inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            init_fw = initial_states_fw[i] if initial_states_fw else None
            init_bw = initial_states_bw[i] if initial_states_bw else None
            with variable_scope("cell_%d" % i):
                outputs, (state_fw, state_bw) = bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, prev_layer, initial_state_fw=init_fw,
                    initial_state_bw=init_bw, sequence_length=sequence_length,
                    parallel_iterations=parallel_iterations, dtype=dtype,
                    swap_memory=swap_memory, time_major=time_major)
                prev_layer = array_ops.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_rnn(cells_fw: list, cells_bw: list, inputs: list,
                            initial_states_fw: list | None = None,
                            initial_states_bw: list | None = None,
                            dtype: DTypeLike | None = None,
                            sequence_length: TensorLike | None = None,
                            scope: str | VariableScope | None = None) -> tuple:
    """Layers of ``static_bidirectional_rnn`` over a list of time steps (scopes
    ``stack_bidirectional_rnn/cell_<i>``).

    Args:
      cells_fw: The forward cells, one per layer.
      cells_bw: The backward cells, one per layer.
      inputs: A list of [batch, depth] tensors, one per time step.
      initial_states_fw: The forward cells' starting states (one per layer).
      initial_states_bw: The backward cells' starting states (one per layer).
      dtype: The dtype of the zero states.
      sequence_length: An int [batch] vector: each sequence's length.
      scope: The variable scope (``stack_bidirectional_rnn`` when None).

    Returns:
      ``(outputs, states_fw, states_bw)``: the last layer's list of outputs and tuples of the
      layers' final states.

    Raises:
      ValueError: no cells, lists of different lengths, bad initial states, or no inputs.
    """
    if not inputs:
        raise ValueError("inputs must not be empty")
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    prev_layer = inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            init_fw = initial_states_fw[i] if initial_states_fw else None
            init_bw = initial_states_bw[i] if initial_states_bw else None
            with variable_scope("cell_%d" % i) as cell_scope:
                prev_layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, prev_layer, initial_state_fw=init_fw,
                    initial_state_bw=init_bw, sequence_length=sequence_length, dtype=dtype,
                    scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell",
           "EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper",
           "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper",
           "stack_bidirectional_dynamic_rnn", "stack_bidirectional_rnn",
           "static_bidirectional_rnn", "static_rnn"]


def __dir__() -> list:
    return sorted(__all__)
