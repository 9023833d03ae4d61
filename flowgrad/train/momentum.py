"""``tf.train.MomentumOptimizer``: accum = momentum * accum + grad; var -= lr * accum."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import training_ops
from flowgrad.train.optimizer import Optimizer, _op_of


class MomentumOptimizer(Optimizer):
    """Momentum; with ``use_nesterov`` the step is lr * (grad + momentum * accum).

    Args:
        learning_rate: A float or a scalar tensor.
        momentum: The momentum, a float or a scalar tensor.
        use_locking: Accepted for TensorFlow's signature; session runs are all-or-nothing.
        name: The prefix of the optimizer's op and slot names.
        use_nesterov: If true, uses Nesterov momentum.
    """

    def __init__(self, learning_rate: Any, momentum: Any, use_locking: bool = False,
                 name: str = "Momentum", use_nesterov: bool = False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov
        self._learning_rate_tensor: Any = None
        self._momentum_tensor: Any = None

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self) -> None:
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum),
                                                  name="momentum")

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(training_ops.apply_momentum(
            var, self.get_slot(var, "momentum"),
            self._cast_hyper(self._learning_rate_tensor, var), grad,
            self._cast_hyper(self._momentum_tensor, var), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return _op_of(training_ops.sparse_apply_momentum(
            var, self.get_slot(var, "momentum"),
            self._cast_hyper(self._learning_rate_tensor, var), grad.values, grad.indices,
            self._cast_hyper(self._momentum_tensor, var), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov))
