"""``tf.data`` of the TF2 face: Dataset pipelines and eager iteration. The TF1 face's
``tf.data`` (``tf.compat.v1.data`` in flowgrad/api/exports.py) adds TensorFlow 1's graph
iterators."""
from flowgrad.data import experimental
from flowgrad.data import caching, folding, resampling, saving, selection, windowing  # noqa: F401 - they add Dataset methods
from flowgrad.data.dataset_ops import AUTOTUNE, Dataset
from flowgrad.data.experimental import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from flowgrad.data.iterator_ops import IteratorBase as Iterator
from flowgrad.data.options import Options, ThreadingOptions
from flowgrad.data.readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset
from flowgrad.data.structure import DatasetSpec

__all__ = ["AUTOTUNE", "Dataset", "Iterator", "experimental", "TextLineDataset",
           "TFRecordDataset", "FixedLengthRecordDataset", "Options", "INFINITE_CARDINALITY",
           "UNKNOWN_CARDINALITY", "DatasetSpec", "ThreadingOptions"]


def __dir__() -> list:
    """TensorFlow's tf.data names; the implementation modules stay importable, not shown."""
    return sorted(__all__)
