"""``tf.estimator.export``: the serving inputs of an Estimator's SavedModel
(``ServingInputReceiver`` and the functions that build one) and
``Estimator.export_saved_model``'s writer."""
from __future__ import annotations

import collections
import os
import shutil
import time
from collections.abc import Callable
from typing import Any

from flowgrad.debug import tf_logging as logging
from flowgrad.estimator.mode_keys import ModeKeys
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import is_tensor
from flowgrad.ops.constant_ops import placeholder
from flowgrad.ops.parsing_ops import parse_example
from flowgrad.runtime.session import Session
from flowgrad.saved_model import tf1_saved_model as sm
from flowgrad.train.monitored_session import Scaffold
from flowgrad.train.saver import Saver

_SINGLE_FEATURE_KEY = "feature"
_SINGLE_RECEIVER_KEY = "input"


def _wrap(tensors: Any, key: str, what: str) -> dict:
    if tensors is None:
        raise ValueError(f"{what} must be defined.")
    if not isinstance(tensors, dict):
        tensors = {key: tensors}
    for name, tensor in tensors.items():
        if not isinstance(name, str):
            raise ValueError(f"{what} keys must be strings: {name}.")
        if not is_tensor(tensor) and not hasattr(tensor, "dense_shape"):
            raise ValueError(f"{what} must be a Tensor, SparseTensor, or RaggedTensor: {tensor}.")
    return dict(tensors)


class ServingInputReceiver(collections.namedtuple("ServingInputReceiver", [
        "features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """The serving inputs of an export (``receiver_tensors``, what a request feeds) and the
    ``features`` the ``model_fn`` gets from them.

    Args:
      features: A tensor or a dict of tensors (a tensor becomes ``{"feature": t}``).
      receiver_tensors: A tensor or a dict of the input tensors (``{"input": t}``).
      receiver_tensors_alternatives: More ``{name: receiver_tensors}`` signatures.

    Raises:
      ValueError: a missing or non-tensor value, a non-string key.
    """

    def __new__(cls, features: Any, receiver_tensors: Any,
                receiver_tensors_alternatives: dict | None = None) -> ServingInputReceiver:
        return super().__new__(cls, _wrap(features, _SINGLE_FEATURE_KEY, "features"),
                               _wrap(receiver_tensors, _SINGLE_RECEIVER_KEY,
                                     "receiver_tensors"),
                               receiver_tensors_alternatives)


class TensorServingInputReceiver(collections.namedtuple("TensorServingInputReceiver", [
        "features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """A ServingInputReceiver whose ``features`` is one tensor, passed to ``model_fn`` as is.

    Args:
      features: A tensor.
      receiver_tensors: A tensor or a dict of the input tensors.
      receiver_tensors_alternatives: More ``{name: receiver_tensors}`` signatures.
    """

    def __new__(cls, features: Any, receiver_tensors: Any,
                receiver_tensors_alternatives: dict | None = None
                ) -> TensorServingInputReceiver:
        if features is None or not is_tensor(features):
            raise ValueError(f"features must be a Tensor: {features}.")
        return super().__new__(cls, features, _wrap(receiver_tensors, _SINGLE_RECEIVER_KEY,
                                                    "receiver_tensors"),
                               receiver_tensors_alternatives)


def build_parsing_serving_input_receiver_fn(feature_spec: dict,
                                            default_batch_size: int | None = None
                                            ) -> Callable:
    """A ``serving_input_receiver_fn`` that takes serialized ``tf.train.Example``\\ s
    (``examples``, a string placeholder ``input_example_tensor``) and parses them with
    ``feature_spec``.

    Args:
      feature_spec: ``{key: FixedLenFeature | VarLenFeature}``.
      default_batch_size: The batch size of the placeholder (None: any).

    Returns:
      The function.
    """
    def serving_input_receiver_fn() -> ServingInputReceiver:
        serialized = placeholder(dtypes.string, [default_batch_size],
                                 name="input_example_tensor")
        return ServingInputReceiver(parse_example(serialized, feature_spec),
                                    {"examples": serialized})
    return serving_input_receiver_fn


def build_raw_serving_input_receiver_fn(features: dict,
                                        default_batch_size: int | None = None) -> Callable:
    """A ``serving_input_receiver_fn`` whose inputs are placeholders like ``features``
    (same dtypes and shapes but the batch dimension), fed as the features themselves.

    Args:
      features: A tensor or a dict of tensors.
      default_batch_size: The placeholders' batch size (None: any).

    Returns:
      The function.
    """
    def serving_input_receiver_fn() -> ServingInputReceiver:
        given = features if isinstance(features, dict) else {_SINGLE_FEATURE_KEY: features}
        receivers = {}
        for name, tensor in given.items():
            shape = [default_batch_size] + list(tensor.shape)[1:] if tensor.shape.rank else []
            receivers[name] = placeholder(tensor.dtype, shape,
                                          name=getattr(getattr(tensor, "op", None), "name",
                                                       name))
        return ServingInputReceiver(receivers, dict(receivers))
    return serving_input_receiver_fn


def _signature_defs(receiver_tensors: dict, export_outputs: dict,
                    alternatives: dict | None) -> dict:
    """The SignatureDefs of every export output over every receiver (TensorFlow's
    ``build_all_signature_defs``: a signature that cannot be built is left out, logged)."""
    receivers = {None: receiver_tensors, **(alternatives or {})}
    out = {}
    for receiver_name, tensors in receivers.items():
        tensors = _wrap(tensors, _SINGLE_RECEIVER_KEY, "receiver_tensors")
        for output_key, output in export_outputs.items():
            key = output_key if receiver_name is None else "%s:%s" % (receiver_name,
                                                                         output_key)
            try:
                out[key] = output.as_signature_def(tensors)
            except ValueError as e:
                logging.warning("Export includes no signature for %r: %s", key, e)
    if not out:
        raise ValueError("Export includes no signatures!")
    return out


def _timestamped_dir(base: str) -> str:
    """``base/<seconds since the epoch>``, a new one (waits a second on a clash)."""
    for _ in range(10):
        path = os.path.join(base, str(int(time.time())))
        if not os.path.exists(path):
            return path
        time.sleep(1)
    raise RuntimeError("Failed to obtain a unique export directory name after 10 attempts.")


def export_estimator_savedmodel(estimator: Any, export_dir_base: str,
                                serving_input_receiver_fn: Callable,
                                assets_extra: dict | None, as_text: bool,
                                checkpoint_path: str, mode: str) -> bytes:
    """Writes ``estimator``'s model of ``checkpoint_path`` as a SavedModel (tag ``serve``)
    under ``export_dir_base/<timestamp>`` (written in a ``temp-`` folder, then renamed).

    Args:
      estimator: The Estimator.
      export_dir_base: The folder of exports.
      serving_input_receiver_fn: Returns the ServingInputReceiver.
      assets_extra: ``{destination: source}`` files for ``assets.extra``.
      as_text: Accepted (the SavedModel is written as ``saved_model.pb``).
      checkpoint_path: The checkpoint whose values are exported.
      mode: The mode ``model_fn`` is called in.

    Returns:
      The export's path as bytes.
    """
    export_dir_base = os.fspath(export_dir_base)
    with estimator._new_graph() as graph:
        receiver = serving_input_receiver_fn()
        spec = estimator._call_model_fn(receiver.features, getattr(receiver, "labels", None),
                                        mode, estimator.config)
        export_outputs = spec.export_outputs
        if mode != ModeKeys.PREDICT or not export_outputs:
            from flowgrad.estimator.export_output import PredictOutput
            export_outputs = {"serving_default": PredictOutput(spec.predictions)}
        signatures = _signature_defs(receiver.receiver_tensors, export_outputs,
                                     receiver.receiver_tensors_alternatives)
        export_dir = _timestamped_dir(export_dir_base)
        temp_dir = os.path.join(export_dir_base, "temp-" + os.path.basename(export_dir))
        with Session(graph=graph, config=estimator._config.session_config) as session:
            saver = spec.scaffold.saver or Saver(sharded=True)
            saver.restore(session, checkpoint_path)
            local_init_op = spec.scaffold.local_init_op
            if local_init_op is None:
                local_init_op = Scaffold.default_local_init_op()
            builder = sm.SavedModelBuilder(temp_dir)
            builder.add_meta_graph_and_variables(session, [sm.SERVING],
                                                 signature_def_map=signatures,
                                                 main_op=local_init_op)
            builder.save(as_text)
    if assets_extra:
        extra = os.path.join(temp_dir, "assets.extra")
        for dest, source in assets_extra.items():
            target = os.path.join(extra, dest)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)
    os.replace(temp_dir, export_dir)
    logging.info("SavedModel written to: %s", export_dir)
    return export_dir.encode()
