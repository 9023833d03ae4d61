"""``tf.train.AdagradOptimizer``: accum += g^2; var -= lr * g / sqrt(accum)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import training_ops
from flowgrad.train.optimizer import Optimizer, _op_of


class AdagradOptimizer(Optimizer):
    """Adagrad; the ``accumulator`` slot starts at ``initial_accumulator_value``.

    Args:
        learning_rate: The learning rate: a float or a scalar tensor.
        initial_accumulator_value: The starting value of the accumulators (positive).
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops and slots.
    """

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1,
                 use_locking: bool = False, name: str = "Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s"
                             % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._learning_rate_tensor: Any = None

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._filled_slot(v, self._initial_accumulator_value, "accumulator", self._name)

    def _prepare(self) -> None:
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(training_ops.apply_adagrad(
            var, self.get_slot(var, "accumulator"),
            self._cast_hyper(self._learning_rate_tensor, var), grad,
            use_locking=self._use_locking))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return _op_of(training_ops.sparse_apply_adagrad(
            var, self.get_slot(var, "accumulator"),
            self._cast_hyper(self._learning_rate_tensor, var), grad.values, grad.indices,
            use_locking=self._use_locking))
