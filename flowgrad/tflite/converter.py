"""``TFLiteConverter.convert``: the function to convert, its graph lowered, the model written."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.tflite.graph_lowering import GraphLowering
from flowgrad.tflite.model_builder import ModelBuilder
from flowgrad.tflite.op_lowerings import LOWERINGS
from flowgrad.tflite.patterns import PATTERNS


class Conversion:
    """What to convert: a graph's inputs and outputs, their signature names, and values.

    Args:
      inputs: the input placeholders, in signature order.
      input_names: their names in the signature.
      outputs: the output tensors.
      output_names: their names in the signature.
      evaluate: ``f(tensor) -> np.ndarray`` for tensors that no input reaches.
      where: what is converted, for error messages.
    """

    def __init__(self, inputs: list, input_names: list, outputs: list, output_names: list,
                 evaluate: Any, where: str) -> None:
        self.inputs = inputs
        self.input_names = input_names
        self.outputs = outputs
        self.output_names = output_names
        self.evaluate = evaluate
        self.where = where


def from_concrete_function(cf: Any) -> Conversion:
    """The conversion of a ``ConcreteFunction`` (a traced ``tf.function``).

    Args:
      cf: the concrete function.

    Returns:
      Its :class:`Conversion`.
    """
    import flowgrad.nest as nest
    outputs = cf.structured_outputs
    if isinstance(outputs, dict):
        names = sorted(outputs)
        flat = [outputs[k] for k in names]
    else:
        flat = [t for t in nest.flatten(outputs) if t is not None]
        names = ["output_%d" % i for i in range(len(flat))]
    graph = cf.graph
    in_names = [_arg_name(t) for t in cf.inputs]
    return Conversion(list(cf.inputs), in_names, flat, names,
                      lambda t: graph._evaluate(t).numpy(), "function %r" % graph.name)


def _arg_name(t: Any) -> str:
    name = t.op.name
    return name.rsplit("/", 1)[-1]


def from_keras_model(model: Any) -> Conversion:
    """The conversion of a Keras model's inference call (``training=False``), as TensorFlow's.

    Args:
      model: a Keras model: functional and Sequential models by their ``inputs``, a subclassed
        one by the input shape it was built with.

    Returns:
      Its :class:`Conversion`.

    Raises:
      ValueError: a subclassed model that was never called (TensorFlow's message).
    """
    from flowgrad.runtime.function import TensorSpec, function
    inputs = getattr(model, "_inputs_struct", None) if _functional(model) else None
    if inputs is not None or _functional(model):
        specs = [TensorSpec(tuple(x.shape), x.dtype, name=x.name) for x in model.inputs]
        signature = [specs] if len(specs) > 1 else specs
    else:
        shapes = getattr(model, "_build_shapes_dict", None)
        if not shapes:
            raise ValueError("The model provided has never been called. It must be called at "
                             "least once before export.")
        shape = shapes.get("input_shape", next(iter(shapes.values())))
        dtype = getattr(model, "input_dtype", "float32")
        signature = [TensorSpec((None,) + tuple(shape)[1:], dtype, name="input")]
    fn = function(lambda *args: model(*args, training=False), input_signature=signature,
                  autograph=False)
    return from_concrete_function(fn.get_concrete_function())


def _functional(model: Any) -> bool:
    try:
        return len(model.inputs) > 0
    except (AttributeError, ValueError, TypeError):
        return False


def from_saved_model(export_dir: str, signature_key: str = "serving_default") -> Conversion:
    """The conversion of a SavedModel's signature (TensorFlow's or flowgrad's files).

    Args:
      export_dir: the SavedModel directory.
      signature_key: the signature to convert.

    Returns:
      Its :class:`Conversion`.

    Raises:
      ValueError: the SavedModel has no such signature.
    """
    from flowgrad.saved_model.saved_model import load
    loaded = load(export_dir)
    sigs = getattr(loaded, "signatures", {})
    if signature_key not in sigs:
        raise ValueError("Signature key %r was not found in the SavedModel at %s (it has %s)"
                         % (signature_key, export_dir, sorted(sigs)))
    sig = sigs[signature_key]
    function = getattr(sig, "_function", None)       # a function of TensorFlow's format
    conv = from_concrete_function(function.get_concrete_function() if function is not None
                                  else sig)
    keywords = getattr(sig, "_kw_order", None)
    if keywords and len(keywords) == len(conv.inputs):
        conv.input_names = list(keywords)
    conv._keep = loaded        # the variables' owner lives as long as the conversion
    return conv


def from_session(sess: Any, input_tensors: list, output_tensors: list) -> Conversion:
    """The conversion of a TF1 graph between placeholders and outputs, values from ``sess``.

    Args:
      sess: the Session holding the variables' values.
      input_tensors: the placeholders.
      output_tensors: the outputs.

    Returns:
      Its :class:`Conversion`.
    """
    return Conversion(list(input_tensors), [t.op.name for t in input_tensors],
                      list(output_tensors), [t.op.name for t in output_tensors],
                      lambda t: np.asarray(sess.run(t)), "the session's graph")


def from_frozen_graph(path: str, input_arrays: list, output_arrays: list,
                      input_shapes: dict | None) -> Conversion:
    """The conversion of a frozen GraphDef file between named inputs and outputs.

    Args:
      path: the ``.pb`` file (binary, or text).
      input_arrays: the input tensors' names.
      output_arrays: the output tensors' names.
      input_shapes: ``{input name: shape}`` overriding the placeholders' shapes.

    Returns:
      Its :class:`Conversion`.

    Raises:
      ValueError: a name that is no tensor of the graph (TensorFlow's message).
    """
    from flowgrad.framework.graph import Graph
    from flowgrad.runtime.session import Session
    from flowgrad.saved_model import tf_protos
    from flowgrad.saved_model.graph_def import import_graph_def
    graph_def = tf_protos.pb().graph_pb2.GraphDef()
    with open(path, "rb") as f:
        data = f.read()
    try:
        graph_def.ParseFromString(data)
    except Exception:                       # noqa: BLE001 - then it is the text format
        from google.protobuf import text_format
        text_format.Parse(data.decode("utf-8"), graph_def)
    graph = Graph()
    with graph.as_default():
        import_graph_def(graph_def, name="")
    for name, shape in (input_shapes or {}).items():
        graph.get_tensor_by_name(name if ":" in name else name + ":0").set_shape(shape)
    sess = Session(graph=graph)

    def tensor(name: str) -> Any:
        try:
            return graph.get_tensor_by_name(name if ":" in name else name + ":0")
        except (KeyError, ValueError) as e:
            raise ValueError("Invalid tensors '%s' were found." % name) from e
    conv = from_session(sess, [tensor(n) for n in input_arrays],
                        [tensor(n) for n in output_arrays])
    conv.where = "the graph of %s" % path
    return conv


def convert(conv: Conversion, converter: Any) -> bytes:
    """Lowers ``conv`` and writes the model, applying the converter's options.

    Args:
      conv: what to convert.
      converter: the ``TFLiteConverter`` (its ``optimizations``, ``target_spec``,
        ``representative_dataset``, ``inference_input_type``/``inference_output_type``).

    Returns:
      The TensorFlow Lite model's bytes.

    Raises:
      UnimplementedError: an op without a TensorFlow Lite lowering (naming it and the
        function), or an option flowgrad's converter does not build.
    """
    from flowgrad.tflite import quantize
    b = ModelBuilder()
    lowering = GraphLowering(b, conv.inputs, conv.outputs, conv.evaluate, conv.where,
                             LOWERINGS, PATTERNS)
    in_idx, out_idx = lowering.run()
    for name, i in zip(conv.input_names, in_idx):
        b.subgraph.tensors[i].name = "serving_default_%s:0" % name
    for k, i in enumerate(out_idx):
        if i not in in_idx:
            b.subgraph.tensors[i].name = "StatefulPartitionedCall:%d" % k
    b.subgraph.inputs = np.array(in_idx, np.int32)
    b.subgraph.outputs = np.array(out_idx, np.int32)
    b.add_signature("serving_default", list(zip(conv.input_names, in_idx)),
                    list(zip(conv.output_names, out_idx)))
    quantize.apply(b, converter, conv)
    b.add_metadata("min_runtime_version", b"1.5.0".ljust(16, b"\0"))
    return b.serialize()


def unsupported_option(what: str) -> errors.UnimplementedError:
    """The error for a converter option flowgrad does not build."""
    return errors.UnimplementedError(None, None, "TFLiteConverter: %s is not supported by "
                                     "flowgrad's converter" % what)
