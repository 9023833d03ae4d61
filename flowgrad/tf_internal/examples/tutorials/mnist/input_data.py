"""``tensorflow.examples.tutorials.mnist.input_data``: ``read_data_sets`` and its helpers,
served by :mod:`flowgrad.datasets.mnist`."""
from flowgrad.datasets.mnist import *  # noqa: F403
from flowgrad.datasets.mnist import __all__  # noqa: F401
