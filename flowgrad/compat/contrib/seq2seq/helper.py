"""TF 1.15's ``tf.contrib.seq2seq`` helpers: what a ``BasicDecoder`` feeds its cell at each
step and how it picks the step's ids -- the training inputs (``TrainingHelper``), the
embedding of the argmax (``GreedyEmbeddingHelper``) or of a sample
(``SampleEmbeddingHelper``), scheduled sampling (``ScheduledEmbeddingTrainingHelper``,
``ScheduledOutputTrainingHelper``), or functions of one's own (``CustomHelper``,
``InferenceHelper``)."""
from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.compat import v1 as _tf
from flowgrad.compat.contrib.seq2seq.decoder import _transpose_batch_time, _where_rows
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, TensorLike

__all__ = ["Helper", "TrainingHelper", "GreedyEmbeddingHelper", "SampleEmbeddingHelper",
           "CustomHelper", "ScheduledEmbeddingTrainingHelper",
           "ScheduledOutputTrainingHelper", "InferenceHelper"]


def _unstack_ta(inp: Any) -> Any:
    return _tf.TensorArray(dtype=inp.dtype, size=_tf.shape(inp)[0],
                           element_shape=inp.get_shape()[1:]).unstack(inp)


def _embedding_fn(embedding: Any) -> Callable:
    if callable(embedding):
        return embedding
    return lambda ids: _tf.nn.embedding_lookup(embedding, ids)


def _categorical_sample(logits: Any, seed: int | None) -> Any:
    """One draw per row of [batch, classes] logits, as ``Categorical(logits).sample()``."""
    return _tf.reshape(_tf.multinomial(logits, 1, seed=seed, output_dtype=_tf.int32), [-1])


class Helper(metaclass=abc.ABCMeta):
    """How a ``BasicDecoder`` samples: ``initialize``, ``sample`` and ``next_inputs``."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any:
        """The batch size of the tensors ``sample`` returns (a scalar int32 tensor)."""

    @property
    @abc.abstractmethod
    def sample_ids_shape(self) -> TensorShape:
        """The shape of each entry's sample ids (without the batch dimension)."""

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self) -> Any:
        """The dtype of the sample ids."""

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple:
        """Returns ``(initial_finished, initial_inputs)``."""

    @abc.abstractmethod
    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        """Returns ``sample_ids``."""

    @abc.abstractmethod
    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple:
        """Returns ``(finished, next_inputs, next_state)``."""


class CustomHelper(Helper):
    """A helper made of three functions.

    Args:
      initialize_fn: ``() -> (finished, next_inputs)`` for the first step.
      sample_fn: ``(time, outputs, state) -> sample_ids``.
      next_inputs_fn: ``(time, outputs, state, sample_ids) -> (finished, next_inputs,
        next_state)``.
      sample_ids_shape: The shape of each entry's sample ids (``[]`` when None).
      sample_ids_dtype: Their dtype (int32 when None).
    """

    def __init__(self, initialize_fn: Callable, sample_fn: Callable, next_inputs_fn: Callable,
                 sample_ids_shape: Any = None, sample_ids_dtype: DTypeLike | None = None):
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = _tf.as_dtype(sample_ids_dtype or _tf.int32)

    @property
    def batch_size(self) -> Any:
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self) -> Any:
        return self._sample_ids_dtype

    def initialize(self, name: str | None = None) -> tuple:
        with _tf.name_scope(name, "%sInitialize" % type(self).__name__):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = _tf.size(finished)
        return finished, next_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with _tf.name_scope(name, "%sSample" % type(self).__name__, (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple:
        with _tf.name_scope(name, "%sNextInputs" % type(self).__name__, (time, outputs, state)):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state,
                                        sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Feeds the decoder its given inputs (teacher forcing); the sample ids are the argmax of
    the outputs.

    Args:
      inputs: A (structure of) [batch, time, ...] input tensors ([time, batch, ...] with
        ``time_major``).
      sequence_length: An int32 [batch] vector: each entry's number of steps.
      time_major: Whether ``inputs`` are time-major.
      name: The name scope (``TrainingHelper``).

    Raises:
      ValueError: ``sequence_length`` is not a vector.
    """

    def __init__(self, inputs: Any, sequence_length: TensorLike, time_major: bool = False,
                 name: str | None = None):
        with _tf.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = nest.map_structure(lambda x: _tf.convert_to_tensor(x, name="inputs"),
                                        inputs)
            self._inputs = inputs
            if not time_major:
                inputs = nest.map_structure(_transpose_batch_time, inputs)
            self._input_tas = nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = _tf.convert_to_tensor(sequence_length,
                                                          name="sequence_length")
            if self._sequence_length.get_shape().ndims != 1:
                raise ValueError("Expected sequence_length to be a vector, but received "
                                 "shape: %s" % self._sequence_length.get_shape())
            self._zero_inputs = nest.map_structure(lambda inp: _tf.zeros_like(inp[0, :]),
                                                   inputs)
            self._batch_size = _tf.size(sequence_length)

    @property
    def inputs(self) -> Any:
        """The inputs, as given."""
        return self._inputs

    @property
    def sequence_length(self) -> Any:
        """The int32 [batch] lengths."""
        return self._sequence_length

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> Any:
        return _tf.int32

    def initialize(self, name: str | None = None) -> tuple:
        with _tf.name_scope(name, "TrainingHelperInitialize"):
            finished = _tf.equal(0, self._sequence_length)
            all_finished = _tf.reduce_all(finished)
            next_inputs = _tf.cond(
                all_finished, lambda: self._zero_inputs,
                lambda: nest.map_structure(lambda inp: inp.read(0), self._input_tas))
            return finished, next_inputs

    def sample(self, time: Any, outputs: Any, name: str | None = None,
               **unused_kwargs: Any) -> Any:
        with _tf.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return _tf.cast(_tf.argmax(outputs, axis=-1), _tf.int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, name: str | None = None,
                    **unused_kwargs: Any) -> tuple:
        with _tf.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            all_finished = _tf.reduce_all(finished)
            next_inputs = _tf.cond(
                all_finished, lambda: self._zero_inputs,
                lambda: nest.map_structure(lambda inp: inp.read(next_time), self._input_tas))
            return finished, next_inputs, state


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """A training helper that, with ``sampling_probability``, feeds the embedding of an id
    sampled from the outputs instead of the given input (scheduled sampling); the sample ids
    are -1 where it did not sample.

    Args:
      inputs: A (structure of) input tensors.
      sequence_length: An int32 [batch] vector.
      embedding: The ``params`` of ``embedding_lookup``, or a function of the ids.
      sampling_probability: A float scalar or [batch] vector: the chance of sampling.
      time_major: Whether ``inputs`` are time-major.
      seed: The seed of the id sampling.
      scheduling_seed: The seed of the choice whether to sample.
      name: The name scope.

    Raises:
      ValueError: ``sampling_probability`` is neither a scalar nor a vector.
    """

    def __init__(self, inputs: Any, sequence_length: TensorLike, embedding: Any,
                 sampling_probability: TensorLike, time_major: bool = False,
                 seed: int | None = None, scheduling_seed: int | None = None,
                 name: str | None = None):
        with _tf.name_scope(name, "ScheduledEmbeddingSamplingWrapper",
                            [embedding, sampling_probability]):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = _tf.convert_to_tensor(sampling_probability,
                                                               name="sampling_probability")
            if self._sampling_probability.get_shape().ndims not in (0, 1):
                raise ValueError("sampling_probability must be either a scalar or a vector. "
                                 "saw shape: %s" % self._sampling_probability.get_shape())
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with _tf.name_scope(name, "ScheduledEmbeddingTrainingHelperSample",
                            [time, outputs, state]):
            select_sample_noise = _tf.random_uniform([self.batch_size],
                                                     seed=self._scheduling_seed)
            select_sample = self._sampling_probability > select_sample_noise
            return _tf.where(select_sample, _categorical_sample(outputs, self._seed),
                             _tf.tile([-1], [self.batch_size]))

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple:
        with _tf.name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs",
                            [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)

            def maybe_sample() -> Any:
                where_sampling = _tf.cast(_tf.where(sample_ids > -1), _tf.int32)
                where_not_sampling = _tf.cast(_tf.where(sample_ids <= -1), _tf.int32)
                sample_ids_sampling = _tf.gather_nd(sample_ids, where_sampling)
                inputs_not_sampling = _tf.gather_nd(base_next_inputs, where_not_sampling)
                sampled_next_inputs = self._embedding_fn(sample_ids_sampling)
                base_shape = _tf.shape(base_next_inputs)
                return (_tf.scatter_nd(indices=where_sampling, updates=sampled_next_inputs,
                                       shape=base_shape)
                        + _tf.scatter_nd(indices=where_not_sampling,
                                         updates=inputs_not_sampling, shape=base_shape))

            all_finished = _tf.reduce_all(finished)
            next_inputs = _tf.cond(all_finished, lambda: base_next_inputs, maybe_sample)
            return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """A training helper that, with ``sampling_probability``, feeds the step's output (through
    ``next_input_layer`` if given, with ``auxiliary_inputs`` appended) instead of the given
    input; the sample ids are True where it sampled.

    Args:
      inputs: A (structure of) input tensors.
      sequence_length: An int32 [batch] vector.
      sampling_probability: A float scalar or [batch] vector: the chance of sampling.
      time_major: Whether ``inputs`` are time-major.
      seed: The sampling seed.
      next_input_layer: A layer applied to the output to make the next input.
      auxiliary_inputs: Tensors appended (on the last axis) to the sampled outputs and to
        the inputs.
      name: The name scope.

    Raises:
      ValueError: ``sampling_probability`` is neither a scalar nor a vector.
      TypeError: ``next_input_layer`` is not callable.
    """

    def __init__(self, inputs: Any, sequence_length: TensorLike,
                 sampling_probability: TensorLike, time_major: bool = False,
                 seed: int | None = None, next_input_layer: Any = None,
                 auxiliary_inputs: Any = None, name: str | None = None):
        with _tf.name_scope(name, "ScheduledOutputTrainingHelper",
                            [inputs, auxiliary_inputs, sampling_probability]):
            self._sampling_probability = _tf.convert_to_tensor(sampling_probability,
                                                               name="sampling_probability")
            if self._sampling_probability.get_shape().ndims not in (0, 1):
                raise ValueError("sampling_probability must be either a scalar or a vector. "
                                 "saw shape: %s" % self._sampling_probability.get_shape())
            if auxiliary_inputs is None:
                maybe_concatenated_inputs = inputs
            else:
                inputs = _tf.convert_to_tensor(inputs, name="inputs")
                auxiliary_inputs = _tf.convert_to_tensor(auxiliary_inputs,
                                                         name="auxiliary_inputs")
                maybe_concatenated_inputs = nest.map_structure(
                    lambda x, y: _tf.concat((x, y), -1), inputs, auxiliary_inputs)
                if not time_major:
                    auxiliary_inputs = nest.map_structure(_transpose_batch_time,
                                                          auxiliary_inputs)
            self._auxiliary_input_tas = (nest.map_structure(_unstack_ta, auxiliary_inputs)
                                         if auxiliary_inputs is not None else None)
            self._seed = seed
            if next_input_layer is not None and not callable(next_input_layer):
                raise TypeError("next_input_layer must be a Layer, received: %s"
                                % type(next_input_layer))
            self._next_input_layer = next_input_layer
            super().__init__(inputs=maybe_concatenated_inputs,
                             sequence_length=sequence_length, time_major=time_major,
                             name=name)

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> Any:
        return _tf.bool

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with _tf.name_scope(name, "ScheduledOutputTrainingHelperSample",
                            [time, outputs, state]):
            noise = _tf.random_uniform([self.batch_size], seed=self._seed,
                                       dtype=self._sampling_probability.dtype)
            return noise < self._sampling_probability

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple:
        with _tf.name_scope(name, "ScheduledOutputTrainingHelperNextInputs",
                            [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)
            sample_ids = _tf.cast(sample_ids, _tf.bool)

            def maybe_concatenate_auxiliary_inputs(outputs_: Any, indices: Any = None) -> Any:
                if self._auxiliary_input_tas is None:
                    return outputs_
                next_time = time + 1
                auxiliary_inputs = nest.map_structure(lambda ta: ta.read(next_time),
                                                      self._auxiliary_input_tas)
                if indices is not None:
                    auxiliary_inputs = _tf.gather_nd(auxiliary_inputs, indices)
                return nest.map_structure(lambda x, y: _tf.concat((x, y), -1), outputs_,
                                          auxiliary_inputs)

            def maybe_sample() -> Any:
                if self._next_input_layer is None:
                    return _where_rows(sample_ids, maybe_concatenate_auxiliary_inputs(outputs),
                                       base_next_inputs)
                where_sampling = _tf.cast(_tf.where(sample_ids), _tf.int32)
                where_not_sampling = _tf.cast(_tf.where(_tf.logical_not(sample_ids)),
                                              _tf.int32)
                outputs_sampling = _tf.gather_nd(outputs, where_sampling)
                inputs_not_sampling = _tf.gather_nd(base_next_inputs, where_not_sampling)
                sampled_next_inputs = maybe_concatenate_auxiliary_inputs(
                    self._next_input_layer(outputs_sampling), where_sampling)
                base_shape = _tf.shape(base_next_inputs)
                return (_tf.scatter_nd(indices=where_sampling, updates=sampled_next_inputs,
                                       shape=base_shape)
                        + _tf.scatter_nd(indices=where_not_sampling,
                                         updates=inputs_not_sampling, shape=base_shape))

            all_finished = _tf.reduce_all(finished)
            no_samples = _tf.logical_not(_tf.reduce_any(sample_ids))
            next_inputs = _tf.cond(_tf.logical_or(all_finished, no_samples),
                                   lambda: base_next_inputs, maybe_sample)
            return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
    """For inference: the sample ids are the argmax of the outputs (logits), and the next
    input is their embedding; an entry finishes when it emits ``end_token``.

    Args:
      embedding: The ``params`` of ``embedding_lookup``, or a function of the ids.
      start_tokens: An int32 [batch] vector: the first ids.
      end_token: The int32 scalar that ends a sequence.

    Raises:
      ValueError: ``start_tokens`` is not a vector or ``end_token`` not a scalar.
    """

    def __init__(self, embedding: Any, start_tokens: TensorLike, end_token: TensorLike):
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = _tf.convert_to_tensor(start_tokens, dtype=_tf.int32,
                                                   name="start_tokens")
        self._end_token = _tf.convert_to_tensor(end_token, dtype=_tf.int32, name="end_token")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = _tf.size(start_tokens)
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> Any:
        return _tf.int32

    def initialize(self, name: str | None = None) -> tuple:
        finished = _tf.tile([False], [self._batch_size])
        return finished, self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        del time, state
        if not isinstance(outputs, TensorBase):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        return _tf.cast(_tf.argmax(outputs, axis=-1), _tf.int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple:
        del time, outputs
        finished = _tf.equal(sample_ids, self._end_token)
        all_finished = _tf.reduce_all(finished)
        next_inputs = _tf.cond(all_finished, lambda: self._start_inputs,
                               lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """For inference: the sample ids are drawn from the categorical distribution of the
    outputs (logits, divided by ``softmax_temperature``), and the next input is their
    embedding.

    Args:
      embedding: The ``params`` of ``embedding_lookup``, or a function of the ids.
      start_tokens: An int32 [batch] vector: the first ids.
      end_token: The int32 scalar that ends a sequence.
      softmax_temperature: A float scalar dividing the logits (1.0 when None).
      seed: The sampling seed.

    Raises:
      ValueError: ``start_tokens`` is not a vector or ``end_token`` not a scalar.
    """

    def __init__(self, embedding: Any, start_tokens: TensorLike, end_token: TensorLike,
                 softmax_temperature: TensorLike | None = None, seed: int | None = None):
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        del time, state
        if not isinstance(outputs, TensorBase):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        logits = (outputs if self._softmax_temperature is None
                  else outputs / self._softmax_temperature)
        return _categorical_sample(logits, self._seed)


class InferenceHelper(Helper):
    """For inference without embeddings: ``sample_fn`` picks from the outputs, ``end_fn``
    says which entries end, and the next inputs are the sample (or ``next_inputs_fn`` of it).

    Args:
      sample_fn: ``outputs -> sample_ids``.
      sample_shape: The shape of each entry's sample.
      sample_dtype: The dtype of the sample.
      start_inputs: The first inputs.
      end_fn: ``sample_ids -> finished`` (a bool [batch] vector).
      next_inputs_fn: ``sample_ids -> next_inputs`` (the sample itself when None).
    """

    def __init__(self, sample_fn: Callable, sample_shape: Any, sample_dtype: DTypeLike,
                 start_inputs: TensorLike, end_fn: Callable,
                 next_inputs_fn: Callable | None = None):
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = TensorShape(sample_shape)
        self._sample_dtype = _tf.as_dtype(sample_dtype)
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = _tf.shape(start_inputs)[0]
        self._start_inputs = _tf.convert_to_tensor(start_inputs, name="start_inputs")

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return self._sample_shape

    @property
    def sample_ids_dtype(self) -> Any:
        return self._sample_dtype

    def initialize(self, name: str | None = None) -> tuple:
        finished = _tf.tile([False], [self._batch_size])
        return finished, self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        del time, state
        return self._sample_fn(outputs)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple:
        del time, outputs
        next_inputs = (sample_ids if self._next_inputs_fn is None
                       else self._next_inputs_fn(sample_ids))
        finished = self._end_fn(sample_ids)
        return finished, next_inputs, state
