"""TF-slim's training loop (``tf.contrib.slim.learning`` of TF 1.15): ``create_train_op``
(the total loss after the ``UPDATE_OPS``, gradients optionally multiplied and clipped, the
update, and a check that the loss is finite; running it returns the loss) and ``train``
(a ``tf.train.Supervisor`` session running ``train_step`` until ``number_of_steps``, saving
the model to ``logdir`` at the end)."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flowgrad.debug import tf_logging as _tf_logging
from flowgrad.debug.numerics_ops import check_numerics
from flowgrad.framework import errors as _errors
from flowgrad.framework.graph import GraphKeys, get_default_graph, name_scope
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.ops import clip_ops as _clip_ops, control_flow_ops as _control_flow_ops
from flowgrad.ops import lookup_ops as _lookup_ops, math_ops as _math_ops, state_ops as _state_ops
from flowgrad.ops.variable_checks import report_uninitialized_variables
from flowgrad.summary import summary_ops as _summary_ops
from flowgrad.train.optimizer import Optimizer
from flowgrad.train.saver import Saver
from flowgrad.train.supervisor import Supervisor
from flowgrad.train.training_util import get_or_create_global_step

_USE_DEFAULT = 0
_USE_GLOBAL_STEP = 0


def clip_gradient_norms(gradients_to_variables: list, max_norm: float) -> list:
    """Each gradient clipped to the norm ``max_norm`` (``tf.clip_by_norm``).

    Args:
        gradients_to_variables: ``(gradient, variable)`` pairs.
        max_norm: The largest norm.

    Returns:
        The clipped pairs.
    """
    out = []
    for grad, var in gradients_to_variables:
        if isinstance(grad, IndexedSlices):
            grad = IndexedSlices(_clip_ops.clip_by_norm(grad.values, max_norm), grad.indices,
                                 grad.dense_shape)
        elif grad is not None:
            grad = _clip_ops.clip_by_norm(grad, max_norm)
        out.append((grad, var))
    return out


def multiply_gradients(grads_and_vars: list, gradient_multipliers: dict) -> list:
    """The gradients of the variables named in ``gradient_multipliers`` (by variable or op
    name) multiplied by their factor.

    Args:
        grads_and_vars: ``(gradient, variable)`` pairs.
        gradient_multipliers: Variable (or its op name) -> factor.

    Returns:
        The new pairs.

    Raises:
        ValueError: On a bad argument, or a factor for a None gradient.
    """
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list.")
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty.")
    if not isinstance(gradient_multipliers, dict):
        raise ValueError("`gradient_multipliers` must be a dict.")
    out = []
    for grad, var in grads_and_vars:
        key = var if var in gradient_multipliers else var.op.name
        if key in gradient_multipliers:
            if grad is None:
                raise ValueError("Requested multiple of `None` gradient.")
            factor = gradient_multipliers[key]
            if not isinstance(factor, TensorBase):
                factor = convert_to_tensor(factor, dtype=grad.dtype)
            if isinstance(grad, IndexedSlices):
                grad = IndexedSlices(grad.values * factor, grad.indices, grad.dense_shape)
            else:
                grad = grad * factor
        out.append((grad, var))
    return out


def add_gradients_summaries(grads_and_vars: list) -> list:
    """A histogram and a norm summary of each gradient (``<var>_gradient``,
    ``<var>_gradient_norm``).

    Args:
        grads_and_vars: ``(gradient, variable)`` pairs.

    Returns:
        The summary ops.
    """
    summaries = []
    for grad, var in grads_and_vars:
        if grad is None:
            _tf_logging.info("Var %s has no gradient", var.op.name)
            continue
        values = grad.values if isinstance(grad, IndexedSlices) else grad
        summaries.append(_summary_ops.histogram(var.op.name + "_gradient", values))
        summaries.append(_summary_ops.scalar(var.op.name + "_gradient_norm",
                                            _clip_ops.global_norm([values])))
    return summaries


def create_train_op(total_loss: Any, optimizer: Optimizer, global_step: Any = _USE_GLOBAL_STEP,
                    update_ops: Any = None, variables_to_train: list | None = None,
                    clip_gradient_norm: float = 0, summarize_gradients: bool = False,
                    gate_gradients: int = Optimizer.GATE_OP, aggregation_method: Any = None,
                    colocate_gradients_with_ops: bool = False,
                    gradient_multipliers: dict | None = None,
                    check_numerics_: bool = True, **kwargs: Any) -> Any:
    """A tensor that, run, updates the variables and gives the loss.

    Args:
        total_loss: The loss.
        optimizer: The optimizer.
        global_step: The step incremented; the graph's global step by default (None: none).
        update_ops: Ops run before the gradients; the ``UPDATE_OPS`` collection when None.
        variables_to_train: The variables updated; the trainable ones when None.
        clip_gradient_norm: Clip each gradient to this norm when positive.
        summarize_gradients: Whether to add gradient summaries.
        gate_gradients: See ``Optimizer.compute_gradients``.
        aggregation_method: See ``Optimizer.compute_gradients``.
        colocate_gradients_with_ops: See ``Optimizer.compute_gradients``.
        gradient_multipliers: Variable (or op name) -> gradient factor.
        check_numerics_: Whether the loss must be finite (TF's ``check_numerics``).
        **kwargs: ``check_numerics`` (TF's name of ``check_numerics_``).

    Returns:
        The train op: the loss after the update.
    """
    numerics = kwargs.pop("check_numerics", check_numerics_)
    if kwargs:
        raise TypeError("create_train_op() got unexpected arguments %s" % sorted(kwargs))
    if global_step is _USE_GLOBAL_STEP:
        global_step = get_or_create_global_step()
    graph_update_ops = set(get_default_graph().get_collection(GraphKeys.UPDATE_OPS))
    update_ops = graph_update_ops if update_ops is None else set(update_ops)
    if not graph_update_ops.issubset(update_ops):
        _tf_logging.warning("update_ops in create_train_op does not contain all the "
                           "update_ops in GraphKeys.UPDATE_OPS")
    if update_ops:
        with get_default_graph().control_dependencies(list(update_ops)):
            barrier = _control_flow_ops.no_op(name="update_barrier")
        total_loss = _control_flow_ops.with_dependencies([barrier], total_loss)
    if variables_to_train is None:
        variables_to_train = _state_ops.trainable_variables()
    grads = optimizer.compute_gradients(total_loss, variables_to_train,
                                        gate_gradients=gate_gradients,
                                        aggregation_method=aggregation_method,
                                        colocate_gradients_with_ops=colocate_gradients_with_ops)
    if gradient_multipliers:
        with name_scope("multiply_grads"):
            grads = multiply_gradients(grads, gradient_multipliers)
    if clip_gradient_norm > 0:
        with name_scope("clip_grads"):
            grads = clip_gradient_norms(grads, clip_gradient_norm)
    if summarize_gradients:
        with name_scope("summarize_grads"):
            add_gradients_summaries(grads)
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)
    with name_scope("train_op"):
        if numerics:
            total_loss = check_numerics(total_loss, "LossTensor is inf or nan")
        train_op = _control_flow_ops.with_dependencies([grad_updates], total_loss)
    train_ops = get_default_graph().get_collection_ref(GraphKeys.TRAIN_OP)
    if train_op not in train_ops:
        train_ops.append(train_op)
    return train_op


def train_step(sess: Any, train_op: Any, global_step: Any, train_step_kwargs: dict) -> tuple:
    """Runs ``train_op`` once; logs and decides whether to stop as ``train_step_kwargs``'s
    ``should_log`` and ``should_stop`` tensors say.

    Args:
        sess: The session.
        train_op: The train op.
        global_step: The global step.
        train_step_kwargs: ``should_stop``, ``should_log`` (tensors).

    Returns:
        ``(total_loss, should_stop)``.
    """
    start = time.time()
    total_loss, step = sess.run([train_op, global_step])
    elapsed = time.time() - start
    if "should_log" in train_step_kwargs and sess.run(train_step_kwargs["should_log"]):
        _tf_logging.info("global step %d: loss = %.4f (%.3f sec/step)", step, total_loss, elapsed)
    should_stop = bool(sess.run(train_step_kwargs["should_stop"])) \
        if "should_stop" in train_step_kwargs else False
    return total_loss, should_stop


def train(train_op: Any, logdir: str | None, train_step_fn: Callable = train_step,
          train_step_kwargs: Any = _USE_DEFAULT, log_every_n_steps: int = 1, graph: Any = None,
          master: str = "", is_chief: bool = True, global_step: Any = None,
          number_of_steps: int | None = None, init_op: Any = _USE_DEFAULT,
          init_feed_dict: dict | None = None, local_init_op: Any = _USE_DEFAULT,
          init_fn: Callable | None = None, ready_op: Any = _USE_DEFAULT,
          summary_op: Any = _USE_DEFAULT, save_summaries_secs: float = 600,
          summary_writer: Any = _USE_DEFAULT, startup_delay_steps: int = 0, saver: Any = None,
          save_interval_secs: float = 600, sync_optimizer: Any = None,
          session_config: Any = None, session_wrapper: Callable | None = None,
          trace_every_n_steps: int | None = None, ignore_live_threads: bool = False) -> Any:
    """Trains in a ``tf.train.Supervisor`` session (restored from ``logdir``'s checkpoint
    if there is one) until ``number_of_steps`` or an ``OutOfRangeError``; the chief saves
    the model to ``logdir`` at the end.

    Args:
        train_op: The train op (``create_train_op``'s).
        logdir: The directory of checkpoints and summaries (None: neither).
        train_step_fn: ``f(sess, train_op, global_step, train_step_kwargs) -> (loss,
            should_stop)``.
        train_step_kwargs: Its keyword tensors; by default ``should_stop`` and ``should_log``.
        log_every_n_steps: How often the loss is logged.
        graph: The graph; the default one when None.
        master: The Session's target.
        is_chief: Whether this task is the chief.
        global_step: The global step; the graph's (created if missing) when None.
        number_of_steps: Stop at this global step (None: run until the input ends).
        init_op: The initializing op; all global variables' by default.
        init_feed_dict: Its feeds.
        local_init_op: The local initializing op; local variables and tables by default.
        init_fn: A function of the session run after ``init_op``.
        ready_op: The ready op; ``tf.report_uninitialized_variables()`` by default.
        summary_op: The summary op; ``tf.summary.merge_all()`` by default.
        save_summaries_secs: Seconds between summaries.
        summary_writer: The FileWriter; the Supervisor's by default.
        startup_delay_steps: Steps a non-chief waits for (not supported: one process).
        saver: The Saver; a new one when None.
        save_interval_secs: Seconds between checkpoints.
        sync_optimizer: A SyncReplicasOptimizer (not supported here).
        session_config: The Session's ``ConfigProto``.
        session_wrapper: A function wrapping the session.
        trace_every_n_steps: Accepted for TF-slim's signature.
        ignore_live_threads: See ``Supervisor.stop``.

    Returns:
        The last loss.

    Raises:
        ValueError: On inconsistent arguments.
    """
    if train_op is None:
        raise ValueError("train_op cannot be None.")
    if logdir is None:
        if summary_op != _USE_DEFAULT:
            raise ValueError("Cannot provide summary_op because logdir=None")
        if saver is not None:
            raise ValueError("Cannot provide saver because logdir=None")
        if trace_every_n_steps is not None:
            raise ValueError("Cannot provide trace_every_n_steps because logdir=None")
    if sync_optimizer is not None:
        raise _errors.UnimplementedError(None, None, "slim.learning.train with a "
                                        "sync_optimizer needs a cluster; flowgrad runs one "
                                        "process")
    if number_of_steps is not None and number_of_steps <= 0:
        raise ValueError("`number_of_steps` must be either None or a positive number.")
    graph = graph or get_default_graph()
    with graph.as_default():
        if global_step is None:
            global_step = get_or_create_global_step()
        saver = saver or Saver()
        with name_scope("init_ops"):
            if init_op == _USE_DEFAULT:
                init_op = _state_ops.global_variables_initializer()
            if ready_op == _USE_DEFAULT:
                ready_op = report_uninitialized_variables()
            if local_init_op == _USE_DEFAULT:
                local_init_op = _control_flow_ops.group(_state_ops.local_variables_initializer(),
                                                       _lookup_ops.tables_initializer())
        if summary_op == _USE_DEFAULT:
            summary_op = _summary_ops.merge_all()
        if summary_writer == _USE_DEFAULT:
            summary_writer = Supervisor.USE_DEFAULT
        if train_step_kwargs == _USE_DEFAULT:
            with name_scope("train_step"):
                train_step_kwargs = {"should_stop": (
                    _math_ops.greater_equal(global_step, number_of_steps) if number_of_steps
                    else convert_to_tensor(False))}
                if log_every_n_steps > 0:
                    train_step_kwargs["should_log"] = _math_ops.equal(
                        _math_ops.mod(global_step, log_every_n_steps), 0)
    sv = Supervisor(graph=graph, is_chief=is_chief, logdir=logdir, init_op=init_op,
                    init_feed_dict=init_feed_dict, local_init_op=local_init_op,
                    ready_op=ready_op, summary_op=summary_op, summary_writer=summary_writer,
                    global_step=global_step, saver=saver,
                    save_summaries_secs=save_summaries_secs,
                    save_model_secs=save_interval_secs, init_fn=init_fn)
    if summary_writer is not None:
        train_step_kwargs["summary_writer"] = sv.summary_writer
    total_loss = None
    with sv.managed_session(master, start_standard_services=False,
                            config=session_config) as sess:
        _tf_logging.info("Starting Session.")
        if session_wrapper is not None:
            sess = session_wrapper(sess)
        if is_chief and logdir:
            sv.start_standard_services(sess)
        threads = sv.start_queue_runners(sess)
        _tf_logging.info("Starting Queues.")
        try:
            while not sv.should_stop():
                total_loss, should_stop = train_step_fn(sess, train_op, global_step,
                                                        train_step_kwargs)
                if should_stop:
                    _tf_logging.info("Stopping Training.")
                    sv.request_stop()
                    break
        except _errors.OutOfRangeError as e:
            _tf_logging.info("Caught OutOfRangeError. Stopping Training. %s", e)
        if logdir and sv.is_chief:
            _tf_logging.info("Finished training! Saving model to disk.")
            sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
            sv.stop(threads, close_summary_writer=True, ignore_live_threads=ignore_live_threads)
    return total_loss


__all__ = ["add_gradients_summaries", "clip_gradient_norms", "create_train_op",
           "multiply_gradients", "train", "train_step"]
