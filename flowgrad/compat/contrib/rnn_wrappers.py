"""TensorFlow 1.15's ``tf.contrib.rnn`` wrappers of ``core_rnn_cell``: ``EmbeddingWrapper``
(ids in, embedded), ``InputProjectionWrapper`` and ``OutputProjectionWrapper`` (a linear map
before or after the cell), and ``linear`` (``_linear``: one kernel over the concatenated
arguments and a bias, variables ``kernel`` and ``bias`` of the current variable scope), which
``tf.contrib.legacy_seq2seq`` builds on. Each wrapper is a layer of its own (its variables, and
the wrapped cell's, are under ``embedding_wrapper/``, ``output_projection_wrapper/``, ...)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import array_ops, init_ops, math_ops
from flowgrad.ops.indexing_ops import embedding_lookup
from flowgrad.ops.nn_ops import bias_add
from flowgrad.ops.variable_scope import get_variable, get_variable_scope
from flowgrad.rnn.cells import RNNCell, assert_like_rnncell


def linear(args: Any, output_size: int, bias: bool, bias_initializer: Any = None,
           kernel_initializer: Any = None) -> Any:
    """``concat(args, 1) @ kernel + bias``, with the variables ``kernel`` [total input size,
    output_size] and ``bias`` [output_size] (zeros) of the current variable scope.

    Args:
        args: A 2-D tensor or a list of them (batch x n).
        output_size: The number of output columns.
        bias: Whether to add a bias.
        bias_initializer: The bias's initializer; zeros when None.
        kernel_initializer: The kernel's initializer; the scope's default when None.

    Returns:
        A [batch, output_size] tensor.

    Raises:
        ValueError: If ``args`` is empty or an argument's last dimension is unknown.
    """
    if args is None or (nest.is_nested(args) and not args):
        raise ValueError("`args` must be specified")
    if not nest.is_nested(args):
        args = [args]
    args = [convert_to_tensor(a) for a in args]
    total = 0
    for a in args:
        if a.shape.ndims != 2:
            raise ValueError("linear is expecting 2D arguments: %s" % [x.shape for x in args])
        if a.shape.as_list()[1] is None:
            raise ValueError("linear expects shape[1] to be provided for shape %s, but saw %s"
                             % (a.shape, a.shape.as_list()[1]))
        total += a.shape.as_list()[1]
    dtype = args[0].dtype
    kernel = get_variable("kernel", [total, output_size], dtype=dtype,
                          initializer=kernel_initializer)
    res = math_ops.matmul(args[0] if len(args) == 1 else array_ops.concat(args, 1), kernel)
    if not bias:
        return res
    biases = get_variable("bias", [output_size], dtype=dtype,
                          initializer=bias_initializer or init_ops.constant_initializer(0.0))
    return bias_add(res, biases)


class _Wrapper(RNNCell):
    """What the three wrappers share: the wrapped cell's state, size and zero state; no
    weights of their own to build (``linear``/``get_variable`` make them in ``call``)."""

    _cell: Any

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """The wrapped cell's zero state."""
        return self._cell.zero_state(batch_size, dtype)

    def build(self, inputs_shape: Any) -> None:
        self.built = True


class EmbeddingWrapper(_Wrapper):
    """Embeds the integer inputs (``embedding`` [embedding_classes, embedding_size], uniform in
    +-sqrt(3) unless the scope or ``initializer`` says otherwise) before the cell.

    Args:
        cell: The RNN cell wrapped.
        embedding_classes: How many ids there are.
        embedding_size: The size of the embedding vectors.
        initializer: The embedding's initializer.
        reuse: Whether to reuse the variables of an earlier wrapper of the same name.

    Raises:
        ValueError: If ``embedding_classes`` or ``embedding_size`` is not positive.
    """

    def __init__(self, cell: Any, embedding_classes: int, embedding_size: int,
                 initializer: Any = None, reuse: bool | None = None):
        super().__init__(_reuse=reuse)
        assert_like_rnncell("cell", cell)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError("Both embedding_classes and embedding_size must be > 0: %d, %d."
                             % (embedding_classes, embedding_size))
        self._cell = cell
        self._embedding_classes = embedding_classes
        self._embedding_size = embedding_size
        self._initializer = initializer

    def call(self, inputs: Any, state: Any) -> tuple:
        initializer = self._initializer or get_variable_scope().initializer or \
            init_ops.random_uniform_initializer(-math.sqrt(3), math.sqrt(3))
        data_type = nest.flatten(state)[0].dtype
        embedding = get_variable("embedding", [self._embedding_classes, self._embedding_size],
                                 initializer=initializer, dtype=data_type)
        embedded = embedding_lookup(embedding, array_ops.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class InputProjectionWrapper(_Wrapper):
    """A linear map (``kernel``, ``bias``) of the inputs to ``num_proj`` before the cell.

    Args:
        cell: The RNN cell wrapped.
        num_proj: The size of the projected inputs.
        activation: Applied to the projection when given.
        input_size: Deprecated and unused (TF 1.15's signature).
        reuse: Whether to reuse the variables of an earlier wrapper of the same name.
    """

    def __init__(self, cell: Any, num_proj: int, activation: Callable | None = None,
                 input_size: Any = None, reuse: bool | None = None):
        super().__init__(_reuse=reuse)
        assert_like_rnncell("cell", cell)
        self._cell = cell
        self._num_proj = num_proj
        self._activation = activation

    def call(self, inputs: Any, state: Any) -> tuple:
        projected = linear(inputs, self._num_proj, True)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(_Wrapper):
    """A linear map (``kernel``, ``bias``) of the cell's output to ``output_size``.

    Args:
        cell: The RNN cell wrapped.
        output_size: The size of the projected output.
        activation: Applied to the projection when given.
        reuse: Whether to reuse the variables of an earlier wrapper of the same name.

    Raises:
        ValueError: If ``output_size`` is not positive.
    """

    def __init__(self, cell: Any, output_size: int, activation: Callable | None = None,
                 reuse: bool | None = None):
        super().__init__(_reuse=reuse)
        assert_like_rnncell("cell", cell)
        if output_size < 1:
            raise ValueError("Parameter output_size must be > 0: %d." % output_size)
        self._cell = cell
        self._output_size = output_size
        self._activation = activation

    @property
    def output_size(self) -> int:
        return self._output_size

    def call(self, inputs: Any, state: Any) -> tuple:
        output, new_state = self._cell(inputs, state)
        projected = linear(output, self._output_size, True)
        if self._activation:
            projected = self._activation(projected)
        return projected, new_state


__all__ = ["EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper", "linear"]
