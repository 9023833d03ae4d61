"""TensorFlow 1.15's ``tf.contrib.layers.optimize_loss``: a train op from a loss, an optimizer
(a name such as ``"Adam"``, a class, an instance or a function) and a learning rate, with
optional decay, gradient clipping, noise, multipliers and summaries -- composed of the TF1
optimizers as TF 1.15's was."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from flowgrad.compat import v1 as _tf
from flowgrad.framework.type_hints import TensorLike

#: The optimizer names ``optimize_loss`` takes.
OPTIMIZER_CLS_NAMES = {
    "Adagrad": _tf.train.AdagradOptimizer,
    "Adam": _tf.train.AdamOptimizer,
    "Ftrl": _tf.train.FtrlOptimizer,
    "Momentum": lambda learning_rate: _tf.train.MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": _tf.train.RMSPropOptimizer,
    "SGD": _tf.train.GradientDescentOptimizer,
}

#: The summaries ``optimize_loss`` can write.
OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm",
                       "global_gradient_norm"]


def _make_optimizer(optimizer: object, lr: TensorLike | None,
                    learning_rate: object) -> object:
    base = _tf.train.Optimizer
    if isinstance(optimizer, str):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is "
                             "string (%s)." % optimizer)
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError("Optimizer name should be one of [%s], you provided %s."
                             % (", ".join(OPTIMIZER_CLS_NAMES), optimizer))
        return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
    if isinstance(optimizer, type) and issubclass(optimizer, base):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is "
                             "class (%s)." % optimizer)
        return optimizer(learning_rate=lr)
    if isinstance(optimizer, base):
        return optimizer
    if callable(optimizer):
        opt = optimizer(lr) if learning_rate is not None else optimizer()
        if not isinstance(opt, base):
            raise ValueError("Unrecognized optimizer: function should return subclass of "
                             "Optimizer. Got %s." % str(opt))
        return opt
    raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, "
                     "instance of subclass of Optimizer or function with one argument. Got %s."
                     % str(optimizer))


def _multiply_gradients(grads_and_vars: list, multipliers: dict) -> list:
    out = []
    for grad, var in grads_and_vars:
        if grad is not None and (var in multipliers or var.name in multipliers):
            key = var if var in multipliers else var.name
            multiplier = multipliers[key]
            if isinstance(grad, _tf.IndexedSlices):
                grad = _tf.IndexedSlices(grad.values * multiplier, grad.indices,
                                         grad.dense_shape)
            else:
                grad = grad * _tf.constant(multiplier, dtype=grad.dtype)
        out.append((grad, var))
    return out


def optimize_loss(loss: TensorLike, global_step: TensorLike | None, learning_rate: object,
                  optimizer: object, gradient_noise_scale: float | None = None,
                  gradient_multipliers: dict | None = None,
                  clip_gradients: float | Callable | None = None,
                  learning_rate_decay_fn: Callable | None = None,
                  update_ops: Sequence | None = None, variables: Sequence | None = None,
                  name: str | None = None, summaries: Sequence[str] | None = None,
                  colocate_gradients_with_ops: bool = False,
                  increment_global_step: bool = True) -> TensorLike:
    """A train op minimizing ``loss``: the loss after one optimizer step (run it to train).

    Args:
      loss: A scalar loss.
      global_step: The global step variable (incremented by each step), or None for the
        graph's.
      learning_rate: A float (kept in the variable ``OptimizeLoss/learning_rate``) or a scalar
        tensor; None when ``optimizer`` needs none.
      optimizer: A name of :data:`OPTIMIZER_CLS_NAMES` (``"Adam"``, ``"SGD"``, ...), an
        Optimizer class or instance, or a function of the learning rate returning one.
      gradient_noise_scale: Adds normal noise of this scale to the gradients.
      gradient_multipliers: Multipliers of some variables' gradients (by variable or name).
      clip_gradients: A float (clip by global norm) or a function of the (gradient, variable)
        pairs.
      learning_rate_decay_fn: ``fn(learning_rate, global_step)`` giving the decayed rate.
      update_ops: Ops run before the loss (the ``UPDATE_OPS`` collection when None).
      variables: The variables to train (all trainable ones when None).
      name: The variable scope (``OptimizeLoss``).
      summaries: Which of :data:`OPTIMIZER_SUMMARIES` to write (loss, learning rate and
        global gradient norm when None).
      colocate_gradients_with_ops: Accepted for TensorFlow's signature.
      increment_global_step: Whether the step increments ``global_step``.

    Returns:
      The loss, computed after the optimizer step.

    Raises:
      ValueError: a bad learning rate, optimizer, summary name or ``clip_gradients``.
    """
    loss = _tf.convert_to_tensor(loss)
    _tf.assert_scalar(loss)
    if global_step is None:
        global_step = _tf.train.get_global_step()
    else:
        _tf.train.assert_global_step(global_step)
    with _tf.variable_scope(name, "OptimizeLoss", [loss, global_step]):
        if update_ops is None:
            update_ops = _tf.get_collection(_tf.GraphKeys.UPDATE_OPS)
        if update_ops:
            with _tf.control_dependencies(list(update_ops)):
                loss = _tf.identity(loss)
        lr = None
        if learning_rate is not None:
            if _tf.is_tensor(learning_rate) and learning_rate.shape.ndims == 0:
                lr = learning_rate
            elif isinstance(learning_rate, float):
                if learning_rate < 0.0:
                    raise ValueError("Invalid learning_rate %s." % learning_rate)
                lr = _tf.get_variable("learning_rate", [], trainable=False,
                                      initializer=_tf.constant_initializer(learning_rate))
            else:
                raise ValueError("Learning rate should be 0d Tensor or float. Got %s of type %s"
                                 % (str(learning_rate), str(type(learning_rate))))
        if summaries is None:
            summaries = ["loss", "learning_rate", "global_gradient_norm"]
        for summ in summaries:
            if summ not in OPTIMIZER_SUMMARIES:
                raise ValueError("Summaries should be one of [%s], you provided %s."
                                 % (", ".join(OPTIMIZER_SUMMARIES), summ))
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                _tf.summary.scalar("learning_rate", lr)
        opt = _make_optimizer(optimizer, lr, learning_rate)
        if variables is None:
            variables = _tf.trainable_variables()
        gradients = opt.compute_gradients(loss, variables)
        if gradient_noise_scale is not None:
            gradients = [(g if g is None else
                          g + _tf.random_normal(_tf.shape(g)) * gradient_noise_scale, v)
                         for g, v in gradients]
        if gradient_multipliers is not None:
            gradients = _multiply_gradients(gradients, gradient_multipliers)
            if not gradients:
                raise ValueError("Empty list of (gradient, var) pairs encountered. This is most "
                                 "likely to be caused by an improper value of "
                                 "gradient_multipliers.")
        norm_summaries = "global_gradient_norm" in summaries or "gradient_norm" in summaries
        if norm_summaries:
            _tf.summary.scalar("global_norm/gradient_norm",
                               _tf.global_norm([g for g, _ in gradients]))
        if isinstance(clip_gradients, float):
            grads, tvars = zip(*gradients)
            clipped, _ = _tf.clip_by_global_norm(list(grads), clip_gradients)
            gradients = list(zip(clipped, tvars))
        elif callable(clip_gradients):
            gradients = clip_gradients(gradients)
        elif clip_gradients is not None:
            raise ValueError("Unknown type %s for clip_gradients" % type(clip_gradients))
        if "loss" in summaries:
            _tf.summary.scalar("loss", loss)
        for grad, var in gradients:
            values = grad.values if isinstance(grad, _tf.IndexedSlices) else grad
            if values is not None:
                var_name = var.name.replace(":", "_")
                if "gradients" in summaries:
                    _tf.summary.histogram("gradients/%s" % var_name, values)
                if "gradient_norm" in summaries:
                    _tf.summary.scalar("gradient_norm/%s" % var_name, _tf.global_norm([values]))
        if clip_gradients is not None and norm_summaries:
            _tf.summary.scalar("global_norm/clipped_gradient_norm",
                               _tf.global_norm([g for g, _ in gradients]))
        grad_updates = opt.apply_gradients(
            gradients, global_step=global_step if increment_global_step else None, name="train")
        with _tf.control_dependencies([grad_updates]):
            return _tf.identity(loss)


__all__ = ["OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "optimize_loss"]


def __dir__() -> list:
    return sorted(__all__)
