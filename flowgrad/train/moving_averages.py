"""``tf.train.ExponentialMovingAverage``: shadow variables that follow other variables with
an exponential decay, named, initialized and updated as TensorFlow's are, so the numbers
and the checkpoint names (``w/ExponentialMovingAverage``) are TensorFlow's."""
from __future__ import annotations

from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, control_dependencies, get_default_graph, name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.control_flow_ops import group
from flowgrad.ops.math_ops import cast, minimum, pow, subtract
from flowgrad.ops.state_ops import Variable, global_variables, trainable_variables
from flowgrad.ops.variable_scope import get_variable, variable_scope
from flowgrad.train.slot_creator import create_slot, create_zeros_slot

_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def _name(x: Any) -> str:
    return x.name[:-2] if x.name.endswith(":0") else x.name


def assign_moving_average(variable: Any, value: Any, decay: Any, zero_debias: bool = True,
                          name: str | None = None) -> Any:
    """``variable -= (1 - decay) * (variable - value)``, TensorFlow's formula and op order.

    Args:
        variable: The variable holding the average.
        value: The tensor to average in.
        decay: The decay (a float or a float tensor).
        zero_debias: Whether to divide out the bias of an average started at zero (keeps a
            ``biased`` and a ``local_step`` variable beside ``variable``, as TensorFlow).
        name: A name scope for the ops (optional).

    Returns:
        The updated average.
    """
    with name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        one_minus = convert_to_tensor(1.0 - decay if isinstance(decay, float) else
                                      subtract(1.0, decay), name="decay")
        if one_minus.dtype.base_dtype is not variable.dtype.base_dtype:
            one_minus = cast(one_minus, variable.dtype.base_dtype)
        if not zero_debias:
            return variable.assign_sub((variable - value) * one_minus, name=scope)
        with variable_scope(_name(variable)):
            biased = get_variable("biased", shape=variable.shape, dtype=variable.dtype,
                                  initializer=_zeros, trainable=False)
            local_step = get_variable("local_step", shape=[], dtype=variable.dtype,
                                      initializer=_zeros, trainable=False)
        update_biased = biased.assign_sub((biased - value) * one_minus)
        update_step = local_step.assign_add(1)
        bias_factor = 1 - pow(1.0 - one_minus, update_step)
        return variable.assign(update_biased / bias_factor, name=scope)


def _zeros(shape: Any, dtype: Any = dtypes.float32, **_: Any) -> Any:
    from flowgrad.ops.array_ops import zeros
    return zeros(shape, dtype)


class ExponentialMovingAverage:
    """Maintains moving averages of variables with an exponential decay.

    ``apply(var_list)`` makes, the first time, a shadow variable per variable (named
    ``<variable>/<name>``, not trainable, starting at the variable's initial value) and
    updates each: ``shadow -= (1 - decay) * (shadow - variable)``. With ``num_updates``
    the decay is ``min(decay, (1 + num_updates) / (10 + num_updates))``.

    Example:
        >>> import flowgrad as tf
        >>> w = tf.Variable(1.0)
        >>> ema = tf.train.ExponentialMovingAverage(decay=0.5)
        >>> _ = ema.apply([w])
        >>> _ = w.assign(3.0)
        >>> _ = ema.apply([w])
        >>> float(ema.average(w))
        2.0
    """

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage"):
        """Creates the moving averages' keeper.

        Args:
            decay: The decay: a float, a float tensor or a variable (read at every apply).
            num_updates: The number of updates so far (a tensor or variable, often the
                global step), to lower the decay early in training; None: the fixed decay.
            zero_debias: Whether the averages of tensors (TF1 graphs only) divide out their
                start at zero.
            name: The suffix of the shadow variables' names and the ops' name scope.
        """
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: dict = {}     # id(variable) -> (variable, its shadow)

    @property
    def name(self) -> str:
        """The name of this ExponentialMovingAverage (the shadow variables' suffix)."""
        return self._name

    def apply(self, var_list: Any = None) -> Any:
        """Creates the shadow variables of ``var_list`` (the first time) and updates them.

        Args:
            var_list: Variables (or, in TF1 graphs, float tensors); the trainable
                variables when None.

        Returns:
            The op that updates the averages (graph mode); None when eager (done at once).

        Raises:
            TypeError: If an element is not float, or is a tensor in eager mode.
        """
        if var_list is None:
            var_list = trainable_variables()
        var_list = list(var_list)
        eager = executing_eagerly()
        for v in var_list:
            if eager and not isinstance(v, Variable):
                raise TypeError("tf.train.ExponentialMovingAverage does not support "
                                "non-Variable tensors when eager execution is enabled.")
            if v.dtype.base_dtype not in _FLOATS:
                raise TypeError("The variables must be half, float, or double: %s" % v.name)
        debiased = set()
        for v in var_list:
            if id(v) not in self._averages:
                with control_dependencies(None):
                    if isinstance(v, Variable):
                        start = v.read_value() if eager else v.initialized_value()
                        avg = create_slot(v, start, self._name)
                        get_default_graph().add_to_collection(
                            GraphKeys.MOVING_AVERAGE_VARIABLES, v)
                    else:
                        avg = create_zeros_slot(v, self._name)
                        if self._zero_debias:
                            debiased.add(id(avg))
                self._averages[id(v)] = (v, avg)
        with name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                n = cast(self._num_updates, dtypes.float32, name="num_updates")
                decay = minimum(decay, (1.0 + n) / (10.0 + n))
            updates = [assign_moving_average(self._averages[id(v)][1], v, decay,
                                             id(self._averages[id(v)][1]) in debiased)
                       for v in var_list]
            return None if eager else group(*updates, name=scope)

    def average(self, var: Any) -> Any:
        """The shadow variable of ``var``, or None if ``var`` has no average.

        Args:
            var: A variable given to ``apply``.
        """
        return self._averages.get(id(var), (None, None))[1]

    def average_name(self, var: Any) -> str:
        """The name of ``var``'s shadow variable (for ``Saver({name: var})``), known before
        ``apply`` creates it.

        Args:
            var: A variable.
        """
        if id(var) in self._averages:
            return _name(self._averages[id(var)][1])
        return get_default_graph().unique_name(_name(var) + "/" + self._name,
                                               mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict:
        """Names to restore each variable from: its average's name where it has one.

        Args:
            moving_avg_variables: The variables restored from their averages; the trainable
                and the moving-average variables when None.

        Returns:
            ``{name in the checkpoint: variable}`` for ``tf.compat.v1.train.Saver``.
        """
        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + get_default_graph().get_collection(
                GraphKeys.MOVING_AVERAGE_VARIABLES)
        chosen = {id(v): v for v in moving_avg_variables}
        names = {self.average_name(v): v for v in chosen.values()}
        chosen_names = {v.name for v in chosen.values()}
        for v in global_variables():
            if v.name not in chosen_names and _name(v) not in names:
                names[_name(v)] = v
        return names


def moving_average_variables(scope: str | None = None) -> list:
    """The variables ``ExponentialMovingAverage.apply`` keeps averages of (TF1).

    Args:
        scope: Only variables whose names match this regular expression; all when None.
    """
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)
