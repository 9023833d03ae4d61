"""``tensorflow.python.framework.config``: op determinism switches. flowgrad's kernels are
deterministic (NumPy on one device), so enabling determinism changes nothing."""
from flowgrad.framework.context import state as _state


def enable_op_determinism() -> None:
    """Makes ops deterministic (flowgrad's always are); recorded for
    ``is_op_determinism_enabled``."""
    _state.op_determinism = True


def disable_op_determinism() -> None:
    """Undoes ``enable_op_determinism``."""
    _state.op_determinism = False


def is_op_determinism_enabled() -> bool:
    """Whether ``enable_op_determinism`` was called (and not undone)."""
    return getattr(_state, "op_determinism", False)


__all__ = ["disable_op_determinism", "enable_op_determinism", "is_op_determinism_enabled"]
