"""Learning-rate schedules of a global step (``tf.train.exponential_decay`` ...).

In graph mode each returns a scalar tensor; in eager mode a function of no
arguments that computes the current rate (pass it as an optimizer's learning rate)."""
from __future__ import annotations

import functools
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
    equal,
    floor,
    less_equal,
    minimum,
    multiply,
    pow,
    realdiv,
    subtract,
    where,
)


def _schedule(fn: Callable, global_step: Any, what: str) -> Any:
    if global_step is None:
        raise ValueError("global_step is required for %s." % what)
    if executing_eagerly():
        return functools.partial(fn, global_step)
    return fn(global_step)


def exponential_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Any:
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


def inverse_time_decay(learning_rate: Any, global_step: Any, decay_steps: Any,
                       decay_rate: Any, staircase: bool = False,
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


def polynomial_decay(learning_rate: Any, global_step: Any, decay_steps: Any,
                     end_learning_rate: Any = 0.0001, power: Any = 1.0, cycle: bool = False,
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


def piecewise_constant(x: Any, boundaries: list, values: list, name: str | None = None) -> Any:
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
