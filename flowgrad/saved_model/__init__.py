"""``tf.saved_model``: save a tf.Module with its tf.functions and load it in another process
(TensorFlow's format, or flowgrad's own where TensorFlow's cannot express a function; see
``flowgrad.saved_model.saved_model``)."""
from flowgrad.saved_model import graph_export  # noqa: F401 - installs Graph.as_graph_def
from flowgrad.saved_model import control_flow_export  # noqa: F401 - exports If/While
from flowgrad.saved_model import internal_op_export  # noqa: F401 - flowgrad's own ops
from flowgrad.saved_model import tensor_list_import  # noqa: F401 - TF's TensorLists
from flowgrad.saved_model import batch_norm_import  # noqa: F401 - TF's FusedBatchNorm*
from flowgrad.saved_model import control_flow_v1_import  # noqa: F401 - TF1's loops
from flowgrad.saved_model.saved_model import DEFAULT_SERVING_SIGNATURE_DEF_KEY, load, save
from flowgrad.ops.asset import Asset
from flowgrad.saved_model.save_options import LoadOptions, SaveOptions

from flowgrad.saved_model import experimental

__all__ = ["Asset", "save", "load", "experimental", "DEFAULT_SERVING_SIGNATURE_DEF_KEY",
           "SaveOptions", "LoadOptions"]


def __dir__() -> list:
    """TensorFlow's tf.saved_model names; the implementation module stays importable."""
    return sorted(__all__)
