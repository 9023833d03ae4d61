"""Learning-rate schedules of a global step (``tf.train.exponential_decay`` ...).

In graph mode each returns a scalar tensor; in eager mode a function of no
arguments that computes the current rate (pass it as an optimizer's learning rate)."""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.math_ops import (
    add,
    cast,
    ceil,
    cos,
    equal,
    exp,
    floor,
    less_equal,
    log,
    minimum,
    multiply,
    negative,
    pow,
    realdiv,
    sqrt,
    subtract,
    where,
)
from flowgrad.framework.type_hints import TensorLike


def _schedule(fn: Callable, global_step: Any, what: str) -> Any:
    if global_step is None:
        raise ValueError("global_step is required for %s." % what)
    if executing_eagerly():
        return functools.partial(fn, global_step)
    return fn(global_step)


def exponential_decay(learning_rate: TensorLike, global_step: TensorLike, decay_steps: TensorLike,
                      decay_rate: TensorLike, staircase: bool = False,
                      name: str | None = None) -> Any:
    """learning_rate * decay_rate ** (global_step / decay_steps) (integer division if
    ``staircase``).

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps per decay period.
        decay_rate: The decay factor per period.
        staircase: Whether to decay at discrete intervals (integer division).
        name: A name for the operation (optional).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "ExponentialDecay") as scope:
            lr = convert_to_tensor(learning_rate, name="learning_rate")
            dt = lr.dtype
            p = realdiv(cast(step, dt), cast(decay_steps, dt))
            if staircase:
                p = floor(p)
            return multiply(lr, pow(cast(decay_rate, dt), p), name=scope)
    return _schedule(decayed, global_step, "exponential_decay")


def inverse_time_decay(learning_rate: TensorLike, global_step: TensorLike, decay_steps: TensorLike,
                       decay_rate: TensorLike, staircase: bool = False,
                       name: str | None = None) -> Any:
    """learning_rate / (1 + decay_rate * global_step / decay_steps).

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps per decay period.
        decay_rate: The decay factor.
        staircase: Whether to decay at discrete intervals (integer division).
        name: A name for the operation (optional).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "InverseTimeDecay") as scope:
            lr = convert_to_tensor(learning_rate, name="learning_rate")
            dt = lr.dtype
            p = realdiv(cast(step, dt), cast(decay_steps, dt))
            if staircase:
                p = floor(p)
            denom = add(convert_to_tensor(1.0, dt), multiply(cast(decay_rate, dt), p))
            return realdiv(lr, denom, name=scope)
    return _schedule(decayed, global_step, "inverse_time_decay")


def polynomial_decay(learning_rate: TensorLike, global_step: TensorLike, decay_steps: TensorLike,
                     end_learning_rate: TensorLike = 0.0001, power: TensorLike = 1.0,
                     cycle: bool = False,
                     name: str | None = None) -> Any:
    """(learning_rate - end) * (1 - step / decay_steps) ** power + end, with step capped
    at decay_steps (or decay_steps stretched to the next multiple with ``cycle``).

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps to decay over.
        end_learning_rate: The final learning rate.
        power: The power of the polynomial.
        cycle: Whether to restart the decay after ``decay_steps``.
        name: A name for the operation (optional).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "PolynomialDecay") as scope:
            lr = convert_to_tensor(learning_rate, name="learning_rate")
            dt = lr.dtype
            end = cast(end_learning_rate, dt)
            s = cast(step, dt)
            steps = cast(decay_steps, dt)
            if cycle:
                one = convert_to_tensor(1.0, dt)
                multiplier = where(equal(s, 0), one, ceil(realdiv(s, steps)))
                steps = multiply(steps, multiplier)
            else:
                s = minimum(s, steps)
            p = realdiv(s, steps)
            return add(multiply(subtract(lr, end), pow(subtract(1.0, p), cast(power, dt))),
                       end, name=scope)
    return _schedule(decayed, global_step, "polynomial_decay")


def piecewise_constant(x: TensorLike, boundaries: list, values: list,
                       name: str | None = None) -> Any:
    """values[0] while x <= boundaries[0], values[i] for boundaries[i-1] < x <= boundaries[i],
    values[-1] after the last boundary.

    Args:
        x: The current step (a scalar tensor).
        boundaries: Increasing step boundaries, of ``x``'s dtype.
        values: One more value than boundaries: the value for each interval.
        name: A name for the operation (optional).
    """
    x_t = convert_to_tensor(x)
    boundaries = [convert_to_tensor(b) for b in boundaries]
    values = [convert_to_tensor(v) for v in values]
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of values (%d) should be one more than the length of "
                         "boundaries (%d)" % (len(values), len(boundaries)))
    for i, b in enumerate(boundaries):
        if b.dtype.base_dtype is not x_t.dtype.base_dtype:
            if b.dtype.base_dtype is dtypes.int32 and x_t.dtype.base_dtype is dtypes.int64:
                boundaries[i] = cast(b, dtypes.int64)
            else:
                raise ValueError("Boundaries (%s) must have the same dtype as x (%s)."
                                 % (b.dtype.base_dtype, x_t.dtype.base_dtype))
    for v in values[1:]:
        if v.dtype.base_dtype is not values[0].dtype.base_dtype:
            raise ValueError("Values must have elements all with the same dtype (%s vs %s)."
                             % (values[0].dtype.base_dtype, v.dtype.base_dtype))

    def decayed(step: Any) -> Any:
        with name_scope(name, "PiecewiseConstant"):
            s = convert_to_tensor(step)
            result = values[-1]
            for b, v in reversed(list(zip(boundaries, values[:-1]))):
                result = where(less_equal(s, b), v, result)
            return result
    return _schedule(decayed, x, "piecewise_constant")


def natural_exp_decay(learning_rate: TensorLike, global_step: TensorLike, decay_steps: TensorLike,
                      decay_rate: TensorLike, staircase: bool = False,
                      name: str | None = None) -> Any:
    """learning_rate * exp(-decay_rate) ** (global_step / decay_steps) (integer division if
    ``staircase``).

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps per decay period.
        decay_rate: The decay rate.
        staircase: Whether to decay at discrete intervals (integer division).
        name: A name for the operation (optional).

    Returns:
        The decayed rate (a function of no arguments in eager mode).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "ExponentialDecay") as scope:
            lr = convert_to_tensor(learning_rate, name="learning_rate")
            dt = lr.dtype
            p = realdiv(cast(step, dt), cast(decay_steps, dt))
            if staircase:
                p = floor(p)
            return multiply(lr, pow(exp(negative(cast(decay_rate, dt))), p), name=scope)
    return _schedule(decayed, global_step, "natural_exp_decay")


def _cosine(fraction: Any) -> Any:
    """0.5 (1 + cos(pi fraction))."""
    return multiply(0.5, add(1.0, cos(multiply(math.pi, fraction))))


def cosine_decay(learning_rate: TensorLike, global_step: TensorLike, decay_steps: TensorLike,
                 alpha: TensorLike = 0.0,
                 name: str | None = None) -> Any:
    """learning_rate * ((1 - alpha) * 0.5 (1 + cos(pi min(step, decay_steps) / decay_steps))
    + alpha) (Loshchilov & Hutter's SGDR without restarts).

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps to decay over.
        alpha: The final rate as a fraction of ``learning_rate``.
        name: A name for the operation (optional).

    Returns:
        The decayed rate (a function of no arguments in eager mode).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "CosineDecay") as scope:
            lr = convert_to_tensor(learning_rate, name="learning_rate")
            dt = lr.dtype
            steps = cast(decay_steps, dt)
            fraction = realdiv(minimum(cast(step, dt), steps), steps)
            a = cast(alpha, dt)
            return multiply(lr, add(multiply(subtract(1.0, a), _cosine(fraction)), a),
                            name=scope)
    return _schedule(decayed, global_step, "cosine_decay")


def cosine_decay_restarts(learning_rate: TensorLike, global_step: TensorLike,
                          first_decay_steps: TensorLike,
                          t_mul: float = 2.0, m_mul: float = 1.0, alpha: float = 0.0,
                          name: str | None = None) -> Any:
    """Cosine decay with warm restarts (SGDR): period i lasts ``first_decay_steps * t_mul**i``
    steps and starts at ``m_mul**i`` times the rate.

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        first_decay_steps: The number of steps of the first period.
        t_mul: The factor of each period's length over the previous one's.
        m_mul: The factor of each period's initial rate over the previous one's.
        alpha: The lowest rate as a fraction of ``learning_rate``.
        name: A name for the operation (optional).

    Returns:
        The decayed rate (a function of no arguments in eager mode).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "SGDRDecay") as scope:
            lr = convert_to_tensor(learning_rate, name="learning_rate")
            dt = lr.dtype
            fraction = realdiv(cast(step, dt), cast(first_decay_steps, dt))
            tm = cast(t_mul, dt)
            # the geometric periods (t_mul != 1)
            i_geo = floor(realdiv(log(subtract(1.0, multiply(fraction, subtract(1.0, tm)))),
                                  log(tm)))
            sum_r = realdiv(subtract(1.0, pow(tm, i_geo)), subtract(1.0, tm))
            f_geo = realdiv(subtract(fraction, sum_r), pow(tm, i_geo))
            # equal periods (t_mul == 1)
            i_eq = floor(fraction)
            f_eq = subtract(fraction, i_eq)
            same = equal(tm, 1.0)
            i_restart = where(same, i_eq, i_geo)
            fraction = where(same, f_eq, f_geo)
            m_fac = pow(cast(m_mul, dt), i_restart)
            a = cast(alpha, dt)
            cosine_decayed = multiply(m_fac, _cosine(fraction))
            return multiply(lr, add(multiply(subtract(1.0, a), cosine_decayed), a), name=scope)
    return _schedule(decayed, global_step, "cosine_decay_restarts")


def _linear_cosine(learning_rate: Any, step: Any, decay_steps: Any, num_periods: Any,
                   alpha: Any, beta: Any, noise: Callable | None) -> Any:
    lr = convert_to_tensor(learning_rate, name="learning_rate")
    dt = lr.dtype
    steps = cast(decay_steps, dt)
    s = minimum(cast(step, dt), steps)
    linear = realdiv(subtract(steps, s), steps)
    if noise is not None:
        linear = add(linear, noise(s, linear))
    fraction = multiply(multiply(2.0, cast(num_periods, dt)), realdiv(s, steps))
    return lr, add(multiply(add(cast(alpha, dt), linear), _cosine(fraction)), cast(beta, dt))


def linear_cosine_decay(learning_rate: TensorLike, global_step: TensorLike, decay_steps: TensorLike,
                        num_periods: float = 0.5, alpha: float = 0.0, beta: float = 0.001,
                        name: str | None = None) -> Any:
    """learning_rate * ((alpha + linear) * 0.5 (1 + cos(2 pi num_periods step / decay_steps))
    + beta) with linear = (decay_steps - step) / decay_steps, step capped at decay_steps.

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps to decay over.
        num_periods: The number of cosine periods over ``decay_steps``.
        alpha: Added to the linear decay.
        beta: Added to the product.
        name: A name for the operation (optional).

    Returns:
        The decayed rate (a function of no arguments in eager mode).
    """
    def decayed(step: Any) -> Any:
        with name_scope(name, "LinearCosineDecay") as scope:
            lr, factor = _linear_cosine(learning_rate, step, decay_steps, num_periods, alpha,
                                        beta, None)
            return multiply(lr, factor, name=scope)
    return _schedule(decayed, global_step, "linear_cosine_decay")


def noisy_linear_cosine_decay(learning_rate: TensorLike, global_step: TensorLike,
                              decay_steps: TensorLike,
                              initial_variance: float = 1.0, variance_decay: float = 0.55,
                              num_periods: float = 0.5, alpha: float = 0.0, beta: float = 0.001,
                              name: str | None = None) -> Any:
    """``linear_cosine_decay`` with Gaussian noise of variance
    ``initial_variance / (1 + step) ** variance_decay`` added to the linear term.

    Args:
        learning_rate: The initial learning rate.
        global_step: The current step (an integer scalar or variable).
        decay_steps: The number of steps to decay over.
        initial_variance: The noise's initial variance.
        variance_decay: The power the variance decays with.
        num_periods: The number of cosine periods over ``decay_steps``.
        alpha: Added to the linear decay.
        beta: Added to the product.
        name: A name for the operation (optional).

    Returns:
        The decayed rate (a function of no arguments in eager mode).
    """
    from flowgrad.ops.random_ops import random_normal

    def noise(s: Any, linear: Any) -> Any:
        dt = linear.dtype
        variance = realdiv(cast(initial_variance, dt),
                           pow(add(1.0, s), cast(variance_decay, dt)))
        return random_normal([], stddev=sqrt(variance), dtype=dt)

    def decayed(step: Any) -> Any:
        with name_scope(name, "NoisyLinearCosineDecay") as scope:
            lr, factor = _linear_cosine(learning_rate, step, decay_steps, num_periods, alpha,
                                        beta, noise)
            return multiply(lr, factor, name=scope)
    return _schedule(decayed, global_step, "noisy_linear_cosine_decay")
