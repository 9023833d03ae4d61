"""TensorFlow 1's queues: ``tf.queue.FIFOQueue``, ``RandomShuffleQueue``, ``PaddingFIFOQueue``
and ``PriorityQueue`` (``tf.compat.v1.FIFOQueue`` ...), the input pipelines of TF1 programs.

A queue is made by its op (FIFOQueueV2, ...: a string handle) and used by ops that enqueue,
dequeue, close it and tell its size (QueueEnqueueV2, QueueDequeueManyV2, QueueCloseV2, ...,
TensorFlow's op types). Their kernels share the queue's state -- its elements, a condition
variable and whether it is closed -- which the ops carry as an attribute, so a queue lives
with its graph (TensorFlow keeps it in the session's resource manager: two sessions of one
graph share a flowgrad queue).

As in TensorFlow, an enqueue into a full queue and a dequeue from a queue without enough
elements block until another thread (a ``tf.train.QueueRunner``'s) makes room or brings
elements; closing the queue wakes them: a blocked dequeue then raises ``OutOfRangeError``
once the queue holds too few elements, an enqueue into a closed queue raises
``CancelledError``. A RandomShuffleQueue dequeues a random element once it holds more than
``min_after_dequeue`` (or it is closed); its choices come from the op's seed but are not
TensorFlow's. None of these ops has a gradient."""
from __future__ import annotations

import collections
import heapq
import itertools
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import CancelledError, InvalidArgumentError, OutOfRangeError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.philox import PhiloxStream
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape
from flowgrad.ops.random_ops import get_seed

# --------------------------------------------------------------------------------------
# The queue's state, shared by its ops' kernels


class _QueueState:
    """A queue's elements (tuples of arrays, one per component) and its condition."""

    def __init__(self, kind: str, name: str, capacity: int, dtypes_: tuple, shapes: tuple,
                 min_after_dequeue: int = 0, seed: int = 0, seed2: int = 0) -> None:
        self.kind, self.name, self.capacity = kind, name, capacity
        self.handle_name = name          # what the queue's op outputs
        self.dtypes, self.shapes = dtypes_, shapes
        self.min_after_dequeue = min_after_dequeue
        self.items: Any = [] if kind in ("RandomShuffleQueueV2", "PriorityQueueV2") \
            else collections.deque()
        self.closed = False
        self.cancelled = False
        self.cond = threading.Condition()
        self._tiebreak = itertools.count()
        self._rng = PhiloxStream(seed, seed2).numpy_generator() if seed or seed2 else \
            np.random.default_rng()

    # -- under self.cond
    def _full(self) -> bool:
        return self.capacity >= 0 and len(self.items) >= self.capacity

    def _put(self, element: tuple) -> None:
        if self.kind == "PriorityQueueV2":
            heapq.heappush(self.items, (int(element[0]), next(self._tiebreak), element))
        else:
            self.items.append(element)

    def _take(self) -> tuple:
        if self.kind == "PriorityQueueV2":
            return heapq.heappop(self.items)[2]
        if self.kind == "RandomShuffleQueueV2":
            i = int(self._rng.integers(len(self.items)))
            self.items[i], self.items[-1] = self.items[-1], self.items[i]
            return self.items.pop()
        return self.items.popleft()

    def _closed_error(self) -> CancelledError:
        return CancelledError(None, None, "%s '%s' is closed." % (_KIND_NAMES[self.kind],
                                                                  self.name))

    def _available(self) -> int:
        """How many elements a dequeue may take now (a shuffle queue keeps
        ``min_after_dequeue`` until it is closed)."""
        if self.kind == "RandomShuffleQueueV2" and not self.closed:
            return max(0, len(self.items) - self.min_after_dequeue)
        return len(self.items)

    # -- the kernels' operations
    def enqueue(self, elements: list) -> None:
        with self.cond:
            for element in elements:
                while True:
                    if self.closed:
                        raise self._closed_error()
                    if not self._full():
                        break
                    self.cond.wait(0.1)
                self._put(element)
                self.cond.notify_all()

    def dequeue(self, n: int, up_to: bool = False) -> list:
        """``n`` elements, taken as they come (so ``n`` may exceed the capacity); once the
        queue is closed with too few, they go back and OutOfRangeError is raised (``up_to``:
        what there is is returned)."""
        taken: list = []
        with self.cond:
            while len(taken) < n:
                if self.cancelled:
                    raise self._closed_error()
                available = self._available()
                if available:
                    taken.extend(self._take() for _ in range(min(available, n - len(taken))))
                    self.cond.notify_all()
                    continue
                if self.closed:
                    if up_to and (taken or self.items):
                        taken.extend(self._take() for _ in range(min(len(self.items),
                                                                     n - len(taken))))
                        break
                    for element in reversed(taken):         # back where they were
                        self._put_back(element)
                    raise OutOfRangeError(
                        None, None, "%s '%s' is closed and has insufficient elements "
                        "(requested %d, current size %d)"
                        % (_KIND_NAMES[self.kind], self.name, n, len(self.items)))
                self.cond.wait(0.1)
            return taken

    def _put_back(self, element: tuple) -> None:
        if self.kind == "FIFOQueueV2" or self.kind == "PaddingFIFOQueueV2":
            self.items.appendleft(element)
        else:
            self._put(element)

    def close(self, cancel_pending_enqueues: bool) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def size(self) -> int:
        with self.cond:
            return len(self.items)


_KIND_NAMES = {"FIFOQueueV2": "FIFOQueue", "PaddingFIFOQueueV2": "PaddingFIFOQueue",
               "RandomShuffleQueueV2": "RandomShuffleQueue", "PriorityQueueV2": "PriorityQueue"}


# --------------------------------------------------------------------------------------
# Kernels


def _component(queue: _QueueState, i: int, value: Any, batched: bool) -> np.ndarray:
    """Component ``i`` of an enqueued element, checked against the queue's dtype and shape."""
    v = np.asarray(value, dtype=queue.dtypes[i].as_numpy_dtype)
    shape = queue.shapes[i] if queue.shapes else None
    got = v.shape[1:] if batched else v.shape
    if shape is not None and not shape.is_compatible_with(got):
        raise InvalidArgumentError(None, None, "Shape mismatch in tuple component %d. Expected "
                                   "%s, got %s" % (i, shape.as_list(), list(got)))
    return v


def _enqueue_kernel(handle: Any, *components: Any, queue: _QueueState) -> None:
    queue.enqueue([tuple(_component(queue, i, c, False) for i, c in enumerate(components))])


def _enqueue_many_kernel(handle: Any, *components: Any, queue: _QueueState) -> None:
    vals = [_component(queue, i, c, True) for i, c in enumerate(components)]
    n = {v.shape[0] if v.ndim else -1 for v in vals}
    if len(n) != 1 or -1 in n:
        raise InvalidArgumentError(None, None, "Shape mismatch in tuple components: every "
                                   "component of enqueue_many needs the same first dimension")
    queue.enqueue([tuple(v[j] for v in vals) for j in range(n.pop())])


def _stack(queue: _QueueState, elements: list, i: int) -> np.ndarray:
    parts = [e[i] for e in elements]
    if queue.kind == "PaddingFIFOQueueV2":
        rank = parts[0].ndim if parts else 0
        size = [max((p.shape[d] for p in parts), default=0) for d in range(rank)]
        out = np.zeros([len(parts)] + size, queue.dtypes[i].as_numpy_dtype)
        if queue.dtypes[i] is dtypes.string:
            out = np.full([len(parts)] + size, b"", object)
        for j, p in enumerate(parts):
            out[(j,) + tuple(slice(0, d) for d in p.shape)] = p
        return out
    if not parts:
        shape = queue.shapes[i].as_list() if queue.shapes else []
        return np.zeros([0] + [d or 0 for d in shape], queue.dtypes[i].as_numpy_dtype)
    return np.stack(parts)


def _dequeue_kernel(handle: Any, *, queue: _QueueState, component_types: tuple,
                    **shapes: Any) -> Any:
    element = queue.dequeue(1)[0]
    return element[0] if len(element) == 1 else tuple(element)


def _dequeue_many_kernel(handle: Any, n: Any, *, queue: _QueueState, component_types: tuple,
                         up_to: bool = False, **shapes: Any) -> Any:
    n = int(n)
    if n < 0:
        raise InvalidArgumentError(None, None, "Dequeue: n must be >= 0, got %d" % n)
    elements = queue.dequeue(n, up_to=up_to)
    out = tuple(_stack(queue, elements, i) for i in range(len(component_types)))
    return out[0] if len(out) == 1 else out


def _close_kernel(handle: Any, *, queue: _QueueState, cancel_pending_enqueues: bool) -> None:
    queue.close(cancel_pending_enqueues)


def _size_kernel(handle: Any, *, queue: _QueueState) -> np.ndarray:
    return np.array(queue.size(), np.int32)


def _is_closed_kernel(handle: Any, *, queue: _QueueState) -> np.ndarray:
    return np.array(queue.closed)


def _queue_kernel(*, queue: _QueueState, **attrs: Any) -> np.ndarray:
    return np.array(queue.handle_name.encode(), object)


_SCALAR = TensorShape([])
for _kind in _KIND_NAMES:
    register_op(_kind, _queue_kernel, lambda ins, attrs: (dtypes.string, _SCALAR),
                grad=_NO_GRADIENT, stateful=True)
register_op("QueueEnqueueV2", _enqueue_kernel, lambda ins, attrs: [], num_outputs=0,
            grad=_NO_GRADIENT, stateful=True, input_names=("handle", "components"))
register_op("QueueEnqueueManyV2", _enqueue_many_kernel, lambda ins, attrs: [], num_outputs=0,
            grad=_NO_GRADIENT, stateful=True, input_names=("handle", "components"))


def _dequeue_infer(ins: list, attrs: dict) -> list:
    shapes = attrs.get("shapes") or [TensorShape(None)] * len(attrs["component_types"])
    return [(t, s) for t, s in zip(attrs["component_types"], shapes)]


def _dequeue_many_infer(ins: list, attrs: dict) -> list:
    shapes = attrs.get("shapes") or [TensorShape(None)] * len(attrs["component_types"])
    n = attrs.get("batch")
    return [(t, TensorShape([n]).concatenate(s)) for t, s in zip(attrs["component_types"],
                                                                  shapes)]


_NUM = {"num_outputs": lambda attrs: len(attrs["component_types"])}
register_op("QueueDequeueV2", _dequeue_kernel, _dequeue_infer, grad=_NO_GRADIENT,
            stateful=True, input_names=("handle",), **_NUM)
register_op("QueueDequeueManyV2", _dequeue_many_kernel, _dequeue_many_infer,
            grad=_NO_GRADIENT, stateful=True, input_names=("handle", "n"), **_NUM)
register_op("QueueDequeueUpToV2", lambda h, n, **a: _dequeue_many_kernel(h, n, up_to=True, **a),
            _dequeue_many_infer, grad=_NO_GRADIENT, stateful=True, input_names=("handle", "n"),
            **_NUM)
register_op("QueueCloseV2", _close_kernel, lambda ins, attrs: [], num_outputs=0,
            grad=_NO_GRADIENT, stateful=True, input_names=("handle",))
register_op("QueueSizeV2", _size_kernel, lambda ins, attrs: (dtypes.int32, _SCALAR),
            grad=_NO_GRADIENT, stateful=True, input_names=("handle",))
register_op("QueueIsClosedV2", _is_closed_kernel, lambda ins, attrs: (dtypes.bool, _SCALAR),
            grad=_NO_GRADIENT, stateful=True, input_names=("handle",))


# --------------------------------------------------------------------------------------
# The queue classes


def _as_dtypes(types: Any) -> tuple:
    if not isinstance(types, (list, tuple)):
        types = [types]
    return tuple(dtypes.as_dtype(t) for t in types)


def _as_shapes(shapes: Any, n: int) -> tuple:
    if shapes is None:
        return ()
    if isinstance(shapes, (TensorShape,)) or (isinstance(shapes, (list, tuple)) and shapes
                                              and not isinstance(shapes[0], (list, tuple,
                                                                             TensorShape))
                                              and n == 1):
        shapes = [shapes]
    shapes = tuple(as_shape(s) for s in shapes)
    if len(shapes) != n:
        raise ValueError("Queue shapes must have the same length as dtypes")
    return shapes


def name_of(queue_ref: Any) -> str:
    """A queue's name: its op's (eager: the state's, without the resource number)."""
    op = getattr(queue_ref, "op", None)
    return op.name if op is not None else str(queue_ref.numpy().decode())


class QueueBase:
    """A queue of tuples of tensors (TensorFlow's ``tf.queue.QueueBase``): ``enqueue``,
    ``enqueue_many``, ``dequeue``, ``dequeue_many``, ``dequeue_up_to``, ``close`` and
    ``size`` make ops of the default graph (or run at once when executing eagerly).

    Args:
        dtypes: The components' dtypes.
        shapes: The components' shapes (per element), or None.
        names: The components' names (elements are then dicts), or None.
        queue_ref: The queue's handle tensor.
    """

    def __init__(self, dtypes: Any, shapes: Any, names: Any, queue_ref: Any) -> None:
        self._dtypes = _as_dtypes(dtypes)
        self._shapes = _as_shapes(shapes, len(self._dtypes))
        if names is not None:
            names = [names] if isinstance(names, str) else list(names)
            if len(names) != len(self._dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
        self._names = names
        self._queue_ref = queue_ref
        if getattr(self, "_state", None) is None:       # a graph queue's state: its op's
            self._state = queue_ref.op._attrs["queue"]
        self._name = name_of(queue_ref)

    @staticmethod
    def from_list(index: Any, queues: Sequence) -> QueueBase:
        """Not supported: flowgrad has no QueueSelect (a NotImplementedError).

        Args:
            index: The index of the queue to use.
            queues: The queues to choose from.
        """
        raise NotImplementedError("QueueBase.from_list is not supported")

    @property
    def queue_ref(self) -> Any:
        return self._queue_ref

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtypes(self) -> list:
        return list(self._dtypes)

    @property
    def shapes(self) -> list:
        return list(self._shapes) if self._shapes else [TensorShape(None)] * len(self._dtypes)

    @property
    def names(self) -> Any:
        return self._names

    def _flat(self, vals: Any, batched: bool) -> list:
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names) != sorted(vals.keys()):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  "
                                 "Dictionary: (%s), Queue: (%s)"
                                 % (sorted(vals.keys()), sorted(self._names)))
            vals = [vals[k] for k in self._names]
        elif isinstance(vals, dict):
            raise ValueError("Queue must have names to enqueue a dictionary")
        if not isinstance(vals, (list, tuple)):
            vals = [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError("Expected %d components for queue %s, got %d"
                             % (len(self._dtypes), self._name, len(vals)))
        out = []
        for i, (v, dt) in enumerate(zip(vals, self._dtypes)):
            t = convert_to_tensor(v, dt, name="component_%d" % i)
            if self._shapes:
                want = self._shapes[i]
                got = t.shape[1:] if batched and t.shape.rank else t.shape
                if batched and t.shape.rank == 0:
                    raise ValueError("Shape must be at least rank 1 for enqueue_many")
                if not want.is_compatible_with(got):
                    raise ValueError("Shapes %s and %s are incompatible" % (got, want))
            out.append(t)
        return out

    def _attrs(self) -> dict:
        return {"queue": self._state}

    def enqueue(self, vals: Any, name: str | None = None) -> Any:
        """An op adding one element.

        Args:
            vals: A tensor, a list/tuple of tensors, or a dict (for a queue with names).
            name: A name for the operation (optional).
        """
        with name_scope(name, "%s_enqueue" % self._name):
            return apply_op("QueueEnqueueV2", [self._queue_ref] + self._flat(vals, False),
                            self._attrs(), name=name)

    def enqueue_many(self, vals: Any, name: str | None = None) -> Any:
        """An op adding the elements sliced from ``vals``' first dimension.

        Args:
            vals: Tensors with a leading batch dimension (as for ``enqueue``).
            name: A name for the operation (optional).
        """
        with name_scope(name, "%s_EnqueueMany" % self._name):
            return apply_op("QueueEnqueueManyV2", [self._queue_ref] + self._flat(vals, True),
                            self._attrs(), name=name)

    def _pack(self, out: Any) -> Any:
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if self._names is not None:
            return dict(zip(self._names, out))
        return out[0] if len(out) == 1 else out

    def _dequeue_attrs(self, batch: Any = None) -> dict:
        attrs = dict(self._attrs(), component_types=self._dtypes,
                     shapes=list(self._shapes) if self._shapes else None)
        if batch is not None:
            attrs["batch"] = batch
        return attrs

    def dequeue(self, name: str | None = None) -> Any:
        """One element (blocks until there is one; OutOfRangeError once closed and empty).

        Args:
            name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_Dequeue" % self._name
        return self._pack(apply_op("QueueDequeueV2", [self._queue_ref], self._dequeue_attrs(),
                                   name=name))

    def dequeue_many(self, n: Any, name: str | None = None) -> Any:
        """``n`` elements, stacked (blocks until there are ``n``).

        Args:
            n: The number of elements.
            name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_DequeueMany" % self._name
        n_t = convert_to_tensor(n, dtypes.int32, name="n")
        batch = n if isinstance(n, int) else None
        return self._pack(apply_op("QueueDequeueManyV2", [self._queue_ref, n_t],
                                   self._dequeue_attrs(batch), name=name))

    def dequeue_up_to(self, n: Any, name: str | None = None) -> Any:
        """Up to ``n`` elements: ``n`` while the queue is open, what is left once closed.

        Args:
            n: The largest number of elements.
            name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_DequeueUpTo" % self._name
        n_t = convert_to_tensor(n, dtypes.int32, name="n")
        return self._pack(apply_op("QueueDequeueUpToV2", [self._queue_ref, n_t],
                                   self._dequeue_attrs(None), name=name))

    def close(self, cancel_pending_enqueues: bool = False, name: str | None = None) -> Any:
        """An op closing the queue: no more enqueues; dequeues take what is left.

        Args:
            cancel_pending_enqueues: Whether blocked enqueues are cancelled.
            name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_Close" % self._name
        return apply_op("QueueCloseV2", [self._queue_ref],
                        dict(self._attrs(), cancel_pending_enqueues=bool(
                            cancel_pending_enqueues)), name=name)

    def is_closed(self, name: str | None = None) -> Any:
        """Whether the queue is closed (a bool tensor).

        Args:
            name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_Is_Closed" % self._name
        return apply_op("QueueIsClosedV2", [self._queue_ref], self._attrs(), name=name)

    def size(self, name: str | None = None) -> Any:
        """The number of elements in the queue (an int32 tensor).

        Args:
            name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_Size" % self._name
        return apply_op("QueueSizeV2", [self._queue_ref], self._attrs(), name=name)


_RESOURCE_NUMBERS = itertools.count()


def _make_queue(queue: QueueBase, kind: str, name: str, capacity: int, types: Any,
                shapes: Any, **extra: Any) -> Any:
    """The queue's op (its handle), with a new state that ``queue`` keeps."""
    types_ = _as_dtypes(types)
    state = _QueueState(kind, name, int(capacity), types_, _as_shapes(shapes, len(types_)),
                        **extra)
    ref = apply_op(kind, [], {"queue": state, "capacity": int(capacity),
                              "component_types": types_}, name=name)
    # TensorFlow's resource name: a process-wide number and the op's (unique) name
    state.name = "_%d_%s" % (next(_RESOURCE_NUMBERS), name if executing_eagerly()
                             else ref.op.name)
    queue._state = state
    return ref


class FIFOQueue(QueueBase):
    """A first-in first-out queue.

    Args:
        capacity: The most elements the queue holds (enqueues block beyond it).
        dtypes: The components' dtypes.
        shapes: The components' shapes, or None.
        names: The components' names, or None.
        shared_name: Accepted for TensorFlow's signature.
        name: The queue's name.
    """

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Any = None,
                 shared_name: str | None = None, name: str = "fifo_queue") -> None:
        ref = _make_queue(self, "FIFOQueueV2", name or "fifo_queue", capacity, dtypes, shapes)
        super().__init__(dtypes, shapes, names, ref)


class PaddingFIFOQueue(QueueBase):
    """A FIFO queue whose ``dequeue_many`` pads each batch's components with zeros to the
    batch's largest shape (shapes may have unknown dimensions, ``None``).

    Args:
        capacity: The most elements the queue holds.
        dtypes: The components' dtypes.
        shapes: The components' shapes (required; None for unknown dimensions).
        names: The components' names, or None.
        shared_name: Accepted for TensorFlow's signature.
        name: The queue's name.

    Raises:
        ValueError: if ``shapes`` does not have one shape per dtype.
    """

    def __init__(self, capacity: int, dtypes: Any, shapes: Any, names: Any = None,
                 shared_name: str | None = None, name: str = "padding_fifo_queue") -> None:
        types = _as_dtypes(dtypes)
        if shapes is None or len(_as_shapes(shapes, len(types))) != len(types):
            raise ValueError("Shapes must be provided for all components, but received %d "
                             "dtypes and %d shapes." % (len(types), 0 if shapes is None
                                                        else len(shapes)))
        ref = _make_queue(self, "PaddingFIFOQueueV2", name or "padding_fifo_queue", capacity,
                          dtypes, shapes)
        super().__init__(dtypes, shapes, names, ref)


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues its elements in random order, keeping at least
    ``min_after_dequeue`` of them (until it is closed) so that they mix.

    Args:
        capacity: The most elements the queue holds.
        min_after_dequeue: The fewest elements left after a dequeue, while open.
        dtypes: The components' dtypes.
        shapes: The components' shapes, or None.
        names: The components' names, or None.
        seed: The op seed (with the graph seed).
        shared_name: Accepted for TensorFlow's signature.
        name: The queue's name.
    """

    def __init__(self, capacity: int, min_after_dequeue: int, dtypes: Any, shapes: Any = None,
                 names: Any = None, seed: int | None = None, shared_name: str | None = None,
                 name: str = "random_shuffle_queue") -> None:
        s1, s2 = get_seed(seed)
        ref = _make_queue(self, "RandomShuffleQueueV2", name or "random_shuffle_queue", capacity,
                          dtypes, shapes, min_after_dequeue=int(min_after_dequeue),
                          seed=s1 or 0, seed2=s2 or 0)
        super().__init__(dtypes, shapes, names, ref)


class PriorityQueue(QueueBase):
    """A queue that dequeues the element with the lowest priority first: each element's
    first component is its int64 priority (not part of ``types``).

    Args:
        capacity: The most elements the queue holds.
        types: The dtypes of the components after the priority.
        shapes: Their shapes, or None.
        names: Their names, or None.
        shared_name: Accepted for TensorFlow's signature.
        name: The queue's name.
    """

    def __init__(self, capacity: int, types: Any, shapes: Any = None, names: Any = None,
                 shared_name: str | None = None, name: str = "priority_queue") -> None:
        types = (dtypes.int64,) + _as_dtypes(types)
        if shapes is not None:
            shapes = [TensorShape([])] + [as_shape(s) for s in shapes]
        ref = _make_queue(self, "PriorityQueueV2", name or "priority_queue", capacity, types,
                          shapes)
        super().__init__(types, shapes, names, ref)


__all__ = ["QueueBase", "FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue", "PriorityQueue"]
