"""TF 1.15's ``tf.contrib.seq2seq`` attention: ``BahdanauAttention`` (additive, optionally
weight-normalized), ``LuongAttention`` (multiplicative, optionally scaled), their monotonic
variants, and ``AttentionWrapper``, the RNN cell that attends over the memory after each step
of the cell it wraps. Variable names are TF 1.15's: ``memory_layer/kernel`` where the
mechanism is made; ``<wrapper>/bahdanau_attention/{query_layer/kernel, attention_v,
attention_g, attention_b}``, ``<wrapper>/luong_attention/attention_g`` and
``<wrapper>/attention_layer/kernel`` inside the wrapper's scope (``attention_wrapper``)."""
from __future__ import annotations

import collections
import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.compat import v1 as _tf
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.rnn.cells import RNNCell, _zero_state, assert_like_rnncell

__all__ = ["AttentionMechanism", "AttentionWrapper", "AttentionWrapperState",
           "LuongAttention", "BahdanauAttention", "hardmax", "safe_cumprod",
           "monotonic_attention", "BahdanauMonotonicAttention", "LuongMonotonicAttention"]


class AttentionMechanism:
    """The base class of attention mechanisms."""

    @property
    def alignments_size(self) -> Any:
        raise NotImplementedError

    @property
    def state_size(self) -> Any:
        raise NotImplementedError


def _prepare_memory(memory: Any, memory_sequence_length: Any,
                    check_inner_dims_defined: bool) -> Any:
    """The memory, zeroed past each entry's ``memory_sequence_length``."""
    memory = nest.map_structure(lambda m: _tf.convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is not None:
        memory_sequence_length = _tf.convert_to_tensor(memory_sequence_length,
                                                       name="memory_sequence_length")
    if check_inner_dims_defined:
        def check_dims(m: Any) -> None:
            if not m.get_shape()[2:].is_fully_defined():
                raise ValueError("Expected memory %s to have fully defined inner dims, but saw "
                                 "shape: %s" % (m.name, m.get_shape()))
        nest.map_structure(check_dims, memory)
    if memory_sequence_length is None:
        return memory
    first = nest.flatten(memory)[0]
    seq_len_mask = _tf.sequence_mask(memory_sequence_length, maxlen=_tf.shape(first)[1],
                                     dtype=first.dtype)

    def maybe_mask(m: Any) -> Any:
        rank = m.get_shape().ndims
        extra_ones = _tf.ones([rank - 2], dtype=_tf.int32)
        mask = _tf.reshape(seq_len_mask, _tf.concat((_tf.shape(seq_len_mask), extra_ones), 0))
        return m * mask
    return nest.map_structure(maybe_mask, memory)


def _maybe_mask_score(score: Any, memory_sequence_length: Any, score_mask_value: Any) -> Any:
    if memory_sequence_length is None:
        return score
    message = "All values in memory_sequence_length must greater than zero."
    with _tf.control_dependencies([_tf.assert_positive(memory_sequence_length,
                                                       message=message)]):
        score_mask = _tf.sequence_mask(memory_sequence_length, maxlen=_tf.shape(score)[1])
        score_mask_values = score_mask_value * _tf.ones_like(score)
        return _tf.where(score_mask, score, score_mask_values)


def _zeros(size: Any, batch_size: Any, dtype: DTypeLike) -> Any:
    """Zeros of [batch_size, size], where ``size`` may be a tensor (an unknown memory length)."""
    if isinstance(size, TensorBase):
        return _tf.zeros(_tf.stack([_tf.cast(batch_size, _tf.int32), size]), dtype=dtype)
    return _zero_state(size, batch_size, _tf.as_dtype(dtype))


def _is_layer(layer: Any) -> bool:
    return layer is None or callable(layer)


class _BaseAttentionMechanism(AttentionMechanism):
    """What the mechanisms share: the memory (``values``), its projection (``keys``) by the
    memory layer, and the masked probability function."""

    def __init__(self, query_layer: Any, memory: Any, probability_fn: Callable,
                 memory_sequence_length: TensorLike | None = None, memory_layer: Any = None,
                 check_inner_dims_defined: bool = True, score_mask_value: float | None = None,
                 custom_key_value_fn: Callable | None = None, name: str | None = None):
        if not _is_layer(query_layer):
            raise TypeError("query_layer is not a Layer: %s" % type(query_layer).__name__)
        if not _is_layer(memory_layer):
            raise TypeError("memory_layer is not a Layer: %s" % type(memory_layer).__name__)
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = getattr(memory_layer, "dtype", None)
        if not callable(probability_fn):
            raise TypeError("probability_fn must be callable, saw type: %s"
                            % type(probability_fn).__name__)
        if score_mask_value is None:
            score_mask_value = _tf.as_dtype(
                self._memory_layer.dtype if self._memory_layer is not None
                and self._memory_layer.dtype is not None else _tf.float32
            ).as_numpy_dtype(-np.inf)
        self._probability_fn = lambda score, prev: probability_fn(
            _maybe_mask_score(score, memory_sequence_length, score_mask_value), prev)
        with _tf.name_scope(name, "BaseAttentionMechanismInit", nest.flatten(memory)):
            self._values = _prepare_memory(memory, memory_sequence_length,
                                           check_inner_dims_defined)
            self._keys = (self.memory_layer(self._values) if self.memory_layer is not None
                          else self._values)
            if custom_key_value_fn is not None:
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = (self._keys.shape.as_list()[0]
                                or _tf.shape(self._keys)[0])
            self._alignments_size = (self._keys.shape.as_list()[1]
                                     or _tf.shape(self._keys)[1])

    @property
    def memory_layer(self) -> Any:
        """The layer that projects the memory to the keys (None: the keys are the memory)."""
        return self._memory_layer

    @property
    def query_layer(self) -> Any:
        """The layer that projects the query (None: the query as it is)."""
        return self._query_layer

    @property
    def values(self) -> Any:
        """The (masked) memory: what the alignments weigh."""
        return self._values

    @property
    def keys(self) -> Any:
        """The projected memory: what the query is scored against."""
        return self._keys

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def alignments_size(self) -> Any:
        return self._alignments_size

    @property
    def state_size(self) -> Any:
        return self._alignments_size

    def initial_alignments(self, batch_size: Any, dtype: DTypeLike) -> Any:
        """Zero alignments: [batch_size, max_time].

        Args:
          batch_size: The batch size.
          dtype: Their dtype.

        Returns:
          The zeros.
        """
        return _zeros(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size: Any, dtype: DTypeLike) -> Any:
        """The mechanism's first state: its initial alignments.

        Args:
          batch_size: The batch size.
          dtype: Its dtype.

        Returns:
          The zeros.
        """
        return self.initial_alignments(batch_size, dtype)


def _luong_score(query: Any, keys: Any, scale: bool) -> Any:
    depth = query.get_shape().as_list()[-1]
    key_units = keys.get_shape().as_list()[-1]
    if depth != key_units:
        raise ValueError("Incompatible or unknown inner dimensions between query and keys.  "
                         "Query (%s) has units: %s.  Keys (%s) have units: %s.  Perhaps you "
                         "need to set num_units to the keys' dimension (%s)?"
                         % (query, depth, keys, key_units, key_units))
    dtype = query.dtype
    score = _tf.squeeze(_tf.matmul(_tf.expand_dims(query, 1), keys, transpose_b=True), [1])
    if scale:
        g = _tf.get_variable("attention_g", dtype=dtype, initializer=_tf.ones_initializer,
                             shape=())
        score = g * score
    return score


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative (Luong) attention: score = query . keys (times a learned scalar
    ``attention_g`` with ``scale``); the keys are the memory through a bias-free
    ``memory_layer`` of ``num_units``.

    Args:
      num_units: The depth of the keys (the query's depth must equal it).
      memory: [batch, max_time, ...] memory (the encoder's outputs).
      memory_sequence_length: [batch] lengths: later memory steps are masked.
      scale: Whether to scale the score by ``attention_g`` (initialized to 1).
      probability_fn: Maps scores to alignments (softmax when None).
      score_mask_value: The score of masked steps (-inf when None).
      dtype: The dtype of the layers (float32 when None).
      custom_key_value_fn: ``(keys, values) -> (keys, values)``.
      name: The name scope of the setup (``LuongAttention``).
    """

    def __init__(self, num_units: int, memory: Any,
                 memory_sequence_length: TensorLike | None = None, scale: bool = False,
                 probability_fn: Callable | None = None, score_mask_value: float | None = None,
                 dtype: DTypeLike | None = None, custom_key_value_fn: Callable | None = None,
                 name: str = "LuongAttention"):
        probability_fn = _tf.nn.softmax if probability_fn is None else probability_fn
        dtype = _tf.float32 if dtype is None else dtype
        super().__init__(
            query_layer=None,
            memory_layer=_tf.layers.Dense(num_units, name="memory_layer", use_bias=False,
                                          dtype=dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units = num_units
        self._scale = scale
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple:
        """Scores ``query`` against the keys.

        Args:
          query: [batch, num_units] (the wrapped cell's output).
          state: The previous alignments.

        Returns:
          ``(alignments, next_state)``, both [batch, max_time].
        """
        with _tf.variable_scope(None, "luong_attention", [query]):
            score = _luong_score(query, self._keys, self._scale)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _bahdanau_score(processed_query: Any, keys: Any, normalize: bool) -> Any:
    dtype = processed_query.dtype
    num_units = keys.shape.as_list()[2] or _tf.shape(keys)[2]
    processed_query = _tf.expand_dims(processed_query, 1)
    v = _tf.get_variable("attention_v", [num_units], dtype=dtype)
    if normalize:
        g = _tf.get_variable("attention_g", dtype=dtype,
                             initializer=_tf.constant_initializer(math.sqrt(1.0 / num_units)),
                             shape=())
        b = _tf.get_variable("attention_b", [num_units], dtype=dtype,
                             initializer=_tf.zeros_initializer())
        normed_v = g * v * _tf.rsqrt(_tf.reduce_sum(_tf.square(v)))
        return _tf.reduce_sum(normed_v * _tf.tanh(keys + processed_query + b), [2])
    return _tf.reduce_sum(v * _tf.tanh(keys + processed_query), [2])


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive (Bahdanau) attention: score = v . tanh(keys + query_layer(query)) (with
    ``normalize``: v weight-normalized as g * v / |v|, plus a bias b); the keys are the
    memory through a bias-free ``memory_layer``.

    Args:
      num_units: The depth of the keys and of the projected query.
      memory: [batch, max_time, ...] memory (the encoder's outputs).
      memory_sequence_length: [batch] lengths: later memory steps are masked.
      normalize: Whether to weight-normalize (``attention_g``, ``attention_b``).
      probability_fn: Maps scores to alignments (softmax when None).
      score_mask_value: The score of masked steps (-inf when None).
      dtype: The dtype of the layers (float32 when None).
      custom_key_value_fn: ``(keys, values) -> (keys, values)``.
      name: The name scope of the setup (``BahdanauAttention``).
    """

    def __init__(self, num_units: int, memory: Any,
                 memory_sequence_length: TensorLike | None = None, normalize: bool = False,
                 probability_fn: Callable | None = None, score_mask_value: float | None = None,
                 dtype: DTypeLike | None = None, custom_key_value_fn: Callable | None = None,
                 name: str = "BahdanauAttention"):
        probability_fn = _tf.nn.softmax if probability_fn is None else probability_fn
        dtype = _tf.float32 if dtype is None else dtype
        super().__init__(
            query_layer=_tf.layers.Dense(num_units, name="query_layer", use_bias=False,
                                         dtype=dtype),
            memory_layer=_tf.layers.Dense(num_units, name="memory_layer", use_bias=False,
                                          dtype=dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple:
        """Scores ``query`` against the keys.

        Args:
          query: [batch, query_depth] (the wrapped cell's output).
          state: The previous alignments.

        Returns:
          ``(alignments, next_state)``, both [batch, max_time].
        """
        with _tf.variable_scope(None, "bahdanau_attention", [query]):
            processed_query = self.query_layer(query) if self.query_layer else query
            score = _bahdanau_score(processed_query, self._keys, self._normalize)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def safe_cumprod(x: TensorLike, *args: Any, **kwargs: Any) -> Any:
    """``cumprod`` computed as exp(cumsum(log(x))), with x clipped to [tiny, 1].

    Args:
      x: The tensor.
      *args: ``tf.cumsum``'s further arguments.
      **kwargs: ``tf.cumsum``'s keyword arguments.

    Returns:
      The cumulative product.
    """
    with _tf.name_scope(None, "SafeCumprod", [x]):
        x = _tf.convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return _tf.exp(_tf.cumsum(_tf.log(_tf.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i: TensorLike, previous_attention: TensorLike,
                        mode: str) -> Any:
    """The expected monotonic alignments (Raffel et al., 2017).

    Args:
      p_choose_i: [batch, max_time] probabilities of choosing each memory step.
      previous_attention: [batch, max_time] previous alignments.
      mode: ``"recursive"``, ``"parallel"`` or ``"hard"``.

    Returns:
      [batch, max_time] alignments.

    Raises:
      ValueError: ``mode`` is none of the three.
    """
    p_choose_i = _tf.convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = _tf.convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        batch_size = _tf.shape(p_choose_i)[0]
        shifted_1mp_choose_i = _tf.concat(
            [_tf.ones((batch_size, 1), p_choose_i.dtype), 1 - p_choose_i[:, :-1]], 1)
        return p_choose_i * _tf.transpose(_tf.scan(
            lambda x, yz: _tf.reshape(yz[0] * x + yz[1], (batch_size,)),
            [_tf.transpose(shifted_1mp_choose_i), _tf.transpose(previous_attention)],
            _tf.zeros((batch_size,), p_choose_i.dtype)))
    if mode == "parallel":
        cumprod_1mp_choose_i = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        return p_choose_i * cumprod_1mp_choose_i * _tf.cumsum(
            previous_attention / _tf.clip_by_value(cumprod_1mp_choose_i, 1e-10, 1.0), axis=1)
    if mode == "hard":
        p_choose_i *= _tf.cumsum(previous_attention, axis=1)
        return p_choose_i * _tf.cumprod(1 - p_choose_i, axis=1, exclusive=True)
    raise ValueError("mode must be 'recursive', 'parallel', or 'hard'.")


def _monotonic_probability_fn(score: Any, previous_alignments: Any, sigmoid_noise: float,
                              mode: str, seed: int | None = None) -> Any:
    if sigmoid_noise > 0:
        score += sigmoid_noise * _tf.random_normal(_tf.shape(score), dtype=score.dtype,
                                                   seed=seed)
    if mode == "hard":
        p_choose_i = _tf.cast(score > 0, score.dtype)
    else:
        p_choose_i = _tf.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


class _BaseMonotonicAttentionMechanism(_BaseAttentionMechanism):
    """Monotonic mechanisms start with all attention on the first memory step."""

    def initial_alignments(self, batch_size: Any, dtype: DTypeLike) -> Any:
        """One-hot alignments on the first memory step: [batch_size, max_time].

        Args:
          batch_size: The batch size.
          dtype: Their dtype.

        Returns:
          The alignments.
        """
        return _tf.one_hot(_tf.zeros((batch_size,), dtype=_tf.int32), self._alignments_size,
                           dtype=dtype)


class BahdanauMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Monotonic additive attention: a Bahdanau score (always normalized-capable, with a
    scalar ``attention_score_bias`` initialized to ``score_bias_init``) through
    ``monotonic_attention``.

    Args:
      num_units: The depth of the keys and of the projected query.
      memory: [batch, max_time, ...] memory.
      memory_sequence_length: [batch] lengths.
      normalize: Whether to weight-normalize.
      score_mask_value: The score of masked steps (-inf when None).
      sigmoid_noise: The standard deviation of the noise added to scores.
      sigmoid_noise_seed: The noise's seed.
      score_bias_init: The initial score bias.
      mode: ``"parallel"``, ``"recursive"`` or ``"hard"``.
      dtype: The dtype of the layers (float32 when None).
      name: The name scope of the setup.
    """

    def __init__(self, num_units: int, memory: Any,
                 memory_sequence_length: TensorLike | None = None, normalize: bool = False,
                 score_mask_value: float | None = None, sigmoid_noise: float = 0.0,
                 sigmoid_noise_seed: int | None = None, score_bias_init: float = 0.0,
                 mode: str = "parallel", dtype: DTypeLike | None = None,
                 name: str = "BahdanauMonotonicAttention"):
        dtype = _tf.float32 if dtype is None else dtype
        wrapped = functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise,
                                    mode=mode, seed=sigmoid_noise_seed)
        super().__init__(
            query_layer=_tf.layers.Dense(num_units, name="query_layer", use_bias=False,
                                         dtype=dtype),
            memory_layer=_tf.layers.Dense(num_units, name="memory_layer", use_bias=False,
                                          dtype=dtype),
            memory=memory, probability_fn=wrapped, memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value, name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name
        self._score_bias_init = score_bias_init

    def __call__(self, query: Any, state: Any) -> tuple:
        """Scores ``query`` against the keys; returns ``(alignments, next_state)``.

        Args:
          query: [batch, query_depth].
          state: The previous alignments.

        Returns:
          ``(alignments, next_state)``.
        """
        with _tf.variable_scope(None, "bahdanau_monotonic_attention", [query]):
            processed_query = self.query_layer(query) if self.query_layer else query
            score = _bahdanau_score(processed_query, self._keys, self._normalize)
            score_bias = _tf.get_variable("attention_score_bias", dtype=processed_query.dtype,
                                          initializer=self._score_bias_init)
            score += score_bias
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class LuongMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Monotonic multiplicative attention: a Luong score plus a scalar
    ``attention_score_bias`` through ``monotonic_attention``.

    Args:
      num_units: The depth of the keys.
      memory: [batch, max_time, ...] memory.
      memory_sequence_length: [batch] lengths.
      scale: Whether to scale the score by ``attention_g``.
      score_mask_value: The score of masked steps (-inf when None).
      sigmoid_noise: The standard deviation of the noise added to scores.
      sigmoid_noise_seed: The noise's seed.
      score_bias_init: The initial score bias.
      mode: ``"parallel"``, ``"recursive"`` or ``"hard"``.
      dtype: The dtype of the layers (float32 when None).
      name: The name scope of the setup.
    """

    def __init__(self, num_units: int, memory: Any,
                 memory_sequence_length: TensorLike | None = None, scale: bool = False,
                 score_mask_value: float | None = None, sigmoid_noise: float = 0.0,
                 sigmoid_noise_seed: int | None = None, score_bias_init: float = 0.0,
                 mode: str = "parallel", dtype: DTypeLike | None = None,
                 name: str = "LuongMonotonicAttention"):
        dtype = _tf.float32 if dtype is None else dtype
        wrapped = functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise,
                                    mode=mode, seed=sigmoid_noise_seed)
        super().__init__(
            query_layer=None,
            memory_layer=_tf.layers.Dense(num_units, name="memory_layer", use_bias=False,
                                          dtype=dtype),
            memory=memory, probability_fn=wrapped, memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value, name=name)
        self._num_units = num_units
        self._scale = scale
        self._score_bias_init = score_bias_init
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple:
        """Scores ``query`` against the keys; returns ``(alignments, next_state)``.

        Args:
          query: [batch, num_units].
          state: The previous alignments.

        Returns:
          ``(alignments, next_state)``.
        """
        with _tf.variable_scope(None, "luong_monotonic_attention", [query]):
            score = _luong_score(query, self._keys, self._scale)
            score_bias = _tf.get_variable("attention_score_bias", dtype=query.dtype,
                                          initializer=self._score_bias_init)
            score += score_bias
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState", ("cell_state", "attention", "time", "alignments",
                                  "alignment_history", "attention_state"))):
    """The state of an ``AttentionWrapper``.

    Args:
      cell_state: The wrapped cell's state.
      attention: The attention emitted at the previous step.
      time: The int32 step count.
      alignments: The previous alignments (a tuple of them with several mechanisms).
      alignment_history: TensorArrays of every step's alignments (with
        ``alignment_history=True``), else ``()``.
      attention_state: The mechanisms' states.
    """

    __slots__ = ()

    def clone(self, **kwargs: Any) -> AttentionWrapperState:
        """A copy with the fields of ``kwargs`` replaced (typically
        ``cell_state=encoder_state``), each keeping the old field's static shape.

        Args:
          **kwargs: The fields to replace.

        Returns:
          The new state.
        """
        def with_same_shape(old: Any, new: Any) -> Any:
            if isinstance(old, TensorBase) and isinstance(new, TensorBase):
                if not _tf.executing_eagerly():
                    new.set_shape(new.shape.merge_with(old.shape))
            return new
        return nest.map_structure(with_same_shape, self, super()._replace(**kwargs))


def hardmax(logits: TensorLike, name: str | None = None) -> Any:
    """One-hot of the argmax of the last axis.

    Args:
      logits: The scores.
      name: The name scope (``Hardmax``).

    Returns:
      The one-hot tensor, of ``logits``' dtype.
    """
    with _tf.name_scope(name, "Hardmax", [logits]):
        logits = _tf.convert_to_tensor(logits, name="logits")
        depth = logits.get_shape().as_list()[-1] or _tf.shape(logits)[-1]
        return _tf.one_hot(_tf.argmax(logits, -1), depth, dtype=logits.dtype)


def _compute_attention(attention_mechanism: Any, cell_output: Any, attention_state: Any,
                       attention_layer: Any) -> tuple:
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    context = _tf.squeeze(_tf.matmul(_tf.expand_dims(alignments, 1),
                                     attention_mechanism.values), [1])
    if attention_layer is not None:
        attention = attention_layer(_tf.concat([cell_output, context], 1))
    else:
        attention = context
    return attention, alignments, next_attention_state


class AttentionWrapper(RNNCell):
    """Wraps an RNN cell with attention: each step feeds the cell ``cell_input_fn(inputs,
    previous attention)`` (their concatenation), scores the cell's output against the
    memory, and emits the attention -- the context vector, or ``attention_layer(concat(cell
    output, context))`` (a bias-free ``attention_layer`` of ``attention_layer_size``).

    Args:
      cell: The RNN cell wrapped.
      attention_mechanism: An ``AttentionMechanism`` or a list of them.
      attention_layer_size: The depth of the attention layer (one per mechanism); None
        emits the context itself.
      alignment_history: Whether to keep every step's alignments in a TensorArray.
      cell_input_fn: ``(inputs, attention) -> cell_inputs`` (concatenation when None).
      output_attention: Whether the output is the attention (Luong) or the cell's output
        (Bahdanau).
      initial_cell_state: The wrapped cell's starting state for ``zero_state``.
      name: The layer's name (its variable scope, ``attention_wrapper``).
      attention_layer: Layers instead of ``attention_layer_size`` (one per mechanism).
      attention_fn: ``(mechanism, cell_output, attention_state, attention_layer) ->
        (attention, alignments, next_attention_state)``.

    Raises:
      TypeError: a mechanism is not an ``AttentionMechanism`` or ``cell_input_fn`` not
        callable.
      ValueError: both or mismatched ``attention_layer_size`` and ``attention_layer``.
    """

    def __init__(self, cell: Any, attention_mechanism: Any,
                 attention_layer_size: Any = None, alignment_history: bool = False,
                 cell_input_fn: Callable | None = None, output_attention: bool = True,
                 initial_cell_state: Any = None, name: str | None = None,
                 attention_layer: Any = None, attention_fn: Callable | None = None):
        super().__init__(name=name)
        assert_like_rnncell("cell", cell)
        if isinstance(attention_mechanism, (list, tuple)):
            self._is_multi = True
            attention_mechanisms = list(attention_mechanism)
            for mechanism in attention_mechanisms:
                if not isinstance(mechanism, AttentionMechanism):
                    raise TypeError("attention_mechanism must contain only instances of "
                                    "AttentionMechanism, saw type: %s"
                                    % type(mechanism).__name__)
        else:
            self._is_multi = False
            if not isinstance(attention_mechanism, AttentionMechanism):
                raise TypeError("attention_mechanism must be an AttentionMechanism or list of "
                                "multiple AttentionMechanism instances, saw type: %s"
                                % type(attention_mechanism).__name__)
            attention_mechanisms = [attention_mechanism]
        if cell_input_fn is None:
            def cell_input_fn(inputs: Any, attention: Any) -> Any:
                return _tf.concat([inputs, attention], -1)
        elif not callable(cell_input_fn):
            raise TypeError("cell_input_fn must be callable, saw type: %s"
                            % type(cell_input_fn).__name__)
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be "
                             "set")
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                          else (attention_layer_size,))
            if len(sizes) != len(attention_mechanisms):
                raise ValueError("If provided, attention_layer_size must contain exactly one "
                                 "integer per attention_mechanism, saw: %d vs %d"
                                 % (len(sizes), len(attention_mechanisms)))
            self._attention_layers = tuple(
                _tf.layers.Dense(size, name="attention_layer", use_bias=False,
                                 dtype=mechanism.dtype)
                for size, mechanism in zip(sizes, attention_mechanisms))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            self._attention_layers = tuple(attention_layer if isinstance(attention_layer,
                                                                         (list, tuple))
                                           else (attention_layer,))
            if len(self._attention_layers) != len(attention_mechanisms):
                raise ValueError("If provided, attention_layer must contain exactly one layer "
                                 "per attention_mechanism, saw: %d vs %d"
                                 % (len(self._attention_layers), len(attention_mechanisms)))
            self._attention_layer_size = sum(
                layer.compute_output_shape(
                    [None, cell.output_size + mechanism.values.shape.as_list()[-1]]
                ).as_list()[-1]
                for layer, mechanism in zip(self._attention_layers, attention_mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(m.values.get_shape().as_list()[-1]
                                             for m in attention_mechanisms)
        self._attention_fn = _compute_attention if attention_fn is None else attention_fn
        self._cell = cell
        self._attention_mechanisms = attention_mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        with _tf.name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                self._initial_cell_state = nest.map_structure(
                    lambda s: _tf.identity(s, name="check_initial_cell_state"),
                    initial_cell_state)

    def _item_or_tuple(self, seq: Any) -> Any:
        t = tuple(seq)
        return t if self._is_multi else t[0]

    @property
    def output_size(self) -> Any:
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self) -> AttentionWrapperState:
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=_tf.TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(a.alignments_size
                                           for a in self._attention_mechanisms),
            attention_state=self._item_or_tuple(a.state_size
                                                for a in self._attention_mechanisms),
            alignment_history=self._item_or_tuple(
                a.alignments_size if self._alignment_history else ()
                for a in self._attention_mechanisms))

    def _check_batch(self, batch_size: Any, message: str) -> None:
        static = _tf.get_static_value(_tf.convert_to_tensor(batch_size))
        for mechanism in self._attention_mechanisms:
            other = _tf.get_static_value(_tf.convert_to_tensor(mechanism.batch_size))
            if static is not None and other is not None and int(static) != int(other):
                raise ValueError("%s (%d vs %d)" % (message, int(static), int(other)))

    def zero_state(self, batch_size: Any, dtype: DTypeLike) -> AttentionWrapperState:
        """The first state: the wrapped cell's zero (or ``initial_cell_state``), zero
        attention, the mechanisms' initial alignments and states, time 0 and empty
        alignment histories.

        Args:
          batch_size: The batch size (``encoder batch * beam_width`` for a beam search).
          dtype: The state's dtype.

        Returns:
          An ``AttentionWrapperState``.

        Raises:
          ValueError: ``batch_size`` differs from the memory's (statically known) batch size.
        """
        with _tf.name_scope(None, type(self).__name__ + "ZeroState", [batch_size]):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            self._check_batch(batch_size,
                              "When calling zero_state of AttentionWrapper %s: Non-matching "
                              "batch sizes between the memory (encoder output) and the "
                              "requested batch size.  Are you using the BeamSearchDecoder?  If "
                              "so, make sure your encoder output has been tiled to beam_width "
                              "via tf.contrib.seq2seq.tile_batch, and the batch_size= argument "
                              "passed to zero_state is batch_size * beam_width." % self.name)
            cell_state = nest.map_structure(lambda s: _tf.identity(s, name="checked_cell_state"),
                                            cell_state)
            initial_alignments = [m.initial_alignments(batch_size, dtype)
                                  for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state, time=_tf.zeros([], dtype=_tf.int32),
                attention=_zero_state(self._attention_layer_size, batch_size,
                                      _tf.as_dtype(dtype)),
                alignments=self._item_or_tuple(initial_alignments),
                attention_state=self._item_or_tuple(m.initial_state(batch_size, dtype)
                                                    for m in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    _tf.TensorArray(dtype, size=0, dynamic_size=True,
                                    element_shape=alignment.shape)
                    if self._alignment_history else ()
                    for alignment in initial_alignments))

    def build(self, inputs_shape: Any) -> None:
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple:
        """One step: the cell on ``cell_input_fn(inputs, state.attention)``, then attention.

        Args:
          inputs: The step's inputs.
          state: An ``AttentionWrapperState``.

        Returns:
          ``(output, next_state)``: the attention (or the cell's output without
          ``output_attention``) and the next ``AttentionWrapperState``.

        Raises:
          TypeError: ``state`` is not an ``AttentionWrapperState``.
        """
        if not isinstance(state, AttentionWrapperState):
            raise TypeError("Expected state to be instance of AttentionWrapperState. Received "
                            "type %s instead." % type(state))
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        self._check_batch(cell_output.shape.as_list()[0] or _tf.shape(cell_output)[0],
                          "When applying AttentionWrapper %s: Non-matching batch sizes "
                          "between the memory (encoder output) and the query (decoder "
                          "output).  Are you using the BeamSearchDecoder?  You may need to "
                          "tile your memory input via the tf.contrib.seq2seq.tile_batch "
                          "function with argument multiple=beam_width." % self.name)
        cell_output = _tf.identity(cell_output, name="checked_cell_output")
        if self._is_multi:
            previous_attention_state = state.attention_state
            previous_alignment_history = state.alignment_history
        else:
            previous_attention_state = [state.attention_state]
            previous_alignment_history = [state.alignment_history]
        all_alignments, all_attentions, all_attention_states, all_histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                mechanism, cell_output, previous_attention_state[i],
                self._attention_layers[i] if self._attention_layers else None)
            history = (previous_alignment_history[i].write(state.time, alignments)
                       if self._alignment_history else ())
            all_attention_states.append(next_attention_state)
            all_alignments.append(alignments)
            all_attentions.append(attention)
            all_histories.append(history)
        attention = _tf.concat(all_attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(all_attention_states),
            alignments=self._item_or_tuple(all_alignments),
            alignment_history=self._item_or_tuple(all_histories))
        if self._output_attention:
            return attention, next_state
        return cell_output, next_state
