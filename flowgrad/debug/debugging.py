"""``tf.debugging``: numeric checks (both faces)."""
from flowgrad.debug.numerics import disable_check_numerics, enable_check_numerics
from flowgrad.debug.numerics_ops import check_numerics
from flowgrad.ops.check_ops import *  # noqa: F403
from flowgrad.ops.check_ops import __all__ as _asserts

__all__ = ["check_numerics", "enable_check_numerics", "disable_check_numerics",
           "get_log_device_placement", "set_log_device_placement"] + _asserts

_LOG_DEVICE_PLACEMENT = [False]


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
