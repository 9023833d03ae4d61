"""``tf.compat.v1.train.SessionRunHook`` and the values a hook sees around a ``run`` call.

A hook extends the training loop a ``MonitoredSession`` runs: ``begin`` before the graph is
finalized, ``after_create_session`` once the session exists, ``before_run``/``after_run``
around each ``run`` (adding fetches, feeds and options to the caller's), and ``end`` when the
session closes, as in TensorFlow's ``python/training/session_run_hook.py``.
"""
from __future__ import annotations

import collections
from typing import Any


class SessionRunHook:
    """A hook extending calls to ``MonitoredSession.run``."""

    def begin(self) -> None:
        """Called once before the session is used; the graph may still be changed."""

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Called when the session has been created (and restored or initialized).

        Args:
            session: The TensorFlow Session that has been created.
            coord: The Coordinator of the session's threads.
        """

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        """Called before each call to ``run``.

        Args:
            run_context: A ``SessionRunContext`` with the caller's fetches and feeds.

        Returns:
            None or a ``SessionRunArgs`` with what to add to the call.
        """
        return None

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Called after each call to ``run``.

        Args:
            run_context: The ``SessionRunContext`` given to ``before_run``.
            run_values: A ``SessionRunValues`` with the results of this hook's fetches.
        """

    def end(self, session: Any) -> None:
        """Called at the end of the session (not when an exception ends it).

        Args:
            session: The TensorFlow Session that will be closed.
        """


class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook adds to a ``run`` call: fetches, a feed dict and RunOptions.

    Args:
        fetches: Any nesting of tensors and ops to fetch, or None.
        feed_dict: A dict from tensors to values, or None.
        options: A ``RunOptions``, or None.
    """

    def __new__(cls, fetches: Any, feed_dict: dict | None = None,
                options: Any = None) -> SessionRunArgs:
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The caller's arguments and the session of a ``run`` call, and a way to stop the loop.

    Args:
        original_args: The ``SessionRunArgs`` the caller gave ``run``.
        session: The TensorFlow Session the call runs in.
    """

    def __init__(self, original_args: SessionRunArgs, session: Any):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self) -> SessionRunArgs:
        """The ``SessionRunArgs`` the caller gave ``run``."""
        return self._original_args

    @property
    def session(self) -> Any:
        """The TensorFlow Session the call runs in."""
        return self._session

    @property
    def stop_requested(self) -> bool:
        """Whether a hook asked the loop to stop."""
        return self._stop_requested

    def request_stop(self) -> None:
        """Asks the loop to stop: the session's ``should_stop`` becomes True."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues",
                                              ["results", "options", "run_metadata"])):
    """The results of a hook's ``SessionRunArgs`` fetches, with the run's options and metadata.

    Args:
        results: The values of the hook's fetches (same nesting), or None.
        options: The ``RunOptions`` of the call.
        run_metadata: The ``RunMetadata`` of the call.
    """
