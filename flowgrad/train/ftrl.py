"""``tf.compat.v1.train.FtrlOptimizer``: FTRL-Proximal (McMahan et al., 2013), TensorFlow's
ApplyFtrl/ApplyFtrlV2 updates with the ``accum`` and ``linear`` slots."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import proximal_training_ops as ops
from flowgrad.train.optimizer import Optimizer, _op_of


class FtrlOptimizer(Optimizer):
    """FTRL-Proximal with L1, L2 and L2-shrinkage regularization.

    Args:
        learning_rate: The learning rate: a float or a scalar tensor.
        learning_rate_power: The power of the per-coordinate rate (zero or negative).
        initial_accumulator_value: The starting value of the accumulators (zero or positive).
        l1_regularization_strength: The L1 strength (zero or positive).
        l2_regularization_strength: The L2 strength (zero or positive).
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops and slots.
        accum_name: The name of the accumulator slots' ops (``name`` by default).
        linear_name: The name of the linear slots' ops (``name`` by default).
        l2_shrinkage_regularization_strength: The L2 shrinkage applied to the gradient
            (zero or positive).
        beta: Added to L2 as ``beta / (2 learning_rate)``.

    Raises:
        ValueError: If a strength or the accumulator value is negative, or the power positive.
    """

    def __init__(self, learning_rate: Any, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, use_locking: bool = False,
                 name: str = "Ftrl", accum_name: str | None = None,
                 linear_name: str | None = None,
                 l2_shrinkage_regularization_strength: float = 0.0, beta: float | None = None):
        super().__init__(use_locking, name)
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value %f needs to be be positive or zero"
                             % initial_accumulator_value)
        if learning_rate_power > 0.0:
            raise ValueError("learning_rate_power %f needs to be negative or zero"
                             % learning_rate_power)
        if l1_regularization_strength < 0.0:
            raise ValueError("l1_regularization_strength %f needs to be positive or zero"
                             % l1_regularization_strength)
        if l2_regularization_strength < 0.0:
            raise ValueError("l2_regularization_strength %f needs to be positive or zero"
                             % l2_regularization_strength)
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or "
                             "zero" % l2_shrinkage_regularization_strength)
        self._learning_rate = learning_rate
        self._learning_rate_power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1 = l1_regularization_strength
        self._l2 = l2_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2_shrinkage = l2_shrinkage_regularization_strength
        self._accum_name = accum_name
        self._linear_name = linear_name
        self._tensors: dict = {}

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._filled_slot(v, self._initial_accumulator_value, "accum",
                              self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self) -> None:
        lr = self._call_if_callable(self._learning_rate)
        self._tensors = {
            "lr": convert_to_tensor(lr, name="learning_rate"),
            "l1": convert_to_tensor(self._l1, name="l1_regularization_strength"),
            # L2 plus beta / (2 lr), as TensorFlow adjusts it
            "l2": convert_to_tensor(self._l2 + self._beta / (2.0 * lr) if self._beta else
                                    self._l2, name="adjusted_l2_regularization_strength"),
            "shrinkage": convert_to_tensor(self._l2_shrinkage,
                                           name="l2_shrinkage_regularization_strength"),
            "power": convert_to_tensor(self._learning_rate_power, name="learning_rate_power"),
        }

    def _hyper(self, var: Any) -> list:
        t = self._tensors
        return [self._cast_hyper(t[k], var) for k in ("lr", "l1", "l2")]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        power = self._cast_hyper(self._tensors["power"], var)
        if self._l2_shrinkage <= 0.0:
            return _op_of(ops.apply_ftrl(var, accum, linear, grad, *self._hyper(var), power))
        return _op_of(ops.apply_ftrl_v2(var, accum, linear, grad, *self._hyper(var),
                                        self._cast_hyper(self._tensors["shrinkage"], var),
                                        power))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        power = self._cast_hyper(self._tensors["power"], var)
        shrinkage = (None if self._l2_shrinkage <= 0.0
                     else self._cast_hyper(self._tensors["shrinkage"], var))
        return _op_of(ops.sparse_apply_ftrl(var, accum, linear, grad.values, grad.indices,
                                            *self._hyper(var), power, l2_shrinkage=shrinkage))
