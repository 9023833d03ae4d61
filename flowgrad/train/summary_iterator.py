"""``tf.compat.v1.train.summary_iterator``: the Event protos of an event file."""
from __future__ import annotations

from typing import Any, Iterator

from flowgrad.ops.tf_record import tf_record_iterator
from flowgrad.summary.protos import pb


def summary_iterator(path: str) -> Iterator[Any]:
    """Yields the ``Event`` protocol buffers of the event file ``path``, in order.

    Args:
        path: The path of an event file a summary writer wrote.

    Returns:
        An iterator of ``tf.compat.v1.Event`` protos.
    """
    event_pb2 = pb().event_pb2
    return (event_pb2.Event.FromString(record) for record in tf_record_iterator(path))
