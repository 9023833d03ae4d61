"""``tf.nn.nce_loss`` and ``tf.nn.sampled_softmax_loss``: losses over the true classes and a
sample of the others (word2vec's), built from ops as TensorFlow builds them
(``_compute_sampled_logits`` of tensorflow/python/ops/nn_impl.py), so their gradients w.r.t.
the weights (IndexedSlices), the biases and the inputs are TensorFlow's.

The sampled classes default to ``log_uniform_candidate_sampler(unique=True)``; the logits
subtract the log of their expected counts (``subtract_log_q``), and accidental hits (a
sampled class that is a true one) get ``-FLT_MAX`` added when ``remove_accidental_hits``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.arithmetic_ops import add, multiply, realdiv, subtract
from flowgrad.ops.candidate_sampling_ops import (
    compute_accidental_hits,
    log_uniform_candidate_sampler,
)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.constant_ops import stop_gradient
from flowgrad.ops.elementwise_ops import log
from flowgrad.ops.fill_ops import ones, ones_like, zeros_like
from flowgrad.ops.indexing_ops import embedding_lookup
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.nn_impl import sigmoid_cross_entropy_with_logits
from flowgrad.ops.nn_ops import softmax_cross_entropy_with_logits_v2
from flowgrad.ops.shape_ops import expand_dims, reshape, shape, stack
from flowgrad.ops.slicing_ops import slice as slice_op
from flowgrad.ops.sparse_tensor import sparse_to_dense
from flowgrad.framework.type_hints import TensorLike


def _sum_rows(x: Any) -> Any:
    """The sum of each row of the matrix ``x`` (a matmul with ones, as TensorFlow's)."""
    cols = shape(x)[1]
    return reshape(matmul(x, ones(stack([cols, 1]), x.dtype)), [-1])


def _compute_sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any,
                            num_sampled: int, num_classes: int, num_true: int = 1,
                            sampled_values: Any = None, subtract_log_q: bool = True,
                            remove_accidental_hits: bool = False,
                            partition_strategy: str = "mod", name: str | None = None,
                            seed: int | None = None) -> tuple:
    """The logits of the true and the sampled classes, and their labels
    (``1 / num_true`` for each true class, 0 for the sampled ones)."""
    if hasattr(weights, "_get_variable_list"):       # a PartitionedVariable
        weights = list(weights._get_variable_list())
    if not isinstance(weights, list):
        weights = [weights]
    with name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = convert_to_tensor(labels)
        if labels.dtype.base_dtype is not dtypes.int64:
            labels = cast(labels, dtypes.int64)
        labels_flat = reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(
                true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
                range_max=num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (
            stop_gradient(s) for s in sampled_values)
        sampled = cast(sampled, dtypes.int64)
        all_ids = concat([labels_flat, sampled], 0)
        inputs = convert_to_tensor(inputs)

        all_w = embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        if all_w.dtype.base_dtype is not inputs.dtype.base_dtype:
            all_w = cast(all_w, inputs.dtype)
        n_true = shape(labels_flat)[0]
        true_w = slice_op(all_w, [0, 0], stack([n_true, -1]))
        sampled_w = slice_op(all_w, stack([n_true, 0]), [-1, -1])
        sampled_logits = matmul(inputs, sampled_w, transpose_b=True)

        all_b = embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype.base_dtype is not inputs.dtype.base_dtype:
            all_b = cast(all_b, inputs.dtype)
        true_b = slice_op(all_b, [0], shape(labels_flat))
        sampled_b = slice_op(all_b, shape(labels_flat), [-1])

        dim = shape(true_w)[1:2]
        row_wise_dots = multiply(expand_dims(inputs, 1),
                                 reshape(true_w, concat([[-1, num_true], dim], 0)))
        dots_as_matrix = reshape(row_wise_dots, concat([[-1], dim], 0))
        true_logits = reshape(_sum_rows(dots_as_matrix), [-1, num_true])
        true_logits = add(true_logits, reshape(true_b, [-1, num_true]))
        sampled_logits = add(sampled_logits, sampled_b)

        if remove_accidental_hits:
            acc_indices, acc_ids, acc_weights = compute_accidental_hits(
                labels, sampled, num_true=num_true)
            sparse_indices = concat([reshape(acc_indices, [-1, 1]),
                                     reshape(cast(acc_ids, dtypes.int32), [-1, 1])], 1,
                                    name="sparse_indices")
            logits_shape = concat([shape(labels)[:1],
                                   np.array([num_sampled], np.int32)], 0)
            if sampled_logits.dtype.base_dtype is not acc_weights.dtype.base_dtype:
                acc_weights = cast(acc_weights, sampled_logits.dtype)
            sampled_logits = add(sampled_logits, sparse_to_dense(
                sparse_indices, logits_shape, acc_weights, default_value=0.0,
                validate_indices=False))

        if subtract_log_q:
            true_logits = subtract(true_logits, log(true_expected_count))
            sampled_logits = subtract(sampled_logits, log(sampled_expected_count))

        out_logits = concat([true_logits, sampled_logits], 1)
        out_labels = concat([realdiv(ones_like(true_logits), num_true),
                             zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


_ARGS = """
    Args:
        weights: The class embeddings ``[num_classes, dim]``: a tensor or variable, a list of
            shards, or a PartitionedVariable.
        biases: The class biases ``[num_classes]``.
        labels: An int ``[batch_size, num_true]`` tensor of the target classes.
        inputs: The activations ``[batch_size, dim]``.
        num_sampled: How many classes to sample per batch.
        num_classes: The number of classes.
        num_true: The number of target classes per example.
        sampled_values: A candidate sampler's output to use instead of the default
            ``log_uniform_candidate_sampler``.
        remove_accidental_hits: Whether sampled classes that are true classes are left out
            (their logits get ``-FLT_MAX``)."""


def nce_loss(weights: TensorLike, biases: TensorLike, labels: TensorLike, inputs: TensorLike,
             num_sampled: int, num_classes: int, num_true: int = 1, sampled_values: Any = None,
             remove_accidental_hits: bool = False, partition_strategy: str = "mod",
             name: str = "nce_loss") -> Any:
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name)
    sampled_losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                       name="sampled_losses")
    return _sum_rows(sampled_losses)


nce_loss.__doc__ = """The noise-contrastive estimation loss of each example (TensorFlow 1's
    signature, with ``partition_strategy``): the sigmoid cross-entropy of the true classes
    (label ``1 / num_true``) and of the sampled ones (label 0), summed per example.
""" + _ARGS + """
        partition_strategy: ``"mod"`` or ``"div"``, how class ids map to ``weights``' shards.
        name: A name for the operation.

    Returns:
        A float ``[batch_size]`` tensor.
"""


def nce_loss_v2(weights: TensorLike, biases: TensorLike, labels: TensorLike, inputs: TensorLike,
                num_sampled: int, num_classes: int, num_true: int = 1, sampled_values: Any = None,
                remove_accidental_hits: bool = False, name: str = "nce_loss") -> Any:
    return nce_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                    num_true=num_true, sampled_values=sampled_values,
                    remove_accidental_hits=remove_accidental_hits, partition_strategy="div",
                    name=name)


nce_loss_v2.__doc__ = """The noise-contrastive estimation loss of each example (TF2's
    ``tf.nn.nce_loss``: sharded weights are split by ``"div"``).
""" + _ARGS + """
        name: A name for the operation.

    Returns:
        A float ``[batch_size]`` tensor.
"""


def sampled_softmax_loss(weights: TensorLike, biases: TensorLike, labels: TensorLike,
                         inputs: TensorLike, num_sampled: int, num_classes: int, num_true: int = 1,
                         sampled_values: Any = None, remove_accidental_hits: bool = True,
                         partition_strategy: str = "mod", name: str = "sampled_softmax_loss",
                         seed: int | None = None) -> Any:
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name, seed=seed)
    labels = stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)


sampled_softmax_loss.__doc__ = """The sampled softmax loss of each example (TensorFlow 1's
    signature, with ``partition_strategy``): the softmax cross-entropy over the true and the
    sampled classes.
""" + _ARGS + """
        partition_strategy: ``"mod"`` or ``"div"``, how class ids map to ``weights``' shards.
        name: A name for the operation.
        seed: The seed of the default sampler.

    Returns:
        A float ``[batch_size]`` tensor.
"""


def sampled_softmax_loss_v2(weights: TensorLike, biases: TensorLike, labels: TensorLike,
                            inputs: TensorLike, num_sampled: int, num_classes: int,
                            num_true: int = 1, sampled_values: Any = None,
                            remove_accidental_hits: bool = True, seed: int | None = None,
                            name: str = "sampled_softmax_loss") -> Any:
    return sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                                num_true=num_true, sampled_values=sampled_values,
                                remove_accidental_hits=remove_accidental_hits,
                                partition_strategy="div", name=name, seed=seed)


sampled_softmax_loss_v2.__doc__ = """The sampled softmax loss of each example (TF2's
    ``tf.nn.sampled_softmax_loss``: sharded weights are split by ``"div"``).
""" + _ARGS + """
        seed: The seed of the default sampler.
        name: A name for the operation.

    Returns:
        A float ``[batch_size]`` tensor.
"""

__all__ = ["nce_loss", "nce_loss_v2", "sampled_softmax_loss", "sampled_softmax_loss_v2"]
