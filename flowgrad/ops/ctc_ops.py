"""Connectionist Temporal Classification (Graves et al., 2006): the ``CTCLoss`` op (the loss
and its gradient from the forward-backward recursions, in log space), the
``CTCGreedyDecoder`` op, and ``tf.nn.ctc_loss`` / ``tf.nn.ctc_greedy_decoder`` on them, as
TensorFlow's ``ctc_ops.py`` has them."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError, UnimplementedError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import concat, reshape, transpose
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import where
from flowgrad.ops.manip_ops import sequence_mask
from flowgrad.ops.scatter_nd_ops import gather_nd
from flowgrad.ops.shape_ops import shape
from flowgrad.ops.math_ops import multiply
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike

__all__ = ["ctc_loss_v3", "ctc_loss", "ctc_greedy_decoder"]


def _label_sequences(indices: np.ndarray, values: np.ndarray, batch: int) -> list:
    """The label sequence of each batch entry from a SparseTensor's indices and values."""
    seqs: list = [[] for _ in range(batch)]
    for (b, _), v in zip(np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(values)):
        if not 0 <= b < batch:
            raise InvalidArgumentError(None, None, "labels batch index %d is not in [0, %d)"
                                       % (b, batch))
        seqs[b].append(int(v))
    return seqs


def _log_add(*xs: np.ndarray) -> np.ndarray:
    """log(sum(exp(x))) elementwise over the arrays (with -inf as log 0)."""
    m = np.maximum.reduce(xs)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.where(np.isfinite(m), safe + np.log(sum(np.exp(x - safe) for x in xs)), m)


def _ctc_one(logits: np.ndarray, labels: list, blank: int) -> tuple:
    """-log p(labels | logits) and its gradient with respect to the logits [T, C]."""
    t_len = logits.shape[0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    lp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    ext = [blank]
    for c in labels:
        ext += [c, blank]
    ext = np.asarray(ext)
    s_len = len(ext)
    skip = np.zeros(s_len, bool)        # s may come from s - 2: a label unlike the one before
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    neg = np.full(s_len, -np.inf)
    alpha = np.full((t_len, s_len), -np.inf)
    beta = np.full((t_len, s_len), -np.inf)
    e = lp[:, ext]                      # [T, S] the emission log-probabilities
    alpha[0, :2] = e[0, :2]
    for t in range(1, t_len):
        prev = alpha[t - 1]
        one = np.concatenate([[-np.inf], prev[:-1]])
        two = np.where(skip, np.concatenate([[-np.inf, -np.inf], prev[:-2]]), neg)
        alpha[t] = e[t] + _log_add(prev, one, two)
    beta[t_len - 1, -2:] = e[t_len - 1, -2:]
    skip_next = np.concatenate([skip[2:], [False, False]])   # s + 2 may follow s
    for t in range(t_len - 2, -1, -1):
        nxt = beta[t + 1]
        one = np.concatenate([nxt[1:], [-np.inf]])
        two = np.where(skip_next, np.concatenate([nxt[2:], [-np.inf, -np.inf]]), neg)
        beta[t] = e[t] + _log_add(nxt, one, two)
    log_p = _log_add(alpha[-1, -1], alpha[-1, -2] if s_len > 1 else -np.inf)
    probs = np.exp(lp)
    if not np.isfinite(log_p):
        return np.inf, probs
    occupancy = np.exp(alpha + beta - e - log_p)    # [T, S]
    grad = probs.copy()
    for s in range(s_len):
        grad[:, ext[s]] -= occupancy[:, s]
    return -log_p, grad


def _ctc_loss_kernel(inputs: Any, labels_indices: Any, labels_values: Any,
                     sequence_length: Any, *, preprocess_collapse_repeated: bool = False,
                     ctc_merge_repeated: bool = True,
                     ignore_longer_outputs_than_inputs: bool = False) -> tuple:
    x = np.asarray(inputs)
    if x.ndim != 3:
        raise InvalidArgumentError(None, None, "inputs is not a 3-Tensor")
    if not ctc_merge_repeated:
        raise UnimplementedError(None, None, "CTCLoss with ctc_merge_repeated=False is not "
                                 "implemented in flowgrad")
    t_max, batch, classes = x.shape
    lengths = np.asarray(sequence_length).reshape(-1)
    if lengths.shape[0] != batch:
        raise InvalidArgumentError(None, None, "len(sequence_length) != batch_size.  "
                                   "len(sequence_length):  %d batch_size: %d"
                                   % (lengths.shape[0], batch))
    blank = classes - 1
    loss = np.zeros(batch, x.dtype)
    grad = np.zeros_like(x)
    for b, seq in enumerate(_label_sequences(labels_indices, labels_values, batch)):
        n = int(lengths[b])
        if n > t_max:
            raise InvalidArgumentError(None, None, "sequence_length(%d) <= %d" % (b, t_max))
        if any(not 0 <= c < blank for c in seq):
            raise InvalidArgumentError(None, None, "Labels must be in [0, num_classes - 1) "
                                       "(the last class, %d, is the blank): batch %d has %s"
                                       % (blank, b, seq))
        if len(seq) > n:                 # TensorFlow checks the labels before collapsing
            if ignore_longer_outputs_than_inputs:
                continue                 # loss and gradient 0, as TensorFlow
            raise InvalidArgumentError(
                None, None, "Not enough time for target transition sequence (required: %d, "
                "available: %d)%dYou can turn this error into a warning by using the flag "
                "ignore_longer_outputs_than_inputs" % (len(seq), n, b))
        if preprocess_collapse_repeated:
            seq = [c for i, c in enumerate(seq) if i == 0 or c != seq[i - 1]]
        if n == 0:
            loss[b] = 0.0 if not seq else np.inf
            continue
        loss[b], g = _ctc_one(x[:n, b].astype(np.float64), seq, blank)
        grad[:n, b] = g
    return loss, grad


def _ctc_loss_infer(ins: list, attrs: dict) -> list:
    dt, s = ins[0].dtype.base_dtype, ins[0].shape
    if s.rank is not None and s.rank != 3:
        raise ValueError("Shape must be rank 3 but is rank %d for 'CTCLoss' (inputs)" % s.rank)
    batch = TensorShape(None) if s.rank is None else TensorShape([s.as_list()[1]])
    return [(dt, batch), (dt, s if s.rank is not None else TensorShape(None))]


@defop("CTCLoss", _ctc_loss_kernel, _ctc_loss_infer, num_outputs=2,
       input_names=("inputs", "labels_indices", "labels_values", "sequence_length"))
def _ctc_loss_grad(op: Any, grad_loss: Any, grad_gradient: Any) -> Any:
    """TensorFlow's: the op's gradient output scaled by the loss's gradient; the gradient
    output itself has none (TensorFlow's PreventGradient), so second derivatives fail."""
    from flowgrad.ops.nn_ops import _is_zero  # noqa: PLC0415  (nn_ops imports this module)
    if not _is_zero(grad_gradient):
        raise LookupError("Currently there is no way to take the second derivative of "
                          "ctc_loss due to the fused implementation's interaction with "
                          "tf.gradients()")
    return (multiply(reshape(grad_loss, [1, -1, 1]), op.outputs[1]), None, None, None)


def ctc_loss(labels: TensorLike, inputs: TensorLike | None = None,
             sequence_length: TensorLike | None = None, preprocess_collapse_repeated: bool = False,
             ctc_merge_repeated: bool = True, ignore_longer_outputs_than_inputs: bool = False,
             time_major: bool = True, logits: TensorLike | None = None) -> Any:
    """TF1's ``tf.nn.ctc_loss``: the CTC loss of SparseTensor ``labels`` (blank: the last
    class) given unnormalized ``inputs`` [max_time, batch, num_classes] (time-major).

    Args:
      labels: an int32 SparseTensor, the label sequences.
      inputs: the logits, [max_time, batch, num_classes] (batch-major if not time_major).
      sequence_length: int32 [batch], the logits' lengths.
      preprocess_collapse_repeated: collapse repeated labels first.
      ctc_merge_repeated: merge repeated outputs (CTC's rule; False is not implemented).
      ignore_longer_outputs_than_inputs: give loss 0 where the labels need more time than
        the inputs have.
      time_major: whether ``inputs`` is [max_time, batch, num_classes].
      logits: an alias of ``inputs``.

    Returns:
      The loss per batch entry, [batch].

    Raises:
      TypeError: ``labels`` is not a SparseTensor.
    """
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected argument `labels` to be a SparseTensor. Received labels=%r"
                        % (labels,))
    x = convert_to_tensor(inputs if inputs is not None else logits, name="inputs")
    if not time_major:
        x = transpose(x, [1, 0, 2])
    loss, _ = apply_op("CTCLoss", (x, labels.indices, cast(labels.values, dtypes.int32),
                                   cast(sequence_length, dtypes.int32)),
                       {"preprocess_collapse_repeated": preprocess_collapse_repeated,
                        "ctc_merge_repeated": ctc_merge_repeated,
                        "ignore_longer_outputs_than_inputs":
                            ignore_longer_outputs_than_inputs})
    return loss


def _dense_to_sparse(labels: Any, label_length: Any) -> SparseTensor:
    """The first ``label_length[b]`` labels of each row, as a SparseTensor."""
    labels = convert_to_tensor(labels)
    mask = sequence_mask(label_length, maxlen=shape(labels)[1])
    indices = where(mask)
    return SparseTensor(indices, gather_nd(labels, indices), cast(shape(labels), dtypes.int64))


def ctc_loss_v3(labels: TensorLike, logits: TensorLike, label_length: Any, logit_length: Any,
                logits_time_major: bool = True, unique: Any = None,
                blank_index: int | None = None, name: str | None = None) -> Any:
    """TensorFlow 2's ``tf.nn.ctc_loss``: the CTC loss of dense (zero-padded, with
    ``label_length``) or SparseTensor ``labels`` given unnormalized ``logits``.

    Args:
      labels: int [batch, max_label_length] (with ``label_length``) or a SparseTensor.
      logits: [frames, batch, num_labels] (``logits_time_major``) or [batch, frames, ...].
      label_length: int [batch], the labels' lengths (None for a SparseTensor).
      logit_length: int [batch], the logits' lengths.
      logits_time_major: the layout of ``logits``.
      unique: accepted for TensorFlow's signature (an optimization there; same loss).
      blank_index: the blank class (dense labels: 0 when None; negative counts from the
        end).
      name: the op's name scope.

    Returns:
      The negative log-probability of each label sequence, [batch].

    Raises:
      ValueError: SparseTensor ``labels`` without ``blank_index``.
    """
    del unique
    with name_scope(name, "ctc_loss_dense", [labels, logits, label_length, logit_length]):
        logits = convert_to_tensor(logits, name="logits")
        if not isinstance(labels, SparseTensor):
            if blank_index is None:
                blank_index = 0
            labels = _dense_to_sparse(labels, label_length)
        elif blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                             "`SparseTensor`.")
        if logits.dtype.base_dtype in (dtypes.float16, dtypes.bfloat16):
            logits = cast(logits, dtypes.float32)
        if not logits_time_major:
            logits = transpose(logits, [1, 0, 2])
        classes = logits.shape.as_list()[2]
        if classes is None:
            raise ValueError("ctc_loss needs the number of classes (the logits' last "
                             "dimension) known when the graph is built")
        if blank_index < 0:
            blank_index += classes
        values = cast(labels.values, dtypes.int32)
        if blank_index != classes - 1:       # the op's blank is the last class
            logits = concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                             logits[:, :, blank_index:blank_index + 1]], axis=2)
            values = where(values < blank_index, values, values - 1)
        loss, _ = apply_op("CTCLoss", (logits, labels.indices, values,
                                       cast(logit_length, dtypes.int32)),
                           {"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
                            "ignore_longer_outputs_than_inputs": False})
        return loss


def _greedy_kernel(inputs: Any, sequence_length: Any, *, merge_repeated: bool = False,
                   blank_index: int = -1) -> tuple:
    x = np.asarray(inputs)
    t_max, batch, classes = x.shape
    blank = blank_index % classes
    lengths = np.asarray(sequence_length).reshape(-1)
    indices, values, log_prob, longest = [], [], np.zeros((batch, 1), x.dtype), 0
    for b in range(batch):
        n = int(lengths[b])
        if n > t_max:
            raise InvalidArgumentError(None, None, "sequence_length(%d) <= %d" % (b, t_max))
        best = x[:n, b].argmax(axis=1)
        log_prob[b, 0] = -x[:n, b].max(axis=1).sum()
        out, prev = [], -1
        for c in best:
            if c != blank and not (merge_repeated and c == prev):
                out.append(int(c))
            prev = c
        indices += [[b, i] for i in range(len(out))]
        values += out
        longest = max(longest, len(out))
    return (np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(values, np.int64),
            np.asarray([batch, longest], np.int64), log_prob)


def _greedy_infer(ins: list, attrs: dict) -> list:
    s = ins[0].shape
    batch = s.as_list()[1] if s.rank is not None else None
    return [(dtypes.int64, TensorShape([None, 2])), (dtypes.int64, TensorShape([None])),
            (dtypes.int64, TensorShape([2])), (ins[0].dtype.base_dtype, TensorShape([batch, 1]))]


register_op("CTCGreedyDecoder", _greedy_kernel, _greedy_infer, num_outputs=4,
            grad=_NO_GRADIENT, input_names=("inputs", "sequence_length"))


def ctc_greedy_decoder(inputs: TensorLike, sequence_length: TensorLike, merge_repeated: bool = True,
                       blank_index: int | None = None) -> tuple:
    """``tf.nn.ctc_greedy_decoder``: the most likely class at each step, blanks dropped
    (and repeats merged).

    Args:
      inputs: logits, [max_time, batch, num_classes].
      sequence_length: int32 [batch].
      merge_repeated: merge repeated classes in the output.
      blank_index: the blank class (None: the last one; negative counts from the end).

    Returns:
      ``([decoded SparseTensor], neg_sum_logits [batch, 1])``.
    """
    x = convert_to_tensor(inputs, name="inputs")
    ix, vals, shape, log_prob = apply_op(
        "CTCGreedyDecoder", (x, cast(sequence_length, dtypes.int32)),
        {"merge_repeated": merge_repeated,
         "blank_index": -1 if blank_index is None else blank_index})
    return [SparseTensor(ix, vals, shape)], log_prob



_LOG_ZERO = -np.inf


def _log_sum_exp(a: float, b: float) -> float:
    if a == _LOG_ZERO:
        return b
    if b == _LOG_ZERO:
        return a
    return a + np.log1p(np.exp(b - a)) if a > b else b + np.log1p(np.exp(a - b))


class _Beam:
    """A node of the prefix tree (TensorFlow's BeamEntry): its label, parent, children and
    the probabilities (log) of its prefix ending in a label or a blank, now and one step
    before."""

    __slots__ = ("label", "parent", "children", "new", "old")

    def __init__(self, label: int, parent: Any) -> None:
        self.label, self.parent, self.children = label, parent, None
        self.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]    # total, blank, label
        self.old = self.new

    def active(self) -> bool:
        return self.new[0] != _LOG_ZERO

    def labels(self, merge_repeated: bool) -> list:
        out: list = []
        node, prev = self, -1
        while node.parent is not None:
            if not merge_repeated or node.label != prev:
                out.append(node.label)
            prev = node.label
            node = node.parent
        return out[::-1]


def _beam_search(logits: np.ndarray, beam_width: int, top_paths: int,
                 merge_repeated: bool) -> tuple:
    """TensorFlow's CTCBeamSearch (ctc_beam_search.h, the default scorer) over one
    sequence's logits ``[time, classes]``: the top paths and their log probabilities."""
    classes = logits.shape[1]
    blank = classes - 1
    root = _Beam(-1, None)
    root.new = [0.0, 0.0, _LOG_ZERO]
    leaves = [root]
    for row in logits.astype(np.float64):
        top = row.max()
        norm = top + np.log(np.exp(row - top).sum())
        lp = (row - norm).tolist()
        branches = sorted(leaves, key=lambda e: -e.new[0])
        for b in branches:
            b.old = list(b.new)
        leaves = []
        for b in branches:                             # pass 1: blanks and repeats
            if b.parent is not None:
                label = b.new[2]
                if b.parent.active():
                    prev = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                    label = _log_sum_exp(label, prev)
                b.new[2] = label + lp[b.label]
            b.new[1] = b.old[0] + lp[blank]
            b.new[0] = _log_sum_exp(b.new[1], b.new[2])
            leaves.append(b)
        for b in branches:                             # pass 2: extensions
            if b.children is None:
                b.children = [_Beam(c, b) for c in range(classes - 1)]
            for c in b.children:
                if c.active():
                    continue
                prev = b.old[1] if c.label == b.label else b.old[0]
                total = lp[c.label] + prev
                if len(leaves) < beam_width:
                    c.new = [total, _LOG_ZERO, total]
                    leaves.append(c)
                else:
                    bottom = min(leaves, key=lambda e: e.new[0])
                    if total > bottom.new[0]:
                        leaves.remove(bottom)
                        bottom.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]
                        c.new = [total, _LOG_ZERO, total]
                        leaves.append(c)
    best = sorted(leaves, key=lambda e: -e.new[0])[:top_paths]
    return [e.labels(merge_repeated) for e in best], [e.new[0] for e in best]


def _beam_kernel(inputs: Any, sequence_length: Any, *, beam_width: int, top_paths: int,
                 merge_repeated: bool) -> tuple:
    x = np.asarray(inputs)
    t_max, batch, _ = x.shape
    lengths = np.asarray(sequence_length).reshape(-1)
    paths: list = [[] for _ in range(top_paths)]
    log_probs = np.zeros((batch, top_paths), x.dtype)
    for b in range(batch):
        n = int(lengths[b])
        if n > t_max:
            raise InvalidArgumentError(None, None, "sequence_length(%d) <= %d" % (b, t_max))
        found, probs = _beam_search(x[:n, b], beam_width, top_paths, merge_repeated)
        if len(found) < top_paths:
            raise InvalidArgumentError(None, None, "Less than top_paths paths found: %d < %d"
                                       % (len(found), top_paths))
        for p in range(top_paths):
            paths[p].append(found[p])
            log_probs[b, p] = probs[p]
    out: list = []
    for p in range(top_paths):
        idx = [[b, i] for b, seq in enumerate(paths[p]) for i in range(len(seq))]
        out.append((np.asarray(idx, np.int64).reshape(-1, 2),
                    np.asarray([v for seq in paths[p] for v in seq], np.int64),
                    np.asarray([batch, max((len(s) for s in paths[p]), default=0)], np.int64)))
    return tuple([o[0] for o in out] + [o[1] for o in out] + [o[2] for o in out]
                 + [log_probs])


def _beam_infer(ins: list, attrs: dict) -> list:
    s = ins[0].shape
    batch = s.as_list()[1] if s.rank is not None else None
    k = attrs["top_paths"]
    return ([(dtypes.int64, TensorShape([None, 2]))] * k + [(dtypes.int64, TensorShape([None]))]
            * k + [(dtypes.int64, TensorShape([2]))] * k
            + [(ins[0].dtype.base_dtype, TensorShape([batch, k]))])


register_op("CTCBeamSearchDecoder", _beam_kernel, _beam_infer,
            num_outputs=lambda attrs: 3 * attrs["top_paths"] + 1, grad=_NO_GRADIENT,
            input_names=("inputs", "sequence_length"))


def ctc_beam_search_decoder(inputs: TensorLike, sequence_length: TensorLike, beam_width: int = 100,
                            top_paths: int = 1, merge_repeated: bool = True) -> tuple:
    """``tf.compat.v1.nn.ctc_beam_search_decoder``: beam search over the logits (the last
    class is the blank), as TensorFlow's CTCBeamSearchDecoder.

    Args:
      inputs: logits, [max_time, batch, num_classes].
      sequence_length: int32 [batch].
      beam_width: the beam's size.
      top_paths: how many paths to return (at most ``beam_width``).
      merge_repeated: merge repeated classes in the output paths.

    Returns:
      ``([decoded SparseTensor per path], log_probabilities [batch, top_paths])``.

    Raises:
      InvalidArgumentError: ``top_paths`` above ``beam_width`` or below 1.
    """
    if top_paths < 1:
        raise InvalidArgumentError(None, None, "Value for attr 'top_paths' of %d must be at "
                                   "least minimum 1" % top_paths)
    if top_paths > beam_width:
        raise InvalidArgumentError(None, None, "requested more paths than the beam width.")
    x = convert_to_tensor(inputs, name="inputs")
    out = apply_op("CTCBeamSearchDecoder", (x, cast(sequence_length, dtypes.int32)),
                   {"beam_width": int(beam_width), "top_paths": int(top_paths),
                    "merge_repeated": bool(merge_repeated)})
    k = top_paths
    return ([SparseTensor(out[i], out[k + i], out[2 * k + i]) for i in range(k)], out[3 * k])


def ctc_beam_search_decoder_v2(inputs: TensorLike, sequence_length: TensorLike,
                               beam_width: int = 100, top_paths: int = 1) -> tuple:
    """``tf.nn.ctc_beam_search_decoder``: the TF1 decoder with ``merge_repeated=False``.

    Args:
      inputs: logits, [max_time, batch, num_classes].
      sequence_length: int32 [batch].
      beam_width: the beam's size.
      top_paths: how many paths to return.

    Returns:
      ``([decoded SparseTensor per path], log_probabilities [batch, top_paths])``.
    """
    return ctc_beam_search_decoder(inputs, sequence_length, beam_width=beam_width,
                                   top_paths=top_paths, merge_repeated=False)
