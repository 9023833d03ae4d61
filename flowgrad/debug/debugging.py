"""``tf.debugging``: numeric checks (both faces)."""
from typing import Any as _Any

from flowgrad.framework.graph import name_scope as _name_scope
from flowgrad.debug.numerics import disable_check_numerics, enable_check_numerics
from flowgrad.debug.numerics_ops import check_numerics
from flowgrad.ops.check_ops import *  # noqa: F403
from flowgrad.ops.check_ops import __all__ as _asserts

__all__ = ["check_numerics", "enable_check_numerics", "disable_check_numerics",
           "get_log_device_placement", "set_log_device_placement", "assert_all_finite",
           "enable_traceback_filtering", "disable_traceback_filtering",
           "is_traceback_filtering_enabled"] + _asserts

_LOG_DEVICE_PLACEMENT = [False]
_TRACEBACK_FILTERING = [True]


def assert_all_finite(x: _Any = None, message: str | None = None, name: str | None = None,
                      t: _Any = None, msg: str | None = None) -> _Any:
    """``x`` unchanged, checked for NaN and Inf (``check_numerics``): InvalidArgumentError
    naming ``message`` when it holds one (at once eagerly; when run in a graph).

    Args:
        x: A floating tensor.
        message: The prefix of the error message.
        name: A name for the operation (optional).
        t: TF1's name for ``x``.
        msg: TF1's name for ``message``.
    """
    x = t if x is None else x
    message = msg if message is None else message
    with _name_scope(name, "VerifyFinite", [x]):
        return check_numerics(x, message=message or "")


def enable_traceback_filtering() -> None:
    """Turns on the filtering of flowgrad's frames from tracebacks (on by default; flowgrad's
    errors point at the user's lines either way)."""
    _TRACEBACK_FILTERING[0] = True


def disable_traceback_filtering() -> None:
    """Turns off the filtering of flowgrad's frames from tracebacks."""
    _TRACEBACK_FILTERING[0] = False


def is_traceback_filtering_enabled() -> bool:
    """Whether traceback filtering is on (see ``enable_traceback_filtering``)."""
    return _TRACEBACK_FILTERING[0]


def set_log_device_placement(enabled: bool) -> None:
    """Turns logging of op placement on or off. Accepted and remembered: flowgrad places
    every op on the CPU, so it logs nothing (docs/differences.md).

    Args:
      enabled: Whether to log the placements.
    """
    _LOG_DEVICE_PLACEMENT[0] = bool(enabled)


def get_log_device_placement() -> bool:
    """Whether :func:`set_log_device_placement` turned logging on."""
    return _LOG_DEVICE_PLACEMENT[0]
