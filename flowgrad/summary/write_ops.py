"""The TF2 summary writing ops (``tf.summary.scalar/histogram/text``): they write to the
default writer at once in eager mode, and in a graph they are ops that write when run."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import to_numpy
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.functional_ops import map_fn
from flowgrad.ops.image_codec_ops import encode_png
from flowgrad.ops.image_color_ops import convert_image_dtype
from flowgrad.ops.script_ops import numpy_function
from flowgrad.ops.shape_ops import shape, stack
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
    """Writes a scalar to the default writer; False if there is none.

    Args:
        name: The summary's tag.
        data: A real numeric scalar.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        description: A longer description for TensorBoard.
    """
    return _write("scalar", protos.scalar_value, name, data, step)


def histogram(name: str, data: Any, step: Any = None, buckets: int | None = None,
              description: str | None = None) -> Any:
    """Writes a histogram of ``data`` (``buckets`` equal-width buckets, default 30).

    Args:
        name: The summary's tag.
        data: A numeric tensor of any shape.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        buckets: The number of equal-width buckets; 30 when None.
        description: A longer description for TensorBoard.
    """
    n = 30 if buckets is None else buckets
    return _write("histogram", lambda tag, v: protos.histogram_value(tag, v, n), name, data, step)


def text(name: str, data: Any, step: Any = None, description: str | None = None) -> Any:
    """Writes a string (or string array) for TensorBoard's text dashboard.

    Args:
        name: The summary's tag.
        data: A string tensor.
        step: The step; the default step (``tf.summary.experimental.set_step``) when None.
        description: A longer description for TensorBoard.
    """
    return _write("text", protos.text_value, name, data, step)


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
        v = p.summary_pb2.Summary.Value(tag=tag, tensor=p.tensor_util.make_tensor_proto(arr))
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
