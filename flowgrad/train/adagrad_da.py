"""``tf.compat.v1.train.AdagradDAOptimizer``: Adagrad dual averaging (Duchi et al., 2011),
TensorFlow's ApplyAdagradDA with the ``gradient_accumulator`` and
``gradient_squared_accumulator`` slots and the global step (plus one) of each update."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import constant_ops
from flowgrad.ops import proximal_training_ops as ops
from flowgrad.train.optimizer import Optimizer, _op_of


class AdagradDAOptimizer(Optimizer):
    """Adagrad dual averaging, for sparse (L1-regularized) linear models.

    Args:
        learning_rate: The learning rate: a float or a scalar tensor.
        global_step: The int64 training step (``tf.train.get_global_step()``); the update at
            step t uses t + 1.
        initial_gradient_squared_accumulator_value: The starting value of the squared
            accumulators (positive).
        l1_regularization_strength: The L1 strength.
        l2_regularization_strength: The L2 strength.
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops and slots.

    Raises:
        ValueError: If ``initial_gradient_squared_accumulator_value`` is not positive.
    """

    def __init__(self, learning_rate: Any, global_step: Any,
                 initial_gradient_squared_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, use_locking: bool = False,
                 name: str = "AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s"
                             % initial_gradient_squared_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_value = initial_gradient_squared_accumulator_value
        self._l1 = l1_regularization_strength
        self._l2 = l2_regularization_strength
        self._global_step = global_step
        self._tensors: list = []
        self._global_step_on_worker: Any = None

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._zeros_slot(v, "gradient_accumulator", self._name)
            self._filled_slot(v, self._initial_value, "gradient_squared_accumulator",
                              self._name)

    def _prepare(self) -> None:
        self._tensors = [
            convert_to_tensor(self._call_if_callable(self._learning_rate), name="learning_rate"),
            convert_to_tensor(self._l1, name="l1_regularization_strength"),
            convert_to_tensor(self._l2, name="l2_regularization_strength")]
        self._global_step_on_worker = constant_ops.identity(self._global_step) + 1

    def _args(self, var: Any) -> list:
        return [self.get_slot(var, "gradient_accumulator"),
                self.get_slot(var, "gradient_squared_accumulator")]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(ops.apply_adagrad_da(
            var, *self._args(var), grad, *[self._cast_hyper(t, var) for t in self._tensors],
            self._global_step_on_worker))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return _op_of(ops.apply_adagrad_da(
            var, *self._args(var), grad.values,
            *[self._cast_hyper(t, var) for t in self._tensors], self._global_step_on_worker,
            indices=grad.indices))
