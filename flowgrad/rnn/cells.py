"""TF1's RNN cells (``tf.nn.rnn_cell``): BasicRNNCell, BasicLSTMCell, LSTMCell, GRUCell,
MultiRNNCell, DropoutWrapper.

Each cell is a TF1 layer (``flowgrad.layers.base.Layer``): it opens its variable scope
(``basic_lstm_cell``, ``lstm_cell``, ``gru_cell``, ...) on its first call inside the
caller's scope and creates its variables there, with TensorFlow's names, shapes,
initializers and gate order (LSTM: i, j, f, o in one ``kernel`` and ``bias``)."""
from __future__ import annotations

import collections
import hashlib
import numbers
from typing import Any

from flowgrad import nest
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import device, name_scope
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.layers.base import Layer
from flowgrad.ops import array_ops, init_ops, math_ops, nn_ops, random_ops
from flowgrad.ops.variable_scope import _ReuseMode, variable_scope
from collections.abc import Callable
from flowgrad.framework.type_hints import DTypeLike, TensorLike

_BIAS, _KERNEL = "bias", "kernel"


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """The (c, h) state of an LSTM cell.

    Args:
        c: The cell state.
        h: The hidden state (the output).
    """

    __slots__ = ()

    @property
    def dtype(self) -> Any:
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError("Inconsistent internal state: %s vs %s" % (c.dtype, h.dtype))
        return c.dtype


def assert_like_rnncell(cell_name: str, cell: Any) -> None:
    """Raises TypeError when ``cell`` lacks what an RNNCell has."""
    checks = [(hasattr(cell, "output_size"), "'output_size' property is missing"),
              (hasattr(cell, "state_size"), "'state_size' property is missing"),
              (hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
               "either 'zero_state' or 'get_initial_state' method is required"),
              (callable(cell), "is not callable")]
    missing = [msg for ok, msg in checks if not ok]
    if missing:
        raise TypeError("The argument %r (%s) is not an RNNCell: %s."
                        % (cell_name, cell, ", ".join(missing)))


def _zero_state(state_size: Any, batch_size: Any, dtype: Any) -> Any:
    def zeros(s: Any) -> Any:
        dims = [s] if isinstance(s, numbers.Integral) else as_shape(s).as_list()
        if isinstance(batch_size, numbers.Integral):
            return array_ops.zeros([batch_size] + dims, dtype=dtype)
        shape = array_ops.concat([array_ops.reshape(batch_size, [1]),
                                  convert_to_tensor(dims, dtypes.int32)], 0)
        z = array_ops.zeros(shape, dtype=dtype)
        if not executing_eagerly():
            z.set_shape(TensorShape([None] + dims))
        return z
    return nest.map_structure(zeros, state_size)


def _input_depth(cell: Layer, inputs_shape: TensorShape) -> int:
    shape = as_shape(inputs_shape)
    if shape.ndims is not None and shape.ndims != 2:
        raise ValueError("Input of %s should have rank 2 ([batch_size, depth]), received "
                         "shape %s" % (cell.name, shape))
    depth = shape.as_list()[-1] if shape.ndims is not None else None
    if depth is None:
        raise ValueError("Expected inputs.shape[-1] of %s to be known, saw shape: %s"
                         % (cell.name, shape))
    return depth


class RNNCell(Layer):
    """An RNN cell: ``output, new_state = cell(inputs, state)``.

    Args:
        trainable: Whether the layer's variables join ``TRAINABLE_VARIABLES``.
        name: The layer's name (its variable scope).
        dtype: The dtype of the layer's variables and computation; float32 when None.
        _scope: The variable scope to build in (TF1's internal argument).
        _reuse: Whether to reuse the variables of ``_scope`` (TF1's internal argument).
        **kwargs: Accepted and ignored, as TF1's base layer does for Keras's arguments.
    """

    @property
    def state_size(self) -> Any:
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self) -> Any:
        raise NotImplementedError("Abstract method")

    def __call__(self, inputs: Any, state: Any, scope: Any = None, **kwargs: Any) -> Any:
        if scope is not None:
            kwargs["scope"] = scope
        return super().__call__(inputs, state, **kwargs)

    def zero_state(self, batch_size: Any, dtype: DTypeLike) -> Any:
        """Zero-filled state tensor(s) of shape [batch_size, s] for each s in state_size."""
        with name_scope(type(self).__name__ + "ZeroState"):
            return _zero_state(self.state_size, batch_size, dtypes.as_dtype(dtype))

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None,
                          dtype: DTypeLike | None = None) -> Any:
        """The zero state for ``inputs`` (or for ``batch_size`` and ``dtype``)."""
        if inputs is not None:
            inputs = convert_to_tensor(inputs)
            batch_size = inputs.shape.as_list()[0] if inputs.shape.ndims else None
            if batch_size is None:
                batch_size = array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial "
                             "state: batch_size=%s, dtype=%s" % (batch_size, dtype))
        return self.zero_state(batch_size, dtype)

    def prebuild(self, inputs_shape: TensorShape) -> None:
        """Creates the variables of a call on inputs of ``inputs_shape`` now (in the scope the
        call would use), so that a call inside a loop body only reads them."""
        if self.built:
            return
        self._set_scope(None)
        with variable_scope(self._scope, reuse=self._reuse, auxiliary_name_scope=False) as vs:
            with name_scope(vs.original_name_scope or None):
                if self._dtype is None:
                    self._dtype = dtypes.float32
                self.build(as_shape(inputs_shape))
                self.built = True


def _check_state(cell: RNNCell, state: Any) -> None:
    for s in nest.flatten(state):
        if isinstance(s, TensorBase) and not s.dtype.is_floating:
            raise TypeError("RNN cell %s only supports floating point state, got %s"
                            % (cell.name, s.dtype.name))


class BasicRNNCell(RNNCell):
    """``output = new_state = act(W [inputs, state] + b)``.

    Args:
        num_units: The size of the cell's state (its number of units).
        activation: The activation; tanh when None.
        reuse: Whether to reuse the variables of an earlier cell of the same name.
        name: The cell's name (its variable scope).
        dtype: The dtype of the layer's variables and computation; float32 when None.
        **kwargs: Further arguments of ``tf.layers.Layer``.
    """

    def __init__(self, num_units: int, activation: Callable | str | None = None,
                 reuse: bool | _ReuseMode | None = None,
                 name: str | None = None, dtype: DTypeLike | None = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: TensorShape) -> None:
        depth = _input_depth(self, inputs_shape)
        self._kernel = self.add_weight(_KERNEL, [depth + self._num_units, self._num_units])
        self._bias = self.add_weight(_BIAS, [self._num_units],
                                     initializer=init_ops.Zeros())
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple:
        _check_state(self, state)
        z = math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel)
        output = self._activation(nn_ops.bias_add(z, self._bias))
        return output, output


class GRUCell(RNNCell):
    """Gated recurrent unit (Cho et al. 2014), TF1's form: reset gate before the product.

    Args:
        num_units: The size of the cell's state (its number of units).
        activation: The activation; tanh when None.
        reuse: Whether to reuse the variables of an earlier cell of the same name.
        kernel_initializer: The initializer of the kernels; Glorot uniform when None.
        bias_initializer: The initializer of the biases; ones for the gates, zeros for the candidate
            when None.
        name: The cell's name (its variable scope).
        dtype: The dtype of the layer's variables and computation; float32 when None.
        **kwargs: Further arguments of ``tf.layers.Layer``.
    """

    def __init__(self, num_units: int, activation: Callable | str | None = None,
                 reuse: bool | _ReuseMode | None = None,
                 kernel_initializer: Callable | str | None = None,
                 bias_initializer: Callable | str | None = None, name: str | None = None,
                 dtype: DTypeLike | None = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: TensorShape) -> None:
        depth = _input_depth(self, inputs_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight("gates/" + _KERNEL, [depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            "gates/" + _BIAS, [2 * n], initializer=self._bias_initializer or
            init_ops.Constant(1.0))
        self._candidate_kernel = self.add_weight("candidate/" + _KERNEL, [depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            "candidate/" + _BIAS, [n], initializer=self._bias_initializer or
            init_ops.Zeros())
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple:
        _check_state(self, state)
        gates = math_ops.sigmoid(nn_ops.bias_add(math_ops.matmul(
            array_ops.concat([inputs, state], 1), self._gate_kernel), self._gate_bias))
        r, u = array_ops.split(gates, 2, axis=1)
        candidate = nn_ops.bias_add(math_ops.matmul(
            array_ops.concat([inputs, r * state], 1), self._candidate_kernel),
            self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(RNNCell):
    """LSTM without peepholes or projection (Zaremba et al. 2014); ``forget_bias`` is added
    to the forget gate's pre-activation.

    Args:
        num_units: The size of the cell's state (its number of units).
        forget_bias: Added to the forget gate's bias.
        state_is_tuple: Whether the state is an ``LSTMStateTuple`` (c, h) rather than their
            concatenation.
        activation: The activation of the cell's output; tanh when None.
        reuse: Whether to reuse the variables of an earlier cell of the same name.
        name: The cell's name (its variable scope).
        dtype: The dtype of the layer's variables and computation; float32 when None.
        **kwargs: Further arguments of ``tf.layers.Layer``.
    """

    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Callable | str | None = None,
                 reuse: bool | _ReuseMode | None = None,
                 name: str | None = None, dtype: DTypeLike | None = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or math_ops.tanh

    @property
    def state_size(self) -> Any:
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: TensorShape) -> None:
        depth = _input_depth(self, inputs_shape)
        n = self._num_units
        self._kernel = self.add_weight(_KERNEL, [depth + n, 4 * n])
        self._bias = self.add_weight(_BIAS, [4 * n], initializer=init_ops.Zeros())
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple:
        _check_state(self, state)
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(state, 2, axis=1)
        z = nn_ops.bias_add(math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel),
                            self._bias)
        i, j, f, o = array_ops.split(z, 4, axis=1)
        sigmoid = math_ops.sigmoid
        new_c = c * sigmoid(f + self._forget_bias) + sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * sigmoid(o)
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else \
            array_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(RNNCell):
    """LSTM with optional peepholes (Gers & Schmidhuber), cell clipping and an output
    projection (Sak et al. 2014).

    Args:
        num_units: The size of the cell's state (its number of units).
        use_peepholes: Whether the gates also see the cell state (diagonal peephole connections).
        cell_clip: Clip the cell state to [-cell_clip, cell_clip]; None for no clipping.
        initializer: The initializer of the kernels; Glorot uniform when None.
        num_proj: The size of the output projection; None for no projection.
        proj_clip: Clip the projected output to [-proj_clip, proj_clip].
        num_unit_shards: Accepted for TensorFlow's signature (deprecated there).
        num_proj_shards: Accepted for TensorFlow's signature (deprecated there).
        forget_bias: Added to the forget gate's bias.
        state_is_tuple: Whether the state is an ``LSTMStateTuple`` (c, h) rather than their
            concatenation.
        activation: The activation of the cell's output; tanh when None.
        reuse: Whether to reuse the variables of an earlier cell of the same name.
        name: The cell's name (its variable scope).
        dtype: The dtype of the layer's variables and computation; float32 when None.
        **kwargs: Further arguments of ``tf.layers.Layer``.
    """

    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: float | None = None,
                 initializer: Callable | None = None, num_proj: int | None = None,
                 proj_clip: float | None = None, num_unit_shards: int | None = None,
                 num_proj_shards: int | None = None, forget_bias: float = 1.0,
                 state_is_tuple: bool = True, activation: Callable | str | None = None,
                 reuse: bool | _ReuseMode | None = None, name: str | None = None,
                 dtype: DTypeLike | None = None,
                 **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        if num_unit_shards is not None or num_proj_shards is not None:
            raise ValueError("num_unit_shards and num_proj_shards are deprecated; use a "
                             "variable_scope partitioner instead (partitioned variables are not "
                             "supported by flowgrad)")
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or math_ops.tanh

    @property
    def state_size(self) -> Any:
        m = self._num_proj or self._num_units
        if self._state_is_tuple:
            return LSTMStateTuple(self._num_units, m)
        return self._num_units + m

    @property
    def output_size(self) -> int:
        return self._num_proj or self._num_units

    def build(self, inputs_shape: TensorShape) -> None:
        depth = _input_depth(self, inputs_shape)
        n = self._num_units
        h_depth = self._num_proj or n
        init = self._initializer
        self._kernel = self.add_weight(_KERNEL, [depth + h_depth, 4 * n], initializer=init)
        self._bias = self.add_weight(_BIAS, [4 * n], initializer=init_ops.Zeros())
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", [n], initializer=init)
            self._w_i_diag = self.add_weight("w_i_diag", [n], initializer=init)
            self._w_o_diag = self.add_weight("w_o_diag", [n], initializer=init)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight("projection/" + _KERNEL, [n, self._num_proj],
                                                initializer=init)
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple:
        _check_state(self, state)
        n = self._num_units
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, n])
            m_prev = array_ops.slice(state, [0, n], [-1, self._num_proj or n])
        z = nn_ops.bias_add(math_ops.matmul(array_ops.concat([inputs, m_prev], 1),
                                            self._kernel), self._bias)
        i, j, f, o = array_ops.split(z, 4, axis=1)
        sigmoid = math_ops.sigmoid
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev +
                 sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else \
            array_ops.concat([c, m], 1)
        return m, new_state


class MultiRNNCell(RNNCell):
    """Cells stacked in layers: cell ``k`` runs under the variable scope ``cell_k``.

    Args:
        cells: The cells, applied one after the other at each time step.
        state_is_tuple: Whether the state is a tuple of the cells' states.
    """

    def __init__(self, cells: list, state_is_tuple: bool = True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not isinstance(cells, (list, tuple)):
            raise TypeError("cells must be a list or tuple, but saw: %s." % (cells,))
        if len({id(c) for c in cells}) < len(cells):
            raise ValueError("At least two cells provided to MultiRNNCell are the same "
                             "object and will share weights.")
        for c in cells:
            assert_like_rnncell("cells", c)
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple "
                             "is not set. State sizes are: %s"
                             % [c.state_size for c in cells])

    @property
    def state_size(self) -> Any:
        if self._state_is_tuple:
            return tuple(c.state_size for c in self._cells)
        return sum(c.state_size for c in self._cells)

    @property
    def output_size(self) -> Any:
        return self._cells[-1].output_size

    def zero_state(self, batch_size: Any, dtype: DTypeLike) -> Any:
        with name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(c.zero_state(batch_size, dtype) for c in self._cells)
            return super().zero_state(batch_size, dtype)

    @property
    def trainable_weights(self) -> list:
        return [w for c in self._cells for w in c.trainable_weights] if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        return [w for c in self._cells for w in c.non_trainable_weights]

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def build(self, inputs_shape: TensorShape) -> None:
        depth = _input_depth(self, inputs_shape)
        for k, cell in enumerate(self._cells):
            with variable_scope("cell_%d" % k):
                _prebuild(cell, TensorShape([None, depth]))
            depth = cell.output_size
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple:
        cur = inputs
        new_states = []
        start = 0
        for k, cell in enumerate(self._cells):
            with variable_scope("cell_%d" % k):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError("Expected state to be a tuple of length %d, but "
                                         "received: %s" % (len(self.state_size), state))
                    cur_state = state[k]
                else:
                    cur_state = array_ops.slice(state, [0, start], [-1, cell.state_size])
                    start += cell.state_size
                cur, new_state = cell(cur, cur_state)
                new_states.append(new_state)
        new = tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1)
        return cur, new


class _Wrapper(RNNCell):
    """A cell that runs another one (whose variables keep their names: no scope of its own)."""

    def __init__(self, cell: Any):
        super().__init__()
        assert_like_rnncell("cell", cell)
        self._cell = cell

    @property
    def wrapped_cell(self) -> Any:
        return self._cell

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    @property
    def trainable_weights(self) -> list:
        return self._cell.trainable_weights

    @property
    def non_trainable_weights(self) -> list:
        return self._cell.non_trainable_weights

    @property
    def weights(self) -> list:
        return self._cell.weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)

    def prebuild(self, inputs_shape: TensorShape) -> None:
        _prebuild(self._cell, inputs_shape)


class DropoutWrapper(_Wrapper):
    """Dropout on a cell's inputs, outputs and (except LSTM ``c``) states; the wrapped cell's
    variables keep their names (the wrapper opens no scope). With ``variational_recurrent``
    every time step uses the same masks (Gal & Ghahramani), drawn from noise made once here
    (shape [1, size]: shared across the batch, as in TensorFlow).

    Args:
        cell: The RNN cell wrapped.
        input_keep_prob: The probability of keeping each input unit.
        output_keep_prob: The probability of keeping each output unit.
        state_keep_prob: The probability of keeping each state unit.
        variational_recurrent: Whether to use the same mask at every time step.
        input_size: The depth of the inputs (needed with ``variational_recurrent``).
        dtype: The dtype of the masks (needed with ``variational_recurrent``).
        seed: The masks' seed.
        dropout_state_filter_visitor: A function of each state part: whether to apply dropout to it.
    """

    def __init__(self, cell: Any, input_keep_prob: TensorLike = 1.0,
                 output_keep_prob: TensorLike = 1.0, state_keep_prob: TensorLike = 1.0,
                 variational_recurrent: bool = False,
                 input_size: Any = None, dtype: DTypeLike | None = None, seed: int | None = None,
                 dropout_state_filter_visitor: Callable | None = None):
        super().__init__(cell)
        if dropout_state_filter_visitor is not None and not callable(
                dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable")
        self._state_filter = dropout_state_filter_visitor or _default_state_filter
        for prob, attr in ((input_keep_prob, "input_keep_prob"),
                           (state_keep_prob, "state_keep_prob"),
                           (output_keep_prob, "output_keep_prob")):
            if isinstance(prob, numbers.Real):
                if not 0 <= prob <= 1:
                    raise ValueError("Parameter %s must be between 0 and 1: %g" % (attr, prob))
                prob = float(prob)
            setattr(self, "_" + attr, prob)
        self._seed = seed
        self._noise: dict = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            sizes = {"state": cell.state_size, "output": cell.output_size}
            if not isinstance(self._input_keep_prob, float) or self._input_keep_prob < 1:
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 "
                                     "or is unknown, input_size must be provided")
                sizes["input"] = input_size
            for salt, size in sizes.items():
                self._noise[salt] = [
                    random_ops.random_uniform([1] + TensorShape(s).as_list(), dtype=dtype,
                                              seed=self._gen_seed(salt, i))
                    for i, s in enumerate(nest.flatten(size))]

    def _gen_seed(self, salt_prefix: str, index: int) -> int | None:
        if self._seed is None:
            return None
        text = (str(self._seed) + "%s_%d" % (salt_prefix, index)).encode("utf-8")
        return int(hashlib.md5(text).hexdigest()[:8], 16) & 0x7FFFFFFF

    def _dropout(self, values: Any, salt: str, keep_prob: Any, mask: list | None = None) -> Any:
        flat = nest.flatten(values)
        keep = mask if mask is not None else [True] * len(flat)
        noise = self._noise.get(salt)
        out = []
        for i, (v, k) in enumerate(zip(flat, keep)):
            if not k:
                out.append(v)
            elif noise is None:
                out.append(nn_ops.dropout(v, keep_prob=keep_prob, seed=self._gen_seed(salt, i)))
            else:       # the same mask at every step: floor(keep_prob + noise) is 0 or 1
                out.append(v / keep_prob * math_ops.floor(keep_prob + noise[i]))
        return nest.pack_sequence_as(values, out)

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> tuple:
        def should(p: Any) -> bool:
            return not isinstance(p, float) or p < 1
        if should(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._input_keep_prob)
        output, new_state = self._cell(inputs, state, scope=scope)
        if should(self._state_keep_prob):
            new_state = self._dropout(new_state, "state", self._state_keep_prob,
                                      _state_mask(self._state_filter, new_state))
        if should(self._output_keep_prob):
            output = self._dropout(output, "output", self._output_keep_prob)
        return output, new_state


class ResidualWrapper(_Wrapper):
    """``output = residual_fn(inputs, cell_output)``, by default ``inputs + cell_output``.

    Args:
        cell: The RNN cell wrapped.
        residual_fn: A function (inputs, outputs) -> output; their sum when None.
    """

    def __init__(self, cell: Any, residual_fn: Callable | None = None):
        super().__init__(cell)
        self._residual_fn = residual_fn

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> tuple:
        output, new_state = self._cell(inputs, state, scope=scope)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, output), new_state
        flat_in, flat_out = nest.flatten(inputs), nest.flatten(output)
        if len(flat_in) != len(flat_out):
            raise ValueError("ResidualWrapper: the cell's output structure %s does not match "
                             "its inputs' %s" % (output, inputs))
        for i, o in zip(flat_in, flat_out):
            i.shape.assert_is_compatible_with(o.shape)
        return nest.pack_sequence_as(output, [i + o for i, o in zip(flat_in, flat_out)]), \
            new_state


class DeviceWrapper(_Wrapper):
    """Runs the cell under ``tf.device(device)``.

    Args:
        cell: The RNN cell wrapped.
        device: The device string (accepted; flowgrad runs on the CPU).
    """

    def __init__(self, cell: Any, device: str):
        super().__init__(cell)
        self._device = device

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> tuple:
        with device(self._device):
            return self._cell(inputs, state, scope=scope)


def _default_state_filter(substate: Any) -> Any:
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return True


def _state_mask(visitor: Any, state: Any) -> list:
    """For each leaf of ``state``, whether dropout applies (TF's state filter visitor: a bool
    for a whole sub-structure, or a structure of bools one level down)."""
    decision = visitor(state)
    if isinstance(decision, bool):
        return [decision] * len(nest.flatten(state))
    if not nest.is_nested(state):
        return [bool(decision)]
    out: list = []
    for child, d in zip(nest._children(state), nest._children(decision)):
        out.extend(_state_mask(visitor, child) if d else [False] * len(nest.flatten(child)))
    return out


def _prebuild(cell: Any, inputs_shape: TensorShape) -> None:
    """Creates ``cell``'s variables for inputs of ``inputs_shape`` if it knows how."""
    if hasattr(cell, "prebuild"):
        cell.prebuild(inputs_shape)


__all__ = ["RNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
           "DropoutWrapper", "ResidualWrapper", "DeviceWrapper", "LSTMStateTuple",
           "assert_like_rnncell"]
