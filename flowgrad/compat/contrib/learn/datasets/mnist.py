"""``tf.contrib.learn.datasets.mnist``: the MNIST reader of TF 1.x's tutorials
(``read_data_sets``; flowgrad/datasets/mnist.py) and ``load_mnist``."""
from __future__ import annotations

from flowgrad.datasets.mnist import (DataSet, Datasets, dense_to_one_hot, extract_images,
                                     extract_labels, read_data_sets)


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    """``read_data_sets(train_dir)``: MNIST's train, validation and test sets.

    Args:
      train_dir: The folder with (or to receive) MNIST's files.

    Returns:
      The ``Datasets``.
    """
    return read_data_sets(train_dir)


__all__ = ["DataSet", "dense_to_one_hot", "extract_images", "extract_labels", "load_mnist",
           "read_data_sets"]


def __dir__() -> list:
    return sorted(__all__)
