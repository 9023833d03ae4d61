"""flowgrad: TensorFlow's gradient machinery rebuilt on NumPy.

``import flowgrad as tf`` is the TF2 face (eager by default, GradientTape);
``import flowgrad.compat.v1 as tf`` is the TF1 face (graph mode, Session). Both show the names
their namespace of the export table declares (flowgrad/api/exports.py), and nothing else."""
import sys as _sys

import flowgrad.ops as _ops  # noqa: F401 - registers every op
import flowgrad.autodiff.control_flow_grad as _cfg  # noqa: F401 - the If and While gradients
from flowgrad import dropin as _dropin
from flowgrad.api import exports as _exports, namespaces as _namespaces
from flowgrad.compat import v1 as _v1  # the TF1 face, built from its table
import flowgrad.estimator as _estimator_pkg  # noqa: F401 - its submodules load lazily and
# must not bind the package over the face's tf.estimator namespace
from flowgrad.version import VERSION as __version__  # noqa: N811 - flowgrad's: FLOWGRAD_VERSION

# Last, so that no submodule loaded later rebinds a face name (Python sets a package's
# attribute when it first loads a submodule: the TF1 face loads flowgrad.losses, which is not
# TensorFlow 2's tf.losses).
__all__ = _namespaces.populate(globals(), "tf")
for _name in _exports.KERAS_ALIASES:    # a submodule flowgrad.losses loaded above bound the
    globals().pop(_name, None)          # package's attribute: tf.losses is Keras's (__getattr__)
del _name
compat.v1 = _v1  # noqa: F821 - bound by populate
compat.v2 = _sys.modules[__name__]   # noqa: F821 - TensorFlow 2's API is this face
_v1.compat = compat  # noqa: F821


_dropin.install_keras_finder()     # import flowgrad.keras.layers: the real Keras's


def __getattr__(name: str):  # noqa: ANN202 - PEP 562
    """``keras`` (and ``losses``, ``metrics``, ``optimizers``, its namespaces): the real
    Keras 3's, loaded on first use as TensorFlow 2.16+ does (the keras extra;
    flowgrad/dropin.py)."""
    if name == "keras":
        return _dropin.tf_keras()
    if name in _exports.KERAS_ALIASES:     # tf.losses is tf.keras.losses
        return getattr(_dropin.tf_keras(), name)
    raise AttributeError("module 'flowgrad' has no attribute %r" % name)


def __dir__() -> list:
    """TensorFlow 2's names and flowgrad's extensions: the table's, not the implementation
    packages."""
    return list(__all__)
