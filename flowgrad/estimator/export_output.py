"""``tf.estimator.export``'s outputs: what a ``model_fn`` exports for serving, each one
SignatureDef of TensorFlow's methods (predict, classify, regress)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import is_tensor
from flowgrad.saved_model import tf1_saved_model as sm

CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"


def _single_string_input(receiver_tensors: dict) -> Any:
    """The one string tensor a classify or regress signature takes as ``inputs``."""
    if len(receiver_tensors) != 1:
        raise ValueError("Classification/regression input tensors must be a single string "
                         f"Tensor; got {receiver_tensors}")
    (tensor,) = receiver_tensors.values()
    if tensor.dtype != dtypes.string:
        raise ValueError("Classification/regression input tensors must be of type string; "
                         f"got {tensor.dtype}")
    return tensor


class ExportOutput:
    """The base of the export outputs: one SignatureDef each."""

    def as_signature_def(self, receiver_tensors: dict) -> Any:
        """This output's SignatureDef over ``receiver_tensors``.

        Args:
          receiver_tensors: A dict of the serving input tensors.
        """
        raise NotImplementedError


class PredictOutput(ExportOutput):
    """A predict signature of one tensor (as ``output``) or a dict of tensors.

    Args:
      outputs: A tensor or a dict of string keys to tensors.

    Raises:
      ValueError: a key that is not a string, a value that is not a tensor.
    """

    def __init__(self, outputs: Any):
        if not isinstance(outputs, dict):
            outputs = {"output": outputs}
        for key, value in outputs.items():
            if not isinstance(key, str):
                raise ValueError(f"Prediction output key must be a string; got {key}.")
            if not is_tensor(value):
                raise ValueError(f"Prediction output value must be a Tensor; got {value}.")
        self._outputs = dict(outputs)

    @property
    def outputs(self) -> dict:
        """The output tensors by key."""
        return self._outputs

    def as_signature_def(self, receiver_tensors: dict) -> Any:
        """A ``tensorflow/serving/predict`` SignatureDef.

        Args:
          receiver_tensors: A dict of the serving input tensors.
        """
        return sm.predict_signature_def(receiver_tensors, self._outputs)


class ClassificationOutput(ExportOutput):
    """A classify signature: ``scores`` (float) and/or ``classes`` (string).

    Args:
      scores: A float tensor ``[batch, num_classes]``.
      classes: A string tensor ``[batch, num_classes]``.

    Raises:
      ValueError: neither is given, or one has the wrong dtype.
    """

    def __init__(self, scores: Any = None, classes: Any = None):
        if scores is not None and not (is_tensor(scores) and scores.dtype.is_floating):
            raise ValueError(f"Classification scores must be a float32 Tensor; got {scores}")
        if classes is not None and not (is_tensor(classes) and classes.dtype == dtypes.string):
            raise ValueError(f"Classification classes must be a string Tensor; got {classes}")
        if scores is None and classes is None:
            raise ValueError("Cannot create a ClassificationOutput with empty arguments. At "
                             "least one of `scores` and `classes` must be defined.")
        self._scores, self._classes = scores, classes

    @property
    def scores(self) -> Any:
        """The scores tensor."""
        return self._scores

    @property
    def classes(self) -> Any:
        """The classes tensor."""
        return self._classes

    def as_signature_def(self, receiver_tensors: dict) -> Any:
        """A ``tensorflow/serving/classify`` SignatureDef.

        Args:
          receiver_tensors: A dict of one string tensor (serialized Examples).
        """
        inputs = {"inputs": sm.build_tensor_info(_single_string_input(receiver_tensors))}
        outputs = {}
        if self._classes is not None:
            outputs["classes"] = sm.build_tensor_info(self._classes)
        if self._scores is not None:
            outputs["scores"] = sm.build_tensor_info(self._scores)
        return sm.build_signature_def(inputs, outputs, CLASSIFY_METHOD_NAME)


class RegressionOutput(ExportOutput):
    """A regress signature of one float tensor.

    Args:
      value: A float tensor ``[batch]`` or ``[batch, 1]``.

    Raises:
      ValueError: ``value`` is not a float tensor.
    """

    def __init__(self, value: Any):
        if not (is_tensor(value) and value.dtype.is_floating):
            raise ValueError(f"Regression output value must be a float32 Tensor; got {value}")
        self._value = value

    @property
    def value(self) -> Any:
        """The regressed values."""
        return self._value

    def as_signature_def(self, receiver_tensors: dict) -> Any:
        """A ``tensorflow/serving/regress`` SignatureDef.

        Args:
          receiver_tensors: A dict of one string tensor (serialized Examples).
        """
        inputs = {"inputs": sm.build_tensor_info(_single_string_input(receiver_tensors))}
        return sm.build_signature_def(inputs, {"outputs": sm.build_tensor_info(self._value)},
                                      REGRESS_METHOD_NAME)
