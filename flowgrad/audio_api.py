"""``tf.audio``: WAV decoding and encoding (``flowgrad.ops.audio_ops``)."""
from flowgrad.ops.audio_ops import decode_wav, encode_wav

__all__ = ["decode_wav", "encode_wav"]
