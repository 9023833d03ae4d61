"""``tf.data.experimental``: AUTOTUNE and cardinality constants."""
from __future__ import annotations

from typing import Any

from flowgrad.data.dataset_ops import AUTOTUNE, INFINITE, UNKNOWN
from flowgrad.data.readers import CsvDataset, TFRecordWriter, make_csv_dataset
from flowgrad.data.options import (AutoShardPolicy, DistributeOptions,  # noqa: F401
                                   ExternalStatePolicy, OptimizationOptions, ThreadingOptions)

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


def cardinality(dataset: Any) -> Any:
    """The number of elements of ``dataset`` (-1 infinite, -2 unknown), an int64 tensor."""
    return dataset.cardinality()


__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality",
           "CsvDataset", "make_csv_dataset",
           "AutoShardPolicy", "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ThreadingOptions", "TFRecordWriter"]
