"""TF1's ``tf.gfile``: the file API under TensorFlow 1's names (``Exists``, ``Glob``,
``MakeDirs``, ...); ``FastGFile`` and ``Open`` are ``GFile``."""
from flowgrad.ops.file_io import GFile
from flowgrad.ops.file_io import copy as Copy  # noqa: N812 - TensorFlow 1's names
from flowgrad.ops.file_io import exists as Exists  # noqa: N812
from flowgrad.ops.file_io import get_matching_files as Glob  # noqa: N812
from flowgrad.ops.file_io import isdir as IsDirectory  # noqa: N812
from flowgrad.ops.file_io import listdir as ListDirectory  # noqa: N812
from flowgrad.ops.file_io import makedirs as MakeDirs  # noqa: N812
from flowgrad.ops.file_io import mkdir as MkDir  # noqa: N812
from flowgrad.ops.file_io import remove as Remove  # noqa: N812
from flowgrad.ops.file_io import rename as Rename  # noqa: N812
from flowgrad.ops.file_io import rmtree as DeleteRecursively  # noqa: N812
from flowgrad.ops.file_io import stat as Stat  # noqa: N812
from flowgrad.ops.file_io import walk as Walk  # noqa: N812

FastGFile = Open = GFile

__all__ = ["Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory",
           "ListDirectory", "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk"]


def __dir__() -> list:
    return sorted(__all__)
