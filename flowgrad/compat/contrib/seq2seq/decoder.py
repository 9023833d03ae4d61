"""TF 1.15's ``tf.contrib.seq2seq.Decoder`` and ``dynamic_decode``: a decoder's steps run in
one while loop (in the variable scope ``decoder``) until every batch entry is finished or
``maximum_iterations`` is reached; outputs are stacked (batch-major unless
``output_time_major``), with zeros past each entry's end and its state kept there when
``impute_finished``."""
from __future__ import annotations

import abc
from typing import Any

from flowgrad import nest
from flowgrad.compat import v1 as _tf
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike


def _transpose_batch_time(x: Any) -> Any:
    """Swaps the first two axes of a tensor of rank 2 or more (others unchanged)."""
    x = _tf.convert_to_tensor(x)
    rank = x.shape.ndims
    if rank is not None and rank < 2:
        return x
    if rank is None:
        raise ValueError("Expected tensor %s to have known rank" % x.name)
    out = _tf.transpose(x, [1, 0] + list(range(2, rank)))
    out.set_shape(TensorShape([x.shape[1], x.shape[0]]).concatenate(x.shape[2:]))
    return out


def _zeros(size: Any, batch_size: Any, dtype: Any) -> Any:
    shape = TensorShape(size) if not isinstance(size, int) else TensorShape([size])
    batch = _tf.get_static_value(batch_size)
    if batch is not None:
        return _tf.zeros([int(batch)] + shape.as_list(), dtype=dtype)
    out = _tf.zeros(_tf.concat([_tf.reshape(batch_size, [1]),
                                 _tf.constant(shape.as_list(), _tf.int32)], 0), dtype=dtype)
    out.set_shape(TensorShape([None]).concatenate(shape))
    return out


def _where_rows(condition: Any, x: Any, y: Any) -> Any:
    """TF1's ``Select``: a [batch] (or [batch, beam]) ``condition`` picks whole entries of
    ``x`` or ``y`` (which may have more axes)."""
    x = _tf.convert_to_tensor(x)
    extra = x.shape.ndims - condition.shape.ndims
    if extra > 0:
        condition = _tf.reshape(condition, _tf.concat(
            [_tf.shape(condition), _tf.ones([extra], _tf.int32)], 0))
    return _tf.where(condition, x, y)


def _create_zero_outputs(size: Any, dtype: Any, batch_size: Any) -> Any:
    """Zeros of [batch_size] + each output size, of each output dtype."""
    return nest.map_structure(lambda s, d: _zeros(s, batch_size, d), size, dtype)


class Decoder(metaclass=abc.ABCMeta):
    """A sampling decoder, run by ``dynamic_decode``: ``initialize`` gives
    ``(finished, first_inputs, initial_state)``; each ``step(time, inputs, state)`` gives
    ``(outputs, next_state, next_inputs, finished)``; an optional ``finalize`` turns the
    stacked outputs (and the final state) into the results."""

    @property
    def batch_size(self) -> Any:
        """The batch size of the decoder's inputs (a scalar int32 tensor)."""
        raise NotImplementedError

    @property
    def output_size(self) -> Any:
        """The shape of each output (without the batch dimension): a (nested) TensorShape."""
        raise NotImplementedError

    @property
    def output_dtype(self) -> Any:
        """The dtype of each output: the same structure as ``output_size``."""
        raise NotImplementedError

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple:
        """Returns ``(finished, initial_inputs, initial_state)``."""
        raise NotImplementedError

    @abc.abstractmethod
    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple:
        """Returns ``(outputs, next_state, next_inputs, finished)``."""
        raise NotImplementedError

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple:
        """Returns ``(final_outputs, final_state)``; the base class has none to apply."""
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        """Whether the decoder's ``finished`` already holds the earlier steps' (a beam
        search reorders its beams, so ``dynamic_decode`` must not combine them)."""
        return False


def _maybe_copy_state(new: Any, cur: Any, finished: Any) -> Any:
    """The state of a finished entry is kept; TensorArrays and scalars pass through."""
    if isinstance(cur, _tf.TensorArray):
        return new
    new.set_shape(cur.shape)
    if new.shape.ndims == 0:
        return new
    return _where_rows(finished, cur, new)


def dynamic_decode(decoder: Decoder, output_time_major: bool = False,
                   impute_finished: bool = False, maximum_iterations: TensorLike | None = None,
                   parallel_iterations: int = 32, swap_memory: bool = False,
                   scope: Any = None) -> tuple:
    """Runs ``decoder`` step by step in a while loop until every entry is finished.

    Args:
      decoder: A ``Decoder`` (``BasicDecoder``, ``BeamSearchDecoder``, ...).
      output_time_major: Whether the outputs are [time, batch, ...] (else [batch, time, ...]).
      impute_finished: Whether finished entries emit zeros and keep their state (slower,
        and what makes the gradient ignore the steps past each end).
      maximum_iterations: The most steps to run (an int32 scalar); None runs until all finish.
      parallel_iterations: Accepted for TensorFlow's signature (steps run in order).
      swap_memory: Accepted for TensorFlow's signature.
      scope: The variable scope (``decoder`` when None).

    Returns:
      ``(final_outputs, final_state, final_sequence_lengths)``.

    Raises:
      TypeError: ``decoder`` is not a ``Decoder``.
      ValueError: ``maximum_iterations`` is not a scalar.
    """
    if not isinstance(decoder, Decoder):
        raise TypeError("Expected decoder to be type Decoder, but saw: %s" % type(decoder))
    with _tf.variable_scope(scope, "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = _tf.convert_to_tensor(maximum_iterations, dtype=_tf.int32,
                                                       name="maximum_iterations")
            if maximum_iterations.get_shape().ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = _create_zero_outputs(decoder.output_size, decoder.output_dtype,
                                            decoder.batch_size)
        if maximum_iterations is not None:
            initial_finished = _tf.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_sequence_lengths = _tf.zeros_like(initial_finished, dtype=_tf.int32)
        initial_time = _tf.constant(0, dtype=_tf.int32)
        static_batch = _tf.get_static_value(_tf.convert_to_tensor(decoder.batch_size))

        def element_shape(size: Any) -> TensorShape | None:
            if not isinstance(size, TensorShape) or size.ndims == 0:
                size = TensorShape(size) if not isinstance(size, int) else TensorShape([size])
            return TensorShape([None if static_batch is None else int(static_batch)]
                               ).concatenate(size)

        initial_outputs_ta = nest.map_structure(
            lambda s, d: _tf.TensorArray(dtype=d, size=0, dynamic_size=True,
                                         element_shape=element_shape(s)),
            decoder.output_size, decoder.output_dtype)

        def condition(unused_time: Any, unused_outputs_ta: Any, unused_state: Any,
                      unused_inputs: Any, finished: Any, unused_lengths: Any) -> Any:
            return _tf.logical_not(_tf.reduce_all(finished))

        def body(time: Any, outputs_ta: Any, state: Any, inputs: Any, finished: Any,
                 sequence_lengths: Any) -> tuple:
            next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
                time, inputs, state)
            lengths_from_state = False
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
                lengths = getattr(decoder_state, "lengths", None)
                if lengths is not None:
                    lengths_from_state = True
                    sequence_lengths = _tf.cast(lengths, _tf.int32)
            else:
                next_finished = _tf.logical_or(decoder_finished, finished)
            if lengths_from_state:
                next_sequence_lengths = sequence_lengths
            else:
                next_sequence_lengths = _tf.where(
                    _tf.logical_not(finished),
                    _tf.fill(_tf.shape(sequence_lengths), time + 1), sequence_lengths)
            nest.assert_same_structure(state, decoder_state)
            nest.assert_same_structure(outputs_ta, next_outputs)
            nest.assert_same_structure(inputs, next_inputs)
            if maximum_iterations is not None:
                next_finished = _tf.logical_or(next_finished, time + 1 >= maximum_iterations)
            if impute_finished:
                emit = nest.map_structure(lambda out, zero: _where_rows(finished, zero, out),
                                          next_outputs, zero_outputs)
                next_state = nest.map_structure(
                    lambda new, cur: _maybe_copy_state(new, cur, finished), decoder_state, state)
            else:
                emit = next_outputs
                next_state = decoder_state
            outputs_ta = nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta,
                                            emit)
            return (time + 1, outputs_ta, next_state, next_inputs, next_finished,
                    next_sequence_lengths)

        res = _tf.while_loop(
            condition, body,
            loop_vars=(initial_time, initial_outputs_ta, initial_state, initial_inputs,
                       initial_finished, initial_sequence_lengths),
            parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
            swap_memory=swap_memory)
        final_outputs_ta, final_state, final_sequence_lengths = res[1], res[2], res[5]
        final_outputs = nest.map_structure(lambda ta: ta.stack(), final_outputs_ta)
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                          final_sequence_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = nest.map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_sequence_lengths
