"""``Dataset.save`` and ``Dataset.load`` in TensorFlow 2.21's directory format, so datasets
move both ways between flowgrad and TensorFlow.

A saved dataset ``path`` holds ``snapshot.metadata`` (a ``SnapshotMetadataRecord``: run id,
creation time in microseconds, format version 2, the components' dtypes, the number of
elements, finalized), ``dataset_spec.pb`` (the element spec as a ``StructuredValue``) and
``<run id>/<shard:08d>.shard/00000000.snapshot``: a TFRecord file (GZIP or uncompressed) of
each element's components as serialized ``TensorProto``, one record per component. Elements
go to shard 0 unless ``shard_func`` picks one; ``load`` reads the run the metadata names and,
as TensorFlow's default reader, interleaves its shards ``os.cpu_count()`` at a time."""
from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.data.dataset_ops import TRANSFORMS, UNKNOWN, Dataset, _TracedFunction
from flowgrad.data.structure import DatasetSpec, IterationContext, flat_specs, window_component
from flowgrad.framework import dtypes, errors
from flowgrad.runtime.function import TensorSpec

_VERSION = 2
_COMPRESSIONS = {None: "", "": "", "GZIP": "GZIP"}


def _metadata_class() -> Any:
    """TensorFlow's ``SnapshotMetadataRecord`` (tensorflow/core/protobuf/snapshot.proto),
    built from its description (tensorboard's protos do not include it)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    pool = descriptor_pool.DescriptorPool()
    fdp = descriptor_pb2.FileDescriptorProto(name="flowgrad_snapshot.proto",
                                             package="tensorflow.data.experimental")
    msg = fdp.message_type.add(name="SnapshotMetadataRecord")
    f = descriptor_pb2.FieldDescriptorProto
    for name, number, kind, label in (
            ("graph_hash", 1, f.TYPE_STRING, f.LABEL_OPTIONAL),
            ("run_id", 2, f.TYPE_STRING, f.LABEL_OPTIONAL),
            ("creation_timestamp", 3, f.TYPE_INT64, f.LABEL_OPTIONAL),
            ("version", 4, f.TYPE_INT64, f.LABEL_OPTIONAL),
            ("dtype", 5, f.TYPE_INT32, f.LABEL_REPEATED),     # tensorflow.DataType values
            ("num_elements", 6, f.TYPE_INT64, f.LABEL_OPTIONAL),
            ("finalized", 1000, f.TYPE_BOOL, f.LABEL_OPTIONAL)):
        field = msg.field.add(name=name, number=number, type=kind, label=label)
        if label == f.LABEL_REPEATED:
            field.options.packed = True
    pool.Add(fdp)
    return message_factory.GetMessageClass(
        pool.FindMessageTypeByName("tensorflow.data.experimental.SnapshotMetadataRecord"))


def _compression(compression: str | None) -> str:
    if compression not in _COMPRESSIONS:
        raise errors.InvalidArgumentError(None, None, "Unsupported compression_type: %s; "
                                          "use None or 'GZIP'" % (compression,))
    return _COMPRESSIONS[compression]


def _check_specs(spec: Any, path: str) -> list:
    specs = flat_specs(spec)
    for s in nest.flatten(spec):
        if not isinstance(s, TensorSpec):
            raise errors.UnimplementedError(None, None, "Dataset.save(%r): elements with a %s "
                                            "component cannot be saved here (only tensors)"
                                            % (path, type(s).__name__))
    return specs


def save(dataset: Dataset, path: str, compression: str | None = None,
         shard_func: Callable | None = None, checkpoint_args: Any = None) -> None:
    """``dataset.save(path, compression, shard_func)``: see the module docstring.

    Args:
        dataset: The dataset to write (read once to its end).
        path: The directory (created).
        compression: None or ``"GZIP"``.
        shard_func: ``element -> int64 scalar``: the shard an element goes to.
        checkpoint_args: Accepted for TensorFlow's signature; no checkpoints are written.

    Raises:
        InvalidArgumentError: an unknown compression, or a ``shard_func`` that does not
            return an int64 scalar.
    """
    from flowgrad.ops import io_ops, tf_record
    from flowgrad.saved_model import tf_protos, tf_saver
    path = os.fspath(path)
    kind = _compression(compression)
    specs = _check_specs(dataset.element_spec, path)
    shard_of = None
    if shard_func is not None:
        shard_of = _TracedFunction(shard_func, dataset.element_spec, "shard_func")
        out = shard_of.output_spec
        if not isinstance(out, TensorSpec) or out.dtype != dtypes.int64 or out.shape.rank != 0:
            raise errors.InvalidArgumentError(None, None, "`shard_func` must return a scalar "
                                              "int64.")
        shard_of = shard_of.for_iteration()
    run_id = str(secrets.randbits(64))
    writers: dict = {}
    count = 0
    try:
        for flat in dataset._iterate(IterationContext()):
            shard = int(shard_of(flat)[0]) if shard_of is not None else 0
            if shard not in writers:
                directory = os.path.join(path, run_id, "%08d.shard" % shard)
                os.makedirs(directory, exist_ok=True)
                writers[shard] = tf_record.TFRecordWriter(
                    os.path.join(directory, "00000000.snapshot"), kind or None)
            for s, value in zip(specs, flat):
                writers[shard].write(io_ops.tensor_proto_bytes(np.asarray(value), s.dtype))
            count += 1
    finally:
        for w in writers.values():
            w.close()
    os.makedirs(path, exist_ok=True)
    spec_value = tf_saver._structure(dataset.element_spec, tf_saver._spec_value)
    with open(os.path.join(path, "dataset_spec.pb"), "wb") as f:
        f.write(spec_value.SerializeToString())
    meta = _metadata_class()(run_id=run_id, creation_timestamp=int(time.time() * 1e6),
                             version=_VERSION, num_elements=count, finalized=True)
    meta.dtype.extend(tf_protos.data_type(s.dtype) for s in specs)
    with open(os.path.join(path, "snapshot.metadata"), "wb") as f:
        f.write(meta.SerializeToString())


class _LoadDataset(Dataset):
    """The elements of a saved dataset, read by ``reader_func`` from its shards."""

    def __init__(self, path: str, element_spec: Any, compression: str,
                 reader_func: Callable | None):
        self._path = path
        meta = _metadata_class()()
        with open(os.path.join(path, "snapshot.metadata"), "rb") as f:
            meta.ParseFromString(f.read())
        self._count = meta.num_elements if meta.finalized else UNKNOWN
        self._run = os.path.join(path, meta.run_id)
        self._kind = compression
        if reader_func is None:
            def reader_func(datasets: Dataset) -> Dataset:
                return datasets.interleave(lambda x: x, cycle_length=os.cpu_count() or 1)
        shards = sorted(d for d in os.listdir(self._run) if d.endswith(".shard")) \
            if os.path.isdir(self._run) else []
        shard_datasets = _ShardList(element_spec, [self._read_shard(s, element_spec)
                                                   for s in shards])
        self._reader = reader_func(shard_datasets)
        super().__init__(self._reader.element_spec)

    def _read_shard(self, shard: str, spec: Any) -> list:
        from flowgrad.ops import io_ops, tf_record
        specs = flat_specs(spec)
        directory = os.path.join(self._run, shard)
        elements, flat = [], []
        for name in sorted(os.listdir(directory)):
            for record in tf_record.iterate_records(os.path.join(directory, name), self._kind):
                dt = specs[len(flat)].dtype
                flat.append(io_ops._parse_tensor_kernel(np.array(record, object), out_type=dt))
                if len(flat) == len(specs):
                    elements.append(flat)
                    flat = []
        return elements

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        return self._reader._iterate(ctx)

    def _cardinality(self) -> int:
        return self._count


class _ShardList(Dataset):
    """The shards of a saved dataset as a dataset of datasets (``reader_func``'s input)."""

    def __init__(self, element_spec: Any, shards: list):
        super().__init__(DatasetSpec(element_spec))
        self._shards = shards

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        return iter([window_component(elements)] for elements in self._shards)

    def _cardinality(self) -> int:
        return len(self._shards)


def _sorted_dicts(spec: Any) -> Any:
    """``spec`` with its dicts in key order (as TensorFlow's decoded element specs)."""
    if isinstance(spec, dict):
        return {k: _sorted_dicts(spec[k]) for k in sorted(spec)}
    if isinstance(spec, (tuple, list)):
        return type(spec)(_sorted_dicts(x) for x in spec)
    return spec


def load(path: str, element_spec: Any = None, compression: str | None = None,
         reader_func: Callable | None = None, wait: bool = False) -> Dataset:
    """``tf.data.Dataset.load``: a dataset saved by ``Dataset.save`` (flowgrad's or
    TensorFlow's).

    Args:
        path: The directory ``save`` wrote.
        element_spec: The element spec (default: the saved ``dataset_spec.pb``).
        compression: None or ``"GZIP"``, as saved.
        reader_func: ``dataset of shard datasets -> dataset`` (default: an interleave of
            ``os.cpu_count()`` shards at a time).
        wait: Accepted for TensorFlow's signature (the save is complete when it returns).

    Returns:
        A ``_LoadDataset``.

    Raises:
        NotFoundError: ``path`` holds no saved dataset.
    """
    path = os.fspath(path)
    kind = _compression(compression)
    if element_spec is None:
        spec_file = os.path.join(path, "dataset_spec.pb")
        if not os.path.exists(spec_file):
            raise errors.NotFoundError(None, None, "tf.data snapshot element_spec file not "
                                       "found: %s." % spec_file)
        from flowgrad.saved_model import tf_loader, tf_protos
        value = tf_protos.pb().struct_pb2.StructuredValue()
        with open(spec_file, "rb") as f:
            value.ParseFromString(f.read())
        element_spec = _sorted_dicts(tf_loader.decode_structure(value))
    if not os.path.exists(os.path.join(path, "snapshot.metadata")):
        raise errors.NotFoundError(None, None, "tf.data snapshot metadata file not found: "
                                   "%s." % os.path.join(path, "snapshot.metadata"))
    return _LoadDataset(path, element_spec, kind, reader_func)


TRANSFORMS.update(save=save, load=load)

__all__ = ["load", "save"]
