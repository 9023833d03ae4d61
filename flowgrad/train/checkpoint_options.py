"""``tf.train.CheckpointOptions``: options of ``Checkpoint.save/write/restore/read`` and
``CheckpointManager.save``, as TensorFlow 2.21's."""
from __future__ import annotations

from typing import Any


class CheckpointOptions:
    """Options for constructing a Checkpoint (TensorFlow's ``tf.train.CheckpointOptions``).

    flowgrad runs on one host and writes checkpoints synchronously: the options are kept and
    accepted wherever TensorFlow takes them; ``experimental_write_callbacks`` are called with
    the path of each checkpoint written (as TensorFlow calls them), an asynchronous save is a
    synchronous one.

    Args:
      experimental_io_device: the device that reads and writes the files (e.g.
        ``"/job:localhost"``).
      experimental_enable_async_checkpoint: deprecated name of ``enable_async``.
      experimental_write_callbacks: functions called after each checkpoint is written, with
        its path (or with no argument).
      enable_async: whether to save asynchronously.
      experimental_skip_slot_variables: whether restoring skips optimizer slot variables.
      experimental_sharding_callback: how to shard the files.
    """

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint",
                 "experimental_write_callbacks", "enable_async", "experimental_sharding_callback",
                 "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device: str | None = None,
                 experimental_enable_async_checkpoint: bool = False,
                 experimental_write_callbacks: list | None = None, enable_async: bool = False,
                 experimental_skip_slot_variables: bool = False,
                 experimental_sharding_callback: Any = None):
        self.experimental_io_device = experimental_io_device
        self.enable_async = experimental_enable_async_checkpoint or enable_async
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback

    def __copy__(self) -> CheckpointOptions:
        result = CheckpointOptions.__new__(CheckpointOptions)
        for name in self.__slots__:
            setattr(result, name, getattr(self, name))
        return result


__all__ = ["CheckpointOptions"]
