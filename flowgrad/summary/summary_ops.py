"""TF1 summary ops: ScalarSummary, HistogramSummary, ImageSummary, AudioSummaryV2, text
(TensorSummaryV2), MergeSummary.

Each op's value is a serialized ``Summary`` protocol buffer (bytes), as in
TensorFlow; ``FileWriter.add_summary`` writes it to an event file."""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.audio_ops import _encode_wav_kernel
from flowgrad.ops.image_codec_ops import _encode_png_kernel
from flowgrad.summary import protos
from collections.abc import Sequence
from flowgrad.framework.type_hints import TensorLike


def _string_scalar(ins: list, attrs: dict) -> tuple:
    return dtypes.string, TensorShape([])


def _scalar_infer(ins: list, attrs: dict) -> tuple:
    rank = ins[0].shape.rank
    if rank not in (None, 0):
        raise ValueError("tags and values not the same shape: [] != %s (summary '%s' needs a "
                         "scalar)" % (ins[0].shape, attrs["tag"]))
    if not (ins[0].dtype.is_floating or ins[0].dtype.is_integer or ins[0].dtype.is_bool):
        raise TypeError("scalar summary '%s' needs a real number, got %s"
                        % (attrs["tag"], ins[0].dtype.name))
    return _string_scalar(ins, attrs)


register_op("ScalarSummary",
            lambda values, *, tag: protos.serialize(protos.scalar_value(tag, values)),
            _scalar_infer, grad=_NO_GRADIENT, input_names=("values",))
def _normalized(image: np.ndarray, bad_color: np.ndarray) -> np.ndarray:
    """One float image ``[h, w, c]`` as TensorFlow's ImageSummary makes it uint8: scaled so
    the largest finite value is 255 (all >= 0), else centred at 128 and scaled so the largest
    magnitude is 127, truncated; pixels with a non-finite channel are ``bad_color``."""
    t, f32 = image.dtype.type, np.float32      # TensorFlow finds the range in float32
    finite = np.isfinite(image).all(axis=-1)
    values = image[finite].astype(f32)
    lo = values.min() if values.size else f32(np.inf)
    hi = values.max() if values.size else f32(-np.inf)
    if lo < 0:
        top = max(abs(lo), abs(hi))
        scale, offset = t(0.0 if top < 1e-6 else f32(127.0) / top), t(128.0)
    else:
        scale, offset = t(0.0 if hi < 1e-6 else f32(255.0) / hi), t(0.0)
    with np.errstate(invalid="ignore"):
        out = (image * scale + offset).astype(np.uint8)
    out[~finite] = bad_color[:image.shape[-1]]
    return out


def _image_summary(tensor: np.ndarray, *, tag: str, max_images: int,
                   bad_color: Any) -> bytes:
    if tensor.ndim != 4 or tensor.shape[-1] not in (1, 3, 4):
        raise errors.InvalidArgumentError(
            None, None, "Tensor must be 4-D with last dim 1, 3, or 4, not %s (image summary "
            "'%s')" % (list(tensor.shape), tag))
    bad = np.asarray(bad_color, np.uint8).ravel()
    p = protos.pb()
    values = []
    for i in range(min(tensor.shape[0], max_images)):
        image = tensor[i] if tensor.dtype == np.uint8 else _normalized(tensor[i], bad)
        h, w, c = image.shape
        png = _encode_png_kernel(np.ascontiguousarray(image), compression=-1)
        values.append(p.summary_pb2.Summary.Value(
            tag="%s/image" % tag if max_images == 1 else "%s/image/%d" % (tag, i),
            image=p.summary_pb2.Summary.Image(height=h, width=w, colorspace=c,
                                              encoded_image_string=png.item())))
    return protos.serialize(*values)


register_op("ImageSummary", _image_summary, _string_scalar, grad=_NO_GRADIENT,
            input_names=("tensor",))
def _audio_summary(tensor: np.ndarray, sample_rate: np.ndarray, *, tag: str,
                   max_outputs: int) -> bytes:
    if tensor.ndim not in (2, 3):
        raise errors.InvalidArgumentError(
            None, None, "Tensor must be 3-D or 2-D, got: %s (audio summary '%s')"
            % (list(tensor.shape), tag))
    rate = float(sample_rate)
    if rate <= 0:
        raise errors.InvalidArgumentError(
            None, None, "sample_rate must be > 0 (audio summary '%s')" % tag)
    clips = tensor if tensor.ndim == 3 else tensor[:, :, None]
    p = protos.pb()
    values = []
    for i in range(min(clips.shape[0], max_outputs)):
        wav = _encode_wav_kernel(clips[i], np.int32(rate))
        values.append(p.summary_pb2.Summary.Value(
            tag="%s/audio" % tag if max_outputs == 1 else "%s/audio/%d" % (tag, i),
            audio=p.summary_pb2.Summary.Audio(
                sample_rate=rate, num_channels=clips.shape[2], length_frames=clips.shape[1],
                encoded_audio_string=wav.item(), content_type="audio/wav")))
    return protos.serialize(*values)


register_op("AudioSummaryV2", _audio_summary, _string_scalar, grad=_NO_GRADIENT,
            input_names=("tensor", "sample_rate"))
register_op("HistogramSummary",
            lambda values, *, tag: protos.serialize(protos.histogram_value(tag, values)),
            _string_scalar, grad=_NO_GRADIENT, input_names=("values",))
register_op("TensorSummaryV2",
            lambda tensor, *, tag: protos.serialize(protos.text_value(tag, tensor)),
            _string_scalar, grad=_NO_GRADIENT, input_names=("tensor",))
register_op("MergeSummary", lambda *inputs: protos.merge(inputs), _string_scalar,
            grad=_NO_GRADIENT, input_names=("inputs",))


def clean_tag(name: str) -> str:
    """``name`` with characters TensorBoard does not allow in tags replaced by '_'."""
    if name is None:
        return None
    return re.sub(r"[^-/\w\.]", "_", name).lstrip("/")


def _summary(op_type: str, name: str, tensor: Any, collections: Any, family: Any) -> Any:
    protos.pb()                      # fail early, at graph construction, without tensorboard
    name, family = clean_tag(name), clean_tag(family)
    base = name if family is None else "%s/%s" % (family, name)
    with name_scope(base) as scope:
        tag = scope.rstrip("/") if family is None else "%s/%s" % (family, scope.rstrip("/"))
        out = apply_op(op_type, [convert_to_tensor(tensor)], {"tag": tag}, name=scope)
    for key in (collections if collections is not None else [GraphKeys.SUMMARIES]):
        add_to_collection(key, out)
    return out


def scalar(name: str, tensor: TensorLike, collections: Sequence[str] | None = None,
           family: str | None = None) -> Any:
    """A summary op (serialized Summary bytes) holding the scalar ``tensor``.

    Args:
        name: The summary's tag.
        tensor: A real numeric scalar.
        collections: The graph collections the op joins; SUMMARIES when None.
        family: A prefix of the tag (TensorBoard's tab).
    """
    return _summary("ScalarSummary", name, tensor, collections, family)


def histogram(name: str, values: Any, collections: Sequence[str] | None = None,
              family: str | None = None) -> Any:
    """A summary op holding a histogram of ``values`` (any shape).

    Args:
        name: The summary's tag.
        values: A numeric tensor of any shape.
        collections: The graph collections the op joins; SUMMARIES when None.
        family: A prefix of the tag (TensorBoard's tab).
    """
    return _summary("HistogramSummary", name, values, collections, family)


def image(name: str, tensor: TensorLike, max_outputs: int = 3,
          collections: Sequence[str] | None = None, family: str | None = None) -> Any:
    """A summary op holding up to ``max_outputs`` images of ``tensor`` as PNGs (tags
    ``name/image/0``, ...; ``name/image`` when ``max_outputs`` is 1). Float images are
    normalized one at a time (all >= 0: the largest is 255; else 0 is 128 and the largest
    magnitude 127); uint8 images are written unchanged.

    Args:
        name: The summary's tag.
        tensor: A 4-D ``[batch, height, width, channels]`` uint8, float16, float32 or float64
            tensor, ``channels`` 1, 3 or 4.
        max_outputs: The most images written.
        collections: The graph collections the op joins; SUMMARIES when None.
        family: A prefix of the tag (TensorBoard's tab).

    Raises:
        TypeError: ``tensor`` has another dtype.
    """
    t = convert_to_tensor(tensor)
    if t.dtype.base_dtype not in (dtypes.uint8, dtypes.float16, dtypes.float32, dtypes.float64):
        raise TypeError("Value passed to parameter 'tensor' has DataType %s not in list of "
                        "allowed values: uint8, float32, float16, float64"
                        % t.dtype.base_dtype.name)
    protos.pb()
    name, family = clean_tag(name), clean_tag(family)
    base = name if family is None else "%s/%s" % (family, name)
    with name_scope(base) as scope:
        tag = scope.rstrip("/") if family is None else "%s/%s" % (family, scope.rstrip("/"))
        out = apply_op("ImageSummary", [t], {"tag": tag, "max_images": int(max_outputs),
                                             "bad_color": (255, 0, 0, 255)}, name=scope)
    for key in (collections if collections is not None else [GraphKeys.SUMMARIES]):
        add_to_collection(key, out)
    return out


def audio(name: str, tensor: TensorLike, sample_rate: Any, max_outputs: int = 3,
          collections: Sequence[str] | None = None, family: str | None = None) -> Any:
    """A summary op holding up to ``max_outputs`` audio clips of ``tensor`` as 16-bit WAV
    files (tags ``name/audio/0``, ...; ``name/audio`` when ``max_outputs`` is 1).

    Args:
        name: The summary's tag.
        tensor: float32 samples in [-1, 1]: ``[batch, frames, channels]`` or
            ``[batch, frames]`` (one channel).
        sample_rate: The sample rate in Hz (a float32 scalar).
        max_outputs: The most clips written.
        collections: The graph collections the op joins; SUMMARIES when None.
        family: A prefix of the tag (TensorBoard's tab).
    """
    t = convert_to_tensor(tensor, dtypes.float32)
    protos.pb()
    name, family = clean_tag(name), clean_tag(family)
    base = name if family is None else "%s/%s" % (family, name)
    with name_scope(base) as scope:
        tag = scope.rstrip("/") if family is None else "%s/%s" % (family, scope.rstrip("/"))
        rate = convert_to_tensor(sample_rate, dtypes.float32, name="sample_rate")
        out = apply_op("AudioSummaryV2", [t, rate], {"tag": tag,
                                                    "max_outputs": int(max_outputs)},
                       name=scope)
    for key in (collections if collections is not None else [GraphKeys.SUMMARIES]):
        add_to_collection(key, out)
    return out


def text(name: str, tensor: TensorLike, collections: Sequence[str] | None = None) -> Any:
    """A summary op holding a string tensor for TensorBoard's text dashboard.

    Args:
        name: The summary's tag.
        tensor: A string tensor.
        collections: The graph collections the op joins; SUMMARIES when None.
    """
    t = convert_to_tensor(tensor)
    if t.dtype.base_dtype is not dtypes.string:
        raise ValueError("Expected tensor %s to have dtype string, got %s"
                         % (getattr(t, "name", t), t.dtype.name))
    return _summary("TensorSummaryV2", name, t, collections, None)


def merge(inputs: list, collections: Sequence[str] | None = None, name: str | None = None) -> Any:
    """One summary op holding the values of all ``inputs`` (tags must be unique).

    Args:
        inputs: A list of string tensors of serialized Summary protos.
        collections: The graph collections the op joins (none when None).
        name: A name for the operation (optional).
    """
    protos.pb()
    out = apply_op("MergeSummary", list(inputs), name=name)
    for key in collections or []:
        add_to_collection(key, out)
    return out


def merge_all(key: str = GraphKeys.SUMMARIES, scope: Any = None, name: str | None = None) -> Any:
    """``merge`` of every summary in collection ``key`` (None if there is none).

    Args:
        key: The graph collection whose summaries are merged.
        scope: Only summaries whose names match this regular expression.
        name: A name for the operation (optional).
    """
    summaries = get_collection(key, scope=scope)
    return merge(summaries, name=name) if summaries else None
