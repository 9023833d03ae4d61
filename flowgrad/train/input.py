"""TensorFlow 1's queue-based input pipelines (tensorflow/python/training/input.py):
``string_input_producer``, ``input_producer``, ``range_input_producer``,
``slice_input_producer``, ``limit_epochs``, ``match_filenames_once`` and the batchers
``batch``, ``shuffle_batch``, ``batch_join``, ``shuffle_batch_join`` and their ``maybe_``
forms.

Each producer or batcher builds a queue, an enqueue op and a ``QueueRunner`` registered in
the graph's ``QUEUE_RUNNERS`` collection (``tf.train.start_queue_runners`` starts them) and
returns the dequeue. ``num_epochs`` counts in a local variable (``limit_epochs``): after the
last epoch the runners close their queues and the consumer's ``sess.run`` raises
``OutOfRangeError``, the end of the input, as in TensorFlow. Each queue also adds
TensorFlow's ``fraction_of_N_full`` scalar summary."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, control_dependencies, name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.arithmetic_ops import maximum, multiply, subtract
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.check_ops import Assert
from flowgrad.ops.comparison_ops import greater
from flowgrad.ops.constant_ops import identity
from flowgrad.ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.indexing_ops import boolean_mask, gather
from flowgrad.ops.io_ops import matching_files
from flowgrad.ops.random_ops import random_shuffle
from flowgrad.ops.shape_ops import shape, size
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.variable_scatter_ops import count_up_to
from flowgrad.summary.summary_ops import scalar
from flowgrad.train.queue_runner import QueueRunner, add_queue_runner


def _no_eager(what: str) -> None:
    if executing_eagerly():
        raise RuntimeError("Input pipelines based on Queues are not supported when eager "
                           "execution is enabled. Please use tf.data to ingest data into your "
                           "model instead. (%s)" % what)


def match_filenames_once(pattern: Any, name: str | None = None) -> Any:
    """A local variable holding the files matching ``pattern``, listed when it is
    initialized (``tf.local_variables_initializer()``).

    Args:
        pattern: A file pattern (glob), or a 1-D tensor of them.
        name: A name for the operation.

    Returns:
        The variable.
    """
    with name_scope(name, "matching_filenames", [pattern]) as scope:
        return Variable(matching_files(pattern), trainable=False, name=scope or None,
                        validate_shape=False, collections=[GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor: Any, num_epochs: int | None = None, name: str | None = None) -> Any:
    """``tensor``, which raises ``OutOfRangeError`` once it has been run ``num_epochs`` times
    (a local ``epochs`` counter: initialize the local variables).

    Args:
        tensor: The tensor.
        num_epochs: How many runs; None for no limit.
        name: A name for the operation.

    Returns:
        The tensor (with the counter's control dependency).

    Raises:
        ValueError: if ``num_epochs`` is not positive.
    """
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
    with name_scope(name, "limit_epochs", [tensor]) as scope:
        epochs = Variable(np.int64(0), trainable=False, name="epochs",
                          collections=[GraphKeys.LOCAL_VARIABLES])
        counter = count_up_to(epochs, num_epochs)
        with control_dependencies([counter]):
            return identity(tensor, name=scope.rstrip("/") if scope else None)


def input_producer(input_tensor: Any, element_shape: Any = None, num_epochs: int | None = None,
                   shuffle: bool = True, seed: int | None = None, capacity: int = 32,
                   shared_name: str | None = None, summary_name: str | None = None,
                   name: str | None = None, cancel_op: Any = None) -> Any:
    """A queue fed with the rows of ``input_tensor``, epoch after epoch (shuffled each epoch
    with ``shuffle``), by a QueueRunner.

    Args:
        input_tensor: The rows to produce.
        element_shape: The shape of a row, if ``input_tensor``'s is not known.
        num_epochs: How many epochs; None for no limit.
        shuffle: Whether to shuffle the rows in each epoch.
        seed: The shuffle's seed.
        capacity: The queue's capacity.
        shared_name: Accepted for TensorFlow's signature.
        summary_name: The name in the queue's summary.
        name: A name for the operations.
        cancel_op: The runner's cancel op.

    Returns:
        The queue (a FIFOQueue).

    Raises:
        ValueError: if the row shape is unknown.
    """
    _no_eager("input_producer")
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(
            TensorShape(element_shape) if element_shape is not None else TensorShape(None))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                      shapes=[element_shape], name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            scalar(summary_name, multiply(cast(q.size(), dtypes.float32), 1.0 / capacity))
        return q


def string_input_producer(string_tensor: Any, num_epochs: int | None = None,
                          shuffle: bool = True, seed: int | None = None, capacity: int = 32,
                          shared_name: str | None = None, name: str | None = None,
                          cancel_op: Any = None) -> Any:
    """A queue of the strings (file names) of ``string_tensor``, for a reader.

    Args:
        string_tensor: A 1-D string tensor (or list).
        num_epochs: How many epochs; None for no limit.
        shuffle: Whether to shuffle the strings in each epoch.
        seed: The shuffle's seed.
        capacity: The queue's capacity.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.
        cancel_op: The runner's cancel op.

    Returns:
        The queue.

    Raises:
        ValueError: if ``string_tensor`` is an empty list.
    """
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not executing_eagerly() and isinstance(string_tensor, (list, tuple)) \
            and not string_tensor:
        raise ValueError(not_null_err)
    with name_scope(name, "input_producer", [string_tensor]) as scope:
        string_tensor = convert_to_tensor(string_tensor, dtypes.string)
        with control_dependencies([Assert(greater(size(string_tensor), 0), [not_null_err])]):
            string_tensor = identity(string_tensor)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, "fraction_of_%d_full" % capacity, name=scope,
                              cancel_op=cancel_op)


def range_input_producer(limit: Any, num_epochs: int | None = None, shuffle: bool = True,
                         seed: int | None = None, capacity: int = 32,
                         shared_name: str | None = None, name: str | None = None) -> Any:
    """A queue of the integers 0 .. limit - 1, epoch after epoch.

    Args:
        limit: The number of integers.
        num_epochs: How many epochs; None for no limit.
        shuffle: Whether to shuffle them in each epoch.
        seed: The shuffle's seed.
        capacity: The queue's capacity.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The queue.
    """
    with name_scope(name, "input_producer", [limit]) as scope:
        return input_producer(range_op(limit), [], num_epochs, shuffle, seed, capacity,
                              shared_name, "fraction_of_%d_full" % capacity, name=scope)


def slice_input_producer(tensor_list: list, num_epochs: int | None = None,
                         shuffle: bool = True, seed: int | None = None, capacity: int = 32,
                         shared_name: str | None = None, name: str | None = None) -> list:
    """One row of each tensor of ``tensor_list`` (the same row of each), epoch after epoch.

    Args:
        tensor_list: Tensors with the same first dimension.
        num_epochs: How many epochs; None for no limit.
        shuffle: Whether to shuffle the rows in each epoch.
        seed: The shuffle's seed.
        capacity: The queue's capacity.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The rows, one tensor per input.

    Raises:
        ValueError: for an empty ``tensor_list``.
    """
    with name_scope(name, "input_producer", tensor_list):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [gather(t, index) for t in tensor_list]


# --------------------------------------------------------------------------------------
# Batching


def _flatten(tensors: Any) -> list:
    """TensorFlow's ``_as_tensor_list``: a dict's values by sorted key, or the list."""
    if isinstance(tensors, dict):
        tensors = [tensors[k] for k in sorted(tensors, key=str)]
    elif not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    return [convert_to_tensor(t) for t in tensors]


def _as_original_type(original: Any, dequeued: Any) -> Any:
    """TensorFlow's ``_as_original_type``: a dict again for a dict, else the dequeue's output
    (one tensor for one component, a list otherwise)."""
    if isinstance(original, dict):
        values = dequeued if isinstance(dequeued, list) else [dequeued]
        return {k: values[i] for i, k in enumerate(sorted(original, key=str))}
    return dequeued


def _shapes(tensor_list_list: list, shapes: Any, enqueue_many: bool,
            dynamic_pad: bool) -> list:
    if shapes is not None:
        return [TensorShape(s) for s in shapes]
    out = []
    for i, t in enumerate(tensor_list_list[0]):
        s = t.shape[1:] if enqueue_many else t.shape
        for other in tensor_list_list[1:]:
            s = s.merge_with(other[i].shape[1:] if enqueue_many else other[i].shape)
        if not s.is_fully_defined() and not dynamic_pad:
            raise ValueError("All shapes must be fully defined: %s"
                             % [t2.shape for t2 in tensor_list_list[0]])
        out.append(s)
    return out


def _keep(tensors: list, keep_input: Any, enqueue_many: bool) -> tuple:
    """The enqueue's tensors and whether to enqueue (``maybe_*``'s ``keep_input``)."""
    if keep_input is None:
        return tensors, None
    keep = convert_to_tensor(keep_input, dtypes.bool)
    if enqueue_many:
        if keep.shape.rank == 0:
            raise ValueError("`keep_input` must be a vector when enqueue_many=True")
        return [boolean_mask(t, keep) for t in tensors], None
    if keep.shape.rank not in (None, 0):
        raise ValueError("`keep_input` must be a scalar when enqueue_many=False")
    return tensors, keep


def _enqueue(queue: Any, tensors: list, enqueue_many: bool, keep: Any) -> Any:
    if keep is None:
        return queue.enqueue_many(tensors) if enqueue_many else queue.enqueue(tensors)
    from flowgrad.ops.cond_v2 import cond_v1
    from flowgrad.ops.control_flow_ops import no_op
    return cond_v1(keep, lambda: queue.enqueue(tensors), no_op)


def _make_batch(tensors_list: list, batch_size: Any, capacity: int, enqueue_many: bool,
                shapes: Any, dynamic_pad: bool, allow_smaller_final_batch: bool,
                keep_input: Any, name: str, shuffle: dict | None = None) -> Any:
    """TensorFlow's ``_batch``/``_shuffle_batch`` (and their ``_join`` forms): the queue, one
    enqueue op per tensor list (thread), the summary and the dequeue."""
    _no_eager(name)
    structure = tensors_list[0]
    flat = [_flatten(t) for t in tensors_list]
    types = [t.dtype.base_dtype for t in flat[0]]
    for other in flat[1:]:
        if [t.dtype.base_dtype for t in other] != types:
            raise TypeError("Expected types to be the same for every tensor list")
    shape_list = _shapes(flat, shapes, enqueue_many, dynamic_pad)
    with name_scope(name, name, [t for f in flat for t in f]) as scope:
        if shuffle is not None:
            queue = RandomShuffleQueue(capacity, shuffle["min_after_dequeue"], types,
                                       shape_list, seed=shuffle["seed"])
        elif dynamic_pad:
            queue = PaddingFIFOQueue(capacity, types, shape_list)
        else:
            queue = FIFOQueue(capacity, types, shape_list)
        enqueues = []
        for tensors in flat:
            kept, keep = _keep(tensors, keep_input, enqueue_many)
            enqueues.append(_enqueue(queue, kept, enqueue_many, keep))
        add_queue_runner(QueueRunner(queue, enqueues))
        if shuffle is None:
            scalar("fraction_of_%d_full" % capacity,
                   multiply(cast(queue.size(), dtypes.float32), 1.0 / capacity))
        else:
            room = capacity - shuffle["min_after_dequeue"]
            scalar("fraction_over_%d_of_%d_full" % (shuffle["min_after_dequeue"], room),
                   multiply(cast(maximum(0, subtract(queue.size(),
                                                     shuffle["min_after_dequeue"])),
                                 dtypes.float32), 1.0 / room))
        out = queue.dequeue_up_to(batch_size, name=scope) if allow_smaller_final_batch \
            else queue.dequeue_many(batch_size, name=scope)
        return _as_original_type(structure, out)


def _threads(tensors: Any, num_threads: int) -> list:
    return [tensors] * int(num_threads)


_BATCH_ARGS = """
    Args:
        tensors: The tensors of one example (a list or a dict), or of many with
            ``enqueue_many``.
        batch_size: The batch size.
        num_threads: How many threads enqueue.
        capacity: The queue's capacity.
        enqueue_many: Whether ``tensors``' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        dynamic_pad: Whether examples of different shapes are padded (a PaddingFIFOQueue).
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.
"""


def batch(tensors: Any, batch_size: Any, num_threads: int = 1, capacity: int = 32,
          enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
          allow_smaller_final_batch: bool = False, shared_name: str | None = None,
          name: str | None = None) -> Any:
    return _make_batch(_threads(tensors, num_threads), batch_size, capacity, enqueue_many,
                       shapes, dynamic_pad, allow_smaller_final_batch, None, name or "batch")


batch.__doc__ = """Batches of examples, in order, by a FIFO queue and QueueRunner.
""" + _BATCH_ARGS + """
    Returns:
        The batch: ``tensors``' structure with a leading batch dimension.

    Raises:
        ValueError: if a shape is not fully defined (without ``shapes`` or ``dynamic_pad``).
"""


def maybe_batch(tensors: Any, keep_input: Any, batch_size: Any, num_threads: int = 1,
                capacity: int = 32, enqueue_many: bool = False, shapes: Any = None,
                dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
                shared_name: str | None = None, name: str | None = None) -> Any:
    return _make_batch(_threads(tensors, num_threads), batch_size, capacity, enqueue_many,
                       shapes, dynamic_pad, allow_smaller_final_batch, keep_input,
                       name or "batch")


maybe_batch.__doc__ = """``batch`` of the examples for which ``keep_input`` is true.
""" + _BATCH_ARGS.replace("        batch_size:", "        keep_input: A bool scalar (a vector "
                          "with enqueue_many): whether to keep the example.\n        "
                          "batch_size:") + """
    Returns:
        The batch.
"""


def batch_join(tensors_list: list, batch_size: Any, capacity: int = 32,
               enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
               allow_smaller_final_batch: bool = False, shared_name: str | None = None,
               name: str | None = None) -> Any:
    """Batches of examples from several lists of tensors, one enqueuing thread each.

    Args:
        tensors_list: The example tensors of each thread (same structure and dtypes).
        batch_size: The batch size.
        capacity: The queue's capacity.
        enqueue_many: Whether the tensors' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        dynamic_pad: Whether examples of different shapes are padded.
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The batch.
    """
    return _make_batch(list(tensors_list), batch_size, capacity, enqueue_many, shapes,
                       dynamic_pad, allow_smaller_final_batch, None, name or "batch_join")


def maybe_batch_join(tensors_list: list, keep_input: Any, batch_size: Any, capacity: int = 32,
                     enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
                     allow_smaller_final_batch: bool = False, shared_name: str | None = None,
                     name: str | None = None) -> Any:
    """``batch_join`` of the examples for which ``keep_input`` is true.

    Args:
        tensors_list: The example tensors of each thread.
        keep_input: A bool scalar (a vector with enqueue_many): whether to keep the example.
        batch_size: The batch size.
        capacity: The queue's capacity.
        enqueue_many: Whether the tensors' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        dynamic_pad: Whether examples of different shapes are padded.
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The batch.
    """
    return _make_batch(list(tensors_list), batch_size, capacity, enqueue_many, shapes,
                       dynamic_pad, allow_smaller_final_batch, keep_input,
                       name or "batch_join")


def shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int,
                  num_threads: int = 1, seed: int | None = None, enqueue_many: bool = False,
                  shapes: Any = None, allow_smaller_final_batch: bool = False,
                  shared_name: str | None = None, name: str | None = None) -> Any:
    """Batches of examples in random order, by a RandomShuffleQueue that keeps at least
    ``min_after_dequeue`` examples to mix.

    Args:
        tensors: The tensors of one example (a list or dict), or of many (``enqueue_many``).
        batch_size: The batch size.
        capacity: The queue's capacity.
        min_after_dequeue: The fewest examples left in the queue after a dequeue.
        num_threads: How many threads enqueue.
        seed: The shuffle's seed.
        enqueue_many: Whether ``tensors``' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The batch.
    """
    return _make_batch(_threads(tensors, num_threads), batch_size, capacity, enqueue_many,
                       shapes, False, allow_smaller_final_batch, None,
                       name or "shuffle_batch",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed})


def maybe_shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int,
                        keep_input: Any, num_threads: int = 1, seed: int | None = None,
                        enqueue_many: bool = False, shapes: Any = None,
                        allow_smaller_final_batch: bool = False,
                        shared_name: str | None = None, name: str | None = None) -> Any:
    """``shuffle_batch`` of the examples for which ``keep_input`` is true.

    Args:
        tensors: The tensors of one example (a list or dict), or of many (``enqueue_many``).
        batch_size: The batch size.
        capacity: The queue's capacity.
        min_after_dequeue: The fewest examples left in the queue after a dequeue.
        keep_input: A bool scalar (a vector with enqueue_many): whether to keep the example.
        num_threads: How many threads enqueue.
        seed: The shuffle's seed.
        enqueue_many: Whether ``tensors``' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The batch.
    """
    return _make_batch(_threads(tensors, num_threads), batch_size, capacity, enqueue_many,
                       shapes, False, allow_smaller_final_batch, keep_input,
                       name or "shuffle_batch",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed})


def shuffle_batch_join(tensors_list: list, batch_size: Any, capacity: int,
                       min_after_dequeue: int, seed: int | None = None,
                       enqueue_many: bool = False, shapes: Any = None,
                       allow_smaller_final_batch: bool = False, shared_name: str | None = None,
                       name: str | None = None) -> Any:
    """``shuffle_batch`` from several lists of tensors, one enqueuing thread each.

    Args:
        tensors_list: The example tensors of each thread.
        batch_size: The batch size.
        capacity: The queue's capacity.
        min_after_dequeue: The fewest examples left in the queue after a dequeue.
        seed: The shuffle's seed.
        enqueue_many: Whether the tensors' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The batch.
    """
    return _make_batch(list(tensors_list), batch_size, capacity, enqueue_many, shapes, False,
                       allow_smaller_final_batch, None, name or "shuffle_batch_join",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed})


def maybe_shuffle_batch_join(tensors_list: list, batch_size: Any, capacity: int,
                             min_after_dequeue: int, keep_input: Any, seed: int | None = None,
                             enqueue_many: bool = False, shapes: Any = None,
                             allow_smaller_final_batch: bool = False,
                             shared_name: str | None = None, name: str | None = None) -> Any:
    """``shuffle_batch_join`` of the examples for which ``keep_input`` is true.

    Args:
        tensors_list: The example tensors of each thread.
        batch_size: The batch size.
        capacity: The queue's capacity.
        min_after_dequeue: The fewest examples left in the queue after a dequeue.
        keep_input: A bool scalar (a vector with enqueue_many): whether to keep the example.
        seed: The shuffle's seed.
        enqueue_many: Whether the tensors' first dimension is a batch of examples.
        shapes: The example's shapes, if not the tensors'.
        allow_smaller_final_batch: Whether the last batch may be smaller.
        shared_name: Accepted for TensorFlow's signature.
        name: A name for the operations.

    Returns:
        The batch.
    """
    return _make_batch(list(tensors_list), batch_size, capacity, enqueue_many, shapes, False,
                       allow_smaller_final_batch, keep_input, name or "shuffle_batch_join",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed})


__all__ = ["match_filenames_once", "limit_epochs", "input_producer", "string_input_producer",
           "range_input_producer", "slice_input_producer", "batch", "maybe_batch",
           "batch_join", "maybe_batch_join", "shuffle_batch", "maybe_shuffle_batch",
           "shuffle_batch_join", "maybe_shuffle_batch_join"]
