"""TensorFlow 1.15's ``tf.contrib.learn``, its basics: ``RunConfig`` and ``ModeKeys`` (the
``tf.estimator`` ones), ``datasets`` (MNIST's ``read_data_sets`` / ``load_mnist``) and
``preprocessing.VocabularyProcessor``. The long path programs import from,
``tensorflow.contrib.learn.python.learn.datasets.mnist``, leads here too."""
from __future__ import annotations

import sys

from flowgrad.compat.contrib.learn import datasets, preprocessing
from flowgrad.estimator.mode_keys import ModeKeys
from flowgrad.estimator.run_config import RunConfig

# ``tensorflow.contrib.learn.python.learn`` is this package (TF 1.15's implementation path).
python = learn = sys.modules[__name__]

__all__ = ["ModeKeys", "RunConfig", "datasets", "preprocessing"]


def __dir__() -> list:
    return sorted(__all__)
