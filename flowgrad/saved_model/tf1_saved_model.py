"""TensorFlow 1's SavedModels: ``tf.compat.v1.saved_model.loader.load``, ``simple_save``,
``builder.SavedModelBuilder`` and the signature helpers, in TensorFlow's format
(``saved_model.pb`` with MetaGraphDefs carrying ``signature_def``\\ s, ``variables/`` a tensor
bundle keyed by variable name), so TensorFlow 1 code and TensorFlow Serving read flowgrad's
and flowgrad reads TensorFlow's."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.saved_model import tf_protos
from flowgrad.saved_model.meta_graph import export_meta_graph, import_meta_graph
from flowgrad.saved_model.tf_loader import meta_graph_for, read_saved_model
from flowgrad.saved_model.tf_saver import _write_directory
from flowgrad.framework.type_hints import TensorLike

SERVING = "serve"
TRAINING = "train"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_INPUTS = "inputs"
PREDICT_OUTPUTS = "outputs"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
MAIN_OP_KEY = "saved_model_main_op"
ASSETS_KEY = "saved_model_assets"
ASSETS_DIRECTORY = "assets"
LEGACY_INIT_OP_KEY = "legacy_init_op"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_SCHEMA_VERSION = 1


# --------------------------------------------------------------------------------------
# Signatures


def build_tensor_info(tensor: TensorLike) -> Any:
    """The ``TensorInfo`` of a graph tensor (its name, dtype and shape).

    Args:
        tensor: A graph tensor.
    """
    info = tf_protos.pb().meta_graph_pb2.TensorInfo(
        name=tensor.name, dtype=tf_protos.data_type(tensor.dtype.base_dtype))
    info.tensor_shape.CopyFrom(tf_protos.shape_proto(tensor.shape))
    return info


def get_tensor_from_tensor_info(tensor_info: Any, graph: Any = None,
                                import_scope: str | None = None) -> Any:
    """The tensor a ``TensorInfo`` names in ``graph`` (the default graph).

    Args:
        tensor_info: A TensorInfo proto.
        graph: The graph to look in; the default graph when None.
        import_scope: The scope the graph was imported under.
    """
    g = graph or get_default_graph()
    name = tensor_info.name
    return g.get_tensor_by_name("%s/%s" % (import_scope, name) if import_scope else name)


def build_signature_def(inputs: dict | None = None, outputs: dict | None = None,
                        method_name: str | None = None, defaults: Any = None) -> Any:
    """A ``SignatureDef`` of ``{key: TensorInfo}`` inputs and outputs.

    Args:
        inputs: A dict from names to TensorInfo protos.
        outputs: A dict from names to TensorInfo protos.
        method_name: The signature's method name.
        defaults: Accepted for TensorFlow's signature.
    """
    sd = tf_protos.pb().meta_graph_pb2.SignatureDef()
    for key, info in (inputs or {}).items():
        sd.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        sd.outputs[key].CopyFrom(info)
    if method_name is not None:
        sd.method_name = method_name
    return sd


def predict_signature_def(inputs: dict, outputs: dict) -> Any:
    """A prediction ``SignatureDef`` of ``{key: tensor}`` inputs and outputs.

    Args:
        inputs: A dict from names to input tensors.
        outputs: A dict from names to output tensors.

    Raises:
      ValueError: no inputs or no outputs (TensorFlow's messages).
    """
    if inputs is None or not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if outputs is None or not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               PREDICT_METHOD_NAME)


def is_valid_signature(signature_def: Any) -> bool:
    """Whether a SignatureDef has a method name and names tensors for its inputs/outputs.

    Args:
        signature_def: A SignatureDef proto.
    """
    return bool(signature_def.method_name) and bool(signature_def.outputs) and all(
        info.name for info in list(signature_def.inputs.values())
        + list(signature_def.outputs.values()))


# --------------------------------------------------------------------------------------
# Loading


def maybe_saved_model_directory(export_dir: str) -> bool:
    """Whether ``export_dir`` holds a ``saved_model.pb`` (or ``.pbtxt``).

    Args:
        export_dir: The SavedModel's directory.
    """
    return any(os.path.isfile(os.path.join(export_dir, f))
               for f in (SAVED_MODEL_FILENAME_PB, "saved_model.pbtxt"))


def load(sess: Any, tags: list, export_dir: str, import_scope: str | None = None,
         **saver_kwargs: Any) -> Any:
    """Loads the MetaGraphDef of ``tags`` into ``sess``'s graph and restores its variables
    from ``variables/`` (TensorFlow's ``tf.compat.v1.saved_model.loader.load``).

    Args:
      sess: the Session to restore the variables in.
      tags: the MetaGraphDef's tags (e.g. ``[tf.saved_model.SERVING]``).
      export_dir: the SavedModel directory.
      import_scope: a name scope for the imported names.
      **saver_kwargs: unused (flowgrad restores without a Saver).

    Returns:
      The MetaGraphDef (its ``signature_def`` names the tensors to feed and fetch).

    Raises:
      RuntimeError: no MetaGraphDef has these tags.
      NotFoundError: a variable whose value ``variables/`` lacks (naming it and the file).
    """
    from flowgrad.train.tensor_bundle import BundleReader
    export_dir = os.fspath(export_dir)
    meta = meta_graph_for(read_saved_model(export_dir), list(tags), export_dir)
    _point_assets_into(meta, export_dir)
    with sess.graph.as_default():
        import_meta_graph(meta, import_scope=import_scope)
        g = get_default_graph()
        variables = g.get_collection(GraphKeys.GLOBAL_VARIABLES)
        if variables:
            prefix = os.path.join(export_dir, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
            reader = BundleReader(prefix)
            keys = set(reader.keys())
            values = []
            for v in variables:
                key = v.name[:-2] if v.name.endswith(":0") else v.name
                if import_scope and key.startswith(import_scope + "/"):
                    key = key[len(import_scope) + 1:]
                if key not in keys:
                    raise errors.NotFoundError(None, None, "Key %s not found in checkpoint %s"
                                               % (key, prefix))
                values.append(reader.get_tensor(key))
            for v, value in zip(variables, values):
                v.load(value, sess)
        for key in (MAIN_OP_KEY, LEGACY_INIT_OP_KEY):
            for op in g.get_collection(key):
                sess.run(op)
    return meta


def asset_file_defs(meta: Any) -> list:
    """The MetaGraphDef's AssetFileDefs (the ``saved_model_assets`` collection TensorFlow 1's
    builder writes, else ``asset_file_def``)."""
    pb = tf_protos.pb()
    col = meta.collection_def.get(ASSETS_KEY) if ASSETS_KEY in meta.collection_def else None
    if col is not None and col.any_list.value:
        out = []
        for any_value in col.any_list.value:
            out.append(pb.meta_graph_pb2.AssetFileDef.FromString(any_value.value))
        return out
    return list(meta.asset_file_def)


def _point_assets_into(meta: Any, export_dir: str) -> None:
    """Sets each asset's path tensor (a Const holding the path at export time) to its file
    in ``export_dir/assets`` (TensorFlow feeds those paths to the main op instead)."""
    nodes = {n.name: n for n in meta.graph_def.node}
    for a in asset_file_defs(meta):
        node = nodes.get(a.tensor_info.name.split(":")[0])
        if node is None or node.op != "Const":
            continue
        path = os.path.join(export_dir, ASSETS_DIRECTORY, a.filename)
        node.attr["value"].tensor.CopyFrom(tf_protos.tensor_proto(
            np.array(path.encode(), dtype=object), dtypes.string))


# --------------------------------------------------------------------------------------
# Saving


class SavedModelBuilder:
    """Builds a TensorFlow 1 SavedModel: MetaGraphDefs with signatures, and the variables of
    the first one's session (``tf.compat.v1.saved_model.Builder``).

    Args:
        export_dir: The directory to write (must not exist).

    Raises:
      AssertionError: ``export_dir`` exists and is not empty (TensorFlow's check).
    """

    def __init__(self, export_dir: str):
        self._export_dir = os.fspath(export_dir)
        if os.path.isdir(self._export_dir) and os.listdir(self._export_dir):
            raise AssertionError("Export directory already exists, and isn't empty. Please "
                                 "choose a different export directory, or delete all the "
                                 "contents of the specified directory: %s" % self._export_dir)
        self._saved_model = tf_protos.pb().SavedModel(
            saved_model_schema_version=SAVED_MODEL_SCHEMA_VERSION)
        self._values: dict | None = None
        self._assets: dict = {}         # name in assets/ -> the file copied there

    def _add(self, graph: Any, tags: list, signature_def_map: dict | None,
             main_op: Any, clear_devices: bool, assets_collection: Any = None) -> None:
        for key, sd in (signature_def_map or {}).items():
            if not is_valid_signature(sd):
                raise ValueError("Invalid signature %r: it needs a method name and outputs"
                                 % key)
        meta = export_meta_graph(graph=graph, clear_devices=clear_devices)
        meta.meta_info_def.tags.extend(tags)
        for key, sd in (signature_def_map or {}).items():
            meta.signature_def[key].CopyFrom(sd)
        if main_op is not None:
            meta.collection_def[MAIN_OP_KEY].node_list.value.append(main_op.name)
        for tensor in assets_collection or ():
            name = self._asset(tensor)
            a = tf_protos.pb().meta_graph_pb2.AssetFileDef(filename=name)
            a.tensor_info.name = tensor.name
            packed = meta.collection_def[ASSETS_KEY].any_list.value.add()
            # TensorFlow's type name (tensorboard's copy of the proto is "tensorboard.")
            packed.type_url = "type.googleapis.com/tensorflow.AssetFileDef"
            packed.value = a.SerializeToString()
        self._saved_model.meta_graphs.add().CopyFrom(meta)

    def _asset(self, tensor: Any) -> str:
        """The name in ``assets/`` of the file whose path the string constant ``tensor``
        holds (TensorFlow's: its base name, ``_1``, ``_2``, ... for another file of the
        same name).

        Raises:
          ValueError: ``tensor`` is not a constant path.
          NotFoundError: the file does not exist.
        """
        from flowgrad.ops.manip_ops import get_static_value
        value = get_static_value(tensor)
        if value is None or np.asarray(value).shape != ():
            raise ValueError("The assets collection holds %s, which is not a constant file "
                             "path" % getattr(tensor, "name", tensor))
        path = np.asarray(value).item()
        path = path.decode() if isinstance(path, bytes) else str(path)
        if not os.path.isfile(path):
            raise errors.NotFoundError(None, None, "The asset file %s (%s) does not exist"
                                       % (path, tensor.name))
        for name, src in self._assets.items():
            if src == path:
                return name
        name, base, k = os.path.basename(path), os.path.basename(path), 1
        while name in self._assets:
            name, k = "%s_%d" % (base, k), k + 1
        self._assets[name] = path
        return name

    def add_meta_graph_and_variables(self, sess: Any, tags: list,
                                     signature_def_map: dict | None = None,
                                     assets_collection: Any = None,
                                     legacy_init_op: Any = None, clear_devices: bool = False,
                                     main_op: Any = None, strip_default_attrs: bool = False,
                                     saver: Any = None) -> None:
        """Adds ``sess.graph`` under ``tags`` and records its variables' current values.

        Raises:
          AssertionError: called twice (TensorFlow's rule).
        """
        if self._values is not None:
            raise AssertionError("Graph state including variables and assets has already "
                                 "been saved. Please invoke `add_meta_graph()` instead.")
        variables = sess.graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
        values = sess.run(variables) if variables else []
        self._add(sess.graph, list(tags), signature_def_map, main_op or legacy_init_op,
                  clear_devices, assets_collection)
        self._values = {(v.name[:-2] if v.name.endswith(":0") else v.name): value
                        for v, value in zip(variables, values)}

    def add_meta_graph(self, tags: list, signature_def_map: dict | None = None,
                       assets_collection: Any = None, legacy_init_op: Any = None,
                       clear_devices: bool = False, main_op: Any = None,
                       strip_default_attrs: bool = False, saver: Any = None) -> None:
        """Adds the default graph under ``tags`` (sharing the saved variables).

        Raises:
          AssertionError: before ``add_meta_graph_and_variables``.
        """
        if self._values is None:
            raise AssertionError("Graph state including variables and assets has not been "
                                 "saved yet. Please invoke `add_meta_graph_and_variables()` "
                                 "first.")
        self._add(get_default_graph(), list(tags), signature_def_map,
                  main_op or legacy_init_op, clear_devices, assets_collection)

    def save(self, as_text: bool = False) -> str:
        """Writes the SavedModel (complete or not at all); returns its ``saved_model.pb``."""
        from flowgrad.train.tensor_bundle import write_bundle
        if self._values is None:
            raise AssertionError("add_meta_graph_and_variables() must be called before "
                                 "save()")
        _write_directory(self._export_dir, self._saved_model, dict(self._values), write_bundle,
                         [(src, name) for name, src in self._assets.items()])
        return os.path.join(self._export_dir, SAVED_MODEL_FILENAME_PB)


def simple_save(session: Any, export_dir: str, inputs: dict, outputs: dict,
                legacy_init_op: Any = None) -> None:
    """Saves ``session``'s graph and variables as a SavedModel for serving: tag ``serve``,
    one ``serving_default`` prediction signature of ``inputs`` and ``outputs``.

    Args:
        session: The session holding the variables' values.
        export_dir: The SavedModel's directory.
        inputs: A dict from names to input tensors.
        outputs: A dict from names to output tensors.
        legacy_init_op: An op to run when the model is loaded.
    """
    b = SavedModelBuilder(export_dir)
    b.add_meta_graph_and_variables(
        session, tags=[SERVING],
        signature_def_map={DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                           predict_signature_def(inputs, outputs)},
        main_op=legacy_init_op, strip_default_attrs=True)
    b.save()
