"""``tf.compat.v1.lite``: ``tf.lite`` with TensorFlow 1's converter, which also converts a
Session's graph (``from_session``), a frozen GraphDef file (``from_frozen_graph``) and a
Keras model file (``from_keras_model_file``)."""
from flowgrad.lite_api import (Interpreter, OpsSet, Optimize, RepresentativeDataset,
                               TargetSpec, experimental)
from flowgrad.lite_api import TFLiteConverterV1 as TFLiteConverter

__all__ = ["Interpreter", "OpsSet", "Optimize", "RepresentativeDataset", "TFLiteConverter",
           "TargetSpec", "experimental"]
