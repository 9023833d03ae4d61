"""``tf.saved_model.save`` / ``load``.

``save`` writes TensorFlow's SavedModel format (``flowgrad.saved_model.tf_saver``), which
TensorFlow 2 loads. Where that cannot express a saved function (an op without a TensorFlow
exporter: ``py_func``, loops TensorFlow writes with TensorLists) or protobuf is missing, it
writes flowgrad's own format below instead and warns, naming the reason. ``load`` reads
both: TensorFlow's format (written by TensorFlow or by flowgrad;
``flowgrad.saved_model.tf_loader``) and flowgrad's own (as written by flowgrad 0.1.0, which
stays readable).

flowgrad's own format: a SavedModel directory holds:

- ``variables/variables.npz``: the objects' values, a ``tf.train.Checkpoint`` of the
  saved object (same keys, same object graph);
- ``constants.npz``: the constant tensors of the saved functions' graphs;
- ``flowgrad_saved_model.json``: written last, so a directory without it is not a
  SavedModel. It holds the format version, the object graph (every Module, variable
  and container reachable from the saved object, by attribute name) and, for each
  ``tf.function`` found on those objects, its traced graphs: the one of its
  ``input_signature``, or else those traced so far for calls with positional tensor
  (or Python literal) arguments. A graph is every op's type, name, inputs, control
  inputs, attributes (JSON; arrays go to ``constants.npz``; the branches and bodies of
  If/While ops as nested graphs of the same form) and output dtypes/shapes, plus which
  of its ops stand for which saved variable and how its outputs are nested.

``load`` rebuilds the objects (variables with their saved values and names, other
objects as ``tf.Module``\\ s with the same attribute names) and each function from
its graphs, so a fresh process calls it without the Python code that defined it; a
loaded function runs the trace its arguments match. Loaded functions read and write
the loaded variables. Called under a GradientTape that watches their inputs or
variables, they run their graph op by op eagerly, so the tape records them and a loaded
model can be fine-tuned (gradients to any order); this is not possible yet through
If/While ops (NotImplementedError). Ops whose attributes are Python callables
(``py_func``) cannot be saved: ``save`` says which. A directory written by TensorFlow
(``saved_model.pb``) is loaded by ``flowgrad.saved_model.tf_loader``."""
from __future__ import annotations

from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.framework.trackable import Trackable

import json
import os
import warnings
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import state
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import get_op_def
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.runtime.function import ConcreteFunction, FuncGraph, Function, TensorSpec, init_scope
from flowgrad.module import Module
from flowgrad.ops.state_ops import EagerVariable
from flowgrad.ops.subgraph import HistoryFlag, SubGraph, TracedFunction
from flowgrad.saved_model import tf_loader, tf_saver
from flowgrad.train import checkpoint_management as cm
from flowgrad.train.checkpoint import build_object_graph
from flowgrad.train.checkpoint_reader import read_npz as _read_arrays
from flowgrad.train.checkpoint_reader import write_npz as _write_arrays

DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
FORMAT = "flowgrad-saved-model"
FORMAT_VERSION = 1
META_FILENAME = "flowgrad_saved_model.json"
_VARIABLES = os.path.join("variables", "variables.npz")
_CONSTANTS = "constants.npz"


# --------------------------------------------------------------------------------------
# Saving


def _functions_of(obj: Any) -> list:
    """[(attribute name, Function)] of ``obj``: its own and its class's tf.functions."""
    found = {}
    for klass in reversed(type(obj).__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Function):
                found[name] = getattr(obj, name)
    for name, value in getattr(obj, "__dict__", {}).items():
        if isinstance(value, Function):
            found[name] = value
    return sorted((n, f) for n, f in found.items() if isinstance(f, Function))


class _AttrEncoder:
    """Op attributes as JSON; arrays are stored apart, under generated keys."""

    def __init__(self, arrays: dict):
        self.arrays = arrays

    def encode(self, value: Any, where: str) -> Any:
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, bytes):
            return {"bytes": value.decode("latin-1")}
        if isinstance(value, dtypes.DType):
            return {"dtype": value.name}
        if isinstance(value, TensorShape):
            dims = value.as_tuple()
            return {"shape": None if dims is None else list(dims)}
        if isinstance(value, (np.ndarray, np.generic)) and np.asarray(value).dtype == object:
            a = np.asarray(value)           # strings (bytes objects): .npy needs no pickle
            return {"strings": [(x if isinstance(x, bytes) else str(x).encode("utf-8"))
                                .decode("latin-1") for x in a.reshape(-1)],
                    "dims": list(a.shape)}
        if isinstance(value, (np.ndarray, np.generic)):
            key = "c%d" % len(self.arrays)
            self.arrays[key] = np.asarray(value)
            return {"array": key, "scalar": isinstance(value, np.generic)}
        if isinstance(value, (list, tuple)):
            return {type(value).__name__: [self.encode(v, where) for v in value]}
        if isinstance(value, HistoryFlag):
            return {"history_flag": value.keep}
        if isinstance(value, TracedFunction):         # a control-flow branch or loop body
            return {"subgraph": {
                "name": value.graph.name, "ops": _serialize_ops(value.graph, (), self, where),
                "inputs": [[t.op.name, t.value_index] for t in value.inputs],
                "outputs": [[t.op.name, t.value_index] for t in value.outputs],
                "control_outputs": [op.name for op in value.control_outputs]}}
        raise ValueError("tf.saved_model.save cannot serialize %s: a %s (flowgrad's SavedModel "
                         "stores plain values, dtypes, shapes and arrays only)"
                         % (where, type(value).__name__))


def _decode(value: Any, arrays: dict, graph: Any = None) -> Any:
    """An attribute from its JSON form; sub-graphs are rebuilt inside ``graph``."""
    if not isinstance(value, dict):
        return value
    if "subgraph" in value:
        return _rebuild_subgraph(value["subgraph"], arrays, graph)
    if "history_flag" in value:
        return HistoryFlag(value["history_flag"])
    if "bytes" in value:
        return value["bytes"].encode("latin-1")
    if "dtype" in value:
        return dtypes.as_dtype(value["dtype"])
    if "shape" in value:
        return TensorShape(value["shape"])
    if "strings" in value:
        out = np.empty(len(value["strings"]), dtype=object)
        out[:] = [x.encode("latin-1") for x in value["strings"]]
        return out.reshape(value["dims"])
    if "array" in value:
        a = arrays[value["array"]]
        return a[()] if value["scalar"] else a
    if "list" in value:
        return [_decode(v, arrays, graph) for v in value["list"]]
    return tuple(_decode(v, arrays, graph) for v in value["tuple"])


def _encode_literal(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [_encode_literal(v) for v in value]}
    return value


def _decode_literal(value: Any) -> Any:
    if isinstance(value, dict):
        return list(map(_decode_literal, value["list"])) if "list" in value \
            else tuple(map(_decode_literal, value["tuple"]))
    return value


def _same_literal(arg: Any, literal: Any) -> bool:
    """Whether a call's Python argument equals a trace's literal (lists by element)."""
    if isinstance(literal, (list, tuple)):
        return type(arg) is type(literal) and len(arg) == len(literal) and all(
            _same_literal(a, b) for a, b in zip(arg, literal))
    return isinstance(arg, (bool, int, float, str, type(None))) and \
        type(arg) is type(literal) and arg == literal


def _spec_json(spec: TensorSpec) -> dict:
    dims = spec.shape.as_tuple()
    return {"shape": None if dims is None else list(dims), "dtype": spec.dtype.name,
            "name": spec.name}


def _encode_outputs(structure: Any, where: str) -> Any:
    if isinstance(structure, Tensor):
        return {"tensor": [structure.op.name, structure.value_index]}
    if isinstance(structure, dict):
        return {"dict": {str(k): _encode_outputs(v, where) for k, v in structure.items()}}
    if isinstance(structure, (list, tuple)):
        return {type(structure).__name__: [_encode_outputs(v, where) for v in structure]}
    if structure is None or isinstance(structure, (bool, int, float, str)):
        return {"value": structure}
    raise ValueError("tf.saved_model.save cannot serialize the output %r of %s" % (structure,
                                                                                  where))


def _serialize_function(cf: ConcreteFunction, where: str, node_of: dict, enc: _AttrEncoder,
                        signature: list) -> dict:
    captures = {}
    for var, ref in cf.graph.captures.values():
        node = node_of.get(id(var))
        if node is None:
            raise ValueError("%s uses the variable %s, which is not reachable from the saved "
                             "object; assign it to an attribute so that it is saved"
                             % (where, var.name))
        captures[ref.op.name] = node
    return {"signature": [_spec_json(s) if isinstance(s, TensorSpec)
                          else {"literal": _encode_literal(s)} for s in signature],
            "inputs": [p.op.name for p in cf.inputs], "captures": captures,
            "ops": _serialize_ops(cf.graph, captures, enc, where),
            "side_effects": [op.name for op in cf.graph.get_collection(SIDE_EFFECTS)],
            "outputs": _encode_outputs(cf.structured_outputs, where)}


def _serialize_ops(graph: Any, skip: Any, enc: _AttrEncoder, where: str) -> list:
    """Every op of ``graph`` but those named in ``skip``, in creation order, as JSON."""
    ops = []
    for op in graph.get_operations():
        if op.name in skip:
            continue
        ops.append({
            "name": op.name, "type": op.type,
            "inputs": [[t.op.name, t.value_index] for t in op.inputs],
            "control": [c.name for c in op.control_inputs],
            "attrs": {k: enc.encode(v, "attribute %r of op %s (%s) in %s" % (k, op.name, op.type,
                                                                           where))
                      for k, v in op._attrs.items()},
            "outputs": [[t.dtype.name, _spec_json(TensorSpec(t.shape, t.dtype.base_dtype))
                         ["shape"]] for t in op.outputs],
        })
    return ops


def _signature_map(signatures: Any, obj: Any) -> dict:
    """{name: function} of the signatures to save. Without ``signatures``, as TensorFlow:
    the object's ``_default_save_signature()`` if it has one (Keras models), else its one
    tf.function with an input_signature, if it has exactly one."""
    if signatures is None:
        default = getattr(obj, "_default_save_signature", None)
        # Keras 3 makes it a property holding the tf.function; older Keras a method.
        found = (default if isinstance(default, (Function, ConcreteFunction))
                 else default() if callable(default) else None)
        if found is None:
            with_signature = [fn for _, fn in _functions_of(obj)
                              if fn.input_signature is not None]
            found = with_signature[0] if len(with_signature) == 1 else None
        return {} if found is None else {DEFAULT_SERVING_SIGNATURE_DEF_KEY: found}
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    for key, fn in signatures.items():
        if not isinstance(fn, (Function, ConcreteFunction)):
            raise ValueError("Expected a TensorFlow function for the signature %r, got %r"
                             % (key, fn))
        if isinstance(fn, Function) and fn.input_signature is None:
            raise ValueError("The signature %r is a tf.function without an input_signature; "
                             "pass fn.get_concrete_function(tf.TensorSpec(...)) or give it an "
                             "input_signature" % key)
    return signatures


def _serialize_signature(key: str, fn: Any, node_of: dict, enc: _AttrEncoder) -> dict:
    """A signature function: named tensor inputs, a dict of named outputs (TF's rule)."""
    cf = fn.get_concrete_function() if isinstance(fn, Function) else fn
    out = cf.structured_outputs
    if not isinstance(out, dict):
        flat = nest.flatten(out)
        out = {"output_%d" % i: t for i, t in enumerate(flat)}
    for k, t in out.items():
        if not isinstance(t, Tensor):
            raise ValueError("The signature %r must return tensors (or a dict of tensors); "
                             "its output %r is %r" % (key, k, t))
    sig = [TensorSpec(p.shape, p.dtype.base_dtype, p.op.name) for p in cf.inputs]
    data = _serialize_function(cf, "the signature %r" % key, node_of, enc, sig)
    data["outputs"] = _encode_outputs(out, key)
    return data


def save(obj: Any, export_dir: str, signatures: Any = None, options: Any = None) -> None:
    """Saves ``obj`` (a tf.Module or other trackable) and its tf.functions to ``export_dir``.

    ``signatures`` (a tf.function with an input_signature, a concrete function, or a dict
    of them by name) become ``loaded.signatures[name]``: called with keyword tensors named
    like the function's parameters, returning a dict of tensors. Without ``signatures``
    the default one is ``obj._default_save_signature()`` (Keras models may define it) or
    else ``obj``'s only tf.function with an input_signature, as in TensorFlow.

    Args:
        obj: A ``tf.Module`` (or Keras model) to export.
        export_dir: The SavedModel's directory.
        signatures: A ``tf.function`` with an input signature, or a dict of them; the object's
            ``__call__`` when None.
        options: Accepted for TensorFlow's signature.
    """
    if not isinstance(obj, (Module, Trackable)):
        raise ValueError("Expected a Trackable object for export (a tf.Module), got %r." % (obj,))
    export_dir = os.fspath(export_dir)
    with init_scope():
        signature_map = _signature_map(signatures, obj)
        _, _, objects = build_object_graph(obj)
        for o in objects:           # trace first: a trace may create the variables it uses
            for _, fn in _functions_of(o):
                if fn.input_signature is not None:
                    fn.get_concrete_function()
        for fn in signature_map.values():
            if isinstance(fn, Function):
                fn.get_concrete_function()
        reason = _save_tf_format(obj, export_dir, signature_map)
        if reason is None:
            return
        graph, values, objects = build_object_graph(obj)
        node_of = {id(o): i for i, o in enumerate(objects)}
        constants: dict = {}
        enc = _AttrEncoder(constants)
        functions = []
        for i, o in enumerate(objects):
            if graph["nodes"][i]["kind"] != "object":
                continue
            for name, fn in _functions_of(o):
                traces = fn._positional_traces()
                if not traces:
                    continue
                data = [_serialize_function(cf, "the tf.function %s" % name, node_of, enc, specs)
                        for specs, cf in traces]
                functions.append({"node": i, "attribute": name, "concrete_functions": data,
                                  "has_input_signature": fn.input_signature is not None})
        serving = [{"name": key, "function": _serialize_signature(key, fn, node_of, enc)}
                   for key, fn in signature_map.items()]
    os.makedirs(os.path.join(export_dir, "variables"), exist_ok=True)
    cm.write_atomically(os.path.join(export_dir, _VARIABLES),
                        lambda f: _write_arrays(f, values))
    cm.write_atomically(os.path.join(export_dir, _CONSTANTS),
                        lambda f: _write_arrays(f, constants))
    meta = {"format": FORMAT, "version": FORMAT_VERSION, "object_graph": graph,
            "functions": functions, "signatures": serving}
    text = json.dumps(meta).encode("utf-8")
    cm.write_atomically(os.path.join(export_dir, META_FILENAME), lambda f: f.write(text))
    _remove(os.path.join(export_dir, tf_saver.SAVED_MODEL_FILENAME_PB))
    warnings.warn("tf.saved_model.save wrote flowgrad's own SavedModel format to %s (flowgrad "
                  "loads it, TensorFlow does not): %s" % (export_dir, reason), stacklevel=2)


def _save_tf_format(obj: Any, export_dir: str, signature_map: dict) -> str | None:
    """Writes TensorFlow's format; None when done, else why it cannot be (an op TensorFlow
    lacks, or no protobuf), so that flowgrad's own format is written instead."""
    try:
        tf_saver.save(obj, export_dir, signature_map)
    except tf_saver.UnexportableOpError as e:
        return str(e)
    except ImportError as e:
        return str(e)
    _remove(os.path.join(export_dir, META_FILENAME))
    return None


def _remove(path: str) -> None:
    """Removes a file of the other SavedModel format, so a load reads what was just saved."""
    if os.path.exists(path):
        os.remove(path)


# --------------------------------------------------------------------------------------
# Loading


class _UserObject(Module):
    """A loaded object: its saved attributes and functions, nothing of its Python class."""

    def __init__(self):
        super().__init__(name="user_object")


class RestoredFunction:
    """A loaded tf.function: called with tensors matching one of its saved traces (its
    input signature, or the argument shapes and dtypes it was traced for)."""

    def __init__(self, name: str, traces: list, has_input_signature: bool):
        self.__name__ = name
        self._traces = traces                       # [(TensorSpecs, ConcreteFunction)]
        self.input_signature = tuple(traces[0][0]) if has_input_signature else None

    def _match(self, args: tuple) -> tuple:
        for specs, cf in self._traces:
            tensors = _bind(specs, args)
            if tensors is not None:
                return tensors, cf
        if self.input_signature is not None:
            raise ValueError("Python inputs incompatible with input_signature:\n  inputs: "
                             "%r\n  input_signature: %r." % (args, self.input_signature))
        raise ValueError("Could not find matching concrete function to call loaded from the "
                         "SavedModel. Got:\n  %r\nExpected one of:\n  %s" % (
                             args, "\n  ".join(repr(tuple(sp)) for sp, _ in self._traces)))

    def __call__(self, *args: Any) -> Any:
        tensors, cf = self._match(args)
        if state.tapes and any(t._watches_call(tensors, cf.variables) for t in state.tapes):
            return _replay(cf, tensors)
        return cf(*tensors)

    def get_concrete_function(self, *args: Any) -> ConcreteFunction:
        """The saved trace matching ``args`` (as for a call); with none, the first."""
        if not args:
            return self._traces[0][1]
        return self._match(args)[1]

    @property
    def concrete_functions(self) -> list:
        return [cf for _, cf in self._traces]

    def __repr__(self) -> str:
        return "<RestoredFunction %s: %d trace(s)>" % (self.__name__, len(self._traces))


def _bind(specs: list, args: tuple) -> list | None:
    """The tensors of ``args`` for a trace's arguments, or None if they do not match it."""
    if len(specs) != len(args):
        return None
    tensors = []
    for spec, a in zip(specs, args):
        if not isinstance(spec, TensorSpec):
            if not _same_literal(a, spec):
                return None
            continue
        try:
            t = convert_to_tensor(a, spec.dtype)
        except (TypeError, ValueError):
            return None
        if not spec.is_compatible_with(t):
            return None
        tensors.append(t)
    return tensors


_VARIABLE_WRITES = {"Assign": "assign", "AssignAdd": "assign_add", "AssignSub": "assign_sub"}


def _replay(cf: ConcreteFunction, inputs: list) -> Any:
    """Runs a loaded function's graph op by op eagerly, so that active tapes record it (the
    gradient of a loaded function, to any order, is then the eager one)."""
    var_of = {ref.op: var for var, ref in cf.graph.captures.values()}
    values: dict = dict(zip(cf.inputs, inputs))
    for op in cf.graph.get_operations():
        if op in var_of or op.type == "Placeholder":
            continue
        var = var_of.get(op.inputs[0].op) if op.inputs else None
        if var is not None and op.type == "Identity":
            values[op.outputs[0]] = var._as_tensor()
        elif var is not None and op.type in _VARIABLE_WRITES:
            getattr(var, _VARIABLE_WRITES[op.type])(values[op.inputs[1]])
            values[op.outputs[0]] = var._as_tensor()
        elif any(isinstance(a, TracedFunction) for a in op._attrs.values()):
            raise NotImplementedError(
                "A loaded function is differentiated by replaying its graph under the "
                "GradientTape, which flowgrad cannot do through its control-flow op %s (%s) "
                "yet; call it outside the tape (or with watch_accessed_variables=False) for "
                "its value" % (op.name, op.type))
        elif any(t.op in var_of for t in op.inputs):
            raise NotImplementedError("Differentiating a loaded function through the op %s "
                                      "(%s), which updates a variable in place, is not "
                                      "supported" % (op.name, op.type))
        else:
            out = apply_op(op.type, [values[t] for t in op.inputs], dict(op._attrs))
            outs = out if isinstance(out, list) else [] if out is None or not op.outputs \
                else [out]
            values.update(zip(op.outputs, outs))
    return nest.map_structure(lambda t: values[t] if isinstance(t, Tensor) else t,
                              cf.structured_outputs)


class SignatureFunction:
    """A loaded signature: keyword tensors in, a dict of tensors out."""

    def __init__(self, name: str, concrete: ConcreteFunction, signature: list):
        self.__name__ = name
        self._concrete = concrete
        self.structured_input_signature = ((), {s.name: s for s in signature})
        self._names = [s.name for s in signature]

    def __call__(self, *args: Any, **kwargs: Any) -> dict:
        if args:
            raise TypeError("%s: a signature function takes its tensors as keyword arguments "
                            "(%s)" % (self.__name__, ", ".join(self._names)))
        missing = [n for n in self._names if n not in kwargs]
        extra = sorted(set(kwargs) - set(self._names))
        if missing or extra:
            raise TypeError("%s() expects the keyword arguments %s; missing %s, unexpected %s"
                            % (self.__name__, self._names, missing, extra))
        return self._concrete(*[kwargs[n] for n in self._names])

    @property
    def structured_outputs(self) -> Any:
        return self._concrete.structured_outputs


def _rebuild_function(name: str, data: dict, objects: list, constants: dict) -> ConcreteFunction:
    g = FuncGraph(name)
    tensors: dict = {}
    ops: dict = {}
    with g.as_default():
        for op_name, node in data["captures"].items():
            ref = g.capture(objects[node])
            tensors[(op_name, 0)] = ref
            ops[op_name] = ref.op
        specs = data["signature"]
        _rebuild_ops(g, data["ops"], tensors, ops, constants)
        for op_name in data.get("side_effects", ()):     # tf.print, ...: run on every call
            g.add_to_collection(SIDE_EFFECTS, ops[op_name])
        inputs = [ops[n].outputs[0] for n in data["inputs"]]
        if [t.op.type for t in inputs] != ["Placeholder"] * sum("literal" not in sp
                                                               for sp in specs):
            raise ValueError("Corrupt SavedModel: the inputs of %s are not placeholders" % name)
    outputs = _decode_outputs(data["outputs"], tensors)
    return ConcreteFunction(g, inputs, outputs)


def _rebuild_ops(g: Any, ops_data: list, tensors: dict, ops: dict, constants: dict) -> None:
    """Recreates the ops of ``ops_data`` in ``g`` (filling ``tensors`` and ``ops``)."""
    for op_data in ops_data:
        inputs = [tensors[(n, i)] for n, i in op_data["inputs"]]
        attrs = {k: _decode(v, constants, g) for k, v in op_data["attrs"].items()}
        out_specs = [(dtypes.as_dtype(dt), TensorShape(shape))
                     for dt, shape in op_data["outputs"]]
        op = g._create_op(get_op_def(op_data["type"]), inputs, attrs,
                          g.unique_name(op_data["name"]) + "/", out_specs)
        op._add_control_inputs([ops[c] for c in op_data["control"]])
        ops[op_data["name"]] = op
        for i, t in enumerate(op.outputs):
            tensors[(op_data["name"], i)] = t


def _rebuild_subgraph(data: dict, constants: dict, outer: Any) -> TracedFunction:
    g = SubGraph(data["name"], outer)
    tensors: dict = {}
    ops: dict = {}
    with g.as_default():
        _rebuild_ops(g, data["ops"], tensors, ops, constants)
    return TracedFunction(g, [tensors[tuple(x)] for x in data["inputs"]],
                          [tensors[tuple(x)] for x in data["outputs"]],
                          [ops[n] for n in data["control_outputs"]])


def _decode_outputs(value: dict, tensors: dict) -> Any:
    if "tensor" in value:
        return tensors[tuple(value["tensor"])]
    if "dict" in value:
        return {k: _decode_outputs(v, tensors) for k, v in value["dict"].items()}
    if "list" in value:
        return [_decode_outputs(v, tensors) for v in value["list"]]
    if "tuple" in value:
        return tuple(_decode_outputs(v, tensors) for v in value["tuple"])
    return value["value"]


def _rebuild_objects(nodes: list, values: dict) -> list:
    objects: list = [None] * len(nodes)

    def build(i: int) -> Any:
        if objects[i] is not None:
            return objects[i]
        node = nodes[i]
        kind = node.get("kind", "object")
        if kind == "variable":
            name = node["name"][:-2] if node["name"].endswith(":0") else node["name"]
            objects[i] = EagerVariable(values[node["key"]], trainable=node["trainable"],
                                       name=name)
        elif kind in ("list", "tuple"):
            items = sorted(node["children"].items(), key=lambda kv: int(kv[0]))
            built = [build(c) for _, c in items]
            objects[i] = built if kind == "list" else tuple(built)
        elif kind == "dict":
            objects[i] = {k: build(c) for k, c in node["children"].items()}
        else:
            obj = objects[i] = _UserObject()
            for name, c in node["children"].items():
                setattr(obj, name, build(c))
        return objects[i]

    with init_scope():
        for i in range(len(nodes)):
            build(i)
    return objects


def load(export_dir: str, tags: Any = None, options: Any = None) -> Any:
    """Loads a SavedModel written by ``tf.saved_model.save`` (see the module docstring).

    Args:
        export_dir: The SavedModel's directory.
        tags: The MetaGraph's tags; when None, the only MetaGraph (or the ``serve`` one).
        options: Accepted for TensorFlow's signature.
    """
    export_dir = os.fspath(export_dir)
    meta_path = os.path.join(export_dir, META_FILENAME)
    if not os.path.isfile(meta_path):
        if tf_loader.is_tf_saved_model(export_dir):
            return tf_loader.load(export_dir, tags)
        raise OSError("SavedModel file does not exist at: %s/{%s|%s}" % (
            export_dir, tf_loader.SAVED_MODEL_FILENAME_PBTXT, tf_loader.SAVED_MODEL_FILENAME_PB))
    try:
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:      # JSONDecodeError is a ValueError
        raise errors.DataLossError(None, None, "Unable to read the SavedModel file %s: %s. The "
                                   "file is truncated or corrupted." % (meta_path, e)) from e
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or \
            meta.get("version", 0) > FORMAT_VERSION:
        raise ValueError("%s is not a flowgrad SavedModel of a version this flowgrad reads "
                         "(format %r version %r)" % (meta_path, getattr(meta, "get", dict().get)(
                             "format"), getattr(meta, "get", dict().get)("version")))
    values = _read_arrays(os.path.join(export_dir, _VARIABLES))
    constants = _read_arrays(os.path.join(export_dir, _CONSTANTS))
    try:
        return _load_objects(meta, values, constants)
    except errors.OpError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        raise errors.DataLossError(None, None, "The SavedModel file %s is corrupted: %s: %s"
                                   % (meta_path, type(e).__name__, e)) from e


def _load_objects(meta: dict, values: dict, constants: dict) -> Any:
    """The root object of a flowgrad SavedModel from its metadata and arrays."""
    objects = _rebuild_objects(meta["object_graph"]["nodes"], values)
    for entry in meta["functions"]:
        name = entry["attribute"]
        traces = []
        for data in entry["concrete_functions"]:
            with init_scope():
                cf = _rebuild_function(name, data, objects, constants)
            traces.append(([TensorSpec(s["shape"], s["dtype"], s["name"]) if "literal" not in s
                            else _decode_literal(s["literal"]) for s in data["signature"]], cf))
        _attach(objects[entry["node"]], name,
                RestoredFunction(name, traces, entry["has_input_signature"]))
    serving = {}
    for entry in meta.get("signatures", []):
        data = entry["function"]
        with init_scope():
            cf = _rebuild_function(entry["name"], data, objects, constants)
        signature = [TensorSpec(s["shape"], s["dtype"], s["name"]) for s in data["signature"]]
        serving[entry["name"]] = SignatureFunction(entry["name"], cf, signature)
    object.__setattr__(objects[0], "signatures", serving)
    return objects[0]


def _attach(obj: Any, name: str, fn: RestoredFunction) -> None:
    """Sets ``obj.name = fn``; a special method (``__call__``) goes on a class of its own."""
    object.__setattr__(obj, name, fn)
    if name.startswith("__") and name.endswith("__"):
        def method(self: Any, *args: Any) -> Any:
            return fn(*args)
        obj.__class__ = type(type(obj).__name__, (type(obj),), {name: method})


__all__ = ["save", "load", "RestoredFunction", "SignatureFunction",
           "DEFAULT_SERVING_SIGNATURE_DEF_KEY"]
