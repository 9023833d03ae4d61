"""``tf.train.Saver``: saves variables to checkpoints and restores them.

A checkpoint ``<prefix>`` is TensorFlow's tensor bundle (``<prefix>.index`` and
``<prefix>.data-00000-of-00001``, see ``tensor_bundle.py``) with one tensor per variable,
keyed by the variable's name (``eval_net/w``) or by the names of a ``var_list`` dict, so
TensorFlow's Saver restores flowgrad's checkpoints and flowgrad restores TensorFlow's
(a partitioned variable's slices are assembled into the whole variable; the parts of
flowgrad's partitioned variables are saved as slices of their full variable, under its
name, and each part restores its region of a whole or sliced tensor). Every save writes
temporary files, flushes them to disk and renames them into place (the index last), and
only then updates the directory's ``checkpoint`` state file, so a save that fails half-way
leaves the previous checkpoint and state untouched. The temporary files of killed saves of
the same prefix are removed by the next save (a concurrent writer's file, which its writer
keeps locked, is not). ``restore`` reads and checks the whole checkpoint (present,
readable, matching names, shapes and dtypes) before it assigns any variable; it also reads
flowgrad 0.1.0's ``<prefix>.npz`` checkpoints."""
from __future__ import annotations

import contextlib
import logging
import os
import time
import warnings
from typing import Any

import numpy as np

from flowgrad.debug import tf_logging
from flowgrad.framework import errors, hooks
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.partitioned_variables import PartitionedVariable, save_slice_info
from flowgrad.ops.state_ops import Variable, global_variables
from flowgrad.train import checkpoint_management as cm
from flowgrad.train.checkpoint_reader import CheckpointReader
from flowgrad.train.tensor_bundle import write_bundle
from flowgrad.train.training_util import global_step as global_step_value

_log = logging.getLogger(__name__)


def _var_name(v: Any) -> str:
    name = v.name
    return name[:-2] if name.endswith(":0") else name


def _var_map(var_list: Any) -> dict:
    """{checkpoint name: variable, or the list of a partitioned variable's parts} for a
    list or dict of variables (parts are saved under their full variable's name)."""
    if isinstance(var_list, dict):
        items = list(var_list.items())
    else:
        items = [(None, v) for v in var_list]
    out: dict = {}
    for name, v in items:
        if isinstance(v, PartitionedVariable):
            name = v.name if name is None else name
            if name in out:
                raise ValueError("At least two variables have the same name: %s" % name)
            out[name] = list(v)
            continue
        if not isinstance(v, Variable):
            raise TypeError("Variable to save is not a Variable: %r" % (v,))
        info = save_slice_info(v)
        if info is not None:
            full = info.full_name if name is None else name
            parts = out.setdefault(full, [])
            if not isinstance(parts, list):
                raise ValueError("At least two variables have the same name: %s" % full)
            parts.append(v)
            continue
        name = _var_name(v) if name is None else name
        if name in out:
            raise ValueError("At least two variables have the same name: %s" % name)
        out[name] = v
    return out


def _parts(entry: Any) -> list:
    return entry if isinstance(entry, list) else [entry]


class Saver:
    """Saves and restores variables (all global variables by default).

    ``max_to_keep`` newest checkpoints are kept (None or 0 keeps all); one
    checkpoint every ``keep_checkpoint_every_n_hours`` is kept in addition. The
    arguments of TensorFlow's Saver that shape its graph ops and file layout
    (reshape, sharded, saver_def, builder, write_version, filename ...) are accepted
    and have no effect; the state file holds the paths as given (absolute ones stay
    absolute) unless ``save_relative_paths``, as TensorFlow writes it.

    Args:
        var_list: The variables to save: a list, or a dict from names to variables; all global (and
            saveable) variables when None.
        reshape: Accepted for TensorFlow's signature.
        sharded: Accepted for TensorFlow's signature.
        max_to_keep: How many of the newest checkpoints to keep; None or 0 keeps all.
        keep_checkpoint_every_n_hours: Also keep one checkpoint per this many hours.
        name: The name of the saver's ops.
        restore_sequentially: Accepted for TensorFlow's signature.
        saver_def: Accepted for TensorFlow's signature.
        builder: Accepted for TensorFlow's signature.
        defer_build: Accepted for TensorFlow's signature.
        allow_empty: Whether a saver with no variables is allowed (else ValueError).
        write_version: Accepted for TensorFlow's signature (always the V2 format).
        pad_step_number: Whether the step in a checkpoint's name is zero-padded to 8 digits.
        save_relative_paths: Whether the state file holds paths relative to its directory.
        filename: Accepted for TensorFlow's signature.
    """

    def __init__(self, var_list: Any = None, reshape: bool = False, sharded: bool = False,
                 max_to_keep: int | None = 5, keep_checkpoint_every_n_hours: float = 10000.0,
                 name: str | None = None, restore_sequentially: bool = False,
                 saver_def: Any = None, builder: Any = None, defer_build: bool = False,
                 allow_empty: bool = False, write_version: int = 2,
                 pad_step_number: bool = False, save_relative_paths: bool = False,
                 filename: str | None = None):
        if var_list is None:
            if executing_eagerly():
                raise RuntimeError("When eager execution is enabled, `var_list` must specify a "
                                   "list or dict of variables to save")
            var_list = global_variables()
        self._var_map = _var_map(var_list)
        if not self._var_map and not allow_empty:
            raise ValueError("No variables to save")
        self._max_to_keep = max_to_keep
        self._keep_every_s = keep_checkpoint_every_n_hours * 3600.0
        self._next_kept_time = time.time() + self._keep_every_s
        self._pad_step_number = pad_step_number
        self._save_relative_paths = save_relative_paths
        self._last_checkpoints: list = []   # [(prefix, time saved)], oldest first

    @property
    def last_checkpoints(self) -> list:
        """The prefixes of the checkpoints this Saver keeps, oldest first."""
        return [p for p, _ in self._last_checkpoints]

    def recover_last_checkpoints(self, checkpoint_paths: list) -> None:
        """Adopts existing checkpoints (e.g. after a restart) so that max_to_keep covers them."""
        now = time.time()
        self._last_checkpoints = [(p, now) for p in checkpoint_paths
                                  if cm.checkpoint_exists(p)]

    # -- saving -----------------------------------------------------------------------
    def save(self, sess: Any, save_path: str, global_step: Any = None,
             latest_filename: str | None = None, meta_graph_suffix: str = "meta",
             write_meta_graph: bool = True, write_state: bool = True,
             strip_default_attrs: bool = False, save_debug_info: bool = False) -> str:
        """Saves the variables to ``save_path`` (``save_path-<step>`` with ``global_step``).

        Returns the checkpoint's prefix, for ``restore``. With ``write_meta_graph`` (the
        default) in graph mode, the graph is also written as ``<prefix>.meta`` (a
        MetaGraphDef, for ``tf.compat.v1.train.import_meta_graph``), as TensorFlow does; a graph
        holding an op TensorFlow's format cannot express gets a warning and no ``.meta``.

        Raises:
            ValueError: the directory of ``save_path`` does not exist, nor its parent
                (TensorFlow makes one missing directory level).
            ImportError: the optional packages of TensorFlow's format are missing
                (``pip install flowgrad[tf-formats]``)."""
        prefix = os.path.basename(save_path)
        if global_step is not None:
            step = global_step if isinstance(global_step, (int, np.integer)) \
                else global_step_value(sess, global_step)
            save_path = ("%s-%08d" if self._pad_step_number else "%s-%d") % (save_path,
                                                                            int(step))
        save_dir = os.path.dirname(save_path) or "."
        if not os.path.isdir(save_dir):
            # TensorFlow's SaveV2 makes a missing directory whose parent exists
            if not os.path.isdir(os.path.dirname(os.path.abspath(save_dir))):
                raise ValueError("Parent directory of %s doesn't exist, can't save."
                                 % save_path)
            os.makedirs(save_dir, exist_ok=True)
        names = list(self._var_map)
        variables = [v for n in names for v in _parts(self._var_map[n])]
        if executing_eagerly():
            values = [v.numpy() for v in variables]
        else:
            values = sess.run(variables)
        value_of = dict(zip(map(id, variables), values))
        arrays, slices = {}, {}
        for n in names:
            entry = self._var_map[n]
            if isinstance(entry, list):       # a partitioned variable: its parts as slices
                slices[n] = (save_slice_info(entry[0]).full_shape,
                             [(save_slice_info(v).var_offset, value_of[id(v)]) for v in entry])
            else:
                arrays[n] = value_of[id(entry)]
        cm.remove_orphan_temp_files(save_dir, prefix)   # of saves (any step) that were killed
        write_bundle(save_path, arrays, slices=slices)
        self._meta_suffix = meta_graph_suffix
        if write_meta_graph and not executing_eagerly():
            self._write_meta_graph(sess, "%s.%s" % (save_path, meta_graph_suffix))
        if write_state:
            dropped = self._record(save_path)
            cm.update_checkpoint_state(save_dir, save_path, self.last_checkpoints,
                                       latest_filename,
                                       save_relative_paths=self._save_relative_paths)
            self._delete(dropped)
        return save_path

    def _write_meta_graph(self, sess: Any, filename: str) -> None:
        """Writes the session's graph as ``filename`` (TF1's ``.meta``), or warns why not."""
        graph = getattr(sess, "graph", None)
        try:
            hooks.export_meta_graph(filename=filename, graph=graph)
        except (ValueError, errors.UnimplementedError) as e:
            warnings.warn("Saver.save wrote the checkpoint %s but no meta graph: %s"
                          % (filename[:-len(".meta")], e), stacklevel=3)

    def _record(self, path: str) -> list:
        """Adds ``path`` to the kept checkpoints; returns those that max_to_keep drops."""
        if not self._max_to_keep:
            return []
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != path]
        self._last_checkpoints.append((path, time.time()))
        n_drop = max(len(self._last_checkpoints) - self._max_to_keep, 0)
        dropped = self._last_checkpoints[:n_drop]
        del self._last_checkpoints[:n_drop]
        return dropped

    def _delete(self, dropped: list) -> None:
        """Deletes dropped checkpoints, except one every keep_checkpoint_every_n_hours."""
        for path, saved in dropped:
            if saved > self._next_kept_time:
                self._next_kept_time += self._keep_every_s
                continue
            cm.remove_checkpoint(path)
            # and its meta graph, as TensorFlow's Saver deletes it with the checkpoint
            with contextlib.suppress(FileNotFoundError):
                os.remove("%s.%s" % (path, getattr(self, "_meta_suffix", "meta")))

    # -- restoring --------------------------------------------------------------------
    def restore(self, sess: Any, save_path: str) -> None:
        """Restores every variable from the checkpoint ``save_path``.

        Raises (and changes no variable) when the checkpoint is missing
        (ValueError), is a directory or cannot be read (DataLossError), lacks variables
        (NotFoundError) or holds values of another shape or dtype
        (InvalidArgumentError)."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        if not self._var_map:
            return
        if os.path.isdir(save_path):        # TensorFlow's reader fails on the directory
            raise errors.DataLossError(None, None, "Unable to open table file %s: Failed "
                                       "precondition: %s; Is a directory (pass "
                                       "tf.train.latest_checkpoint(dir) for the checkpoint in "
                                       "a directory)" % (save_path, save_path))
        if not cm.checkpoint_exists(save_path):
            raise ValueError("The passed save_path is not a valid checkpoint: %s" % save_path)
        tf_logging.info("Restoring parameters from %s", save_path)
        reader = CheckpointReader(save_path)
        arrays = self._read(reader, save_path)
        for name, entry in self._var_map.items():
            for v in _parts(entry):
                value = arrays[name]
                info = save_slice_info(v)
                if isinstance(entry, list):         # this part's region of the full value
                    value = value[tuple(slice(o, o + n) for o, n in
                                        zip(info.var_offset, info.var_shape))]
                if executing_eagerly():
                    v.assign(value)
                else:
                    v.load(value, session=sess)

    def _read(self, reader: CheckpointReader, path: str) -> dict:
        """{name: value} of every variable, checked against the variables."""
        missing = [n for n in self._var_map if not reader.has_tensor(n)]
        if missing:
            raise errors.NotFoundError(None, None, "Key%s %s not found in checkpoint %s" % (
                "s" if len(missing) > 1 else "", ", ".join(missing), path))
        problems = []
        arrays = {}
        for name, entry in self._var_map.items():
            a = arrays[name] = np.asarray(reader.get_tensor(name))
            v = _parts(entry)[0]
            if isinstance(entry, list):     # a partitioned variable: the full shape
                shape = TensorShape(save_slice_info(v).full_shape)
            else:
                shape = v.shape
            want = v.dtype.base_dtype
            if a.dtype != want.np:
                problems.append("tensor_name = %s; expected dtype %s does not equal original "
                                "dtype %s" % (name, want.name, a.dtype.name))
            elif not shape.is_compatible_with(a.shape):
                problems.append("tensor_name = %s; shape of the variable %s does not match the "
                                "shape stored in checkpoint: %s" % (name, shape,
                                                                    list(a.shape)))
        if problems:
            raise errors.InvalidArgumentError(None, None, "Restoring from checkpoint %s failed "
                                              "(no variable was changed):\n%s"
                                              % (path, "\n".join(problems)))
        return arrays
