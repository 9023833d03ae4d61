"""``tf.contrib.learn.datasets``: MNIST (``mnist.read_data_sets``, ``load_mnist``) and
``load_dataset("mnist")``."""
from __future__ import annotations

from collections.abc import Callable

from flowgrad.compat.contrib.learn.datasets import mnist

#: The datasets ``load_dataset`` knows.
DATASETS: dict[str, Callable] = {"mnist": mnist.load_mnist}


def load_dataset(name: str, size: str = "small", test_with_fake_data: bool = False) -> object:
    """Loads the dataset ``name`` (``"mnist"``).

    Args:
      name: The dataset's name.
      size: Accepted for TensorFlow's signature.
      test_with_fake_data: Accepted for TensorFlow's signature.

    Returns:
      The dataset (MNIST's ``Datasets`` of train, validation and test).

    Raises:
      ValueError: an unknown name.
    """
    if name not in DATASETS:
        raise ValueError("Name of dataset is not found: %s" % name)
    return DATASETS[name]()


__all__ = ["DATASETS", "load_dataset", "mnist"]


def __dir__() -> list:
    return sorted(__all__)
