"""``tf.compat.v1.logging`` and ``tf.get_logger``: TensorFlow's Python logger.

TensorFlow logs through the standard :mod:`logging` module under the logger named
``"tensorflow"``; TF1's ``tf.logging`` functions are thin wrappers over it. flowgrad does the
same, so handlers, levels and filters a program installs on ``logging.getLogger("tensorflow")``
see the same records.
"""
from __future__ import annotations

import logging as _logging
import sys
from typing import Any
from flowgrad.framework import hooks as _hooks
from flowgrad.framework.type_hints import TensorLike

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_counts: dict[Any, int] = {}


def get_logger() -> _logging.Logger:
    """The logger TensorFlow writes to (``logging.getLogger("tensorflow")``).

    As TensorFlow does, the first call gives it a handler printing to stderr when the root
    logger has none, so ``tf.get_logger().setLevel("INFO")`` shows messages.

    Returns:
      The ``"tensorflow"`` :class:`logging.Logger`.
    """
    logger = _logging.getLogger("tensorflow")
    if not logger.handlers and not _logging.getLogger().handlers:
        handler = _logging.StreamHandler(sys.stderr)
        handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    return logger


def log(level: int, msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs ``msg % args`` at ``level``.

    Args:
        level: The logging level (``tf.compat.v1.logging.INFO``, ...).
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs at DEBUG.

    Args:
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().debug(msg, *args, **kwargs)


def info(msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs at INFO.

    Args:
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().info(msg, *args, **kwargs)


def warning(msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs at WARNING.

    Args:
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().warning(msg, *args, **kwargs)


warn = warning
_hooks.register(log_warning=warning)


def error(msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs at ERROR.

    Args:
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().error(msg, *args, **kwargs)


def fatal(msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs at FATAL (CRITICAL); as in TensorFlow's Python logger, the program goes on.

    Args:
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().fatal(msg, *args, **kwargs)


def vlog(level: int, msg: str, *args: Any, **kwargs: Any) -> None:
    """Logs at ``level`` (TensorFlow's verbose-log levels are plain logging levels).

    Args:
        level: The logging level (``tf.compat.v1.logging.INFO``, ...).
        msg: The message, a %-format string.
        *args: The values of ``msg``'s placeholders.
        **kwargs: Passed to Python's logging (``exc_info``, ``stack_info``, ...).
    """
    get_logger().log(level, msg, *args, **kwargs)


def log_every_n(level: int, msg: str, n: int, *args: Any) -> None:
    """Logs ``msg`` on the first call from this place and every ``n``-th call after it.

    Args:
      level: the logging level.
      msg: the message (``%`` formatted with ``args``).
      n: log once every ``n`` calls.
      *args: the format arguments.
    """
    caller = sys._getframe(1)  # noqa: SLF001 - the call site keys the count, as in TensorFlow
    key = (caller.f_code.co_filename, caller.f_lineno)
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count % max(int(n), 1) == 0:
        get_logger().log(level, msg, *args)


def log_first_n(level: int, msg: str, n: int, *args: Any) -> None:
    """Logs ``msg`` on the first ``n`` calls from this place.

    Args:
      level: the logging level.
      msg: the message (``%`` formatted with ``args``).
      n: how many calls log.
      *args: the format arguments.
    """
    caller = sys._getframe(1)  # noqa: SLF001
    key = (caller.f_code.co_filename, caller.f_lineno, "first")
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count < n:
        get_logger().log(level, msg, *args)


def log_if(level: int, msg: str, condition: TensorLike, *args: Any) -> None:
    """Logs ``msg`` when ``condition`` holds.

    Args:
        level: The logging level (``tf.compat.v1.logging.INFO``, ...).
        msg: The message, a %-format string.
        condition: Whether to log.
        *args: The values of ``msg``'s placeholders.
    """
    if condition:
        get_logger().log(level, msg, *args)


def get_verbosity() -> int:
    """The ``"tensorflow"`` logger's effective level."""
    return get_logger().getEffectiveLevel()


def set_verbosity(v: int | str) -> None:
    """Sets the ``"tensorflow"`` logger's level (a number or a name such as ``"INFO"``).

    Args:
        v: The lowest level logged: a logging level number or name.
    """
    get_logger().setLevel(v)


def flush() -> None:
    """Flushes the logger's handlers."""
    for handler in get_logger().handlers:
        handler.flush()


__all__ = ["DEBUG", "INFO", "WARN", "ERROR", "FATAL", "get_logger", "log", "debug", "info",
           "warning", "warn", "error", "fatal", "vlog", "log_every_n", "log_first_n", "log_if",
           "get_verbosity", "set_verbosity", "flush"]
