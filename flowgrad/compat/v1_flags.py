"""``tf.compat.v1.flags`` (TensorFlow 1's ``tf.flags`` and ``tf.app.flags``): absl's flags,
as TensorFlow's are, with TensorFlow's two additions: the define functions also take the old
keyword names (``flag_name``, ``default_value``, ``docstring``), and reading a flag before
the flags were parsed parses ``sys.argv`` first (absl raises there).

Needs absl-py (``pip install flowgrad[flags]``)."""
from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from typing import Any

try:
    from absl import flags as _absl_flags
    from absl.flags import *  # noqa: F403 - the module is absl.flags' names
except ImportError as e:       # pragma: no cover - the extra is in dev
    raise ImportError("tf.compat.v1.flags (and tf.app) are absl's flags, and absl-py is not "
                      "installed: pip install flowgrad[flags]", name="absl") from e

_RENAMED = {"flag_name": "name", "default_value": "default", "docstring": "help"}


def _old_names(define: Callable) -> Callable:
    @functools.wraps(define)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        old = [k for k in _RENAMED if k in kwargs]
        for k in old:
            kwargs[_RENAMED[k]] = kwargs.pop(k)
        if old:
            logging.getLogger("tensorflow").warning(
                "Use of the keyword argument names (flag_name, default_value, docstring) is "
                "deprecated, please use (name, default, help) instead.")
        return define(*args, **kwargs)
    return wrapper


DEFINE_string = _old_names(_absl_flags.DEFINE_string)
DEFINE_boolean = _old_names(_absl_flags.DEFINE_boolean)
DEFINE_bool = DEFINE_boolean
DEFINE_float = _old_names(_absl_flags.DEFINE_float)
DEFINE_integer = _old_names(_absl_flags.DEFINE_integer)


class _FlagValuesWrapper:
    """absl's FLAGS, parsing ``sys.argv`` (unknown flags tolerated) on the first read of a
    flag if nothing parsed them yet, as TensorFlow's ``tf.flags.FLAGS`` does."""

    def __init__(self, flag_values: Any) -> None:
        self.__dict__["_wrapped"] = flag_values

    def __getattr__(self, name: str) -> Any:
        wrapped = self.__dict__["_wrapped"]
        if not wrapped.is_parsed():
            wrapped(sys.argv, known_only=True)
        return getattr(wrapped, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.__dict__["_wrapped"], name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self.__dict__["_wrapped"], name)

    def __dir__(self) -> list:
        return dir(self.__dict__["_wrapped"])

    def __getitem__(self, name: str) -> Any:
        return self.__dict__["_wrapped"][name]

    def __setitem__(self, name: str, flag: Any) -> None:
        self.__dict__["_wrapped"][name] = flag

    def __len__(self) -> int:
        return len(self.__dict__["_wrapped"])

    def __iter__(self) -> Any:
        return iter(self.__dict__["_wrapped"])

    def __str__(self) -> str:
        return str(self.__dict__["_wrapped"])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["_wrapped"](*args, **kwargs)


FLAGS = _FlagValuesWrapper(_absl_flags.FLAGS)
