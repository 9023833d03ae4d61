"""``tf.train.AdadeltaOptimizer`` (Zeiler 2012, scaled by a learning rate)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import training_ops
from flowgrad.train.optimizer import Optimizer, _op_of


class AdadeltaOptimizer(Optimizer):
    """accum = rho accum + (1 - rho) g^2;
    update = sqrt(accum_update + eps) / sqrt(accum + eps) * g;
    accum_update = rho accum_update + (1 - rho) update^2; var -= lr * update.

    Args:
        learning_rate: The learning rate: a float or a scalar tensor.
        rho: The decay rate of the accumulators.
        epsilon: The constant added for numerical stability.
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops and slots.
    """

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: Any = 1e-8,
                 use_locking: bool = False, name: str = "Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon
        self._hyper: dict = {}

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self) -> None:
        for key, value in (("lr", self._lr), ("rho", self._rho), ("epsilon", self._epsilon)):
            self._hyper[key] = convert_to_tensor(self._call_if_callable(value), name=key)

    def _slots_and_hypers(self, var: Any) -> list:
        return [self.get_slot(var, "accum"), self.get_slot(var, "accum_update")] + [
            self._cast_hyper(self._hyper[k], var) for k in ("lr", "rho", "epsilon")]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(training_ops.apply_adadelta(var, *self._slots_and_hypers(var), grad,
                                                  use_locking=self._use_locking))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return _op_of(training_ops.sparse_apply_adadelta(
            var, *self._slots_and_hypers(var), grad.values, grad.indices,
            use_locking=self._use_locking))
