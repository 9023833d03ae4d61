"""``tf.saved_model.save`` in TensorFlow's format: ``saved_model.pb`` (a MetaGraphDef with the
function library and the SavedObjectGraph) and ``variables/`` (TensorFlow's tensor bundle
with the ``_CHECKPOINTABLE_OBJECT_GRAPH``), so TensorFlow 2 loads it and calls its
signatures.

Each traced ``tf.function`` (its ``input_signature`` trace, or the traces made so far for
calls with tensors) becomes a FunctionDef: the trace's ops as NodeDefs (the exporters of
``flowgrad.saved_model.graph_export``), its inputs as arguments, and each variable it
captured as a resource argument bound to the saved variable, read by ``ReadVariableOp`` and
written by ``AssignVariableOp``. A signature is a FunctionDef of the same trace taking
keyword arguments and returning a dict (``output_0``, ... for a function that returns
tensors), as TensorFlow writes them. Ops TensorFlow lacks, and flowgrad ops without an
exporter raise ``ValueError`` naming the op. ``tf.cond`` and ``tf.while_loop`` become
TensorFlow's If/While ops with their branches and bodies in the function library
(``flowgrad.saved_model.control_flow_export``). Each ``tf.saved_model.Asset`` reachable from
the object (a ``TextFileInitializer``'s file among them) is copied to ``assets/`` with an
``AssetFileDef`` and an ``asset`` node, and a function reading its ``asset_path`` takes the
path as an argument bound to that node, as TensorFlow writes them."""
from __future__ import annotations

import itertools
import os
import re
import shutil
import tempfile
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework.tensor import Tensor
from flowgrad.runtime.function import ConcreteFunction, Function, TensorSpec
from flowgrad.framework import dtypes
from flowgrad.framework.trackable import Trackable
from flowgrad.module import Module
from flowgrad.ops.asset import Asset
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.subgraph import SIDE_EFFECTS
from flowgrad.saved_model import tf_protos
from flowgrad.saved_model.graph_export import (PRODUCER, FunctionLibrary, UnexportableOpError,
                                               attr, export_op, function_node_ref,
                                               function_ref)
from flowgrad.train.checkpoint import build_object_graph

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
ASSETS_DIRECTORY = "assets"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
_counter = itertools.count(1)
_UPDATES = {"Assign": "AssignVariableOp", "AssignAdd": "AssignAddVariableOp",
            "AssignSub": "AssignSubVariableOp"}


def _arg_name(name: str) -> str:
    """A FunctionDef argument name (lower case letters, digits and '_')."""
    s = re.sub(r"[^a-z0-9_]", "_", name.lower())
    return s if s and s[0].isalpha() else "arg_" + s


def functions_of(obj: Any) -> list:
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


def _traces(fn: Function) -> list:
    """[(arguments, ConcreteFunction)] of ``fn`` to save: its input_signature trace, or
    the traces of calls with tensors (TensorSpecs) and Python literals."""
    return fn._positional_traces()


def _named_specs(args: list, cf: ConcreteFunction) -> tuple:
    """The trace's arguments with each TensorSpec named as its placeholder."""
    placeholders = iter(cf.inputs)

    def name(x: Any) -> Any:
        if isinstance(x, TensorSpec):
            ph = next(placeholders)
            return TensorSpec(x.shape, x.dtype, name=ph.op.name)
        if isinstance(x, (list, tuple)):
            return type(x)(name(v) for v in x)
        return x
    return tuple(name(a) for a in args)


def function_def(cf: ConcreteFunction, name: str, inputs: list, outputs: list,
                 library: Any = None, assets: dict | None = None) -> tuple:
    """(FunctionDef, the captured variables and assets in argument order) of a trace.

    Args:
      cf: the trace.
      name: the FunctionDef's name.
      inputs: (argument name, placeholder) of the user inputs, in argument order.
      outputs: the output tensors, in output order.
      library: the FunctionLibrary that the branches and bodies of its control flow go to.
      assets: {path: tf.saved_model.Asset} of the saved assets: a string constant holding
        one of these paths (an ``asset_path`` the trace read) becomes an argument bound to
        the asset, so that the loaded function reads the SavedModel's copy.
    """
    p = tf_protos.pb()
    fdef = p.function_pb2.FunctionDef()
    sig = fdef.signature
    sig.name = name
    ref_of: dict = {}
    for arg, ph in inputs:
        sig.input_arg.add(name=arg, type=tf_protos.data_type(ph.dtype.base_dtype))
        ref_of[ph] = arg
    variables = []
    handle_of: dict = {}                    # captured VariableV2 op -> handle argument
    for var, ref in cf.graph.captures.values():
        arg = _arg_name(ref.op.name) + "_resource"
        a = sig.input_arg.add(name=arg, type=tf_protos.pb().types_pb2.DT_RESOURCE)
        a.handle_data.add(dtype=tf_protos.data_type(var.dtype.base_dtype),
                          shape=tf_protos.shape_proto(var.shape))
        handle_of[ref.op] = arg
        variables.append(var)

    def input_ref(t: Tensor) -> str:
        if t in ref_of:
            return ref_of[t]
        if t.op in handle_of:
            raise UnexportableOpError("op uses variable %s without reading it (%s)"
                                      % (t.op.name, t.name))
        return function_ref(t)

    def add_node(node_name: str, op_type: str, node_inputs: list, attrs: dict,
                 device: str) -> None:
        node = fdef.node_def.add(name=node_name, op=op_type)
        node.input.extend(node_inputs)
        for k, v in attrs.items():
            node.attr[k].CopyFrom(attr(v))

    stateful = []
    input_ops = {ph.op for _, ph in inputs}
    side_effects = set(cf.graph.get_collection(SIDE_EFFECTS))     # tf.print, assertions
    for op in cf.graph.get_operations():
        if op in input_ops or op in handle_of:
            continue
        first = op.inputs[0].op if op.inputs else None
        if op.type == "Identity" and first in handle_of:
            add_node(op.name, "ReadVariableOp", [handle_of[first]] + _controls(op),
                     {"dtype": op.outputs[0].dtype.base_dtype}, op.device)
            ref_of[op.outputs[0]] = "%s:value:0" % op.name
            continue
        if op.type in _UPDATES and first in handle_of:
            add_node(op.name, _UPDATES[op.type],
                     [handle_of[first], input_ref(op.inputs[1])] + _controls(op),
                     {"dtype": op.inputs[1].dtype.base_dtype}, op.device)
            read = op.name + "/read_value"
            add_node(read, "ReadVariableOp", [handle_of[first], "^" + op.name],
                     {"dtype": op.inputs[1].dtype.base_dtype}, op.device)
            ref_of[op.outputs[0]] = "%s:value:0" % read
            stateful.append(op.name)
            continue
        asset = _asset_of(op, assets)
        if asset is not None:
            arg = _arg_name(op.name) + "_asset"
            sig.input_arg.add(name=arg, type=tf_protos.data_type(dtypes.string))
            ref_of[op.outputs[0]] = arg
            variables.append(asset)
            continue
        if op.type == "Placeholder":
            raise UnexportableOpError("Cannot save %s: its graph has a placeholder %s that is "
                                      "not one of its inputs" % (cf.graph.name, op.name))
        export_op(op, add_node, input_ref, function_node_ref, library)
        if op in side_effects:          # runs on every call: a control output
            stateful.append(op.name)
    names = {n.name for n in fdef.node_def}
    for node in fdef.node_def:          # control inputs on what became arguments go away
        kept = [i for i in node.input if not i.startswith("^") or i[1:] in names]
        del node.input[:]
        node.input.extend(kept)
    for i, t in enumerate(outputs):
        arg = "identity" if i == 0 else "identity_%d" % i
        sig.output_arg.add(name=arg, type=tf_protos.data_type(t.dtype.base_dtype))
        fdef.ret[arg] = ref_of.get(t) or input_ref(t)
    for n in stateful:
        sig.control_output.append(n)
        fdef.control_ret[n] = n
    sig.is_stateful = bool(variables or stateful)
    return fdef, variables


def _asset_of(op: Any, assets: dict | None) -> Any:
    """The saved Asset whose path the string constant ``op`` holds, or None."""
    if not assets or op.type != "Const" or op.outputs[0].dtype.base_dtype != dtypes.string:
        return None
    value = np.asarray(op.get_attr("value"))
    if value.shape != ():
        return None
    raw = value.item()
    return assets.get(raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw)


def _controls(op: Any) -> list:
    return ["^" + c.name for c in op.control_inputs]


# --------------------------------------------------------------------------------------
# Structured values


def _spec_value(t: Any, name: str | None = None) -> Any:
    p = tf_protos.pb()
    v = p.struct_pb2.StructuredValue()
    v.tensor_spec_value.shape.CopyFrom(tf_protos.shape_proto(t.shape))
    v.tensor_spec_value.dtype = tf_protos.data_type(t.dtype.base_dtype)
    if name:
        v.tensor_spec_value.name = name
    return v


def _structure(value: Any, leaf: Any) -> Any:
    """A StructuredValue of ``value`` with ``leaf(x)`` for its tensors."""
    p = tf_protos.pb()
    v = p.struct_pb2.StructuredValue()
    if isinstance(value, dict):
        v.dict_value.SetInParent()
        for k in sorted(value):
            v.dict_value.fields[str(k)].CopyFrom(_structure(value[k], leaf))
    elif isinstance(value, tuple):
        v.tuple_value.SetInParent()
        for x in value:
            v.tuple_value.values.add().CopyFrom(_structure(x, leaf))
    elif isinstance(value, list):
        v.list_value.SetInParent()
        for x in value:
            v.list_value.values.add().CopyFrom(_structure(x, leaf))
    elif value is None:
        v.none_value.SetInParent()
    elif isinstance(value, str):
        v.string_value = value
    elif isinstance(value, bool):
        v.bool_value = value
    elif isinstance(value, int):
        v.int64_value = value
    elif isinstance(value, float):
        v.float64_value = value
    else:
        v.CopyFrom(leaf(value))
    return v


def _fullargspec(args: list, kwonly: list) -> Any:
    p = tf_protos.pb()
    v = p.struct_pb2.StructuredValue()
    nt = v.named_tuple_value
    nt.name = "FullArgSpec"
    for key, value in (("args", list(args)), ("varargs", None), ("varkw", None),
                       ("defaults", None), ("kwonlyargs", list(kwonly)),
                       ("kwonlydefaults", None), ("annotations", {})):
        nt.values.add(key=key).value.CopyFrom(_structure(value, None))
    return v


# --------------------------------------------------------------------------------------
# Saving


class _Writer:
    def __init__(self) -> None:
        p = tf_protos.pb()
        self.meta = p.meta_graph_pb2.MetaGraphDef()
        self.library = self.meta.graph_def.library
        self.graph = self.meta.object_graph_def
        self.traced: dict = {}         # id(ConcreteFunction) -> (name, variables)
        self.functions = FunctionLibrary(self.library)
        self.assets: dict = {}         # path -> the Asset saved for it

    def concrete(self, args: list, cf: ConcreteFunction, var_ids: dict, fn_name: str) -> str:
        """Saves a trace (once) as a FunctionDef called with positional arguments."""
        if id(cf) in self.traced:
            return self.traced[id(cf)]
        name = "__inference_%s_%d" % (_arg_name(fn_name), next(_counter))
        inputs = [(_arg_name(ph.op.name), ph) for ph in cf.inputs]
        outputs = [t for t in nest.flatten(cf.structured_outputs) if isinstance(t, Tensor)]
        try:
            fdef, variables = function_def(cf, name, inputs, outputs, self.functions,
                                           self.assets)
        except UnexportableOpError as e:
            raise UnexportableOpError("%s (in the tf.function %s)" % (e, fn_name)) from e
        self.library.function.add().CopyFrom(fdef)
        saved = self.graph.concrete_functions[name]
        saved.bound_inputs.extend(self._var_ids(variables, var_ids, fn_name))
        saved.canonicalized_input_signature.CopyFrom(_structure(
            (_named_specs(args, cf), {}), lambda t: _spec_value(t, t.name)))
        saved.output_signature.CopyFrom(_structure(
            cf.structured_outputs, lambda t: _spec_value(t)))
        self.traced[id(cf)] = name
        return name

    def signature(self, key: str, cf: ConcreteFunction, var_ids: dict) -> tuple:
        """Saves a trace as a signature function: keyword arguments, dict outputs."""
        name = "__inference_signature_wrapper_%s_%d" % (_arg_name(key), next(_counter))
        out = cf.structured_outputs
        if not isinstance(out, dict):
            out = {"output_%d" % i: t for i, t in enumerate(nest.flatten(out))}
        for k, t in out.items():
            if not isinstance(t, Tensor):
                raise ValueError("The signature %r must return tensors (or a dict of tensors); "
                                 "its output %r is %r" % (key, k, t))
        kw = {ph.op.name: ph for ph in cf.inputs}
        inputs = [(_arg_name(k), kw[k]) for k in sorted(kw)]
        fdef, variables = function_def(cf, name, inputs, [out[k] for k in sorted(out)],
                                       self.functions, self.assets)
        self.library.function.add().CopyFrom(fdef)
        saved = self.graph.concrete_functions[name]
        saved.bound_inputs.extend(self._var_ids(variables, var_ids, key))
        saved.canonicalized_input_signature.CopyFrom(_structure(
            ((), kw), lambda t: _spec_value(t, t.op.name)))
        outputs = tf_protos.pb().struct_pb2.StructuredValue()
        outputs.dict_value.SetInParent()
        for k in sorted(out):           # TensorFlow names each output's spec by its key
            outputs.dict_value.fields[str(k)].CopyFrom(_spec_value(out[k], str(k)))
        saved.output_signature.CopyFrom(outputs)
        return name, sorted(kw)

    @staticmethod
    def _var_ids(variables: list, var_ids: dict, where: str) -> list:
        missing = [v.name for v in variables if id(v) not in var_ids]
        if missing:
            raise ValueError("%s captures %s, which is not reachable from the saved object "
                             "(assign it to an attribute)" % (where, ", ".join(missing)))
        return [var_ids[id(v)] for v in variables]


def _signature_functions(signatures: Any, obj: Any) -> dict:
    """{key: ConcreteFunction} of the signatures (TensorFlow's defaults without any)."""
    if signatures is None:
        default = getattr(obj, "_default_save_signature", None)
        # Keras 3 makes it a property holding the tf.function; older Keras a method.
        found = (default if isinstance(default, (Function, ConcreteFunction))
                 else default() if callable(default) else None)
        if found is None:
            with_sig = [fn for _, fn in functions_of(obj) if fn.input_signature is not None]
            found = with_sig[0] if len(with_sig) == 1 else None
        signatures = {} if found is None else {"serving_default": found}
    elif not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    out = {}
    for key, fn in signatures.items():
        if isinstance(fn, Function):
            if fn.input_signature is None:
                raise ValueError("The signature %r is a tf.function without an "
                                 "input_signature; pass fn.get_concrete_function(...) or give "
                                 "it an input_signature" % key)
            fn = fn.get_concrete_function()
        if not isinstance(fn, ConcreteFunction):
            raise ValueError("Expected a TensorFlow function for the signature %r, got %r"
                             % (key, fn))
        out[key] = fn
    return out


def save(obj: Any, export_dir: str, signatures: Any = None) -> None:
    """Writes ``obj`` as TensorFlow's SavedModel in ``export_dir`` (see the module
    docstring); the directory is complete or untouched.

    Raises:
      ValueError: an op TensorFlow lacks, a signature that is not a traced function, a
        function capturing a variable the object does not reach.
    """
    from flowgrad.train.tensor_bundle import write_bundle
    if not isinstance(obj, (Module, Trackable)):
        raise ValueError("Expected a Trackable object for export (a tf.Module), got %r." % (obj,))
    p = tf_protos.pb()
    graph, values, objects = build_object_graph(obj)
    w = _Writer()
    nodes = graph["nodes"]
    var_ids = {id(o): i for i, o in enumerate(objects) if isinstance(o, (Variable, Asset))}
    for i, n in enumerate(nodes):       # a Keras 3 Variable: functions capture the one it holds
        if "key" in n and not isinstance(objects[i], Variable):
            held = objects[i]._serialize_to_tensors().get("VARIABLE_VALUE")
            if isinstance(held, Variable):
                var_ids.setdefault(id(held), i)
    sig_fns = _signature_functions(signatures, obj)
    asset_files = _assets(w, objects)
    # the object graph: one node per trackable, then functions and the signature map
    children: list = [dict(n["children"]) for n in nodes]
    protos = [p.saved_object_graph_pb2.SavedObject() for _ in nodes]
    for i, (o, n) in enumerate(zip(objects, nodes)):
        if isinstance(o, Asset):
            protos[i].asset.asset_file_def_index = asset_files[id(o)][0]
        elif isinstance(o, Variable):
            v = protos[i].variable
            v.dtype = tf_protos.data_type(o.dtype.base_dtype)
            v.shape.CopyFrom(tf_protos.shape_proto(o.shape))
            v.trainable = o.trainable
            v.name = o.name[:-2] if o.name.endswith(":0") else o.name
        elif "key" in n:                # holds a variable's value (a Keras 3 Variable)
            value = np.asarray(values[n["key"]])
            v = protos[i].variable
            v.dtype = tf_protos.data_type(dtypes.as_dtype(value.dtype))
            v.shape.CopyFrom(tf_protos.shape_proto(value.shape))
            v.trainable = bool(n.get("trainable", True))
            name = str(n.get("name", ""))
            v.name = name[:-2] if name.endswith(":0") else name
        else:
            u = protos[i].user_object
            u.identifier = {"list": "trackable_list_wrapper", "tuple": "trackable_list_wrapper",
                            "dict": "trackable_dict_wrapper"}.get(n["kind"],
                                                                   "_generic_user_object")
            u.version.producer = u.version.min_consumer = 1
    for i, o in enumerate(list(objects)):
        if isinstance(o, (Variable, Asset, list, tuple, dict)):
            continue
        for attr_name, fn in functions_of(o):
            traces = _traces(fn)
            names = [w.concrete(args, cf, var_ids, attr_name) for args, cf in traces]
            if not names:
                continue
            node = p.saved_object_graph_pb2.SavedObject()
            node.function.concrete_functions.extend(names)
            spec = node.function.function_spec
            spec.fullargspec.CopyFrom(_fullargspec(
                ["arg_%d" % k for k in range(len(traces[0][0]))], []))
            if fn.input_signature is None:
                spec.input_signature.none_value.SetInParent()
            else:
                spec.input_signature.CopyFrom(_structure(
                    _named_specs(traces[0][0], traces[0][1]), lambda t: _spec_value(t, t.name)))
            children[i][attr_name] = len(protos)
            protos.append(node)
            children.append({})
    sig_map = p.saved_object_graph_pb2.SavedObject()
    sig_map.user_object.identifier = "signature_map"
    sig_map.user_object.version.producer = sig_map.user_object.version.min_consumer = 1
    sig_id = len(protos)
    protos.append(sig_map)
    children.append({})
    children[0]["signatures"] = sig_id
    signature_defs = {}
    for key, cf in sig_fns.items():
        name, keywords = w.signature(key, cf, var_ids)
        node = p.saved_object_graph_pb2.SavedObject()
        b = node.bare_concrete_function
        b.concrete_function_name = name
        b.argument_keywords.extend(keywords)
        b.function_spec.fullargspec.CopyFrom(_fullargspec([], keywords))
        b.function_spec.input_signature.none_value.SetInParent()
        children[sig_id][key] = len(protos)
        protos.append(node)
        children.append({})
        signature_defs[key] = (cf, keywords)
    for i, node in enumerate(protos):
        for local, cid in children[i].items():
            node.children.add(node_id=cid, local_name=local)
        w.graph.nodes.add().CopyFrom(node)
    _signature_defs(w.meta, signature_defs)
    meta = w.meta
    meta.meta_info_def.tags.append("serve")
    meta.meta_info_def.tensorflow_version = "2.21.0"
    meta.graph_def.versions.producer = PRODUCER
    meta.graph_def.versions.min_consumer = 12
    sm = p.SavedModel(saved_model_schema_version=1)
    sm.meta_graphs.add().CopyFrom(meta)
    # the checkpoint: the same object graph, each variable's value under its key
    ckpt = p.trackable_object_graph_pb2.TrackableObjectGraph()
    for i, node in enumerate(protos):
        t = ckpt.nodes.add()
        for local, cid in children[i].items():
            t.children.add(node_id=cid, local_name=local)
        if i < len(nodes) and "key" in nodes[i]:
            t.attributes.add(name="VARIABLE_VALUE", full_name=node.variable.name,
                             checkpoint_key=nodes[i]["key"])
    tensors = dict(values)
    tensors[OBJECT_GRAPH_KEY] = np.array(ckpt.SerializeToString(), dtype=object)
    _write_directory(os.fspath(export_dir), sm, tensors, write_bundle,
                     [(src, name) for _, src, name in asset_files.values()])


def _assets(w: _Writer, objects: list) -> dict:
    """{id(Asset): (its asset_file_def index, its file, its name in ``assets/``)} of the
    Assets among ``objects``, each given an AssetFileDef and the ``asset_path_initializer``
    placeholder of the graph as TensorFlow writes them (a file name taken twice by
    different files gets ``_1``, ``_2``, ... as in TensorFlow).

    Raises:
      NotFoundError: an asset's file does not exist.
      ValueError: an asset's path is not a known string.
    """
    from flowgrad.framework import errors
    out: dict = {}
    taken: dict = {}                    # name in assets/ -> the file it holds
    for o in objects:
        if not isinstance(o, Asset) or id(o) in out:
            continue
        path = o._path_value()
        if path is None:
            raise ValueError("tf.saved_model.save: the path of %r is not a known string" % (o,))
        if not os.path.isfile(path):
            raise errors.NotFoundError(None, None, "tf.saved_model.save: the asset file %s "
                                       "does not exist" % path)
        name = os.path.basename(path)
        if name in taken and taken[name] != path and not _same_file(taken[name], path):
            base, k = name, 1
            while name in taken:
                name, k = "%s_%d" % (base, k), k + 1
        taken[name] = path
        index = len(w.meta.asset_file_def)
        placeholder = "asset_path_initializer" + ("_%d" % index if index else "")
        node = w.meta.graph_def.node.add(name=placeholder, op="Placeholder")
        node.attr["dtype"].type = tf_protos.data_type(dtypes.string)
        node.attr["shape"].shape.SetInParent()
        w.meta.asset_file_def.add(filename=name).tensor_info.name = placeholder + ":0"
        w.assets.setdefault(path, o)
        out[id(o)] = (index, path, name)
    return out


def _same_file(a: str, b: str) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def _signature_defs(meta: Any, signatures: dict) -> None:
    """TF1-style signature_defs of the signatures (names of their inputs and outputs)."""
    for key, (cf, keywords) in signatures.items():
        sd = meta.signature_def[key]
        sd.method_name = "tensorflow/serving/predict"
        kw = {ph.op.name: ph for ph in cf.inputs}
        for k in keywords:
            info = sd.inputs[k]
            info.name = "%s_%s:0" % (key, k)
            info.dtype = tf_protos.data_type(kw[k].dtype.base_dtype)
            info.tensor_shape.CopyFrom(tf_protos.shape_proto(kw[k].shape))
        out = cf.structured_outputs
        if not isinstance(out, dict):
            out = {"output_%d" % i: t for i, t in enumerate(nest.flatten(out))}
        for i, k in enumerate(sorted(out)):
            info = sd.outputs[k]
            info.name = "StatefulPartitionedCall_%s:%d" % (key, i)
            info.dtype = tf_protos.data_type(out[k].dtype.base_dtype)
            info.tensor_shape.CopyFrom(tf_protos.shape_proto(out[k].shape))


def _write_directory(export_dir: str, sm: Any, tensors: dict, write_bundle: Any,
                     assets: list = ()) -> None:
    """Writes saved_model.pb, variables/ and assets/ (``assets``: (file, name) to copy)
    into a temporary directory, then moves them into ``export_dir`` (saved_model.pb last: a
    directory without it is no SavedModel)."""
    os.makedirs(export_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp_saved_model_", dir=export_dir)
    try:
        os.makedirs(os.path.join(tmp, "variables"))
        write_bundle(os.path.join(tmp, "variables", "variables"), tensors)
        if assets:
            os.makedirs(os.path.join(tmp, ASSETS_DIRECTORY))
            for src, name in assets:
                shutil.copyfile(src, os.path.join(tmp, ASSETS_DIRECTORY, name))
            target_assets = os.path.join(export_dir, ASSETS_DIRECTORY)
            if os.path.isdir(target_assets):
                shutil.rmtree(target_assets)
            os.replace(os.path.join(tmp, ASSETS_DIRECTORY), target_assets)
        with open(os.path.join(tmp, SAVED_MODEL_FILENAME_PB), "wb") as f:
            f.write(sm.SerializeToString())
            f.flush()
            os.fsync(f.fileno())
        target_vars = os.path.join(export_dir, "variables")
        if os.path.isdir(target_vars):
            shutil.rmtree(target_vars)
        os.replace(os.path.join(tmp, "variables"), target_vars)
        os.replace(os.path.join(tmp, SAVED_MODEL_FILENAME_PB),
                   os.path.join(export_dir, SAVED_MODEL_FILENAME_PB))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
