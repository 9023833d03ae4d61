"""The ``checkpoint`` state file of a checkpoint directory, and atomic file writes.

The state file is TensorFlow's ``CheckpointState`` proto in text format, one field a line::

    model_checkpoint_path: "model.ckpt-20"
    all_model_checkpoint_paths: "model.ckpt-10"
    all_model_checkpoint_paths: "model.ckpt-20"
    all_model_checkpoint_timestamps: 1795744606.69
    all_model_checkpoint_timestamps: 1795744606.92
    last_preserved_timestamp: 1795744605.08

Strings are quoted with C escapes (as protobuf's text format writes them). Paths are
written relative to the directory and returned joined with it (absolute ones, as
TensorFlow's Saver writes by default, as they are)."""
from __future__ import annotations

import codecs
import contextlib
import logging
import os
import tempfile
import time
from collections.abc import Callable
from typing import IO, Any, NamedTuple

INDEX_SUFFIX = ".index"          # TensorFlow's tensor bundle (tensor_bundle.py)
LEGACY_SUFFIX = ".npz"           # flowgrad 0.1.0's checkpoints (checkpoint_reader.py)
STATE_FILENAME = "checkpoint"
TEMP_SUFFIX = ".tmp"
_ORPHAN_AGE_S = 5.0     # younger temp files may belong to a writer that has not locked yet

_log = logging.getLogger(__name__)


class CheckpointState(NamedTuple):
    """The latest checkpoint of a directory and all those still kept (oldest first)."""

    model_checkpoint_path: str
    all_model_checkpoint_paths: list
    all_model_checkpoint_timestamps: list = []
    last_preserved_timestamp: float = 0.0


def write_atomically(path: str, write: Callable[[IO[bytes]], Any]) -> None:
    """Writes ``path`` through ``write(file)`` so that it is either complete or untouched.

    The data goes to a hidden temporary file in the same directory (locked while it is
    written), is flushed to disk, then renamed over ``path``; on any error the temporary
    file is removed. Orphans of ``path`` left by a killed writer are removed first."""
    write_files_atomically([(path, write)])


def write_files_atomically(files: list) -> None:
    """Writes several files ``[(path, write)]`` (in one directory) so that none is touched
    unless all were written: each goes to a temporary file first (as in
    ``write_atomically``), and only when all are on disk are they renamed into place, in
    the order given (so the last one, e.g. a checkpoint's index, commits the set)."""
    temps: list = []
    opened: list = []           # kept open (so locked) until renamed
    try:
        for path, write in files:
            directory = os.path.dirname(path) or "."
            fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                                       suffix=TEMP_SUFFIX)
            temps.append(tmp)
            f = os.fdopen(fd, "wb")
            opened.append(f)
            with contextlib.suppress(OSError, AttributeError):   # no fchmod on Windows
                os.fchmod(fd, 0o666 & ~_umask())    # as open() makes files, not 0600
            _lock(fd, blocking=True)
            remove_orphan_temp_files(directory, os.path.basename(path) + ".")
            write(f)
            f.flush()
            os.fsync(fd)
        for (path, _), tmp in zip(files, temps):
            os.replace(tmp, path)
    except BaseException:
        for f in opened:
            f.close()
        for tmp in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    for f in opened:
        f.close()
    for directory in {os.path.dirname(path) or "." for path, _ in files}:
        _fsync_directory(directory)


def remove_orphan_temp_files(directory: str, stem: str) -> list:
    """Removes the hidden temporary files ``.<stem>*.tmp`` of ``directory`` that no writer
    holds (their save was killed); returns their paths.

    A writer holds an exclusive lock on its temporary file while it writes it, so a live
    writer's file is never removed (without ``fcntl``, the platform refuses to remove an
    open file); files younger than a few seconds are left for their writer too."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for name in names:
        if not (name.startswith("." + stem) and name.endswith(TEMP_SUFFIX)):
            continue
        p = os.path.join(directory, name)
        with contextlib.suppress(OSError):
            if time.time() - os.stat(p).st_mtime < _ORPHAN_AGE_S:
                continue
            fd = os.open(p, os.O_RDONLY)
            try:
                free = _lock(fd, blocking=False)
            finally:
                os.close(fd)
            if free:    # its writer is gone (nobody reopens a temp file by name)
                os.unlink(p)
                removed.append(p)
    if removed:
        _log.info("Removed temporary files of killed checkpoint writes: %s", removed)
    return removed


def _umask() -> int:
    """The process's umask (read without changing it where /proc allows)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _lock(fd: int, blocking: bool) -> bool:
    """Takes the exclusive advisory lock of an open file; False if another process holds it."""
    try:
        import fcntl
    except ImportError:     # no advisory locks (Windows): an open file cannot be removed there
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except OSError:
        return False
    return True


def _fsync_directory(directory: str) -> None:
    """Makes a rename in ``directory`` durable (where the platform allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _state_path(checkpoint_dir: str, latest_filename: str | None) -> str:
    return os.path.join(checkpoint_dir, latest_filename or STATE_FILENAME)


def _quote(text: str) -> str:
    """A text-format string literal (C escapes; bytes beyond ASCII as octal)."""
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        if c in "\\\"'":
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


def _unquote(literal: str) -> str:
    if len(literal) < 2 or literal[0] not in "\"'" or literal[-1] != literal[0]:
        raise ValueError("expected a quoted string, got %s" % literal)
    raw, _ = codecs.escape_decode(literal[1:-1].encode("utf-8"))
    return raw.decode("utf-8")


def update_checkpoint_state(save_dir: str, model_checkpoint_path: str,
                            all_model_checkpoint_paths: list | None = None,
                            latest_filename: str | None = None,
                            all_model_checkpoint_timestamps: list | None = None,
                            last_preserved_timestamp: float | None = None,
                            save_relative_paths: bool = False) -> None:
    """Writes the state file of ``save_dir`` (atomically), as TensorFlow does: paths as
    given (a relative one relative to ``save_dir``), or with ``save_relative_paths`` (what
    ``tf.train.Checkpoint`` and ``CheckpointManager`` use) every path relative to it.

    Args:
        save_dir: The directory of the state file.
        model_checkpoint_path: The newest checkpoint's prefix.
        all_model_checkpoint_paths: The prefixes of every checkpoint kept, oldest first.
        latest_filename: The state file's name; ``checkpoint`` when None.
        all_model_checkpoint_timestamps: The times the kept checkpoints were written.
        last_preserved_timestamp: When the last checkpoint kept by ``keep_checkpoint_every_n_hours``
            was written.
        save_relative_paths: Whether absolute paths are written relative to ``save_dir``.
    """
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)

    def rel(p: str) -> str:
        if os.path.isabs(p) and not save_relative_paths:
            return p
        return os.path.relpath(os.path.abspath(p), os.path.abspath(save_dir))
    lines = ["model_checkpoint_path: %s" % _quote(rel(model_checkpoint_path))]
    lines += ["all_model_checkpoint_paths: %s" % _quote(rel(p)) for p in paths]
    lines += ["all_model_checkpoint_timestamps: %r" % float(t)
              for t in all_model_checkpoint_timestamps or []]
    if last_preserved_timestamp is not None:
        lines.append("last_preserved_timestamp: %r" % float(last_preserved_timestamp))
    text = ("\n".join(lines) + "\n").encode("utf-8")
    write_atomically(_state_path(save_dir, latest_filename), lambda f: f.write(text))


def get_checkpoint_state(checkpoint_dir: str,
                         latest_filename: str | None = None) -> CheckpointState | None:
    """The state of ``checkpoint_dir`` from its state file, or None if there is none (or it
    cannot be parsed, which is logged).

    Args:
        checkpoint_dir: The directory holding the state file.
        latest_filename: The state file's name; ``checkpoint`` when None.
    """
    path = _state_path(checkpoint_dir, latest_filename)
    if not os.path.isfile(path):
        return None
    latest = None
    kept: list = []
    times: list = []
    preserved = 0.0
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                key, sep, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if not sep:
                    raise ValueError("line %d: unexpected %r" % (n, line.strip()))
                if key in ("model_checkpoint_path", "all_model_checkpoint_paths"):
                    p = _unquote(value)
                    if not os.path.isabs(p):
                        p = os.path.join(checkpoint_dir, p)
                    if key == "model_checkpoint_path":
                        latest = p
                    else:
                        kept.append(p)
                elif key == "all_model_checkpoint_timestamps":
                    times.append(float(value))
                elif key == "last_preserved_timestamp":
                    preserved = float(value)
                else:
                    raise ValueError("line %d: unknown field %r" % (n, key))
    except (ValueError, UnicodeDecodeError) as e:
        _log.warning("%s: %s", type(e).__name__, e)
        _log.warning("%s: Checkpoint ignored", path)
        return None
    if latest is None:
        _log.warning("%s has no model_checkpoint_path: Checkpoint ignored", path)
        return None
    return CheckpointState(latest, kept, times, preserved)


def checkpoint_exists(checkpoint_prefix: str) -> bool:
    """Whether a checkpoint with this prefix (as returned by ``Saver.save``) exists: its
    ``.index`` (TensorFlow's format) or a flowgrad 0.1.0 ``.npz`` file.

    Args:
        checkpoint_prefix: A checkpoint's path prefix.
    """
    prefix = os.fspath(checkpoint_prefix)
    return os.path.isfile(prefix + INDEX_SUFFIX) or os.path.isfile(prefix + LEGACY_SUFFIX)


def checkpoint_files(prefix: str) -> list:
    """The files of the checkpoint ``prefix`` that exist (its index and data shards, or its
    flowgrad 0.1.0 file)."""
    prefix = os.fspath(prefix)
    directory = os.path.dirname(prefix) or "."
    base = os.path.basename(prefix)
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    return sorted(os.path.join(directory, n) for n in names
                  if n in (base + INDEX_SUFFIX, base + LEGACY_SUFFIX)
                  or (n.startswith(base + ".data-") and "-of-" in n))


def remove_checkpoint(prefix: str) -> None:
    """Deletes the files of the checkpoint ``prefix`` (the index first, so a half-deleted
    checkpoint is never taken for a whole one)."""
    for path in sorted(checkpoint_files(prefix), key=lambda p: not p.endswith(INDEX_SUFFIX)):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        except OSError as e:
            _log.warning("Ignoring: %s", e)


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The path of the newest checkpoint in ``checkpoint_dir`` (None if there is none).

    Args:
        checkpoint_dir: The directory holding the state file.
        latest_filename: The state file's name; ``checkpoint`` when None.
    """
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None:
        return None
    if checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    _log.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
    return None
