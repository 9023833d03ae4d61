"""``tf.lite``: TensorFlow Lite files, written by flowgrad's converter and run by LiteRT.

``TFLiteConverter`` lowers a Keras model, a concrete function, a SavedModel (TensorFlow's
or flowgrad's) or, in the TF1 face, a Session's graph or a frozen GraphDef to TensorFlow
Lite's builtin operators (``flowgrad.tflite``), with dynamic-range or float16 quantization
on request. ``Interpreter`` is Google's LiteRT interpreter (``ai-edge-litert``), which runs
those files and the ones TensorFlow writes. Both need ``pip install flowgrad[lite]``."""
from __future__ import annotations

import enum
import os
import types
from collections.abc import Callable
from typing import Any


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
    """Converts a Keras model, a concrete function or a SavedModel to TensorFlow Lite.

    flowgrad lowers the traced inference graph to TensorFlow Lite's builtin operators
    (``flowgrad.tflite``): float models, dynamic-range (``optimizations=[Optimize.DEFAULT]``),
    float16 and full integer quantization (a ``representative_dataset``). The files run on
    LiteRT and on TensorFlow's interpreter.

    Args:
      funcs: the concrete functions to convert.
      trackable_obj: the object owning their variables.
    """

    def __init__(self, funcs: Any, trackable_obj: Any = None) -> None:
        self._funcs = funcs
        self._trackable_obj = trackable_obj
        self._source: Callable[[], Any] = lambda: _lite_converter().from_concrete_function(
            _one_function(self._funcs))
        self.optimizations: set = set()
        self.representative_dataset = None
        self.target_spec = TargetSpec()
        self.inference_input_type = None
        self.inference_output_type = None
        self.allow_custom_ops = False
        self.experimental_new_converter = True
        self.experimental_new_quantizer = True
        self.exclude_conversion_metadata = False

    @classmethod
    def from_saved_model(cls, saved_model_dir: str, signature_keys: Any = None,
                         tags: Any = None) -> TFLiteConverter:
        """A converter of the SavedModel in ``saved_model_dir`` (one of its signatures).

        Args:
          saved_model_dir: the SavedModel directory (TensorFlow's or flowgrad's files).
          signature_keys: a list of one signature key (``["serving_default"]`` by default).
          tags: the MetaGraph's tags (serving).

        Returns:
          The converter.

        Raises:
          OSError: there is no SavedModel there (TensorFlow's message).
          ValueError: more than one signature key.
        """
        if not os.path.isdir(saved_model_dir):
            raise OSError("SavedModel file does not exist at: %s/{saved_model.pbtxt|"
                          "saved_model.pb}" % saved_model_dir)
        keys = list(signature_keys or ["serving_default"])
        if len(keys) != 1:
            raise ValueError("Only support a single signature key.")
        conv = cls([saved_model_dir], None)
        conv._source = lambda: _lite_converter().from_saved_model(saved_model_dir, keys[0])
        return conv

    @classmethod
    def from_keras_model(cls, model: Any) -> TFLiteConverter:
        """A converter of a Keras model's inference call (``training=False``).

        Args:
          model: a Keras model (functional, Sequential, or subclassed and called once).

        Returns:
          The converter.
        """
        conv = cls([model], model)
        conv._source = lambda: _lite_converter().from_keras_model(model)
        return conv

    @classmethod
    def from_concrete_functions(cls, funcs: Any, trackable_obj: Any = None) -> TFLiteConverter:
        """A converter of one concrete function (``f.get_concrete_function(...)``).

        Args:
          funcs: a list of one ``ConcreteFunction``.
          trackable_obj: the object owning the function's variables.

        Returns:
          The converter.
        """
        return cls(list(funcs), trackable_obj)

    def convert(self) -> bytes:
        """The TensorFlow Lite model's bytes (a ``.tflite`` file's content).

        Returns:
          The flatbuffer.

        Raises:
          UnimplementedError: an op with no TensorFlow Lite lowering in flowgrad's converter
            (naming the op and the function), or int16 activations.
          ValueError: int8 ops or types without a representative dataset.
          ImportError: LiteRT (``pip install flowgrad[lite]``) is not installed.
        """
        return _lite_converter().convert(self._source(), self)


def _lite_converter() -> Any:
    from flowgrad.tflite import converter
    return converter


def _one_function(funcs: list) -> Any:
    if len(funcs) != 1:
        raise ValueError("This converter can only convert a single ConcreteFunction. "
                         "Converting multiple functions is under development.")
    return funcs[0]


class TFLiteConverterV1(TFLiteConverter):
    """TensorFlow 1's converter (``tf.compat.v1.lite.TFLiteConverter``): a Session's graph,
    a frozen GraphDef file, a SavedModel or a Keras model file.

    Args:
      funcs: what is converted.
      trackable_obj: the object owning its variables.
    """

    @classmethod
    def from_session(cls, sess: Any, input_tensors: list,
                     output_tensors: list) -> TFLiteConverterV1:
        """A converter of ``sess``'s graph from ``input_tensors`` to ``output_tensors``.

        Args:
          sess: the Session holding the variables' values.
          input_tensors: the placeholders the model takes.
          output_tensors: the tensors it returns.

        Returns:
          The converter.
        """
        conv = cls([], None)
        conv._source = lambda: _lite_converter().from_session(sess, input_tensors,
                                                              output_tensors)
        return conv

    @classmethod
    def from_frozen_graph(cls, graph_def_file: str, input_arrays: list, output_arrays: list,
                          input_shapes: dict | None = None) -> TFLiteConverterV1:
        """A converter of a frozen GraphDef file (``.pb``, binary or text).

        Args:
          graph_def_file: the file.
          input_arrays: the input tensors' names.
          output_arrays: the output tensors' names.
          input_shapes: ``{input name: shape}`` for inputs whose shape the file leaves open.

        Returns:
          The converter.

        Raises:
          OSError: the file does not exist (TensorFlow's message).
        """
        if not os.path.isfile(graph_def_file):
            raise OSError("File '%s' does not exist." % graph_def_file)
        conv = cls([], None)
        conv._source = lambda: _lite_converter().from_frozen_graph(
            graph_def_file, input_arrays, output_arrays, input_shapes)
        return conv

    @classmethod
    def from_keras_model_file(cls, model_file: str, input_arrays: Any = None,
                              input_shapes: Any = None, output_arrays: Any = None,
                              custom_objects: Any = None) -> TFLiteConverterV1:
        """A converter of a Keras model file (``.keras``/``.h5``).

        Args:
          model_file: the file.
          input_arrays: unused (TensorFlow's argument).
          input_shapes: unused (TensorFlow's argument).
          output_arrays: unused (TensorFlow's argument).
          custom_objects: passed to ``keras.models.load_model``.

        Returns:
          The converter.
        """
        import keras
        model = keras.models.load_model(model_file, custom_objects=custom_objects)
        return cls.from_keras_model(model)


class Interpreter:
    """Runs a TensorFlow Lite model with Google's LiteRT interpreter (``ai-edge-litert``).

    The methods are LiteRT's, which are TensorFlow's ``tf.lite.Interpreter``'s:
    ``allocate_tensors``, ``get_input_details``/``get_output_details``, ``set_tensor``,
    ``invoke``, ``get_tensor``, ``resize_tensor_input``, ``get_signature_list``,
    ``get_signature_runner``, ``get_tensor_details``, ``tensor``, ...

    Args:
      model_path: The path of a ``.tflite`` file.
      model_content: The bytes of a TensorFlow Lite model.
      experimental_delegates: TensorFlow Lite delegates.
      num_threads: The number of threads the interpreter may use.
      **kwargs: TensorFlow's other options (``experimental_op_resolver_type``,
        ``experimental_preserve_all_tensors``, ...).

    Raises:
      ValueError: neither ``model_path`` nor ``model_content``, or a file that cannot be
        opened or holds no model (TensorFlow's messages).
      ImportError: LiteRT is not installed (``pip install flowgrad[lite]``).
    """

    def __init__(self, model_path: str | None = None, model_content: bytes | None = None,
                 experimental_delegates: Any = None, num_threads: int | None = None,
                 **kwargs: Any) -> None:
        if model_path is None and model_content is None:
            raise ValueError("`model_path` or `model_content` must be specified.")
        if model_path is not None and not os.path.isfile(model_path):
            raise ValueError("Could not open '%s'." % model_path)
        from flowgrad.tflite.interpreter import litert_interpreter
        resolver = kwargs.pop("experimental_op_resolver_type", None)
        if resolver is not None:
            kwargs["experimental_op_resolver_type"] = _litert_enum(resolver)
        self._impl = litert_interpreter()(model_path=model_path, model_content=model_content,
                                          experimental_delegates=experimental_delegates,
                                          num_threads=num_threads, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "_impl":
            raise AttributeError(name)
        return getattr(self._impl, name)


def _litert_enum(value: Any) -> Any:
    from ai_edge_litert.interpreter import OpResolverType as LiteRT
    return LiteRT[value.name] if hasattr(value, "name") else value


class OpResolverType(enum.Enum):
    """The interpreter's kernels (``tf.lite.experimental.OpResolverType``).

    Args:
      value: A member's value.
    """

    AUTO = 0
    BUILTIN = 1
    BUILTIN_REF = 2
    BUILTIN_WITHOUT_DEFAULT_DELEGATES = 3


def load_delegate(library: str, options: dict | None = None) -> Any:
    """Loads a TensorFlow Lite delegate library (``tf.lite.experimental.load_delegate``).

    Args:
      library: the delegate's shared library.
      options: its options.

    Returns:
      LiteRT's delegate.

    Raises:
      ValueError: the library cannot be loaded (LiteRT's message).
    """
    from flowgrad.tflite.interpreter import litert_module
    return litert_module().load_delegate(library, options)


experimental = types.ModuleType("flowgrad.lite_api.experimental",
                                "``tf.lite.experimental``: the interpreter's options.")
experimental.OpResolverType = OpResolverType
experimental.load_delegate = load_delegate
experimental.__all__ = ["OpResolverType", "load_delegate"]

__all__ = ["Interpreter", "OpsSet", "Optimize", "RepresentativeDataset", "TFLiteConverter",
           "TargetSpec", "experimental"]
