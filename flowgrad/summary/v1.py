"""``tf.compat.v1.summary``: summary ops, merge_all and FileWriter (TF1 graph mode)."""
from __future__ import annotations

from typing import Any

from flowgrad.summary.gradient_histograms import histogram_gradients
from flowgrad.summary.summary_ops import audio, histogram, image, merge, merge_all, scalar, text
from flowgrad.summary.writer import FileWriter

_PROTOS = {"Summary": "summary_pb2", "SummaryDescription": "summary_pb2",
           "SummaryMetadata": "summary_pb2", "HistogramProto": "summary_pb2",
           "Event": "event_pb2", "SessionLog": "event_pb2", "TaggedRunMetadata": "event_pb2"}


def __getattr__(name: str) -> Any:
    """TensorBoard's proto classes (tf.summary.Summary, Event, ...), loaded on first use."""
    if name in _PROTOS:
        from flowgrad.summary import protos
        return getattr(getattr(protos.pb(), _PROTOS[name]), name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


__all__ = ["scalar", "histogram", "image", "audio", "text", "merge", "merge_all", "FileWriter",
           "histogram_gradients"]


def __dir__() -> list:
    """TensorFlow 1's tf.summary names and flowgrad's histogram_gradients."""
    return sorted(__all__)
