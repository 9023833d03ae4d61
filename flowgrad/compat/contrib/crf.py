"""TensorFlow 1.15's ``tf.contrib.crf``: a linear-chain conditional random field over
[batch, time, tags] unary potentials and a [tags, tags] transition matrix. The scores, the
log-normaliser (forward algorithm), the log-likelihood (creating the ``transitions`` variable as
TF 1.15 did), Viterbi decoding in NumPy (``viterbi_decode``) and in the graph (``crf_decode``),
and the RNN cells TF 1.15 built them from, as compositions of flowgrad's TF1 API."""
from __future__ import annotations

import numpy as np

from flowgrad.compat import v1 as _tf
from flowgrad.framework.type_hints import TensorLike

__all__ = ["CrfDecodeBackwardRnnCell", "CrfDecodeForwardRnnCell", "CrfForwardRnnCell",
           "crf_binary_score", "crf_decode", "crf_forward", "crf_log_likelihood",
           "crf_log_norm", "crf_multitag_sequence_score", "crf_sequence_score",
           "crf_unary_score", "viterbi_decode"]


def _static_dim(tensor: TensorLike, axis: int) -> int | None:
    shape = tensor.get_shape()
    if shape.ndims is None:
        return None
    return _tf.compat.dimension_value(shape[axis])


def _check_rank(tensor: TensorLike, rank: int, what: str) -> None:
    ndims = tensor.get_shape().ndims
    if ndims is not None and ndims != rank:
        raise ValueError("%s must be of rank %d, but %s has shape %s"
                         % (what, rank, tensor.name, tensor.get_shape()))


def _masks(sequence_lengths: TensorLike, max_len: TensorLike, dtype) -> TensorLike:
    return _tf.sequence_mask(sequence_lengths, maxlen=max_len, dtype=dtype)


def crf_sequence_score(inputs: TensorLike, tag_indices: TensorLike,
                       sequence_lengths: TensorLike,
                       transition_params: TensorLike) -> TensorLike:
    """The unnormalised score of tag sequences: the unary plus the transition scores.

    Args:
      inputs: [batch_size, max_seq_len, num_tags] unary potentials.
      tag_indices: [batch_size, max_seq_len] tag indices whose score is computed.
      sequence_lengths: [batch_size] true sequence lengths.
      transition_params: [num_tags, num_tags] transition matrix.

    Returns:
      A [batch_size] vector of unnormalised sequence scores.
    """
    inputs = _tf.convert_to_tensor(inputs, name="inputs")
    tag_indices = _tf.convert_to_tensor(tag_indices, name="tag_indices")
    unary_scores = crf_unary_score(tag_indices, sequence_lengths, inputs)
    binary_scores = crf_binary_score(tag_indices, sequence_lengths, transition_params)
    return unary_scores + binary_scores


def crf_multitag_sequence_score(inputs: TensorLike, tag_bitmap: TensorLike,
                                sequence_lengths: TensorLike,
                                transition_params: TensorLike) -> TensorLike:
    """The log-sum-exp of the scores of every tag sequence allowed by ``tag_bitmap``.

    With one-hot rows in ``tag_bitmap`` this is ``crf_sequence_score``.

    Args:
      inputs: [batch_size, max_seq_len, num_tags] unary potentials.
      tag_bitmap: [batch_size, max_seq_len, num_tags] booleans: the tags allowed at each step.
      sequence_lengths: [batch_size] true sequence lengths.
      transition_params: [num_tags, num_tags] transition matrix.

    Returns:
      A [batch_size] vector of unnormalised scores.
    """
    inputs = _tf.convert_to_tensor(inputs, name="inputs")
    tag_bitmap = _tf.convert_to_tensor(tag_bitmap, dtype=_tf.bool, name="tag_bitmap")
    filtered_inputs = _tf.where(
        tag_bitmap, inputs,
        _tf.fill(_tf.shape(inputs), _tf.constant(-np.inf, dtype=inputs.dtype)))
    return crf_log_norm(filtered_inputs, sequence_lengths, transition_params)


def crf_unary_score(tag_indices: TensorLike, sequence_lengths: TensorLike,
                    inputs: TensorLike) -> TensorLike:
    """The unary scores of tag sequences: each step's potential of its tag, over the real steps.

    Args:
      tag_indices: [batch_size, max_seq_len] tag indices.
      sequence_lengths: [batch_size] true sequence lengths.
      inputs: [batch_size, max_seq_len, num_tags] unary potentials.

    Returns:
      A [batch_size] vector of unary scores.

    Raises:
      ValueError: ``inputs`` is not of rank 3 or ``tag_indices`` not of rank 2.
    """
    inputs = _tf.convert_to_tensor(inputs, name="inputs")
    tag_indices = _tf.convert_to_tensor(tag_indices, name="tag_indices")
    _check_rank(inputs, 3, "crf inputs")
    _check_rank(tag_indices, 2, "crf tag_indices")
    shape = _tf.shape(inputs)
    batch_size, max_seq_len, num_tags = shape[0], shape[1], shape[2]
    flattened_inputs = _tf.reshape(inputs, [-1])
    offsets = _tf.expand_dims(_tf.range(batch_size) * max_seq_len * num_tags, 1)
    offsets += _tf.expand_dims(_tf.range(max_seq_len) * num_tags, 0)
    offsets = _tf.cast(offsets, tag_indices.dtype)
    flattened_tag_indices = _tf.reshape(offsets + tag_indices, [-1])
    unary_scores = _tf.reshape(_tf.gather(flattened_inputs, flattened_tag_indices),
                               [batch_size, max_seq_len])
    masks = _masks(sequence_lengths, _tf.shape(tag_indices)[1], inputs.dtype)
    return _tf.reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices: TensorLike, sequence_lengths: TensorLike,
                     transition_params: TensorLike) -> TensorLike:
    """The transition scores of tag sequences, over the real steps.

    Args:
      tag_indices: [batch_size, max_seq_len] tag indices.
      sequence_lengths: [batch_size] true sequence lengths.
      transition_params: [num_tags, num_tags] transition matrix.

    Returns:
      A [batch_size] vector of binary scores.
    """
    tag_indices = _tf.convert_to_tensor(tag_indices, name="tag_indices")
    transition_params = _tf.convert_to_tensor(transition_params, name="transition_params")
    num_tags = _tf.cast(_tf.shape(transition_params)[0], tag_indices.dtype)
    num_transitions = _tf.shape(tag_indices)[1] - 1
    start_tag_indices = _tf.slice(tag_indices, [0, 0], [-1, num_transitions])
    end_tag_indices = _tf.slice(tag_indices, [0, 1], [-1, num_transitions])
    flattened_transition_indices = start_tag_indices * num_tags + end_tag_indices
    flattened_transition_params = _tf.reshape(transition_params, [-1])
    binary_scores = _tf.gather(flattened_transition_params, flattened_transition_indices)
    masks = _masks(sequence_lengths, _tf.shape(tag_indices)[1], transition_params.dtype)
    truncated_masks = _tf.slice(masks, [0, 1], [-1, -1])
    return _tf.reduce_sum(binary_scores * truncated_masks, 1)


class _TransitionCell(_tf.nn.rnn_cell.RNNCell):
    """A cell stepping through a linear-chain CRF with a [num_tags, num_tags] transition
    matrix: its state and output are one value per tag."""

    def __init__(self, transition_params: TensorLike):
        """Makes the cell.

        Args:
          transition_params: [num_tags, num_tags] transition matrix.
        """
        super().__init__()
        transition_params = _tf.convert_to_tensor(transition_params)
        self._transition_params = _tf.expand_dims(transition_params, 0)
        self._num_tags = _static_dim(transition_params, 0)

    @property
    def state_size(self) -> int:
        return self._num_tags

    @property
    def output_size(self) -> int:
        return self._num_tags


class CrfForwardRnnCell(_TransitionCell):
    """One step of the forward algorithm: the alphas of a linear-chain CRF, in log space.

    Args:
      transition_params: [num_tags, num_tags] transition matrix.
    """

    def __call__(self, inputs: TensorLike, state: TensorLike, scope=None) -> tuple:
        """The next alphas.

        Args:
          inputs: [batch_size, num_tags] unary potentials of this step.
          state: [batch_size, num_tags] previous alphas.
          scope: Unused.

        Returns:
          ``(new_alphas, new_alphas)``, both [batch_size, num_tags].
        """
        transition_scores = _tf.expand_dims(state, 2) + self._transition_params
        new_alphas = inputs + _tf.reduce_logsumexp(transition_scores, [1])
        return new_alphas, new_alphas


def crf_forward(inputs: TensorLike, state: TensorLike, transition_params: TensorLike,
                sequence_lengths: TensorLike) -> TensorLike:
    """The forward algorithm: the alphas at each sequence's last real step.

    Args:
      inputs: [batch_size, max_seq_len - 1, num_tags] unary potentials after the first step.
      state: [batch_size, num_tags] alphas of the first step (its unary potentials).
      transition_params: [num_tags, num_tags] transition matrix.
      sequence_lengths: [batch_size] true sequence lengths (of the whole sequences).

    Returns:
      [batch_size, num_tags] alphas.
    """
    inputs = _tf.convert_to_tensor(inputs, name="inputs")
    state = _tf.convert_to_tensor(state, name="state")
    sequence_lengths = _tf.cast(sequence_lengths, _tf.int32)
    cell = CrfForwardRnnCell(transition_params)
    all_alphas = _tf.scan(lambda alphas, step: cell(step, alphas)[0],
                          _tf.transpose(inputs, [1, 0, 2]), state)
    # The first step's alphas in front, so that a length-1 sequence reads them.
    all_alphas = _tf.concat([_tf.expand_dims(state, 1), _tf.transpose(all_alphas, [1, 0, 2])],
                            axis=1)
    idxs = _tf.stack([_tf.range(_tf.shape(sequence_lengths)[0]),
                      _tf.maximum(sequence_lengths - 1, 0)], axis=1)
    return _tf.gather_nd(all_alphas, idxs)


def crf_log_norm(inputs: TensorLike, sequence_lengths: TensorLike,
                 transition_params: TensorLike) -> TensorLike:
    """The log of the CRF's partition function (the normaliser).

    Args:
      inputs: [batch_size, max_seq_len, num_tags] unary potentials.
      sequence_lengths: [batch_size] true sequence lengths.
      transition_params: [num_tags, num_tags] transition matrix.

    Returns:
      A [batch_size] vector of log-normalisers (0 for empty sequences).

    Raises:
      ValueError: ``inputs`` is not of rank 3.
    """
    inputs = _tf.convert_to_tensor(inputs, name="inputs")
    _check_rank(inputs, 3, "crf inputs")
    sequence_lengths = _tf.convert_to_tensor(sequence_lengths, name="sequence_lengths")
    first_input = _tf.squeeze(_tf.slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])
    if _static_dim(inputs, 1) == 1:
        log_norm = _tf.reduce_logsumexp(first_input, [1])
    else:
        rest_of_input = _tf.slice(inputs, [0, 1, 0], [-1, -1, -1])
        alphas = crf_forward(rest_of_input, first_input, transition_params, sequence_lengths)
        log_norm = _tf.reduce_logsumexp(alphas, [1])
    return _tf.where(_tf.less_equal(sequence_lengths, 0), _tf.zeros_like(log_norm), log_norm)


def crf_log_likelihood(inputs: TensorLike, tag_indices: TensorLike,
                       sequence_lengths: TensorLike,
                       transition_params: TensorLike | None = None) -> tuple:
    """The log-likelihood of tag sequences under a linear-chain CRF.

    Args:
      inputs: [batch_size, max_seq_len, num_tags] unary potentials.
      tag_indices: [batch_size, max_seq_len] tag indices whose log-likelihood is computed.
      sequence_lengths: [batch_size] true sequence lengths.
      transition_params: [num_tags, num_tags] transition matrix; when None, the variable
        ``transitions`` is made (or reused) with ``tf.get_variable`` and its default
        (Glorot uniform) initializer.

    Returns:
      ``(log_likelihood, transition_params)``: a [batch_size] vector and the transition matrix.

    Raises:
      ValueError: ``inputs`` is not of rank 3 or its number of tags is unknown when the
        transition matrix must be made.
    """
    inputs = _tf.convert_to_tensor(inputs, name="inputs")
    _check_rank(inputs, 3, "crf inputs")
    if transition_params is None:
        num_tags = _static_dim(inputs, 2)
        if num_tags is None:
            raise ValueError("crf_log_likelihood needs the number of tags (the last dimension "
                             "of inputs %s) to make the transitions variable" % inputs.name)
        transition_params = _tf.get_variable("transitions", [num_tags, num_tags],
                                             dtype=inputs.dtype)
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths,
                                         transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return sequence_scores - log_norm, transition_params


def viterbi_decode(score: np.ndarray, transition_params: np.ndarray) -> tuple:
    """The highest scoring tag sequence, in NumPy (outside the graph, at test time).

    Args:
      score: [seq_len, num_tags] unary potentials.
      transition_params: [num_tags, num_tags] transition matrix.

    Returns:
      ``(viterbi, viterbi_score)``: a list of ``seq_len`` tag indices and its score.
    """
    score = np.asarray(score)
    transition_params = np.asarray(transition_params)
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(v, 0)
        backpointers[t] = np.argmax(v, 0)
    viterbi = [np.argmax(trellis[-1])]
    for bp in reversed(backpointers[1:]):
        viterbi.append(bp[viterbi[-1]])
    viterbi.reverse()
    viterbi_score = np.max(trellis[-1])
    return viterbi, viterbi_score


class CrfDecodeForwardRnnCell(_TransitionCell):
    """One forward step of Viterbi decoding: the best scores and their backpointers.

    Args:
      transition_params: [num_tags, num_tags] transition matrix.
    """

    def __call__(self, inputs: TensorLike, state: TensorLike, scope=None) -> tuple:
        """The next best scores.

        Args:
          inputs: [batch_size, num_tags] unary potentials of this step.
          state: [batch_size, num_tags] previous best scores.
          scope: Unused.

        Returns:
          ``(backpointers, new_state)``: int32 [batch_size, num_tags] and the new scores.
        """
        transition_scores = _tf.expand_dims(state, 2) + self._transition_params
        new_state = inputs + _tf.reduce_max(transition_scores, [1])
        backpointers = _tf.cast(_tf.argmax(transition_scores, 1), _tf.int32)
        return backpointers, new_state


class CrfDecodeBackwardRnnCell(_tf.nn.rnn_cell.RNNCell):
    """One backward step of Viterbi decoding: follows the backpointers."""

    def __init__(self, num_tags: int):
        """Makes the cell.

        Args:
          num_tags: The number of tags.
        """
        super().__init__()
        self._num_tags = num_tags

    @property
    def state_size(self) -> int:
        return 1

    @property
    def output_size(self) -> int:
        return 1

    def __call__(self, inputs: TensorLike, state: TensorLike, scope=None) -> tuple:
        """The previous step's tags.

        Args:
          inputs: [batch_size, num_tags] backpointers of the next step.
          state: [batch_size, 1] the next step's tag.
          scope: Unused.

        Returns:
          ``(new_tags, new_tags)``, both int32 [batch_size, 1].
        """
        state = _tf.squeeze(state, axis=[1])
        indices = _tf.stack([_tf.range(_tf.shape(inputs)[0]), state], axis=1)
        new_tags = _tf.expand_dims(_tf.gather_nd(inputs, indices), axis=-1)
        return new_tags, new_tags


def crf_decode(potentials: TensorLike, transition_params: TensorLike,
               sequence_length: TensorLike) -> tuple:
    """The highest scoring tag sequences, in the graph.

    Args:
      potentials: [batch_size, max_seq_len, num_tags] unary potentials.
      transition_params: [num_tags, num_tags] transition matrix.
      sequence_length: [batch_size] true sequence lengths.

    Returns:
      ``(decode_tags, best_score)``: int32 [batch_size, max_seq_len] tags (0 past each
      sequence's end) and their [batch_size] scores.

    Raises:
      ValueError: ``potentials`` is not of rank 3.
    """
    potentials = _tf.convert_to_tensor(potentials, name="potentials")
    _check_rank(potentials, 3, "crf potentials")
    sequence_length = _tf.cast(sequence_length, _tf.int32)
    num_tags = _static_dim(potentials, 2)
    initial_state = _tf.squeeze(_tf.slice(potentials, [0, 0, 0], [-1, 1, -1]), axis=[1])
    if _static_dim(potentials, 1) == 1:
        decode_tags = _tf.cast(_tf.argmax(initial_state, axis=1), _tf.int32)
        return _tf.expand_dims(decode_tags, 1), _tf.reduce_max(initial_state, axis=1)
    inputs = _tf.slice(potentials, [0, 1, 0], [-1, -1, -1])
    steps = _tf.maximum(sequence_length - 1, 0)
    backpointers, last_score = _tf.nn.dynamic_rnn(
        CrfDecodeForwardRnnCell(transition_params), inputs=inputs, sequence_length=steps,
        initial_state=initial_state, time_major=False, dtype=_tf.int32)
    backpointers = _tf.reverse_sequence(backpointers, steps, seq_axis=1)
    initial_tags = _tf.expand_dims(
        _tf.cast(_tf.argmax(last_score, axis=1), _tf.int32), axis=-1)
    decode_tags, _ = _tf.nn.dynamic_rnn(
        CrfDecodeBackwardRnnCell(num_tags), inputs=backpointers, sequence_length=steps,
        initial_state=initial_tags, time_major=False, dtype=_tf.int32)
    decode_tags = _tf.squeeze(decode_tags, axis=[2])
    decode_tags = _tf.concat([initial_tags, decode_tags], axis=1)
    decode_tags = _tf.reverse_sequence(decode_tags, sequence_length, seq_axis=1)
    return decode_tags, _tf.reduce_max(last_score, axis=1)
