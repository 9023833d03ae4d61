"""``tf.io.gfile``: TensorFlow's file API on the local file system, with TensorFlow's error
classes and messages (NotFoundError "<path>; No such file or directory", ...)."""
from __future__ import annotations

import errno
import glob as _glob
import os
import shutil
from collections.abc import Iterator
from typing import Any

from flowgrad.framework import errors
from flowgrad.framework.type_hints import TensorLike


def _path(name: Any) -> str:
    """A path given as str, bytes or os.PathLike, as text."""
    name = os.fspath(name)
    return name.decode("utf-8") if isinstance(name, bytes) else name


def os_error(e: OSError, path: str) -> errors.OpError:
    """TensorFlow's error class and message for an OSError on ``path``."""
    cls = {errno.ENOENT: errors.NotFoundError, errno.EEXIST: errors.AlreadyExistsError,
           errno.EACCES: errors.PermissionDeniedError, errno.EPERM: errors.PermissionDeniedError,
           errno.EISDIR: errors.FailedPreconditionError,
           errno.ENOTDIR: errors.FailedPreconditionError}.get(e.errno, errors.UnknownError)
    return cls(None, None, "%s; %s" % (path, e.strerror or e))


class GFile:
    """A file (``tf.io.gfile.GFile``): opened on first use; text in modes without "b".

    Args:
        name: The file's path.
        mode: As ``open``'s: ``"r"``, ``"w"``, ``"a"``, with ``"b"`` for bytes.
    """

    def __init__(self, name: Any, mode: str = "r"):
        self.name = _path(name)
        self.mode = mode
        self._f: Any = None

    def _file(self, reading: bool) -> Any:
        if reading and not any(c in self.mode for c in "r+"):
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        if not reading and not any(c in self.mode for c in "wa+"):
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        if self._f is None:
            binary = self.mode if "b" in self.mode else self.mode + "b"
            try:
                self._f = open(self.name, binary)   # noqa: SIM115 - closed by close()
            except OSError as e:
                raise os_error(e, self.name) from None
        return self._f

    def _text(self, data: bytes) -> Any:
        return data if "b" in self.mode else data.decode("utf-8")

    def read(self, n: int = -1) -> Any:
        """Up to ``n`` bytes (all if -1): ``str`` in text mode, ``bytes`` in binary mode."""
        return self._text(self._file(True).read(n))

    def readline(self) -> Any:
        return self._text(self._file(True).readline())

    def readlines(self) -> list:
        return [self._text(line) for line in self._file(True).readlines()]

    def __iter__(self) -> Iterator[Any]:
        return (self._text(line) for line in self._file(True))

    def __next__(self) -> Any:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def write(self, file_content: Any) -> None:
        """Writes ``str`` (UTF-8) or ``bytes``."""
        f = self._file(False)
        f.write(file_content.encode("utf-8") if isinstance(file_content, str)
                else bytes(file_content))

    def seek(self, offset: int | None = None, whence: int = 0, position: int | None = None) -> int:
        return self._file("r" in self.mode).seek(position if offset is None else offset, whence)

    def tell(self) -> int:
        return self._file("r" in self.mode).tell()

    def size(self) -> int:
        return stat(self.name).length

    def flush(self) -> None:
        if self._f is not None:
            self._f.flush()

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return any(c in self.mode for c in "r+")

    def writable(self) -> bool:
        return any(c in self.mode for c in "wa+")

    def __enter__(self) -> GFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class FileStatistics:
    """What ``stat`` returns: ``length``, ``mtime_nsec`` and ``is_directory``."""

    def __init__(self, length: int, mtime_nsec: int, is_directory: bool):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory


def exists(path: str) -> bool:
    """Whether ``path`` exists.

    Args:
        path: A path: a string, bytes or ``os.PathLike``.
    """
    return os.path.exists(_path(path))


def isdir(path: str) -> bool:
    """Whether ``path`` is a directory.

    Args:
        path: A path: a string, bytes or ``os.PathLike``.
    """
    return os.path.isdir(_path(path))


def glob(pattern: TensorLike) -> list:
    """The paths matching ``pattern`` (a shell glob, or a list of them), sorted.

    Args:
        pattern: A shell glob pattern, or a list of them.
    """
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    return sorted({m for p in patterns for m in _glob.glob(_path(p))})


def mkdir(path: str) -> None:
    """Creates the directory ``path`` (its parent must exist; an existing one is kept).

    Args:
        path: The directory to create.

    Raises:
        NotFoundError: the parent directory does not exist.
    """
    p = _path(path)
    try:
        os.mkdir(p)
    except FileExistsError:
        if not os.path.isdir(p):
            raise errors.AlreadyExistsError(None, None, "%s; File exists" % p) from None
    except OSError as e:
        raise os_error(e, p) from None


def makedirs(path: str) -> None:
    """Creates ``path`` and its missing parents.

    Args:
        path: The directory to create.
    """
    p = _path(path)
    try:
        os.makedirs(p, exist_ok=True)
    except OSError as e:
        raise os_error(e, p) from None


def listdir(path: str) -> list:
    """The names in directory ``path``.

    Args:
        path: A directory's path.

    Raises:
        NotFoundError: ``path`` is not a directory.
    """
    p = _path(path)
    if not os.path.isdir(p):
        raise errors.NotFoundError(None, None, "Could not find directory %s" % p)
    return os.listdir(p)


def remove(path: str) -> None:
    """Deletes the file ``path``.

    Args:
        path: The file to delete.
    """
    p = _path(path)
    try:
        os.remove(p)
    except OSError as e:
        raise os_error(e, p) from None


def rmtree(path: str) -> None:
    """Deletes ``path`` and everything under it.

    Args:
        path: The directory to delete.
    """
    p = _path(path)
    if not os.path.exists(p):
        raise errors.NotFoundError(None, None, "%s not found" % p)
    try:
        shutil.rmtree(p)
    except OSError as e:
        raise os_error(e, p) from None


def _check_target(dst: str, overwrite: bool) -> None:
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")


def rename(src: Any, dst: Any, overwrite: bool = False) -> None:
    """Renames ``src`` to ``dst``.

    Args:
        src: The file or directory to rename.
        dst: Its new path.
        overwrite: Whether to replace an existing ``dst``.

    Raises:
        AlreadyExistsError: ``dst`` exists and ``overwrite`` is False.
    """
    s, d = _path(src), _path(dst)
    _check_target(d, overwrite)
    try:
        os.replace(s, d)
    except OSError as e:
        raise os_error(e, s) from None


def copy(src: Any, dst: Any, overwrite: bool = False) -> None:
    """Copies the file ``src`` to ``dst``.

    Args:
        src: The file to copy.
        dst: The path of the copy.
        overwrite: Whether to replace an existing ``dst``.

    Raises:
        AlreadyExistsError: ``dst`` exists and ``overwrite`` is False.
    """
    s, d = _path(src), _path(dst)
    _check_target(d, overwrite)
    try:
        shutil.copyfile(s, d)
    except OSError as e:
        raise os_error(e, s) from None


def stat(path: str) -> FileStatistics:
    """The FileStatistics of ``path``.

    Args:
        path: A path: a string, bytes or ``os.PathLike``.
    """
    p = _path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        raise os_error(e, p) from None
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(p))


def walk(top: Any, topdown: bool = True, onerror: Any = None) -> Iterator[tuple]:
    """(dirname, subdirectories, files) for each directory under ``top``, as os.walk.

    Args:
        top: The directory to start from.
        topdown: Yield a directory before (True) or after its subdirectories.
        onerror: Called with the error when a directory cannot be listed; None ignores it.
    """
    yield from os.walk(_path(top), topdown=topdown, onerror=onerror)


def get_matching_files(filename: str) -> list:
    """TF1's ``tf.gfile.Glob``: the paths matching ``filename``.

    Args:
        filename: A shell glob pattern, or a list of them.
    """
    return glob(filename)


def read_bytes(path: str) -> bytes:
    """The contents of the file ``path``, with TensorFlow's errors (for the ReadFile op)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise os_error(e, path) from None


def write_bytes(path: str, data: bytes) -> None:
    """Writes ``data`` to ``path``, creating missing directories (the WriteFile op)."""
    parent = os.path.dirname(path)
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise os_error(e, path) from None
