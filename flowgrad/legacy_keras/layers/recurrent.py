"""Keras recurrent layers: SimpleRNN, LSTM, GRU (and their cells), the generic RNN, and
Bidirectional, with Keras 3's weights, defaults and gate orders.

Weights live in the cell (paths ``lstm/lstm_cell/kernel``, ``.../recurrent_kernel``,
``.../bias``). Gate orders: LSTM (i, f, c, o), GRU (z, r, h). Defaults: glorot_uniform
kernels, orthogonal recurrent kernels, zero biases, LSTM ``unit_forget_bias=True``, GRU
``reset_after=True`` (a (2, 3 * units) bias: input and recurrent parts).

Eagerly the layer loops over time in Python (the tape records each step); in a graph
(tf.function, or a TF1 graph) the loop is one While op whose inputs are sliced along time
and whose outputs are stacked by the op, so gradients flow through its backward loop."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.legacy_keras import activations, constraints, initializers, regularizers
from flowgrad.legacy_keras.layers.base import InputSpec, Layer
from flowgrad.ops import array_ops, math_ops, nn_ops
from flowgrad.ops.while_v2 import build_while
from collections.abc import Callable
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def _positive_units(units: Any, layer: str) -> int:
    if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
        raise ValueError("Received an invalid value for argument `units`, expected a positive "
                         "integer, got %r (in %s)." % (units, layer))
    return units


def _rate(value: float, arg: str) -> float:
    if not 0 <= value <= 1:
        raise ValueError("Received an invalid value for argument `%s`, expected a float between "
                         "0 and 1, got %r." % (arg, value))
    return float(value)


class _Cell(Layer):
    """What the three cells share: weights' settings and dropout masks (one per RNN call)."""

    def __init__(self, units: int, activation: Any, recurrent_activation: Any, use_bias: bool,
                 kernel_initializer: Any, recurrent_initializer: Any, bias_initializer: Any,
                 kernel_regularizer: Any, recurrent_regularizer: Any, bias_regularizer: Any,
                 kernel_constraint: Any, recurrent_constraint: Any, bias_constraint: Any,
                 dropout: float, recurrent_dropout: float, seed: int | None, **kwargs: Any):
        super().__init__(**kwargs)
        self.units = _positive_units(units, type(self).__name__)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, _rate(dropout, "dropout")))
        self.recurrent_dropout = min(1.0, max(0.0, _rate(recurrent_dropout,
                                                         "recurrent_dropout")))
        self.seed = seed
        self._masks: tuple = (None, None)

    def _kernels(self, input_dim: int, gates: int) -> None:
        if input_dim is None:
            raise ValueError("The last dimension of the inputs to %s should be defined. "
                             "Found None." % self.name)
        self.kernel = self.add_weight(name="kernel", shape=(input_dim, gates * self.units),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel", shape=(self.units, gates * self.units),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)

    def _bias(self, shape: tuple, initializer: Any) -> None:
        self.bias = self.add_weight(name="bias", shape=shape, initializer=initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def make_dropout_masks(self, step_input: Any, state: Any, training: Any) -> None:
        """Draws this call's dropout masks (the same at every time step, as Keras does)."""
        def mask(like: Any, rate: float) -> Any:
            if not training or rate == 0:
                return None
            return nn_ops.dropout_v2(array_ops.ones_like(like), rate, seed=self.seed)
        self._masks = (mask(step_input, self.dropout), mask(state, self.recurrent_dropout))

    def _dropped(self, inputs: Any, h: Any) -> tuple:
        dp, rdp = self._masks
        return (inputs if dp is None else inputs * dp), (h if rdp is None else h * rdp)

    def get_initial_state(self, batch_size: Any = None, dtype: Any = None) -> list:
        dt = dtypes.as_dtype(dtype or self.dtype)
        return [array_ops.zeros(array_ops.stack([batch_size, s]) if isinstance(
            batch_size, Tensor) else [batch_size, s], dt) for s in nest.flatten(self.state_size)]

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


class SimpleRNNCell(_Cell):
    """``h = activation(x @ kernel + h_prev @ recurrent_kernel + bias)``.

    One time step of ``SimpleRNN``; wrap it in ``RNN`` to run it over a sequence. Its
    ``call(inputs, states, training=None)`` returns ``(output, [output])``: the new state
    is the output.

    Args:
        units: Positive integer, the dimensionality of the output and of the state.
        activation: Activation of the step (a name, a callable, or None for linear).
        use_bias: Whether the step adds a bias vector.
        kernel_initializer: Initializer of ``kernel``, the input-to-hidden weights
            (an initializer, its name, or a callable ``(shape, dtype)``).
        recurrent_initializer: Initializer of ``recurrent_kernel``, the hidden-to-hidden
            weights.
        bias_initializer: Initializer of ``bias``.
        kernel_regularizer: Regularizer applied to ``kernel`` (its penalty joins the
            layer's ``losses``), or None.
        recurrent_regularizer: Regularizer applied to ``recurrent_kernel``, or None.
        bias_regularizer: Regularizer applied to ``bias``, or None.
        kernel_constraint: Constraint applied to ``kernel`` after each optimizer update, or
            None.
        recurrent_constraint: Constraint applied to ``recurrent_kernel``, or None.
        bias_constraint: Constraint applied to ``bias``, or None.
        dropout: Fraction in [0, 1] of the input units dropped in training (one mask per
            call, the same at every time step).
        recurrent_dropout: Fraction in [0, 1] of the previous state's units dropped in
            training (one mask per call).
        seed: Seed of the dropout masks, or None.
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``).

    Raises:
        ValueError: If ``units`` is not a positive integer or a dropout rate is not a number.
    """

    def __init__(self, units: int, activation: Callable | str | None = "tanh",
                 use_bias: bool = True,
                 kernel_initializer: Callable | str | None = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Callable | str | None = "zeros",
                 kernel_regularizer: Callable | None = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, recurrent_constraint: Any = None,
                 bias_constraint: Callable | None = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, seed: int | None = None, **kwargs: Any):
        super().__init__(units, activation, None, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed,
                         **kwargs)
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        self._kernels(input_shape[-1], 1)
        self._bias((self.units,), self.bias_initializer)

    def call(self, inputs: Any, states: Any, training: Any = None) -> tuple:
        prev = states[0] if isinstance(states, (list, tuple)) else states
        x, prev_d = self._dropped(inputs, prev)
        h = math_ops.matmul(x, self.kernel)
        if self.bias is not None:
            h = h + self.bias
        out = self.activation(h + math_ops.matmul(prev_d, self.recurrent_kernel))
        return out, [out]


class LSTMCell(_Cell):
    """Keras's LSTM step: gates i, f, c, o from ``x @ kernel + h @ recurrent_kernel + bias``;
    ``c = f * c_prev + i * activation(c~)``, ``h = o * activation(c)``.

    One time step of ``LSTM``; wrap it in ``RNN`` to run it over a sequence. Its state is
    ``[h, c]`` and ``call(inputs, [h, c], training=None)`` returns ``(h, [h, c])``.

    Args:
        units: Positive integer, the dimensionality of the output and of each state.
        activation: Activation of the candidate cell state and of the output (a name, a
            callable, or None for linear).
        recurrent_activation: Activation of the input, forget and output gates.
        use_bias: Whether the step adds a bias vector.
        kernel_initializer: Initializer of ``kernel``, the input-to-hidden weights
            (an initializer, its name, or a callable ``(shape, dtype)``).
        recurrent_initializer: Initializer of ``recurrent_kernel``, the hidden-to-hidden
            weights.
        bias_initializer: Initializer of ``bias``.
        unit_forget_bias: If True, the forget gate's bias starts at ones (the other gates'
            come from ``bias_initializer``), as Jozefowicz et al. (2015) recommend.
        kernel_regularizer: Regularizer applied to ``kernel`` (its penalty joins the
            layer's ``losses``), or None.
        recurrent_regularizer: Regularizer applied to ``recurrent_kernel``, or None.
        bias_regularizer: Regularizer applied to ``bias``, or None.
        kernel_constraint: Constraint applied to ``kernel`` after each optimizer update, or
            None.
        recurrent_constraint: Constraint applied to ``recurrent_kernel``, or None.
        bias_constraint: Constraint applied to ``bias``, or None.
        dropout: Fraction in [0, 1] of the input units dropped in training (one mask per
            call, the same at every time step).
        recurrent_dropout: Fraction in [0, 1] of the previous state's units dropped in
            training (one mask per call).
        seed: Seed of the dropout masks, or None.
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``).

    Raises:
        ValueError: If ``units`` is not a positive integer or a dropout rate is not a number.
    """

    def __init__(self, units: int, activation: Callable | str | None = "tanh",
                 recurrent_activation: Any = "sigmoid", use_bias: bool = True,
                 kernel_initializer: Callable | str | None = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Callable | str | None = "zeros", unit_forget_bias: bool = True,
                 kernel_regularizer: Callable | None = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, recurrent_constraint: Any = None,
                 bias_constraint: Callable | None = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, seed: int | None = None, **kwargs: Any):
        super().__init__(units, activation, recurrent_activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed,
                         **kwargs)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        self._kernels(input_shape[-1], 4)
        init = self.bias_initializer
        if self.unit_forget_bias:
            base, n = self.bias_initializer, self.units

            def init(shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
                return array_ops.concat([base((n,), dtype=dtype),
                                         array_ops.ones((n,), dtype=dtype),
                                         base((2 * n,), dtype=dtype)], 0)
        self._bias((4 * self.units,), init)

    def call(self, inputs: Any, states: Any, training: Any = None) -> tuple:
        h_prev, c_prev = states
        x, h_d = self._dropped(inputs, h_prev)
        z = math_ops.matmul(x, self.kernel) + math_ops.matmul(h_d, self.recurrent_kernel)
        if self.bias is not None:
            z = z + self.bias
        z0, z1, z2, z3 = array_ops.split(z, 4, axis=1)
        i = self.recurrent_activation(z0)
        f = self.recurrent_activation(z1)
        c = f * c_prev + i * self.activation(z2)
        o = self.recurrent_activation(z3)
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """Keras's GRU step: gates z, r and candidate h~; with ``reset_after`` (the default) the
    reset gate multiplies the recurrent projection (the cuDNN form), with separate input and
    recurrent biases.

    One time step of ``GRU``; wrap it in ``RNN`` to run it over a sequence. Its
    ``call(inputs, states, training=None)`` returns ``(h, [h])``.

    Args:
        units: Positive integer, the dimensionality of the output and of the state.
        activation: Activation of the candidate state (a name, a callable, or None for
            linear).
        recurrent_activation: Activation of the update and reset gates.
        use_bias: Whether the step adds a bias vector.
        kernel_initializer: Initializer of ``kernel``, the input-to-hidden weights
            (an initializer, its name, or a callable ``(shape, dtype)``).
        recurrent_initializer: Initializer of ``recurrent_kernel``, the hidden-to-hidden
            weights.
        bias_initializer: Initializer of ``bias``.
        kernel_regularizer: Regularizer applied to ``kernel`` (its penalty joins the
            layer's ``losses``), or None.
        recurrent_regularizer: Regularizer applied to ``recurrent_kernel``, or None.
        bias_regularizer: Regularizer applied to ``bias``, or None.
        kernel_constraint: Constraint applied to ``kernel`` after each optimizer update, or
            None.
        recurrent_constraint: Constraint applied to ``recurrent_kernel``, or None.
        bias_constraint: Constraint applied to ``bias``, or None.
        dropout: Fraction in [0, 1] of the input units dropped in training (one mask per
            call, the same at every time step).
        recurrent_dropout: Fraction in [0, 1] of the previous state's units dropped in
            training (one mask per call).
        reset_after: If True (Keras 3's and cuDNN's form), the reset gate is applied after
            the recurrent matrix multiplication and the bias has shape ``(2, 3 * units)``
            (input and recurrent biases); if False, before it, with one bias.
        seed: Seed of the dropout masks, or None.
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``).

    Raises:
        ValueError: If ``units`` is not a positive integer or a dropout rate is not a number.
    """

    def __init__(self, units: int, activation: Callable | str | None = "tanh",
                 recurrent_activation: Any = "sigmoid", use_bias: bool = True,
                 kernel_initializer: Callable | str | None = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Callable | str | None = "zeros",
                 kernel_regularizer: Callable | None = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Callable | None = None,
                 kernel_constraint: Callable | None = None, recurrent_constraint: Any = None,
                 bias_constraint: Callable | None = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, reset_after: bool = True, seed: int | None = None,
                 **kwargs: Any):
        super().__init__(units, activation, recurrent_activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed,
                         **kwargs)
        self.reset_after = reset_after
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        self._kernels(input_shape[-1], 3)
        shape = (2, 3 * self.units) if self.reset_after else (3 * self.units,)
        self._bias(shape, self.bias_initializer)

    def call(self, inputs: Any, states: Any, training: Any = None) -> tuple:
        h_prev = states[0] if isinstance(states, (list, tuple)) else states
        x, h_d = self._dropped(inputs, h_prev)
        n = self.units
        if self.bias is None:
            in_bias = rec_bias = None
        elif self.reset_after:
            in_bias, rec_bias = self.bias[0], self.bias[1]
        else:
            in_bias, rec_bias = self.bias, None
        mx = math_ops.matmul(x, self.kernel)
        if in_bias is not None:
            mx = mx + in_bias
        x_z, x_r, x_h = array_ops.split(mx, 3, axis=1)
        if self.reset_after:
            inner = math_ops.matmul(h_d, self.recurrent_kernel)
            if rec_bias is not None:
                inner = inner + rec_bias
            r_z, r_r, r_h = array_ops.split(inner, 3, axis=1)
        else:
            r_z, r_r = array_ops.split(math_ops.matmul(h_d, self.recurrent_kernel[:, :2 * n]),
                                       2, axis=1)
        z = self.recurrent_activation(x_z + r_z)
        r = self.recurrent_activation(x_r + r_r)
        if self.reset_after:
            hh = self.activation(x_h + r * r_h)
        else:
            hh = self.activation(x_h + math_ops.matmul(r * h_d, self.recurrent_kernel[:, 2 * n:]))
        h = z * h_prev + (1 - z) * hh
        return h, [h]

    def get_config(self) -> dict:
        return {**super().get_config(), "reset_after": self.reset_after}


class StackedRNNCells(Layer):
    """Cells run one after the other at each time step (the output of one is the input of
    the next); the state is the concatenated list of the cells' states.

    Args:
        cells: The cells, in the order they run (each with a ``call`` method and a
            ``state_size``).
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``).

    Raises:
        ValueError: If a cell has no ``call`` method or no ``state_size``.
    """

    def __init__(self, cells: list, **kwargs: Any):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError("All cells must have a `call` method and a `state_size` "
                                 "attribute. Received cell without: %s" % (cell,))
        self.cells = list(cells)

    @property
    def state_size(self) -> list:
        return [s for c in self.cells for s in nest.flatten(c.state_size)]

    @property
    def output_size(self) -> Any:
        return self.cells[-1].output_size

    def build(self, input_shape: Any) -> None:
        batch, depth = input_shape[0], input_shape[-1]
        for cell in self.cells:
            if not cell.built:
                cell.build((batch, depth))
                cell.built = True
            depth = cell.output_size

    def get_initial_state(self, batch_size: Any = None, dtype: DTypeLike | None = None) -> list:
        return [s for c in self.cells for s in c.get_initial_state(batch_size=batch_size,
                                                                   dtype=dtype)]

    def call(self, inputs: Any, states: Any, training: Any = None) -> tuple:
        states = list(states)
        new_states = []
        for cell in self.cells:
            n = len(nest.flatten(cell.state_size))
            kwargs = {"training": training} if getattr(cell, "_call_has_training", False) \
                else {}
            inputs, cell_states = cell.call(inputs, states[:n], **kwargs)
            new_states.extend(nest.flatten(cell_states))
            states = states[n:]
        return inputs, new_states


class RNN(Layer):
    """Runs ``cell`` over the time axis of [batch, time, features] inputs; returns the last
    output, or the whole sequence (``return_sequences``), followed by the final states
    (``return_state``).

    Called as ``layer(inputs, initial_state=None, mask=None, training=None)``: ``inputs``
    is [batch, timesteps, features] (or [timesteps, batch, features] with ``time_major``),
    ``initial_state`` the cell's states (zeros if None), ``mask`` a [batch, timesteps]
    boolean tensor of the steps to compute (a masked step keeps the states and repeats the
    previous output), and ``training`` switches the cell's dropout on.

    Args:
        cell: A cell (``SimpleRNNCell``, ``LSTMCell``, ``GRUCell`` or any layer with
            ``call(inputs, states)`` and ``state_size``), or a list of cells, run as
            ``StackedRNNCells``.
        return_sequences: If True, returns the output of every time step
            ([batch, timesteps, units]); if False, only the last one ([batch, units]).
        return_state: If True, returns ``[output] + final_states``.
        go_backwards: If True, processes the sequence in reverse order (the returned
            sequence is in reverse order too).
        stateful: Keeping the last states of a batch as the next batch's initial states;
            not supported (must be False).
        unroll: Accepted for compatibility; the loop is a ``while`` loop either way (graph
            mode) or a Python loop (eager), with the same results.
        zero_output_for_mask: If True, masked time steps output zeros instead of the
            previous step's output.
        time_major: If True, inputs and sequence outputs are [timesteps, batch, features].
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``,
            ``input_shape``, ...).

    Returns:
        (When called) the output tensor, or the list ``[output] + states`` with
        ``return_state``.

    Raises:
        NotImplementedError: If ``stateful`` is True.
        ValueError: If ``cell`` has no ``call`` method or no ``state_size``, and (when
            called) if the inputs are not of rank 3, the mask is not [batch, timesteps], or
            the number of initial states does not match the cell's.
    """

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, time_major: bool = False, **kwargs: Any):
        if stateful:
            raise NotImplementedError("stateful=True recurrent layers are not supported by "
                                      "flowgrad")
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError("Argument `cell` should have a `call` method and a `state_size` "
                             "attribute. Received: cell=%s" % (cell,))
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.time_major = time_major
        self.zero_output_for_mask = zero_output_for_mask
        self.input_spec = InputSpec(min_ndim=3)

    @property
    def states_count(self) -> int:
        return len(nest.flatten(self.cell.state_size))

    def build(self, input_shape: Any) -> None:
        if len(input_shape) != 3:
            raise ValueError("Input of %s should have rank 3 ([batch, timesteps, features]), "
                             "received shape %s" % (self.name, tuple(input_shape)))
        if not self.cell.built:
            batch = input_shape[1] if self.time_major else input_shape[0]
            self.cell.build((batch, input_shape[-1]))
            self.cell.built = True

    def call(self, sequences: Any, initial_state: Any = None, mask: TensorLike | None = None,
             training: Any = None) -> Any:
        x = convert_to_tensor(sequences)
        if mask is not None:
            mask = math_ops.cast(convert_to_tensor(mask), dtypes.bool)
            if mask.shape.ndims not in (None, 2):
                raise ValueError("The mask of %s must be [batch, timesteps], got shape %s"
                                 % (self.name, mask.shape))
        if self.time_major:
            x = array_ops.transpose(x, [1, 0, 2])
        if initial_state is None:
            batch = x.shape.as_list()[0]
            batch = batch if batch is not None else array_ops.shape(x)[0]
            states = self.cell.get_initial_state(batch_size=batch, dtype=x.dtype.base_dtype)
        else:
            states = [convert_to_tensor(s) for s in nest.flatten(initial_state)]
            if len(states) != self.states_count:
                raise ValueError("Layer %s expects %d initial state(s), received %d"
                                 % (self.name, self.states_count, len(states)))
        if self.go_backwards:
            x = array_ops.reverse(x, [1])
            mask = None if mask is None else array_ops.reverse(mask, [1])
        cell_training = training if getattr(self.cell, "_call_has_training", False) else None
        if hasattr(self.cell, "make_dropout_masks"):
            self.cell.make_dropout_masks(x[:, 0], states[0], training)
        try:
            outputs, states = _run_over_time(self.cell, x, states, cell_training, mask,
                                             self.zero_output_for_mask)
        finally:
            if hasattr(self.cell, "make_dropout_masks"):
                self.cell._masks = (None, None)
        if not self.return_sequences:
            output = outputs[:, -1]
        else:
            output = array_ops.transpose(outputs, [1, 0, 2]) if self.time_major else outputs
        if self.return_state:
            return [output] + list(states)
        return output

    def get_config(self) -> dict:
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards}


def _masked_step(m: Any, out: Any, new: list, prev_out: Any, states: list,
                 zero_output: bool) -> tuple:
    """Where ``m`` [batch] is False the states stay and the output is the previous one (or
    zeros with ``zero_output``), as Keras's masked time steps do."""
    keep = array_ops.expand_dims(m, 1)
    new = [math_ops.where(keep, n, s) for n, s in zip(new, states)]
    other = array_ops.zeros_like(out) if zero_output else prev_out
    return math_ops.where(keep, out, other), new


def _run_over_time(cell: Any, x: Any, states: list, training: Any, mask: Any = None,
                   zero_output: bool = False) -> tuple:
    """(outputs [batch, time, units], final states) of ``cell`` over ``x`` [batch, time, ...];
    ``mask`` [batch, time] marks the steps to compute (the others are skipped)."""
    kwargs = {} if training is None else {"training": training}
    out_dim = nest.flatten(cell.output_size)[0]
    if not isinstance(x, Tensor):                    # eager: a Python loop the tape records
        outs = []
        prev = None
        for t in range(int(x.shape[1])):
            out, new = cell.call(x[:, t], states, **kwargs)
            new = list(nest.flatten(new))
            if mask is not None:
                prev = array_ops.zeros_like(out) if prev is None else prev
                out, new = _masked_step(mask[:, t], out, new, prev, states, zero_output)
                prev = out
            states = new
            outs.append(out)
        if not outs:
            raise ValueError("A recurrent layer needs at least one time step, got inputs of "
                             "shape %s" % (x.shape,))
        return array_ops.stack(outs, axis=1), states
    perm = [1, 0] + list(range(2, x.shape.ndims))
    sliced = [array_ops.transpose(x, perm)]
    carried = list(states)
    if mask is not None:
        sliced.append(array_ops.transpose(mask, [1, 0]))
        batch = array_ops.shape(x)[0:1]
        carried.append(array_ops.zeros(array_ops.concat([batch, [out_dim]], 0), x.dtype))
        carried[-1].set_shape([x.shape.as_list()[0], out_dim])
    n = len(states)

    def body(*args: Any) -> tuple:
        st = list(args[:n])
        out, new = cell.call(args[len(carried)], st, **kwargs)
        new = list(nest.flatten(new))
        if mask is None:
            return new, [out]
        out, new = _masked_step(args[len(carried) + 1], out, new, args[n], st, zero_output)
        return new + [out], [out]

    finals, extras, _, _ = build_while(None, body, carried, [s.shape for s in carried],
                                       sliced=sliced, name="while",
                                       static_n=sliced[0].shape.as_list()[0])
    outputs = extras[0]
    return (array_ops.transpose(outputs, [1, 0] + list(range(2, outputs.shape.ndims))),
            finals[:n])


def _rnn_kwargs(kwargs: dict) -> dict:
    """The RNN layer's own arguments, removed from ``kwargs`` (the rest go to the cell)."""
    own = {}
    for key in ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                "name", "trainable", "dtype", "input_shape", "input_dim",
                "activity_regularizer", "zero_output_for_mask", "time_major"):
        if key in kwargs:
            own[key] = kwargs.pop(key)
    for key in ("implementation", "use_cudnn", "reset_dropout_cache"):   # speed hints only
        kwargs.pop(key, None)
    if "activity_regularizer" in own:
        own["activity_regularizer"] = regularizers.get(own["activity_regularizer"])
    return own


class SimpleRNN(RNN):
    """A fully-connected RNN: ``h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel +
    bias)``.

    ``SimpleRNNCell`` run over the time axis by ``RNN``; see both for the call.

    Args:
        units: Positive integer, the dimensionality of the output and of the state.
        **kwargs: The cell's arguments (``activation``, ``use_bias``, the initializers,
            regularizers and constraints, ``dropout``, ``recurrent_dropout``, ``seed``),
            ``RNN``'s (``return_sequences``, ``return_state``, ``go_backwards``, ``stateful``,
            ``unroll``, ``zero_output_for_mask``, ``time_major``), and the base ``Layer``'s
            (``name``, ``dtype``, ``trainable``, ``input_shape``, ``activity_regularizer``).
            ``implementation``, ``use_cudnn`` and ``reset_dropout_cache`` are accepted and
            ignored (they only choose kernels).

    Raises:
        ValueError: If ``units`` is not a positive integer.
        NotImplementedError: If ``stateful`` is True.
    """

    def __init__(self, units: int, **kwargs: Any):
        own = _rnn_kwargs(kwargs)
        cell = SimpleRNNCell(units, dtype=own.get("dtype"), name="simple_rnn_cell", **kwargs)
        super().__init__(cell, **own)

    @property
    def units(self) -> int:
        return self.cell.units


class LSTM(RNN):
    """Long short-term memory (Hochreiter & Schmidhuber 1997), Keras's form; return_state
    gives ``[output, h, c]``.

    ``LSTMCell`` run over the time axis by ``RNN``; see both for the call.

    Args:
        units: Positive integer, the dimensionality of the output and of each state.
        **kwargs: The cell's arguments (``activation``, ``use_bias``, the initializers,
            regularizers and constraints, ``dropout``, ``recurrent_dropout``, ``seed``,
            ``recurrent_activation``, ``unit_forget_bias``),
            ``RNN``'s (``return_sequences``, ``return_state``, ``go_backwards``, ``stateful``,
            ``unroll``, ``zero_output_for_mask``, ``time_major``), and the base ``Layer``'s
            (``name``, ``dtype``, ``trainable``, ``input_shape``, ``activity_regularizer``).
            ``implementation``, ``use_cudnn`` and ``reset_dropout_cache`` are accepted and
            ignored (they only choose kernels).

    Raises:
        ValueError: If ``units`` is not a positive integer.
        NotImplementedError: If ``stateful`` is True.
    """

    def __init__(self, units: int, **kwargs: Any):
        own = _rnn_kwargs(kwargs)
        cell = LSTMCell(units, dtype=own.get("dtype"), name="lstm_cell", **kwargs)
        super().__init__(cell, **own)

    @property
    def units(self) -> int:
        return self.cell.units


class GRU(RNN):
    """Gated recurrent unit (Cho et al. 2014), Keras 3's form (``reset_after=True``).

    ``GRUCell`` run over the time axis by ``RNN``; see both for the call.

    Args:
        units: Positive integer, the dimensionality of the output and of the state.
        **kwargs: The cell's arguments (``activation``, ``use_bias``, the initializers,
            regularizers and constraints, ``dropout``, ``recurrent_dropout``, ``seed``,
            ``recurrent_activation``, ``reset_after``),
            ``RNN``'s (``return_sequences``, ``return_state``, ``go_backwards``, ``stateful``,
            ``unroll``, ``zero_output_for_mask``, ``time_major``), and the base ``Layer``'s
            (``name``, ``dtype``, ``trainable``, ``input_shape``, ``activity_regularizer``).
            ``implementation``, ``use_cudnn`` and ``reset_dropout_cache`` are accepted and
            ignored (they only choose kernels).

    Raises:
        ValueError: If ``units`` is not a positive integer.
        NotImplementedError: If ``stateful`` is True.
    """

    def __init__(self, units: int, **kwargs: Any):
        own = _rnn_kwargs(kwargs)
        cell = GRUCell(units, dtype=own.get("dtype"), name="gru_cell", **kwargs)
        super().__init__(cell, **own)

    @property
    def units(self) -> int:
        return self.cell.units


_MERGE_MODES = ("sum", "mul", "concat", "ave", None)


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy of it backwards, and merges the outputs
    (``merge_mode``: 'concat' (default), 'sum', 'mul', 'ave' or None for a list).

    Called as the wrapped layer is (``inputs``, ``initial_state``, ``mask``,
    ``training``); ``initial_state`` lists the forward layer's states, then the backward
    layer's.

    Args:
        layer: The recurrent layer (``SimpleRNN``, ``LSTM``, ``GRU`` or another ``RNN``
            with ``backward_layer`` given) run forwards; the layer used is a copy named
            ``forward_<name>``.
        merge_mode: How the forward and backward outputs combine: 'concat' (along the last
            axis), 'sum', 'mul', 'ave', or None (the list of both).
        weights: Initial weights; not supported (call ``set_weights`` after building).
        backward_layer: The recurrent layer run backwards; by default a copy of ``layer``
            with ``go_backwards`` flipped, named ``backward_<name>``.
        **kwargs: The base ``Layer``'s arguments (``name``, ``dtype``, ``trainable``).

    Returns:
        (When called) the merged output, followed by the forward and backward final
        states when the layer has ``return_state``.

    Raises:
        ValueError: If ``layer`` is not a recurrent layer, ``merge_mode`` is not one of the
            above, the two layers differ in ``return_sequences`` or ``return_state``, or
            ``layer`` cannot be copied and no ``backward_layer`` is given.
        NotImplementedError: If ``weights`` is given.
    """

    def __init__(self, layer: RNN, merge_mode: str | None = "concat", weights: Any = None,
                 backward_layer: RNN | None = None, **kwargs: Any):
        if not isinstance(layer, RNN):
            raise ValueError("Please initialize `Bidirectional` layer with a recurrent layer "
                             "instance. Received: %s" % (layer,))
        if merge_mode not in _MERGE_MODES:
            raise ValueError("Invalid merge mode. Received: %s. Merge mode should be one of "
                             "{'sum', 'mul', 'ave', 'concat', None}" % (merge_mode,))
        kwargs.setdefault("dtype", layer.dtype)
        super().__init__(**kwargs)
        config = layer.get_config()
        if backward_layer is None:
            backward_layer = _copy_rnn(layer, go_backwards=not layer.go_backwards,
                                       name="backward_" + layer.name)
        elif backward_layer.return_sequences != layer.return_sequences or \
                backward_layer.return_state != layer.return_state:
            raise ValueError("Forward layer and backward layer should have the same "
                             "`return_sequences` and `return_state`; got %s and %s"
                             % (config, backward_layer.get_config()))
        self.forward_layer = _copy_rnn(layer, name="forward_" + layer.name)
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        if weights is not None:
            raise NotImplementedError("Bidirectional(weights=...) is not supported; call "
                                      "set_weights after building")

    def call(self, inputs: Any, initial_state: Any = None, mask: TensorLike | None = None,
             training: Any = None) -> Any:
        fw_state = bw_state = None
        if initial_state is not None:
            flat = nest.flatten(initial_state)
            half = len(flat) // 2
            fw_state, bw_state = flat[:half], flat[half:]
        kwargs = {} if training is None else {"training": training}
        if mask is not None:
            kwargs["mask"] = mask
        fw = self.forward_layer(inputs, initial_state=fw_state, **kwargs)
        bw = self.backward_layer(inputs, initial_state=bw_state, **kwargs)
        if self.return_state:
            fw, fw_states = fw[0], fw[1:]
            bw, bw_states = bw[0], bw[1:]
        if self.return_sequences:
            bw = array_ops.reverse(bw, [1])
        if self.merge_mode == "concat":
            out: Any = array_ops.concat([fw, bw], -1)
        elif self.merge_mode == "sum":
            out = fw + bw
        elif self.merge_mode == "ave":
            out = (fw + bw) / 2
        elif self.merge_mode == "mul":
            out = fw * bw
        else:
            out = [fw, bw]
        if self.return_state:
            states = list(fw_states) + list(bw_states)
            return (out if isinstance(out, list) else [out]) + states
        return out

    def get_config(self) -> dict:
        return {**super().get_config(), "merge_mode": self.merge_mode}


def _copy_rnn(layer: RNN, **overrides: Any) -> RNN:
    """A new, unbuilt recurrent layer with ``layer``'s settings (and its cell's)."""
    cell = layer.cell
    cell_args = {k: getattr(cell, k) for k in (
        "units", "activation", "use_bias", "kernel_initializer", "recurrent_initializer",
        "bias_initializer", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
        "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
        "recurrent_dropout", "seed")}
    if not isinstance(cell, SimpleRNNCell):
        cell_args["recurrent_activation"] = cell.recurrent_activation
    if isinstance(cell, LSTMCell):
        cell_args["unit_forget_bias"] = cell.unit_forget_bias
    if isinstance(cell, GRUCell):
        cell_args["reset_after"] = cell.reset_after
    args = dict(return_sequences=layer.return_sequences, return_state=layer.return_state,
                go_backwards=layer.go_backwards, dtype=layer.dtype, **cell_args)
    args.update(overrides)
    if type(layer) in (SimpleRNN, LSTM, GRU):
        return type(layer)(**args)
    raise ValueError("Bidirectional needs a backward_layer for %s (only SimpleRNN, LSTM and GRU "
                     "are copied automatically)" % type(layer).__name__)


__all__ = ["RNN", "StackedRNNCells", "SimpleRNN", "SimpleRNNCell", "LSTM", "LSTMCell", "GRU",
           "GRUCell", "Bidirectional"]
