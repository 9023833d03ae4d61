"""``tf.compat.v1.train.MonitoredSession`` and its relatives: a Session that creates,
restores or initializes itself, runs hooks around every ``run`` and saves checkpoints and
summaries, with the semantics of TensorFlow's ``python/training/monitored_session.py``.
flowgrad runs in one process: ``master`` and ``config`` are accepted for TensorFlow's
signatures, and a non-chief ``MonitoredTrainingSession`` prepares its session as the chief.
"""
from __future__ import annotations

from typing import Any, Callable

from flowgrad.debug import tf_logging
from flowgrad.framework import errors
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.train import basic_session_run_hooks as hooks_lib
from flowgrad.train.checkpoint_management import get_checkpoint_state
from flowgrad.train.coordinator import Coordinator
from flowgrad.train.queue_runner import start_queue_runners
from flowgrad.train.session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues

USE_DEFAULT = object()
_LOCAL_INIT_OP = "local_init_op"
_READY_OP = "ready_op"
_SUMMARY_OP = "summary_op"
_RECOVERABLE_ERRORS = (errors.AbortedError, errors.UnavailableError)


class Scaffold:
    """The ops and the Saver a training session is created with; ``finalize`` fills in the
    defaults (from the graph's collections, else new ones) and finalizes the graph.

    Args:
        init_op: The op initializing the variables (default: all global variables).
        init_feed_dict: The feeds of ``init_op``.
        init_fn: A function ``init_fn(scaffold, session)`` called after ``init_op``.
        ready_op: Accepted for TensorFlow's signature; kept as given.
        ready_for_local_init_op: Accepted for TensorFlow's signature; kept as given.
        local_init_op: The op initializing local variables and tables (default: both).
        summary_op: The summary op (default: ``tf.summary.merge_all()``).
        saver: The Saver (default: the SAVERS collection's, else a new one).
        copy_from_scaffold: A Scaffold whose fields fill in those not given here.
        local_init_feed_dict: The feeds of ``local_init_op``.

    Raises:
        TypeError: If ``copy_from_scaffold`` is not a Scaffold.
    """

    def __init__(self, init_op: Any = None, init_feed_dict: dict | None = None,
                 init_fn: Callable | None = None, ready_op: Any = None,
                 ready_for_local_init_op: Any = None, local_init_op: Any = None,
                 summary_op: Any = None, saver: Any = None,
                 copy_from_scaffold: Scaffold | None = None,
                 local_init_feed_dict: dict | None = None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            c = copy_from_scaffold
            init_op = init_op if init_op is not None else c.init_op
            init_feed_dict = init_feed_dict or c.init_feed_dict
            init_fn = init_fn or c._user_init_fn
            ready_op = ready_op if ready_op is not None else c.ready_op
            ready_for_local_init_op = (ready_for_local_init_op
                                       if ready_for_local_init_op is not None
                                       else c.ready_for_local_init_op)
            local_init_op = local_init_op if local_init_op is not None else c.local_init_op
            local_init_feed_dict = local_init_feed_dict or c.local_init_feed_dict
            summary_op = summary_op if summary_op is not None else c.summary_op
            saver = saver if saver is not None else c.saver
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self) -> Scaffold:
        """Creates the missing ops and the Saver, then finalizes the default graph.

        Returns:
            This Scaffold.
        """
        from flowgrad.ops import control_flow_ops, state_ops
        from flowgrad.summary import summary_ops
        from flowgrad.train.saver import Saver
        graph = get_default_graph()
        if self._init_op is None:
            self._init_op = Scaffold.get_or_default(
                "init_op", GraphKeys.INIT_OP,
                lambda: control_flow_ops.group(state_ops.global_variables_initializer()))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default(
                "local_init_op", _LOCAL_INIT_OP, Scaffold.default_local_init_op)
        if self._summary_op is None:
            self._summary_op = Scaffold.get_or_default("summary_op", _SUMMARY_OP,
                                                       summary_ops.merge_all)
        if self._saver is None:
            self._saver = Scaffold.get_or_default(
                "saver", GraphKeys.SAVERS,
                lambda: Saver(sharded=True, allow_empty=True))
        graph.finalize()
        tf_logging.info("Graph was finalized.")
        return self

    @property
    def init_fn(self) -> Callable | None:
        """``init_fn`` bound to this Scaffold: a function of the session."""
        return self._init_fn

    @property
    def init_op(self) -> Any:
        """The op initializing the variables."""
        return self._init_op

    @property
    def ready_op(self) -> Any:
        """The ready op given to the constructor."""
        return self._ready_op

    @property
    def ready_for_local_init_op(self) -> Any:
        """The ready-for-local-init op given to the constructor."""
        return self._ready_for_local_init_op

    @property
    def local_init_op(self) -> Any:
        """The op initializing local variables and tables."""
        return self._local_init_op

    @property
    def local_init_feed_dict(self) -> dict | None:
        """The feeds of ``local_init_op``."""
        return self._local_init_feed_dict

    @property
    def summary_op(self) -> Any:
        """The summary op (None when the graph has no summaries)."""
        return self._summary_op

    @property
    def saver(self) -> Any:
        """The Saver."""
        return self._saver

    @property
    def init_feed_dict(self) -> dict | None:
        """The feeds of ``init_op``."""
        return self._init_feed_dict

    @staticmethod
    def get_or_default(arg_name: str, collection_key: str, default_constructor: Callable) -> Any:
        """The single item of a collection, else a new one (added to the collection).

        Args:
            arg_name: The constructor argument naming the item (for the error).
            collection_key: The collection.
            default_constructor: Makes the item when the collection is empty.

        Returns:
            The item, or None when the constructor makes none.

        Raises:
            RuntimeError: If the collection holds more than one item.
        """
        graph = get_default_graph()
        elements = graph.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError("More than one item in the collection %s. Please indicate "
                                   "which one to use by passing it to the tf.Scaffold "
                                   "constructor as:  tf.Scaffold(%s=item to use)"
                                   % (collection_key, arg_name))
            return elements[0]
        op = default_constructor()
        if op is not None:
            graph.add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op() -> Any:
        """An op initializing the local variables and the lookup tables.

        Returns:
            The grouped op.
        """
        from flowgrad.ops import control_flow_ops, lookup_ops, state_ops
        return control_flow_ops.group(state_ops.local_variables_initializer(),
                                      lookup_ops.tables_initializer())


class SessionCreator:
    """Creates a ``tf.compat.v1.Session`` for a ``MonitoredSession``."""

    def create_session(self) -> Any:
        """Creates the session.

        Returns:
            A Session.
        """
        raise NotImplementedError("create_session is not implemented for %s." % type(self))


class ChiefSessionCreator(SessionCreator):
    """Creates a session restored from the latest checkpoint, else initialized.

    Args:
        scaffold: The Scaffold (a default one when None).
        master: Accepted for TensorFlow's signature.
        config: The session's ConfigProto.
        checkpoint_dir: The directory whose latest checkpoint to restore.
        checkpoint_filename_with_path: A checkpoint to restore instead.
    """

    def __init__(self, scaffold: Scaffold | None = None, master: str = "", config: Any = None,
                 checkpoint_dir: str | None = None,
                 checkpoint_filename_with_path: str | None = None):
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._master = master
        self._config = config

    def create_session(self) -> Any:
        """Finalizes the scaffold, then restores or initializes a new session.

        Returns:
            The Session.

        Raises:
            RuntimeError: If there is nothing to restore and nothing to initialize with.
        """
        from flowgrad.runtime.session import Session
        scaffold = self._scaffold.finalize()
        sess = Session(self._master, graph=get_default_graph(), config=self._config)
        path = self._checkpoint_filename_with_path
        kept: list = []
        if path is None and self._checkpoint_dir:
            state = get_checkpoint_state(self._checkpoint_dir)
            if state is not None and state.model_checkpoint_path:
                path = state.model_checkpoint_path
                kept = list(state.all_model_checkpoint_paths)
        if path:
            scaffold.saver.restore(sess, path)
            if kept:        # the Saver goes on deleting the checkpoints past max_to_keep
                scaffold.saver.recover_last_checkpoints(kept)
        else:
            if scaffold.init_op is None and not scaffold.init_fn and scaffold.local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if scaffold.init_op is not None:
                sess.run(scaffold.init_op, feed_dict=scaffold.init_feed_dict)
            if scaffold.init_fn:
                scaffold.init_fn(sess)
        if scaffold.local_init_op is not None:
            tf_logging.info("Running local_init_op.")
            sess.run(scaffold.local_init_op, feed_dict=scaffold.local_init_feed_dict)
            tf_logging.info("Done running local_init_op.")
        return sess


class _HookedSession:
    """Runs the hooks' ``before_run``/``after_run`` around each call."""

    def __init__(self, sess: Any, hooks: list):
        self._sess = sess
        self._hooks = hooks
        self._should_stop = False

    def should_stop(self) -> bool:
        return self._should_stop

    def run(self, fetches: Any, feed_dict: dict | None = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        if self._should_stop:
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches = {"caller": fetches}
        run_context = SessionRunContext(SessionRunArgs(fetches, feed_dict), self._sess)
        hook_feeds: dict = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                actual_fetches[hook] = request.fetches
            if request.feed_dict:
                _raise_if_feeds_intersect(hook_feeds, request.feed_dict,
                                          "Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
        if hook_feeds:
            if feed_dict:
                _raise_if_feeds_intersect(feed_dict, hook_feeds,
                                          "Same tensor is fed by a SessionRunHook and user.")
                feed_dict = {**feed_dict, **hook_feeds}
            else:
                feed_dict = hook_feeds
        outputs = self._sess.run(actual_fetches, feed_dict=feed_dict, options=options,
                                 run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(run_context, SessionRunValues(results=outputs.get(hook),
                                                         options=options,
                                                         run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]


def _raise_if_feeds_intersect(feeds1: dict, feeds2: dict, message: str) -> None:
    common = set(feeds1) & set(feeds2)
    if common:
        raise RuntimeError(message + " Conflict(s): " + str(list(common)))


class _MonitoredSession:
    """The common part of MonitoredSession and SingularMonitoredSession."""

    def __init__(self, session_creator: SessionCreator, hooks: list | None,
                 should_recover: bool, stop_grace_period_secs: float = 120):
        self._graph_was_finalized = get_default_graph().finalized
        self._graph = get_default_graph()
        self._hooks = list(hooks or [])
        for h in self._hooks:
            h.begin()
        self._session_creator = session_creator
        self._should_recover = should_recover
        self._stop_grace_period_secs = stop_grace_period_secs
        self._tf_sess = None
        self._coord = None
        self._hooked = None
        self._create_session()

    def _create_session(self) -> None:
        self._tf_sess = self._session_creator.create_session()
        self._coord = Coordinator()
        # TensorFlow's _CoordinatedSessionCreator starts the graph's queue runners
        self._queue_threads = start_queue_runners(self._tf_sess, self._coord)
        for hook in self._hooks:
            hook.after_create_session(self._tf_sess, self._coord)
        self._hooked = _HookedSession(self._tf_sess, self._hooks)

    @property
    def graph(self) -> Any:
        """The graph the session runs."""
        return self._graph

    def run(self, fetches: Any, feed_dict: dict | None = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        """Runs ``fetches`` like ``Session.run``, with the hooks around the call.

        Args:
            fetches: Any nesting of tensors and ops.
            feed_dict: A dict from tensors to values.
            options: A ``RunOptions``.
            run_metadata: A ``RunMetadata``.

        Returns:
            The fetched values, in the nesting of ``fetches``.

        Raises:
            RuntimeError: If the session is closed, or a stop was requested.
        """
        if self._hooked is None:
            raise RuntimeError("Session is already closed.")
        while True:
            try:
                return self._hooked.run(fetches, feed_dict=feed_dict, options=options,
                                        run_metadata=run_metadata)
            except _RECOVERABLE_ERRORS as e:
                if not self._should_recover:
                    raise
                tf_logging.info("An error was raised. This may be due to a preemption in a "
                                "connected worker or parameter server. The current session "
                                "will be closed and a new session will be created. Error: %s",
                                e)
                self._tf_sess.close()
                self._create_session()
            except BaseException as e:
                self._coord.request_stop(e)
                raise

    def run_step_fn(self, step_fn: Callable) -> Any:
        """Runs ``step_fn(step_context)``, which may call the raw session and ``run_with_hooks``.

        Args:
            step_fn: A function of a ``StepContext``.

        Returns:
            What ``step_fn`` returns (None once it requested a stop).
        """
        context = _StepContext(self._tf_sess, self.run)
        result = step_fn(context)
        if context._stop_requested:
            self._hooked._should_stop = True
        return result

    def should_stop(self) -> bool:
        """Whether the loop should end: a hook requested a stop, or the session is closed.

        Returns:
            True to stop.
        """
        return (self._hooked is None or self._hooked.should_stop()
                or self._coord.should_stop())

    def close(self) -> None:
        """Ends the hooks and closes the session."""
        self._close_internal()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, exception_type: Any, exception_value: Any, traceback: Any) -> bool:
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None

    def _close_internal(self, exception_type: Any = None) -> None:
        try:
            if not exception_type:
                for h in self._hooks:
                    h.end(self._tf_sess)
        finally:
            try:
                if self._hooked is None:
                    raise RuntimeError("Session is already closed.")
                self._coord.request_stop()
                if self._queue_threads:     # the queue runners' errors surface here
                    self._coord.join(self._queue_threads, self._stop_grace_period_secs,
                                     ignore_live_threads=True)
                self._tf_sess.close()
            finally:
                self._hooked = None
                if not self._graph_was_finalized:
                    self._graph._finalized = False


class _StepContext:
    """What ``run_step_fn``'s function gets: the raw session, ``run_with_hooks``, a stop."""

    def __init__(self, session: Any, run_with_hooks_fn: Callable):
        self._session = session
        self._run_with_hooks_fn = run_with_hooks_fn
        self._stop_requested = False

    @property
    def session(self) -> Any:
        """The raw session."""
        return self._session

    def run_with_hooks(self, *args: Any, **kwargs: Any) -> Any:
        """``MonitoredSession.run``: the call with the hooks.

        Args:
            *args: ``run``'s arguments.
            **kwargs: ``run``'s keyword arguments.

        Returns:
            The fetched values.
        """
        return self._run_with_hooks_fn(*args, **kwargs)

    def request_stop(self) -> None:
        """Ends the loop after this step."""
        self._stop_requested = True


class MonitoredSession(_MonitoredSession):
    """A Session that runs hooks and recreates itself after an AbortedError/UnavailableError.

    Args:
        session_creator: The SessionCreator (a ``ChiefSessionCreator`` when None).
        hooks: The ``SessionRunHook``s.
        stop_grace_period_secs: How long threads get to stop at ``close``.
    """

    def __init__(self, session_creator: SessionCreator | None = None, hooks: list | None = None,
                 stop_grace_period_secs: float = 120):
        super().__init__(session_creator or ChiefSessionCreator(), hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A MonitoredSession that does not recover, with access to its raw session.

    Args:
        hooks: The ``SessionRunHook``s.
        scaffold: The Scaffold.
        master: Accepted for TensorFlow's signature.
        config: The session's ConfigProto.
        checkpoint_dir: The directory whose latest checkpoint to restore.
        stop_grace_period_secs: How long threads get to stop at ``close``.
        checkpoint_filename_with_path: A checkpoint to restore instead.
    """

    def __init__(self, hooks: list | None = None, scaffold: Scaffold | None = None,
                 master: str = "", config: Any = None, checkpoint_dir: str | None = None,
                 stop_grace_period_secs: float = 120,
                 checkpoint_filename_with_path: str | None = None):
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                      checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, should_recover=False,
                         stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self) -> Any:
        """The underlying Session (runs without the hooks).

        Returns:
            The Session.
        """
        return self._tf_sess


def MonitoredTrainingSession(master: str = "", is_chief: bool = True,  # noqa: N802 - TF's name
                             checkpoint_dir: str | None = None, scaffold: Scaffold | None = None,
                             hooks: list | None = None, chief_only_hooks: list | None = None,
                             save_checkpoint_secs: Any = USE_DEFAULT,
                             save_summaries_steps: Any = USE_DEFAULT,
                             save_summaries_secs: Any = USE_DEFAULT, config: Any = None,
                             stop_grace_period_secs: float = 120,
                             log_step_count_steps: int | None = 100,
                             max_wait_secs: float = 7200,
                             save_checkpoint_steps: Any = USE_DEFAULT,
                             summary_dir: str | None = None,
                             save_graph_def: bool = True) -> MonitoredSession:
    """A MonitoredSession for training: restores from ``checkpoint_dir`` (else initializes),
    saves checkpoints every ``save_checkpoint_secs`` (600 by default) or
    ``save_checkpoint_steps``, summaries every ``save_summaries_steps`` (100 by default) or
    ``save_summaries_secs``, and logs the global steps per second every
    ``log_step_count_steps``.

    Args:
        master: Accepted for TensorFlow's signature.
        is_chief: Whether this is the chief (which initializes, saves, and runs
            ``chief_only_hooks``).
        checkpoint_dir: The directory of the checkpoints (restored from and saved into).
        scaffold: The Scaffold.
        hooks: The ``SessionRunHook``s.
        chief_only_hooks: Hooks run by the chief only (before the others).
        save_checkpoint_secs: Seconds between checkpoints; None for none.
        save_summaries_steps: Steps between summaries; None for none.
        save_summaries_secs: Seconds between summaries; None for none.
        config: The session's ConfigProto.
        stop_grace_period_secs: How long threads get to stop at ``close``.
        log_step_count_steps: Steps between ``global_step/sec`` logs; None for none.
        max_wait_secs: Accepted for TensorFlow's signature.
        save_checkpoint_steps: Steps between checkpoints; None for none.
        summary_dir: Where summaries go (``checkpoint_dir`` by default).
        save_graph_def: Whether checkpoints write the graph.

    Returns:
        A ``MonitoredSession``.
    """
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    if not is_chief:
        return MonitoredSession(ChiefSessionCreator(scaffold, master=master, config=config,
                                                    checkpoint_dir=checkpoint_dir),
                                hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    all_hooks = list(chief_only_hooks or [])
    creator = ChiefSessionCreator(scaffold, checkpoint_dir=checkpoint_dir, master=master,
                                  config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(hooks_lib.StepCounterHook(output_dir=summary_dir,
                                                       every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (
                save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(hooks_lib.SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps,
                save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir and ((save_checkpoint_secs and save_checkpoint_secs > 0) or (
            save_checkpoint_steps and save_checkpoint_steps > 0)):
        all_hooks.append(hooks_lib.CheckpointSaverHook(
            checkpoint_dir, save_steps=save_checkpoint_steps, save_secs=save_checkpoint_secs,
            scaffold=scaffold, save_graph_def=save_graph_def))
    all_hooks.extend(hooks or [])
    return MonitoredSession(creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)
