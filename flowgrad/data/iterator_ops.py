"""Iterators over tf.data datasets: Python iteration in eager mode, and in graph mode
``get_next()`` tensors made by a stateful op (IteratorGetNext) whose kernel pulls the
next element; the end of the data raises ``tf.errors.OutOfRangeError`` from ``run``."""
from __future__ import annotations

import abc
import collections.abc
import itertools
import weakref
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.data import iterator_state, structure
from flowgrad.data.structure import ElementStructure, IterationContext
from flowgrad.framework import dtypes, errors
from flowgrad.framework.composite_tensor import CompositeTensor, TypeSpec
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import EagerTensor, constant, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.trackable import Trackable
from flowgrad.data.optional_ops import Optional


class IteratorBase(collections.abc.Iterator, CompositeTensor, metaclass=abc.ABCMeta):
    """``tf.data.Iterator`` of the TF2 face: what ``iter(dataset)`` gives, with
    ``element_spec``, ``get_next()`` and ``get_next_as_optional()`` (Keras's ``fit`` tells a
    dataset's iterator by this class: it reads it with ``get_next_as_optional`` in a
    tf.function, so a dataset of unknown length ends its first epoch cleanly)."""

    @property
    @abc.abstractmethod
    def element_spec(self) -> Any:
        """The nested ``tf.TypeSpec`` of an element."""

    @abc.abstractmethod
    def get_next(self) -> Any:
        """The next element; ``tf.errors.OutOfRangeError`` at the end."""

    @abc.abstractmethod
    def get_next_as_optional(self) -> Optional:
        """The next element as a ``tf.experimental.Optional``, empty at the end."""


class OwnedIterator(IteratorBase, Trackable):
    """Eager iterator: ``next()`` gives the next element as EagerTensors. A
    ``tf.train.Checkpoint`` saves and restores its position (see ``iterator_state``), under
    TensorFlow's key ``<path>/.ATTRIBUTES/ITERATOR_STATE``."""

    _LEGACY_SAVEABLE_NAME = "ITERATOR"     # TensorFlow's saveable name of an iterator

    def __init__(self, dataset: ElementStructure):
        self._dataset = dataset
        self._source = iterator_state.ReplayableSource(dataset)

    def _serialize_to_tensors(self) -> dict:
        """The iterator's position, as a checkpoint saves it."""
        return {"_STATE": iterator_state.serialize(self._source, self._dataset.element_spec)}

    def _check_restored_tensors(self, restored_tensors: dict, where: str) -> dict:
        """The position in ``restored_tensors`` (errors naming ``where`` if it is not one this
        iterator can take)."""
        return iterator_state.deserialize(restored_tensors["_STATE"],
                                          self._dataset.element_spec, where)

    def _restore_from_tensors(self, restored_tensors: dict, where: str = "the iterator") -> None:
        """Goes back to the position a checkpoint saved."""
        position = self._check_restored_tensors(restored_tensors, where)
        self._source = iterator_state.ReplayableSource(self._dataset, position)
        state = getattr(self, "_state", None)
        if state is not None:
            state.source = self._source

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    def __iter__(self) -> OwnedIterator:
        return self

    def __next__(self) -> Any:
        if not executing_eagerly():          # in a tf.function: an op reading on every call
            return self._next_op(optional=False)
        flat = next(self._source)
        return structure.to_eager(self._dataset.element_spec, flat)

    def _iterator_state(self) -> _IteratorState:
        """The state the ops of traced functions read this iterator through (its handle)."""
        state = getattr(self, "_state", None)
        if state is None:
            state = self._state = _IteratorState("Iterator")
            state.source, state.started = self._source, True
        return state

    @property
    def _type_spec(self) -> IteratorSpec:
        return IteratorSpec(self._dataset.element_spec)

    def _next_op(self, optional: bool) -> Any:
        """In a traced function: the op that reads this iterator each time the function runs
        (``optional``: with whether there was an element first, for ``get_next_as_optional``)."""
        return _next_op(self._dataset.element_spec, [], {"iterator": self._iterator_state()},
                        optional)

    def get_next(self, name: str | None = None) -> Any:
        """The next element; OutOfRangeError at the end."""
        try:
            return next(self)
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self) -> Optional:
        """The next element as a ``tf.experimental.Optional``, empty at the end of the data
        (no OutOfRangeError); in a tf.function, read each time the function runs."""
        if not executing_eagerly():
            return self._next_op(optional=True)
        try:
            flat = next(self._source)
        except StopIteration:
            return Optional.empty(self._dataset.element_spec)
        spec = self._dataset.element_spec
        return Optional(structure.to_eager(spec, flat), True, spec)


def _next_op(spec: Any, inputs: list, attrs: dict, optional: bool) -> Any:
    """The op reading the next element of ``spec`` from an iterator (the ``iterator`` attr's,
    else the one whose handle ``inputs`` holds), or as an Optional."""
    specs = structure.flat_specs(spec)
    attrs = dict(attrs, output_types=tuple(s.dtype for s in specs),
                 output_shapes=tuple(s.shape for s in specs))
    if not optional:
        op = "IteratorGetNext" if "iterator" in attrs else "IteratorGetNextFromStringHandle"
        out = apply_op(op, inputs, attrs, name="IteratorGetNext")
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        return structure.pack(spec, out)
    out = list(apply_op("IteratorGetNextAsOptional", inputs, attrs,
                        name="IteratorGetNextAsOptional"))
    return Optional(structure.pack(spec, out[1:]), out[0], spec)


class IteratorSpec(TypeSpec):
    """``tf.data.IteratorSpec``: describes the iterators of datasets whose elements have
    ``element_spec``. An iterator passed to a tf.function is one input (its handle), so the
    function, traced once, reads whichever iterator a call passes (Keras's ``fit`` passes a
    new one every epoch).

    Args:
        element_spec: The nested ``tf.TypeSpec`` of an element.
    """

    def __init__(self, element_spec: Any):
        self._element_spec = element_spec

    @property
    def value_type(self) -> type:
        return OwnedIterator

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def _trace_key(self) -> Any:
        return ("IteratorSpec", repr(self._element_spec))

    def _to_components(self, value: OwnedIterator) -> list:
        # eager even while a trace takes the argument apart: the call feeds the handle
        return [EagerTensor(np.asarray(value._iterator_state().handle.encode(), object),
                            dtypes.string)]

    def _from_components(self, parts: list) -> Any:
        return _HandleIterator(self._element_spec, parts[0])

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._element_spec == other._element_spec

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return "IteratorSpec(%r)" % (self._element_spec,)


class _HandleIterator(IteratorBase):
    """An iterator argument inside a traced function: reads the iterator whose handle the
    call passes."""

    def __init__(self, element_spec: Any, handle: Any):
        self._spec = element_spec
        self._handle = handle

    @property
    def element_spec(self) -> Any:
        return self._spec

    @property
    def _type_spec(self) -> IteratorSpec:
        return IteratorSpec(self._spec)

    def __next__(self) -> Any:
        return self.get_next()

    def get_next(self, name: str | None = None) -> Any:
        """The next element each time the function runs; OutOfRangeError at the end."""
        return _next_op(self._spec, [self._handle], {}, optional=False)

    def get_next_as_optional(self) -> Optional:
        """The next element as an Optional each time the function runs."""
        return _next_op(self._spec, [self._handle], {}, optional=True)


class _IteratorState:
    """The state an iterator's ops share: the running Python iterator of one dataset
    (a one-shot iterator's dataset starts it on the first ``get_next``)."""

    def __init__(self, name: str, one_shot: ElementStructure | None = None):
        self.name = name
        self.one_shot = one_shot
        self.source: collections.abc.Iterator[list] | None = None
        self.started = False
        self.handle = "%s_%d" % (name, next(_handle_ids))
        _handles[self.handle] = self

    def start(self, dataset: ElementStructure, captured: tuple) -> None:
        tensors = dataset._all_captures()
        bindings = {id(t): np.asarray(v) for t, v in zip(tensors, captured)}
        self.source = dataset._iterate(IterationContext(bindings))
        self.started = True


_handle_ids = itertools.count(1)
_handles: weakref.WeakValueDictionary = weakref.WeakValueDictionary()   # handle -> state


def _make_iterator_kernel(*captured: Any, iterator: _IteratorState,
                          dataset: ElementStructure) -> None:
    iterator.start(dataset, captured)


def _next_element(iterator: _IteratorState, captured: tuple, output_types: tuple) -> Any:
    if not iterator.started:
        if iterator.one_shot is None:
            raise errors.FailedPreconditionError(
                None, None, "GetNext() failed because the iterator has not been initialized. "
                "Ensure that you have run the initializer operation for this iterator before "
                "getting the next element.")
        iterator.start(iterator.one_shot, captured)
    try:
        flat = next(iterator.source)
    except StopIteration:
        raise errors.OutOfRangeError(None, None, "End of sequence") from None
    out = [np.asarray(v, dtype=t.np) for v, t in zip(flat, output_types)]
    return out[0] if len(out) == 1 else tuple(out)


def _get_next_kernel(*captured: Any, iterator: _IteratorState, output_types: tuple,
                     output_shapes: tuple) -> Any:
    return _next_element(iterator, captured, output_types)


def _get_next_as_optional_kernel(*handle: Any, output_types: tuple, output_shapes: tuple,
                                  iterator: _IteratorState | None = None) -> tuple:
    if iterator is None:                 # an iterator passed to a traced function: by handle
        iterator = _iterator_of(handle[0])
    try:
        out = _next_element(iterator, (), output_types)
    except errors.OutOfRangeError:
        empty = [np.zeros([d if d is not None else 0 for d in s.as_tuple() or ()], t.np)
                 for s, t in zip(output_shapes, output_types)]
        return (np.array(False),) + tuple(empty)
    return (np.array(True),) + (out if isinstance(out, tuple) else (out,))


def _iterator_of(handle: Any) -> _IteratorState:
    key = np.asarray(handle).item()
    key = key.decode() if isinstance(key, bytes) else str(key)
    iterator = _handles.get(key)
    if iterator is None:
        raise errors.InvalidArgumentError(None, None, "No iterator has the string handle %r"
                                          % key)
    return iterator


def _get_next_from_handle_kernel(handle: Any, *, output_types: tuple,
                                 output_shapes: tuple) -> Any:
    iterator = _iterator_of(handle)
    if iterator.one_shot is not None and iterator.one_shot._all_captures():
        raise errors.InvalidArgumentError(
            None, None, "The one-shot iterator behind handle %r captures tensors; use an "
            "initializable iterator with string handles." % iterator.handle)
    return _next_element(iterator, (), output_types)


def _get_next_infer(ins: list, attrs: dict) -> list:
    return list(zip(attrs["output_types"], attrs["output_shapes"]))


register_op("IteratorGetNext", _get_next_kernel, _get_next_infer, stateful=True,
            grad=_NO_GRADIENT, num_outputs=lambda attrs: len(attrs["output_types"]),
            input_names=("captured",))
register_op("IteratorGetNextAsOptional", _get_next_as_optional_kernel,
            lambda ins, attrs: [(dtypes.bool, TensorShape([]))] + _get_next_infer(ins, attrs),
            stateful=True, grad=_NO_GRADIENT,
            num_outputs=lambda attrs: 1 + len(attrs["output_types"]))
register_op("IteratorGetNextFromStringHandle", _get_next_from_handle_kernel, _get_next_infer,
            stateful=True, grad=_NO_GRADIENT,
            num_outputs=lambda attrs: len(attrs["output_types"]), input_names=("handle",))
register_op("MakeIterator", _make_iterator_kernel, lambda ins, attrs: [], stateful=True,
            grad=_NO_GRADIENT, num_outputs=0, input_names=("captured",))


class Iterator(ElementStructure):
    """A graph-mode iterator (TF1): ``get_next()`` tensors advance it on every run.

    One-shot iterators start themselves on their first ``get_next`` run; the
    others start (and restart) when their ``initializer`` (or an op from
    ``make_initializer(dataset)``) runs.

    Args:
        element_spec: The nested structure of ``tf.TypeSpec`` of each element.
        one_shot: The dataset a one-shot iterator reads (it starts itself).
        initial: The dataset an initializable iterator reads after ``initializer`` runs.
        name: The name of the iterator's ops.
        string_handle: For ``from_string_handle``: a string tensor naming the iterator to read.
    """

    def __init__(self, element_spec: Any, one_shot: ElementStructure | None = None,
                 initial: ElementStructure | None = None, name: str = "Iterator",
                 string_handle: Any = None):
        if executing_eagerly():
            raise RuntimeError("tf.data iterators made with make_one_shot_iterator / "
                               "make_initializable_iterator / Iterator.from_structure are for "
                               "graph mode; in eager mode use `iter(dataset)`.")
        self._element_spec = element_spec
        self._state = _IteratorState(name, one_shot)
        self._one_shot = one_shot
        self._handle_input = string_handle
        self._initializer = None if initial is None else self.make_initializer(initial)

    @staticmethod
    def from_structure(output_types: Any, output_shapes: Any = None, shared_name: Any = None,
                       output_classes: Any = None) -> Iterator:
        """A reinitializable iterator for any dataset with this structure."""
        return Iterator(structure.spec_from_types(output_types, output_shapes))

    @staticmethod
    def from_string_handle(string_handle: Any, output_types: Any, output_shapes: Any = None,
                           output_classes: Any = None) -> Iterator:
        """An iterator that advances whichever iterator's ``string_handle()`` is fed."""
        return Iterator(structure.spec_from_types(output_types, output_shapes),
                        string_handle=string_handle)

    def string_handle(self, name: str | None = None) -> Any:
        """A string tensor naming this iterator (for ``from_string_handle``)."""
        return constant(self._state.handle, dtypes.string, name=name or "IteratorToStringHandle")

    @property
    def initializer(self) -> Any:
        """The op that (re)starts this iterator on its dataset."""
        if self._initializer is None:
            raise ValueError("The iterator does not have an initializer. This means it was "
                             "likely created using `tf.data.Dataset.make_one_shot_iterator()`. "
                             "For an initializable iterator, use "
                             "`tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    def make_initializer(self, dataset: ElementStructure, name: str | None = None) -> Any:
        """An op that starts this iterator on ``dataset`` (of a compatible structure)."""
        mine, theirs = self._element_spec, dataset.element_spec
        flat_a, flat_b = nest.flatten(mine), nest.flatten(theirs)
        if not structure.same_structure(mine, theirs) or any(
                a.dtype != b.dtype or not a.shape.is_compatible_with(b.shape)
                for a, b in zip(flat_a, flat_b)):
            raise TypeError("Expected output types and shapes %s but got dataset with %s."
                            % (mine, theirs))
        return apply_op("MakeIterator", dataset._all_captures(),
                        {"iterator": self._state, "dataset": dataset},
                        name=name or "make_initializer")

    def get_next(self, name: str | None = None) -> Any:
        """Tensors holding the next element each time they are run."""
        specs = structure.flat_specs(self._element_spec)
        attrs = {"output_types": tuple(s.dtype for s in specs),
                 "output_shapes": tuple(s.shape for s in specs)}
        if self._handle_input is not None:
            out = apply_op("IteratorGetNextFromStringHandle",
                           [convert_to_tensor(self._handle_input, dtypes.string)], attrs,
                           name=name or "IteratorGetNext")
        else:
            captured = self._one_shot._all_captures() if self._one_shot is not None else []
            attrs["iterator"] = self._state
            out = apply_op("IteratorGetNext", captured, attrs, name=name or "IteratorGetNext")
        flat = [out] if len(specs) == 1 else list(out)
        return structure.pack(self._element_spec, flat)

    def __iter__(self) -> Any:
        raise TypeError("Iterating over a graph-mode tf.data iterator is not supported: run "
                        "the tensors of `get_next()` in a Session instead.")


def make_one_shot_iterator(dataset: ElementStructure) -> Any:
    """A graph-mode iterator that starts itself (``tf.data.make_one_shot_iterator``).

    Args:
        dataset: The dataset to iterate over.
    """
    if executing_eagerly():
        return OwnedIterator(dataset)
    return Iterator(dataset.element_spec, one_shot=dataset, name="OneShotIterator")


def make_initializable_iterator(dataset: ElementStructure,
                                shared_name: str | None = None) -> Iterator:
    """A graph-mode iterator started by running its ``initializer``.

    Args:
        dataset: The dataset to iterate over.
        shared_name: Accepted for TensorFlow's signature.
    """
    if executing_eagerly():
        raise RuntimeError("`make_initializable_iterator()` is not supported in eager mode. "
                           "Use Python-style iteration instead.")
    return Iterator(dataset.element_spec, initial=dataset)


def get_output_types(dataset_or_iterator: Any) -> Any:
    """TF1's ``tf.data.get_output_types``: the dtypes of the element's components.

    Args:
        dataset_or_iterator: A dataset or an iterator.
    """
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator: Any) -> Any:
    """TF1's ``tf.data.get_output_shapes``: the shapes of the element's components.

    Args:
        dataset_or_iterator: A dataset or an iterator.
    """
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator: Any) -> Any:
    """TF1's ``tf.data.get_output_classes``: the Python classes of the element's components.

    Args:
        dataset_or_iterator: A dataset or an iterator.
    """
    return dataset_or_iterator.output_classes


__all__ = ["Iterator", "OwnedIterator", "make_one_shot_iterator",
           "make_initializable_iterator", "get_output_types", "get_output_shapes",
           "get_output_classes"]
