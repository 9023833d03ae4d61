"""``tf.compat.v1.train.SessionManager``: creates a Session, restores it from a checkpoint
or initializes it, and checks that the model is ready (TensorFlow's
``python/training/session_manager.py``). flowgrad runs in one process: ``master`` and
``config`` are passed to the Session as TensorFlow's signature has them."""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from flowgrad.debug import tf_logging
from flowgrad.framework import errors
from flowgrad.framework.graph import get_default_graph
from flowgrad.train.checkpoint_management import get_checkpoint_state


def _maybe_name(obj: Any) -> str:
    if obj is None:
        return "None"
    if hasattr(obj, "name"):
        return obj.name
    return "<no name for %s>" % type(obj)


def _restore(sess: Any, saver: Any, path: str) -> None:
    init_ops = sess.graph.get_collection("saved_model_initializers")
    if init_ops:
        sess.run(init_ops)
    saver.restore(sess, path)


def _ready(op: Any, sess: Any, msg: str) -> tuple:
    """Whether ``op`` (a ready op: the names of the uninitialized variables) says ready, and
    why not."""
    if op is None:
        return True, None
    try:
        value = sess.run(op)
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            tf_logging.warning("%s : error [%s]", msg, str(e))
            raise
        return False, str(e)
    if value is None or np.asarray(value).dtype == np.int32 or np.size(value) == 0:
        return True, None
    names = ", ".join(v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in value)
    return False, "Variables not initialized: " + names


class SessionManager:
    """Creates Sessions that are restored from a checkpoint or initialized, and ready.

    Args:
        local_init_op: An op run on every new session (local variables, tables).
        ready_op: An op whose run tells whether the model is ready: an empty string tensor
            (``tf.report_uninitialized_variables()``) when it is. None: no check.
        ready_for_local_init_op: An op telling whether ``local_init_op`` may run.
        graph: The graph; the default graph when None.
        recovery_wait_secs: Seconds between checks for a checkpoint or readiness.
        local_init_run_options: ``RunOptions`` of the ``local_init_op`` run.
        local_init_feed_dict: The feeds of the ``local_init_op`` run.

    Raises:
        ValueError: If ``ready_for_local_init_op`` is given without ``local_init_op``.
    """

    def __init__(self, local_init_op: Any = None, ready_op: Any = None,
                 ready_for_local_init_op: Any = None, graph: Any = None,
                 recovery_wait_secs: float = 30, local_init_run_options: Any = None,
                 local_init_feed_dict: dict | None = None):
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a "
                             "local_init_op , ready_for_local_init_op [%s]"
                             % ready_for_local_init_op)
        self._local_init_op = local_init_op
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph if graph is not None else get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._target = None
        self._local_init_run_options = local_init_run_options
        self._local_init_feed_dict = local_init_feed_dict

    def _new_session(self, master: str, config: Any) -> Any:
        from flowgrad.runtime.session import Session
        self._target = master
        return Session(master, graph=self._graph, config=config)

    def _restore_checkpoint(self, master: str, saver: Any = None, checkpoint_dir: str | None = None,
                            checkpoint_filename_with_path: str | None = None,
                            wait_for_checkpoint: bool = False, max_wait_secs: float = 7200,
                            config: Any = None) -> tuple:
        sess = self._new_session(master, config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and "
                             "checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            _restore(sess, saver, checkpoint_filename_with_path)
            return sess, True
        wait_time = 0
        ckpt = get_checkpoint_state(checkpoint_dir)
        while not ckpt or not ckpt.model_checkpoint_path:
            if wait_for_checkpoint and wait_time < max_wait_secs:
                tf_logging.info("Waiting for checkpoint to be available.")
                time.sleep(self._recovery_wait_secs)
                wait_time += self._recovery_wait_secs
                ckpt = get_checkpoint_state(checkpoint_dir)
            else:
                return sess, False
        _restore(sess, saver, ckpt.model_checkpoint_path)
        saver.recover_last_checkpoints(list(ckpt.all_model_checkpoint_paths))
        return sess, True

    def prepare_session(self, master: str, init_op: Any = None, saver: Any = None,
                        checkpoint_dir: str | None = None,
                        checkpoint_filename_with_path: str | None = None,
                        wait_for_checkpoint: bool = False, max_wait_secs: float = 7200,
                        config: Any = None, init_feed_dict: dict | None = None,
                        init_fn: Callable | None = None) -> Any:
        """A Session restored from the latest checkpoint, else initialized, and ready.

        Args:
            master: The target of the Session.
            init_op: The op initializing the model when no checkpoint is restored.
            saver: The Saver restoring the checkpoint.
            checkpoint_dir: The directory whose latest checkpoint is restored.
            checkpoint_filename_with_path: A checkpoint to restore.
            wait_for_checkpoint: Whether to wait for a checkpoint to appear.
            max_wait_secs: How long to wait for one.
            config: The Session's ``ConfigProto``.
            init_feed_dict: The feeds of ``init_op``.
            init_fn: A function of the session run after ``init_op``.

        Returns:
            The Session.

        Raises:
            RuntimeError: If nothing initializes the model, or it is not ready after.
        """
        sess, loaded = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        if not loaded:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        ok, msg = self._try_run_local_init_op(sess)
        if not ok:
            raise RuntimeError("Init operations did not make model ready for local_init.  "
                               "Init op: %s, init fn: %s, error: %s"
                               % (_maybe_name(init_op), init_fn, msg))
        ready, msg = self._model_ready(sess)
        if not ready:
            raise RuntimeError("Init operations did not make model ready.  Init op: %s, init "
                               "fn: %s, local_init_op: %s, error: %s"
                               % (_maybe_name(init_op), init_fn, self._local_init_op, msg))
        return sess

    def recover_session(self, master: str, saver: Any = None, checkpoint_dir: str | None = None,
                        checkpoint_filename_with_path: str | None = None,
                        wait_for_checkpoint: bool = False, max_wait_secs: float = 7200,
                        config: Any = None) -> tuple:
        """A Session restored from a checkpoint if there is one (not initialized otherwise).

        Args:
            master: The target of the Session.
            saver: The Saver restoring the checkpoint.
            checkpoint_dir: The directory whose latest checkpoint is restored.
            checkpoint_filename_with_path: A checkpoint to restore.
            wait_for_checkpoint: Whether to wait for a checkpoint to appear.
            max_wait_secs: How long to wait for one.
            config: The Session's ``ConfigProto``.

        Returns:
            ``(sess, restored)``: the Session, and whether it was restored and is ready.
        """
        sess, loaded = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        ok, msg = self._try_run_local_init_op(sess)
        if not loaded:
            return sess, False
        where = checkpoint_dir or checkpoint_filename_with_path
        if not ok:
            tf_logging.info("Restoring model from %s did not make model ready for local "
                            "init: %s", where, msg)
            return sess, False
        ready, msg = self._model_ready(sess)
        if not ready:
            tf_logging.info("Restoring model from %s did not make model ready: %s", where, msg)
            return sess, False
        tf_logging.info("Restored model from %s", where)
        return sess, loaded

    def wait_for_session(self, master: str, config: Any = None,
                         max_wait_secs: float = float("Inf")) -> Any:
        """A Session once the model is ready (another task initializes it).

        Args:
            master: The target of the Session.
            config: The Session's ``ConfigProto``.
            max_wait_secs: How long to wait; None waits forever.

        Returns:
            The Session.

        Raises:
            DeadlineExceededError: If the model is not ready within ``max_wait_secs``.
        """
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        start = time.time()
        while True:
            sess = self._new_session(master, config)
            not_ready = not_ready_local = None
            ok, not_ready_local = self._try_run_local_init_op(sess)
            if ok:
                ready, not_ready = self._model_ready(sess)
                if ready:
                    return sess
            sess.close()
            left = max(0.0, max_wait_secs - (time.time() - start))
            if left - self._recovery_wait_secs < 0:
                raise errors.DeadlineExceededError(
                    None, None, "Session was not ready after waiting %d secs." % max_wait_secs)
            tf_logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, "
                            "ready: %s", not_ready_local, not_ready)
            time.sleep(self._recovery_wait_secs)

    def _model_ready(self, sess: Any) -> tuple:
        return _ready(self._ready_op, sess, "Model not ready")

    def _try_run_local_init_op(self, sess: Any) -> tuple:
        if self._local_init_op is None:
            return True, None
        ok, msg = _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")
        if not ok:
            return False, msg
        tf_logging.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict,
                 options=self._local_init_run_options)
        tf_logging.info("Done running local_init_op.")
        return True, None


__all__ = ["SessionManager"]
