"""Ray as flowgrad's distributed engine: importing it, connecting, and getting results."""
from __future__ import annotations

import socket
from typing import Any

_INSTALL_HINT = "pip install flowgrad[distributed]"


def ray_module() -> Any:
    """The ``ray`` module, or an ImportError naming the extra that installs it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError("flowgrad.distribute runs on Ray, which is not installed; install "
                          "it with `%s` (or `pip install ray`)" % _INSTALL_HINT) from e
    return ray


def check_reachable(address: str, timeout: float) -> None:
    """Raises ConnectionError when nothing listens at ``host:port`` (ray:// or bare)."""
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError("Ray cluster address %r is not of the form 'host:port', "
                         "'ray://host:port' or 'auto'" % address)
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ConnectionError("Cannot reach the Ray cluster at %r (%s). Start one with "
                              "`ray start --head` there, or pass address=None to run on a "
                              "local Ray instance." % (address, e)) from None


#: Times a local Ray instance is started again when its node misses Ray's start deadline.
START_ATTEMPTS = 3


def connect(address: str | None = None, timeout: float = 10.0, **init_kwargs: Any) -> Any:
    """Connects to Ray once: a local instance when ``address`` is None, else the cluster there.

    An already initialised Ray is used as it is. An address nobody answers at gives a
    ConnectionError (after ``timeout`` seconds at most) instead of Ray's long retries. A
    local instance whose node does not register within Ray's fixed 30 seconds (a loaded
    machine) is started again, up to ``START_ATTEMPTS`` times."""
    ray = ray_module()
    if ray.is_initialized():
        return ray
    if address is not None and address != "auto":
        check_reachable(address, timeout)
    init_kwargs.setdefault("include_dashboard", False)
    for attempt in range(START_ATTEMPTS):
        try:
            ray.init(address=address, **init_kwargs)
            return ray
        except Exception as e:   # noqa: BLE001 - Ray raises a bare Exception for this
            if "timed out during startup" not in str(e) or attempt == START_ATTEMPTS - 1:
                raise
            ray.shutdown()
    return ray


def get(refs: Any) -> Any:
    """``ray.get`` that raises an actor's own exception (InvalidArgumentError ...) unwrapped."""
    ray = ray_module()
    try:
        return ray.get(refs)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, Exception) and not isinstance(cause, ray.exceptions.RayError):
            raise cause from None
        raise
