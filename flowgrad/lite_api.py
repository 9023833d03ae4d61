"""``tf.lite``: converting to TensorFlow Lite's flatbuffers and running them is not part of
flowgrad (docs/differences.md).

A program that sets a converter up (``TFLiteConverter.from_keras_model(model)``, its
``optimizations``, ``target_spec``, ``representative_dataset``) runs; ``convert()`` raises
``UnimplementedError`` saying so, and :class:`Interpreter` fails on a missing file as
TensorFlow's does and with ``UnimplementedError`` on a real one. A SavedModel that flowgrad
writes (``tf.saved_model.save``) converts with TensorFlow's own converter."""
from __future__ import annotations

import enum
import os
import types
from collections.abc import Callable
from typing import Any

from flowgrad.framework import errors

_WHY = ("flowgrad does not convert to or run TensorFlow Lite models; save a SavedModel with "
        "tf.saved_model.save and convert it with TensorFlow's tf.lite.TFLiteConverter "
        "(docs/differences.md)")


class Optimize(enum.Enum):
    """The optimizations a converter may apply (TensorFlow's values).

    Args:
      value: A member's value: ``Optimize("DEFAULT")`` is ``Optimize.DEFAULT``.
    """

    DEFAULT = "DEFAULT"
    OPTIMIZE_FOR_SIZE = "OPTIMIZE_FOR_SIZE"
    OPTIMIZE_FOR_LATENCY = "OPTIMIZE_FOR_LATENCY"
    EXPERIMENTAL_SPARSITY = "EXPERIMENTAL_SPARSITY"

    def __str__(self) -> str:
        return str(self.value)


class OpsSet(enum.Enum):
    """The sets of ops a converted model may use (TensorFlow's values).

    Args:
      value: A member's value: ``OpsSet("TFLITE_BUILTINS")`` is ``OpsSet.TFLITE_BUILTINS``.
    """

    TFLITE_BUILTINS = "TFLITE_BUILTINS"
    SELECT_TF_OPS = "SELECT_TF_OPS"
    TFLITE_BUILTINS_INT8 = "TFLITE_BUILTINS_INT8"
    EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8 = \
        "EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8"
    EXPERIMENTAL_STABLEHLO_OPS = "EXPERIMENTAL_STABLEHLO_OPS"

    def __str__(self) -> str:
        return str(self.value)


class TargetSpec:
    """What the converted model may use.

    Args:
      supported_ops: a set of :class:`OpsSet` (``{OpsSet.TFLITE_BUILTINS}`` by default).
      supported_types: a set of dtypes.
      experimental_select_user_tf_ops: op names.
      experimental_supported_backends: backend names.
    """

    def __init__(self, supported_ops: Any = None, supported_types: Any = None,
                 experimental_select_user_tf_ops: Any = None,
                 experimental_supported_backends: Any = None) -> None:
        self.supported_ops = {OpsSet.TFLITE_BUILTINS} if supported_ops is None \
            else supported_ops
        self.supported_types = set() if supported_types is None else supported_types
        self.experimental_select_user_tf_ops = experimental_select_user_tf_ops or set()
        self.experimental_supported_backends = experimental_supported_backends


class RepresentativeDataset:
    """A generator of sample inputs for quantization.

    Args:
      input_gen: a callable returning an iterator of input lists.
    """

    def __init__(self, input_gen: Callable) -> None:
        self.input_gen = input_gen


class TFLiteConverter:
    """Sets up a conversion to TensorFlow Lite; :meth:`convert` is not supported.

    Args:
      funcs: the concrete functions to convert.
      trackable_obj: the object owning their variables.
    """

    def __init__(self, funcs: Any, trackable_obj: Any = None) -> None:
        self._funcs = funcs
        self._trackable_obj = trackable_obj
        self.optimizations: set = set()
        self.representative_dataset = None
        self.target_spec = TargetSpec()
        self.inference_input_type = None
        self.inference_output_type = None
        self.allow_custom_ops = False
        self.experimental_new_converter = True
        self.experimental_new_quantizer = True

    @classmethod
    def from_saved_model(cls, saved_model_dir: str, signature_keys: Any = None,
                         tags: Any = None) -> TFLiteConverter:
        """A converter of the SavedModel in ``saved_model_dir``.

        Raises:
          OSError: there is no SavedModel there (TensorFlow's message).
        """
        if not os.path.isdir(saved_model_dir):
            raise OSError("SavedModel file does not exist at: %s/{saved_model.pbtxt|"
                          "saved_model.pb}" % saved_model_dir)
        return cls([saved_model_dir], None)

    @classmethod
    def from_keras_model(cls, model: Any) -> TFLiteConverter:
        """A converter of a Keras model."""
        return cls([model], model)

    @classmethod
    def from_concrete_functions(cls, funcs: Any, trackable_obj: Any = None) -> TFLiteConverter:
        """A converter of concrete functions."""
        return cls(list(funcs), trackable_obj)

    def convert(self) -> bytes:
        """Not supported.

        Raises:
          UnimplementedError: always; the message says what to do instead.
        """
        raise errors.UnimplementedError(None, None, "TFLiteConverter.convert: " + _WHY)


class Interpreter:
    """Runs a TensorFlow Lite model: not supported.

    Args:
      model_path: The path of a ``.tflite`` file.
      model_content: The bytes of a TensorFlow Lite model.
      experimental_delegates: TensorFlow Lite delegates.
      num_threads: The number of threads the interpreter may use.
      **kwargs: TensorFlow's other options.

    Raises:
      ValueError: neither ``model_path`` nor ``model_content``, or a file that cannot be
        opened (TensorFlow's messages).
      UnimplementedError: a model is given.
    """

    def __init__(self, model_path: str | None = None, model_content: bytes | None = None,
                 experimental_delegates: Any = None, num_threads: int | None = None,
                 **kwargs: Any) -> None:
        if model_path is None and model_content is None:
            raise ValueError("`model_path` or `model_content` must be specified.")
        if model_path is not None and not os.path.isfile(model_path):
            raise ValueError("Could not open '%s'." % model_path)
        raise errors.UnimplementedError(None, None, "tf.lite.Interpreter: " + _WHY)


experimental = types.ModuleType("flowgrad.lite_api.experimental",
                                "``tf.lite.experimental``: nothing flowgrad supports.")
experimental.__all__ = []

__all__ = ["Interpreter", "OpsSet", "Optimize", "RepresentativeDataset", "TFLiteConverter",
           "TargetSpec", "experimental"]
