"""``tf.compat.v1.saved_model``: TensorFlow 1's SavedModel API (``loader.load``,
``simple_save``, ``Builder``, signature helpers and constants) beside TensorFlow 2's
``save``/``load_v2``; see flowgrad.saved_model.tf1_saved_model."""
import types as _types

from flowgrad.saved_model.saved_model import load as load_v2
from flowgrad.saved_model.saved_model import save
from flowgrad.saved_model.tf1_saved_model import (DEFAULT_SERVING_SIGNATURE_DEF_KEY,
                                                  LEGACY_INIT_OP_KEY, MAIN_OP_KEY,
                                                  PREDICT_INPUTS, PREDICT_METHOD_NAME,
                                                  PREDICT_OUTPUTS, SAVED_MODEL_FILENAME_PB,
                                                  SAVED_MODEL_SCHEMA_VERSION, SERVING, TRAINING,
                                                  VARIABLES_DIRECTORY, VARIABLES_FILENAME)
from flowgrad.saved_model.tf1_saved_model import SavedModelBuilder as Builder
from flowgrad.saved_model.tf1_saved_model import (build_signature_def, build_tensor_info,
                                                  get_tensor_from_tensor_info,
                                                  is_valid_signature, load,
                                                  maybe_saved_model_directory,
                                                  predict_signature_def, simple_save)

SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
contains_saved_model = maybe_saved_model_directory


def _module(name: str, **names: object) -> _types.ModuleType:
    m = _types.ModuleType("flowgrad.compat.v1.saved_model." + name,
                          "TensorFlow 1's tf.saved_model.%s." % name)
    m.__dict__.update(names)
    return m


loader = _module("loader", load=load, maybe_saved_model_directory=maybe_saved_model_directory)
builder = _module("builder", SavedModelBuilder=Builder)
signature_def_utils = _module("signature_def_utils", build_signature_def=build_signature_def,
                              is_valid_signature=is_valid_signature,
                              predict_signature_def=predict_signature_def)
utils = _module("utils", build_tensor_info=build_tensor_info,
                get_tensor_from_tensor_info=get_tensor_from_tensor_info)
tag_constants = _module("tag_constants", SERVING=SERVING, TRAINING=TRAINING)
signature_constants = _module("signature_constants",
                              DEFAULT_SERVING_SIGNATURE_DEF_KEY=DEFAULT_SERVING_SIGNATURE_DEF_KEY,
                              PREDICT_INPUTS=PREDICT_INPUTS, PREDICT_OUTPUTS=PREDICT_OUTPUTS,
                              PREDICT_METHOD_NAME=PREDICT_METHOD_NAME)
constants = _module("constants", LEGACY_INIT_OP_KEY=LEGACY_INIT_OP_KEY, MAIN_OP_KEY=MAIN_OP_KEY,
                    SAVED_MODEL_FILENAME_PB=SAVED_MODEL_FILENAME_PB,
                    SAVED_MODEL_FILENAME_PBTXT=SAVED_MODEL_FILENAME_PBTXT,
                    SAVED_MODEL_SCHEMA_VERSION=SAVED_MODEL_SCHEMA_VERSION,
                    VARIABLES_DIRECTORY=VARIABLES_DIRECTORY,
                    VARIABLES_FILENAME=VARIABLES_FILENAME)

__all__ = [
    "save", "load", "load_v2", "simple_save", "Builder", "build_signature_def",
    "build_tensor_info", "get_tensor_from_tensor_info", "is_valid_signature",
    "maybe_saved_model_directory", "contains_saved_model", "predict_signature_def", "loader",
    "builder", "signature_def_utils", "utils", "tag_constants", "signature_constants",
    "constants", "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY",
    "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "SAVED_MODEL_FILENAME_PB",
    "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "SERVING", "TRAINING",
    "VARIABLES_DIRECTORY", "VARIABLES_FILENAME",
]
