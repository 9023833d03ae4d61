"""``tf.io.gfile`` of the TF2 face (and of the TF1 face's ``tf.io``): TensorFlow's file API
on the local file system (flowgrad/ops/file_io.py)."""
import os.path as _os_path

from flowgrad.ops.file_io import (GFile, copy, exists, glob, isdir, listdir, makedirs, mkdir,
                                  remove, rename, rmtree, stat, walk)

join = _os_path.join

__all__ = ["GFile", "copy", "exists", "glob", "isdir", "join", "listdir", "makedirs", "mkdir",
           "remove", "rename", "rmtree", "stat", "walk"]


def __dir__() -> list:
    return sorted(__all__)
