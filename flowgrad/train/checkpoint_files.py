"""TensorFlow 1's helpers on a checkpoint's files: ``get_checkpoint_mtimes`` and
``remove_checkpoint`` (V2 checkpoints are ``<prefix>.index`` and ``<prefix>.data-*``, V1 ones
the prefix itself, as in TensorFlow's ``checkpoint_management.py``)."""
from __future__ import annotations

import glob
import os
import re

from flowgrad.debug import tf_logging

V1 = 1
V2 = 2


def get_checkpoint_mtimes(checkpoint_prefixes: list) -> list:
    """The modification times of the checkpoints that exist (V2 files first, then V1).

    Args:
        checkpoint_prefixes: Checkpoint prefixes, as ``Saver.save`` or
            ``tf.train.latest_checkpoint`` return them.

    Returns:
        The mtimes, in seconds since the epoch, of the checkpoints found (missing ones are
        left out, so the list may be shorter).
    """
    mtimes = []

    def match_maybe_append(pathname: str) -> bool:
        names = sorted(glob.glob(pathname))
        if names:
            mtimes.append(os.stat(names[0]).st_mtime_ns / 1e9)
            return True
        return False

    for prefix in checkpoint_prefixes:
        if not match_maybe_append(prefix + ".index"):
            match_maybe_append(prefix)
    return mtimes


def remove_checkpoint(checkpoint_prefix: str, checkpoint_format_version: int = V2,
                      meta_graph_suffix: str = "meta") -> None:
    """Deletes a checkpoint's files (and its meta graph), ignoring those already gone.

    Args:
        checkpoint_prefix: The checkpoint's prefix.
        checkpoint_format_version: ``tf.train.SaverDef.V2`` (2, the default) or ``V1`` (1).
        meta_graph_suffix: The suffix of the meta graph file.
    """
    base = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_prefix)
    _delete_if_exists(base + "." + meta_graph_suffix)
    if checkpoint_format_version == V2:
        _delete_if_exists(checkpoint_prefix + ".index")
        _delete_if_exists(checkpoint_prefix + ".data-?????-of-?????")
    else:
        _delete_if_exists(checkpoint_prefix)


def _delete_if_exists(pattern: str) -> None:
    for path in glob.glob(pattern):
        try:
            os.remove(path)
        except FileNotFoundError:
            tf_logging.warning("Hit NotFoundError when deleting '%s', possibly because another "
                               "process/thread is also deleting/moving the same file", path)
