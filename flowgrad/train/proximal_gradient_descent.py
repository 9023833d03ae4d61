"""``tf.compat.v1.train.ProximalGradientDescentOptimizer``: gradient descent followed by
the proximal step of L1/L2 regularization (TensorFlow's ApplyProximalGradientDescent)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import proximal_training_ops as ops
from flowgrad.train.optimizer import Optimizer, _op_of


class ProximalGradientDescentOptimizer(Optimizer):
    """Proximal gradient descent (FOBOS); no slots.

    Args:
        learning_rate: The learning rate: a float or a scalar tensor.
        l1_regularization_strength: The L1 strength.
        l2_regularization_strength: The L2 strength.
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops.
    """

    def __init__(self, learning_rate: Any, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, use_locking: bool = False,
                 name: str = "ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1 = l1_regularization_strength
        self._l2 = l2_regularization_strength
        self._tensors: list = []

    def _prepare(self) -> None:
        self._tensors = [
            convert_to_tensor(self._call_if_callable(self._learning_rate), name="learning_rate"),
            convert_to_tensor(self._l1, name="l1_regularization_strength"),
            convert_to_tensor(self._l2, name="l2_regularization_strength")]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(ops.apply_proximal_gradient_descent(
            var, *self._tensors, grad))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return _op_of(ops.apply_proximal_gradient_descent(
            var, *self._tensors, grad.values,
            indices=grad.indices))
