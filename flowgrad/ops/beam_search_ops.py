"""``GatherTree``: the op behind TF 1.15's ``tf.contrib.seq2seq.gather_tree`` (and
``tfa.seq2seq.gather_tree``), which a beam search decoder's ``finalize`` runs to turn the
per-step ids and parent pointers of every beam into whole sequences.

For each batch entry and beam, the kernel walks back from step ``max_sequence_lengths[b] - 1``
along the parent pointers; steps at or past the length hold ``end_token``, and once a beam
has emitted ``end_token`` every later step of it is ``end_token`` too (TensorFlow's CPU
kernel). Not differentiable, as in TensorFlow."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike


def _gather_tree_kernel(step_ids: Any, parent_ids: Any, max_sequence_lengths: Any,
                        end_token: Any) -> np.ndarray:
    step_ids = np.asarray(step_ids)
    parent_ids = np.asarray(parent_ids)
    lengths = np.asarray(max_sequence_lengths).reshape(-1)
    if step_ids.ndim != 3 or step_ids.shape != parent_ids.shape:
        raise InvalidArgumentError(None, None, "GatherTree: step_ids and parent_ids must be "
                                   "[max_time, batch_size, beam_width] tensors of one shape; "
                                   "saw %s and %s" % (step_ids.shape, parent_ids.shape))
    max_time, batch_size, beam_width = step_ids.shape
    if lengths.shape[0] != batch_size:
        raise InvalidArgumentError(None, None, "GatherTree: max_sequence_lengths must hold "
                                   "batch_size = %d entries; saw %d"
                                   % (batch_size, lengths.shape[0]))
    end = step_ids.dtype.type(end_token)
    beams = np.full(step_ids.shape, end, step_ids.dtype)
    for b in range(batch_size):
        length = min(max_time, int(lengths[b]))
        if length <= 0:
            continue
        for beam in range(beam_width):
            beams[length - 1, b, beam] = step_ids[length - 1, b, beam]
            parent = parent_ids[length - 1, b, beam]
            for level in range(length - 2, -1, -1):
                if parent < 0 or parent >= beam_width:
                    raise InvalidArgumentError(
                        None, None, "Saw invalid parent id %d at (batch, time, beam) == "
                        "(%d, %d, %d)" % (parent, b, level, beam))
                beams[level, b, beam] = step_ids[level, b, parent]
                parent = parent_ids[level, b, parent]
            done = np.cumsum(beams[:length, b, beam] == end) > 0
            after = np.concatenate([[False], done[:-1]])
            beams[:length, b, beam][after] = end
    return beams


def _gather_tree_infer(ins: list, attrs: dict) -> tuple:
    step_ids, parent_ids, lengths, end_token = ins
    shape = step_ids.shape.merge_with(parent_ids.shape)
    if shape.rank is not None and shape.rank != 3:
        raise ValueError("step_ids must be a [max_time, batch_size, beam_width] tensor, "
                         "saw shape %s" % shape)
    if lengths.shape.rank not in (None, 1):
        raise ValueError("max_sequence_lengths must be a vector, saw shape %s" % lengths.shape)
    if end_token.shape.rank not in (None, 0):
        raise ValueError("end_token must be a scalar, saw shape %s" % end_token.shape)
    return step_ids.dtype.base_dtype, TensorShape(shape)


register_op("GatherTree", _gather_tree_kernel, _gather_tree_infer,
            input_names=("step_ids", "parent_ids", "max_sequence_lengths", "end_token"))
NotDifferentiable("GatherTree")


def gather_tree(step_ids: TensorLike, parent_ids: TensorLike, max_sequence_lengths: TensorLike,
                end_token: TensorLike, name: str | None = None) -> Any:
    """Whole beams from per-step ids and parent pointers (``tf.contrib.seq2seq.gather_tree``).

    Args:
      step_ids: [max_time, batch_size, beam_width] int32 ids chosen at each step.
      parent_ids: [max_time, batch_size, beam_width] int32: the beam each id continues.
      max_sequence_lengths: [batch_size] int32: the decoded length of each batch entry.
      end_token: The int32 end token.
      name: A name for the operation.

    Returns:
      [max_time, batch_size, beam_width] int32: each beam's ids, ``end_token`` after it ends.

    Raises:
      ValueError: inputs of the wrong rank.
      InvalidArgumentError: (when run) a parent id outside ``[0, beam_width)``.
    """
    step_ids = convert_to_tensor(step_ids, dtypes.int32, name="step_ids")
    parent_ids = convert_to_tensor(parent_ids, dtypes.int32, name="parent_ids")
    lengths = convert_to_tensor(max_sequence_lengths, dtypes.int32, name="max_sequence_lengths")
    end_token = convert_to_tensor(end_token, dtypes.int32, name="end_token")
    return apply_op("GatherTree", (step_ids, parent_ids, lengths, end_token), name=name)
