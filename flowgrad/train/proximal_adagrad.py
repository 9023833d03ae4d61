"""``tf.compat.v1.train.ProximalAdagradOptimizer``: Adagrad's per-coordinate rate followed by
the proximal step of L1/L2 regularization (TensorFlow's ApplyProximalAdagrad)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import proximal_training_ops as ops
from flowgrad.train.optimizer import Optimizer, _op_of


class ProximalAdagradOptimizer(Optimizer):
    """Proximal Adagrad; the ``accumulator`` slot starts at ``initial_accumulator_value``.

    Args:
        learning_rate: The learning rate: a float or a scalar tensor.
        initial_accumulator_value: The starting value of the accumulators (positive).
        l1_regularization_strength: The L1 strength.
        l2_regularization_strength: The L2 strength.
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops and slots.

    Raises:
        ValueError: If ``initial_accumulator_value`` is not positive.
    """

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, use_locking: bool = False,
                 name: str = "ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s"
                             % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1 = l1_regularization_strength
        self._l2 = l2_regularization_strength
        self._tensors: list = []

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._filled_slot(v, self._initial_accumulator_value, "accumulator", self._name)

    def _prepare(self) -> None:
        self._tensors = [
            convert_to_tensor(self._call_if_callable(self._learning_rate), name="learning_rate"),
            convert_to_tensor(self._l1, name="l1_regularization_strength"),
            convert_to_tensor(self._l2, name="l2_regularization_strength")]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(ops.apply_proximal_adagrad(
            var, self.get_slot(var, "accumulator"),
            *self._tensors, grad))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return _op_of(ops.apply_proximal_adagrad(
            var, self.get_slot(var, "accumulator"),
            *self._tensors, grad.values,
            indices=grad.indices))
