"""``tf.strings`` (both faces): string ops with TensorFlow's bytes semantics
(flowgrad/ops/string_ops.py)."""
from flowgrad.ops.string_ops import (as_string, bytes_split, format, join, length, lower,
                                     ngrams, reduce_join, regex_full_match, regex_replace,
                                     split, strip, substr, to_hash_bucket_fast,
                                     to_hash_bucket_strong, to_number, unicode_decode,
                                     unicode_encode, unicode_split, unicode_transcode,
                                     unsorted_segment_join, upper)

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "ngrams",
           "reduce_join", "regex_full_match", "regex_replace", "split", "strip", "substr",
           "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number", "unicode_decode",
           "unicode_encode", "unicode_split", "unicode_transcode", "unsorted_segment_join",
           "upper"]


def __dir__() -> list:
    return sorted(__all__)
