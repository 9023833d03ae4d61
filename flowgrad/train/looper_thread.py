"""``tf.compat.v1.train.LooperThread``: a thread that calls a function repeatedly (or every N
seconds) until its Coordinator stops, as TensorFlow's ``coordinator.py``."""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from flowgrad.train.coordinator import Coordinator


class LooperThread(threading.Thread):
    """Runs ``target(*args, **kwargs)`` (or ``run_loop``) repeatedly until ``coord`` stops.

    The thread is a daemon registered with the coordinator; an exception in the loop is
    reported to it.

    Args:
        coord: The Coordinator.
        timer_interval_secs: Seconds between calls; None calls back to back.
        target: The function to call (subclasses override ``run_loop`` instead).
        args: Its positional arguments.
        kwargs: Its keyword arguments.

    Raises:
        ValueError: If ``coord`` is not a Coordinator, or ``args``/``kwargs`` are given
            without ``target``.
    """

    def __init__(self, coord: Coordinator, timer_interval_secs: float | None,
                 target: Callable | None = None, args: Any = None, kwargs: Any = None):
        if not isinstance(coord, Coordinator):
            raise ValueError("'coord' argument must be a Coordinator: %s" % coord)
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        if self._target:
            self._args = args or ()
            self._kwargs = kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
        self._coord.register_thread(self)

    @staticmethod
    def loop(coord: Coordinator, timer_interval_secs: float | None, target: Callable,
             args: Any = None, kwargs: Any = None) -> LooperThread:
        """Starts a LooperThread calling ``target``.

        Args:
            coord: The Coordinator.
            timer_interval_secs: Seconds between calls; None calls back to back.
            target: The function to call.
            args: Its positional arguments.
            kwargs: Its keyword arguments.

        Returns:
            The started thread.
        """
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def run(self) -> None:
        """The thread's body: ``start_loop``, the calls, ``stop_loop``."""
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_timer_time = time.time()
                while not self._coord.wait_for_stop(max(next_timer_time - time.time(), 0)):
                    next_timer_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self) -> None:
        """Called once when the thread starts."""

    def stop_loop(self) -> None:
        """Called once when the loop ends."""

    def run_loop(self) -> None:
        """One call: ``target(*args, **kwargs)``."""
        if self._target:
            self._target(*self._args, **self._kwargs)
