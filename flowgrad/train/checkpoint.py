"""``tf.train.Checkpoint`` and ``tf.train.CheckpointManager``: object-based checkpoints.

A Checkpoint saves the objects reachable from its keyword arguments: Modules (and
Keras layers and models, which are Modules), variables, lists/tuples/dicts of them,
and optimizers (Keras and TF1) with their slot variables, each found by the path of
attribute names from the Checkpoint, as TensorFlow's object graph does. ``restore``
matches the saved object graph against the live one by those names, so a program
that builds the same objects restores them whatever its variables are called.

The files are TensorFlow's (see ``tensor_bundle.py``): one tensor per variable under
TensorFlow's key (``model/w/.ATTRIBUTES/VARIABLE_VALUE``, slots of TF1 optimizers as
``<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot>/.ATTRIBUTES/VARIABLE_VALUE``) plus
the object graph, a
``TrackableObjectGraph`` proto, under ``_CHECKPOINTABLE_OBJECT_GRAPH``. Keras models and
optimizers are tracked under Keras 3's names (a Sequential's layers as
``model/_functional/_operations/<i>``, a Dense layer's kernel as ``_kernel``, an optimizer's
variables as ``_variables/<i>`` with its slots interleaved as Keras makes them), so
TensorFlow restores flowgrad's checkpoints into the same Keras model and flowgrad restores
TensorFlow's. Saving is atomic (temporary files renamed into place, then the directory's
``checkpoint`` state file), so ``tf.train.latest_checkpoint`` serves both Saver and
Checkpoint directories. flowgrad 0.1.0's checkpoints (``<prefix>.npz``, the object graph
as JSON, its own names) stay readable.

Restoration is immediate for objects that exist and deferred for those that do not
yet, as TensorFlow's: a variable or sub-module later assigned to a Module attribute the
checkpoint knows gets its saved value then; a Trackable (the real Keras 3's layers and
optimizers) queues the restore in its ``_deferred_dependencies`` and hands it to the
dependency it tracks under that name later (a layer's kernel made by its first call, an
optimizer's slots appended to its ``_variables`` list when it builds, by position). A TF1
optimizer or flowgrad's TF1-face Keras optimizer that has not made its slots yet makes them for
the restored variables."""
from __future__ import annotations

import inspect
import itertools
import json
import os
import time
import weakref
from typing import Any

import numpy as np

from flowgrad import module as module_lib
from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly, get_default_session
from flowgrad.framework.tensor import _Ref
from flowgrad.framework.trackable import Trackable
from flowgrad.framework.trackable_data_structures import wrap_or_unwrap
from flowgrad.runtime.function import init_scope
from flowgrad.legacy_keras.layers.base import Layer as KerasLayer
from flowgrad.legacy_keras.layers.convolutional import Conv2D
from flowgrad.legacy_keras.layers.core import Dense, Embedding, InputLayer
from flowgrad.legacy_keras.models.functional import Functional
from flowgrad.legacy_keras.models.sequential import Sequential
from flowgrad.legacy_keras.optimizers import Optimizer as KerasOptimizer
from flowgrad.ops.state_ops import EagerVariable, Variable, global_variables_initializer
from flowgrad.train import checkpoint_management as cm
from flowgrad.train.optimizer import Optimizer as V1Optimizer
from flowgrad.train.checkpoint_reader import OBJECT_GRAPH_KEY, CheckpointReader
from flowgrad.train.tensor_bundle import VariantArray, write_bundle

_VALUE = "/.ATTRIBUTES/VARIABLE_VALUE"
_KERAS_NOT_SLOTS = ("_variables", "_trainable_variables")
#: Keras 3 keeps these weights under a private attribute (a property serves the public name).
_KERAS_PRIVATE = {(Dense, "kernel"): "_kernel", (Conv2D, "kernel"): "_kernel",
                  (Embedding, "embeddings"): "_embeddings"}


# --------------------------------------------------------------------------------------
# The object graph


def _is_trackable(obj: Any) -> bool:
    if isinstance(obj, (Variable, module_lib.Module, Checkpoint, KerasOptimizer, V1Optimizer,
                        Trackable)):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_is_trackable(x) for x in obj)
    if isinstance(obj, dict):
        return any(_is_trackable(x) for x in obj.values())
    return False


def _children(obj: Any, legacy: bool = False) -> list:
    """[(name, child)] of a trackable object, in a deterministic order.

    A Module's children are its attributes; a class may name them itself with
    ``_trackable_children() -> {name: child}`` (TensorFlow's Trackable method), e.g. so that
    a model's checkpoint does not depend on whether it has been built. Keras objects get
    Keras 3's names (flowgrad 0.1.0's names with ``legacy``)."""
    if isinstance(obj, Variable) or _holds_value(obj):
        return []
    if isinstance(obj, (list, tuple)):      # ListWrapper too: its variables are children
        items: list = [(str(i), x) for i, x in enumerate(obj)]
    elif isinstance(obj, dict):
        items = [(str(k), obj[k]) for k in obj]
    elif isinstance(obj, Trackable) and not isinstance(obj, (module_lib.Module, Checkpoint)):
        return _trackable_attributes(obj)
    elif hasattr(obj, "_trackable_children"):     # a class naming its own dependencies
        items = list(obj._trackable_children().items())
    elif isinstance(obj, Checkpoint):         # with root=: the root's dependencies first
        items = _children(obj._root, legacy) if obj._root is not None else []
        items += list(obj._objects.items())
        if obj._save_counter is not None:
            items.append(("save_counter", obj._save_counter))
    elif isinstance(obj, KerasOptimizer):
        items = _keras_optimizer_children(obj, legacy)
    elif isinstance(obj, V1Optimizer):
        items = sorted((name, v) for (name, _), v in obj._non_slot_dict.items())
    elif isinstance(obj, Sequential) and not legacy:
        ops = [x for x in obj._layers if not isinstance(x, InputLayer)]
        items = [("_functional", {"_operations": [None] + ops})]
    elif isinstance(obj, Functional) and not legacy:
        items = [("_operations", list(obj._layers))]
    else:
        ignored = getattr(obj, "_TF_MODULE_IGNORED_PROPERTIES", ())
        items = [(k, v) for k, v in sorted(vars(obj).items()) if k not in ignored]
        if isinstance(obj, KerasLayer) and not legacy:
            items = _keras_layer_children(obj, items)
    return [(n, c) for n, c in items if _is_trackable(c)]


def _holds_value(obj: Any) -> bool:
    """A Trackable that saves its state as tensors (TensorFlow's ``_serialize_to_tensors``),
    as a Keras 3 variable does: a leaf of the object graph."""
    return isinstance(obj, Trackable) and \
        type(obj)._serialize_to_tensors is not Trackable._serialize_to_tensors


def _trackable_attributes(obj: Any) -> list:
    """The children of a Trackable written for TensorFlow (the real Keras 3's layers and
    optimizers): its tracked dependencies in the order they were tracked (lists and dicts
    assigned to an AutoTrackable's attributes are tracked as trackable containers, as in
    TensorFlow) and, as TensorFlow's AutoTrackable wraps them, its tuple attributes that hold
    trackables."""
    items = list(obj._trackable_children().items())
    tracked = {name for name, _ in items}
    items += [(name, value) for name, value in vars(obj).items()
              if name not in tracked and not name.startswith("_self_")
              and isinstance(value, tuple) and _is_trackable(value)]
    return [(n, c) for n, c in items if _is_trackable(c)]


def _keras_layer_children(layer: Any, items: list) -> list:
    """A Keras layer's attributes as Keras 3 tracks them: private names where Keras keeps a
    weight privately; lists that only repeat the layer's own weights left out."""
    own = {id(v) for _, v in items if isinstance(v, Variable)}
    out = []
    for name, value in items:
        if isinstance(value, list) and value and all(
                isinstance(v, Variable) and id(v) in own for v in value):
            continue
        out.append((_keras_attribute(layer, name), value))
    return out


def _keras_attribute(obj: Any, name: str) -> str:
    """The name Keras 3 tracks the attribute ``name`` of ``obj`` under."""
    for (cls, attr), private in _KERAS_PRIVATE.items():
        if attr == name and isinstance(obj, cls):
            return private
    return name


def _keras_optimizer_children(opt: Any, legacy: bool) -> list:
    if legacy:
        return [("iteration", opt._iterations), ("learning_rate", opt._learning_rate)]
    items = [("_variables", list(opt._variables)),
             ("_trainable_variables", list(opt._trainable_variables)),
             ("_iterations", opt._iterations), ("_learning_rate", opt._learning_rate)]
    return items + [(attr, list(slots)) for attr, slots in _keras_slot_lists(opt)]


def _keras_slot_lists(opt: Any) -> list:
    """[(attribute, slot variables)] of a Keras optimizer: its lists of one variable per
    trainable variable."""
    originals = opt._trainable_variables
    out = []
    for attr, value in sorted(vars(opt).items()):
        if attr in _KERAS_NOT_SLOTS or not isinstance(value, list) or not value:
            continue
        if len(value) == len(originals) and all(isinstance(v, Variable) for v in value):
            out.append((attr, value))
    return out


def _slots(opt: Any, legacy: bool = False) -> list:
    """[(original variable, slot name, slot variable)] of an optimizer's slot variables
    (those of a TF1 optimizer; a Keras optimizer's are plain children, as in Keras 3, except
    in flowgrad 0.1.0's checkpoints)."""
    out = []
    if isinstance(opt, KerasOptimizer) and legacy:
        for attr, value in _keras_slot_lists(opt):
            out.extend((o, attr.lstrip("_"), s) for o, s in zip(opt._trainable_variables, value))
    elif isinstance(opt, V1Optimizer):
        for name in sorted(opt._slots):
            for key, slot in opt._slots[name].items():
                out.append((key.deref() if isinstance(key, _Ref) else key, name, slot))
    return out


def _read_value(var: Any, session: Any) -> np.ndarray:
    if isinstance(var, EagerVariable):
        return np.asarray(var.numpy())
    session = session or get_default_session()
    if session is None:
        raise ValueError("Saving the graph variable %s needs a session: pass session= or save "
                         "inside `with tf.Session():`" % var.name)
    return np.asarray(session.run(var))


def _assign_value(var: Any, value: np.ndarray, key: str, session: Any) -> None:
    _check_value(var, value, key, "the checkpoint")
    if isinstance(var, EagerVariable):
        with init_scope():
            var.assign(value)
    else:
        var.load(value, session=session or get_default_session())


def _kind(obj: Any) -> str:
    for kind, cls in (("variable", Variable), ("list", list), ("tuple", tuple), ("dict", dict)):
        if isinstance(obj, cls):
            return kind
    return "object"


def build_object_graph(root: Any, session: Any = None) -> tuple[dict, dict, list]:
    """(the JSON-able object graph, {key: value}, the objects by node id) of everything
    reachable from ``root``; node 0 is ``root``."""
    ids: dict = {id(root): 0}
    nodes: list = [{"children": {}}]
    objects = [root]
    paths = [""]
    arrays: dict = {}
    i = 0
    while i < len(objects):                    # breadth first: the shortest path names a node
        obj = objects[i]
        for name, child in _children(obj):
            cid = ids.get(id(child))
            if cid is None:
                cid = ids[id(child)] = len(objects)
                objects.append(child)
                paths.append(paths[i] + "/" + name if paths[i] else name)
                nodes.append({"children": {}})
            nodes[i]["children"][name] = cid
        i += 1
    slot_objects: list = []
    for i, obj in enumerate(objects):
        nodes[i]["kind"] = _kind(obj)
        if isinstance(obj, Variable):
            nodes[i].update(name=obj.name, trainable=obj.trainable)
            nodes[i]["key"] = paths[i] + _VALUE
            arrays[nodes[i]["key"]] = _read_value(obj, session)
        elif _holds_value(obj):
            tensors = obj._serialize_to_tensors()
            value = tensors.get("VARIABLE_VALUE")
            legacy_name = getattr(obj, "_LEGACY_SAVEABLE_NAME", None)
            if value is not None and legacy_name is None:
                nodes[i].update(name=getattr(value, "name", paths[i]),
                                trainable=getattr(obj, "trainable", True))
                nodes[i]["key"] = paths[i] + _VALUE
                arrays[nodes[i]["key"]] = _read_value(value, session) \
                    if isinstance(value, Variable) else np.asarray(value)
            elif tensors:
                nodes[i]["attributes"] = _save_attributes(paths[i], legacy_name, tensors,
                                                          arrays, session)
        slots = []
        for original, name, slot in _slots(obj):
            oid = ids.get(id(original))
            if oid is None:                    # a variable the checkpoint does not save
                continue
            key = "%s/.OPTIMIZER_SLOT/%s/%s%s" % (paths[oid], paths[i], name, _VALUE)
            sid = ids.setdefault(id(slot), len(nodes))
            if sid == len(nodes):
                nodes.append({"children": {}, "key": key, "kind": "variable",
                              "name": slot.name, "trainable": slot.trainable})
                slot_objects.append(slot)
                arrays[key] = _read_value(slot, session)
            slots.append({"original": oid, "name": name, "slot": sid})
        if slots:
            nodes[i]["slots"] = slots
    return {"nodes": nodes}, arrays, objects + slot_objects


def _save_attributes(path: str, legacy_name: str | None, tensors: dict, arrays: dict,
                     session: Any) -> list:
    """[(attribute name, checkpoint key)] of an object that saves tensors other than a
    variable's value, its tensors put in ``arrays``, named as TensorFlow names them: under
    a legacy saveable name (an iterator's ``ITERATOR``, whose tensor is ``ITERATOR_STATE``)
    one attribute and a key per tensor (the name + the tensor's suffix), else one attribute
    per tensor."""
    prefix = path + "/.ATTRIBUTES/"
    for name, value in tensors.items():
        if isinstance(value, Variable):
            value = _read_value(value, session)
        elif not isinstance(value, VariantArray):      # a variant tensor stays one
            value = np.asarray(value)
        arrays[prefix + (legacy_name or "") + name] = value
    if legacy_name is not None:
        return [(legacy_name, prefix + legacy_name)]
    return [(name, prefix + name) for name in tensors]


def _graph_module() -> Any:
    try:
        from tensorboard.compat.proto import trackable_object_graph_pb2
    except ImportError as e:
        raise ImportError("TensorFlow's checkpoint format needs the optional 'tensorboard' "
                          "package: pip install flowgrad[tf-formats]") from e
    return trackable_object_graph_pb2


def object_graph_proto(graph: dict) -> bytes:
    """The ``TrackableObjectGraph`` proto (serialized) of an object graph from
    ``build_object_graph``, as TensorFlow writes it (children sorted by name, each
    variable's value as its ``VARIABLE_VALUE`` attribute, ``has_checkpoint_values`` set on
    the nodes that hold values or lead to some)."""
    proto = _graph_module().TrackableObjectGraph()
    nodes = graph["nodes"]
    parents: dict = {}
    for i, node in enumerate(nodes):
        for cid in node["children"].values():
            parents.setdefault(cid, set()).add(i)
    with_values = {i for i, node in enumerate(nodes) if "key" in node or "attributes" in node}
    todo = list(with_values)
    while todo:
        for parent in parents.pop(todo.pop(), ()):
            if parent not in with_values:
                with_values.add(parent)
                todo.append(parent)
    for i, node in enumerate(nodes):
        obj = proto.nodes.add()
        for name in sorted(node["children"]):
            obj.children.add(node_id=node["children"][name], local_name=name)
        if "key" in node:
            name = node["name"][:-2] if node["name"].endswith(":0") else node["name"]
            obj.attributes.add(name="VARIABLE_VALUE", full_name=name,
                               checkpoint_key=node["key"])
        for name, key in node.get("attributes", ()):
            obj.attributes.add(name=name, checkpoint_key=key)
        for slot in node.get("slots", ()):
            obj.slot_variables.add(original_variable_node_id=slot["original"],
                                   slot_name=slot["name"], slot_variable_node_id=slot["slot"])
        obj.has_checkpoint_values.value = i in with_values
    return proto.SerializeToString()


def graph_from_proto(raw: bytes, path: str) -> dict:
    """The object graph (as ``build_object_graph`` makes it) of a serialized
    ``TrackableObjectGraph``; DataLossError naming ``path`` if it does not parse."""
    proto = _graph_module().TrackableObjectGraph()
    try:
        proto.ParseFromString(raw)
    except Exception as e:      # noqa: BLE001 - protobuf's DecodeError
        raise errors.DataLossError(None, None, "The object graph of checkpoint %s cannot be "
                                   "parsed: %s" % (path, e)) from None
    nodes = []
    for obj in proto.nodes:
        node: dict = {"children": {c.local_name: c.node_id for c in obj.children}}
        for attr in obj.attributes:
            if attr.name == "VARIABLE_VALUE":
                node["key"] = attr.checkpoint_key
            else:
                node.setdefault("attributes", []).append((attr.name, attr.checkpoint_key))
        if obj.slot_variables:
            node["slots"] = [{"original": s.original_variable_node_id, "name": s.slot_name,
                              "slot": s.slot_variable_node_id} for s in obj.slot_variables]
        nodes.append(node)
    if not nodes:
        raise errors.DataLossError(None, None, "The object graph of checkpoint %s is empty"
                                   % path)
    return {"nodes": nodes, "proto": proto}


class _Values:
    """The values of a checkpoint by key, read when first asked for."""

    def __init__(self, reader: CheckpointReader):
        self._reader = reader
        self._cache: dict = {}

    def __contains__(self, key: str) -> bool:
        return self._reader.has_tensor(key)

    def keys_under(self, key: str) -> list:
        """The keys of the tensors saved for the attribute ``key`` (it and its suffixes)."""
        return [k for k in self._reader.get_variable_to_shape_map() if k.startswith(key)]

    def __getitem__(self, key: str) -> np.ndarray:
        if key not in self._cache:
            value = self._reader.get_tensor(key)
            self._cache[key] = np.array(value, dtype=object) if isinstance(value, bytes) \
                else np.asarray(value)
        return self._cache[key]


# --------------------------------------------------------------------------------------
# Restoring


_restore_uids = itertools.count()


class _Restore:
    """One restore: the saved graph and values, matched against live objects."""

    def __init__(self, path: str, graph: dict, arrays: Any, session: Any,
                 dry_run: bool = False, legacy: bool = False):
        self.path = path
        self.dry_run = dry_run                # only check dtypes and shapes
        self.legacy = legacy                  # flowgrad 0.1.0's names
        self.nodes = graph["nodes"]
        self.proto = graph.get("proto")       # the TrackableObjectGraph (TF's format)
        self.arrays = arrays
        self.session = session
        self.matched: dict = {}               # node id -> live object
        self.restored: set = set()            # node ids whose value was assigned
        self.deferred_ops: list = []          # (variable, value, key) for graph variables
        self.pending_slots: list = []         # (node, optimizer) waiting for variables
        self.pending_builds: list = []        # (node id, Keras optimizer) waiting for them
        self.uid = next(_restore_uids)        # later restores win over earlier ones

    def match(self, node_id: int, obj: Any) -> None:
        if node_id in self.matched:
            return
        if isinstance(obj, KerasOptimizer) and not self.legacy and \
                not self._built(node_id, obj):
            return
        self.matched[node_id] = obj
        node = self.nodes[node_id]
        if "key" in node and isinstance(obj, Variable):
            self._assign(obj, node_id)
        elif "key" in node and _holds_value(obj):
            self._restore_trackable(obj, node_id)
        elif "attributes" in node and _holds_value(obj):
            self._restore_attributes(obj, node_id)
        live = dict(_children(obj, self.legacy)) if _is_trackable(obj) else {}
        for name, cid in node["children"].items():
            attribute = vars(obj).get(name) if isinstance(obj, module_lib.Module) else None
            if type(attribute) in (list, dict) and live.get(name, attribute) is attribute \
                    and not self.dry_run:
                live[name] = self._track_container(obj, name, attribute, cid)
            if name in live:
                self.match(cid, live[name])
            elif not self.dry_run:
                self._defer(obj._root if isinstance(obj, Checkpoint) else obj, name, cid)
        if node.get("slots") and not self.dry_run:
            self._match_slots(node, obj)

    def _track_container(self, module: Any, name: str, value: Any, node_id: int) -> Any:
        """A Module's plain list or dict attribute that lacks some of the saved elements becomes
        the trackable container TensorFlow's tf.Module holds (a ListWrapper or _DictWrapper of
        the same elements), so the elements appended to it later get their saved values."""
        live = {str(k) for k in (range(len(value)) if isinstance(value, list) else value)}
        if set(self.nodes[node_id]["children"]) <= live:
            return value
        wrapped = wrap_or_unwrap(value)
        object.__setattr__(module, name, wrapped)
        return wrapped

    def _defer(self, obj: Any, name: str, node_id: int) -> None:
        """Queues the restore of the saved child ``name`` of ``obj`` until ``obj`` has it."""
        if isinstance(obj, module_lib.Module):
            _defer(obj, name, self, node_id)
        elif isinstance(obj, Trackable):
            obj._deferred_dependencies.setdefault(name, []).append(
                _DeferredRestore(self, node_id))

    def _built(self, node_id: int, opt: Any) -> bool:
        """Whether the Keras optimizer ``opt`` can be matched now: built, or built here for
        the saved ``_trainable_variables`` once they all exist (else it waits for them)."""
        if opt.built or self.dry_run:
            return True
        listed = self.nodes[node_id]["children"].get("_trainable_variables")
        children = self.nodes[listed]["children"] if listed is not None else {}
        originals = [self.matched.get(cid) for _, cid in sorted(children.items(),
                                                               key=lambda kv: int(kv[0]))]
        if not originals:
            return True
        if any(o is None for o in originals):
            if (node_id, opt) not in self.pending_builds:
                self.pending_builds.append((node_id, opt))
            return False
        with init_scope():
            opt.build(originals)
        return True

    def retry_pending(self) -> None:
        """Matches the optimizers that waited for variables which exist now."""
        for node_id, opt in list(self.pending_builds):
            self.pending_builds.remove((node_id, opt))
            self.match(node_id, opt)
        for node, opt in list(self.pending_slots):
            self._match_slots(node, opt)

    def _assign(self, var: Any, node_id: int) -> None:
        key = self.nodes[node_id]["key"]
        value = self.arrays[key]
        if self.dry_run:
            _check_value(var, value, key, self.path)
            return
        if isinstance(var, EagerVariable):
            _assign_value(var, value, key, None)
        else:
            self.deferred_ops.append((var, value, key))
        self.restored.add(node_id)

    def _restore_attributes(self, obj: Any, node_id: int) -> None:
        """Gives an object that saves tensors other than a variable's value (an iterator) the
        tensors saved under its attributes, by the names its ``_serialize_to_tensors`` gave
        (the keys past the attribute's key)."""
        restored, where = {}, []
        for _, key in self.nodes[node_id]["attributes"]:
            for full in self.arrays.keys_under(key):
                restored[full[len(key):]] = self.arrays[full]
                where.append(full)
        where = "%s from %s" % (", ".join(where), self.path)
        if self.dry_run:
            check = getattr(obj, "_check_restored_tensors", None)
            if check is not None:
                check(restored, where)
            return
        with init_scope():
            obj._restore_from_tensors(restored)
        self.restored.add(node_id)

    def _restore_trackable(self, obj: Any, node_id: int) -> None:
        """Gives a Trackable that restores itself (a Keras 3 variable) its saved value.

        A Keras 3 variable wrapping a flowgrad variable gets the value in that variable, even
        inside a Keras stateless scope (a layer built while its model is traced symbolically,
        after a restore that came before the build); one made in such a scope and not yet
        initialized gets it as its initial value (TensorFlow's restore on creation)."""
        key = self.nodes[node_id]["key"]
        value = self.arrays[key]
        wrapped = getattr(obj, "_value", None)
        if isinstance(wrapped, Variable):
            if self.dry_run:
                _check_value(wrapped, value, key, self.path)
            else:
                _assign_value(wrapped, value, key, None)
                self.restored.add(node_id)
            return
        if self.dry_run:
            return
        if wrapped is None and callable(getattr(obj, "_initializer", None)):
            obj._initializer = _CheckpointInitialValue(value)
        else:
            with init_scope():
                obj._restore_from_tensors({"VARIABLE_VALUE": value})
        self.restored.add(node_id)

    def _match_slots(self, node: dict, opt: Any) -> None:
        """Restores an optimizer's slots once all their variables exist (an optimizer that
        has not made its slots yet makes them for those variables, in the saved order)."""
        originals = [self.matched.get(s["original"]) for s in node["slots"]]
        if any(o is None for o in originals):   # some variables do not exist yet: wait
            if (node, opt) not in self.pending_slots:
                self.pending_slots.append((node, opt))
            return
        if (node, opt) in self.pending_slots:
            self.pending_slots.remove((node, opt))
        if isinstance(opt, KerasOptimizer) and not opt.built:
            wanted = []
            for o in originals:
                if o is not None and all(o is not w for w in wanted):
                    wanted.append(o)
            if wanted:
                with init_scope():
                    opt.build(wanted)
        elif isinstance(opt, V1Optimizer) and executing_eagerly():
            missing = [o for o, s in zip(originals, node["slots"])
                       if o is not None and opt.get_slot(o, s["name"]) is None]
            if missing:
                opt._create_slots(list({id(o): o for o in missing}.values()))
        live_children = dict(_children(opt, self.legacy))   # non-slot variables made now
        for name, cid in node["children"].items():
            if name in live_children and cid not in self.matched:
                self.match(cid, live_children[name])
        live = {(id(o), name): s for o, name, s in _slots(opt, self.legacy)}
        for o, s in zip(originals, node["slots"]):
            slot = live.get((id(o), s["name"])) if o is not None else None
            if slot is not None:
                self.match(s["slot"], slot)

    def run_deferred(self, session: Any) -> None:
        for var, value, key in self.deferred_ops:
            _assign_value(var, value, key, session or self.session)
        self.deferred_ops = []

    def unresolved_message(self) -> str | None:
        """TensorFlow's message for the first saved object holding values that no live object
        took, ``(root).a.b: <its node>``; None if there is none."""
        missing = [i for i, n in enumerate(self.nodes)
                   if ("key" in n or "attributes" in n) and i not in self.restored]
        if not missing:
            return None
        if self.proto is None:
            return "Unresolved object in checkpoint %s: %s" % (self.path,
                                                               ", ".join(self.unrestored_keys()))
        names, order = {0: "(root)"}, [0]
        for i in order:                       # breadth first: the shortest path names a node
            for child in self.proto.nodes[i].children:
                if child.node_id not in names:
                    names[child.node_id] = names[i] + "." + child.local_name
                    order.append(child.node_id)
        return "Unresolved object in checkpoint %s: %s" % (
            names.get(missing[0], str(missing[0])), self.proto.nodes[missing[0]])

    def unrestored_keys(self) -> list:
        keys = [[n["key"]] if "key" in n else [k for _, k in n.get("attributes", ())]
                for i, n in enumerate(self.nodes) if i not in self.restored]
        return sorted(k for ks in keys for k in ks)


class _CheckpointInitialValue:
    """An initializer giving a checkpoint's value (TensorFlow's CheckpointInitialValue): a
    variable made before it was initialized takes the saved value as its initial value."""

    def __init__(self, value: np.ndarray):
        self._value = value

    def __call__(self, shape: Any = None, dtype: Any = None) -> np.ndarray:
        return self._value if dtype is None else self._value.astype(dtypes.as_dtype(dtype).np)


class _DeferredRestore:
    """What a restore holds for a dependency a Trackable does not have yet (TensorFlow's
    deferred ``CheckpointPosition``): tracking it under that name restores it
    (``Trackable._handle_deferred_dependencies``)."""

    def __init__(self, restore: _Restore, node_id: int):
        self._restore = restore
        self._node_id = node_id

    @property
    def restore_uid(self) -> int:
        return self._restore.uid

    def restore(self, trackable: Any) -> None:
        self._restore.match(self._node_id, trackable)
        self._restore.retry_pending()


# Deferred restoration: Module -> (weak reference, {attribute: [(restore, node id)]}).
_pending: dict = {}


def _defer(obj: Any, name: str, restore: _Restore, node_id: int) -> None:
    entry = _pending.get(id(obj))
    if entry is None or entry[0]() is not obj:
        entry = _pending[id(obj)] = (weakref.ref(obj, _forget(id(obj))), {})
    entry[1].setdefault(name, []).append((restore, node_id))
    module_lib.set_setattr_hook(_on_setattr)


def _forget(key: int) -> Any:
    # Bound now: the callback may run while the interpreter is clearing module globals.
    pending, set_hook = _pending, module_lib.set_setattr_hook

    def callback(_: Any) -> None:
        pending.pop(key, None)
        if not pending:
            set_hook(None)
    return callback


def _on_setattr(obj: Any, name: str, value: Any) -> None:
    entry = _pending.get(id(obj))
    if entry is None or entry[0]() is not obj:
        return
    if name not in entry[1]:
        name = _keras_attribute(obj, name)      # Keras 3's name of the attribute
        if name not in entry[1]:
            return
    if not _is_trackable(value):
        return
    waiting = entry[1].pop(name)
    if not entry[1]:
        del _pending[id(obj)]
        if not _pending:
            module_lib.set_setattr_hook(None)
    for restore, node_id in waiting:
        restore.match(node_id, value)
        restore.retry_pending()


# --------------------------------------------------------------------------------------
# Public API


class CheckpointLoadStatus:
    """What ``Checkpoint.restore`` matched; its assertions check the match."""

    def __init__(self, restore: _Restore, root: Any):
        self._restore = restore
        self._root = root

    def assert_consumed(self) -> CheckpointLoadStatus:
        """Raises AssertionError unless every live variable reachable from the Checkpoint got
        a saved value (checked first, as TensorFlow does) and every saved value was
        restored."""
        self.assert_existing_objects_matched()
        message = self._restore.unresolved_message()
        if message is not None:
            raise AssertionError(message)
        return self

    def assert_existing_objects_matched(self) -> CheckpointLoadStatus:
        """Raises AssertionError if a live variable got no saved value."""
        matched = {id(o) for o in self._restore.matched.values()}
        unmatched = [v for v in _reachable_variables(self._root) if id(v) not in matched]
        if unmatched:
            shown = min(10, len(unmatched))
            raise AssertionError("Found %d Python objects that were not bound to checkpointed "
                                 "values, likely due to changes in the Python program. "
                                 "Showing %d of %d unmatched objects: %s"
                                 % (len(unmatched), shown, len(unmatched), unmatched[:shown]))
        return self

    def assert_nontrivial_match(self) -> CheckpointLoadStatus:
        """Raises AssertionError if nothing but the root was matched."""
        if len(self._restore.matched) <= 1:
            raise AssertionError("Nothing except the root object matched a checkpointed value.")
        return self

    def expect_partial(self) -> CheckpointLoadStatus:
        """Marks the restore as knowingly partial (values left unused are not reported)."""
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        """Graph mode: assigns the restored values to graph variables in ``session``."""
        self._restore.run_deferred(session)

    def initialize_or_restore(self, session: Any = None) -> None:
        self.run_restore_ops(session)


class NameBasedSaverStatus:
    """The status of restoring a ``tf.train.Saver`` checkpoint: variables matched by name."""

    def __init__(self, path: str, missing: list, pending: list):
        self._path = path
        self._missing = missing
        self._pending = pending                # (graph variable, value, key)

    def assert_consumed(self) -> Any:
        raise AssertionError("Restoring a name-based checkpoint (%s). No load status is "
                             "available." % self._path)

    def assert_existing_objects_matched(self) -> NameBasedSaverStatus:
        """Raises AssertionError if a variable's name is not in the checkpoint."""
        if self._missing:
            raise AssertionError("Variables not found in the name-based checkpoint %s: %s"
                                 % (self._path, ", ".join(self._missing)))
        return self

    def assert_nontrivial_match(self) -> NameBasedSaverStatus:
        return self.assert_existing_objects_matched()

    def expect_partial(self) -> NameBasedSaverStatus:
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        for var, value, key in self._pending:
            _assign_value(var, value, key, session)
        self._pending = []

    initialize_or_restore = run_restore_ops


def _restore_by_name(path: str, arrays: dict, root: Any) -> NameBasedSaverStatus:
    """TensorFlow's fallback: each variable reachable from ``root`` takes the value saved
    under its name (without ':0'); all are checked before any is assigned."""
    found, missing = [], []
    for var in _reachable_variables(root):
        key = var.name[:-2] if var.name.endswith(":0") else var.name
        if key in arrays:
            _check_value(var, arrays[key], key, path)
            found.append((var, arrays[key], key))
        else:
            missing.append(var.name)
    pending = [f for f in found if not isinstance(f[0], EagerVariable)]
    for var, value, key in found:
        if isinstance(var, EagerVariable):
            _assign_value(var, value, key, None)
    status = NameBasedSaverStatus(path, missing, pending)
    if pending and get_default_session() is not None:
        status.run_restore_ops()
    return status


class InitializationOnlyStatus:
    """The status of ``restore(None)``: nothing is restored."""

    def assert_consumed(self) -> Any:
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def expect_partial(self) -> InitializationOnlyStatus:
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        pass

    def initialize_or_restore(self, session: Any = None) -> None:
        if not executing_eagerly():
            (session or get_default_session()).run(global_variables_initializer())


def _reachable_variables(root: Any) -> list:
    """The variables reachable from ``root`` (a Checkpoint's own save counter excepted)."""
    seen = {id(root), id(getattr(root, "_save_counter", None))}
    out, stack = [], [root]
    while stack:
        obj = stack.pop()
        children = [c for _, c in _children(obj)] + [s for _, _, s in _slots(obj)]
        for child in children:
            if id(child) not in seen:
                seen.add(id(child))
                if isinstance(child, Variable):
                    out.append(child)
                stack.append(child)
    return out


class Checkpoint:
    """Saves and restores the objects passed as keyword arguments (see the module docstring).

    ``Checkpoint(model=model, optimizer=opt)``; ``save(prefix)`` writes
    ``prefix-<n>`` and records it as the directory's latest checkpoint, ``write(path)``
    writes exactly ``path``, ``restore(path)`` returns a status with
    ``assert_consumed()`` / ``expect_partial()``.

    Args:
        root: An object whose dependencies are saved as the root's.
        **kwargs: The objects to save, by name (variables, models, optimizers, other trackables).
    """

    def __init__(self, root: Any = None, **kwargs: Any):
        objects = dict(sorted(kwargs.items()))  # TF's order: an object reached by two
        #                                         paths is saved under the first by name
        for name, obj in ([("root", root)] if root is not None else []) + list(objects.items()):
            if not _is_trackable(obj):
                raise ValueError("`Checkpoint` was expecting %s to be a trackable object (an "
                                 "object derived from `Trackable`), got %s. If you believe "
                                 "this object should be trackable (i.e. it is part of the "
                                 "TensorFlow Python API and manages state), please open an "
                                 "issue." % (name, obj))
        self._objects = objects
        self._root = root                      # its dependencies are the checkpoint's own
        self._save_counter: Any = None
        self._counter = 0                      # graph mode: the save counter in Python

    def __getattr__(self, name: str) -> Any:
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        if name == "root" and self.__dict__.get("_root") is not None:
            return self.__dict__["_root"]
        raise AttributeError("'Checkpoint' object has no attribute %r" % name)

    def __setattr__(self, name: str, value: Any) -> None:
        """A trackable set as an attribute after construction is saved too, by that name
        (``ckpt.step = tf.Variable(0)``), as TensorFlow's Checkpoint tracks it."""
        if not name.startswith("_") and "_objects" in self.__dict__ and _is_trackable(value):
            self._objects[name] = value
            return
        super().__setattr__(name, value)

    @property
    def save_counter(self) -> Any:
        """How many times ``save`` ran (an int64 variable, made on the first save)."""
        self._maybe_create_save_counter()
        return self._save_counter

    def _maybe_create_save_counter(self) -> None:
        if self._save_counter is None and executing_eagerly():
            with init_scope():
                self._save_counter = EagerVariable(0, trainable=False, dtype=dtypes.int64,
                                                   name="save_counter")

    def _next_number(self) -> int:
        self._maybe_create_save_counter()
        if self._save_counter is None:
            self._counter += 1
            return self._counter
        self._save_counter.assign_add(1)
        return int(self._save_counter.numpy())

    def write(self, file_prefix: str, options: Any = None, session: Any = None) -> str:
        """Writes a checkpoint to exactly ``file_prefix`` (no counter, no state file)."""
        file_prefix = os.fspath(file_prefix)
        save_dir = os.path.dirname(file_prefix) or "."
        if not os.path.isdir(save_dir):
            os.makedirs(save_dir, exist_ok=True)
        graph, arrays, _ = build_object_graph(self, session)
        arrays[OBJECT_GRAPH_KEY] = np.array(object_graph_proto(graph), dtype=object)
        cm.remove_orphan_temp_files(save_dir, os.path.basename(file_prefix))
        write_bundle(file_prefix, arrays)
        for callback in getattr(options, "experimental_write_callbacks", None) or ():
            if inspect.signature(callback).parameters:     # TF passes the path if it is taken
                callback(file_prefix)
            else:
                callback()
        return file_prefix

    def save(self, file_prefix: str, options: Any = None, session: Any = None) -> str:
        """Writes ``file_prefix-<save_counter>`` and makes it the directory's latest."""
        path = "%s-%d" % (os.fspath(file_prefix), self._next_number())
        self.write(path, options=options, session=session)
        cm.update_checkpoint_state(os.path.dirname(path) or ".", path, [path],
                                   save_relative_paths=True)
        return path

    def read(self, save_path: str, options: Any = None) -> CheckpointLoadStatus:
        """Restores from ``save_path`` (as ``restore``)."""
        return self.restore(save_path)

    def restore(self, save_path: str | None, options: Any = None) -> Any:
        """Restores the saved values into the matching live objects; see the module docstring.

        A ``tf.train.Saver`` checkpoint is restored by variable names instead (as
        TensorFlow does; the status then is a ``NameBasedSaverStatus``). Raises
        NotFoundError when no checkpoint is at ``save_path``, DataLossError when it cannot
        be read and InvalidArgumentError (before any assignment) on a dtype or shape
        mismatch."""
        if save_path is None:
            return InitializationOnlyStatus()
        save_path = os.fspath(save_path)
        if os.path.isdir(save_path):
            raise errors.DataLossError(None, None, "Unable to open table file %s: "
                                       "FAILED_PRECONDITION: %s; Is a directory: perhaps your "
                                       "file is in a different file format and you need to use "
                                       "a different restore operator?" % (save_path, save_path))
        if not cm.checkpoint_exists(save_path):
            raise errors.NotFoundError(None, None, "Error when restoring from checkpoint or "
                                       "SavedModel at %s: Unsuccessful TensorSliceReader "
                                       "constructor: Failed to find any matching files for %s"
                                       "\nPlease double-check that the path is correct. You "
                                       "may be missing the checkpoint suffix (e.g. the '-1' "
                                       "in 'path/to/ckpt-1')." % (save_path, save_path))
        reader = CheckpointReader(save_path)
        values = _Values(reader)
        if not reader.has_tensor(OBJECT_GRAPH_KEY):    # a tf.train.Saver checkpoint
            return _restore_by_name(save_path, values, self)
        raw = reader.get_tensor(OBJECT_GRAPH_KEY)
        legacy = not reader.is_tensorflow_format
        graph = json.loads(raw.decode("utf-8")) if legacy else graph_from_proto(raw, save_path)
        self._maybe_create_save_counter()
        _Restore(save_path, graph, values, None, dry_run=True, legacy=legacy).match(0, self)
        restore = _Restore(save_path, graph, values, None, legacy=legacy)
        restore.match(0, self)
        restore.retry_pending()
        if not executing_eagerly() and get_default_session() is not None:
            restore.run_deferred(None)
        return CheckpointLoadStatus(restore, self)


def _int_value(x: Any) -> Any:
    """A Python number from an int, a NumPy value, a tensor or a variable."""
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


#: TensorFlow's C++ names of the dtypes whose Python names differ (its restore op's messages).
_CC_DTYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _check_value(var: Any, value: np.ndarray, key: str, path: str) -> None:
    """Raises TensorFlow's errors unless ``value`` fits ``var``: its restore op's
    InvalidArgumentError naming the key on another dtype, a ValueError on another shape."""
    want = var.dtype.base_dtype
    if value.dtype != want.np:
        have = dtypes.as_dtype(value.dtype).name
        raise errors.InvalidArgumentError(
            None, None, "tensor_name = %s; expected dtype %s does not equal original dtype %s"
            % (key, _CC_DTYPE_NAMES.get(want.name, want.name),
               _CC_DTYPE_NAMES.get(have, have)))
    if not var.shape.is_compatible_with(value.shape):
        raise ValueError("Received incompatible tensor with shape %s when attempting to "
                         "restore variable with shape %s and name %s."
                         % (tuple(value.shape), tuple(var.shape.as_list()), var.name))


class CheckpointManager:
    """Keeps the ``max_to_keep`` newest checkpoints of a Checkpoint in ``directory``.

    As in TensorFlow: a checkpoint dropped from the active set is kept anyway if it is
    ``keep_checkpoint_every_n_hours`` newer than the last one kept so; with
    ``checkpoint_interval``, ``save`` writes only when ``step_counter`` moved on by that
    many steps (else returns None); a new manager adopts the checkpoints that the
    directory's state file lists.

    Args:
        checkpoint: The ``tf.train.Checkpoint`` to save.
        directory: Where the checkpoints and the state file go.
        max_to_keep: How many of the newest checkpoints to keep; None keeps all.
        keep_checkpoint_every_n_hours: Also keep one checkpoint per this many hours.
        checkpoint_name: The prefix of the checkpoints' file names.
        step_counter: A variable counting steps, for ``checkpoint_interval``.
        checkpoint_interval: Save only when ``step_counter`` moved on by this many steps.
        init_fn: Called by ``restore_or_initialize`` when there is no checkpoint.
    """

    def __init__(self, checkpoint: Checkpoint, directory: str, max_to_keep: int | None,
                 keep_checkpoint_every_n_hours: float | None = None,
                 checkpoint_name: str = "ckpt", step_counter: Any = None,
                 checkpoint_interval: Any = None, init_fn: Any = None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got %d."
                             % max_to_keep)
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not "
                             "None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_every_s = None if keep_checkpoint_every_n_hours is None \
            else keep_checkpoint_every_n_hours * 3600.0
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._last_checkpoint_step: int | None = None
        self._init_fn = init_fn
        self._last_preserved = time.time()
        state = cm.get_checkpoint_state(self._directory)
        self._maybe_delete = []
        if state is not None:
            if state.last_preserved_timestamp:
                self._last_preserved = min(self._last_preserved, state.last_preserved_timestamp)
            times = list(state.all_model_checkpoint_timestamps)
            if len(times) != len(state.all_model_checkpoint_paths):
                times = [self._last_preserved] * len(state.all_model_checkpoint_paths)
            self._maybe_delete = [(p, t) for p, t in zip(state.all_model_checkpoint_paths,
                                                         times) if cm.checkpoint_exists(p)]

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    @property
    def latest_checkpoint(self) -> str | None:
        """The prefix of the newest checkpoint in the directory, or None."""
        return cm.latest_checkpoint(self._directory)

    @property
    def checkpoints(self) -> list:
        """The prefixes of the managed (active) checkpoints, oldest first."""
        return [p for p, _ in self._maybe_delete]

    @property
    def checkpoint_interval(self) -> Any:
        return self._checkpoint_interval

    def save(self, checkpoint_number: Any = None, check_interval: bool = True,
             options: Any = None) -> str | None:
        """Saves ``<directory>/<name>-<n>`` (``n``: ``checkpoint_number``, else the
        checkpoint's save counter) and deletes checkpoints beyond ``max_to_keep``.

        Returns the checkpoint's prefix, or None when ``checkpoint_interval`` says it is
        too early (pass ``check_interval=False`` to save anyway)."""
        if check_interval and self._checkpoint_interval is not None:
            step = int(_int_value(self._step_counter))
            last = self._last_checkpoint_step
            if last is not None and (step == last or step < last + self._checkpoint_interval):
                return None
            self._last_checkpoint_step = step
        os.makedirs(self._directory, exist_ok=True)
        number = self._checkpoint._next_number()
        if checkpoint_number is not None:
            number = int(_int_value(checkpoint_number))
        path = self._checkpoint.write("%s-%d" % (self._prefix, number), options=options)
        self._maybe_delete = [(p, t) for p, t in self._maybe_delete if p != path]
        self._maybe_delete.append((path, time.time()))
        self._sweep()
        cm.update_checkpoint_state(self._directory, path, self.checkpoints,
                                   all_model_checkpoint_timestamps=[t for _, t in
                                                                    self._maybe_delete],
                                   last_preserved_timestamp=self._last_preserved,
                                   save_relative_paths=True)
        return path

    def _sweep(self) -> None:
        """Deletes the oldest managed checkpoints beyond max_to_keep (or preserves them)."""
        if self._max_to_keep is None:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            path, saved = self._maybe_delete.pop(0)
            if self._keep_every_s is not None and saved - self._keep_every_s >= \
                    self._last_preserved:
                self._last_preserved = saved
                continue
            cm.remove_checkpoint(path)

    def restore_or_initialize(self) -> str | None:
        """Restores the latest checkpoint if there is one, else runs ``init_fn``."""
        latest = self.latest_checkpoint
        if latest is not None:
            self._checkpoint.restore(latest)
            return latest
        if self._init_fn is not None:
            self._init_fn()
        return None


__all__ = ["Checkpoint", "CheckpointManager", "CheckpointLoadStatus", "OBJECT_GRAPH_KEY",
           "build_object_graph"]
