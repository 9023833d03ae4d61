"""``tf.data`` of the TF1 face (``import flowgrad.compat.v1 as tf``): TF2's names plus TensorFlow
1's graph iterators (``make_one_shot_iterator``, ``get_output_types``, ...)."""
from flowgrad.data import AUTOTUNE, Dataset, Iterator, TextLineDataset, TFRecordDataset
from flowgrad.data import FixedLengthRecordDataset
from flowgrad.data import experimental
from flowgrad.data.iterator_ops import (get_output_classes, get_output_shapes, get_output_types,
                                        make_initializable_iterator, make_one_shot_iterator)

__all__ = ["AUTOTUNE", "Dataset", "Iterator", "experimental", "get_output_classes",
           "get_output_shapes", "get_output_types", "make_initializable_iterator",
           "make_one_shot_iterator", "TextLineDataset", "TFRecordDataset",
           "FixedLengthRecordDataset"]
