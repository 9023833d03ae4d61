"""TF 1.15's ``tf.contrib.seq2seq.BeamSearchDecoder``: keeps the ``beam_width`` best
hypotheses of each batch entry, scored by their summed log-probabilities divided by the GNMT
length penalty ((5 + length) / 6) ** ``length_penalty_weight`` (plus the coverage penalty of
an attentional cell's alignments); finished beams only extend with ``end_token``. Its
``finalize`` follows the parent pointers (``gather_tree``) to whole sequences:
``FinalBeamSearchDecoderOutput(predicted_ids, beam_search_decoder_output)``. The encoder's
outputs and state reach the decoder tiled by ``tile_batch``."""
from __future__ import annotations

import collections
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.compat import v1 as _tf
from flowgrad.compat.contrib.seq2seq import attention_wrapper
from flowgrad.compat.contrib.seq2seq.basic_decoder import (_check_output_layer,
                                                           _output_layer_size)
from flowgrad.compat.contrib.seq2seq.decoder import Decoder
from flowgrad.compat.contrib.seq2seq.helper import _embedding_fn
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.beam_search_ops import gather_tree
from flowgrad.rnn.cells import assert_like_rnncell

__all__ = ["BeamSearchDecoderOutput", "BeamSearchDecoderState", "BeamSearchDecoder",
           "FinalBeamSearchDecoderOutput", "tile_batch", "gather_tree"]


class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths",
                                   "accumulated_attention_probs"))):
    """The state of a beam search.

    Args:
      cell_state: The cell's state, [batch, beam_width, ...] per tensor.
      log_probs: [batch, beam_width] summed log-probabilities.
      finished: [batch, beam_width] whether each beam has emitted the end token.
      lengths: [batch, beam_width] int64 lengths.
      accumulated_attention_probs: The summed alignments (coverage penalty), else ``()``.
    """

    __slots__ = ()


class BeamSearchDecoderOutput(collections.namedtuple(
        "BeamSearchDecoderOutput", ("scores", "predicted_ids", "parent_ids"))):
    """A step's beams (stacked over time by ``dynamic_decode``).

    Args:
      scores: [batch, beam_width] scores (length-penalized log-probabilities).
      predicted_ids: [batch, beam_width] int32 ids chosen.
      parent_ids: [batch, beam_width] int32 beams they continue.
    """

    __slots__ = ()


class FinalBeamSearchDecoderOutput(collections.namedtuple(
        "FinalBeamDecoderOutput", ["predicted_ids", "beam_search_decoder_output"])):
    """The results of a beam search.

    Args:
      predicted_ids: [batch, time, beam_width] (time-major with ``output_time_major``) whole
        sequences, the best beam first.
      beam_search_decoder_output: The per-step ``BeamSearchDecoderOutput``.
    """

    __slots__ = ()


def tile_batch(t: Any, multiplier: int, name: str | None = None) -> Any:
    """Repeats each batch entry ``multiplier`` times: [batch, ...] -> [batch * multiplier,
    ...] with entries t[0], t[0], ..., t[1], t[1], ... (for the beams of a beam search).

    Args:
      t: A tensor, or a structure of them (an LSTM state tuple, for example).
      multiplier: How many times each entry is repeated.
      name: The name scope (``tile_batch``).

    Returns:
      The tiled tensor(s).

    Raises:
      ValueError: a tensor's rank is unknown or 0.
    """
    flat_t = nest.flatten(t)
    with _tf.name_scope(name, "tile_batch", flat_t + [multiplier]):
        return nest.map_structure(lambda t_: _tile_batch(t_, multiplier), t)


def _tile_batch(t: Any, multiplier: int) -> Any:
    t = _tf.convert_to_tensor(t, name="t")
    if t.shape.ndims is None or t.shape.ndims < 1:
        raise ValueError("t must have statically known rank")
    shape_t = _tf.shape(t)
    tiling = [1] * (t.shape.ndims + 1)
    tiling[1] = multiplier
    first = t.shape.as_list()[0]
    tiled = _tf.tile(_tf.expand_dims(t, 1), tiling)
    tiled = _tf.reshape(tiled, _tf.concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
    tiled.set_shape(TensorShape([first * multiplier if first is not None else None]
                                ).concatenate(t.shape[1:]))
    return tiled


def _check_ndims(t: Any) -> None:
    if t.shape.ndims is None:
        raise ValueError("Expected tensor (%s) to have known rank, but ndims == None." % t)


def _as_shape(value: Any) -> TensorShape:
    if isinstance(value, TensorShape):
        return value
    if isinstance(value, TensorBase):
        static = _tf.get_static_value(value)
        if static is None:
            return TensorShape([None] * max(value.shape.num_elements() or 1, 1))
        value = static.tolist()
    if isinstance(value, int):
        return TensorShape([value])
    return TensorShape(value)


def _length_penalty(sequence_lengths: Any, penalty_factor: Any) -> Any:
    """((5 + lengths) / 6) ** penalty_factor (1.0 for a static 0 factor): GNMT's."""
    penalty_factor = _tf.convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static_penalty = _tf.get_static_value(penalty_factor)
    if static_penalty is not None and static_penalty == 0:
        return 1.0
    penalty_factor = _tf.cast(penalty_factor, _tf.float32)
    return _tf.div((5.0 + _tf.cast(sequence_lengths, _tf.float32)) ** penalty_factor,
                   (5.0 + 1.0) ** penalty_factor)


def _get_scores(log_probs: Any, sequence_lengths: Any, length_penalty_weight: Any,
                coverage_penalty_weight: Any, finished: Any,
                accumulated_attention_probs: Any) -> Any:
    length_penalty = _tf.cast(_length_penalty(sequence_lengths, length_penalty_weight),
                              log_probs.dtype)
    scores = log_probs / length_penalty
    coverage_penalty_weight = _tf.convert_to_tensor(coverage_penalty_weight,
                                                    name="coverage_penalty_weight")
    if coverage_penalty_weight.shape.ndims != 0:
        raise ValueError("coverage_penalty_weight should be a scalar, but saw shape: %s"
                         % coverage_penalty_weight.shape)
    if _tf.get_static_value(coverage_penalty_weight) == 0.0:
        return scores
    if accumulated_attention_probs is None:
        raise ValueError("accumulated_attention_probs can be None only if coverage penalty is "
                         "disabled.")
    accumulated_attention_probs = _tf.where(
        _tf.equal(accumulated_attention_probs, 0.0),
        _tf.ones_like(accumulated_attention_probs), accumulated_attention_probs)
    coverage_penalty = _tf.reduce_sum(
        _tf.log(_tf.minimum(accumulated_attention_probs, 1.0)), 2)
    coverage_penalty *= _tf.cast(finished, log_probs.dtype)
    weighted = coverage_penalty * _tf.cast(coverage_penalty_weight, log_probs.dtype)
    return scores + _tf.expand_dims(weighted, 2)


def _attention_probs_from_state(state: Any) -> Any:
    probs = state.alignments
    if isinstance(probs, tuple):
        probs = _tf.reduce_mean(_tf.concat([_tf.expand_dims(p, -1) for p in probs], -1), -1)
    return probs


def get_attention_probs(next_cell_state: Any, coverage_penalty_weight: Any) -> Any:
    """The alignments of an attentional cell state (averaged over its mechanisms and
    attention layers) for the coverage penalty; None when the penalty is off.

    Args:
      next_cell_state: The cell's state (an ``AttentionWrapperState`` or a tuple of states).
      coverage_penalty_weight: The coverage penalty's weight.

    Returns:
      [batch, beam_width, max_time] probabilities, or None.

    Raises:
      ValueError: the penalty is on but no state is attentional.
    """
    if _tf.get_static_value(_tf.convert_to_tensor(coverage_penalty_weight)) == 0.0:
        return None
    state_cls = attention_wrapper.AttentionWrapperState
    per_layer = []
    if isinstance(next_cell_state, state_cls):
        per_layer = [_attention_probs_from_state(next_cell_state)]
    elif isinstance(next_cell_state, tuple):
        per_layer = [_attention_probs_from_state(s) for s in next_cell_state
                     if isinstance(s, state_cls)]
    if not per_layer:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    if len(per_layer) == 1:
        return per_layer[0]
    return _tf.reduce_mean(_tf.concat([_tf.expand_dims(p, -1) for p in per_layer], -1), -1)


def _mask_probs(probs: Any, eos_token: Any, finished: Any) -> Any:
    """Finished beams put all their probability on ``eos_token`` (log 0) and none elsewhere
    (the dtype's lowest value)."""
    vocab_size = _tf.shape(probs)[2]
    finished_row = _tf.one_hot(eos_token, vocab_size, dtype=probs.dtype,
                               on_value=_tf.convert_to_tensor(0.0, dtype=probs.dtype),
                               off_value=probs.dtype.min)
    finished_probs = _tf.tile(_tf.reshape(finished_row, [1, 1, -1]),
                              _tf.concat([_tf.shape(finished), [1]], 0))
    finished_mask = _tf.tile(_tf.expand_dims(finished, 2), [1, 1, vocab_size])
    return _tf.where(finished_mask, finished_probs, probs)


def _tensor_gather_helper(gather_indices: Any, gather_from: Any, batch_size: Any,
                          range_size: Any, gather_shape: list, name: str | None = None) -> Any:
    with _tf.name_scope(name, "tensor_gather_helper"):
        range_ = _tf.expand_dims(_tf.range(batch_size) * range_size, 1)
        gather_indices = _tf.reshape(gather_indices + range_, [-1])
        output = _tf.gather(_tf.reshape(gather_from, gather_shape), gather_indices)
        final_shape = _tf.shape(gather_from)[:1 + len(gather_shape)]
        static_batch_size = _tf.get_static_value(_tf.convert_to_tensor(batch_size))
        final_static_shape = TensorShape(
            [None if static_batch_size is None else int(static_batch_size)]).concatenate(
                gather_from.shape[1:1 + len(gather_shape)])
        output = _tf.reshape(output, final_shape, name="output")
        output.set_shape(final_static_shape)
        return output


def _maybe_tensor_gather_helper(gather_indices: Any, gather_from: Any, batch_size: Any,
                                range_size: Any, gather_shape: list) -> Any:
    if isinstance(gather_from, _tf.TensorArray):
        return gather_from
    _check_ndims(gather_from)
    if gather_from.shape.ndims >= len(gather_shape):
        return _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size,
                                     gather_shape)
    return gather_from


def _gather_tree_from_array(t: Any, parent_ids: Any, sequence_length: Any) -> Any:
    """Reorders a stacked [time, batch * beam, ...] (or [time, batch, beam, ...]) array along
    the beams' parent pointers."""
    max_time = _tf.shape(parent_ids)[0]
    batch_size = _tf.shape(parent_ids)[1]
    beam_width = _tf.shape(parent_ids)[2]
    beam_ids = _tf.tile(_tf.reshape(_tf.range(beam_width), [1, 1, -1]),
                        [max_time, batch_size, 1])
    max_sequence_lengths = _tf.cast(_tf.reduce_max(sequence_length, axis=1), _tf.int32)
    sorted_beam_ids = gather_tree(beam_ids, parent_ids, max_sequence_lengths, beam_width + 1)
    in_bound_steps = _tf.transpose(_tf.sequence_mask(sequence_length, maxlen=max_time),
                                   perm=[2, 0, 1])
    sorted_beam_ids = _tf.where(in_bound_steps, sorted_beam_ids, beam_ids)
    range_ = _tf.expand_dims(_tf.range(batch_size) * beam_width, 1)
    gather_indices = _tf.reshape(sorted_beam_ids + range_, [max_time, -1])
    final_shape = _tf.shape(t)
    gather_from = _tf.reshape(t, [max_time, batch_size * beam_width, -1])
    ordered = _tf.gather(gather_from, gather_indices, axis=1, batch_dims=1)
    return _tf.reshape(ordered, final_shape)


def _beam_search_step(time: Any, logits: Any, next_cell_state: Any, beam_state: Any,
                      batch_size: Any, beam_width: int, end_token: Any,
                      length_penalty_weight: Any, coverage_penalty_weight: Any) -> tuple:
    static_batch_size = _tf.get_static_value(_tf.convert_to_tensor(batch_size))
    static_batch_size = None if static_batch_size is None else int(static_batch_size)
    prediction_lengths = beam_state.lengths
    previously_finished = beam_state.finished
    not_finished = _tf.logical_not(previously_finished)
    step_log_probs = _tf.nn.log_softmax(logits)
    step_log_probs = _mask_probs(step_log_probs, end_token, previously_finished)
    total_probs = _tf.expand_dims(beam_state.log_probs, 2) + step_log_probs
    vocab_size = logits.shape.as_list()[-1] or _tf.shape(logits)[-1]
    lengths_to_add = _tf.one_hot(indices=_tf.fill([batch_size, beam_width], end_token),
                                 depth=vocab_size, on_value=np.int64(0),
                                 off_value=np.int64(1), dtype=_tf.int64)
    add_mask = _tf.cast(not_finished, _tf.int64)
    lengths_to_add *= _tf.expand_dims(add_mask, 2)
    new_prediction_lengths = lengths_to_add + _tf.expand_dims(prediction_lengths, 2)
    accumulated_attention_probs = None
    attention_probs = get_attention_probs(next_cell_state, coverage_penalty_weight)
    if attention_probs is not None:
        attention_probs *= _tf.expand_dims(_tf.cast(not_finished, attention_probs.dtype), 2)
        accumulated_attention_probs = beam_state.accumulated_attention_probs + attention_probs
    scores = _get_scores(log_probs=total_probs, sequence_lengths=new_prediction_lengths,
                         length_penalty_weight=length_penalty_weight,
                         coverage_penalty_weight=coverage_penalty_weight,
                         finished=previously_finished,
                         accumulated_attention_probs=accumulated_attention_probs)
    scores_flat = _tf.reshape(scores, [batch_size, -1])
    next_beam_size = _tf.convert_to_tensor(beam_width, dtype=_tf.int32, name="beam_width")
    next_beam_scores, word_indices = _tf.nn.top_k(scores_flat, k=next_beam_size)
    next_beam_scores.set_shape([static_batch_size, beam_width])
    word_indices.set_shape([static_batch_size, beam_width])
    next_beam_probs = _tensor_gather_helper(word_indices, total_probs, batch_size,
                                            beam_width * vocab_size, [-1],
                                            name="next_beam_probs")
    next_word_ids = _tf.cast(_tf.floormod(word_indices, vocab_size, name="next_beam_word_ids"),
                             _tf.int32)
    next_beam_ids = _tf.cast(_tf.floordiv(word_indices, vocab_size), _tf.int32,
                             name="next_beam_parent_ids")
    previously_finished = _tensor_gather_helper(next_beam_ids, previously_finished, batch_size,
                                                beam_width, [-1])
    next_finished = _tf.logical_or(previously_finished, _tf.equal(next_word_ids, end_token),
                                   name="next_beam_finished")
    lengths_to_add = _tf.cast(_tf.logical_not(previously_finished), _tf.int64)
    next_prediction_len = _tensor_gather_helper(next_beam_ids, beam_state.lengths, batch_size,
                                                beam_width, [-1])
    next_prediction_len += lengths_to_add
    next_accumulated_attention_probs = ()
    if accumulated_attention_probs is not None:
        next_accumulated_attention_probs = _tensor_gather_helper(
            next_beam_ids, accumulated_attention_probs, batch_size, beam_width,
            [batch_size * beam_width, -1], name="next_accumulated_attention_probs")
    next_cell_state = nest.map_structure(
        lambda gather_from: _maybe_tensor_gather_helper(
            next_beam_ids, gather_from, batch_size, beam_width,
            [batch_size * beam_width, -1]),
        next_cell_state)
    next_state = BeamSearchDecoderState(
        cell_state=next_cell_state, log_probs=next_beam_probs, lengths=next_prediction_len,
        finished=next_finished, accumulated_attention_probs=next_accumulated_attention_probs)
    output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids,
                                     parent_ids=next_beam_ids)
    return output, next_state


class BeamSearchDecoder(Decoder):
    """A beam search decoder (run it with ``dynamic_decode``).

    Args:
      cell: An RNN cell; its state (and an attention mechanism's memory) must be tiled to
        ``batch * beam_width`` entries (``tile_batch``).
      embedding: The ``params`` of ``embedding_lookup``, or a function of the ids.
      start_tokens: An int32 [batch] vector: the first ids.
      end_token: The int32 scalar that ends a hypothesis.
      initial_state: The cell's starting state, of batch ``batch * beam_width``.
      beam_width: The number of beams.
      output_layer: A layer mapping the cell's output to logits.
      length_penalty_weight: GNMT's length penalty weight (0 disables it).
      coverage_penalty_weight: GNMT's coverage penalty weight (0 disables it).
      reorder_tensor_arrays: Whether TensorArrays of the final cell state (an attention
        history) are reordered along the beams' parents.

    Raises:
      TypeError: ``cell`` is not an RNN cell or ``output_layer`` not a layer.
      ValueError: ``start_tokens`` is not a vector or ``end_token`` not a scalar.
    """

    def __init__(self, cell: Any, embedding: Any, start_tokens: TensorLike,
                 end_token: TensorLike, initial_state: Any, beam_width: int,
                 output_layer: Any = None, length_penalty_weight: float = 0.0,
                 coverage_penalty_weight: float = 0.0, reorder_tensor_arrays: bool = True):
        assert_like_rnncell("cell", cell)
        _check_output_layer(output_layer)
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = _tf.convert_to_tensor(start_tokens, dtype=_tf.int32,
                                                   name="start_tokens")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = _tf.convert_to_tensor(end_token, dtype=_tf.int32, name="end_token")
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = _tf.size(start_tokens)
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        self._initial_cell_state = nest.map_structure(self._maybe_split_batch_beams,
                                                      initial_state, self._cell.state_size)
        self._start_tokens = _tf.tile(_tf.expand_dims(self._start_tokens, 1),
                                      [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = _tf.one_hot(_tf.zeros([self._batch_size], dtype=_tf.int32),
                                     depth=self._beam_width, on_value=False, off_value=True,
                                     dtype=_tf.bool)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def tracks_own_finished(self) -> bool:
        return True

    def _rnn_output_size(self) -> Any:
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        return _output_layer_size(self._output_layer, size)

    @property
    def output_size(self) -> BeamSearchDecoderOutput:
        return BeamSearchDecoderOutput(scores=TensorShape([self._beam_width]),
                                       predicted_ids=TensorShape([self._beam_width]),
                                       parent_ids=TensorShape([self._beam_width]))

    @property
    def output_dtype(self) -> BeamSearchDecoderOutput:
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=_tf.int32, parent_ids=_tf.int32)

    def initialize(self, name: str | None = None) -> tuple:
        """Returns ``(finished, start_inputs, initial_state)``: only the first beam of each
        entry is live (log-probability 0, the others -inf), so the first step expands one."""
        finished, start_inputs = self._finished, self._start_inputs
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = _tf.one_hot(_tf.zeros([self._batch_size], dtype=_tf.int32),
                                depth=self._beam_width,
                                on_value=_tf.convert_to_tensor(0.0, dtype=dtype),
                                off_value=_tf.convert_to_tensor(-np.inf, dtype=dtype),
                                dtype=dtype)
        init_attention_probs = get_attention_probs(self._initial_cell_state,
                                                   self._coverage_penalty_weight)
        if init_attention_probs is None:
            init_attention_probs = ()
        initial_state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=finished,
            lengths=_tf.zeros([self._batch_size, self._beam_width], dtype=_tf.int64),
            accumulated_attention_probs=init_attention_probs)
        return finished, start_inputs, initial_state

    def finalize(self, outputs: BeamSearchDecoderOutput, final_state: BeamSearchDecoderState,
                 sequence_lengths: Any) -> tuple:
        """Follows the parent pointers back from each beam's end (``gather_tree``).

        Args:
          outputs: The stacked ``BeamSearchDecoderOutput`` (time-major).
          final_state: The final ``BeamSearchDecoderState``.
          sequence_lengths: Unused: the lengths are the state's.

        Returns:
          ``(FinalBeamSearchDecoderOutput, final_state)``.
        """
        del sequence_lengths
        max_sequence_lengths = _tf.cast(_tf.reduce_max(final_state.lengths, axis=1), _tf.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                    max_sequence_lengths=max_sequence_lengths,
                                    end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=nest.map_structure(
                lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids,
                                                       final_state.lengths),
                final_state.cell_state))
        outputs = FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                               predicted_ids=predicted_ids)
        return outputs, final_state

    def _merge_batch_beams(self, t: Any, s: Any = None) -> Any:
        s = _as_shape(s)
        t_shape = _tf.shape(t)
        static_batch_size = _tf.get_static_value(self._batch_size)
        merged = (None if static_batch_size is None
                  else int(static_batch_size) * self._beam_width)
        reshaped = _tf.reshape(t, _tf.concat(([self._batch_size * self._beam_width],
                                              t_shape[2:]), 0))
        reshaped.set_shape(TensorShape([merged]).concatenate(s))
        return reshaped

    def _split_batch_beams(self, t: Any, s: Any = None) -> Any:
        s = _as_shape(s)
        t_shape = _tf.shape(t)
        reshaped = _tf.reshape(t, _tf.concat(([self._batch_size, self._beam_width],
                                              t_shape[1:]), 0))
        static_batch_size = _tf.get_static_value(self._batch_size)
        expected = TensorShape([None if static_batch_size is None else int(static_batch_size),
                                self._beam_width]).concatenate(s)
        if not reshaped.shape.is_compatible_with(expected):
            raise ValueError("Unexpected behavior when reshaping between beam width and batch "
                             "size.  The reshaped tensor has shape: %s.  We expected it to "
                             "have shape (batch_size, beam_width, depth) == %s.  Perhaps you "
                             "forgot to create a zero_state with "
                             "batch_size=encoder_batch_size * beam_width?"
                             % (reshaped.shape, expected))
        reshaped.set_shape(expected)
        return reshaped

    def _maybe_split_batch_beams(self, t: Any, s: Any) -> Any:
        if isinstance(t, _tf.TensorArray):
            return t
        _check_ndims(t)
        return self._split_batch_beams(t, s) if t.shape.ndims >= 1 else t

    def _maybe_merge_batch_beams(self, t: Any, s: Any) -> Any:
        if isinstance(t, _tf.TensorArray):
            return t
        _check_ndims(t)
        return self._merge_batch_beams(t, s) if t.shape.ndims >= 2 else t

    def _maybe_sort_array_beams(self, t: Any, parent_ids: Any, sequence_length: Any) -> Any:
        if not isinstance(t, _tf.TensorArray):
            return t
        element_shape = t.element_shape
        if element_shape.ndims is None or element_shape.ndims < 1:
            _tf.logging.warn("The TensorArray in the cell state is not amenable to sorting "
                             "based on the beam search result. For a TensorArray to be sorted, "
                             "its elements shape must be defined and have at least a rank of "
                             "1, but saw shape: %s" % element_shape)
            return t
        return _gather_tree_from_array(t.stack(), parent_ids, sequence_length)

    def step(self, time: Any, inputs: Any, state: BeamSearchDecoderState,
             name: str | None = None) -> tuple:
        """One step: the cell on every beam, then the beams' extension and pruning.

        Args:
          time: The int32 step.
          inputs: [batch, beam_width, ...] inputs.
          state: The ``BeamSearchDecoderState``.
          name: The name scope (``BeamSearchDecoderStep``).

        Returns:
          ``(BeamSearchDecoderOutput, next_state, next_inputs, finished)``.
        """
        batch_size = self._batch_size
        beam_width = self._beam_width
        with _tf.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
            cell_state = state.cell_state
            inputs = nest.map_structure(
                lambda inp: self._merge_batch_beams(inp, s=inp.shape[2:]), inputs)
            cell_state = nest.map_structure(self._maybe_merge_batch_beams, cell_state,
                                            self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = nest.map_structure(
                lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
            next_cell_state = nest.pack_sequence_as(cell_state, nest.flatten(next_cell_state))
            next_cell_state = nest.map_structure(self._maybe_split_batch_beams,
                                                 next_cell_state, self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            beam_search_output, beam_search_state = _beam_search_step(
                time=time, logits=cell_outputs, next_cell_state=next_cell_state,
                beam_state=state, batch_size=batch_size, beam_width=beam_width,
                end_token=self._end_token, length_penalty_weight=self._length_penalty_weight,
                coverage_penalty_weight=self._coverage_penalty_weight)
            finished = beam_search_state.finished
            sample_ids = beam_search_output.predicted_ids
            next_inputs = _tf.cond(_tf.reduce_all(finished), lambda: self._start_inputs,
                                   lambda: self._embedding_fn(sample_ids))
        return beam_search_output, beam_search_state, next_inputs, finished
