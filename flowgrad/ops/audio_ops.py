"""``tf.audio``: 16-bit PCM WAV files (DecodeWav, EncodeWav), read and written with
Python's ``wave`` module. Samples are floats in [-1, 1): decoding divides by 32768, encoding
multiplies by 32768, rounds half away from zero and clips to 16 bits, as TensorFlow's
kernels do, so the bytes and values are TensorFlow's."""
from __future__ import annotations

import io
import wave
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.io_ops import scalar_bytes
from flowgrad.framework.type_hints import TensorLike


def _decode_wav_kernel(contents: Any, *, desired_channels: int,
                       desired_samples: int) -> tuple:
    data = scalar_bytes(contents)
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except (wave.Error, EOFError) as e:
        raise errors.InvalidArgumentError(None, None, "DecodeWav: not a valid WAV file: %s"
                                          % e) from e
    if width != 2:
        raise errors.InvalidArgumentError(
            None, None, "DecodeWav: can only read 16-bit WAV files, but received %d" % (8 * width))
    audio = (np.frombuffer(frames, "<i2").reshape(-1, channels) / 32768.0).astype(np.float32)
    if desired_channels > 0 and desired_channels != channels:
        if channels == 1:
            audio = np.repeat(audio, desired_channels, axis=1)
        elif desired_channels < channels:
            audio = audio[:, :desired_channels]
        else:
            raise errors.InvalidArgumentError(
                None, None, "DecodeWav: cannot make %d channels of a %d-channel file"
                % (desired_channels, channels))
    if desired_samples > 0:
        audio = audio[:desired_samples]
        audio = np.pad(audio, ((0, desired_samples - len(audio)), (0, 0)))
    return audio, np.int32(rate)


def _decode_wav_infer(ins: list, attrs: dict) -> list:
    samples = attrs["desired_samples"] if attrs["desired_samples"] > 0 else None
    channels = attrs["desired_channels"] if attrs["desired_channels"] > 0 else None
    return [(dtypes.float32, TensorShape([samples, channels])), (dtypes.int32, TensorShape([]))]


def _encode_wav_kernel(audio: Any, sample_rate: Any) -> np.ndarray:
    audio = np.asarray(audio, np.float32)
    if audio.ndim != 2:
        raise errors.InvalidArgumentError(None, None, "audio must be 2-dimensional [samples, "
                                          "channels], got shape %s" % (audio.shape,))
    scaled = audio.astype(np.float64) * 32768.0
    rounded = np.trunc(scaled + np.copysign(0.5, scaled))       # std::round: half away
    pcm = np.clip(rounded, -32768, 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(audio.shape[1])
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(pcm.tobytes())
    return np.array(buf.getvalue(), dtype=object)


register_op("DecodeWav", _decode_wav_kernel, _decode_wav_infer, num_outputs=2,
            input_names=("contents",))
register_op("EncodeWav", _encode_wav_kernel,
            lambda ins, attrs: (dtypes.string, TensorShape([])),
            input_names=("audio", "sample_rate"))
NotDifferentiable("DecodeWav")
NotDifferentiable("EncodeWav")


def decode_wav(contents: TensorLike, desired_channels: int = -1, desired_samples: int = -1,
               name: str | None = None) -> tuple:
    """Decodes a 16-bit PCM WAV file.

    Args:
      contents: a string scalar, the file's bytes.
      desired_channels: the channels wanted (-1: the file's); a mono file is repeated.
      desired_samples: the samples wanted (-1: all); shorter audio is zero-padded.
      name: the op name.

    Returns:
      ``(audio, sample_rate)``: float32 ``[samples, channels]`` in [-1, 1) and an int32
      scalar.

    Raises:
      InvalidArgumentError: not a WAV file, or not 16-bit.
    """
    audio, rate = apply_op("DecodeWav", [convert_to_tensor(contents, dtypes.string)],
                           {"desired_channels": int(desired_channels),
                            "desired_samples": int(desired_samples)}, name=name)
    return audio, rate


def encode_wav(audio: Any, sample_rate: Any, name: str | None = None) -> Any:
    """Encodes float audio ``[samples, channels]`` as a 16-bit PCM WAV file.

    Args:
      audio: float32 samples in [-1, 1) (values outside are clipped).
      sample_rate: an int32 scalar.
      name: the op name.

    Returns:
      A string scalar: the file's bytes.
    """
    return apply_op("EncodeWav", [convert_to_tensor(audio, dtypes.float32),
                                  convert_to_tensor(sample_rate, dtypes.int32)], name=name)


__all__ = ["decode_wav", "encode_wav"]
