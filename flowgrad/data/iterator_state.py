"""A tf.data iterator's position in a checkpoint (``tf.train.Checkpoint(iterator=iter(ds))``,
the TF data guide's "Iterator checkpointing").

TensorFlow saves the state of every dataset kernel of the pipeline (shuffle buffers, file
offsets, ...) as a variant tensor under ``<path>/.ATTRIBUTES/ITERATOR_STATE``. flowgrad writes
a variant tensor under the same key whose one element (a ``VariantTensorDataProto`` of type
``flowgrad::Iterator``) records how many elements the iterator gave and the seed pairs its
random datasets (``shuffle``, ``Dataset.random``) drew (and where their seed streams were, as
TensorFlow saves its seed generators); restoring replays the pipeline with those seeds up to
that position, so the restored iterator goes on with exactly the elements
the saved one would have given (also after a reshuffling ``shuffle``). Replaying costs the time
of computing the elements again. Pipelines whose map functions draw random numbers of their own
(``tf.random.uniform`` in a ``map``) give other numbers after a restore.

TensorFlow's own serialized state (``tensorflow::Iterator`` elements) describes its C++
kernels' internals, which flowgrad does not have: restoring it is an UnimplementedError that
names the checkpoint and says how to restore the rest."""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from flowgrad.data.structure import IterationContext
from flowgrad.framework import errors
from flowgrad.train.tensor_bundle import VariantArray

#: The ``type_name`` of flowgrad's iterator states (TensorFlow's are ``tensorflow::Iterator``).
TYPE_NAME = "flowgrad::Iterator"


def _variant_proto() -> Any:
    try:
        from tensorboard.compat.proto import tensor_pb2
    except ImportError as e:
        raise ImportError("Checkpointing a tf.data iterator needs the optional 'tensorboard' "
                          "package: pip install flowgrad[tf-formats]") from e
    return tensor_pb2.VariantTensorDataProto


class ReplayableSource:
    """The running iteration of an eager iterator, counted, with the seeds its datasets drew.

    Args:
      dataset: the dataset iterated.
      position: ``{"elements": n, "seeds": [[[s1, s2], k], ...]}`` to resume from (replayed:
        the seed pairs drawn, with how many pairs their dataset's stream had given), or None
        to start at the beginning.
    """

    def __init__(self, dataset: Any, position: dict | None = None):
        self._ctx = IterationContext()
        self._ctx.seeds_to_replay = [(tuple(s), n) for s, n in (position or {}).get("seeds", [])]
        self._elements = dataset._iterate(self._ctx)
        self.count = 0
        for _ in range((position or {}).get("elements", 0)):
            try:
                next(self._elements)
            except StopIteration:
                break
            self.count += 1

    def __iter__(self) -> ReplayableSource:
        return self

    def __next__(self) -> list:
        flat = next(self._elements)
        self.count += 1
        return flat

    def position(self) -> dict:
        """``{"elements": ..., "seeds": ...}``: where the iteration is."""
        return {"elements": self.count, "seeds": [[list(map(int, s)), n]
                                                  for s, n in self._ctx.seeds_drawn]}


def serialize(source: ReplayableSource, element_spec: Any) -> VariantArray:
    """The iterator state to save: a variant tensor of one ``VariantTensorDataProto``.

    Args:
      source: the iterator's running iteration.
      element_spec: the dataset's element spec (checked when restoring).

    Returns:
      The variant tensor (its one element serialized).
    """
    position = dict(source.position(), element_spec=repr(element_spec))
    proto = _variant_proto()(type_name=TYPE_NAME,
                             metadata=json.dumps(position, sort_keys=True).encode("utf-8"))
    return VariantArray(np.array([proto.SerializeToString()], dtype=object))


def deserialize(state: Any, element_spec: Any, where: str) -> dict:
    """The position saved in ``state`` (what ``serialize`` wrote).

    Args:
      state: the variant tensor read from the checkpoint (an array of bytes).
      element_spec: the restored iterator's element spec.
      where: the checkpoint key and path, for errors.

    Returns:
      ``{"elements": n, "seeds": [...]}``.

    Raises:
      UnimplementedError: the state is TensorFlow's serialized iterator.
      InvalidArgumentError: the state is not an iterator's, or its dataset had other
        elements.
    """
    items = list(np.asarray(state, dtype=object).ravel())
    try:
        protos = [_variant_proto().FromString(bytes(x)) for x in items]
    except Exception:     # noqa: BLE001 - protobuf's DecodeError
        protos = []
    if protos and all(p.type_name == "tensorflow::Iterator" for p in protos):
        raise errors.UnimplementedError(
            None, None, "Restoring %s: the checkpoint holds TensorFlow's serialized tf.data "
            "iterator state (the internal state of its dataset kernels, %s ...), which flowgrad "
            "cannot read; flowgrad restores the iterator positions it saved itself. Restore "
            "the other objects with a tf.train.Checkpoint that leaves the iterator out (and "
            "expect_partial()), and start the input pipeline again."
            % (where, protos[0].metadata.split(b"@@")[0].decode("utf-8", "replace")))
    if len(protos) != 1 or protos[0].type_name != TYPE_NAME:
        raise errors.InvalidArgumentError(None, None, "Restoring %s: the checkpoint does not "
                                          "hold a tf.data iterator's state" % where)
    position = json.loads(protos[0].metadata.decode("utf-8"))
    if position.get("element_spec") != repr(element_spec):
        raise errors.InvalidArgumentError(
            None, None, "Restoring %s: the saved iterator's dataset has elements %s, this "
            "iterator's dataset %r" % (where, position.get("element_spec"), element_spec))
    return position


__all__ = ["ReplayableSource", "TYPE_NAME", "deserialize", "serialize"]
