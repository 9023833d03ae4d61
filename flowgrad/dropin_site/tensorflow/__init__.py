"""``tensorflow`` for the child Python processes of ``python -m flowgrad`` (multiprocessing's
spawned workers, ``subprocess`` runs of ``python``): ``python -m flowgrad`` puts this
directory on their ``PYTHONPATH``, so ``import tensorflow`` there gives flowgrad as in the
parent (TensorFlow 1's API after ``--tf1``: ``$FLOWGRAD_TENSORFLOW_VERSION``). A Python
without flowgrad imports the TensorFlow it has instead."""
import importlib
import os
import sys

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
del sys.modules["tensorflow"]       # this stub: install_as_tensorflow serves the name
try:
    from flowgrad.dropin import install_as_tensorflow
except ImportError:                 # not flowgrad's Python: its own tensorflow, if any
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    importlib.import_module("tensorflow")
else:
    install_as_tensorflow(int(os.environ.get("FLOWGRAD_TENSORFLOW_VERSION", "2")))
