"""Reading checkpoints without a program: ``tf.train.list_variables``, ``load_variable``,
``load_checkpoint`` (for the files of both ``tf.train.Saver`` and ``tf.train.Checkpoint``,
TensorFlow's or flowgrad's, and flowgrad 0.1.0's)."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.ops.state_ops import EagerVariable, Variable
from flowgrad.train import checkpoint_management as cm
from flowgrad.train.checkpoint_reader import CheckpointReader


def _prefix(ckpt_dir_or_file: str) -> str:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = cm.latest_checkpoint(path)
        if latest is None:
            raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory "
                             "%s" % path)
        return latest
    if not cm.checkpoint_exists(path):
        raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: "
                                   "Failed to find any matching files for %s" % path)
    return path


def load_checkpoint(ckpt_dir_or_file: str) -> CheckpointReader:
    """A reader of the checkpoint (the newest one, given a directory)."""
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file: str) -> list:
    """[(key, shape)] of every value in the checkpoint, sorted by key."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file: str, name: str) -> Any:
    """The value saved under ``name`` (a trailing ':0' is ignored)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def NewCheckpointReader(filepattern: str) -> CheckpointReader:  # noqa: N802 - TF's name
    """A reader of the checkpoint with prefix ``filepattern`` (TF1's
    ``tf.train.NewCheckpointReader``).

    Raises:
        NotFoundError: no checkpoint has this prefix.
    """
    return CheckpointReader(os.fspath(filepattern))


def init_from_checkpoint(ckpt_dir_or_file: str, assignment_map: Any) -> None:
    """Initializes variables from a checkpoint (TF1's ``tf.train.init_from_checkpoint``).

    ``assignment_map`` maps checkpoint names to variables, as TensorFlow's does:
    ``{"ckpt_scope/": "scope/"}`` (every variable of ``scope`` made by ``get_variable``
    from the tensor of the same name under ``ckpt_scope``; ``"/"`` for the root),
    ``{"ckpt_scope/name": "scope/name"}`` or ``{"name": variable}``. In graph mode the
    variables' initializers are replaced, so ``global_variables_initializer()`` loads the
    checkpoint's values; in eager mode they are assigned at once.

    Raises:
        ValueError: a name is not in the checkpoint, a shape does not match, or a scope is
            mapped to a variable name.
    """
    reader = load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    items = assignment_map.items() if isinstance(assignment_map, dict) else assignment_map
    store = {} if executing_eagerly() else get_default_graph()._var_store
    for ckpt_name, current in sorted(items, key=lambda pair: pair[0]):
        var = current if isinstance(current, Variable) else store.get(current)
        if var is not None:
            if ckpt_name not in shapes:
                raise ValueError("Tensor %s is not found in %s checkpoint %s"
                                 % (ckpt_name, ckpt_dir_or_file, shapes))
            if not var.get_shape().is_compatible_with(shapes[ckpt_name]):
                raise ValueError("Shape of variable %s (%s) doesn't match with shape of tensor "
                                 "%s (%s) from checkpoint reader." % (
                                     var.name, var.get_shape(), ckpt_name, shapes[ckpt_name]))
            _initialize_from(var, reader.get_tensor(ckpt_name))
            continue
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not ckpt_name.endswith("/"):
            raise ValueError("Assignment map with scope only name %s should map to scope only "
                             "%s. Should be 'scope/': 'other_scope/'." % (scopes, ckpt_name))
        for var_name in sorted(n for n in store if not scopes or n.startswith(scopes + "/")):
            full = var_name[len(scopes):]
            if current != "/":
                full = full[1:]
            if ckpt_name != "/":
                full = ckpt_name + full
            full = full[:-1] if full.endswith("/") else full
            if full not in shapes:
                raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint" % (
                    full, var_name[len(scopes) + 1:], ckpt_name, ckpt_dir_or_file))
            _initialize_from(store[var_name], reader.get_tensor(full))


def _initialize_from(var: Any, value: Any) -> None:
    value = np.asarray(value)
    if isinstance(var, EagerVariable):
        var.assign(value)
        return
    with get_default_graph().as_default():
        var._initializer_op = var.assign(value).op
        var._initial_value = var._initializer_op.inputs[1]


__all__ = ["CheckpointReader", "NewCheckpointReader", "load_checkpoint", "list_variables",
           "load_variable", "init_from_checkpoint"]
