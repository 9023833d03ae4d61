"""The TF2 summary writing ops (``tf.summary.scalar/histogram/text``): they write to the
default writer at once in eager mode, and in a graph they are ops that write when run."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import convert_to_tensor, to_numpy
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat, tile
from flowgrad.ops.functional_ops import map_fn
from flowgrad.ops.audio_ops import encode_wav
from flowgrad.ops.image_codec_ops import encode_png
from flowgrad.ops.image_color_ops import convert_image_dtype
from flowgrad.ops.io_ops import tensor_proto_bytes
from flowgrad.ops.script_ops import numpy_function
from flowgrad.ops.shape_ops import shape, stack, transpose_v2
from flowgrad.ops.string_ops import as_string
from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.summary import protos
from flowgrad.summary.experimental import summary_scope
from flowgrad.summary.writer import SummaryWriter, default
from flowgrad.framework.type_hints import TensorLike


def _as_array(v: Any) -> Any:
    """A value (NumPy, Python, eager tensor or variable) as a NumPy array of its own dtype."""
    return v.numpy() if hasattr(v, "numpy") else to_numpy(v)


def _write(api: str, make_value: Callable, name: str, data: Any, step: Any) -> Any:
    """Writes now (eager), or returns a bool op that writes each time it runs (graph)."""
    writer = default.writer
    record = default.record() if callable(default.record) else default.record
    if writer is None or not record:
        return False
    step = default.step if step is None else step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    if executing_eagerly():
        writer.write(make_value(name, _as_array(data)), int(step))
        return True
    return _write_op(api, writer, make_value, name, data, step)


def _write_op(api: str, writer: SummaryWriter, make_value: Callable, name: str, data: Any,
              step: Any) -> Any:
    """A stateful op writing ``data`` at ``step`` (both read when it runs). Inside a
    tf.function, cond branch or loop body it is a side effect of the graph and runs on every
    call, as TensorFlow's automatic control dependencies make it."""
    def write(value: np.ndarray, step_value: np.ndarray) -> np.ndarray:
        writer.write(make_value(name, np.asarray(value)), int(step_value))
        return np.array(True)

    written = numpy_function(write, [data, step], dtypes.bool, name=api)
    get_default_graph().add_to_collection(SIDE_EFFECTS, written.op)
    return written


def scalar(name: str, data: Any, step: Any = None, description: str | None = None) -> Any:
    """Writes a scalar to the default writer as TensorBoard's ``summary_v2.scalar``: a
    float32 tensor with the ``scalars`` plugin's metadata, tagged ``name`` under the current
    name scope.

    Args:
        name: The summary's name.
        data: A real numeric scalar.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        description: A longer description for TensorBoard (Markdown).

    Returns:
        True when written (eager), a bool op (graph), False without a default writer.

    Raises:
        ValueError: ``data`` is not a scalar, or there is a writer but no step.
    """
    from tensorboard.plugins.scalar import metadata

    meta = metadata.create_summary_metadata(display_name=None, description=description)
    with summary_scope(name, "scalar_summary") as (tag, _):
        value = cast(data, dtypes.float32)
        if value.shape.ndims:
            raise ValueError("Expected scalar shape for %s, saw shape: %s." % (tag, value.shape))
        return write(tag=tag, tensor=value, step=step, metadata=meta)


def _histogram_buckets(data: np.ndarray, bucket_count: np.ndarray) -> np.ndarray:
    """TensorBoard's histogram buckets ``[k, 3]`` (left edge, right edge, count), float64:
    ``bucket_count`` equal-width buckets over [min, max]; all counts in the last bucket when
    every value is the same; zeros for no data."""
    count = max(0, int(bucket_count))
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    if data.size == 0 or count == 0:
        return np.zeros((count, 3), np.float64)
    low, high = data.min(), data.max()
    if high - low == 0:
        counts = np.zeros(count, np.float64)
        counts[-1] = data.size
        edges = np.full(count, high)
        return np.stack([edges, edges, counts]).T
    index = np.floor((data - low) / ((high - low) / count)).astype(np.int32)
    counts = np.bincount(np.minimum(index, count - 1), minlength=count).astype(np.float64)
    edges = np.linspace(low, high, count + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts]).T


def histogram(name: str, data: Any, step: Any = None, buckets: int | None = None,
              description: str | None = None) -> Any:
    """Writes a histogram of ``data`` as TensorBoard's ``summary_v2.histogram``: a float64
    ``[buckets, 3]`` tensor of (left edge, right edge, count) over equal-width buckets, with
    the ``histograms`` plugin's metadata.

    Args:
        name: The summary's name.
        data: A numeric tensor of any shape.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        buckets: The number of equal-width buckets; 30 when None.
        description: A longer description for TensorBoard (Markdown).

    Returns:
        True when written (eager), a bool op (graph), False without a default writer.
    """
    from tensorboard.plugins.histogram import metadata

    meta = metadata.create_summary_metadata(display_name=None, description=description)
    count = 30 if buckets is None else buckets
    with summary_scope(name, "histogram_summary") as (tag, _):
        return write(tag=tag, tensor=lambda: numpy_function(
            _histogram_buckets, [data, count], dtypes.float64, name="buckets"),
            step=step, metadata=meta)


def text(name: str, data: Any, step: Any = None, description: str | None = None) -> Any:
    """Writes a string (or string array) for TensorBoard's text dashboard, as TensorBoard's
    ``summary_v2.text``.

    Args:
        name: The summary's name.
        data: A string tensor.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        description: A longer description for TensorBoard (Markdown).

    Returns:
        True when written (eager), a bool op (graph), False without a default writer.
    """
    from tensorboard.plugins.text import metadata

    meta = metadata.create_summary_metadata(display_name=None, description=description)
    with summary_scope(name, "text_summary") as (tag, _):
        return write(tag=tag, tensor=data, step=step, metadata=meta)


def write(tag: str, tensor: TensorLike, step: Any = None, metadata: Any = None,
          name: str | None = None) -> Any:
    """Writes a generic tensor summary to the default writer (TensorFlow's
    ``tf.summary.write``, what the type-specific summaries are built on); False if there is
    no default writer.

    Args:
        tag: The summary's tag.
        tensor: The data (any dtype and shape, strings too), or a callable returning it,
            called only when there is a writer.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        metadata: A ``SummaryMetadata`` proto or its serialized bytes (None: none).
        name: Accepted for TensorFlow's signature.

    Returns:
        True when written (eager), a bool op (graph), False without a writer.

    Raises:
        ValueError: there is a writer but no step.
    """
    del name
    if default.writer is None:
        return False
    serialized = b"" if metadata is None else (
        metadata.SerializeToString() if hasattr(metadata, "SerializeToString") else metadata)

    def make_value(tag: str, value: np.ndarray) -> Any:
        p = protos.pb()
        arr = np.asarray(value)
        if arr.dtype.kind in "USO":
            arr = np.array([s if isinstance(s, bytes) else str(s).encode()
                            for s in arr.ravel()], dtype=object).reshape(arr.shape)
        v = p.summary_pb2.Summary.Value(tag=tag)
        v.tensor.ParseFromString(tensor_proto_bytes(arr, dtypes.as_dtype(
            dtypes.string if arr.dtype == object else arr.dtype)))   # as TF's kernel writes it
        if serialized:
            v.metadata.ParseFromString(serialized)
        return v

    return _write("write_summary", make_value, tag, tensor() if callable(tensor) else tensor,
                  step)


def image(name: str, data: Any, step: Any = None, max_outputs: int = 3,
          description: str | None = None) -> Any:
    """Writes images for TensorBoard's image dashboard (TensorBoard's ``summary_v2.image``):
    a string tensor ``[width, height, png_0, ...]`` of the first ``max_outputs`` images.

    Args:
        name: The summary's name; the tag is it under the current name scope.
        data: Pixels ``[k, h, w, c]``, ``c`` in 1..4; floats are clipped to [0, 1], other
            types converted to uint8 as ``tf.image.convert_image_dtype(saturate=True)``.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        max_outputs: At most this many images are written.
        description: A longer description for TensorBoard (Markdown).

    Returns:
        True when written (eager), a bool op (graph), False without a default writer.

    Raises:
        ValueError: ``data`` is not of rank 4, or there is a writer but no step.
    """
    from tensorboard.plugins.image import metadata as image_metadata

    meta = image_metadata.create_summary_metadata(display_name=None, description=description)

    def encoded() -> Any:
        images = convert_image_dtype(data, dtypes.uint8, saturate=True)
        if images.shape.ndims is not None and images.shape.ndims != 4:
            raise ValueError("tf.summary.image(%r): data must have rank 4 ([k, h, w, c]), "
                             "got shape %s" % (name, images.shape))
        pngs = map_fn(encode_png, images[:max_outputs], fn_output_signature=dtypes.string)
        dims = shape(images)
        size = stack([as_string(dims[2], name="width"), as_string(dims[1], name="height")],
                     name="dimensions")
        return concat([size, pngs], axis=0)

    with summary_scope(name, "image_summary") as (tag, _):
        return write(tag=tag, tensor=encoded, step=step, metadata=meta)


def audio(name: str, data: Any, sample_rate: Any, step: Any = None, max_outputs: int = 3,
          encoding: str | None = None, description: str | None = None) -> Any:
    """Writes audio clips for TensorBoard's audio dashboard (TensorBoard's
    ``summary_v2.audio``): a string tensor ``[k, 2]`` of WAV files and (empty) labels of the
    first ``max_outputs`` clips.

    Args:
        name: The summary's name; the tag is it under the current name scope.
        data: float32 samples ``[k, t, c]`` in [-1, 1] (clipped outside).
        sample_rate: The sample rate in Hz (an int32 scalar).
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        max_outputs: At most this many clips are written.
        encoding: ``"wav"`` (the default, and the only one).
        description: A longer description for TensorBoard (Markdown).

    Returns:
        True when written (eager), a bool op (graph), False without a default writer.

    Raises:
        ValueError: an encoding other than ``"wav"``, ``data`` not of rank 3, or there is a
            writer but no step.
    """
    from tensorboard.plugins.audio import metadata as audio_metadata

    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError("Unknown encoding: %r" % encoding)
    meta = audio_metadata.create_summary_metadata(
        display_name=None, description=description,
        encoding=audio_metadata.Encoding.Value("WAV"))

    def encoded() -> Any:
        clips = convert_to_tensor(data)
        if clips.shape.ndims is not None and clips.shape.ndims != 3:
            raise ValueError("tf.summary.audio(%r): data must have rank 3 ([k, t, c]), got "
                             "shape %s" % (name, clips.shape))
        if int(max_outputs) < 0:
            raise errors.InvalidArgumentError(
                None, None, "tf.summary.audio(%r): max_outputs must be non-negative, got %d"
                % (name, int(max_outputs)))
        limited = clips[:max_outputs]
        wavs = map_fn(lambda clip: encode_wav(clip, sample_rate), limited,
                      fn_output_signature=dtypes.string, name="encode_each_audio")
        labels = tile(convert_to_tensor([""]), shape(limited)[:1])
        return transpose_v2(stack([wavs, labels]))

    with summary_scope(name, "audio_summary") as (tag, _):
        return write(tag=tag, tensor=encoded, step=step, metadata=meta)
