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


def __getattr__(name: str) -> object:
    """The other functions of TensorFlow's ``config`` module are ``tf.config``'s
    (``set_soft_device_placement``, ``list_physical_devices``, ...) and
    ``tf.config.experimental``'s."""
    from flowgrad import config
    for ns in (config, config.experimental):
        if hasattr(ns, name):
            return getattr(ns, name)
    raise AttributeError("module 'tensorflow.python.framework.config' has no attribute %r"
                         % name)
