"""TensorBoard's protocol buffers (through the optional ``tensorboard`` package) and the
Summary values flowgrad writes: scalars, histograms (TensorFlow's bucket layout) and text."""
from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import numpy as np

from flowgrad.framework import errors


@functools.cache
def pb() -> SimpleNamespace:
    """The TensorBoard proto modules; ImportError with the install hint if missing."""
    try:
        from tensorboard.compat.proto import (
            attr_value_pb2,
            event_pb2,
            graph_pb2,
            summary_pb2,
            tensor_shape_pb2,
            types_pb2,
        )
        from tensorboard.plugins.text import metadata as text_metadata
        from tensorboard.util import tensor_util
    except ImportError as e:
        raise ImportError("tf.summary (FileWriter and the summary ops) needs the optional "
                          "'tensorboard' package to write TensorBoard event files: "
                          "pip install flowgrad[tensorboard]") from e
    return SimpleNamespace(attr_value_pb2=attr_value_pb2, event_pb2=event_pb2,
                           graph_pb2=graph_pb2, summary_pb2=summary_pb2,
                           tensor_shape_pb2=tensor_shape_pb2, types_pb2=types_pb2,
                           text_metadata=text_metadata, tensor_util=tensor_util)


def scalar_value(tag: str, value: Any) -> Any:
    """A Summary.Value holding a scalar."""
    v = np.asarray(value)
    if v.ndim:
        raise errors.InvalidArgumentError(None, None, "tags and values are not the same shape: "
                                          "[] != %s (tag '%s')" % (list(v.shape), tag))
    return pb().summary_pb2.Summary.Value(tag=tag, simple_value=float(v))


@functools.cache
def default_bucket_limits() -> np.ndarray:
    """TensorFlow's default histogram buckets: +-1e-12 growing by 10% to +-1e20, and 0."""
    pos = []
    v = 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(np.finfo(np.float64).max)
    neg = [-x for x in reversed(pos)]
    return np.array(neg + [0.0] + pos)


def histogram_value(tag: str, values: Any) -> Any:
    """A Summary.Value holding a TF1 histogram of ``values``: TensorFlow 1's exponential
    buckets, empty runs merged as TensorFlow encodes them."""
    a = np.asarray(values, dtype=np.float64).ravel()
    if not np.isfinite(a).all():
        raise errors.InvalidArgumentError(None, None, "Nan in summary histogram for: %s" % tag)
    proto = pb().summary_pb2.HistogramProto(
        min=float(a.min()) if a.size else 0.0, max=float(a.max()) if a.size else 0.0,
        num=float(a.size), sum=float(a.sum()), sum_squares=float(np.dot(a, a)))
    limits = default_bucket_limits()
    counts = np.bincount(np.searchsorted(limits, a, side="right"), minlength=len(limits))
    counts = counts[:len(limits)]
    i = 0
    while i < len(limits):
        end, count = limits[i], counts[i]
        i += 1
        if count <= 0:
            while i < len(limits) and counts[i] <= 0:
                end, count = limits[i], counts[i]
                i += 1
        proto.bucket_limit.append(float(end))
        proto.bucket.append(float(count))
    return pb().summary_pb2.Summary.Value(tag=tag, histo=proto)


def text_value(tag: str, text: Any) -> Any:
    """A Summary.Value holding a string tensor for TensorBoard's text dashboard."""
    p = pb()
    meta = p.text_metadata.create_summary_metadata(display_name=None, description=None)
    arr = np.asarray(text, dtype=object)
    arr = np.array([s if isinstance(s, bytes) else str(s).encode() for s in arr.ravel()],
                   dtype=object).reshape(arr.shape)
    return p.summary_pb2.Summary.Value(tag=tag, metadata=meta,
                                       tensor=p.tensor_util.make_tensor_proto(arr))


def serialize(*values: Any) -> bytes:
    """A serialized Summary of the given values."""
    return pb().summary_pb2.Summary(value=list(values)).SerializeToString()


def merge(serialized: list) -> bytes:
    """Merges serialized Summary protos; duplicate tags are an error, as in TensorFlow."""
    summary_pb2 = pb().summary_pb2
    out = summary_pb2.Summary()
    tags: set = set()
    for s in serialized:
        for v in summary_pb2.Summary.FromString(bytes(s)).value:
            if v.tag in tags:
                raise errors.InvalidArgumentError(None, None, "Duplicate tag %s found in summary "
                                                  "inputs" % v.tag)
            tags.add(v.tag)
            out.value.append(v)
    return out.SerializeToString()
