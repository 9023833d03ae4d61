"""``tf.saved_model.load`` of a SavedModel that TensorFlow 2 wrote (``saved_model.pb`` +
``variables/``).

The loader reads the MetaGraphDef's object graph (``SavedObjectGraph``) and rebuilds it:
every ``user_object`` becomes a :class:`flowgrad.Module` with the same attribute names,
every ``variable`` a flowgrad variable (trainable as saved, restored from ``variables/``,
TensorFlow's tensor bundle), every ``function`` a flowgrad ``tf.function`` and the
``signatures`` a mapping of keyword-argument concrete functions returning dicts, as in
TensorFlow.

A concrete function is its FunctionDef in the graph's function library; calling it builds
the body's NodeDefs as flowgrad ops (``flowgrad.saved_model.graph_import``), with the
function's captured resource handles bound to the loaded variables and the library
functions it calls (``StatefulPartitionedCall``) inlined. So a loaded function runs as a
flowgrad trace, and under a ``GradientTape`` its gradients reach the loaded variables: a
model TensorFlow trained can be fine-tuned here. A body with an op type flowgrad lacks is
an ``InvalidArgumentError`` naming the op type, the node and the function."""
from __future__ import annotations

import collections.abc
import os
from typing import Any

from flowgrad import nest
from flowgrad.framework import errors
from flowgrad.framework.graph import get_default_graph
from flowgrad.runtime.function import Function, TensorSpec
from flowgrad.runtime.function_type import signature_text
from flowgrad.module import Module
from flowgrad.ops.asset import Asset
from flowgrad.ops.state_ops import EagerVariable
from flowgrad.saved_model import tf_protos
from flowgrad.framework.tensor import constant
from flowgrad.saved_model.graph_import import TableHandle, import_function_body

SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def is_tf_saved_model(export_dir: str) -> bool:
    """Whether ``export_dir`` holds TensorFlow's ``saved_model.pb`` (or ``.pbtxt``)."""
    return any(os.path.isfile(os.path.join(export_dir, f))
               for f in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT))


def read_saved_model(export_dir: str) -> Any:
    """The ``SavedModel`` proto of ``export_dir``; NotFoundError/DataLossError naming it."""
    p = tf_protos.pb()
    path = os.path.join(export_dir, SAVED_MODEL_FILENAME_PB)
    if not os.path.isfile(path):
        path = os.path.join(export_dir, SAVED_MODEL_FILENAME_PBTXT)
    if not os.path.isfile(path):
        raise OSError("SavedModel file does not exist at: %s/{%s|%s}"
                      % (export_dir, SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_FILENAME_PB))
    return tf_protos.read_message(p.SavedModel(), path)


def meta_graph_for(saved_model: Any, tags: Any, export_dir: str) -> Any:
    """The MetaGraphDef whose tags are ``tags`` (the only one when ``tags`` is None)."""
    metas = list(saved_model.meta_graphs)
    if tags is None:
        if len(metas) == 1:
            return metas[0]
        tags = ["serve"]
    want = {tags} if isinstance(tags, str) else set(tags)
    for m in metas:
        if set(m.meta_info_def.tags) == want:
            return m
    raise RuntimeError("MetaGraphDef associated with tags %s could not be found in "
                       "SavedModel, with available tags '%s'. (%s)"
                       % (sorted(want), [list(m.meta_info_def.tags) for m in metas], export_dir))


# --------------------------------------------------------------------------------------
# Variables


def read_variable_values(export_dir: str, object_graph: Any) -> dict:
    """{node id: ndarray} of the object graph's variables, from ``variables/`` (the
    checkpoint's object graph names each node's checkpoint key)."""
    from flowgrad.train.tensor_bundle import BundleReader
    prefix = os.path.join(export_dir, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
    reader = BundleReader(prefix)
    p = tf_protos.pb()
    graph = p.trackable_object_graph_pb2.TrackableObjectGraph()
    raw = reader.get_tensor(OBJECT_GRAPH_KEY)
    graph.ParseFromString(raw.item() if hasattr(raw, "item") else raw)
    values = {}
    for i, node in enumerate(object_graph.nodes):
        if node.WhichOneof("kind") != "variable":
            continue
        keys = [a.checkpoint_key for a in graph.nodes[i].attributes
                if a.name == "VARIABLE_VALUE"] if i < len(graph.nodes) else []
        if not keys:
            raise errors.NotFoundError(None, None, "The checkpoint in %s has no value for "
                                       "variable '%s' (object %d)"
                                       % (prefix, node.variable.name, i))
        values[i] = reader.get_tensor(keys[0])
    return values


# --------------------------------------------------------------------------------------
# Structured values


def decode_structure(value: Any) -> Any:
    """A ``StructuredValue`` as Python: TensorSpecs, tuples, lists, dicts and literals."""
    kind = value.WhichOneof("kind")
    if kind == "tensor_spec_value":
        s = value.tensor_spec_value
        if s.dtype == tf_protos.pb().types_pb2.DT_RESOURCE:    # a resource's creator: no spec
            return None
        return TensorSpec(tf_protos.as_shape(s.shape), tf_protos.as_dtype(s.dtype),
                          name=s.name or None)
    if kind == "tuple_value":
        return tuple(decode_structure(v) for v in value.tuple_value.values)
    if kind == "list_value":
        return [decode_structure(v) for v in value.list_value.values]
    if kind == "dict_value":
        return {k: decode_structure(v) for k, v in value.dict_value.fields.items()}
    if kind == "named_tuple_value":
        return {p.key: decode_structure(p.value) for p in value.named_tuple_value.values}
    if kind in ("none_value", None):
        return None
    return getattr(value, kind)


class _SignatureMap(collections.abc.Mapping):
    """``loaded.signatures``: the signature functions by key, read-only, as TensorFlow's."""

    def __init__(self, functions: dict):
        self._functions = dict(functions)

    def __getitem__(self, key: str) -> Any:
        return self._functions[key]

    def __iter__(self) -> Any:
        return iter(self._functions)

    def __len__(self) -> int:
        return len(self._functions)

    def __repr__(self) -> str:
        return "_SignatureMap(%r)" % (self._functions,)


class _Loader:
    """Rebuilds one MetaGraphDef's object graph."""

    def __init__(self, meta_graph: Any, export_dir: str):
        self.meta = meta_graph
        self.export_dir = export_dir
        self.proto = meta_graph.object_graph_def
        self.library = {f.signature.name: f for f in meta_graph.graph_def.library.function}
        self.nodes: dict[int, Any] = {}
        self.concrete: dict[str, Any] = {}

    def load(self, variable_values: dict) -> Any:
        for i, node in enumerate(self.proto.nodes):     # what functions capture, first
            kind = node.WhichOneof("kind")
            if kind == "variable":
                self.nodes[i] = self._variable(i, node.variable, variable_values)
            elif kind in ("constant", "asset", "resource"):
                self.nodes[i] = self._object(i, node)
        for i, node in enumerate(self.proto.nodes):
            if i not in self.nodes:
                self.nodes[i] = self._object(i, node)
        self.initialize_resources()
        for i, node in enumerate(self.proto.nodes):
            obj = self.nodes[i]
            if isinstance(obj, list):           # a list's children are "0", "1", ...
                obj.extend(self.nodes[c.node_id] for c in sorted(
                    node.children, key=lambda c: int(c.local_name)
                    if c.local_name.isdigit() else -1) if c.local_name.isdigit())
            elif isinstance(obj, dict):
                obj.update({c.local_name: self.nodes[c.node_id] for c in node.children})
            elif isinstance(obj, (Module, _Trackable)):
                for child in node.children:
                    if child.local_name == "signatures" and i == 0:
                        continue
                    setattr_safe(obj, child.local_name, self.nodes[child.node_id])
        root = self.nodes[0]
        sig_node = next((c.node_id for c in self.proto.nodes[0].children
                         if c.local_name == "signatures"), None)
        signatures = {}
        if sig_node is not None:
            for c in self.proto.nodes[sig_node].children:
                signatures[c.local_name] = self.nodes[c.node_id]
        setattr_safe(root, "signatures", _SignatureMap(signatures))
        return root

    def _variable(self, i: int, v: Any, values: dict) -> EagerVariable:
        if i not in values:
            raise errors.NotFoundError(None, None, "No value for variable '%s' in %s"
                                       % (v.name, self.export_dir))
        return EagerVariable(values[i], trainable=v.trainable, name=v.name or None,
                             dtype=tf_protos.as_dtype(v.dtype))

    def _object(self, i: int, node: Any) -> Any:
        kind = node.WhichOneof("kind")
        if kind == "function":
            spec = node.function.function_spec
            signature = decode_structure(spec.input_signature) \
                if spec.HasField("input_signature") else None
            return RestoredFunction([self.concrete_function(n)
                                     for n in node.function.concrete_functions], signature)
        if kind == "bare_concrete_function":
            b = node.bare_concrete_function
            return self.concrete_function(b.concrete_function_name, list(b.argument_keywords))
        if kind == "constant":
            return self._constant(node.constant.operation)
        if kind == "asset":
            return Asset(os.path.join(self.export_dir, "assets", self.meta.asset_file_def[
                node.asset.asset_file_def_index].filename))
        if kind == "resource":
            return self._resource(node)
        identifier = node.user_object.identifier if kind == "user_object" else ""
        if i and identifier == "trackable_list_wrapper":
            return []
        if i and identifier == "trackable_dict_wrapper":
            return {}
        callable_ = any(c.local_name == "__call__" for c in node.children)
        if i:
            return _CallableTrackable() if callable_ else _Trackable()
        return _CallableModule() if callable_ else _Restored()

    def _constant(self, op_name: str) -> Any:
        for n in self.meta.graph_def.node:
            if n.name == op_name and n.op == "Const":
                return constant(tf_protos.to_array(n.attr["value"].tensor),
                                dtype=tf_protos.as_dtype(n.attr["dtype"].type))
        raise errors.NotFoundError(None, None, "Constant '%s' is not in the SavedModel %s"
                                   % (op_name, self.export_dir))

    def _resource(self, node: Any) -> Any:
        """A restored resource: a lookup table (the HashTableV2 its ``_create_resource``
        function makes), filled later by its ``_initialize`` function."""
        creator = self._child_function(node, "_create_resource")
        table = next((n for n in self.library[creator].node_def if n.op == "HashTableV2"),
                     None) if creator else None
        if table is None:
            raise errors.UnimplementedError(
                None, None, "SavedModel %s holds a resource flowgrad cannot restore (only "
                "lookup tables, HashTableV2, are supported); its creator is %s"
                % (self.export_dir, creator))
        return TableHandle(tf_protos.as_dtype(table.attr["key_dtype"].type),
                           tf_protos.as_dtype(table.attr["value_dtype"].type), table.name)

    def _child_function(self, node: Any, local_name: str) -> str | None:
        """The concrete function's name of ``node``'s child function ``local_name``."""
        for c in node.children:
            if c.local_name == local_name:
                fn = self.proto.nodes[c.node_id]
                if fn.WhichOneof("kind") == "function" and fn.function.concrete_functions:
                    return fn.function.concrete_functions[0]
        return None

    def initialize_resources(self) -> None:
        """Runs each restored table's ``_initialize`` function (TensorFlow's restore of
        resources): the table reads its asset file."""
        for node in self.proto.nodes:
            if node.WhichOneof("kind") != "resource":
                continue
            name = self._child_function(node, "_initialize")
            if name is None:
                continue
            captures = [self.nodes[k] for k in self.proto.concrete_functions[name].bound_inputs]
            import_function_body(self.library[name], captures, self.library, "")

    def concrete_function(self, name: str, keywords: list | None = None) -> Any:
        key = (name, tuple(keywords or ()))
        if key not in self.concrete:
            self.concrete[key] = RestoredConcreteFunction(self, name, keywords)
        return self.concrete[key]


def _restored_or_walked(name: str) -> property:
    """A Module property (``variables``, ...) that the SavedModel may hold as an attribute
    (Keras 3's ``model.export`` saves ``variables`` / ``trainable_variables`` lists: the
    variables its functions capture); the attribute wins, as on TensorFlow's loaded object."""
    walked = getattr(Module, name)

    def get(self: Any) -> Any:
        restored = self.__dict__.get("_restored_properties", {})
        return tuple(restored[name]) if name in restored else walked.fget(self)
    return property(get, doc=walked.__doc__)


class _Restored(Module):
    """A restored object (TensorFlow's ``_UserObject``): a Module whose ``variables``,
    ``trainable_variables`` and ``non_trainable_variables`` are the saved lists if it has
    them."""

    variables = _restored_or_walked("variables")
    trainable_variables = _restored_or_walked("trainable_variables")
    non_trainable_variables = _restored_or_walked("non_trainable_variables")


class _Trackable(_Restored):
    """A restored object other than the root (TensorFlow's ``_UserObject``)."""


class _CallableTrackable(_Trackable):
    """A restored object with a restored ``__call__`` function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["__call__"](*args, **kwargs)


class _CallableModule(_Restored):
    """A restored root object with a restored ``__call__`` function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["__call__"](*args, **kwargs)


def setattr_safe(obj: Any, name: str, value: Any) -> None:
    """Sets an attribute, skipping names a flowgrad Module keeps as read-only properties."""
    if isinstance(obj, _Restored) and isinstance(getattr(type(obj), name, None), property) \
            and name in ("variables", "trainable_variables", "non_trainable_variables"):
        obj.__dict__.setdefault("_restored_properties", {})[name] = value
        return
    try:
        object.__setattr__(obj, name, value)
    except (AttributeError, TypeError):
        pass


class RestoredConcreteFunction:
    """A concrete function of a TensorFlow SavedModel, callable on flowgrad tensors.

    Positional arguments follow the function's input signature; a signature function
    (``loaded.signatures[key]``) takes keyword arguments and returns a dict."""

    def __init__(self, loader: _Loader, name: str, keywords: list | None):
        saved = loader.proto.concrete_functions.get(name)
        if name not in loader.library or saved is None:
            raise errors.NotFoundError(None, None, "Concrete function '%s' is not in the "
                                       "SavedModel %s" % (name, loader.export_dir))
        self.name = name
        self._fdef = loader.library[name]
        self._library = loader.library
        self._captures = [loader.nodes[i] for i in saved.bound_inputs]
        args, kwargs = decode_structure(saved.canonicalized_input_signature)
        self.structured_input_signature = (args, kwargs)
        self.structured_outputs = decode_structure(saved.output_signature)
        self._keywords = keywords if keywords else None
        self._arg_specs = [s for s in nest.flatten((args, kwargs)) if isinstance(s, TensorSpec)]
        n_user = len(self._fdef.signature.input_arg) - len(self._captures)
        if n_user != len(self._arg_specs):
            raise errors.InvalidArgumentError(
                None, None, "Concrete function '%s' has %d inputs for %d arguments and %d "
                "captures" % (name, len(self._fdef.signature.input_arg),
                              len(self._arg_specs), len(self._captures)))
        self._kw_order = sorted(kwargs) if kwargs else []
        self._function = Function(self._run, name=name, input_signature=[
            TensorSpec(s.shape, s.dtype, name=_arg_name(s, a.name))
            for s, a in zip(self._arg_specs, self._fdef.signature.input_arg)])

    @property
    def variables(self) -> list:
        """The loaded variables this function reads or writes."""
        return [c for c in self._captures if isinstance(c, EagerVariable)]

    @property
    def trainable_variables(self) -> list:
        return [v for v in self.variables if v.trainable]

    def _run(self, *flat_args: Any) -> Any:
        g = get_default_graph()
        with g.name_scope(None):
            outs = import_function_body(self._fdef, list(flat_args) + self._captures,
                                        self._library, "")
        return nest.pack_sequence_as(self.structured_outputs, outs) \
            if self.structured_outputs is not None else None

    def tensors_for(self, args: tuple) -> list | None:
        """The tensors of positional ``args`` when they fit this function's input signature
        (its TensorSpecs, and its Python literals exactly), else None."""
        sig = self.structured_input_signature[0]
        if self._kw_order or len(args) != len(sig):
            return None
        out: list = []
        return out if all(_fits(s, a, out) for s, a in zip(sig, args)) else None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._kw_order:
            if args:
                raise TypeError("%s() takes keyword arguments only (%s), got %d positional "
                                "arguments" % (self.name, ", ".join(self._kw_order), len(args)))
            missing = [k for k in self._kw_order if k not in kwargs]
            extra = [k for k in kwargs if k not in self._kw_order]
            if missing or extra:
                raise TypeError("%s() expects the keyword arguments %s, got %s"
                                % (self.name, self._kw_order, sorted(kwargs)))
            return self._function(*[kwargs[k] for k in self._kw_order])
        if kwargs:
            raise TypeError("%s() takes positional arguments only, got %s"
                            % (self.name, sorted(kwargs)))
        flat = self.tensors_for(args)
        if flat is None:
            raise ValueError("Could not find matching concrete function to call: %r does not "
                             "fit %r" % (args, self.structured_input_signature))
        return self._function(*flat)

    def __repr__(self) -> str:
        args, kwargs = self.structured_input_signature
        params = [(getattr(a, "name", None) or "args_%d" % i, "POSITIONAL_ONLY", a)
                  for i, a in enumerate(args)]
        params += [(k, "KEYWORD_ONLY", v) for k, v in sorted((kwargs or {}).items())]
        return "<ConcreteFunction %s at 0x%X>" % (
            signature_text(params, self.structured_outputs, [], verbose=False), id(self))


def _fits(sig: Any, value: Any, tensors: list) -> bool:
    """Whether ``value`` fits ``sig`` (a TensorSpec, or a Python literal it must equal);
    the tensors it holds are appended to ``tensors``."""
    from flowgrad.framework.tensor import convert_to_tensor
    if isinstance(sig, TensorSpec):
        try:
            t = convert_to_tensor(value, sig.dtype)
        except (TypeError, ValueError):
            return False
        if not sig.is_compatible_with(t):
            return False
        tensors.append(t)
        return True
    if isinstance(sig, (list, tuple)):
        return (type(value) is type(sig) and len(value) == len(sig)
                and all(_fits(s, v, tensors) for s, v in zip(sig, value)))
    return type(value) is type(sig) and value == sig


def _arg_name(spec: TensorSpec, fallback: str) -> str:
    return spec.name or fallback


class RestoredFunction:
    """A ``tf.function`` of the saved object: calls the concrete function its arguments
    fit (TensorFlow's ``RestoredFunction``)."""

    def __init__(self, concrete_functions: list, input_signature: Any = None):
        self.concrete_functions = concrete_functions
        self.input_signature = input_signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError("A restored function takes positional arguments (got keyword "
                            "arguments %s)" % sorted(kwargs))
        for cf in self.concrete_functions:
            if cf.tensors_for(args) is not None:
                return cf(*args)
        raise ValueError("Could not find matching concrete function to call loaded from the "
                         "SavedModel. Got:\n  Positional arguments (%d total): %r\n Expected "
                         "these arguments to match one of the following %d option(s): %s"
                         % (len(args), args, len(self.concrete_functions),
                            [cf.structured_input_signature for cf in self.concrete_functions]))

    def get_concrete_function(self, *args: Any) -> Any:
        """The concrete function these arguments (or the only one, without arguments) fit."""
        if not args and len(self.concrete_functions) == 1:
            return self.concrete_functions[0]
        for cf in self.concrete_functions:
            if cf.tensors_for(args) is not None:
                return cf
        raise ValueError("No concrete function matches %r" % (args,))


def load(export_dir: str, tags: Any = None, variable_values: dict | None = None) -> Any:
    """Loads TensorFlow's SavedModel at ``export_dir`` (see the module docstring).

    Args:
      export_dir: the SavedModel directory.
      tags: the MetaGraphDef's tags (default: the only one).
      variable_values: {object-graph node id: value} to use instead of ``variables/``.

    Returns:
      The root object: a flowgrad Module with the saved attributes and ``signatures``.
    """
    sm = read_saved_model(export_dir)
    meta = meta_graph_for(sm, tags, export_dir)
    if not meta.HasField("object_graph_def") or not meta.object_graph_def.nodes:
        raise ValueError("%s is a TensorFlow 1 SavedModel (no object graph): load it with "
                         "tf.compat.v1.saved_model.loader.load" % export_dir)
    if variable_values is None:
        variable_values = read_variable_values(export_dir, meta.object_graph_def)
    return _Loader(meta, export_dir).load(variable_values)
