"""Reading checkpoints without a program: ``tf.train.list_variables``, ``load_variable``,
``load_checkpoint`` (for the files of both ``tf.train.Saver`` and ``tf.train.Checkpoint``,
TensorFlow's or flowgrad's, and flowgrad 0.1.0's)."""
from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.ops.state_ops import EagerVariable, Variable
from flowgrad.train import checkpoint_management as cm
from flowgrad.train.checkpoint_reader import CheckpointReader

_log = logging.getLogger(__name__)


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
    """A reader of the checkpoint (the newest one, given a directory).

    Args:
        ckpt_dir_or_file: A checkpoint's path prefix, or a directory (its newest checkpoint).
    """
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file: str) -> list:
    """[(key, shape)] of every value in the checkpoint, sorted by key.

    Args:
        ckpt_dir_or_file: A checkpoint's path prefix, or a directory (its newest checkpoint).
    """
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file: str, name: str) -> Any:
    """The value saved under ``name`` (a trailing ':0' is ignored).

    Args:
        ckpt_dir_or_file: A checkpoint's path prefix, or a directory (its newest checkpoint).
        name: The name the value is saved under.
    """
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def wait_for_new_checkpoint(checkpoint_dir: str, last_checkpoint: str | None = None,
                            seconds_to_sleep: float = 1, timeout: float | None = None
                            ) -> str | None:
    """Waits until ``checkpoint_dir``'s latest checkpoint is not ``last_checkpoint``; returns
    it, or None after ``timeout`` seconds."""
    _log.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = cm.latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            _log.info("Found new checkpoint at %s", path)
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir: str, min_interval_secs: float = 0,
                         timeout: float | None = None,
                         timeout_fn: Callable[[], bool] | None = None) -> Iterator[str]:
    """Yields each new checkpoint of ``checkpoint_dir`` as it appears, at most one every
    ``min_interval_secs``; stops after ``timeout`` seconds without one unless ``timeout_fn``
    returns False (then it waits again).

    Args:
        checkpoint_dir: The directory to watch.
        min_interval_secs: The shortest time between two yields, in seconds.
        timeout: How long to wait for a new checkpoint, in seconds; None waits forever.
        timeout_fn: Called after a timeout; returning True stops the iteration.
    """
    path = None
    while True:
        new_path = wait_for_new_checkpoint(checkpoint_dir, path, timeout=timeout)
        if new_path is None:
            if not timeout_fn:
                _log.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start = time.time()
        path = new_path
        yield path
        wait = start + min_interval_secs - time.time()
        if wait > 0:
            time.sleep(wait)


def NewCheckpointReader(filepattern: str) -> CheckpointReader:  # noqa: N802 - TF's name
    """A reader of the checkpoint with prefix ``filepattern`` (TF1's
    ``tf.train.NewCheckpointReader``).

    Args:
        filepattern: A checkpoint's path prefix.

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

    Args:
        ckpt_dir_or_file: A checkpoint's path prefix, or a directory (its newest checkpoint).
        assignment_map: A dict from checkpoint names or scopes to variables, variable names or
            scopes.

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
           "load_variable", "init_from_checkpoint", "checkpoints_iterator"]
